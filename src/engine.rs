//! The facade the protocol talks to: what the engine knows of the game, its tries, and how it chooses them.

use crate::belief::{Belief, BeliefConfig};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::{Move, Point};
use crate::scoring::GameResult;
use crate::search::flat::Flat;
use crate::search::pimc::Pimc;
use crate::search::player::{Player, PlayerInput};
/// Re-exported from `search`, which owns it.
pub use crate::search::SearchLimits;
use crate::search::{safe_move, SearchConfig, SearchInput};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;

mod choose;
mod knowledge;
pub mod ponder;
mod reports;

use knowledge::{amend_captures, inferred_opponent, seen_by, Knowledge, PendingTry};
use std::time::Duration;

/// Which move chooser the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayerKind {
    /// Belief + determinized UCT with RAVE, priced for the illegal-try rule ([`crate::search::uct`]).
    #[default]
    Mcts,
    /// Belief + the earlier information-set MCTS with the information-gain bonus ([`crate::search::ismcts`]).
    Ismcts,
    /// A uniformly random try among points that are not known to be occupied or own eyes (the weakest baseline).
    Random,
    /// Golois-style one-ply Monte Carlo ([`crate::search::flat`]).
    Flat,
    /// InTheDark-style determinized UCT on belief samples ([`crate::search::pimc`]).
    Pimc,
}

impl PlayerKind {
    /// True for the players that keep a particle belief.
    fn uses_belief(self) -> bool {
        matches!(self, PlayerKind::Mcts | PlayerKind::Ismcts | PlayerKind::Pimc)
    }
}

/// Belief particles when no config or option sets them: 1024 won 61 of 100 self-play games against 128 at 4000
/// playouts (512: 60 of 100), for about 5 ms of belief work and 3 ms of search set-up a 9x9 genmove
/// (docs/strength.md).
pub const DEFAULT_PARTICLES: usize = 1024;

/// Engine settings (from configs and the command line).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Move chooser.
    pub player: PlayerKind,
    /// Search threads.
    pub threads: usize,
    /// Fixed playouts per move (overrides time when set).
    pub playouts: Option<u64>,
    /// Fixed time per move (used when the clock gives no budget).
    pub move_time: Option<Duration>,
    /// Belief particles.
    pub particles: usize,
    /// Random seed: fixed seed + fixed playouts + one thread = the same moves every run.
    pub seed: u64,
    /// Resign when the estimated win rate falls below this; `None` = never resign.
    pub resign_below: Option<f32>,
    /// Simulations a ponder may run on the opponent's time (the main search, ahead of our turn, for the report
    /// we expect; see [`ponder`]); 0 = no pondering. Pondering makes the moves depend on timing.
    pub ponder_playouts: u64,
    /// Search settings.
    pub search: SearchConfig,
    /// Belief settings (its particle count is `particles`).
    pub belief: BeliefConfig,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            player: PlayerKind::Mcts,
            threads: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            playouts: None,
            move_time: None,
            particles: DEFAULT_PARTICLES,
            seed: 0,
            resign_below: None,
            ponder_playouts: 0,
            search: SearchConfig::default(),
            belief: BeliefConfig::default(),
        }
    }
}

/// The engine's answer to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A try (or a pass).
    Move(Move),
    /// Give up.
    Resign,
}

