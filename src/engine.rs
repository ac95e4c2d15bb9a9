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
use crate::search::{safe_move, search, SearchConfig, SearchInput};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
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
            particles: 128,
            seed: 0,
            resign_below: None,
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
    /// Resamplings so far this game.
    pub resamplings: u64,
    /// Move number (turns played before this one).
    pub move_number: u32,
    /// Share p of particles with an opponent stone at the chosen point (0 for a pass).
    pub opponent_probability: f32,
    /// p * (1 - p) at the chosen point (0 = a settled point).
    pub uncertainty: f32,
}

/// A try answered by genmove that awaits `phantom-result`.
#[derive(Clone, Debug)]
struct PendingTry {
    color: Color,
    point: Point,
    /// Captures on the known board (what plain GTP assumes when no result comes).
    known_captures: Bitboard,
    before: Box<Knowledge>,
}

/// One entry of the engine's game log: an announcement and the colour it is phrased for (for a
/// full-information `play`, what the mover was told). The belief reads it from its player's side.
type Told = (Color, Observation);

/// `told` as `us` learns it: as is when phrased for `us`, else as the opponent of its mover sees it.
fn seen_by((side, observation): Told, us: Color) -> Option<Observation> {
    if side == us {
        Some(observation)
    } else {
        observation.for_opponent()
    }
}

/// Adds `points` to the announcement that captured them (see [`Engine::late_captures`]) and takes them off
/// the known board.
fn amend_captures(knowledge: &mut Knowledge, us: Color, points: Bitboard) -> Result<(), EngineError> {
    if (points - knowledge.board.geometry().mask()).any() {
        return Err(EngineError::Inconsistent("captured point off the board".into()));
    }
    let ours = knowledge.board.stones(us);
    let ours_taken = (points & ours).any();
    if ours_taken && (points - ours).any() {
        return Err(EngineError::Inconsistent("captures of both colours at once".into()));
    }
    let entry = knowledge.events.iter_mut().rev().find(|(side, observation)| {
        *side == us
            && if ours_taken {
                matches!(observation, Observation::OpponentMove { .. })
            } else {
                matches!(observation, Observation::OwnOk { .. })
            }
    });
    match entry {
        Some((_, Observation::OpponentMove { captured } | Observation::OwnOk { captured, .. })) => {
            *captured |= points;
        }
        _ => return Err(EngineError::Inconsistent("no move that could have captured these stones".into())),
    }
    knowledge.board.remove_stones(points);
    if !ours_taken {
        knowledge.hidden_opponent_moves = knowledge.hidden_opponent_moves.saturating_sub(points.count());
    }
    Ok(())
}

/// What the engine knows: its stones and the opponent stones it has seen, whose turn it is, and what it was told.
#[derive(Clone, Debug)]
struct Knowledge {
    /// Own stones plus opponent stones seen (played with `play`).
    board: Board,
    /// The colour whose hidden opponent stones we track; set by the first genmove or phantom report.
    us: Option<Color>,
    to_move: Color,
    /// Points tried illegal during the current turn.
    illegal_this_turn: Bitboard,
    /// Everything that happened, in order.
    events: Vec<Told>,
    /// Turns played so far.
    move_number: u32,
    /// Unseen opponent stones placed and not known to be captured since.
    hidden_opponent_moves: u32,
}

impl Knowledge {
    fn new(size: usize) -> Knowledge {
        Knowledge {
            board: Board::new(size).expect("size checked by caller"),
            us: None,
            to_move: Color::Black,
            illegal_this_turn: Bitboard::EMPTY,
            events: Vec::new(),
            move_number: 0,
            hidden_opponent_moves: 0,
        }
    }

    fn end_turn(&mut self, mover: Color) {
        self.to_move = mover.opponent();
        self.illegal_this_turn = Bitboard::EMPTY;
        self.move_number += 1;
    }

