//! The belief: particles (full hypotheses of the hidden board) kept consistent with everything the referee announced.
//!
//! A particle is an assignment of a point to every hidden opponent stone-move (one slot per announced legal
//! opponent move, plus the base stones after a rebase), stored as one byte per slot. Its board is what
//! replaying the whole observation history with those points gives, and a particle is kept only when that
//! replay reproduces every announcement: our ok tries legal with exactly the reported captures, our illegal
//! tries illegal for any reason (a hidden stone, suicide or ko), every opponent move legal and capturing exactly
//! the reported stones of ours, an opponent's illegal try possible (some stone or ko on the board). The rules
//! are the board's: captures before suicide, simple ko; an illegal try costs nothing under `retry` and ends the
//! turn (clearing ko) under `lose-turn`. Under a referee's `repetition=superko` ([`Belief::with_repetition`]) an
//! illegal try of ours at a point a particle finds empty and legal keeps that particle when the stone would
//! recreate one of the particle's own earlier whole-board positions (after a rebase, whose earlier positions are
//! unknown: whenever a capture has been announced, since a position can only recur after stones were removed and
//! every capture is announced to both players); an opponent's illegal try is then always possible once a capture
//! was announced. The opponent's hidden moves are not checked against superko. Without superko nothing changes.
//!
//! New observations are applied incrementally to each particle's cached board (one `try_play`, or one draw
//! from the opponent model for a hidden move); particles that disagree die. Each dead particle is repaired
//! from its own slots: a hill climb that re-places stones placed before the first announcement the replay
//! fails on, aimed at that announcement (a stone onto an illegal point or around it, the captured group exactly,
//! the capturing point cleared and the other liberties filled), kept when the replay gets at least as far.
//! Survivors' children (1-3 stones moved nearby or re-drawn) fill the rest; with fewer than
//! [`BeliefConfig::resample_below`] surviving, the budgets grow. Every opponent move is announced, so the
//! opponent's stone count is exact and no mutation adds or removes a stone. Work is bounded everywhere; a
//! history no particle can be found for is logged, counted, and rebased on what is still certain (our stones and
//! the opponent's stone count).
//!
//! Layout: [`facts`] (the announcements as stored, and what they prove alone: our stones, the opponent's count,
//! blocked tries), [`model`] (drawing hidden stones from the opponent model), [`opponent`] (the model's pools and
//! fitted weights), [`storage`] (slot rows per particle),
//! [`replay`] (replaying the history with a row: validation), [`repair`] (aimed repairs and mutations of rows),
//! [`update`] (one announcement applied to every particle) and [`rebuild`] (replacing the dead: repairs,
//! children, particles from scratch, rebase).

mod facts;
mod model;
pub mod opponent;
pub mod pattern;
mod rebuild;
mod repair;
mod replay;
mod storage;
mod update;

pub use facts::RETRY_LEGAL_SHARE;

use crate::bitboard::{Bitboard, Geometry};
use crate::board::Board;
use crate::color::Color;
use crate::game::Repetition;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::Point;
use facts::{AmbiguousTry, BlockedTries, Event};
pub use opponent::OpponentModel;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rebuild::Population;
use storage::UNASSIGNED;

/// How particles that died are replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resampling {
    /// Aimed repairs of the dead and mutated children of the survivors (the default).
    #[default]
    Mutation,
    /// Fresh random particles: every hidden stone drawn anew from the opponent model and checked against the
    /// whole history (the baseline of the ablation; repairs still rescue a population that dies out).
    Fresh,
}

/// Which opponent stone an aimed repair moves onto a point where our try was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RefusalRepair {
    /// On a fair coin a stone within two points of the refused point (a slightly misplaced stone), else the later
    /// of two random ones (the default).
    #[default]
    Near,
    /// A stone more than two points away when there is one: a stone near a refused point is as likely part of the
    /// same wall as misplaced, and moving it opens the gap the next try looks for.
    Away,
}

