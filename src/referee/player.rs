//! What every seat shares (engine specs, answers, errors, the game setup) and the GTP plumbing of the two
//! GTP seats: [`GtpEngine`] (requests, required and optional commands, genmove) and the phantom GTP seat.

use super::clock::Clock;
use super::gtp_link::{GtpLink, Reply};
use super::process::ProcessError;
use super::record::EndReason;
use super::seat::Seat;
use crate::color::Color;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::{parse_vertex, Move};
use std::fmt;
use std::time::Duration;

/// The prefix that puts a plain GTP engine behind the view wrapper.
pub const VIEW_PREFIX: &str = "view:";

/// The prefix that seats an engine speaking the Chinese championship dialect.
pub const CCGC_PREFIX: &str = "ccgc:";

/// The prefix that seats a phantom GTP engine shown the whole board (every opponent move told with `play`).
pub const FULL_PREFIX: &str = "full:";

/// What an engine speaks, and so which seat it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SeatKind {
    /// GTP with the phantom extensions.
    #[default]
    PhantomGtp,
    /// Plain GTP behind the view wrapper (`view:`).
    View,
    /// The championship dialect (`ccgc:`).
    Ccgc,
    /// GTP with the phantom extensions, shown every opponent move (`full:`).
    Full,
}

/// The placeholder replaced by the game's seed in an engine command.
pub const SEED_PLACEHOLDER: &str = "{seed}";

/// The placeholder replaced by the game's index in an engine command.
pub const GAME_PLACEHOLDER: &str = "{game}";

/// How to start one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name in tables and records.
    pub name: String,
    /// Shell command; `{seed}` is replaced by the game's seed.
    pub command: String,
    /// Which seat it takes (`view:`, `ccgc:` and `full:` prefixes).
    pub kind: SeatKind,
}

impl EngineSpec {
    /// Reads a `--black`/`--white` value: `CMD`, `view:CMD`, `ccgc:CMD` or `full:CMD`.
    pub fn parse(text: &str, name: Option<&str>) -> EngineSpec {
        let trimmed = text.trim();
        let (command, kind) = if let Some(rest) = trimmed.strip_prefix(VIEW_PREFIX) {
            (rest.trim().to_string(), SeatKind::View)
        } else if let Some(rest) = trimmed.strip_prefix(CCGC_PREFIX) {
            (rest.trim().to_string(), SeatKind::Ccgc)
        } else if let Some(rest) = trimmed.strip_prefix(FULL_PREFIX) {
            (rest.trim().to_string(), SeatKind::Full)
        } else {
            (trimmed.to_string(), SeatKind::PhantomGtp)
        };
        EngineSpec { name: name.map_or_else(|| trimmed.to_string(), str::to_string), command, kind }
    }

    /// The spec for game `game`: `{game}` in the command replaced by its index.
    pub fn for_game(&self, game: u64) -> EngineSpec {
        EngineSpec { command: self.command.replace(GAME_PLACEHOLDER, &game.to_string()), ..self.clone() }
    }

    /// The command for a game with `seed`.
    pub fn command_for_seed(&self, seed: u64) -> String {
        self.command.replace(SEED_PLACEHOLDER, &seed.to_string())
    }
}

/// A try or a resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A stone or a pass.
    Move(Move),
    /// The engine resigned.
    Resign,
}

/// Why a player cannot go on; each ends the game as a loss for that player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The process failed (crash, timeout, garbage).
    Process(ProcessError),
    /// A genmove answer that is no vertex on this board (or no `move XY` line in the dialect).
    BadMove(String),
    /// A required command was refused with `?`.
    Refused {
        /// The command.
        command: String,
        /// The engine's message.
        message: String,
    },
}

impl PlayerError {
    /// The end reason this error stands for (a timeout is a hang; the caller turns a genmove timeout under a
    /// clock into a time loss).
    pub fn reason(&self) -> EndReason {
        match self {
            PlayerError::Process(ProcessError::Spawn(_) | ProcessError::Exited { .. }) => EndReason::Crash,
            PlayerError::Process(ProcessError::Timeout { .. }) => EndReason::Hang,
            PlayerError::Process(ProcessError::Garbage { .. })
            | PlayerError::BadMove(_)
            | PlayerError::Refused { .. } => EndReason::Protocol,
        }
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Process(e) => e.fmt(f),
            PlayerError::BadMove(text) => write!(f, "genmove answer '{text}' is not a move"),
            PlayerError::Refused { command, message } => {
                write!(f, "engine refused '{command}': {message}")
            }
        }
    }
}

impl std::error::Error for PlayerError {}

impl From<ProcessError> for PlayerError {
    fn from(e: ProcessError) -> Self {
        PlayerError::Process(e)
    }
}

