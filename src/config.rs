//! Settings: `configs/*.toml` files (serde, unknown keys refused), command-line overrides, validation naming the key.
//!
//! Precedence: built-in defaults, then the file given with `--config`, then command-line options.
//! In files, `0` (or `""`) switches an optional knob off: `playouts = 0` means no fixed playout count.

use crate::engine::{EngineConfig, PlayerKind};
use crate::judge::IllegalRule;
use crate::scoring::TieRule;
use crate::time::{TimeManager, DEFAULT_SAFETY_MARGIN};
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Most search threads accepted.
pub const MAX_THREADS: usize = 1024;
/// Most belief particles accepted.
pub const MAX_PARTICLES: usize = 1_000_000;
/// Longest fixed move time accepted, in seconds (one day).
pub const MAX_MOVE_TIME: f64 = 86_400.0;
/// Largest safety margin accepted, in milliseconds.
pub const MAX_SAFETY_MARGIN_MS: u64 = 60_000;

/// Why settings could not be loaded; every message names the file or the key.
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The reason.
        message: String,
    },
    /// The file is not valid TOML for these settings (unknown key, wrong type); the message names the key.
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A value out of range.
    Invalid {
        /// The key, e.g. `engine.threads` (or the option, e.g. `--threads`).
        key: String,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Read { path, message } => {
                write!(f, "cannot read config {}: {message}", path.display())
            }
            ConfigError::Parse { path, message } => {
                write!(f, "bad config {}: {}", path.display(), message.trim_end())
            }
            ConfigError::Invalid { key, message } => {
                write!(f, "invalid value for {key}: {message}")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// `[engine]` in a config file.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EngineSection {
    /// `"mcts"`, `"ismcts"`, `"random"`, `"flat"` or `"pimc"`.
    pub player: Option<String>,
    /// Search threads; 0 = all cores.
    pub threads: Option<usize>,
    /// Fixed playouts per move; 0 = none.
    pub playouts: Option<u64>,
    /// Fixed seconds per move; 0 = none.
    pub move_time: Option<f64>,
    /// Belief particles.
    pub particles: Option<usize>,
    /// Random seed.
    pub seed: Option<u64>,
    /// Resign below this estimated win rate; 0 = never.
    pub resign_below: Option<f64>,
    /// Simulations a ponder may run on the opponent's time; 0 = no pondering.
    pub ponder_playouts: Option<u64>,
}

/// `[time]` in a config file.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TimeSection {
    /// Milliseconds taken off every hard budget for process and pipe lag.
    pub safety_margin_ms: Option<u64>,
}

/// `[log]` in a config file.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LogSection {
    /// One JSON line per move is appended here; `""` = none.
    pub file: Option<String>,
}

/// `[search]` in a config file: the MCTS knobs.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SearchSection {
    /// UCB exploration constant (> 0).
    pub exploration: Option<f64>,
    /// Main search: UCB exploration constant at our own nodes below the root (> 0).
    pub exploration_below: Option<f64>,
    /// Add the information-gain bonus alpha * p * (1 - p).
    pub info_gain: Option<bool>,
    /// Alpha at the first move (>= 0).
    pub alpha_start: Option<f64>,
    /// Alpha once decayed (>= 0).
    pub alpha_end: Option<f64>,
    /// Moves over which alpha decays linearly; 0 = fixed alpha_start.
    pub alpha_decay_moves: Option<u32>,
    /// No bonus where p * (1 - p) is below this (0..=0.25).
    pub probe_min_uncertainty: Option<f64>,
    /// No bonus at all while the mean p * (1 - p) over the board is below this (0..=0.25; 0 = never off).
    pub probe_min_mean_uncertainty: Option<f64>,
    /// Points per captured stone in playouts (>= 0).
    pub capture_bonus: Option<f64>,
    /// Visits before a child node is expanded (>= 1).
    pub expand_after: Option<u32>,
    /// Stop early when the best try has this many times the visits of the second (>= 1).
    pub convergence_ratio: Option<f64>,
    /// Playout policy: probability of trying next to one's own stones (0..=1).
    pub near_own: Option<f64>,
    /// Main search: RAVE equivalence parameter k (0 = no RAVE).
    pub rave_equivalence: Option<f64>,
    /// Main search: the root's RAVE equivalence k (0 = rave_equivalence's).
    pub root_rave_equivalence: Option<f64>,
    /// Main search: the largest random perturbation of an edge's value at each selection (0..=0.1).
    pub tie_jitter: Option<f64>,
    /// Main search: value of a move with no statistics yet (0..=10).
    pub first_play_urgency: Option<f64>,
    /// Main search: progressive widening coefficient (0..=100; 0 = off).
    pub widening: Option<f64>,
    /// Main search: progressive widening exponent (0..=1).
    pub widening_power: Option<f64>,
    /// Main search: probability of a uniformly random opponent move at the opponent's nodes below the root (0..=1).
    pub opponent_mix: Option<f64>,
    /// Main search under `lose-turn`: reward taken off a simulation whose root try was refused (0..=1).
    pub refusal_cost: Option<f64>,
    /// Main search: share of particles showing an invader in our area from which we do not pass (0..=1).
    pub invader_share: Option<f64>,
    /// Main search: the same share under `retry` (0..=1).
    pub invader_share_retry: Option<f64>,
    /// Main search under `retry`: share of particles showing an invader at a point from which that point is
    /// probed before a pass (0..=1; 0 = never).
    pub cleanup_share: Option<f64>,
    /// Main search under `retry`: share of its statistics kept from the search of a try refused since
    /// (0..=1; 0 = every search starts afresh).
    pub reuse_decay: Option<f64>,
    /// Main search: share of the statistics after our last try and each reply that starts the next turn's root
    /// (0..=1; 0 = none).
    pub reply_prior: Option<f64>,
    /// Main search: the kept statistics weighed by the share of the old search's particles the referee's
    /// answer left standing (true), or kept at `reuse_decay` / `reply_prior` as given (false).
    pub carry_consistent: Option<bool>,
    /// Main search: one tree per player, each keyed by what that player has seen (true), or one tree of all
    /// moves (false).
    pub observer_trees: Option<bool>,
    /// Main search's playouts: play the last good reply to the stone just played (true) or the policy alone.
    pub last_good_reply: Option<bool>,
    /// Main search's playouts: probability of capturing a chain in atari (0..=1).
    pub playout_capture: Option<f64>,
    /// Main search's playouts: probability of extending a chain out of atari (0..=1).
    pub playout_escape: Option<f64>,
    /// Main search's playouts: probability of refusing a self-atari of two stones or more (0..=1).
    pub playout_self_atari: Option<f64>,
    /// Main search's playouts: the mercy rule, a playout ends once one colour leads by this share of the board's
    /// points in stones (0..=1; 0 = never).
    pub playout_mercy: Option<f64>,
    /// Main search's playouts: cap on a playout's moves (and the tree's walk), as a multiple of the board's points
    /// (1..=10).
    pub playout_moves_per_point: Option<u32>,
    /// Main search: no pass while the particles show an invader in our area, unless the best try's win rate is
    /// below the pass's by more than this (0..=1; 1 = never pass then, 0 = only when the try is no worse).
    pub invader_margin: Option<f64>,
}

