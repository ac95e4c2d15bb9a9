//! The record of one match game: what `--results` writes as one JSON line and what `match-merge` reads back.

use crate::color::Color;
use serde::{Deserialize, Serialize};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Two passes in a row; the true board was area scored.
    TwoPasses,
    /// The length cap (tries) was reached; the true board was area scored.
    LengthCap,
    /// A move recreated an earlier whole-board position under `--repetition draw`: a draw.
    Repetition,
    /// A player answered `resign`.
    Resign,
    /// A reply took longer than the clock allowed.
    Time,
    /// An engine exited, could not start, or closed its pipes.
    Crash,
    /// An engine did not answer a command within the timeout.
    Hang,
    /// An engine answered something that is not GTP, an unparsable move, or refused a required command.
    Protocol,
}

impl EndReason {
    /// The name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::TwoPasses => "two_passes",
            EndReason::LengthCap => "length_cap",
            EndReason::Repetition => "repetition",
            EndReason::Resign => "resign",
            EndReason::Time => "time",
            EndReason::Crash => "crash",
            EndReason::Hang => "hang",
            EndReason::Protocol => "protocol",
        }
    }

    /// True for the faults of a broken engine (crash, hang, protocol).
    pub fn is_fault(self) -> bool {
        matches!(self, EndReason::Crash | EndReason::Hang | EndReason::Protocol)
    }
}

/// A pair of values for Black and White, as JSON `{"black": .., "white": ..}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

/// Reply times of one engine's genmoves in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    /// Genmove replies timed (every try, legal or not).
    pub replies: u32,
    /// Total seconds.
    pub total_s: f64,
    /// Mean seconds per reply.
    pub mean_s: f64,
    /// Longest reply, seconds.
    pub max_s: f64,
}

impl TimeStats {
    /// Adds one reply time.
    pub fn add(&mut self, seconds: f64) {
        self.replies += 1;
        self.total_s += seconds;
        self.max_s = self.max_s.max(seconds);
        self.mean_s = self.total_s / f64::from(self.replies);
    }
}

/// How well one engine's `phantom-belief` matched the truth over one game, beside two baselines.
///
/// Records written before the fair baseline had a field `baseline` (the uniform one) instead of `brier_fair` and
/// `brier_uniform`; they fail to parse, so merged files never mix the two figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrierScore {
    /// Beliefs scored (one after each of its turns).
    pub samples: u32,
    /// Mean Brier score per point of the engine's belief (lower is better).
    pub engine: f64,
    /// Mean Brier score per point of the fair baseline: p = 1 on opponent stones this player's illegal tries hit
    /// that still stand, the rest of the opponent's stone count spread evenly over the other points not its own.
    pub brier_fair: f64,
    /// Mean Brier score per point of the uniform baseline: the opponent's stone count spread evenly over every
    /// point not its own.
    pub brier_uniform: f64,
    /// The engine's reliability: its probabilities over all points and turns, in tenths of [0, 1] (a
    /// probability of exactly 1 in the last). Absent from records written before it.
    #[serde(default)]
    pub calibration: [CalibrationBin; 10],
}

/// One tenth of [0, 1] of an engine's stated probabilities: how many points were given a probability in it,
/// how many of those held an opponent stone, and the probabilities' sum (a calibrated belief has
/// `stones` near `p_sum`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CalibrationBin {
    /// Points (over all scored turns) given a probability in this tenth.
    pub points: u32,
    /// Of those, the points that held an opponent stone.
    pub stones: u32,
    /// Sum of the probabilities given.
    pub p_sum: f64,
}

/// Illegal tries by what they hit on the true board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalSplit {
    /// An opponent stone the player had not found before.
    pub found_new: u32,
    /// An opponent stone one of its earlier illegal tries had already hit, not captured since (a wasted try).
    pub hit_known: u32,
    /// An empty point: suicide, ko or repetition.
    pub suicide_ko: u32,
}

impl IllegalSplit {
    /// All three kinds.
    pub fn total(&self) -> u32 {
        self.found_new + self.hit_known + self.suicide_ko
    }
}

/// One player's illegal tries in one game, by kind, in all and per phase of its own turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalKinds {
    /// The whole game.
    pub total: IllegalSplit,
    /// By the player's own turn number (lost turns counted): turns 1-15, 16-30, 31 and later.
    pub by_phase: [IllegalSplit; 3],
}

/// A broken engine's fault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    /// The faulty engine's colour (`black` or `white` in JSON).
    pub color: Color,
    /// The engine's name.
    pub engine: String,
    /// `crash`, `hang`, `protocol` (or `time`, with no stderr tail needed but kept).
    pub kind: EndReason,
    /// What went wrong, in words.
    pub detail: String,
    /// The last few KiB the engine wrote to stderr.
    pub stderr_tail: String,
}

fn draw() -> String {
    crate::scoring::TieRule::Draw.name().to_string()
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game index in the whole match (0-based; shards keep the global index).
    pub game: u64,
    /// Name of the engine playing Black.
    pub black: String,
    /// Name of the engine playing White.
    pub white: String,
    /// The game's seed (derived from `--seed` and `game`).
    pub seed: u64,
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f32,
    /// `retry` or `lose-turn`.
    pub rules: String,
    /// Who wins a level game: `draw` or `white` (`--tie-goes-to`; records from before the option: draw).
    #[serde(default = "draw")]
    pub tie_goes_to: String,
    /// `B+3.5`, `W+R`, `B+T`, `W+F` (forfeit: the other engine broke), `0` (draw).
    pub result: String,
    /// `black`, `white`, or `None` for a draw.
    pub winner: Option<String>,
    /// Name of the winning engine, `None` for a draw.
    pub winner_engine: Option<String>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Black's area minus White's minus komi when the true board was scored.
    pub score: Option<f32>,
    /// Turns completed by a stone or a pass (illegal tries not counted).
    pub moves: u32,
    /// Illegal tries per colour.
    pub illegal_tries: PerColor<u32>,
    /// Illegal tries per colour by what they hit (`None` in records written before the split).
    #[serde(default)]
    pub illegal_kinds: Option<PerColor<IllegalKinds>>,
    /// Turns the per-turn cap on illegal tries turned into a pass, per colour.
    pub forced_passes: PerColor<u32>,
    /// Black stones left standing inside White's area on the final true board ([`crate::scoring::invaders`]:
    /// a small region bordered only by White stones); `None` in records written before the count.
    #[serde(default)]
    pub invaders_black: Option<u32>,
    /// White stones left standing inside Black's area on the final true board (as `invaders_black`).
    #[serde(default)]
    pub invaders_white: Option<u32>,
    /// Genmove reply times per colour.
    pub time: PerColor<TimeStats>,
    /// Belief scores per colour, for engines that answer `phantom-belief`.
    pub brier: PerColor<Option<BrierScore>>,
    /// Non-fatal oddities (a `?` to a report, a refused optional command).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The fault that ended the game, if any.
    pub fault: Option<Fault>,
    /// Wall-clock seconds for the whole game.
    pub duration_s: f64,
}
