//! The championship dialect's state machine over one [`Session`]: what each platform line does to the game
//! the engine keeps, and which lines are answered (only those that ask for a name or a try).
//!
//! A malformed line (unknown word, bad point, a count that disagrees with its points, `accept` with nothing
//! pending, a capture the engine's board cannot hold) is logged on stderr and answered with nothing; the
//! session stays usable.

use super::line::{format_move, format_point, Line, LineError};
use crate::color::Color;
use crate::config::{GameSettings, Settings};
use crate::engine::{Decision, EngineError};
use crate::observation::Observation;
use crate::point::{Move, Point};
use crate::session::Session;
use crate::time::TimeControl;
use std::time::Instant;

/// What our last answer awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sent {
    /// Nothing (no try asked, or its result came).
    Nothing,
    /// A stone: `accept` or `refuse` comes next.
    Try,
    /// A pass: `accept` comes next.
    Pass,
}

/// The dialect front end of one [`Session`].
pub struct Dialect {
    session: Session,
    game: GameSettings,
    /// Our colour in the game under way; `None` between games.
    us: Option<Color>,
    sent: Sent,
    /// `accept` came for our try; it is played with the captures of a `take` if one follows at once.
    accepted: bool,
    /// Our stones captured by the opponent's coming move (`taked` before its `move go`).
    taked: Vec<Point>,
}

impl Dialect {
    /// A dialect front end over a new session built from `settings`.
    pub fn new(settings: &Settings) -> Dialect {
        Dialect::with_session(Session::new(settings), settings.game.clone())
    }