    /// True when the last thing the opponent did was a pass.
    fn opponent_just_passed(&self, us: Color) -> bool {
        matches!(self.events.last().and_then(|&told| seen_by(told, us)), Some(Observation::OpponentPass))
    }
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

    /// Chooses a try for `color` within `limits` and plays it tentatively (it stands unless `phantom-result`
    /// says otherwise).
    pub fn genmove(&mut self, color: Color, limits: &SearchLimits) -> Decision {
        self.settle_pending();
        let started = std::time::Instant::now();
        if self.knowledge.us != Some(color) {
            self.knowledge.us = Some(color);
            self.sync_belief();
        }
        let mut stats = MoveStats {
            budget: limits.soft,
            win_rate: 0.5,
            move_number: self.knowledge.move_number,
            ..MoveStats::default()
        };
        let decision = match self.config.player {
            PlayerKind::Random => Decision::Move(self.choose_random(color)),
            PlayerKind::Mcts | PlayerKind::Ismcts => self.choose_mcts(color, limits, &mut stats),
            PlayerKind::Flat | PlayerKind::Pimc => self.choose_baseline(color, limits, &mut stats),
        };
        stats.vertex = match decision {
            Decision::Move(mv) => mv.to_vertex(self.size()),
            Decision::Resign => "resign".to_string(),
        };
        stats.time_used = started.elapsed();
        self.last_stats = stats;
        let Decision::Move(mv) = decision else {
            return decision;
        };
        self.remember();
        match mv {
            Move::Play(point) => {
                let before = Box::new(self.knowledge.clone());
                match self.knowledge.board.try_play(color, point) {
                    Ok(known_captures) => {
                        self.knowledge.end_turn(color);
                        self.pending = Some(PendingTry { color, point, known_captures, before });
                    }
                    Err(_) => {
                        // Cannot happen: both choosers offer only points legal on the known board.
                        log::error!(
                            "chosen try {} is illegal on the known board; passing",
                            point.to_vertex(self.size())
                        );
                        self.knowledge = *before;
                        return self.genmove_pass(color);
                    }
                }
            }
            Move::Pass => return self.genmove_pass(color),
        }
        decision
    }

    fn genmove_pass(&mut self, color: Color) -> Decision {
        self.knowledge.board.pass();
        self.knowledge.events.push((color, Observation::OwnPass));
        self.knowledge.end_turn(color);
        self.sync_belief();
        Decision::Move(Move::Pass)
    }