/// Settings of the belief.
#[derive(Clone, Debug, PartialEq)]
pub struct BeliefConfig {
    /// Number of particles (at least 1). The default here (128) is the library's and the tests'; the engine
    /// sets it from `engine.particles` ([`crate::engine::DEFAULT_PARTICLES`] unless a config or option says).
    pub particles: usize,
    /// Resample (mutate survivors) when fewer than this fraction of the particles survive an observation.
    pub resample_below: f32,
    /// Mutated children tried in one resampling, as a multiple of `particles`.
    pub max_resample_attempts: usize,
    /// Repair steps (one replay each) spent on the dead particles when nothing else agrees, before building
    /// particles from scratch.
    pub max_repair_steps: usize,
    /// Replays spent building particles from scratch when nothing survives and no repair helps.
    pub max_fresh_attempts: usize,
    /// Hand-set opponent model (when `model` is `None`): probability of a stone within distance 2 of the
    /// opponent's other stones; also how base stones are placed after a rebase, whatever the model.
    pub locality: f32,
    /// Hand-set opponent model: probability of a stone next to one of our stones.
    pub contact: f32,
    /// Hand-set opponent model: probability that an otherwise uniform pick avoids the first line.
    pub edge_avoidance: f32,
    /// When rebuilding, probability of aiming a stone at a point a later observation needs occupied.
    pub lookahead_bias: f32,
    /// How dead particles are replaced.
    pub resampling: Resampling,
    /// Which stone a repair aimed at a refused try moves onto the refused point.
    pub refusal_repair: RefusalRepair,
    /// The opponent model's pool weights; `None` = the hand-set model of `locality`, `contact` and
    /// `edge_avoidance` ([`OpponentModel::hand`]). Default: the fitted model of configs/opponent_model.toml.
    pub model: Option<OpponentModel>,
    /// The pattern model of hidden moves (`belief.pattern_model`); when set it replaces the pool mixture of
    /// `model` for the opponent's hidden moves ([`pattern::PatternModel`]). Default: none.
    pub pattern: Option<std::sync::Arc<pattern::PatternModel>>,
}

impl Default for BeliefConfig {
    fn default() -> Self {
        BeliefConfig {
            particles: 128,
            resample_below: 0.25,
            max_resample_attempts: 8,
            max_repair_steps: 4096,
            max_fresh_attempts: 1024,
            locality: 0.3,
            contact: 0.15,
            edge_avoidance: 0.3,
            lookahead_bias: 0.7,
            resampling: Resampling::Mutation,
            refusal_repair: RefusalRepair::Near,
            model: Some(OpponentModel::fitted()),
            pattern: None,
        }
    }
}

/// Counters of the belief's work.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BeliefStats {
    /// Particles that agreed with the last observation, before any resampling.
    pub survivors_last: usize,
    /// Resamplings (mutations of survivors) so far.
    pub resamplings: u64,
    /// Particles built from scratch because no survivor could be mutated into agreement.
    pub fresh_particles: u64,
    /// Histories found contradictory (no particle could explain them); each led to a rebase.
    pub contradictions: u64,
}

/// The engine's picture of the hidden board: the observation history and particles that agree with all of it.
#[derive(Clone, Debug)]
pub struct Belief {
    geometry: &'static Geometry,
    us: Color,
    illegal_rule: IllegalRule,
    /// The referee's repetition rule (only `superko` changes what an illegal try can mean).
    repetition: Repetition,
    /// Index in `history` of the first announcement with a capture, if any.
    first_capture: Option<usize>,
    /// A capture was announced before the base of the history (a rebase forgot it).
    captured_before_base: bool,
    /// The history was rebased: the positions before its base are not known.
    rebased: bool,
    config: BeliefConfig,
    /// The opponent model in use (the config's, or the hand model it stands for).
    model: OpponentModel,
    /// Our stones at the base of the history (empty unless rebased).
    base_own: Bitboard,
    /// Opponent stones at the base of the history (slots `0..base_opponent`).
    base_opponent: usize,
    history: Vec<Event>,
    /// Our stones now, from the announcements alone.
    own: Bitboard,
    /// Opponent stones on the board now, from the announcements alone.
    opponent_count: i64,
    /// Points proven empty now (captured by our last move, no opponent move since).
    known_empty: Bitboard,
    /// Our illegal tries that may still be blocked (see [`Belief::blocked`]).
    tries: BlockedTries,
    /// Slots (hidden opponent stone-moves) per particle.
    slots: usize,
    /// Row length of `moves` (capacity per particle).
    stride: usize,
    /// Current board of each particle.
    boards: Vec<Board>,
    /// Particle-major slot points: `moves[i * stride + k]`.
    moves: Vec<u8>,
    rng: Xoshiro256PlusPlus,
    stats: BeliefStats,
}