/// `[belief]` in a config file: the particle filter's knobs (the count is `engine.particles`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BeliefSection {
    /// Resample when fewer than this share of particles survive an observation (0..=1).
    pub resample_below: Option<f64>,
    /// Opponent model: probability of a stone near the opponent's other stones (0..=1).
    pub locality: Option<f64>,
    /// Opponent model: probability of a stone next to one of ours (0..=1).
    pub contact: Option<f64>,
    /// How dead particles are replaced: `"mutation"` (repairs and mutated survivors) or `"fresh"`.
    pub resampling: Option<String>,
    /// Which stone a repair aimed at a refused try moves onto the refused point: `"near"` (a stone within two
    /// points on a fair coin) or `"away"` (a stone further away when there is one).
    pub refusal_repair: Option<String>,
    /// Opponent model: `"fitted"` (configs/opponent_model.toml, built in), `"fitted-8000"` (the candidate
    /// configs/opponent_model_8000.toml, built in), `"hand"` (locality and contact), or the path of a model file written by `phantomgo fit-model`.
    pub opponent_model: Option<String>,
    /// Pattern model of hidden moves, replacing the pool mixture: `"none"` (the default) or the path of a
    /// file written by `phantomgo fit-model --patterns`.
    pub pattern_model: Option<String>,
}

/// `[game]` in a config file: the game the engine is entered in. GTP sets size, komi, rules and time by
/// command; the championship dialect transmits none of them, so it reads them here.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameSection {
    /// `"gtp"` or `"ccgc"`: what `phantomgo` with no subcommand speaks.
    pub protocol: Option<String>,
    /// `"white"` or `"draw"`: who wins a level game, in the engine's scoring and playout rewards (default:
    /// draw under GTP, white under the dialect).
    pub tie_goes_to: Option<String>,
    /// Name given to the dialect's `name?`.
    pub name: Option<String>,
    /// The engine's whole-game time budget in seconds under the dialect; 0 = none.
    pub main_time: Option<f64>,
    /// Komi under the dialect.
    pub komi: Option<f64>,
    /// `"retry"` or `"lose-turn"` under the dialect.
    pub rules: Option<String>,
}

/// A config file as written.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// Engine knobs.
    #[serde(default)]
    pub engine: EngineSection,
    /// Time management.
    #[serde(default)]
    pub time: TimeSection,
    /// Logging.
    #[serde(default)]
    pub log: LogSection,
    /// Search.
    #[serde(default)]
    pub search: SearchSection,
    /// Belief.
    #[serde(default)]
    pub belief: BeliefSection,
    /// The game and protocol.
    #[serde(default)]
    pub game: GameSection,
}

impl FileConfig {
    /// Parses config text; `path` only names the source in errors.
    ///
    /// # Errors
    /// [`ConfigError::Parse`] for invalid TOML, unknown keys or wrongly typed values.
    pub fn parse(text: &str, path: &Path) -> Result<FileConfig, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Parse { path: path.to_path_buf(), message: e.to_string() })
    }

    /// Reads and parses a config file.
    ///
    /// # Errors
    /// [`ConfigError::Read`] or [`ConfigError::Parse`].
    pub fn load(path: &Path) -> Result<FileConfig, ConfigError> {
        FileConfig::load_with(Some(path), &[])
    }

    /// Reads a config file (or none) and applies `section.key=value` overrides on top, then parses it all.
    /// Values are TOML (`true`, `0.1`, `"text"`); a bare word that is not TOML is taken as a string.
    ///
    /// # Errors
    /// [`ConfigError::Read`], or [`ConfigError::Parse`] naming the key that is unknown or of the wrong type, or
    /// [`ConfigError::Invalid`] for an override that is not `section.key=value`.
    pub fn load_with(path: Option<&Path>, overrides: &[String]) -> Result<FileConfig, ConfigError> {
        let source = path.map_or_else(|| PathBuf::from("--set"), Path::to_path_buf);
        let text = match path {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| ConfigError::Read { path: path.to_path_buf(), message: e.to_string() })?,
            None => String::new(),
        };
        let mut table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError::Parse { path: source.clone(), message: e.to_string() })?;
        for item in overrides {
            let bad = || invalid("--set", format!("'{item}' is not section.key=value"));
            let (key, value) = item.split_once('=').ok_or_else(bad)?;
            let (section, name) = key.trim().split_once('.').ok_or_else(bad)?;
            if section.is_empty() || name.is_empty() || name.contains('.') {
                return Err(bad());
            }
            let value = value.trim();
            let parsed = format!("v = {value}")
                .parse::<toml::Table>()
                .ok()
                .and_then(|mut t| t.remove("v"))
                .unwrap_or_else(|| toml::Value::String(value.to_string()));
            let entry = table.entry(section.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            match entry {
                toml::Value::Table(section_table) => {
                    section_table.insert(name.to_string(), parsed);
                }
                _ => return Err(invalid(key, "not a section")),
            }
        }
        FileConfig::deserialize(toml::Value::Table(table))
            .map_err(|e| ConfigError::Parse { path: source, message: e.to_string() })
    }
}