/// Game settings sent to both players.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f32,
    /// Illegal-try rule.
    pub rule: IllegalRule,
    /// `time_settings` command, if the game is timed.
    pub time_settings: Option<String>,
    /// The repetition rule; sent as an optional `phantom-rules repetition=...` unless `allowed`.
    pub repetition: crate::game::Repetition,
    /// The length cap in tries (`--max-tries` or its default); always sent as an optional
    /// `phantom-rules max-tries=N`, since the runner always ends a game there.
    pub max_tries: usize,
}

/// A GTP engine in one game: the link, its colour and board size, the command timeout and the warnings
/// (non-fatal oddities) seen so far. Both GTP seats are built on it.
pub struct GtpEngine {
    /// The framed link to the process.
    pub link: GtpLink,
    /// The colour it plays.
    pub color: Color,
    /// Board size.
    pub size: usize,
    timeout: Duration,
    /// Non-fatal oddities seen so far.
    pub warnings: Vec<String>,
}

impl GtpEngine {
    /// Wraps a started link; `timeout` bounds every command but genmove.
    pub fn new(link: GtpLink, color: Color, size: usize, timeout: Duration) -> GtpEngine {
        GtpEngine { link, color, size, timeout, warnings: Vec::new() }
    }

    /// Sends one command within the command timeout.
    ///
    /// # Errors
    /// A process failure.
    pub fn send(&mut self, command: &str) -> Result<Reply, PlayerError> {
        Ok(self.link.request(command, self.timeout)?)
    }

    /// Sends a command the game cannot go on without.
    ///
    /// # Errors
    /// A process failure, or [`PlayerError::Refused`].
    pub fn send_required(&mut self, command: &str) -> Result<Reply, PlayerError> {
        let reply = self.send(command)?;
        if reply.success {
            Ok(reply)
        } else {
            Err(PlayerError::Refused { command: command.to_string(), message: reply.text })
        }
    }

    /// Sends a command the engine may refuse (a refusal is a warning).
    ///
    /// # Errors
    /// A process failure.
    pub fn send_optional(&mut self, command: &str) -> Result<Reply, PlayerError> {
        let reply = self.send(command)?;
        if !reply.success {
            self.warnings.push(format!("{} refused '{command}': {}", self.color, reply.text));
        }
        Ok(reply)
    }

    /// `protocol_version`, `name` and `boardsize` (all required); returns the name.
    ///
    /// # Errors
    /// A process failure or a refusal.
    pub fn greet(&mut self) -> Result<String, PlayerError> {
        self.send_required("protocol_version")?;
        let name = self.send_required("name")?.text.trim().to_string();
        self.send_required(&format!("boardsize {}", self.size))?;
        Ok(name)
    }

    /// `boardsize`, `komi`, `clear_board`: all required.
    ///
    /// # Errors
    /// A process failure or a refusal.
    pub fn setup_board(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.send_required(&format!("boardsize {}", setup.size))?;
        self.send_required(&format!("komi {}", setup.komi))?;
        self.send_required("clear_board")?;
        Ok(())
    }

    /// `time_settings`, when the game is timed (optional).
    ///
    /// # Errors
    /// A process failure.
    pub fn setup_time(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        if let Some(command) = &setup.time_settings {
            self.send_optional(command)?;
        }
        Ok(())
    }

    /// `time_left` from the runner's clock (optional for the engine; a refusal is only a warning).
    ///
    /// # Errors
    /// A process failure.
    pub fn time_left(&mut self, clock: &Clock) -> Result<(), PlayerError> {
        self.send_optional(&clock.time_left_command(self.color)).map(|_| ())
    }

    /// `genmove` within `limit`: the answer and how long the engine took.
    ///
    /// # Errors
    /// A process failure (a timeout included), a refusal, or an answer that is no move.
    pub fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError> {
        let command = format!("genmove {}", self.color.letter().to_ascii_lowercase());
        let reply = self.link.request(&command, limit)?;
        if !reply.success {
            return Err(PlayerError::Refused { command, message: reply.text });
        }
        let text = reply.text.trim().to_string();
        let answer = if text.eq_ignore_ascii_case("resign") {
            Answer::Resign
        } else {
            let mv = parse_vertex(&text, self.size).map_err(|_| PlayerError::BadMove(text))?;
            Answer::Move(mv)
        };
        Ok((answer, reply.elapsed))
    }
}

/// An engine speaking Phantom GTP: told every announcement with `phantom-result` / `phantom-opponent`,
/// asked for its belief when it knows `phantom-belief`.
pub struct PhantomGtpSeat {
    gtp: GtpEngine,
    has_belief: bool,
}

