//! The GTP command handler: one parsed [`Command`] in, calls on the protocol-neutral [`Session`], reply text out.

use super::command::{Command, TimeSpec, Vertex, COMMAND_NAMES};
use crate::color::Color;
use crate::config::Settings;
use crate::engine::{Decision, Engine};
use crate::observation::Observation;
use crate::point::{Move, Point};
use crate::session::Session;
use crate::time::TimeControl;
use std::fmt::Write as _;
use std::io::Write;
use std::time::{Duration, Instant};

/// Engine name for `name`.
pub const ENGINE_NAME: &str = "phantomgo";

/// Belief shades of `showboard`: (lowest probability, character), highest band first.
const SHADES: &[(f32, char)] = &[(0.8, '@'), (0.5, '*'), (0.2, '+'), (0.05, '-'), (0.0, '.')];

/// The GTP front end of one [`Session`]: turns parsed commands into session calls and formats the replies.
pub struct Handler {
    session: Session,
}

/// A `=` reply text, or a `?` message.
pub type Reply = Result<String, String>;

fn columns(size: usize) -> impl Iterator<Item = char> {
    "ABCDEFGHJKLMNOPQRST".chars().take(size)
}

impl Handler {
    /// A handler over a new session built from `settings` (no move log; see [`Handler::with_move_log`]).
    pub fn new(settings: &Settings) -> Handler {
        Handler { session: Session::new(settings) }
    }

    /// A handler over `session`.
    pub fn from_session(session: Session) -> Handler {
        Handler { session }
    }

    /// Writes one JSON line per genmove to `log`.
    pub fn with_move_log(self, log: Box<dyn Write + Send>) -> Handler {
        Handler { session: self.session.with_move_log(log) }
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        self.session.engine()
    }

    /// Called while the loop waits for its next line: starts a ponder where one serves
    /// ([`Session::start_ponder`]; nothing unless `engine.ponder_playouts` is set).
    pub fn idle(&mut self) {
        self.session.start_ponder();
    }

    fn to_move(&self, vertex: Vertex) -> Result<Move, String> {
        let size = self.engine().size();
        match vertex {
            Vertex::Pass => Ok(Move::Pass),
            Vertex::Coord { col, row } => Point::from_coords(usize::from(col), usize::from(row), size)
                .map(Move::Play)
                .ok_or_else(|| format!("vertex {vertex} is off the {size}x{size} board")),
        }
    }

    fn to_points(&self, vertices: &[Vertex]) -> Result<Vec<Point>, String> {
        vertices
            .iter()
            .map(|&v| match self.to_move(v) {
                Ok(Move::Play(p)) => Ok(p),
                _ => Err(format!("inconsistent report: {v} is off the board")),
            })
            .collect()
    }

