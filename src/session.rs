//! The protocol-neutral game session: the engine plus the clocks, the time manager, the pending try, the
//! try counts and the move log. Both front ends (GTP and the championship dialect) drive it; neither owns
//! game state, they only parse lines into calls and format what comes back.

use crate::color::{ByColor, Color};
use crate::config::Settings;
use crate::engine::{Decision, Engine, EngineError, MoveStats};
use crate::game::Repetition;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::{Move, Point};
use crate::search::SearchLimits;
use crate::time::{ClockState, MoveContext, TimeControl, TimeManager};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One game session: the engine, the clocks the engine keeps, and the move log.
pub struct Session {
    engine: Engine,
    time_manager: TimeManager,
    control: TimeControl,
    clocks: ByColor<ClockState>,
    tries: ByColor<u32>,
    /// The colour of the last genmove whose try awaits its result.
    pending_try: Option<Color>,
    move_log: Option<Box<dyn Write + Send>>,
    /// How the stderr move line names a try (GTP vertices unless a front end says otherwise).
    try_name: TryName,
    /// Written as `"game"` in every move-log line (`--game-id`).
    game_id: Option<String>,
    /// Time spent on announcements (belief updates and resamplings) since the last genmove, logged with the next.
    update_time: Duration,
    /// The ponder running on the opponent's time, if any ([`Session::start_ponder`]). One that runs while our
    /// try is pending was started after the dialect's `accept` and took that try in as standing with no captures.
    ponder: Option<Ponder>,
    /// When our last try was chosen (its answer written right after): no referee asks for a try before it has
    /// our previous one, so a genmove line that arrived earlier was sent ahead by a script or a person piping
    /// commands, and its time counts from here ([`Session::genmove`]).
    answered: Option<Instant>,
}

/// A ponder on a thread of its own: a copy of the engine that takes in the expected report
/// ([`crate::engine::ponder::EXPECTED_REPORT`]) and searches our coming try until stopped.
struct Ponder {
    stop: Arc<AtomicBool>,
    /// The copy, handed back when the thread ends; `None` when the expected report did not fit.
    handle: JoinHandle<Option<Engine>>,
}

/// Names a try on a board of the given size, for the stderr log.
pub type TryName = fn(Move, usize) -> String;

fn gtp_try_name(mv: Move, size: usize) -> String {
    mv.to_vertex(size)
}

/// Milliseconds with microsecond precision, for logs.
pub fn duration_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

impl Session {
    /// A session with an engine built from `settings` (no move log; see [`Session::with_move_log`]).
    pub fn new(settings: &Settings) -> Session {
        Session {
            engine: Engine::new(settings.engine.clone()),
            time_manager: settings.time_manager(),
            control: TimeControl::Unlimited,
            clocks: ByColor::default(),
            tries: ByColor::default(),
            pending_try: None,
            move_log: None,
            try_name: gtp_try_name,
            game_id: settings.game_id.clone(),
            update_time: Duration::ZERO,
            ponder: None,
            answered: None,
        }
    }

    /// A session over `settings` that appends one JSON line per genmove to the settings' log file, if any. A log
    /// file that cannot be opened is a warning naming the key, and play goes on without a move log: a tournament
    /// manager starting the engine in a read-only folder must not lose every game.
    pub fn open(settings: &Settings) -> Session {
        let session = Session::new(settings);
        let Some(path) = &settings.log_file else {
            return session;
        };
        match std::fs::OpenOptions::new().create(true).append(true).open(path) {
            Ok(file) => session.with_move_log(Box::new(std::io::BufWriter::new(file))),
            Err(e) => {
                log::warn!(
                    "cannot open the move log {} ({}): {e}; playing on without a move log",
                    path.display(),
                    settings.log_file_key
                );
                session
            }
        }
    }

    /// Names tries in the stderr move line with `name` (a front end's own coordinates); the JSON move log
    /// keeps GTP vertices whatever the protocol.
    pub fn with_try_names(mut self, name: TryName) -> Session {
        self.try_name = name;
        self
    }