    /// Points that are empty on the known board but illegal there for `color` (suicide or ko with what we know).
    fn known_illegal(&self, color: Color) -> Bitboard {
        let board = &self.knowledge.board;
        board.empty().iter().filter(|&p| board.legality(color, p).is_err()).collect()
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

    fn choose_mcts(&mut self, color: Color, limits: &SearchLimits, stats: &mut MoveStats) -> Decision {
        self.sync_belief();
        let Some((belief, _)) = self.belief.as_ref() else {
            return Decision::Move(self.choose_random(color));
        };
        let probabilities = belief.probabilities();
        let input = SearchInput {
            particles: belief.particles().to_vec(),
            probabilities,
            us: color,
            lose_turn: self.illegal_rule == IllegalRule::LoseTurn,
            komi: self.komi,
            move_number: self.knowledge.move_number,
            tried_this_turn: self.knowledge.illegal_this_turn | self.known_illegal(color),
            known_opponent: self.known_opponent(belief, color),
            opponent_passed: self.knowledge.opponent_just_passed(color),
            tries_left: self.tries_left(),
            repetition: self.optional_rules.0,
            repeating: Vec::new(),
        };
        let mut input = input;
        if input.repetition != crate::game::Repetition::Allowed {
            // Each particle's own earlier positions, so the search knows which tries would repeat one.
            let positions: Vec<Vec<u64>> = (0..belief.len()).map(|i| belief.positions(i).unwrap_or_default()).collect();
            input.repeating = crate::search::uct::repeating_tries(&input, &positions);
        }
        stats.belief_entropy = belief.total_entropy();
        stats.survivors = belief.stats().survivors_last;
        stats.resamplings = belief.stats().resamplings;
        let record_point = |stats: &mut MoveStats, mv: Move| {
            let p = mv.point().map_or(0.0, |point| input.probabilities[point.index()]);
            stats.opponent_probability = p;
            stats.uncertainty = p * (1.0 - p);
        };
        if limits.emergency {
            let mv = safe_move(&input);
            record_point(stats, mv);
            return Decision::Move(mv);
        }
        let mut limits = *limits;
        if let Some(playouts) = self.config.playouts {
            limits.playouts = Some(playouts);
        }
        let seed = self.config.seed
            ^ (u64::from(self.knowledge.move_number) << 32)
            ^ u64::from(self.knowledge.illegal_this_turn.count());
        let result = match self.config.player {
            PlayerKind::Ismcts => {
                crate::search::ismcts::search(&input, &self.config.search, &limits, self.config.threads, seed, None)
            }
            _ => search(&input, &self.config.search, &limits, self.config.threads, seed, None),
        };
        log::debug!("{}", crate::search::search_summary(&result, &input.probabilities, self.size()));
        stats.simulations = result.simulations;
        stats.win_rate = result.win_rate;
        record_point(stats, result.best);
        if let Some(threshold) = self.config.resign_below {
            if result.simulations >= 1000 && result.win_rate < threshold {
                return Decision::Resign;
            }
        }
        Decision::Move(result.best)
    }

    /// The opponent stones a search of ours (the main one or a baseline's) must never try: those every particle
    /// holds, the points our illegal tries found blocked ([`crate::belief::Belief::blocked`]) and the stones
    /// seen; one function, so that a baseline knows what our engine knows.
    fn known_opponent(&self, belief: &Belief, color: Color) -> Bitboard {
        belief.known_opponent() | belief.blocked() | self.knowledge.board.stones(color.opponent())
    }

    /// The published baselines (`flat`, `pimc`): what we know, handed to the player behind the trait.
    fn choose_baseline(&mut self, color: Color, limits: &SearchLimits, stats: &mut MoveStats) -> Decision {
        self.sync_belief();
        if limits.emergency {
            return Decision::Move(self.choose_random(color));
        }
        let known = &self.knowledge;
        let (particles, probabilities, known_opponent) = match &self.belief {
            Some((belief, _)) => {
                (belief.particles().to_vec(), belief.probabilities(), self.known_opponent(belief, color))
            }
            None => (Vec::new(), vec![0.0; known.board.geometry().area()], known.board.stones(color.opponent())),
        };
        let input = PlayerInput {
            search: SearchInput {
                particles,
                probabilities,
                us: color,
                lose_turn: self.illegal_rule == IllegalRule::LoseTurn,
                komi: self.komi,
                move_number: known.move_number,
                tried_this_turn: known.illegal_this_turn | self.known_illegal(color),
                known_opponent,
                opponent_passed: known.opponent_just_passed(color),
                tries_left: self.tries_left(),
                repetition: self.optional_rules.0,
                repeating: Vec::new(),
            },
            known: known.board.clone(),
            inferred_opponent: inferred_opponent(&known.events, color) & known.board.empty(),
            unseen_opponent: known.hidden_opponent_moves,
        };
        let mut limits = *limits;
        if let Some(playouts) = self.config.playouts {
            limits.playouts = Some(playouts);
        }
        let seed = self.config.seed ^ (u64::from(known.move_number) << 32) ^ u64::from(known.illegal_this_turn.count());
        let player: Box<dyn Player> = match self.config.player {
            PlayerKind::Pimc => Box::new(Pimc::default()),
            _ => Box::new(Flat::default()),
        };
        let result = player.choose(&input, &limits, self.config.threads, seed);
        stats.simulations = result.simulations;
        stats.win_rate = result.win_rate;
        Decision::Move(result.best)
    }

    /// `phantom-result illegal`: the last try is undone and recorded as illegal.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`] when no try awaits a result.
    pub fn phantom_result_illegal(&mut self) -> Result<(), EngineError> {
        let pending = self.pending.take().ok_or(EngineError::NoPendingTry)?;
        let mut knowledge = *pending.before;
        knowledge.events.push((pending.color, Observation::OwnIllegal { point: pending.point }));
        knowledge.illegal_this_turn.insert(pending.point);
        if self.illegal_rule == IllegalRule::LoseTurn {
            knowledge.end_turn(pending.color);
        }
        self.knowledge = knowledge;
        self.sync_belief();
        Ok(())
    }

    /// `phantom-result ok [captured]`: the last try stands and captured these opponent stones.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`], or [`EngineError::Inconsistent`] when a captured point cannot hold an opponent
    /// stone (see [`crate::report_check::own_captures`]); the pending try is kept then.
    pub fn phantom_result_ok(&mut self, captured: &[Point]) -> Result<(), EngineError> {
        let pending = self.pending.as_ref().ok_or(EngineError::NoPendingTry)?;
        let (color, point) = (pending.color, pending.point);
        let mut knowledge = (*pending.before).clone();
        // A point that holds one of our stones is named by the caller's own coordinates (InconsistentAt).
        let own_after = knowledge.board.stones(color) | Bitboard::from_point(point);
        if let Some(&bad) = captured.iter().find(|&&p| own_after.contains(p)) {
            return Err(EngineError::InconsistentAt { point: bad, size: self.size(), why: "holds our stone" });
        }
        let captured_set = crate::report_check::own_captures(&knowledge.board, color, point, captured)
            .map_err(EngineError::Inconsistent)?;
        // The referee is the authority: seen opponent stones among the captures go, our stone stands.
        knowledge.board.remove_stones(captured_set);
        if knowledge.board.color_at(point).is_none() {
            knowledge.board.put_stone(color, point);
        }
        knowledge.hidden_opponent_moves = knowledge.hidden_opponent_moves.saturating_sub(captured_set.count());
        knowledge.events.push((color, Observation::OwnOk { point, captured: captured_set }));
        knowledge.end_turn(color);
        self.pending = None;
        self.knowledge = knowledge;
        self.sync_belief();
        Ok(())
    }

    /// What the opponent's turn revealed (`phantom-opponent ...`): [`Observation::OpponentMove`],
    /// [`Observation::OpponentIllegal`] or [`Observation::OpponentPass`].
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`] when the captured points are not whole chains of our stones that one stone
    /// could take (see [`crate::report_check::opponent_captures`]), or for an announcement that is not about the
    /// opponent's turn; nothing changes then.
    pub fn phantom_opponent(&mut self, report: &Observation) -> Result<(), EngineError> {
        match *report {
            Observation::OpponentMove { captured } => {
                // Check before settling a pending try, so that a bad report changes nothing.
                // The known board holds a pending try already (genmove plays it tentatively).
                let us = self.pending.as_ref().map(|p| p.color);
                let us = us.unwrap_or(self.knowledge.us.unwrap_or(self.knowledge.to_move.opponent()));
                if let Some(bad) = (captured - self.knowledge.board.stones(us)).first() {
                    return Err(EngineError::InconsistentAt { point: bad, size: self.size(), why: "is not our stone" });
                }
                let points: Vec<Point> = captured.iter().collect();
                crate::report_check::opponent_captures(&self.knowledge.board, us, &points)
                    .map_err(EngineError::Inconsistent)?;
            }
            Observation::OpponentIllegal | Observation::OpponentPass => {}
            _ => return Err(EngineError::Inconsistent("not a report of the opponent's turn".into())),
        }
        self.settle_pending();
        let mut next = self.knowledge.clone();
        if next.us.is_none() {
            next.us = Some(next.to_move.opponent());
        }
        let us = next.us.expect("set above");
        let opponent = us.opponent();
        match *report {
            Observation::OpponentIllegal => {
                if self.illegal_rule == IllegalRule::LoseTurn {
                    next.end_turn(opponent);
                }
            }
            Observation::OpponentMove { captured } => {
                // Checked above to be our stones.
                next.board.remove_stones(captured & next.board.stones(us));
                next.hidden_opponent_moves += 1;
                next.end_turn(opponent);
            }
            _ => {
                next.board.pass();
                next.end_turn(opponent);
            }
        }
        next.events.push((us, *report));
        self.remember();
        self.knowledge = next;
        self.sync_belief();
        Ok(())
    }

    /// Captures the engine is told of after the announcement they belong to (the championship dialect's late
    /// `take`/`taked`): our stones among `points` were taken by the opponent's last unseen move, the others by
    /// our last legal try that stands. The known board drops them (under a pending try too), that
    /// announcement gains them, and the belief is rebuilt from the corrected history.
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`] when the points mix our stones with others, hold our pending try, or no
    /// announcement can have captured them; nothing changes then.
    pub fn late_captures(&mut self, points: Bitboard) -> Result<(), EngineError> {
        let us = self.knowledge.us.ok_or_else(|| EngineError::Inconsistent("our colour is not known".into()))?;
        let mut knowledge = match &self.pending {
            Some(pending) => (*pending.before).clone(),
            None => self.knowledge.clone(),
        };
        if let Some(pending) = &self.pending {
            if points.contains(pending.point) {
                return Err(EngineError::Inconsistent("a capture of our pending try".into()));
            }
        }
        amend_captures(&mut knowledge, us, points)?;
        match self.pending.as_mut() {
            Some(pending) => {
                let mut tentative = knowledge.clone();
                pending.known_captures = tentative
                    .board
                    .try_play(pending.color, pending.point)
                    .map_err(|_| EngineError::Inconsistent("the pending try would not stand".into()))?;
                tentative.end_turn(pending.color);
                *pending.before = knowledge;
                self.knowledge = tentative;
            }
            None => self.knowledge = knowledge,
        }
        self.belief = None;
        self.sync_belief();
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

/// Opponent stones read from `us`'s refused tries (an illegal try read as a stone, as Golois does): every
/// refused point not since captured by us or played by us.
fn inferred_opponent(events: &[Told], us: Color) -> Bitboard {
    let mut stones = Bitboard::EMPTY;
    for &(side, observation) in events {
        match observation {
            Observation::OwnIllegal { point } if side == us => stones.insert(point),
            Observation::OwnOk { point, captured } if side == us => {
                stones -= captured;
                stones.remove(point);
            }
            _ => {}
        }
    }
    stones
}

#[cfg(test)]
mod rules_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_vertex;

    pub(super) fn engine(player: PlayerKind) -> Engine {
        let config = EngineConfig { player, threads: 1, playouts: Some(200), seed: 3, ..EngineConfig::default() };
        let mut engine = Engine::new(config);
        engine.set_board_size(5).unwrap();
        engine
    }

    fn pt(vertex: &str) -> Point {
        parse_vertex(vertex, 5).unwrap().point().unwrap()
    }

    pub(super) fn genmove_point(engine: &mut Engine, color: Color) -> Point {
        match engine.genmove(color, &SearchLimits::default()) {
            Decision::Move(Move::Play(p)) => p,
            other => panic!("expected a stone, got {other:?}"),
        }
    }

    #[test]
    fn an_unseen_opponent_move_puts_one_expected_stone_in_the_belief() {
        let mut engine = engine(PlayerKind::Mcts);
        let first = genmove_point(&mut engine, Color::Black);
        engine.phantom_result_ok(&[]).unwrap();
        engine.phantom_opponent(&Observation::OpponentMove { captured: Bitboard::EMPTY }).unwrap();
        let p = engine.opponent_stone_probabilities();
        let total: f32 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "one hidden stone in expectation, got {total}");
        assert_eq!(p[first.index()], 0.0, "our own stone's point holds no opponent stone");
        assert_eq!(engine.belief().map(|b| b.opponent_stone_count()), Some(1));
    }

