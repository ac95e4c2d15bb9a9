//! The facade the protocol talks to: what the engine knows of the game, its tries, and how it chooses them.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::{Move, Point};
use crate::scoring::GameResult;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::time::Duration;

/// Which move chooser the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayerKind {
    /// Belief + information-gain MCTS.
    #[default]
    Mcts,
    /// A uniformly random try among points that are not known to be occupied or own eyes (the weakest baseline).
    Random,
}

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
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            player: PlayerKind::Mcts,
            threads: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            playouts: None,
            move_time: None,
            particles: 128,
            seed: 0,
            resign_below: None,
        }
    }
}

/// How long a genmove may think; built by the protocol loop's time manager.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchLimits {
    /// Aim to stop by this time.
    pub soft: Option<Duration>,
    /// Never think past this time.
    pub hard: Option<Duration>,
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Answer at once with a safe try (almost no time left).
    pub emergency: bool,
}

/// The engine's answer to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A try (or a pass).
    Move(Move),
    /// Give up.
    Resign,
}

/// What the opponent's turn revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpponentReport {
    /// A legal move somewhere unseen that captured these of our stones.
    Ok(Vec<Point>),
    /// An illegal try.
    Illegal,
    /// A pass.
    Pass,
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
    /// Nothing to undo.
    CannotUndo,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnacceptableSize => f.write_str("unacceptable size"),
            EngineError::BadKomi => f.write_str("komi must be a finite number"),
            EngineError::IllegalMove => f.write_str("illegal move"),
            EngineError::NoPendingTry => f.write_str("no try is pending a result"),
            EngineError::Inconsistent(why) => write!(f, "inconsistent report: {why}"),
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
    /// Resamplings so far this game.
    pub resamplings: u64,
    /// Move number (turns played before this one).
    pub move_number: u32,
}

/// A try answered by genmove that awaits `phantom-result`.
#[derive(Clone, Debug)]
struct PendingTry {
    color: Color,
    point: Point,
    before: Box<Knowledge>,
}

/// What the engine knows: its stones and the opponent stones it has seen, whose turn it is, and what it was told.
#[derive(Clone, Debug)]
struct Knowledge {
    /// Own stones plus opponent stones seen (played with `play` or known otherwise).
    board: Board,
    /// The colour whose hidden stones we track; set by the first genmove or phantom report.
    us: Option<Color>,
    to_move: Color,
    /// Opponent stones placed unseen and not known to be captured since.
    hidden_opponent_moves: u32,
    /// Points tried illegal during the current turn.
    illegal_this_turn: Bitboard,
    /// Everything we were told, in order (the belief replays this).
    observations: Vec<Observation>,
    /// Moves made so far (for time management and alpha decay).
    move_number: u32,
    consecutive_passes: u32,
}

impl Knowledge {
    fn new(size: usize) -> Knowledge {
        Knowledge {
            board: Board::new(size).expect("size checked by caller"),
            us: None,
            to_move: Color::Black,
            hidden_opponent_moves: 0,
            illegal_this_turn: Bitboard::EMPTY,
            observations: Vec::new(),
            move_number: 0,
            consecutive_passes: 0,
        }
    }

    fn end_turn(&mut self, mover: Color, passed: bool) {
        self.to_move = mover.opponent();
        self.illegal_this_turn = Bitboard::EMPTY;
        self.move_number += 1;
        if passed {
            self.consecutive_passes += 1;
        } else {
            self.consecutive_passes = 0;
        }
    }
}

/// The Phantom Go engine.
pub struct Engine {
    config: EngineConfig,
    komi: f32,
    illegal_rule: IllegalRule,
    knowledge: Knowledge,
    pending: Option<PendingTry>,
    history: Vec<Knowledge>,
    rng: Xoshiro256PlusPlus,
    last_stats: MoveStats,
}