    /// A dialect front end over `session` (which may carry a move log); the session's stderr move line names
    /// tries in the dialect's letters from now on.
    pub fn with_session(session: Session, game: GameSettings) -> Dialect {
        let session = session.with_try_names(super::line::format_try);
        Dialect { session, game, us: None, sent: Sent::Nothing, accepted: false, taked: Vec::new() }
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Called while the loop waits for its next line: starts a ponder where one serves
    /// ([`Session::start_ponder`]; nothing unless `engine.ponder_playouts` is set).
    pub fn idle(&mut self) {
        if self.accepted {
            // No `take` came with the `accept`: ponder on the try standing with no captures.
            self.session.start_ponder_after_accept();
        } else {
            self.session.start_ponder();
        }
    }

    /// Our colour in the game under way.
    pub fn our_color(&self) -> Option<Color> {
        self.us
    }

    fn size(&self) -> usize {
        self.session.engine().size()
    }

    /// Points in the dialect's letters, as the platform wrote them (`DE DF`).
    fn points(&self, points: &[Point]) -> String {
        let named: Vec<String> = points.iter().map(|&p| format_point(p, self.size())).collect();
        named.join(" ")
    }

    /// An engine error as the dialect's operator reads it: a point it names in the dialect's letters.
    fn describe(&self, e: &EngineError) -> String {
        match *e {
            EngineError::InconsistentAt { point, why, .. } => {
                format!("inconsistent report: {} {why}", format_point(point, self.size()))
            }
            ref other => other.to_string(),
        }
    }

    /// Handles one parsed line (or its parse error) that arrived at `received`; returns the answer line, if
    /// the line asks for one.
    pub fn handle(&mut self, line: Result<Line, LineError>, received: Instant) -> Option<String> {
        let line = match line {
            Ok(line) => line,
            Err(e) => return malformed(&e.to_string()),
        };
        if !matches!(line, Line::Take { .. }) {
            self.settle_accepted();
        }
        match line {
            Line::Name => Some(format!("name {}", self.game.name)),
            Line::New(color) => self.new_game(color, received),
            Line::Accept => self.accept(),
            Line::Refuse => self.refuse(received),
            Line::Take { count, points } => self.take(count, points),
            Line::Taked { count, points } => self.taked(count, points),
            Line::MoveGo => self.opponent_moved(false, received),
            Line::MovePass => self.opponent_moved(true, received),
            Line::End => {
                self.end();
                None
            }
            Line::Error => {
                log::warn!("the platform did not accept our last line");
                None
            }
            Line::Quit => None,
        }
    }

    fn new_game(&mut self, color: Color, received: Instant) -> Option<String> {
        if self.us.is_some() {
            log::warn!("new game before the end of the last one");
        }
        if let Err(e) = self.session.set_board_size(self.game.size) {
            log::error!("board size {}: {e}", self.game.size);
        }
        if let Err(e) = self.session.set_komi(f64::from(self.game.komi)) {
            log::error!("komi {}: {e}", self.game.komi);
        }
        self.session.set_illegal_rule(self.game.rule);
        let control = self.game.main_time.map_or(TimeControl::Unlimited, |main| TimeControl::Absolute { main });
        self.session.set_time_control(control);
        self.us = Some(color);
        self.sent = Sent::Nothing;
        self.accepted = false;
        self.taked.clear();
        log::info!("new game: we are {color}, komi {}, rules {}", self.game.komi, self.game.rule);
        (color == Color::Black).then(|| self.try_move(received))
    }

    /// Asks the session for a try; the answer line.
    fn try_move(&mut self, received: Instant) -> String {
        let color = self.us.expect("a try is asked only during a game");
        let mv = match self.session.genmove(color, received) {
            Decision::Move(mv) => mv,
            Decision::Resign => {
                // The dialect cannot resign: the engine passes instead.
                if let Err(e) = self.session.play(color, Move::Pass) {
                    log::error!("pass instead of resigning: {e}");
                }
                Move::Pass
            }
        };
        self.sent = if mv == Move::Pass { Sent::Pass } else { Sent::Try };
        format_move(mv, self.size())
    }

    fn accept(&mut self) -> Option<String> {
        match self.sent {
            Sent::Try => self.accepted = true,
            Sent::Pass => {}
            Sent::Nothing => return malformed("accept with no try pending"),
        }
        self.sent = Sent::Nothing;
        None
    }

    /// An accepted try with no `take` after it stands with no captures.
    fn settle_accepted(&mut self) {
        if std::mem::take(&mut self.accepted) {
            if let Err(e) = self.session.result_ok(&[]) {
                log::error!("accepted try: {e}");
            }
        }
    }

    fn refuse(&mut self, received: Instant) -> Option<String> {
        if self.sent != Sent::Try {
            return malformed("refuse with no try pending");
        }
        self.sent = Sent::Nothing;
        if let Err(e) = self.session.result_illegal() {
            return malformed(&format!("refuse: {}", self.describe(&e)));
        }
        match self.session.engine().illegal_rule() {
            crate::judge::IllegalRule::Retry => Some(self.try_move(received)),
            crate::judge::IllegalRule::LoseTurn => None,
        }
    }

    fn take(&mut self, count: usize, points: Vec<Point>) -> Option<String> {
        check_count("take", count, &points, self.size());
        if !std::mem::take(&mut self.accepted) {
            return self.late(points);
        }
        if let Err(e) = self.session.result_ok(&points) {
            let why = self.describe(&e);
            let _ = malformed(&format!("take {}: {why}; the try stands without captures", self.points(&points)));
            self.accepted = true;
            self.settle_accepted();
        }
        None
    }

    fn taked(&mut self, count: usize, points: Vec<Point>) -> Option<String> {
        check_count("taked", count, &points, self.size());
        if self.us.is_none() {
            return malformed("taked outside a game");
        }
        if self.sent != Sent::Nothing {
            // The opponent cannot move during our turn: these belong to its last move.
            return self.late(points);
        }
        self.taked.extend(points);
        None
    }

    /// Captures that belong to an announcement already taken in (they came one line late).
    fn late(&mut self, points: Vec<Point>) -> Option<String> {
        if self.us.is_none() {
            return malformed("capture outside a game");
        }
        log::info!("{} capture(s) told late ({}); applied now", points.len(), self.points(&points));
        if let Err(e) = self.session.late_captures(&points) {
            return malformed(&format!("late capture {}: {}", self.points(&points), self.describe(&e)));
        }
        None
    }

    fn opponent_moved(&mut self, passed: bool, received: Instant) -> Option<String> {
        if self.us.is_none() {
            return malformed("move outside a game");
        }
        if self.sent != Sent::Nothing {
            log::warn!("the opponent moved while our last answer had no accept/refuse; it stands");
            self.sent = Sent::Nothing;
        }
        let captured = std::mem::take(&mut self.taked);
        let report = if passed {
            if !captured.is_empty() {
                let _ = malformed("taked before a pass (a pass captures nothing)");
            }
            Observation::OpponentPass
        } else {
            Observation::OpponentMove { captured: captured.iter().copied().collect() }
        };
        if let Err(e) = self.session.opponent(&report) {
            let why = self.describe(&e);
            let _ = malformed(&format!("taked {}: {why}; the move is taken without captures", self.points(&captured)));
            if let Err(e) = self.session.opponent(&Observation::OpponentMove { captured: Default::default() }) {
                log::error!("opponent move: {e}");
            }
        }
        Some(self.try_move(received))
    }

    fn end(&mut self) {
        if self.us.take().is_none() {
            log::warn!("end outside a game");
            return;
        }
        log::info!(
            "game over: {} tries asked, area of the board we know {}",
            Color::BOTH.iter().map(|&c| self.session.tries(c)).sum::<u32>(),
            self.session.engine().final_score()
        );
        self.sent = Sent::Nothing;
        self.taked.clear();
    }
}

/// Logs a malformed line; it gets no answer.
fn malformed(why: &str) -> Option<String> {
    log::warn!("malformed line ignored: {why}");
    None
}

fn check_count(word: &str, count: usize, points: &[Point], size: usize) {
    if count != points.len() {
        let named: Vec<String> = points.iter().map(|&p| format_point(p, size)).collect();
        log::warn!(
            "malformed {word}: count {count} but {} point(s) given ({}); the points given are applied",
            points.len(),
            named.join(" ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccgc::line::{parse, parse_point};
    use crate::engine::{EngineConfig, PlayerKind};
    use std::time::Duration;

    fn settings(player: PlayerKind, main_time: Option<Duration>) -> Settings {
        Settings {
            engine: EngineConfig { player, threads: 1, seed: 5, particles: 32, ..EngineConfig::default() },
            game: GameSettings { main_time, ..GameSettings::default() },
            ..Settings::default()
        }
        .for_protocol(crate::config::Protocol::Ccgc)
    }

    fn say(dialect: &mut Dialect, text: &str) -> Option<String> {
        dialect.handle(parse(text, 9), Instant::now())
    }

    fn point_of(answer: &str) -> Point {
        let text = answer.strip_prefix("move ").expect("a move line");
        parse_point(text, 9).unwrap_or_else(|| panic!("{answer}"))
    }

    #[test]
    fn a_game_as_black_then_another_as_white() {
        let mut d = Dialect::new(&settings(PlayerKind::Random, None));
        assert_eq!(say(&mut d, "name?"), Some("name phantomgo".to_string()));
        let first = point_of(&say(&mut d, "new black").expect("black answers at once"));
        assert_eq!(say(&mut d, "accept"), None);
        assert_eq!(d.session().engine().known_board().color_at(first), Some(Color::Black));
        let second = point_of(&say(&mut d, "move go").unwrap());
        let third = point_of(&say(&mut d, "refuse").expect("retry: another try"));
        assert_ne!(second, third);
        assert_eq!(d.session().engine().known_board().color_at(second), None, "the refused try is undone");
        assert_eq!(say(&mut d, "accept"), None);
        // Our first stone is captured by the opponent's next move.
        let taked = format!("taked 1 {}", crate::ccgc::line::format_point(first, 9));
        assert_eq!(say(&mut d, &taked), None);
        say(&mut d, "move go").unwrap();
        assert_eq!(d.session().engine().known_board().color_at(first), None);
        assert_eq!(say(&mut d, "end"), None);
        assert_eq!(say(&mut d, "new white"), None);
        assert_eq!(d.our_color(), Some(Color::White));
        assert!(d.session().engine().known_board().occupied().is_empty(), "a fresh board");
        say(&mut d, "move pass").unwrap();
        assert_eq!(say(&mut d, "accept"), None);
    }

    #[test]
    fn engine_errors_name_points_in_the_dialect() {
        let d = Dialect::new(&settings(PlayerKind::Random, None));
        let e5 = parse_point("EE", 9).unwrap();
        let error = EngineError::InconsistentAt { point: e5, size: 9, why: "holds our stone" };
        assert_eq!(error.to_string(), "inconsistent report: E5 holds our stone", "GTP keeps its vertices");
        assert_eq!(d.describe(&error), "inconsistent report: EE holds our stone");
        assert_eq!(d.describe(&EngineError::NoPendingTry), EngineError::NoPendingTry.to_string());
        assert_eq!(d.points(&[e5, parse_point("IA", 9).unwrap()]), "EE IA");
    }

    #[test]
    fn malformed_lines_get_no_answer_and_change_nothing() {
        let mut d = Dialect::new(&settings(PlayerKind::Random, None));
        for line in ["accept", "refuse", "move go", "take 1 AA", "taked 1 AA", "end", "fly", "take 1 ZZ"] {
            assert_eq!(say(&mut d, line), None, "{line}");
        }
        let first = point_of(&say(&mut d, "new black").unwrap());
        // A capture of our own new stone cannot be: logged, and the try stands without captures.
        assert_eq!(say(&mut d, "accept"), None);
        let own = crate::ccgc::line::format_point(first, 9);
        assert_eq!(say(&mut d, &format!("take 1 {own}")), None);
        assert_eq!(d.session().engine().known_board().color_at(first), Some(Color::Black));
        // A taked of a point that holds no stone of ours, and a count that disagrees.
        assert_eq!(say(&mut d, "taked 2 AA"), None);
        let answer = say(&mut d, "move go").expect("the move is still answered");
        assert!(answer.starts_with("move "), "{answer}");
        assert_eq!(d.session().engine().known_board().color_at(first), Some(Color::Black));
        assert_eq!(say(&mut d, "accept"), None);
        assert_eq!(say(&mut d, "accept"), None, "a second accept has nothing pending");
        assert!(say(&mut d, "move pass").is_some());
    }

    #[test]
    fn a_take_one_line_late_still_reaches_the_board() {
        let mut d = Dialect::new(&settings(PlayerKind::Random, None));
        let first = point_of(&say(&mut d, "new black").unwrap());
        say(&mut d, "accept");
        let second = point_of(&say(&mut d, "move go").unwrap());
        // A take for the first try arrives while the second awaits its result: a neighbour of the first
        // (empty on our board, so it is an unseen opponent stone we took).
        let board = d.session().engine().known_board();
        let neighbour =
            (board.geometry().neighbours(first) & board.empty()).iter().find(|&p| p != second).expect("room");
        let late = format!("take 1 {}", crate::ccgc::line::format_point(neighbour, 9));
        assert_eq!(say(&mut d, &late), None);
        assert_eq!(d.session().engine().known_board().color_at(second), Some(Color::Black), "the try stands");
        say(&mut d, "accept");
        assert!(say(&mut d, "move go").is_some());
        let board = d.session().engine().known_board();
        assert_eq!((board.color_at(first), board.color_at(second)), (Some(Color::Black), Some(Color::Black)));
    }

    /// Many refused tries in a row under a short whole-game budget: the time the engine takes, from each
    /// line that asks for a try to its answer, never adds up to more than the budget.
    #[test]
    fn a_game_of_many_refused_tries_stays_within_the_main_time() {
        let budget = Duration::from_millis(1500);
        let mut d = Dialect::new(&settings(PlayerKind::Mcts, Some(budget)));
        let mut spent = Duration::ZERO;
        let ask = |d: &mut Dialect, text: &str, spent: &mut Duration| {
            let start = Instant::now();
            let answer = say(d, text);
            *spent += start.elapsed();
            answer
        };
        let mut answer = ask(&mut d, "new black", &mut spent).unwrap();
        let mut tries = 1;
        let mut turns = 0;
        while turns < 3 {
            if answer == "move pass" {
                say(&mut d, "accept");
                turns += 1;
                answer = ask(&mut d, "move go", &mut spent).unwrap();
            } else {
                answer = ask(&mut d, "refuse", &mut spent).unwrap();
            }
            tries += 1;
            assert!(tries < 1000, "the engine passes once every point was refused");
        }
        eprintln!("{tries} tries, {turns} turns, {spent:?} spent of {budget:?}");
        // Every point refused once: the engine never tries again a point its refused try found blocked (the
        // opponent cannot free it), so later turns pass at once.
        assert!(tries > 80, "{tries} tries");
        assert!(spent <= budget, "{tries} tries took {spent:?}, more than the {budget:?} budget");
    }
}