    #[test]
    fn an_illegal_try_is_undone_and_not_tried_again_this_turn() {
        let mut engine = engine(PlayerKind::Mcts);
        genmove_point(&mut engine, Color::Black);
        engine.phantom_result_ok(&[]).unwrap();
        engine.phantom_opponent(&Observation::OpponentMove { captured: Bitboard::EMPTY }).unwrap();
        let tried = genmove_point(&mut engine, Color::Black);
        engine.phantom_result_illegal().unwrap();
        assert_eq!(engine.known_board().color_at(tried), None, "the try was undone");
        let again = genmove_point(&mut engine, Color::Black);
        assert_ne!(again, tried);
        assert_eq!(engine.phantom_result_illegal(), Ok(()));
        assert_eq!(engine.phantom_result_illegal(), Err(EngineError::NoPendingTry));
    }

    #[test]
    fn bad_reports_change_nothing() {
        let mut engine = engine(PlayerKind::Random);
        let first = genmove_point(&mut engine, Color::Black);
        // A capture of a point that holds our own new stone is refused and the try stays pending.
        assert_eq!(
            engine.phantom_result_ok(&[first]),
            Err(EngineError::InconsistentAt { point: first, size: 5, why: "holds our stone" })
        );
        assert_eq!(engine.phantom_result_ok(&[]), Ok(()));
        // The opponent cannot capture a stone we do not have.
        let empty = engine.known_board().empty().first().unwrap();
        let before = engine.known_board().clone();
        assert!(matches!(
            engine.phantom_opponent(&Observation::OpponentMove { captured: Bitboard::from_point(empty) }),
            Err(EngineError::InconsistentAt { why: "is not our stone", .. })
        ));
        assert_eq!(engine.known_board(), &before);
    }