impl PhantomGtpSeat {
    /// The seat over a started engine.
    pub fn new(gtp: GtpEngine) -> PhantomGtpSeat {
        PhantomGtpSeat { gtp, has_belief: false }
    }

    /// The engine behind the seat (for a seat built on this one).
    pub fn engine(&mut self) -> &mut GtpEngine {
        &mut self.gtp
    }
}

impl Seat for PhantomGtpSeat {
    fn greet(&mut self) -> Result<String, PlayerError> {
        self.gtp.greet()
    }

    fn setup(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.gtp.setup_board(setup)?;
        self.gtp.send_required(&format!("phantom-rules illegal={}", setup.rule))?;
        if setup.repetition != crate::game::Repetition::Allowed {
            // Optional (shared/protocol.md): a `?` is no fault.
            self.gtp.send(&format!("phantom-rules repetition={}", setup.repetition))?;
        }
        // Optional too, on a line of its own.
        self.gtp.send(&format!("phantom-rules max-tries={}", setup.max_tries))?;
        let known = self.gtp.send("known_command phantom-belief")?;
        self.has_belief = known.success && known.text.trim() == "true";
        self.gtp.setup_time(setup)
    }

    fn time_left(&mut self, clock: &Clock) -> Result<(), PlayerError> {
        self.gtp.time_left(clock)
    }

    fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError> {
        self.gtp.genmove(limit)
    }

    fn tell(&mut self, observation: &Observation) -> Result<String, PlayerError> {
        let told = announcement(observation, self.gtp.size);
        if !told.is_empty() {
            self.gtp.send_optional(&told)?;
        }
        Ok(told)
    }

    fn belief(&mut self) -> Result<Option<Vec<f64>>, PlayerError> {
        if !self.has_belief {
            return Ok(None);
        }
        let reply = self.gtp.send("phantom-belief")?;
        let parsed = reply.success.then(|| super::belief::parse_belief(&reply.text, self.gtp.size)).flatten();
        if parsed.is_none() {
            self.has_belief = false;
            self.gtp
                .warnings
                .push(format!("{}: phantom-belief reply could not be read; belief scoring stopped", self.gtp.color));
        }
        Ok(parsed)
    }

    fn warnings(&self) -> &[String] {
        &self.gtp.warnings
    }

    fn kill_and_stderr_tail(&mut self) -> String {
        self.gtp.link.process.kill_and_stderr_tail()
    }

    fn finish(self: Box<Self>) {
        self.gtp.link.quit();
    }
}

/// The protocol line for an announcement (`phantom-result ok C3`, `phantom-opponent pass`, ...); empty for
/// the player's own pass, which is not announced.
pub fn announcement(observation: &Observation, size: usize) -> String {
    let vertices =
        |set: crate::bitboard::Bitboard| -> String { set.iter().map(|p| format!(" {}", p.to_vertex(size))).collect() };
    match *observation {
        Observation::OwnIllegal { .. } => "phantom-result illegal".to_string(),
        Observation::OwnOk { captured, .. } => format!("phantom-result ok{}", vertices(captured)),
        Observation::OwnPass => String::new(),
        Observation::OpponentIllegal => "phantom-opponent illegal".to_string(),
        Observation::OpponentMove { captured } | Observation::OpponentSeen { captured, .. } => {
            format!("phantom-opponent ok{}", vertices(captured))
        }
        Observation::OpponentPass => "phantom-opponent pass".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_and_seeds() {
        let spec = EngineSpec::parse("view: gnugo --mode gtp", None);
        assert_eq!(spec.kind, SeatKind::View);
        assert_eq!(spec.command, "gnugo --mode gtp");
        assert_eq!(spec.name, "view: gnugo --mode gtp");
        let own = EngineSpec::parse("phantomgo gtp --seed {seed}", Some("pg"));
        assert_eq!(own.kind, SeatKind::PhantomGtp);
        assert_eq!(own.name, "pg");
        assert_eq!(own.command_for_seed(42), "phantomgo gtp --seed 42");
        let dialect = EngineSpec::parse("ccgc:phantomgo ccgc", None);
        assert_eq!(dialect.kind, SeatKind::Ccgc);
        assert_eq!(dialect.command, "phantomgo ccgc");
        let seeing = EngineSpec::parse("full: phantomgo gtp", None);
        assert_eq!((seeing.kind, seeing.command.as_str()), (SeatKind::Full, "phantomgo gtp"));
        let logged = EngineSpec::parse("pg --seed {seed} --game-id {game}", None).for_game(7);
        assert_eq!(logged.command_for_seed(3), "pg --seed 3 --game-id 7");
        assert_eq!(logged.name, "pg --seed {seed} --game-id {game}");
    }
}