    /// Runs one command that arrived at `received`; `quit` is the loop's business and answers empty here.
    pub fn execute(&mut self, command: Command, received: Instant) -> Reply {
        let err = |e: crate::engine::EngineError| e.to_string();
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok(ENGINE_NAME.into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Ok(COMMAND_NAMES.contains(&name.as_str()).to_string()),
            Command::ListCommands => Ok(COMMAND_NAMES.join("\n")),
            Command::Quit => Ok(String::new()),
            Command::BoardSize(size) => {
                let size = usize::try_from(size).map_err(|_| "unacceptable size".to_string())?;
                self.session.set_board_size(size).map_err(err)?;
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.session.clear_board();
                Ok(String::new())
            }
            Command::Komi(komi) => {
                self.session.set_komi(komi).map_err(err)?;
                Ok(String::new())
            }
            Command::Play(color, vertex) => {
                let mv = self.to_move(vertex)?;
                self.session.play(color, mv).map_err(err)?;
                Ok(String::new())
            }
            Command::Genmove(color) => Ok(match self.session.genmove(color, received) {
                Decision::Move(mv) => mv.to_vertex(self.engine().size()),
                Decision::Resign => "resign".to_string(),
            }),
            Command::Undo => {
                self.session.undo().map_err(err)?;
                Ok(String::new())
            }
            Command::ShowBoard => Ok(self.show_board()),
            Command::FinalScore => Ok(self.engine().final_score().to_string()),
            Command::TimeSettings(spec) => {
                self.session.set_time_control(time_control(spec));
                Ok(String::new())
            }
            Command::TimeLeft { color, seconds, stones } => {
                self.session.set_time_left(color, Duration::from_secs_f64(seconds), stones);
                Ok(String::new())
            }
            Command::PhantomRules(rules) => {
                self.session.set_rules(rules.illegal, rules.repetition, rules.max_tries);
                Ok(String::new())
            }
            Command::PhantomResultIllegal => {
                self.session.result_illegal().map_err(err)?;
                Ok(String::new())
            }
            Command::PhantomResultOk(vertices) => {
                let captured = self.to_points(&vertices)?;
                self.session.result_ok(&captured).map_err(err)?;
                Ok(String::new())
            }
            Command::PhantomOpponentIllegal => self.opponent(Observation::OpponentIllegal),
            Command::PhantomOpponentPass => self.opponent(Observation::OpponentPass),
            Command::PhantomOpponentOk(vertices) => {
                let points = self.to_points(&vertices)?;
                let captured = crate::report_check::distinct(&points, self.engine().size())
                    .map_err(|m| format!("inconsistent report: {m}"))?;
                self.opponent(Observation::OpponentMove { captured })
            }
            Command::PhantomBelief => Ok(self.belief_grid()),
            Command::PhantomBeliefGfx => Ok(self.belief_gfx()),
            Command::GoguiAnalyzeCommands => Ok([
                "gfx/Phantom belief (heat map)/phantom-belief-gfx",
                "string/Phantom belief (percent)/phantom-belief",
                "string/Known board and belief/showboard",
            ]
            .join("\n")),
        }
    }

    fn opponent(&mut self, report: Observation) -> Reply {
        self.session.opponent(&report).map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    /// Per point index, the probability of an opponent stone (0 everywhere before the engine knows its colour).
    fn probabilities(&self) -> Vec<f32> {
        let area = self.engine().size() * self.engine().size();
        let mut p = self.engine().opponent_stone_probabilities();
        p.resize(area, 0.0);
        p.iter_mut().for_each(|v| *v = if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 });
        p
    }

    fn header(&self, cell: usize) -> String {
        let size = self.engine().size();
        let mut line = " ".repeat(3);
        for c in columns(size) {
            let _ = write!(line, "{c:>cell$}");
        }
        line
    }

    fn show_board(&self) -> String {
        let board = self.engine().known_board();
        let size = board.size();
        let probabilities = self.probabilities();
        let us = self.engine().our_color();
        let mut out = String::from("\n");
        out.push_str(&self.header(2));
        for row in (0..size).rev() {
            let _ = write!(out, "\n{:>2} ", row + 1);
            for col in 0..size {
                let Some(point) = Point::from_coords(col, row, size) else {
                    continue;
                };
                let shown = match board.color_at(point) {
                    Some(color) => color_char(color),
                    None => {
                        let p = probabilities.get(point.index()).copied().unwrap_or(0.0);
                        shade(p)
                    }
                };
                let _ = write!(out, " {shown}");
            }
            let _ = write!(out, " {}", row + 1);
        }
        out.push('\n');
        out.push_str(&self.header(2));
        let opponent = us.map_or("opponent".to_string(), |c| c.opponent().to_string());
        let hidden: f32 = probabilities
            .iter()
            .zip(board.geometry().points())
            .filter(|(_, p)| board.color_at(*p).is_none())
            .map(|(v, _)| v)
            .sum();
        let _ = write!(
            out,
            "\nX black  O white (own and seen stones)\nhidden {opponent} stone: . <5%  - 5-20%  + 20-50%  * 50-80%  @ 80%+\nengine plays {}, turns played {}, komi {}, illegal={}, hidden opponent stones expected {:.1}",
            us.map_or("(not yet known)".to_string(), |c| c.to_string()),
            self.engine().move_number(),
            self.engine().komi(),
            self.engine().illegal_rule(),
            hidden,
        );
        out
    }