    #[test]
    fn a_try_without_result_stands_with_the_known_captures_and_undo_takes_it_back() {
        let mut engine = engine(PlayerKind::Random);
        engine.play(Color::White, Move::Play(pt("A1"))).unwrap();
        engine.play(Color::Black, Move::Play(pt("A2"))).unwrap();
        engine.play(Color::White, Move::Play(pt("E5"))).unwrap();
        // Black's only capture of A1 is B1; play it as a full-information move.
        engine.play(Color::Black, Move::Play(pt("B1"))).unwrap();
        assert_eq!(engine.known_board().color_at(pt("A1")), None);
        engine.undo().unwrap();
        assert_eq!(engine.known_board().color_at(pt("A1")), Some(Color::White));
        assert_eq!(engine.play(Color::Black, Move::Play(pt("A2"))), Err(EngineError::IllegalMove));
        engine.clear_board();
        assert_eq!(engine.undo(), Err(EngineError::CannotUndo));
        // A genmove that gets no phantom-result stands once the next command comes.
        let tried = genmove_point(&mut engine, Color::Black);
        let elsewhere = (engine.known_board().empty() - Bitboard::from_point(tried)).first().unwrap();
        engine.play(Color::White, Move::Play(elsewhere)).unwrap();
        assert_eq!(engine.known_board().color_at(tried), Some(Color::Black));
        assert_eq!(engine.phantom_result_illegal(), Err(EngineError::NoPendingTry));
        assert_eq!(engine.set_board_size(12), Err(EngineError::UnacceptableSize));
        assert_eq!(engine.set_komi(f32::NAN), Err(EngineError::BadKomi));
    }
}