impl Belief {
    /// A belief on an empty board of `size` for the player `us`, with no history. An unsupported size
    /// falls back to 9x9 (logged).
    pub fn new(size: usize, us: Color, illegal_rule: IllegalRule, config: &BeliefConfig, seed: u64) -> Belief {
        let geometry = Geometry::of(size).unwrap_or_else(|| {
            log::warn!("belief: unsupported board size {size}, using 9x9");
            Geometry::of(9).expect("9x9 is supported")
        });
        let mut config = config.clone();
        config.particles = config.particles.max(1);
        let empty = Board::new(geometry.size()).expect("size from a geometry");
        let particles = config.particles;
        let stride = 32;
        let model = config
            .model
            .clone()
            .unwrap_or_else(|| OpponentModel::hand(config.locality, config.contact, config.edge_avoidance));
        Belief {
            geometry,
            us,
            illegal_rule,
            repetition: Repetition::Allowed,
            first_capture: None,
            captured_before_base: false,
            rebased: false,
            config,
            model,
            base_own: Bitboard::EMPTY,
            base_opponent: 0,
            history: Vec::new(),
            own: Bitboard::EMPTY,
            opponent_count: 0,
            known_empty: Bitboard::EMPTY,
            tries: BlockedTries::default(),
            slots: 0,
            stride,
            boards: vec![empty; particles],
            moves: vec![UNASSIGNED; particles * stride],
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            stats: BeliefStats::default(),
        }
    }

    /// The same belief under the referee's repetition rule (`phantom-rules repetition=...`); set it before
    /// any announcement: the particles already drawn are not revisited.
    pub fn with_repetition(mut self, repetition: Repetition) -> Belief {
        self.repetition = repetition;
        self
    }

    /// The whole-board positions particle `i` has gone through (after each stone, from the start of the game
    /// or of the last rebase), as Zobrist hashes ([`Board::hash`]); `None` if its replay fails.
    pub fn positions(&self, i: usize) -> Option<Vec<u64>> {
        let mut row = self.row(i).to_vec();
        let mut positions = Vec::new();
        self.replay_detailed(&mut row, None, None, false, Some(&mut positions)).ok()?;
        Some(positions)
    }

    /// The referee's repetition rule this belief reads announcements under.
    pub fn repetition(&self) -> Repetition {
        self.repetition
    }

    /// True when a refusal at announcement `e` may be a whole-board repetition as far as the announcements
    /// tell: the referee plays positional superko and a capture was announced before `e` (without one no
    /// position can recur). Each particle then checks its own positions ([`Belief::refused_as_repetition`]).
    pub(super) fn repetition_may_refuse(&self, e: usize) -> bool {
        self.repetition == Repetition::Superko
            && (self.captured_before_base || self.first_capture.is_some_and(|first| first < e))
    }