impl Engine {
    /// A new engine on an empty 9x9 board, komi 7.5, `retry` rules.
    pub fn new(config: EngineConfig) -> Engine {
        let rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
        Engine {
            config,
            komi: 7.5,
            illegal_rule: IllegalRule::Retry,
            knowledge: Knowledge::new(9),
            pending: None,
            history: Vec::new(),
            rng,
            last_stats: MoveStats::default(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
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

    /// Changes the board size and clears the board.
    ///
    /// # Errors
    /// [`EngineError::UnacceptableSize`] outside 2..=11; the engine is unchanged then.
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        if Board::new(size).is_none() {
            return Err(EngineError::UnacceptableSize);
        }
        self.knowledge = Knowledge::new(size);
        self.pending = None;
        self.history.clear();
        Ok(())
    }

    /// Empties the board and forgets the game.
    pub fn clear_board(&mut self) {
        let size = self.size();
        self.knowledge = Knowledge::new(size);
        self.pending = None;
        self.history.clear();
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

    /// Sets what an illegal try costs.
    pub fn set_illegal_rule(&mut self, rule: IllegalRule) {
        self.illegal_rule = rule;
    }

    /// A pending try with no `phantom-result` stands as legal (plain GTP behaviour).
    fn settle_pending(&mut self) {
        self.pending = None;
    }

    fn remember(&mut self) {
        self.history.push(self.knowledge.clone());
        if self.history.len() > 4096 {
            self.history.remove(0);
        }
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
                let observation = if Some(color) == next.us { Observation::OwnPass } else { Observation::OpponentPass };
                next.observations.push(observation);
                next.end_turn(color, true);
            }
            Move::Play(point) => {
                let captured = next.board.try_play(color, point).map_err(|_| EngineError::IllegalMove)?;
                if Some(color) == next.us || next.us.is_none() {
                    next.observations.push(Observation::OwnOk { point, captured });
                } else {
                    next.observations.push(Observation::OpponentMove { captured });
                }
                next.end_turn(color, false);
            }
        }
        self.remember();
        self.knowledge = next;
        Ok(())
    }

    /// Chooses a try for `color` within `limits` and plays it tentatively (it stands unless `phantom-result` says otherwise).
    pub fn genmove(&mut self, color: Color, limits: &SearchLimits) -> Decision {
        self.settle_pending();
        let started = std::time::Instant::now();
        if self.knowledge.us != Some(color) {
            self.knowledge.us = Some(color);
        }
        let mv = self.choose_random(color);
        self.last_stats = MoveStats {
            vertex: mv.to_vertex(self.size()),
            simulations: 0,
            time_used: started.elapsed(),
            budget: limits.soft,
            win_rate: 0.5,
            belief_entropy: 0.0,
            survivors: 0,
            resamplings: 0,
            move_number: self.knowledge.move_number,
        };
        self.remember();
        if let Move::Play(point) = mv {
            let before = Box::new(self.knowledge.clone());
            match self.knowledge.board.try_play(color, point) {
                Ok(captured) => {
                    self.knowledge.observations.push(Observation::OwnOk { point, captured });
                    self.knowledge.end_turn(color, false);
                    self.pending = Some(PendingTry { color, point, before });
                }
                Err(_) => {
                    // Cannot happen: the chooser only offers points legal on the known board.
                    self.knowledge = *before;
                    return Decision::Move(Move::Pass);
                }
            }
        } else {
            self.knowledge.board.pass();
            self.knowledge.observations.push(Observation::OwnPass);
            self.knowledge.end_turn(color, true);
        }
        Decision::Move(mv)
    }

    fn choose_random(&mut self, color: Color) -> Move {
        let board = &self.knowledge.board;
        let mut candidates = board.empty() - board.single_point_eyes(color) - self.knowledge.illegal_this_turn;
        while candidates.any() {
            let n = self.rng.gen_range(0..candidates.count());
            let point = candidates.nth(n).expect("n < count");
            if board.legality(color, point).is_ok() {
                return Move::Play(point);
            }
            candidates.remove(point);
        }
        Move::Pass
    }

    /// `phantom-result illegal`: the last try is undone and recorded as illegal.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`] when no try awaits a result.
    pub fn phantom_result_illegal(&mut self) -> Result<(), EngineError> {
        let pending = self.pending.take().ok_or(EngineError::NoPendingTry)?;
        let mut knowledge = *pending.before;
        knowledge.observations.push(Observation::OwnIllegal { point: pending.point });
        knowledge.illegal_this_turn.insert(pending.point);
        if self.illegal_rule == IllegalRule::LoseTurn {
            knowledge.to_move = pending.color.opponent();
            knowledge.illegal_this_turn = Bitboard::EMPTY;
            knowledge.move_number += 1;
        }
        self.knowledge = knowledge;
        Ok(())
    }

    /// `phantom-result ok [captured]`: the last try stands and captured these opponent stones.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`], or [`EngineError::Inconsistent`] when a captured point cannot hold an opponent
    /// stone (it is ours or the point we just played); the pending try is kept then.
    pub fn phantom_result_ok(&mut self, captured: &[Point]) -> Result<(), EngineError> {
        let pending = self.pending.as_ref().ok_or(EngineError::NoPendingTry)?;
        let size = self.size();
        let mut knowledge = (*pending.before).clone();
        let (color, point) = (pending.color, pending.point);
        let captured_set: Bitboard = captured.iter().copied().collect();
        let own_after = knowledge.board.stones(color) | Bitboard::from_point(point);
        if let Some(bad) = (captured_set & own_after).first() {
            return Err(EngineError::Inconsistent(format!("{} holds our stone", bad.to_vertex(size))));
        }
        if (captured_set - knowledge.board.geometry().mask()).any() {
            return Err(EngineError::Inconsistent("captured point off the board".into()));
        }
        if captured_set.any()
            && (knowledge.board.geometry().adjacent(captured_set) & Bitboard::from_point(point)).is_empty()
        {
            return Err(EngineError::Inconsistent("captured stones do not touch the try".into()));
        }
        // The referee is the authority: seen opponent stones among the captures go, our stone stands.
        knowledge.board.remove_stones(captured_set);
        if knowledge.board.color_at(point).is_none() {
            knowledge.board.put_stone(color, point);
        }
        knowledge.hidden_opponent_moves = knowledge.hidden_opponent_moves.saturating_sub(captured_set.count());
        knowledge.observations.push(Observation::OwnOk { point, captured: captured_set });
        knowledge.end_turn(color, false);
        self.pending = None;
        self.knowledge = knowledge;
        Ok(())
    }

    /// `phantom-opponent ...`: what the opponent's turn revealed.
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`] when a captured point is not one of our stones; nothing changes then.
    pub fn phantom_opponent(&mut self, report: &OpponentReport) -> Result<(), EngineError> {
        self.settle_pending();
        let mut next = self.knowledge.clone();
        if next.us.is_none() {
            next.us = Some(next.to_move.opponent());
        }
        let us = next.us.expect("set above");
        let opponent = us.opponent();
        match report {
            OpponentReport::Illegal => {
                next.observations.push(Observation::OpponentIllegal);
                if self.illegal_rule == IllegalRule::LoseTurn {
                    next.end_turn(opponent, false);
                    next.consecutive_passes = 0;
                }
            }
            OpponentReport::Pass => {
                next.board.pass();
                next.observations.push(Observation::OpponentPass);
                next.end_turn(opponent, true);
            }
            OpponentReport::Ok(points) => {
                let captured: Bitboard = points.iter().copied().collect();
                let ours = next.board.stones(us);
                if let Some(bad) = (captured - ours).first() {
                    return Err(EngineError::Inconsistent(format!("{} is not our stone", bad.to_vertex(self.size()))));
                }
                next.board.remove_stones(captured);
                next.hidden_opponent_moves += 1;
                next.observations.push(Observation::OpponentMove { captured });
                next.end_turn(opponent, false);
            }
        }
        self.remember();
        self.knowledge = next;
        Ok(())
    }

    /// Takes back the last move or report.
    ///
    /// # Errors
    /// [`EngineError::CannotUndo`] when there is nothing to take back.
    pub fn undo(&mut self) -> Result<(), EngineError> {
        self.pending = None;
        let previous = self.history.pop().ok_or(EngineError::CannotUndo)?;
        self.knowledge = previous;
        Ok(())
    }

    /// Area score of the board the engine knows.
    pub fn final_score(&self) -> GameResult {
        GameResult::of(&self.knowledge.board, self.komi)
    }

    /// Per point (index order), the estimated probability that an unseen opponent stone is there; known stones are 1.
    pub fn opponent_stone_probabilities(&self) -> Vec<f32> {
        let board = &self.knowledge.board;
        let geometry = board.geometry();
        let Some(us) = self.knowledge.us else {
            return vec![0.0; geometry.area()];
        };
        let seen = board.stones(us.opponent());
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

    /// Everything the engine was told, in order.
    pub fn observations(&self) -> &[Observation] {
        &self.knowledge.observations
    }
}
