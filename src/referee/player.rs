//! One side of a match game: an engine process speaking Phantom GTP, or a plain GTP engine behind the view
//! wrapper; sets the game up, asks for tries and tells it what the rules announce.

use super::process::{EngineProcess, ProcessError, Reply};
use super::record::EndReason;
use super::view::ViewState;
use crate::color::Color;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::{parse_vertex, Move};
use std::fmt;
use std::time::Duration;

/// The prefix that puts a plain GTP engine behind the view wrapper.
pub const VIEW_PREFIX: &str = "view:";

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
    /// True for a plain GTP engine behind the view wrapper (`view:` prefix).
    pub is_view: bool,
}

impl EngineSpec {
    /// Reads a `--black`/`--white` value: `CMD` or `view:CMD`.
    pub fn parse(text: &str, name: Option<&str>) -> EngineSpec {
        let trimmed = text.trim();
        let (command, is_view) = match trimmed.strip_prefix(VIEW_PREFIX) {
            Some(rest) => (rest.trim().to_string(), true),
            None => (trimmed.to_string(), false),
        };
        EngineSpec { name: name.map_or_else(|| trimmed.to_string(), str::to_string), command, is_view }
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
    /// A genmove answer that is no vertex on this board.
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
}

/// One engine in one game.
pub struct Player {
    process: EngineProcess,
    view: Option<ViewState>,
    color: Color,
    size: usize,
    timeout: Duration,
    has_belief: bool,
    /// Non-fatal oddities seen so far.
    pub warnings: Vec<String>,
}

impl Player {
    /// Starts the engine for `color`; `timeout` bounds every command but genmove.
    ///
    /// # Errors
    /// [`PlayerError::Process`] when it cannot be started.
    pub fn start(
        spec: &EngineSpec,
        seed: u64,
        color: Color,
        size: usize,
        timeout: Duration,
    ) -> Result<Player, PlayerError> {
        let mut process = EngineProcess::spawn(&spec.command_for_seed(seed))?;
        process.set_label(format!("{} {color}", spec.name));
        let view = if spec.is_view {
            Some(ViewState::new(size, color, seed).ok_or_else(|| PlayerError::Refused {
                command: format!("boardsize {size}"),
                message: "unsupported size".into(),
            })?)
        } else {
            None
        };
        Ok(Player { process, view, color, size, timeout, has_belief: false, warnings: Vec::new() })
    }

    /// The tail of the engine's stderr.
    pub fn stderr_tail(&self) -> String {
        self.process.stderr_tail()
    }

    /// Kills the engine (it broke) and returns the tail of its stderr.
    pub fn kill_and_stderr_tail(&mut self) -> String {
        self.process.kill_and_stderr_tail()
    }

    /// True when the engine answers `phantom-belief`.
    pub fn has_belief(&self) -> bool {
        self.has_belief
    }

    fn send(&mut self, command: &str) -> Result<Reply, PlayerError> {
        Ok(self.process.request(command, self.timeout)?)
    }

    fn send_required(&mut self, command: &str) -> Result<Reply, PlayerError> {
        let reply = self.send(command)?;
        if reply.success {
            Ok(reply)
        } else {
            Err(PlayerError::Refused { command: command.to_string(), message: reply.text })
        }
    }

    fn send_optional(&mut self, command: &str) -> Result<Reply, PlayerError> {
        let reply = self.send(command)?;
        if !reply.success {
            self.warnings.push(format!("{} refused '{command}': {}", self.color, reply.text));
        }
        Ok(reply)
    }

    /// Sends the game setup: `boardsize`, `komi`, `clear_board`, `phantom-rules` (not to plain engines),
    /// `time_settings`; asks whether it knows `phantom-belief`.
    ///
    /// # Errors
    /// Any process failure, or a refused `boardsize`/`komi`/`clear_board`/`phantom-rules`.
    pub fn setup(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.send_required(&format!("boardsize {}", setup.size))?;
        self.send_required(&format!("komi {}", setup.komi))?;
        self.send_required("clear_board")?;
        if self.view.is_none() {
            self.send_required(&format!("phantom-rules illegal={}", setup.rule))?;
            if setup.repetition != crate::game::Repetition::Allowed {
                // Optional (shared/protocol.md): a `?` is no fault.
                self.send(&format!("phantom-rules repetition={}", setup.repetition))?;
            }
            let known = self.send("known_command phantom-belief")?;
            self.has_belief = known.success && known.text.trim() == "true";
        }
        if let Some(command) = &setup.time_settings {
            self.send_optional(command)?;
        }
        Ok(())
    }