/// Engine options shared by every subcommand (the command line's layer over the file).
#[derive(Clone, Debug, Default, PartialEq, clap::Args)]
pub struct EngineOptions {
    /// Read settings from this TOML file (see configs/default.toml); options given here override it.
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Search threads (0 = all cores).
    #[arg(long, value_name = "N", global = true)]
    pub threads: Option<usize>,
    /// Fixed playouts per move (0 = none); with a clock, the clock still caps the time.
    #[arg(long, value_name = "N", global = true)]
    pub playouts: Option<u64>,
    /// Fixed seconds per move (0 = none); with a clock, the smaller budget wins.
    #[arg(long, value_name = "SECONDS", global = true, allow_negative_numbers = true)]
    pub move_time: Option<f64>,
    /// Belief particles.
    #[arg(long, value_name = "N", global = true)]
    pub particles: Option<usize>,
    /// Random seed (a fixed seed, fixed playouts and one thread repeat the same game).
    #[arg(long, value_name = "N", global = true)]
    pub seed: Option<u64>,
    /// Append one JSON line per move to this file.
    #[arg(long, value_name = "FILE", global = true)]
    pub log_file: Option<PathBuf>,
    /// Milliseconds taken off every hard time budget for process and pipe lag (default 50).
    #[arg(long, value_name = "MS", global = true)]
    pub safety_margin_ms: Option<u64>,
    /// Override one config key, e.g. `--set search.info_gain=false` (repeatable; after the file, before the
    /// options above).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE", global = true)]
    pub set: Vec<String>,
    /// A game id put in every `--log-file` line (`"game": ID`), so a file of many games can be split; the
    /// match runner gives its own engines `--game-id {game}`.
    #[arg(long, value_name = "ID", global = true)]
    pub game_id: Option<String>,
}

/// Everything resolved: engine settings, time manager, log file.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// What the engine is built with.
    pub engine: EngineConfig,
    /// Taken off every hard budget.
    pub safety_margin: Duration,
    /// JSON move log.
    pub log_file: Option<PathBuf>,
    /// The game settings the dialect needs (and the protocol, and who wins a tie).
    pub game: GameSettings,
    /// Where the log file was set (`log.file` or `--log-file`), for messages.
    pub log_file_key: &'static str,
    /// The game id written in each move-log line.
    pub game_id: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineConfig::default(),
            safety_margin: DEFAULT_SAFETY_MARGIN,
            log_file: None,
            game: GameSettings::default(),
            log_file_key: "log.file",
            game_id: None,
        }
    }
}

/// The protocol a front end speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// GTP with the phantom extensions.
    #[default]
    Gtp,
    /// The Chinese championship platform's dialect.
    Ccgc,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    /// `gtp` or `ccgc`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "gtp" => Ok(Protocol::Gtp),
            "ccgc" => Ok(Protocol::Ccgc),
            other => Err(format!("'{other}' is not gtp or ccgc")),
        }
    }
}

/// The `[game]` settings, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSettings {
    /// What `phantomgo` with no subcommand speaks.
    pub protocol: Protocol,
    /// Who wins a level game, when set; else the protocol's default (see [`Settings::for_protocol`]).
    pub tie: Option<TieRule>,
    /// The dialect's `name?` answer.
    pub name: String,
    /// The dialect's whole-game budget.
    pub main_time: Option<Duration>,
    /// Komi under the dialect.
    pub komi: f32,
    /// Illegal-try rule under the dialect.
    pub rule: IllegalRule,
    /// Board size under the dialect.
    pub size: usize,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            protocol: Protocol::Gtp,
            tie: None,
            name: "phantomgo".to_string(),
            main_time: None,
            komi: 7.5,
            rule: IllegalRule::Retry,
            size: 9,
        }
    }
}

impl GameSettings {
    fn apply(&mut self, section: &GameSection) -> Result<(), ConfigError> {
        if let Some(text) = &section.protocol {
            self.protocol = text.parse().map_err(|m| invalid("game.protocol", m))?;
        }
        if let Some(text) = &section.tie_goes_to {
            self.tie = Some(text.parse().map_err(|m| invalid("game.tie_goes_to", m))?);
        }
        if let Some(name) = &section.name {
            self.set_name(name).map_err(|m| invalid("game.name", m))?;
        }
        if let Some(seconds) = section.main_time {
            self.set_main_time(seconds).map_err(|m| invalid("game.main_time", m))?;
        }
        if let Some(komi) = section.komi {
            self.set_komi(komi).map_err(|m| invalid("game.komi", m))?;
        }
        if let Some(text) = &section.rules {
            self.rule = text.parse().map_err(|m: String| invalid("game.rules", m))?;
        }
        Ok(())
    }

    /// Sets the dialect's name: one word of printable ASCII.
    ///
    /// # Errors
    /// A message saying what a name may hold.
    pub fn set_name(&mut self, name: &str) -> Result<(), String> {
        if name.is_empty() || name.len() > 64 || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!("'{name}' is not one word of 1..=64 printable ASCII characters"));
        }
        self.name = name.to_string();
        Ok(())
    }

    /// Sets the whole-game budget in seconds (0 = none).
    ///
    /// # Errors
    /// A message when it is not a number of seconds in range.
    pub fn set_main_time(&mut self, seconds: f64) -> Result<(), String> {
        if !seconds.is_finite() || !(0.0..=MAX_MAIN_TIME).contains(&seconds) {
            return Err(format!("{seconds} is not a number of seconds in 0..={MAX_MAIN_TIME}"));
        }
        self.main_time = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
        Ok(())
    }

    /// Sets komi.
    ///
    /// # Errors
    /// A message when it is not a finite number of sensible size.
    pub fn set_komi(&mut self, komi: f64) -> Result<(), String> {
        if !komi.is_finite() || komi.abs() > 1000.0 {
            return Err(format!("{komi} is not a komi in -1000..=1000"));
        }
        self.komi = komi as f32;
        Ok(())
    }
}