/// Errors the protocol turns into `?` replies; the engine state stays usable after each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Board size outside 2..=11.
    UnacceptableSize,
    /// Komi not a finite number of sensible size.
    BadKomi,
    /// The move breaks the rules of the board the engine knows.
    IllegalMove,
    /// `phantom-result` with no try pending.
    NoPendingTry,
    /// A report that contradicts what the engine knows (a capture of a stone it does not have, ...).
    Inconsistent(String),
    /// A report that names a point that cannot be what it says (each protocol names the point its own way).
    InconsistentAt {
        /// The point named.
        point: Point,
        /// Board size, to name the point in GTP.
        size: usize,
        /// What is wrong with it ("holds our stone").
        why: &'static str,
    },
    /// Nothing to undo.
    CannotUndo,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnacceptableSize => f.write_str("unacceptable size"),
            EngineError::BadKomi => f.write_str("komi must be a finite number between -1000 and 1000"),
            EngineError::IllegalMove => f.write_str("illegal move"),
            EngineError::NoPendingTry => f.write_str("no try is pending a result"),
            EngineError::Inconsistent(why) => write!(f, "inconsistent report: {why}"),
            EngineError::InconsistentAt { point, size, why } => {
                write!(f, "inconsistent report: {} {why}", point.to_vertex(*size))
            }
            EngineError::CannotUndo => f.write_str("cannot undo"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What the last genmove did, for logs and analysis.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveStats {
    /// The try chosen (GTP vertex, `pass` or `resign`).
    pub vertex: String,
    /// Simulations (playouts) run.
    pub simulations: u64,
    /// Time spent thinking.
    pub time_used: Duration,
    /// The soft budget it was given, if any.
    pub budget: Option<Duration>,
    /// Estimated win rate of the chosen try (0..1); 0.5 when unknown.
    pub win_rate: f32,
    /// Sum of per-point binary entropies of the belief, in bits.
    pub belief_entropy: f32,
    /// Particles that agreed with the last observation before any resampling.
    pub survivors: usize,
    /// Mean number of the opponent's chains over the particles ([`crate::belief::Belief::opponent_shape`]).
    pub opponent_chains: f32,
    /// Mean number of the opponent's stones in chains with at most two liberties over the particles.
    pub opponent_weak: f32,
    /// Resamplings so far this game.
    pub resamplings: u64,
    /// Move number (turns played before this one).
    pub move_number: u32,
    /// Share p of particles with an opponent stone at the chosen point (0 for a pass).
    pub opponent_probability: f32,
    /// p * (1 - p) at the chosen point (0 = a settled point).
    pub uncertainty: f32,
    /// Root visits the search started from, pondered on the opponent's time (0 without a ponder that served).
    pub pondered: u64,
}

/// The Phantom Go engine.
pub struct Engine {
    config: EngineConfig,
    komi: f32,
    illegal_rule: IllegalRule,
    /// `phantom-rules repetition=...` and `max-tries=N` as last told (handed to the search).
    optional_rules: (crate::game::Repetition, Option<u32>),
    knowledge: Knowledge,
    pending: Option<PendingTry>,
    history: Vec<Knowledge>,
    rng: Xoshiro256PlusPlus,
    last_stats: MoveStats,
    /// The belief of the MCTS player, and how many events it has taken in.
    belief: Option<(Belief, usize)>,
    /// The main search's trees, kept for the next try of a turn after a refusal.
    trees: crate::search::uct::KeptTrees,
    /// Root visits a ponder left in `trees` for the coming genmove (reported in its stats, then 0).
    pondered: u64,
}

impl Engine {
    /// A new engine on an empty 9x9 board, komi 7.5, `retry` rules.
    pub fn new(config: EngineConfig) -> Engine {
        let rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
        Engine {
            config,
            komi: 7.5,
            illegal_rule: IllegalRule::Retry,
            optional_rules: (crate::game::Repetition::Allowed, None),
            knowledge: Knowledge::new(9),
            pending: None,
            history: Vec::new(),
            rng,
            last_stats: MoveStats::default(),
            belief: None,
            trees: crate::search::uct::KeptTrees::default(),
            pondered: 0,
        }
    }

    /// The settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The colour to move on the known board.
    pub fn to_move(&self) -> Color {
        self.knowledge.to_move
    }

    /// Board size.
    pub fn size(&self) -> usize {
        self.knowledge.board.size()
    }

    /// Komi.
    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// The illegal-try rule in force.
    pub fn illegal_rule(&self) -> IllegalRule {
        self.illegal_rule
    }

    /// The board the engine knows: own stones and opponent stones it has seen.
    pub fn known_board(&self) -> &Board {
        &self.knowledge.board
    }

    /// The colour the engine plays in a phantom game, once known.
    pub fn our_color(&self) -> Option<Color> {
        self.knowledge.us
    }

    /// Moves (turns) played so far.
    pub fn move_number(&self) -> u32 {
        self.knowledge.move_number
    }

    /// The belief, once the engine knows its colour (MCTS player only).
    pub fn belief(&self) -> Option<&Belief> {
        self.belief.as_ref().map(|(b, _)| b)
    }

    /// Changes the board size and clears the board.
    ///
    /// # Errors
    /// [`EngineError::UnacceptableSize`] outside 2..=11; the engine is unchanged then.
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        if Board::new(size).is_none() {
            return Err(EngineError::UnacceptableSize);
        }
        self.knowledge = Knowledge::new(size);
        self.reset_game();
        Ok(())
    }

    /// Empties the board and forgets the game.
    pub fn clear_board(&mut self) {
        self.knowledge = Knowledge::new(self.size());
        self.reset_game();
    }

    fn reset_game(&mut self) {
        self.pending = None;
        self.history.clear();
        self.belief = None;
        self.trees.clear();
        self.rng = Xoshiro256PlusPlus::seed_from_u64(self.config.seed);
    }

    /// Sets komi.
    ///
    /// # Errors
    /// [`EngineError::BadKomi`] for NaN, infinities or absurd values.
    pub fn set_komi(&mut self, komi: f32) -> Result<(), EngineError> {
        if !komi.is_finite() || komi.abs() > 1000.0 {
            return Err(EngineError::BadKomi);
        }
        self.komi = komi;
        Ok(())
    }

    /// Records the optional rules the referee announced: repetition, and the cap on tries (`None`: no cap).
    /// A change to or from `superko` rebuilds the belief, which reads illegal tries differently under it.
    pub fn set_optional_rules(&mut self, repetition: crate::game::Repetition, max_tries: Option<u32>) {
        let superko = |rule| rule == crate::game::Repetition::Superko;
        let reread = superko(repetition) != superko(self.optional_rules.0);
        self.optional_rules = (repetition, max_tries);
        if reread {
            self.belief = None;
            self.sync_belief();
        }
    }

    /// The optional rules last announced: repetition rule and cap on tries.
    pub fn optional_rules(&self) -> (crate::game::Repetition, Option<u32>) {
        self.optional_rules
    }

    /// Tries made so far in this game as the referee counts them for `max-tries`: every legal and illegal try
    /// and every pass of both players, one per announcement the engine holds (our tries and their results, the
    /// opponent's `phantom-opponent` reports, full-information `play`s); a try awaiting its result counts once
    /// it is settled.
    ///
    /// What the engine cannot know: under a referee that does not announce the opponent's illegal tries
    /// (`protocol.md`: "a referee that announces no illegal tries simply sends none"), or a front end that
    /// does not pass them on, those tries are missing and the count is low (tries left too high). A referee's
    /// forced pass after a capped run of illegal tries by the opponent reaches us as an illegal try plus a pass
    /// but counts once, so each one makes the count one too high. `undo` takes back what it takes back.
    pub fn tries_made(&self) -> u32 {
        u32::try_from(self.knowledge.events.len()).unwrap_or(u32::MAX)
    }

    /// Tries left before the referee's announced cap (`max-tries` minus [`Engine::tries_made`], at least 0);
    /// `None` when no cap was announced.
    pub fn tries_left(&self) -> Option<u32> {
        self.optional_rules.1.map(|cap| cap.saturating_sub(self.tries_made()))
    }

    /// Sets what an illegal try costs.
    pub fn set_illegal_rule(&mut self, rule: IllegalRule) {
        if rule != self.illegal_rule {
            self.illegal_rule = rule;
            self.belief = None;
            self.sync_belief();
        }
    }

    /// A pending try with no `phantom-result` stands as legal with the captures the known board shows
    /// (plain GTP behaviour).
    fn settle_pending(&mut self) {
        if let Some(pending) = self.pending.take() {
            let observation = Observation::OwnOk { point: pending.point, captured: pending.known_captures };
            self.knowledge.events.push((pending.color, observation));
            self.sync_belief();
        }
    }

    fn remember(&mut self) {
        self.history.push(self.knowledge.clone());
        if self.history.len() > 4096 {
            self.history.remove(0);
        }
    }

    /// Brings the belief up to date with the events (MCTS player, colour known); rebuilds it when the colour,
    /// the rules or the history changed under it.
    fn sync_belief(&mut self) {
        if !self.config.player.uses_belief() {
            return;
        }
        let Some(us) = self.knowledge.us else {
            self.belief = None;
            return;
        };
        let events = &self.knowledge.events;
        let stale = match &self.belief {
            Some((belief, applied)) => belief.us() != us || *applied > events.len(),
            None => true,
        };
        if stale {
            let mut config = self.config.belief.clone();
            config.particles = self.config.particles.max(1);
            let belief = Belief::new(self.size(), us, self.illegal_rule, &config, self.config.seed ^ 0xB5E1_1EF5)
                .with_repetition(self.optional_rules.0);
            self.belief = Some((belief, 0));
        }
        let Some((belief, applied)) = self.belief.as_mut() else {
            return;
        };
        for &(side, observation) in &events[*applied..] {
            match seen_by((side, observation), us) {
                Some(seen) => belief.observe(&seen),
                None if matches!(observation, Observation::OpponentMove { .. }) => {
                    log::warn!("an unseen move of our own colour cannot be followed; ignored");
                }
                None => {}
            }
        }
        *applied = events.len();
    }

    /// A stone of `color` is known to be at the vertex (full information): checked against the known board
    /// (occupied, suicide or ko refused) and its captures applied. A pass is recorded as that colour's pass.
    ///
    /// # Errors
    /// [`EngineError::IllegalMove`]; the engine is unchanged then.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), EngineError> {
        self.settle_pending();
        let mut next = self.knowledge.clone();
        match mv {
            Move::Pass => {
                next.board.pass();
                next.events.push((color, Observation::OwnPass));
            }
            Move::Play(point) => {
                let captured = next.board.try_play(color, point).map_err(|_| EngineError::IllegalMove)?;
                if Some(color) != next.us {
                    next.hidden_opponent_moves = next.hidden_opponent_moves.saturating_sub(captured.count());
                }
                next.events.push((color, Observation::OwnOk { point, captured }));
            }
        }
        next.end_turn(color);
        self.remember();
        self.knowledge = next;
        self.sync_belief();
        Ok(())
    }

    /// Area score of the board the engine knows.
    pub fn final_score(&self) -> GameResult {
        GameResult::of(&self.knowledge.board, self.komi)
    }

    /// Per point (index order), the estimated probability of an opponent stone: the belief's when there is one,
    /// else the unseen stones spread evenly over the points not known; seen opponent stones are 1.
    pub fn opponent_stone_probabilities(&self) -> Vec<f32> {
        let board = &self.knowledge.board;
        let geometry = board.geometry();
        let Some(us) = self.knowledge.us else {
            return vec![0.0; geometry.area()];
        };
        let seen = board.stones(us.opponent());
        if let Some((belief, _)) = &self.belief {
            let mut p = belief.probabilities();
            for point in seen.iter() {
                p[point.index()] = 1.0;
            }
            return p;
        }
        let unknown = board.empty() - self.knowledge.illegal_this_turn;
        let spread =
            if unknown.any() { self.knowledge.hidden_opponent_moves as f32 / unknown.count() as f32 } else { 0.0 };
        geometry
            .points()
            .map(|p| {
                if seen.contains(p) {
                    1.0
                } else if unknown.contains(p) {
                    spread.min(1.0)
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Statistics of the last genmove.
    pub fn last_move_stats(&self) -> &MoveStats {
        &self.last_stats
    }
}

#[cfg(test)]
mod rules_tests;

#[cfg(test)]
mod tests;