    /// Sends `time_left` (optional for the engine; a refusal is only a warning).
    ///
    /// # Errors
    /// A process failure.
    pub fn time_left(&mut self, command: &str) -> Result<(), PlayerError> {
        self.send_optional(command).map(|_| ())
    }

    /// Asks for a try within `limit`; returns it and how long the engine took.
    ///
    /// # Errors
    /// A process failure (a timeout included), or an answer that is no move.
    pub fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError> {
        if let Some(view) = self.view.as_mut() {
            for command in view.resync_commands() {
                self.send_required(&command)?;
            }
        }
        let command = format!("genmove {}", self.color.letter().to_ascii_lowercase());
        let reply = self.process.request(&command, limit)?;
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
        if let (Some(view), Answer::Move(mv)) = (self.view.as_mut(), answer) {
            let is_repeat = view.is_repeat(mv);
            if is_repeat || mv == Move::Pass {
                // The engine's board holds its answer; the fill-in (if any) re-syncs it before the next genmove.
                let substitute = view.fill_in();
                if is_repeat && substitute.is_none() {
                    let undo = self.send("undo")?;
                    if !undo.success {
                        if let Some(view) = self.view.as_mut() {
                            view.mark_out_of_sync();
                        }
                    }
                }
                let mv = substitute.map_or(Move::Pass, Move::Play);
                return Ok((Answer::Move(mv), reply.elapsed));
            }
        }
        Ok((answer, reply.elapsed))
    }

    /// Tells the engine one announcement; returns the protocol text of what it was told (empty for nothing).
    ///
    /// # Errors
    /// A process failure, or a refused re-sync command for a plain engine.
    pub fn tell(&mut self, observation: &Observation) -> Result<String, PlayerError> {
        let told = announcement(observation, self.size);
        if let Some(view) = self.view.as_mut() {
            let commands = view.observe(observation);
            for command in commands {
                let reply = self.send(&command)?;
                if !reply.success {
                    if let Some(view) = self.view.as_mut() {
                        view.mark_out_of_sync();
                    }
                    break;
                }
            }
        } else if !told.is_empty() {
            self.send_optional(&told)?;
        }
        Ok(told)
    }

    /// The engine's belief (probability of an opponent stone per point), when it answers `phantom-belief`.
    ///
    /// # Errors
    /// A process failure.
    pub fn belief(&mut self) -> Result<Option<Vec<f64>>, PlayerError> {
        if !self.has_belief {
            return Ok(None);
        }
        let reply = self.send("phantom-belief")?;
        let parsed = reply.success.then(|| super::belief::parse_belief(&reply.text, self.size)).flatten();
        if parsed.is_none() {
            self.has_belief = false;
            self.warnings
                .push(format!("{}: phantom-belief reply could not be read; belief scoring stopped", self.color));
        }
        Ok(parsed)
    }

    /// Says goodbye (`quit`) and makes sure the process is gone.
    pub fn finish(self) {
        self.process.quit();
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
        Observation::OpponentMove { captured } => {
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
        assert!(spec.is_view);
        assert_eq!(spec.command, "gnugo --mode gtp");
        assert_eq!(spec.name, "view: gnugo --mode gtp");
        let own = EngineSpec::parse("phantomgo gtp --seed {seed}", Some("pg"));
        assert!(!own.is_view);
        assert_eq!(own.name, "pg");
        assert_eq!(own.command_for_seed(42), "phantomgo gtp --seed 42");
        let logged = EngineSpec::parse("pg --seed {seed} --game-id {game}", None).for_game(7);
        assert_eq!(logged.command_for_seed(3), "pg --seed 3 --game-id 7");
        assert_eq!(logged.name, "pg --seed {seed} --game-id {game}");
    }
}