    /// Writes one JSON line per genmove to `log`.
    pub fn with_move_log(mut self, log: Box<dyn Write + Send>) -> Session {
        self.move_log = Some(log);
        self
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The time control in force.
    pub fn time_control(&self) -> TimeControl {
        self.control
    }

    /// The clock the engine keeps for `color`.
    pub fn clock(&self, color: Color) -> ClockState {
        self.clocks[color]
    }

    /// Tries asked of `color` this game (illegal ones included).
    pub fn tries(&self, color: Color) -> u32 {
        self.tries[color]
    }

    /// True while a try awaits its result.
    pub fn has_pending_try(&self) -> bool {
        self.pending_try.is_some()
    }

    fn new_game(&mut self) {
        self.drop_ponder();
        let start = ClockState::start(self.control);
        self.clocks = ByColor::new(start, start);
        self.tries = ByColor::default();
        self.pending_try = None;
        self.update_time = Duration::ZERO;
    }

    /// Runs one announcement's update, adding its time to what the next move-log line reports.
    fn timed<T>(&mut self, update: impl FnOnce(&mut Engine) -> T) -> T {
        self.drop_ponder();
        let start = Instant::now();
        let result = update(&mut self.engine);
        self.update_time += start.elapsed();
        result
    }

    /// Changes the board size and starts a new game.
    ///
    /// # Errors
    /// [`EngineError::UnacceptableSize`]; nothing changes then.
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        self.drop_ponder();
        self.engine.set_board_size(size)?;
        self.new_game();
        Ok(())
    }

    /// Empties the board and starts a new game (clocks back to the full time control).
    pub fn clear_board(&mut self) {
        self.drop_ponder();
        self.engine.clear_board();
        self.new_game();
    }

    /// Sets komi (range-checked in f64 so huge values are not rounded to infinity first).
    ///
    /// # Errors
    /// [`EngineError::BadKomi`].
    pub fn set_komi(&mut self, komi: f64) -> Result<(), EngineError> {
        if !komi.is_finite() || komi.abs() > 1000.0 {
            return Err(EngineError::BadKomi);
        }
        self.drop_ponder();
        self.engine.set_komi(komi as f32)
    }

    /// Sets what an illegal try costs.
    pub fn set_illegal_rule(&mut self, rule: IllegalRule) {
        self.drop_ponder();
        self.engine.set_illegal_rule(rule);
    }

    /// Sets the rules one `phantom-rules` line names; `None` leaves a rule as it is, `max_tries` 0 lifts the cap.
    pub fn set_rules(&mut self, illegal: Option<IllegalRule>, repetition: Option<Repetition>, max_tries: Option<u32>) {
        self.drop_ponder();
        if let Some(rule) = illegal {
            self.engine.set_illegal_rule(rule);
        }
        let (old_repetition, old_max_tries) = self.engine.optional_rules();
        let max_tries = max_tries.map_or(old_max_tries, |n| (n > 0).then_some(n));
        self.engine.set_optional_rules(repetition.unwrap_or(old_repetition), max_tries);
    }

    /// Sets the time control; both clocks start full.
    pub fn set_time_control(&mut self, control: TimeControl) {
        self.control = control;
        let start = ClockState::start(control);
        self.clocks = ByColor::new(start, start);
    }

    /// Corrects the clock of `color` (`time_left`).
    pub fn set_time_left(&mut self, color: Color, left: Duration, stones: u32) {
        self.clocks[color] = ClockState::from_time_left(self.control, left, stones);
    }