/// Longest whole-game budget accepted (a day).
pub const MAX_MAIN_TIME: f64 = 86_400.0;

fn invalid(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { key: key.to_string(), message: message.into() }
}

/// The value named by `text` among `options` (name, value) for the config key `key`; an error naming them otherwise.
fn choice<T: Copy>(key: &str, text: &str, options: &[(&str, T)]) -> Result<T, ConfigError> {
    match options.iter().find(|(name, _)| *name == text) {
        Some(&(_, value)) => Ok(value),
        None => {
            let names: Vec<&str> = options.iter().map(|(name, _)| *name).collect();
            Err(invalid(key, format!("'{text}' is not {}", names.join(" or "))))
        }
    }
}

/// Parses a player name: `mcts`, `ismcts`, `random`, `flat` or `pimc`.
///
/// # Errors
/// A message naming the accepted values.
pub fn parse_player(text: &str) -> Result<PlayerKind, String> {
    match text.to_ascii_lowercase().as_str() {
        "mcts" => Ok(PlayerKind::Mcts),
        "ismcts" => Ok(PlayerKind::Ismcts),
        "random" => Ok(PlayerKind::Random),
        "flat" => Ok(PlayerKind::Flat),
        "pimc" => Ok(PlayerKind::Pimc),
        other => Err(format!("unknown player '{other}' (expected mcts, ismcts, random, flat or pimc)")),
    }
}

/// The values one layer (file or command line) sets; `None` leaves the layer below.
#[derive(Clone, Debug, Default)]
struct Layer {
    player: Option<String>,
    threads: Option<usize>,
    playouts: Option<u64>,
    move_time: Option<f64>,
    particles: Option<usize>,
    seed: Option<u64>,
    resign_below: Option<f64>,
    ponder_playouts: Option<u64>,
    safety_margin_ms: Option<u64>,
    log_file: Option<String>,
}

impl Settings {
    /// Settings from the defaults, the `--config` file if any, then the command-line options and `player`.
    ///
    /// # Errors
    /// [`ConfigError`] naming the file, key or option that is wrong.
    pub fn resolve(options: &EngineOptions, player: Option<&str>) -> Result<Settings, ConfigError> {
        let file = FileConfig::load_with(options.config.as_deref(), &options.set)?;
        Settings::from_layers(&file, options, player)
    }

    /// Settings from a parsed file and command-line options.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the key (`engine.threads`) or option (`--threads`) that is out of range.
    pub fn from_layers(
        file: &FileConfig,
        options: &EngineOptions,
        player: Option<&str>,
    ) -> Result<Settings, ConfigError> {
        let mut settings = Settings::default();
        let from_file = Layer {
            player: file.engine.player.clone(),
            threads: file.engine.threads,
            playouts: file.engine.playouts,
            move_time: file.engine.move_time,
            particles: file.engine.particles,
            seed: file.engine.seed,
            resign_below: file.engine.resign_below,
            ponder_playouts: file.engine.ponder_playouts,
            safety_margin_ms: file.time.safety_margin_ms,
            log_file: file.log.file.clone(),
        };
        let from_command_line = Layer {
            player: player.map(str::to_string),
            threads: options.threads,
            playouts: options.playouts,
            move_time: options.move_time,
            particles: options.particles,
            seed: options.seed,
            resign_below: None,
            ponder_playouts: None,
            safety_margin_ms: options.safety_margin_ms,
            log_file: options.log_file.as_ref().map(|p| p.to_string_lossy().into_owned()),
        };
        settings.apply(&from_file, false)?;
        settings.apply(&from_command_line, true)?;
        settings.apply_search(&file.search)?;
        settings.apply_belief(&file.belief)?;
        settings.game.apply(&file.game)?;
        settings.game_id = options.game_id.clone();
        Ok(settings)
    }

    /// These settings for a front end speaking `protocol`: who wins a tie, unless set, is nobody under GTP
    /// and White under the dialect; the search's playout rewards follow it.
    pub fn for_protocol(mut self, protocol: Protocol) -> Settings {
        let default = match protocol {
            Protocol::Gtp => TieRule::Draw,
            Protocol::Ccgc => TieRule::White,
        };
        self.engine.search.tie = self.game.tie.unwrap_or(default);
        self
    }