    fn belief_grid(&self) -> String {
        let size = self.engine().size();
        let probabilities = self.probabilities();
        let mut out = String::from("\n");
        out.push_str(&self.header(4));
        for row in (0..size).rev() {
            let _ = write!(out, "\n{:>2} ", row + 1);
            for col in 0..size {
                let p = Point::from_coords(col, row, size)
                    .and_then(|point| probabilities.get(point.index()))
                    .copied()
                    .unwrap_or(0.0);
                let _ = write!(out, "{:>4}", (p * 100.0).round() as u32);
            }
            let _ = write!(out, "  {}", row + 1);
        }
        out.push('\n');
        out.push_str(&self.header(4));
        out
    }

    fn belief_gfx(&self) -> String {
        let size = self.engine().size();
        let probabilities = self.probabilities();
        // GoGui draws positive influence as black, negative as white.
        let sign = match self.engine().our_color() {
            Some(Color::Black) => -1.0,
            _ => 1.0,
        };
        if self.engine().our_color().is_none() {
            return "TEXT no belief yet: the engine learns its colour from genmove or phantom-opponent".into();
        }
        let mut out = String::from("INFLUENCE");
        for point in self.engine().known_board().geometry().points() {
            let p = probabilities.get(point.index()).copied().unwrap_or(0.0);
            if p >= 0.005 {
                let _ = write!(out, " {} {:.2}", point.to_vertex(size), sign * p);
            }
        }
        let total: f32 = probabilities.iter().sum();
        let _ = write!(out, "\nTEXT opponent stones expected {total:.1}");
        out
    }
}