    /// A move of `color` known with full information.
    ///
    /// # Errors
    /// [`EngineError::IllegalMove`].
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), EngineError> {
        self.pending_try = None;
        self.timed(|engine| engine.play(color, mv))
    }

    /// Takes back the last move or report.
    ///
    /// # Errors
    /// [`EngineError::CannotUndo`].
    pub fn undo(&mut self) -> Result<(), EngineError> {
        self.drop_ponder();
        self.pending_try = None;
        self.engine.undo()
    }

    /// Chooses a try for `color`, asked at `received`: the time manager budgets it from the engine's clock
    /// (emergency mode included), the clock is charged from `received` to now, the try counted and logged.
    ///
    /// A line that arrived before our previous try was answered counts from that answer instead: a referee
    /// sends the next genmove only once it has our try, while a person or a script piping `genmove` lines ahead
    /// would otherwise find every try after the first charged for the ones before it (and answered in
    /// emergency mode). A line that arrived later keeps its arrival, however long it waited behind an
    /// announcement (a belief update the referee's clock already counts).
    pub fn genmove(&mut self, color: Color, received: Instant) -> Decision {
        self.drop_ponder();
        let received = self.answered.map_or(received, |answered| received.max(answered));
        let clock = self.clocks[color];
        let context = MoveContext {
            board_size: self.engine.size(),
            own_tries: self.tries[color],
            already_elapsed: received.elapsed(),
        };
        let mut limits = self.time_manager.limits(self.control, clock, context);
        // The budget counts from here, not from the start of the search (see `SearchLimits::since`).
        limits.since = Some(Instant::now());
        let decision = self.engine.genmove(color, &limits);
        let used = received.elapsed();
        self.clocks[color] = clock.after_move(self.control, used);
        self.tries[color] = self.tries[color].saturating_add(1);
        self.pending_try = match decision {
            Decision::Move(Move::Play(_)) => Some(color),
            _ => None,
        };
        let (reply, shown) = match decision {
            Decision::Move(mv) => (mv.to_vertex(self.engine.size()), (self.try_name)(mv, self.engine.size())),
            Decision::Resign => ("resign".to_string(), "resign".to_string()),
        };
        self.log_move(color, [&reply, &shown], &limits, used);
        self.answered = Some(Instant::now());
        decision
    }

    /// The pending try was illegal: it is undone (a Canadian period's stone is given back).
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`].
    pub fn result_illegal(&mut self) -> Result<(), EngineError> {
        self.timed(Engine::phantom_result_illegal)?;
        if let Some(color) = self.pending_try.take() {
            self.clocks[color] = self.clocks[color].refund_stone(self.control);
        }
        Ok(())
    }

    /// The pending try stands and captured these opponent stones.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`] or [`EngineError::Inconsistent`] (the try stays pending then).
    pub fn result_ok(&mut self, captured: &[Point]) -> Result<(), EngineError> {
        // A ponder that runs while our try is pending assumed this very result when it names no captures: it goes
        // on, and the engine takes the result in too, so that it stands if another report drops the ponder.
        let kept = if captured.is_empty() && self.pending_try.is_some() { self.ponder.take() } else { None };
        let taken = self.timed(|engine| engine.phantom_result_ok(captured));
        self.ponder = kept;
        if taken.is_ok() {
            self.pending_try = None;
        } else {
            self.drop_ponder();
        }
        taken
    }

    /// What the opponent's turn revealed.
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`]; nothing changes then.
    pub fn opponent(&mut self, report: &Observation) -> Result<(), EngineError> {
        if *report == crate::engine::ponder::EXPECTED_REPORT {
            let start = Instant::now();
            let pondered = self.take_ponder();
            self.update_time += start.elapsed();
            if let Some(engine) = pondered {
                // The copy took in this very report; its search carries on at the genmove.
                self.engine = engine;
                self.pending_try = None;
                return Ok(());
            }
        }
        let retry = self.engine.illegal_rule() == IllegalRule::Retry;
        if *report == Observation::OpponentIllegal && retry && self.ponder.is_some() {
            // The opponent tries again (under `retry`): the pondered trees still describe our coming root,
            // less what the refusal tells, so the next ponder goes on from them.
            let start = Instant::now();
            if let Some(mut copy) = self.take_ponder() {
                self.engine.take_trees_from(&mut copy);
            }
            self.update_time += start.elapsed();
        }
        self.timed(|engine| engine.phantom_opponent(report))?;
        self.pending_try = None;
        Ok(())
    }

    /// Starts pondering when it is on (`engine.ponder_playouts`), none runs and the opponent is to move with
    /// no try of ours awaiting its result: a copy of the engine takes in the report we expect (a move somewhere
    /// unseen that captured nothing) and searches our coming try on a thread of its own. A front end calls it
    /// when it has answered a line and waits for the next. The report, if it comes, adopts the copy; anything
    /// else that changes the game drops it (its thread stops at its next check).
    pub fn start_ponder(&mut self) {
        if self.pending_try.is_none() {
            self.spawn_ponder(false);
        }
    }

    /// Starts pondering as [`Session::start_ponder`] does, while our try awaits a result that may still name
    /// captures (the championship dialect's `accept`, which a `take` may follow): the copy first takes the try
    /// in as standing with no captures. That result, when it comes, keeps the ponder; a capture drops it.
    pub fn start_ponder_after_accept(&mut self) {
        if self.pending_try.is_some() {
            self.spawn_ponder(true);
        }
    }

    fn spawn_ponder(&mut self, assumes_ok: bool) {
        let limit = self.engine.config().ponder_playouts;
        if limit == 0 || self.ponder.is_some() {
            return;
        }
        let ready = if assumes_ok { self.engine.ponder_color_after_ok() } else { self.engine.ponder_color() };
        let Some(color) = ready else {
            return;
        };
        let mut copy = self.engine.speculative_copy();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new().name("ponder".into()).spawn(move || {
            if assumes_ok {
                copy.phantom_result_ok(&[]).ok()?;
            }
            copy.phantom_opponent(&crate::engine::ponder::EXPECTED_REPORT).ok()?;
            copy.ponder(color, limit, &flag);
            Some(copy)
        });
        match spawned {
            Ok(handle) => self.ponder = Some(Ponder { stop, handle }),
            Err(e) => log::warn!("cannot start a ponder thread ({e}); not pondering this turn"),
        }
    }

    /// True while a ponder is running or holds its copy.
    pub fn is_pondering(&self) -> bool {
        self.ponder.is_some()
    }

    /// True when a ponder's thread has ended (its limit reached, or stopped) and holds its copy.
    pub fn ponder_finished(&self) -> bool {
        self.ponder.as_ref().is_some_and(|p| p.handle.is_finished())
    }

    /// Stops the ponder and waits for its copy (`None` when there is none, it did not fit, or its thread failed).
    fn take_ponder(&mut self) -> Option<Engine> {
        let ponder = self.ponder.take()?;
        ponder.stop.store(true, Ordering::Relaxed);
        match ponder.handle.join() {
            Ok(copy) => copy,
            Err(_) => {
                log::warn!("the ponder thread failed; the report is taken in afresh");
                None
            }
        }
    }

    /// Stops the ponder, if any, without waiting for it: what it searched no longer serves.
    fn drop_ponder(&mut self) {
        if let Some(ponder) = self.ponder.take() {
            ponder.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Captures told after the announcement they belong to (see [`Engine::late_captures`]).
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`]; nothing changes then.
    pub fn late_captures(&mut self, points: &[Point]) -> Result<(), EngineError> {
        self.timed(|engine| engine.late_captures(points.iter().copied().collect()))
    }

    /// Logs a try on stderr (named as `shown`) and in the JSON move log (as the GTP `reply`).
    fn log_move(&mut self, color: Color, [reply, shown]: [&str; 2], limits: &SearchLimits, used: Duration) {
        let stats = self.engine.last_move_stats().clone();
        let updates = std::mem::take(&mut self.update_time);
        log_move_line(color, shown, limits, used, &stats);
        let Some(log) = self.move_log.as_mut() else {
            return;
        };
        let mut line = move_json(color, reply, limits, used, &stats);
        if let Some(fields) = line.as_object_mut() {
            fields.insert("update_ms".into(), duration_ms(updates).into());
            if let Some(id) = &self.game_id {
                let value = id.parse::<u64>().map_or_else(|_| id.clone().into(), serde_json::Value::from);
                fields.insert("game".into(), value);
            }
        }
        let written = writeln!(log, "{line}").and_then(|()| log.flush());
        if let Err(e) = written {
            log::warn!("move log write failed ({e}); move logging stops");
            self.move_log = None;
        }
    }
}