    fn apply_search(&mut self, section: &SearchSection) -> Result<(), ConfigError> {
        let search = &mut self.engine.search;
        let number = |key: &str, value: Option<f64>, low: f64, high: f64| -> Result<Option<f32>, ConfigError> {
            match value {
                Some(v) if !v.is_finite() || v < low || v > high => {
                    Err(invalid(&format!("search.{key}"), format!("{v} is not in {low}..={high}")))
                }
                other => Ok(other.map(|v| v as f32)),
            }
        };
        if let Some(v) = number("exploration", section.exploration, 1e-6, 100.0)? {
            search.exploration = v;
        }
        if let Some(v) = number("exploration_below", section.exploration_below, 1e-6, 100.0)? {
            search.exploration_below = v;
        }
        if let Some(v) = section.info_gain {
            search.info_gain = v;
        }
        if let Some(v) = number("alpha_start", section.alpha_start, 0.0, 10.0)? {
            search.alpha_start = v;
        }
        if let Some(v) = number("alpha_end", section.alpha_end, 0.0, 10.0)? {
            search.alpha_end = v;
        }
        if let Some(v) = section.alpha_decay_moves {
            search.alpha_decay_moves = v;
        }
        if let Some(v) = number("probe_min_uncertainty", section.probe_min_uncertainty, 0.0, 0.25)? {
            search.probe_min_uncertainty = v;
        }
        if let Some(v) = number("probe_min_mean_uncertainty", section.probe_min_mean_uncertainty, 0.0, 0.25)? {
            search.probe_min_mean_uncertainty = v;
        }
        if let Some(v) = number("capture_bonus", section.capture_bonus, 0.0, 100.0)? {
            search.capture_bonus = v;
        }
        if let Some(v) = section.expand_after {
            if v == 0 {
                return Err(invalid("search.expand_after", "must be at least 1"));
            }
            search.expand_after = v;
        }
        if let Some(v) = number("convergence_ratio", section.convergence_ratio, 1.0, 1e9)? {
            search.convergence_ratio = v;
        }
        if let Some(v) = number("near_own", section.near_own, 0.0, 1.0)? {
            search.policy.near_own = v;
        }
        if let Some(v) = number("rave_equivalence", section.rave_equivalence, 0.0, 1e9)? {
            search.rave_equivalence = v;
        }
        if let Some(v) = number("root_rave_equivalence", section.root_rave_equivalence, 0.0, 1e9)? {
            search.root_rave_equivalence = v;
        }
        if let Some(v) = number("tie_jitter", section.tie_jitter, 0.0, 0.1)? {
            search.tie_jitter = v;
        }
        if let Some(v) = number("first_play_urgency", section.first_play_urgency, 0.0, 10.0)? {
            search.first_play_urgency = v;
        }
        if let Some(v) = number("widening", section.widening, 0.0, 100.0)? {
            search.widening = v;
        }
        if let Some(v) = number("widening_power", section.widening_power, 0.0, 1.0)? {
            search.widening_power = v;
        }
        if let Some(v) = number("opponent_mix", section.opponent_mix, 0.0, 1.0)? {
            search.opponent_mix = v;
        }
        if let Some(v) = number("invader_share", section.invader_share, 0.0, 1.0)? {
            search.invader_share = v;
        }
        if let Some(v) = number("invader_share_retry", section.invader_share_retry, 0.0, 1.0)? {
            search.invader_share_retry = v;
        }
        if let Some(v) = number("cleanup_share", section.cleanup_share, 0.0, 1.0)? {
            search.cleanup_share = v;
        }
        if let Some(v) = number("reuse_decay", section.reuse_decay, 0.0, 1.0)? {
            search.reuse_decay = v;
        }
        if let Some(v) = number("reply_prior", section.reply_prior, 0.0, 1.0)? {
            search.reply_prior = v;
        }
        if let Some(v) = section.carry_consistent {
            search.carry_consistent = v;
        }
        if let Some(v) = section.observer_trees {
            search.observer_trees = v;
        }
        if let Some(v) = section.last_good_reply {
            search.last_good_reply = v;
        }
        if let Some(v) = number("refusal_cost", section.refusal_cost, 0.0, 1.0)? {
            search.refusal_cost = v;
        }
        if let Some(v) = number("playout_capture", section.playout_capture, 0.0, 1.0)? {
            search.playout.capture = v;
        }
        if let Some(v) = number("playout_escape", section.playout_escape, 0.0, 1.0)? {
            search.playout.escape = v;
        }
        if let Some(v) = number("playout_self_atari", section.playout_self_atari, 0.0, 1.0)? {
            search.playout.avoid_self_atari = v;
        }
        if let Some(v) = number("playout_mercy", section.playout_mercy, 0.0, 1.0)? {
            search.playout.mercy = v;
        }
        if let Some(v) = section.playout_moves_per_point {
            if !(1..=10).contains(&v) {
                return Err(invalid("search.playout_moves_per_point", "must be from 1 to 10"));
            }
            search.playout.moves_per_point = v;
        }
        if let Some(v) = number("invader_margin", section.invader_margin, 0.0, 1.0)? {
            search.invader_margin = v;
        }
        Ok(())
    }