    /// The colour whose view this is.
    pub fn us(&self) -> Color {
        self.us
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// The illegal-try rule in force.
    pub fn illegal_rule(&self) -> IllegalRule {
        self.illegal_rule
    }

    /// The settings.
    pub fn config(&self) -> &BeliefConfig {
        &self.config
    }

    /// Our stones now, as the announcements tell.
    pub fn own_stones(&self) -> Bitboard {
        self.own
    }

    /// The number of opponent stones on the board now, exact from the announcements (every legal opponent move
    /// is announced and adds one stone; our reported captures remove them).
    pub fn opponent_stone_count(&self) -> usize {
        self.opponent_count.max(0) as usize
    }

    /// Points proven empty now: opponent stones we captured, while no opponent move has come since.
    pub fn known_empty(&self) -> Bitboard {
        self.known_empty
    }

    /// The number of particles.
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Always false: a belief holds at least one particle.
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// The particles' current boards (ko set, ready to play from).
    pub fn particles(&self) -> &[Board] {
        &self.boards
    }

    /// The shape of the opponent's stones across the particles: the mean number of its chains, and the mean
    /// number of its stones in chains with at most two liberties (a diagnostic for the move log: set beside the
    /// true board's, it shows whether the particles scatter the opponent's stones more than it plays them).
    pub fn opponent_shape(&self) -> (f32, f32) {
        let them = self.us.opponent();
        let geometry = self.geometry;
        let (mut chains, mut weak) = (0usize, 0usize);
        for board in &self.boards {
            for chain in geometry.components(board.stones(them)) {
                chains += 1;
                if (geometry.adjacent(chain) & board.empty()).count() <= 2 {
                    weak += chain.count() as usize;
                }
            }
        }
        let n = self.boards.len().max(1) as f32;
        (chains as f32 / n, weak as f32 / n)
    }

    /// The board of particle `i`.
    ///
    /// # Panics
    /// When `i >= len()`.
    pub fn particle(&self, i: usize) -> &Board {
        &self.boards[i]
    }

    /// A random determinization for search.
    pub fn sample(&self, rng: &mut impl Rng) -> &Board {
        &self.boards[rng.gen_range(0..self.boards.len())]
    }

    /// Counters of the work done.
    pub fn stats(&self) -> &BeliefStats {
        &self.stats
    }

    /// Announcements stored since the base (the whole game unless a contradiction forced a rebase).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Bytes held by the particles: their boards plus their slot rows (what 128 particles cost in memory).
    pub fn particle_bytes(&self) -> usize {
        self.boards.capacity() * std::mem::size_of::<Board>() + self.moves.capacity()
    }

    /// Per point index, the fraction of particles with an opponent stone there.
    pub fn probabilities(&self) -> Vec<f32> {
        let mut counts = vec![0u32; self.geometry.area()];
        let them = self.us.opponent();
        for board in &self.boards {
            for point in board.stones(them).iter() {
                counts[point.index()] += 1;
            }
        }
        let n = self.boards.len() as f32;
        counts.into_iter().map(|c| c as f32 / n).collect()
    }

    /// Binary entropy (bits) of "an opponent stone is at `point`"; 0 off the board.
    pub fn point_entropy(&self, point: Point) -> f32 {
        if !self.geometry.mask().contains(point) {
            return 0.0;
        }
        let them = self.us.opponent();
        let hits = self.boards.iter().filter(|b| b.stones(them).contains(point)).count();
        binary_entropy(hits as f32 / self.boards.len() as f32)
    }

    /// Sum of the per-point entropies, in bits.
    pub fn total_entropy(&self) -> f32 {
        self.probabilities().into_iter().map(binary_entropy).sum()
    }

    /// Mean number of opponent stones over the particles.
    pub fn expected_opponent_stones(&self) -> f32 {
        let them = self.us.opponent();
        let total: u32 = self.boards.iter().map(|b| b.stones(them).count()).sum();
        total as f32 / self.boards.len() as f32
    }

    /// Opponent stones present in every particle.
    pub fn known_opponent(&self) -> Bitboard {
        let them = self.us.opponent();
        self.boards.iter().fold(self.geometry.mask(), |acc, b| acc & b.stones(them))
    }

    /// Points where some particle has an opponent stone.
    pub fn possible_opponent(&self) -> Bitboard {
        let them = self.us.opponent();
        self.boards.iter().fold(Bitboard::EMPTY, |acc, b| acc | b.stones(them))
    }

    /// Points where a try of ours would be illegal again, which the search never tries:
    /// - opponent stones our illegal tries proved ([`BlockedTries`]) that no capture of ours took since;
    /// - points tried illegal where a stone or a suicide explains the try, not captured since: while no capture
    ///   emptied a point around them, only the suicide explanation can have turned legal, and only by a
    ///   neighbouring opponent group falling into atari, so they stay blocked unless at least
    ///   [`RETRY_LEGAL_SHARE`] of the particles find them legal now; after such a capture, unless some
    ///   particle finds them legal.
    pub fn blocked(&self) -> Bitboard {
        let still_blocked = |t: &AmbiguousTry| {
            let share = self.legal_share(t.point);
            if t.opened {
                share == 0.0
            } else {
                share < RETRY_LEGAL_SHARE
            }
        };
        let ambiguous: Bitboard = self.tries.ambiguous.iter().filter(|t| still_blocked(t)).map(|t| t.point).collect();
        self.tries.proven | ambiguous
    }

    /// The points [`Belief::blocked`] holds only by its share rule: tried illegal with no capture around them
    /// since, and found legal now (a capture: a neighbouring opponent group fell into atari) by some particles,
    /// though by fewer than [`RETRY_LEGAL_SHARE`]. Before a pass, under `retry`, the main search offers them again:
    /// a refused try costs only the try, while a pass leaves the group standing where area scoring counts it
    /// (self-play games 182 and 191 of seed 91: the one liberty of a group in atari inside our area had been
    /// refused as a suicide long before, and the engine passed with the group standing).
    pub fn retriable(&self) -> Bitboard {
        let by_share_alone = |t: &AmbiguousTry| {
            let share = self.legal_share(t.point);
            !t.opened && share > 0.0 && share < RETRY_LEGAL_SHARE
        };
        let points: Bitboard = self.tries.ambiguous.iter().filter(|t| by_share_alone(t)).map(|t| t.point).collect();
        points - self.tries.proven
    }

    /// The share of the particles where our try at `point` is legal.
    fn legal_share(&self, point: Point) -> f32 {
        let legal = self.boards.iter().filter(|b| b.legality(self.us, point).is_ok()).count();
        legal as f32 / self.boards.len() as f32
    }

    /// Opponent stones our illegal tries proved (suicide and ko excluded) that no capture of ours took since.
    pub fn proven_opponent(&self) -> Bitboard {
        self.tries.proven
    }

    /// True when replaying the whole stored history with particle `board_index`'s opponent moves reproduces
    /// every announcement and ends on exactly its current board (for tests).
    pub fn is_consistent_with_history(&self, board_index: usize) -> bool {
        if board_index >= self.boards.len() {
            return false;
        }
        let mut row = self.row(board_index).to_vec();
        match self.replay(&mut row, None, None) {
            Some(board) => board == self.boards[board_index],
            None => false,
        }
    }

    /// Takes in one announcement. Never panics; an observation no particle can explain is logged, counted in
    /// [`BeliefStats::contradictions`] and handled by rebasing the belief on what is still certain.
    pub fn observe(&mut self, observation: &Observation) {
        let mask = self.geometry.mask();
        let event = match *observation {
            Observation::OwnOk { point, captured } => {
                if !mask.contains(point) || (captured - mask).any() {
                    self.reject("our ok try off the board");
                    return;
                }
                Event::OwnOk { point, captured }
            }
            Observation::OwnIllegal { point } => {
                if !mask.contains(point) {
                    self.reject("our illegal try off the board");
                    return;
                }
                Event::OwnIllegal { point }
            }
            Observation::OwnPass => Event::OwnPass,
            Observation::OpponentIllegal => Event::OpponentIllegal,
            Observation::OpponentMove { captured } => {
                if (captured - mask).any() {
                    self.reject("opponent capture off the board");
                    return;
                }
                Event::OpponentHidden { captured }
            }
            Observation::OpponentPass => Event::OpponentPass,
            Observation::OpponentSeen { point, captured } => return self.observe_seen_opponent_move(point, captured),
        };
        self.push_event(event);
    }

    /// A full-information opponent move: a stone of the opponent's colour is known to be at `point`, and it
    /// captured `captured_ours`.
    pub fn observe_seen_opponent_move(&mut self, point: Point, captured_ours: Bitboard) {
        let mask = self.geometry.mask();
        if !mask.contains(point) || (captured_ours - mask).any() {
            self.reject("seen opponent move off the board");
            return;
        }
        self.push_event(Event::OpponentSeen { point, captured: captured_ours });
    }

    /// Replaces the whole population by mutated children of the current particles, each checked against the
    /// whole history (a rejuvenation; bounded work, copies fill any shortfall).
    pub fn resample(&mut self) {
        self.stats.resamplings += 1;
        let budget = self.config.max_resample_attempts.max(1) * self.boards.len();
        self.rebuild_population(Population {
            kept: &[],
            dead: &[],
            old_moves: &[],
            dead_tries: 0,
            dead_budget: 0,
            budget,
            replace_all: true,
        });
    }

    fn reject(&mut self, why: &str) {
        log::warn!("belief: ignored an impossible observation ({why})");
        self.stats.contradictions += 1;
    }
}

/// Binary entropy in bits of a probability.
fn binary_entropy(p: f32) -> f32 {
    if p <= 0.0 || p >= 1.0 {
        return 0.0;
    }
    -(p * p.log2() + (1.0 - p) * (1.0 - p).log2())
}

#[cfg(test)]
mod tests;