fn log_move_line(color: Color, reply: &str, limits: &SearchLimits, used: Duration, stats: &MoveStats) {
    let ms = |d: Option<Duration>| d.map(duration_ms).map_or("-".to_string(), |v| format!("{v:.0} ms"));
    log::info!(
        "move {} {} try {} sims {}{} time {:.0} ms soft {} hard {} winrate {:.3} entropy {:.2} survivors {} resamplings {}{}",
        stats.move_number,
        color.letter(),
        reply,
        stats.simulations,
        if stats.pondered > 0 { format!(" (+{} pondered)", stats.pondered) } else { String::new() },
        duration_ms(used),
        ms(limits.soft),
        ms(limits.hard),
        stats.win_rate,
        stats.belief_entropy,
        stats.survivors,
        stats.resamplings,
        if limits.emergency { " EMERGENCY" } else { "" },
    );
}

fn move_json(color: Color, reply: &str, limits: &SearchLimits, used: Duration, stats: &MoveStats) -> serde_json::Value {
    let ms = |d: Option<Duration>| d.map(duration_ms);
    serde_json::json!({
        "move_number": stats.move_number,
        "color": color.to_string(),
        "try": reply,
        "simulations": stats.simulations,
        "time_used_ms": duration_ms(used),
        "search_time_ms": duration_ms(stats.time_used),
        "soft_ms": ms(limits.soft),
        "hard_ms": ms(limits.hard),
        "playouts_limit": limits.playouts,
        "emergency": limits.emergency,
        "win_rate": stats.win_rate,
        "belief_entropy": stats.belief_entropy,
        "survivors": stats.survivors,
        "opponent_chains": stats.opponent_chains,
        "opponent_weak": stats.opponent_weak,
        "resamplings": stats.resamplings,
        "p_opponent": stats.opponent_probability,
        "uncertainty": stats.uncertainty,
        "pondered": stats.pondered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;

    fn session(ponder_playouts: u64) -> Session {
        Session::new(&Settings {
            engine: EngineConfig {
                threads: 1,
                seed: 5,
                playouts: Some(200),
                particles: 64,
                ponder_playouts,
                ..EngineConfig::default()
            },
            ..Settings::default()
        })
    }

    /// Black's first try stands; then the session waits for White's turn.
    fn after_first_try(session: &mut Session) {
        assert!(matches!(session.genmove(Color::Black, Instant::now()), Decision::Move(Move::Play(_))));
        session.result_ok(&[]).unwrap();
    }

    fn wait_for_ponder(session: &Session) {
        let start = Instant::now();
        while !session.ponder_finished() {
            assert!(start.elapsed() < Duration::from_secs(120), "the ponder never ended");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The main time a genmove took off Black's clock.
    fn charged(s: &mut Session, received: Instant) -> Duration {
        let before = s.clock(Color::Black).main_left;
        s.genmove(Color::Black, received);
        before - s.clock(Color::Black).main_left
    }

    #[test]
    fn a_genmove_piped_ahead_counts_from_the_previous_answer_not_its_arrival() {
        let mut s = session(0);
        s.set_time_control(TimeControl::Absolute { main: Duration::from_secs(600) });
        let early = Instant::now();
        std::thread::sleep(Duration::from_millis(1000));
        // Both lines "arrived" a second ago, as if piped with the first: the first is charged from its arrival,
        // the second only from the first's answer.
        assert!(charged(&mut s, early) >= Duration::from_millis(1000));
        s.result_ok(&[]).unwrap();
        s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
        let second = charged(&mut s, early);
        assert!(second < Duration::from_millis(1000), "charged for the wait behind the first try: {second:?}");
        // A line that arrived after the answer and waited keeps its arrival (the referee's clock ran).
        s.result_ok(&[]).unwrap();
        s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
        let arrived = Instant::now();
        std::thread::sleep(Duration::from_millis(300));
        assert!(charged(&mut s, arrived) >= Duration::from_millis(300));
    }

    /// The championship dialect's `accept` (a `take` may follow): the ponder's copy takes the try in as
    /// standing with no captures; that result keeps the ponder and the expected report adopts it.
    #[test]
    fn a_ponder_after_an_accept_is_kept_when_the_try_stands_alone() {
        let mut s = session(500);
        s.genmove(Color::Black, Instant::now());
        s.start_ponder();
        assert!(!s.is_pondering(), "the try awaits its result");
        s.start_ponder_after_accept();
        assert!(s.is_pondering());
        wait_for_ponder(&s);
        s.result_ok(&[]).unwrap();
        assert!(s.is_pondering(), "the result the copy assumed keeps it");
        assert!(!s.has_pending_try());
        s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
        assert!(!s.is_pondering());
        s.genmove(Color::Black, Instant::now());
        let pondered = s.engine().last_move_stats().pondered;
        assert!(pondered >= 500, "the genmove started from the pondered visits: {pondered}");
    }

    /// After an `accept`, a capture or any other report drops the ponder; the reports are taken in afresh.
    #[test]
    fn a_ponder_after_an_accept_is_dropped_by_anything_else() {
        let mut s = session(500);
        s.genmove(Color::Black, Instant::now());
        s.start_ponder_after_accept();
        assert!(s.is_pondering());
        // A capture the board cannot have (a corner far from the try's neighbours, or the try itself) is
        // refused, and still drops the ponder; the try stays pending.
        let corner = Point::from_coords(0, 0, 9).unwrap();
        let far = Point::from_coords(8, 8, 9).unwrap();
        assert!(s.result_ok(&[corner, far]).is_err());
        assert!(!s.is_pondering(), "a capture drops it");
        assert!(s.has_pending_try());
        // Pondered again; the result stands alone, then the opponent passes: taken in afresh.
        s.start_ponder_after_accept();
        assert!(s.is_pondering());
        s.result_ok(&[]).unwrap();
        s.opponent(&Observation::OpponentPass).unwrap();
        assert!(!s.is_pondering());
        s.genmove(Color::Black, Instant::now());
        assert_eq!(s.engine().last_move_stats().pondered, 0);
        // The opponent's move told with no result before it settles our try as standing with no captures (as
        // the engine itself does), which is what the copy assumed: it is adopted.
        let mut s = session(500);
        s.genmove(Color::Black, Instant::now());
        s.start_ponder_after_accept();
        wait_for_ponder(&s);
        s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
        assert!(!s.is_pondering() && !s.has_pending_try());
        s.genmove(Color::Black, Instant::now());
        assert!(s.engine().last_move_stats().pondered >= 500);
    }

    #[test]
    fn no_pondering_unless_asked() {
        let mut s = session(0);
        after_first_try(&mut s);
        s.start_ponder();
        assert!(!s.is_pondering());
    }

    #[test]
    fn no_pondering_on_our_own_turn_or_with_a_try_pending() {
        let mut s = session(500);
        s.start_ponder();
        assert!(!s.is_pondering(), "our colour is not known before the first genmove");
        s.genmove(Color::Black, Instant::now());
        s.start_ponder();
        assert!(!s.is_pondering(), "the try awaits its result");
        s.result_ok(&[]).unwrap();
        s.opponent(&Observation::OpponentPass).unwrap();
        s.start_ponder();
        assert!(!s.is_pondering(), "our turn");
    }

    #[test]
    fn the_expected_report_adopts_the_pondered_search() {
        let mut s = session(500);
        after_first_try(&mut s);
        s.start_ponder();
        assert!(s.is_pondering());
        wait_for_ponder(&s);
        s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
        assert!(!s.is_pondering());
        assert_eq!(s.engine().to_move(), Color::Black);
        s.genmove(Color::Black, Instant::now());
        let stats = s.engine().last_move_stats();
        assert_eq!(stats.simulations, 200);
        assert!(stats.pondered >= 500, "the genmove started from the pondered visits: {}", stats.pondered);
    }

    #[test]
    fn another_report_drops_the_ponder_and_is_taken_in_afresh() {
        for report in [Observation::OpponentIllegal, Observation::OpponentPass] {
            let mut s = session(500);
            after_first_try(&mut s);
            s.start_ponder();
            assert!(s.is_pondering());
            s.opponent(&report).unwrap();
            assert!(!s.is_pondering(), "{report:?} drops it");
            if report == Observation::OpponentIllegal {
                // Under retry White tries again: a new ponder for the same expected report.
                s.start_ponder();
                assert!(s.is_pondering());
                s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
            }
            assert!(!s.is_pondering());
            s.genmove(Color::Black, Instant::now());
            assert_eq!(s.engine().last_move_stats().simulations, 200);
        }
    }

    #[test]
    fn the_pondered_trees_carry_across_the_opponents_illegal_tries_under_retry() {
        let mut s = session(400);
        after_first_try(&mut s);
        for _ in 0..2 {
            s.start_ponder();
            wait_for_ponder(&s);
            s.opponent(&Observation::OpponentIllegal).unwrap();
        }
        s.start_ponder();
        wait_for_ponder(&s);
        s.opponent(&crate::engine::ponder::EXPECTED_REPORT).unwrap();
        s.genmove(Color::Black, Instant::now());
        let pondered = s.engine().last_move_stats().pondered;
        assert!(pondered >= 1200, "three ponders of 400 add up: {pondered}");
    }

    #[test]
    fn under_lose_turn_an_illegal_try_ends_the_ponder() {
        let mut s = session(400);
        s.set_illegal_rule(IllegalRule::LoseTurn);
        after_first_try(&mut s);
        s.start_ponder();
        wait_for_ponder(&s);
        s.opponent(&Observation::OpponentIllegal).unwrap();
        assert!(!s.is_pondering());
        s.genmove(Color::Black, Instant::now());
        assert_eq!(s.engine().last_move_stats().pondered, 0, "our turn came without the expected report");
    }

    #[test]
    fn a_new_game_or_an_undo_drops_the_ponder() {
        let mut s = session(1_000_000);
        after_first_try(&mut s);
        s.start_ponder();
        s.clear_board();
        assert!(!s.is_pondering());
        after_first_try(&mut s);
        s.start_ponder();
        s.undo().unwrap();
        assert!(!s.is_pondering());
        assert_eq!(s.engine().to_move(), Color::Black);
    }
}