fn color_char(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

fn shade(p: f32) -> char {
    SHADES.iter().find(|(lowest, _)| p >= *lowest).map_or('.', |&(_, c)| c)
}

/// The time control a parsed time command asks for.
pub fn time_control(spec: TimeSpec) -> TimeControl {
    let secs = Duration::from_secs_f64;
    match spec {
        TimeSpec::None => TimeControl::Unlimited,
        TimeSpec::Absolute { main } => TimeControl::Absolute { main: secs(main) },
        TimeSpec::ByoYomi { main, period, periods } => {
            TimeControl::ByoYomi { main: secs(main), period: secs(period), periods }
        }
        TimeSpec::Canadian { main, period, stones } => {
            TimeControl::Canadian { main: secs(main), period: secs(period), stones }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineConfig, PlayerKind};
    use crate::gtp::command::parse;

    fn session() -> Handler {
        Handler::new(&Settings {
            engine: EngineConfig { player: PlayerKind::Random, threads: 1, seed: 1, ..EngineConfig::default() },
            ..Settings::default()
        })
    }

    fn run(session: &mut Handler, line: &str) -> Reply {
        let command = parse(line).map_err(|e| e.to_string())?;
        session.execute(command, Instant::now())
    }

    fn ok(session: &mut Handler, line: &str) -> String {
        run(session, line).unwrap_or_else(|e| panic!("{line}: ? {e}"))
    }

    #[test]
    fn identity_commands() {
        let mut s = session();
        assert_eq!(ok(&mut s, "protocol_version"), "2");
        assert_eq!(ok(&mut s, "name"), "phantomgo");
        assert_eq!(ok(&mut s, "known_command phantom-result"), "true");
        assert_eq!(ok(&mut s, "known_command fly"), "false");
        let list = ok(&mut s, "list_commands");
        for name in ["phantom-belief", "gogui-analyze_commands", "kgs-time_settings"] {
            assert!(list.lines().any(|l| l == name), "{name}");
        }
    }

    #[test]
    fn boardsize_limits() {
        let mut s = session();
        assert_eq!(run(&mut s, "boardsize 0"), Err("unacceptable size".into()));
        assert_eq!(run(&mut s, "boardsize 100"), Err("unacceptable size".into()));
        assert_eq!(run(&mut s, "boardsize 1"), Err("unacceptable size".into()));
        ok(&mut s, "boardsize 5");
        assert_eq!(s.engine().size(), 5);
        assert!(run(&mut s, "play b F1").is_err());
    }

    #[test]
    fn play_follows_the_rules() {
        let mut s = session();
        ok(&mut s, "boardsize 5");
        ok(&mut s, "play b C3");
        assert_eq!(run(&mut s, "play w C3"), Err("illegal move".into()));
        // Suicide: a white stone at A1 surrounded by black.
        ok(&mut s, "play b A2");
        ok(&mut s, "play b B1");
        assert_eq!(run(&mut s, "play w A1"), Err("illegal move".into()));
        // Ko: black C3 captures white B3; white may not retake at B3 at once.
        ok(&mut s, "clear_board");
        for mv in ["b B4", "w C4", "b A3", "w D3", "b B2", "w C2", "w B3", "b C3"] {
            ok(&mut s, &format!("play {mv}"));
        }
        let at = |s: &Handler, col, row| s.engine().known_board().color_at(Point::from_coords(col, row, 5).unwrap());
        assert_eq!(at(&s, 1, 2), None);
        assert_eq!(run(&mut s, "play w B3"), Err("illegal move".into()));
        ok(&mut s, "play w E5");
        ok(&mut s, "play b E1");
        ok(&mut s, "play w B3");
        assert_eq!(at(&s, 2, 2), None);
        assert_eq!(at(&s, 1, 2), Some(Color::White));
    }

    #[test]
    fn final_score_is_the_known_area() {
        let mut s = session();
        ok(&mut s, "boardsize 3");
        ok(&mut s, "komi 0.5");
        ok(&mut s, "play b B2");
        assert_eq!(ok(&mut s, "final_score"), "B+8.5");
        assert!(run(&mut s, "komi 1e30").is_err());
        assert_eq!(s.engine().komi(), 0.5);
    }

    #[test]
    fn phantom_game_under_retry() {
        let mut s = session();
        for line in ["boardsize 9", "komi 7.5", "clear_board", "phantom-rules illegal=retry"] {
            ok(&mut s, line);
        }
        let first = ok(&mut s, "genmove b");
        assert!(Vertex::parse(&first).is_some(), "{first}");
        ok(&mut s, "phantom-result ok");
        ok(&mut s, "phantom-opponent illegal");
        ok(&mut s, "phantom-opponent ok");
        let second = ok(&mut s, "genmove b");
        ok(&mut s, "phantom-result illegal");
        let third = ok(&mut s, "genmove b");
        assert_ne!(second, third, "an illegal point is not tried again this turn");
        // A capture of our own try contradicts what the engine knows; the try stays pending.
        assert_eq!(
            run(&mut s, &format!("phantom-result ok {third}")),
            Err(format!("inconsistent report: {third} holds our stone"))
        );
        ok(&mut s, "phantom-result ok");
        assert_eq!(run(&mut s, "phantom-result ok"), Err("no try is pending a result".into()));
        // A capture of a point that is not ours is refused and changes nothing.
        let not_ours = ["A1", "B1", "C1"].into_iter().find(|v| *v != first && *v != third).unwrap();
        assert_eq!(
            run(&mut s, &format!("phantom-opponent ok {not_ours}")),
            Err(format!("inconsistent report: {not_ours} is not our stone"))
        );
        assert!(run(&mut s, "phantom-opponent ok K10").is_err());
        let stones_before = s.engine().known_board().stones(Color::Black).count();
        assert_eq!(stones_before, 2);
        ok(&mut s, &format!("phantom-opponent ok {first}"));
        assert_eq!(s.engine().known_board().stones(Color::Black).count(), 1);
        ok(&mut s, "phantom-opponent pass");
    }

    #[test]
    fn lose_turn_rule_is_set() {
        let mut s = session();
        ok(&mut s, "phantom-rules illegal=lose-turn");
        assert_eq!(s.engine().illegal_rule(), crate::judge::IllegalRule::LoseTurn);
        ok(&mut s, "genmove w");
        ok(&mut s, "phantom-result illegal");
        ok(&mut s, "phantom-opponent illegal");
        ok(&mut s, "phantom-opponent ok");
    }

    #[test]
    fn undo_and_pass() {
        let mut s = session();
        assert_eq!(run(&mut s, "undo"), Err("cannot undo".into()));
        ok(&mut s, "play b pass");
        ok(&mut s, "undo");
        ok(&mut s, "play w D4");
        ok(&mut s, "undo");
        assert!(s.engine().known_board().occupied().is_empty());
    }

    #[test]
    fn analysis_output_shapes() {
        let mut s = session();
        ok(&mut s, "boardsize 5");
        ok(&mut s, "play b C3");
        ok(&mut s, "genmove w");
        ok(&mut s, "phantom-result ok");
        ok(&mut s, "phantom-opponent ok");
        let board = ok(&mut s, "showboard");
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], "    A B C D E");
        assert!(lines[2].starts_with(" 5 ") && lines[2].ends_with(" 5"));
        assert_eq!(lines[4].split_whitespace().nth(3), Some("X"));
        assert!(board.contains("hidden black stone"));
        let grid = ok(&mut s, "phantom-belief");
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines[1], "      A   B   C   D   E");
        assert!(lines[2].starts_with(" 5 "));
        assert_eq!(lines[4].split_whitespace().nth(3), Some("100"));
        assert_eq!(lines.len(), 2 + 5 + 1);
        let gfx = ok(&mut s, "phantom-belief-gfx");
        assert!(gfx.starts_with("INFLUENCE"));
        assert!(gfx.contains("C3 1.00"), "{gfx}");
        let analyze = ok(&mut s, "gogui-analyze_commands");
        assert!(analyze.contains("gfx/") && analyze.contains("phantom-belief-gfx"));
    }

    #[test]
    fn time_commands_set_the_clocks() {
        let mut s = session();
        ok(&mut s, "time_settings 30 0 0");
        assert_eq!(s.session().time_control(), TimeControl::Absolute { main: Duration::from_secs(30) });
        ok(&mut s, "time_left b 12 0");
        assert_eq!(s.session().clock(Color::Black).main_left, Duration::from_secs(12));
        ok(&mut s, "kgs-time_settings byoyomi 0 5 3");
        ok(&mut s, "time_left w 4 2");
        assert_eq!(s.session().clock(Color::White).periods_left, 2);
        ok(&mut s, "genmove w");
        assert_eq!(s.session().clock(Color::White).period_left, Duration::from_secs(5));
        ok(&mut s, "kgs-time_settings canadian 0 10 2");
        ok(&mut s, "genmove b");
        assert_eq!(s.session().clock(Color::Black).stones_left, 1);
        ok(&mut s, "phantom-result illegal");
        assert_eq!(s.session().clock(Color::Black).stones_left, 2);
        ok(&mut s, "kgs-time_settings none");
        assert_eq!(s.session().time_control(), TimeControl::Unlimited);
    }

    #[test]
    fn move_log_gets_one_json_line_per_genmove() {
        #[derive(Clone, Default)]
        struct Shared(std::sync::Arc<parking_lot::Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Shared::default();
        let mut s = session().with_move_log(Box::new(sink.clone()));
        ok(&mut s, "genmove b");
        ok(&mut s, "phantom-result ok");
        ok(&mut s, "genmove w");
        // Almost no time left: the search is told it is an emergency.
        ok(&mut s, "time_settings 30 0 0");
        ok(&mut s, "time_left b 0.05 0");
        ok(&mut s, "genmove b");
        let text = String::from_utf8(sink.0.lock().clone()).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["color"], "black");
        assert!(lines[1]["try"].is_string());
        assert!(lines[0]["hard_ms"].is_number());
        assert_eq!(lines[0]["emergency"], false);
        assert_eq!(lines[2]["emergency"], true);
        assert!(lines[2]["hard_ms"].as_f64().unwrap() < 20.0);
    }
}