    fn apply_belief(&mut self, section: &BeliefSection) -> Result<(), ConfigError> {
        let belief = &mut self.engine.belief;
        for (key, value, target) in [
            ("resample_below", section.resample_below, &mut belief.resample_below),
            ("locality", section.locality, &mut belief.locality),
            ("contact", section.contact, &mut belief.contact),
        ] {
            if let Some(v) = value {
                if !v.is_finite() || !(0.0..=1.0).contains(&v) {
                    return Err(invalid(&format!("belief.{key}"), format!("{v} is not in 0..=1")));
                }
                *target = v as f32;
            }
        }
        use crate::belief::{RefusalRepair, Resampling};
        if let Some(mode) = &section.resampling {
            let options = [("mutation", Resampling::Mutation), ("fresh", Resampling::Fresh)];
            belief.resampling = choice("belief.resampling", mode, &options)?;
        }
        if let Some(mode) = &section.refusal_repair {
            let options = [("near", RefusalRepair::Near), ("away", RefusalRepair::Away)];
            belief.refusal_repair = choice("belief.refusal_repair", mode, &options)?;
        }
        if let Some(model) = &section.opponent_model {
            belief.model = match model.as_str() {
                "fitted" => Some(crate::belief::OpponentModel::fitted()),
                "fitted-8000" => Some(crate::belief::OpponentModel::fitted_8000()),
                "hand" => None,
                path => {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| invalid("belief.opponent_model", format!("cannot read '{path}': {e}")))?;
                    let parsed = crate::belief::OpponentModel::from_toml(&text)
                        .map_err(|e| invalid("belief.opponent_model", format!("'{path}': {e}")))?;
                    Some(parsed)
                }
            };
        }
        if let Some(model) = &section.pattern_model {
            belief.pattern = match model.as_str() {
                "none" | "" => None,
                path => {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| invalid("belief.pattern_model", format!("cannot read '{path}': {e}")))?;
                    let parsed = crate::belief::pattern::PatternModel::from_text(&text)
                        .map_err(|e| invalid("belief.pattern_model", format!("'{path}': {e}")))?;
                    Some(std::sync::Arc::new(parsed))
                }
            };
        }
        Ok(())
    }

    fn apply(&mut self, layer: &Layer, command_line: bool) -> Result<(), ConfigError> {
        let key = |file_key: &str, option: &str| {
            if command_line {
                option.to_string()
            } else {
                file_key.to_string()
            }
        };
        let engine = &mut self.engine;
        if let Some(player) = &layer.player {
            engine.player = parse_player(player).map_err(|m| invalid(&key("engine.player", "--player"), m))?;
        }
        if let Some(threads) = layer.threads {
            if threads > MAX_THREADS {
                return Err(invalid(
                    &key("engine.threads", "--threads"),
                    format!("{threads} is more than {MAX_THREADS}"),
                ));
            }
            engine.threads = if threads == 0 { EngineConfig::default().threads } else { threads };
        }
        if let Some(playouts) = layer.playouts {
            engine.playouts = (playouts > 0).then_some(playouts);
        }
        if let Some(seconds) = layer.move_time {
            if !seconds.is_finite() || !(0.0..=MAX_MOVE_TIME).contains(&seconds) {
                return Err(invalid(
                    &key("engine.move_time", "--move-time"),
                    format!("{seconds} is not a number of seconds in 0..={MAX_MOVE_TIME}"),
                ));
            }
            engine.move_time = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
        }
        if let Some(particles) = layer.particles {
            if particles == 0 || particles > MAX_PARTICLES {
                return Err(invalid(
                    &key("engine.particles", "--particles"),
                    format!("{particles} is not in 1..={MAX_PARTICLES}"),
                ));
            }
            engine.particles = particles;
        }
        if let Some(seed) = layer.seed {
            engine.seed = seed;
        }
        if let Some(rate) = layer.resign_below {
            if !rate.is_finite() || !(0.0..=1.0).contains(&rate) {
                return Err(invalid(
                    &key("engine.resign_below", "--resign-below"),
                    format!("{rate} is not a win rate in 0..=1"),
                ));
            }
            engine.resign_below = (rate > 0.0).then_some(rate as f32);
        }
        if let Some(playouts) = layer.ponder_playouts {
            engine.ponder_playouts = playouts;
        }
        if let Some(margin) = layer.safety_margin_ms {
            if margin > MAX_SAFETY_MARGIN_MS {
                return Err(invalid(
                    &key("time.safety_margin_ms", "--safety-margin-ms"),
                    format!("{margin} is more than {MAX_SAFETY_MARGIN_MS}"),
                ));
            }
            self.safety_margin = Duration::from_millis(margin);
        }
        if let Some(path) = &layer.log_file {
            self.log_file = (!path.is_empty()).then(|| PathBuf::from(path));
            self.log_file_key = if command_line { "--log-file" } else { "log.file" };
        }
        Ok(())
    }

    /// The time manager these settings ask for.
    pub fn time_manager(&self) -> TimeManager {
        TimeManager {
            safety_margin: self.safety_margin,
            move_time: self.engine.move_time,
            playouts: self.engine.playouts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<FileConfig, ConfigError> {
        FileConfig::parse(text, Path::new("test.toml"))
    }

    fn shipped(name: &str) -> FileConfig {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(name);
        FileConfig::load(&path).unwrap()
    }

    #[test]
    fn shipped_configs_load_and_validate() {
        for name in ["default.toml", "tournament.toml", "fast.toml", "ccgc.toml", "candidate.toml"] {
            let file = shipped(name);
            Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let candidate = Settings::from_layers(&shipped("candidate.toml"), &EngineOptions::default(), None).unwrap();
        assert_eq!(candidate.engine.belief.model, Some(crate::belief::OpponentModel::fitted_8000()));
        assert!(candidate.engine.search.observer_trees);
    }

    /// The key lists in the README and docs/protocol.md name every `[search]` and `[belief]` key that
    /// configs/default.toml sets (the lists went stale before).
    #[test]
    fn the_docs_list_every_search_and_belief_key() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
        let defaults = read("configs/default.toml");
        let docs = [("README.md", read("README.md")), ("docs/protocol.md", read("docs/protocol.md"))];
        let mut section = String::new();
        for line in defaults.lines().map(str::trim) {
            if line.starts_with('#') {
                continue;
            }
            if line.starts_with('[') {
                section = line.to_string();
            } else if let Some((key, _)) = line.split_once(" = ") {
                if section == "[search]" || section == "[belief]" {
                    for (doc, text) in &docs {
                        assert!(text.contains(key.trim()), "{doc} does not name {section} key {key}");
                    }
                }
            }
        }
    }

    #[test]
    fn default_toml_sets_every_key_to_the_default() {
        let file = shipped("default.toml");
        let engine = &file.engine;
        assert!(engine.player.is_some() && engine.threads.is_some() && engine.playouts.is_some());
        assert!(engine.move_time.is_some() && engine.particles.is_some() && engine.seed.is_some());
        assert!(engine.resign_below.is_some() && engine.ponder_playouts.is_some());
        assert!(file.time.safety_margin_ms.is_some() && file.log.file.is_some());
        let search = &file.search;
        assert!(search.exploration.is_some() && search.info_gain.is_some() && search.alpha_start.is_some());
        assert!(search.exploration_below.is_some());
        assert!(search.alpha_end.is_some() && search.alpha_decay_moves.is_some() && search.capture_bonus.is_some());
        assert!(search.probe_min_uncertainty.is_some() && search.expand_after.is_some());
        assert!(search.probe_min_mean_uncertainty.is_some());
        assert!(search.convergence_ratio.is_some() && search.near_own.is_some());
        assert!(search.rave_equivalence.is_some() && search.first_play_urgency.is_some());
        assert!(search.root_rave_equivalence.is_some() && search.tie_jitter.is_some());
        assert!(search.widening.is_some() && search.widening_power.is_some() && search.opponent_mix.is_some());
        assert!(search.refusal_cost.is_some() && search.invader_share.is_some() && search.cleanup_share.is_some());
        assert!(search.playout_capture.is_some() && search.playout_escape.is_some());
        assert!(search.playout_self_atari.is_some() && search.invader_margin.is_some());
        assert!(search.playout_mercy.is_some() && search.playout_moves_per_point.is_some());
        assert!(
            search.reuse_decay.is_some()
                && search.reply_prior.is_some()
                && search.carry_consistent.is_some()
                && search.observer_trees.is_some()
                && search.last_good_reply.is_some()
        );
        assert!(search.invader_share_retry.is_some());
        let belief = &file.belief;
        assert!(belief.resample_below.is_some() && belief.locality.is_some() && belief.contact.is_some());
        assert!(belief.resampling.is_some() && belief.pattern_model.is_some() && belief.refusal_repair.is_some());
        let game = &file.game;
        assert!(game.protocol.is_some() && game.name.is_some() && game.main_time.is_some());
        assert!(game.komi.is_some() && game.rules.is_some());
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings, Settings::default());
    }

    #[test]
    fn game_settings_for_the_dialect() {
        let file = shipped("ccgc.toml");
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.game.protocol, Protocol::Ccgc);
        assert_eq!(settings.game.main_time, Some(Duration::from_secs(570)));
        assert_eq!(settings.clone().for_protocol(Protocol::Gtp).engine.search.tie, TieRule::White);
        let plain = Settings::default();
        assert_eq!(plain.clone().for_protocol(Protocol::Gtp).engine.search.tie, TieRule::Draw);
        assert_eq!(plain.for_protocol(Protocol::Ccgc).engine.search.tie, TieRule::White);
        for bad in ["game.tie_goes_to=black", "game.rules=never", "game.main_time=-1", "game.name=two words"] {
            let file = FileConfig::load_with(None, &[bad.to_string()]).unwrap();
            let error = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
            let key = bad.split('=').next().unwrap();
            assert!(error.contains(key), "{bad}: {error}");
        }
    }

    #[test]
    fn unknown_keys_are_refused_by_name() {
        let error = parse("[engine]\nthreds = 2\n").unwrap_err().to_string();
        assert!(error.contains("threds"), "{error}");
        let error = parse("[serch]\n").unwrap_err().to_string();
        assert!(error.contains("serch"), "{error}");
    }

    #[test]
    fn wrong_types_are_refused_with_the_key() {
        let error = parse("[engine]\nthreads = \"two\"\n").unwrap_err().to_string();
        assert!(error.contains("threads"), "{error}");
    }

    #[test]
    fn bad_values_name_the_key() {
        let cases = [
            ("[engine]\nparticles = 0\n", "engine.particles"),
            ("[engine]\nmove_time = -1.0\n", "engine.move_time"),
            ("[engine]\nmove_time = nan\n", "engine.move_time"),
            ("[engine]\nresign_below = 2.0\n", "engine.resign_below"),
            ("[engine]\nplayer = \"genius\"\n", "engine.player"),
            ("[engine]\nthreads = 100000\n", "engine.threads"),
            ("[time]\nsafety_margin_ms = 999999\n", "time.safety_margin_ms"),
            ("[search]\nplayout_mercy = 1.5\n", "search.playout_mercy"),
            ("[search]\nplayout_moves_per_point = 0\n", "search.playout_moves_per_point"),
            ("[search]\nplayout_moves_per_point = 11\n", "search.playout_moves_per_point"),
        ];
        for (text, key) in cases {
            let file = parse(text).unwrap();
            let error = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
            assert!(error.contains(key), "{text}: {error}");
        }
    }

    #[test]
    fn command_line_overrides_the_file() {
        let file =
            parse("[engine]\nthreads = 4\nplayouts = 100\nseed = 3\nplayer = \"mcts\"\n[log]\nfile = \"a.jsonl\"\n")
                .unwrap();
        let options = EngineOptions {
            threads: Some(1),
            seed: Some(9),
            move_time: Some(0.5),
            log_file: Some(PathBuf::from("b.jsonl")),
            ..EngineOptions::default()
        };
        let settings = Settings::from_layers(&file, &options, Some("random")).unwrap();
        assert_eq!(settings.engine.threads, 1);
        assert_eq!(settings.engine.playouts, Some(100));
        assert_eq!(settings.engine.seed, 9);
        assert_eq!(settings.engine.player, PlayerKind::Random);
        assert_eq!(settings.engine.move_time, Some(Duration::from_millis(500)));
        assert_eq!(settings.log_file, Some(PathBuf::from("b.jsonl")));
        let manager = settings.time_manager();
        assert_eq!(manager.playouts, Some(100));
        let error =
            Settings::from_layers(&file, &EngineOptions { particles: Some(0), ..EngineOptions::default() }, None)
                .unwrap_err()
                .to_string();
        assert!(error.contains("--particles"), "{error}");
    }

    #[test]
    fn pondering_is_off_unless_given_its_simulations() {
        let settings = Settings::from_layers(&parse("").unwrap(), &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.ponder_playouts, 0);
        let file = parse("[engine]\nponder_playouts = 50000\n").unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.ponder_playouts, 50_000);
        let options = EngineOptions { set: vec!["engine.ponder_playouts=7".into()], ..EngineOptions::default() };
        assert_eq!(Settings::resolve(&options, None).unwrap().engine.ponder_playouts, 7);
    }

    #[test]
    fn zero_switches_optional_knobs_off() {
        let file = parse("[engine]\nplayouts = 0\nmove_time = 0.0\nresign_below = 0.0\n").unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.playouts, None);
        assert_eq!(settings.engine.move_time, None);
        assert_eq!(settings.engine.resign_below, None);
    }

    #[test]
    fn missing_file_is_a_read_error() {
        let options =
            EngineOptions { config: Some(PathBuf::from("/nonexistent/phantomgo.toml")), ..EngineOptions::default() };
        assert!(matches!(Settings::resolve(&options, None), Err(ConfigError::Read { .. })));
    }

    #[test]
    fn set_overrides_keys_and_names_bad_ones() {
        let sets = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let file =
            FileConfig::load_with(None, &sets(&["search.info_gain=false", "search.alpha_decay_moves=0"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert!(!settings.engine.search.info_gain);
        assert_eq!(settings.engine.search.alpha_decay_moves, 0);
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join("default.toml");
        let file =
            FileConfig::load_with(Some(&path), &sets(&["engine.particles=32", "belief.resample_below=0.5"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.particles, 32);
        assert!((settings.engine.belief.resample_below - 0.5).abs() < 1e-6);
        let unknown = FileConfig::load_with(None, &sets(&["search.nonsense=1"])).unwrap_err().to_string();
        assert!(unknown.contains("nonsense"), "{unknown}");
        let malformed = FileConfig::load_with(None, &sets(&["particles"])).unwrap_err().to_string();
        assert!(malformed.contains("--set"), "{malformed}");
        let file = FileConfig::load_with(None, &sets(&["search.exploration=-1"])).unwrap();
        let out_of_range = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(out_of_range.contains("search.exploration"), "{out_of_range}");
        let file = FileConfig::load_with(None, &sets(&["search.exploration_below=0"])).unwrap();
        let out_of_range = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(out_of_range.contains("search.exploration_below"), "{out_of_range}");
        let file = FileConfig::load_with(None, &sets(&["search.exploration_below=0.3"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert!((settings.engine.search.exploration_below - 0.3).abs() < 1e-6);
        let file = FileConfig::load_with(None, &sets(&["search.root_rave_equivalence=1000"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert!((settings.engine.search.root_rave_equivalence - 1000.0).abs() < 1e-3);
        assert!((settings.engine.search.rave_equivalence - 4000.0).abs() < 1e-3);
        let file = FileConfig::load_with(None, &sets(&["search.tie_jitter=0.5"])).unwrap();
        let out_of_range = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(out_of_range.contains("search.tie_jitter"), "{out_of_range}");
        let file = FileConfig::load_with(None, &sets(&["search.tie_jitter=0.0001"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert!((settings.engine.search.tie_jitter - 0.0001).abs() < 1e-9);
        let file = FileConfig::load_with(None, &sets(&["search.opponent_mix=1.5"])).unwrap();
        let out_of_range = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(out_of_range.contains("search.opponent_mix"), "{out_of_range}");
        let file = FileConfig::load_with(None, &sets(&["search.opponent_mix=0.2"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert!((settings.engine.search.opponent_mix - 0.2).abs() < 1e-6);
        assert_eq!(Settings::default().engine.search.opponent_mix, 0.0, "off by default");
        let file = FileConfig::load_with(None, &sets(&["belief.refusal_repair=away"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.refusal_repair, crate::belief::RefusalRepair::Away);
        let file = FileConfig::load_with(None, &sets(&["belief.refusal_repair=far"])).unwrap();
        let wrong = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(wrong.contains("belief.refusal_repair"), "{wrong}");
        let file = FileConfig::load_with(None, &sets(&["belief.resampling=fresh"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.resampling, crate::belief::Resampling::Fresh);
        let file = FileConfig::load_with(None, &sets(&["belief.resampling=sometimes"])).unwrap();
        assert!(Settings::from_layers(&file, &EngineOptions::default(), None).is_err());
        let file = FileConfig::load_with(None, &sets(&["belief.locality=2"])).unwrap();
        let out_of_range = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(out_of_range.contains("belief.locality"), "{out_of_range}");
    }

    #[test]
    fn the_opponent_model_is_chosen_by_name_or_file() {
        let sets = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let settings = Settings::from_layers(&FileConfig::default(), &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.model, Some(crate::belief::OpponentModel::fitted()));
        let file = FileConfig::load_with(None, &sets(&["belief.opponent_model=hand"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.model, None);
        let file = FileConfig::load_with(None, &sets(&["belief.opponent_model=fitted-8000"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.model, Some(crate::belief::OpponentModel::fitted_8000()));
        assert_ne!(settings.engine.belief.model, Some(crate::belief::OpponentModel::fitted()));
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join("opponent_model.toml");
        let set = format!("belief.opponent_model={}", path.display());
        let file = FileConfig::load_with(None, &sets(&[set.as_str()])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.model, Some(crate::belief::OpponentModel::fitted()));
        let file = FileConfig::load_with(None, &sets(&["belief.opponent_model=/no/such/model.toml"])).unwrap();
        let missing = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
        assert!(missing.contains("belief.opponent_model"), "{missing}");
    }

    #[test]
    fn the_pattern_model_is_off_or_read_from_a_file() {
        let sets = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let settings = Settings::from_layers(&FileConfig::default(), &EngineOptions::default(), None).unwrap();
        assert!(settings.engine.belief.pattern.is_none());
        let dir = std::env::temp_dir().join(format!("phantomgo-pattern-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "# a model\n..o..... 4 3.5\n").unwrap();
        let set = format!("belief.pattern_model={}", good.display());
        let file = FileConfig::load_with(None, &sets(&[set.as_str()])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert_eq!(settings.engine.belief.pattern.as_ref().map(|m| m.len()), Some(1));
        let file = FileConfig::load_with(None, &sets(&[set.as_str(), "belief.pattern_model=none"])).unwrap();
        let settings = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap();
        assert!(settings.engine.belief.pattern.is_none());
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "..o..... 9 3.5\n").unwrap();
        for path in [bad.display().to_string(), "/no/such/patterns.txt".to_string()] {
            let set = format!("belief.pattern_model={path}");
            let file = FileConfig::load_with(None, &sets(&[set.as_str()])).unwrap();
            let error = Settings::from_layers(&file, &EngineOptions::default(), None).unwrap_err().to_string();
            assert!(error.contains("belief.pattern_model"), "{error}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
