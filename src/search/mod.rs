//! Information-set MCTS over the belief: tree over our tries and what we are told, determinized playouts,
//! information-gain bonus, root-parallel workers with merged statistics, time and convergence stops.

pub mod flat;
pub mod limits;
pub mod pimc;
pub mod player;
pub mod playout;
pub mod tree;

pub use limits::SearchLimits;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::point::{Move, Point};
use crate::scoring;
use playout::{phantom_playout, policy_turn, record_try, PlayoutPolicy, SideView, SimTry, TurnOutcome};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tree::{Edge, Node, OutcomeKey, Tree};

/// Search settings (all configurable).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// UCB exploration constant.
    pub exploration: f32,
    /// Add the information-gain bonus alpha * p * (1 - p) to tries.
    pub info_gain: bool,
    /// Alpha at the first move.
    pub alpha_start: f32,
    /// Alpha from `alpha_decay_moves` on.
    pub alpha_end: f32,
    /// Moves over which alpha decays linearly; 0 = fixed `alpha_start`.
    pub alpha_decay_moves: u32,
    /// No bonus at points where p * (1 - p) is below this (already settled).
    pub probe_min_uncertainty: f32,
    /// No bonus at all when the belief's mean per-point p * (1 - p) over empty points is below this.
    pub probe_min_mean_uncertainty: f32,
    /// Points added to our score per stone we capture in a playout (and taken per stone we lose).
    pub capture_bonus: f32,
    /// Visits of an edge before its outcome child is expanded.
    pub expand_after: u32,
    /// Cap on nodes per worker tree.
    pub max_nodes: usize,
    /// Stop early when the best root try has this many times the visits of the second and the rest of the
    /// budget cannot change the order.
    pub convergence_ratio: f32,
    /// Playouts when no limit at all is given.
    pub default_playouts: u64,
    /// The playout policy.
    pub policy: PlayoutPolicy,
    /// Cache the outcome of our tries in the tree phase by Zobrist hash (checked against the full masks).
    /// Off by default: `phantomgo bench search` measures it and it does not pay (see the README).
    pub legal_cache: bool,
    /// Who wins a playout that ends level (the reward of a zero margin).
    pub tie: scoring::TieRule,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: 0.6,
            info_gain: true,
            alpha_start: 0.15,
            alpha_end: 0.03,
            alpha_decay_moves: 50,
            probe_min_uncertainty: 0.02,
            probe_min_mean_uncertainty: 0.0,
            capture_bonus: 0.5,
            expand_after: 2,
            max_nodes: 200_000,
            convergence_ratio: 5.0,
            default_playouts: 20_000,
            policy: PlayoutPolicy::default(),
            legal_cache: false,
            tie: scoring::TieRule::Draw,
        }
    }
}

impl SearchConfig {
    /// Alpha at move `move_number`: linear from `alpha_start` to `alpha_end` over `alpha_decay_moves`.
    pub fn alpha(&self, move_number: u32) -> f32 {
        if !self.info_gain {
            return 0.0;
        }
        if self.alpha_decay_moves == 0 {
            return self.alpha_start;
        }
        let t = (move_number as f32 / self.alpha_decay_moves as f32).min(1.0);
        self.alpha_start + (self.alpha_end - self.alpha_start) * t
    }
}

/// Everything the search needs to know about the position, from the engine.
#[derive(Clone, Debug)]
pub struct SearchInput {
    /// Determinizations: hypotheses of the true board (our stones exact), ready for `us` to move.
    pub particles: Vec<Board>,
    /// Per point index, the share of particles with an opponent stone there.
    pub probabilities: Vec<f32>,
    /// Our colour.
    pub us: Color,
    /// Illegal tries cost a turn (true) or are retried (false).
    pub lose_turn: bool,
    /// Komi.
    pub komi: f32,
    /// Turns played so far (alpha decay).
    pub move_number: u32,
    /// Points we already tried illegal this turn.
    pub tried_this_turn: Bitboard,
    /// Opponent stones we know for certain.
    pub known_opponent: Bitboard,
    /// The opponent passed on its last turn (a pass of ours would end the game).
    pub opponent_passed: bool,
    /// Tries the referee's cap (`phantom-rules max-tries=N`) leaves in the game, both players' tries counted as
    /// the engine knows them (see [`crate::engine::Engine::tries_made`]); `None` when no cap was announced.
    pub tries_left: Option<u32>,
    /// What the referee does with a move that recreates an earlier whole-board position
    /// (`phantom-rules repetition=...`).
    pub repetition: crate::game::Repetition,
}

/// Statistics of one root try after the search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootChild {
    /// The try.
    pub mv: Move,
    /// Visits over all workers.
    pub visits: u32,
    /// Mean reward.
    pub win_rate: f32,
    /// Share of visits where it was illegal.
    pub illegal_rate: f32,
}

/// The search's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited try.
    pub best: Move,
    /// Its win rate.
    pub win_rate: f32,
    /// Simulations run over all workers.
    pub simulations: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Root tries, most visited first.
    pub children: Vec<RootChild>,
    /// Why it stopped.
    pub stop: StopReason,
    /// Legal-move cache lookups and hits over all workers (0 when the cache is off).
    pub cache_lookups: u64,
    /// Hits among those lookups.
    pub cache_hits: u64,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Playout limit reached.
    Playouts,
    /// Soft time budget reached.
    Time,
    /// The best try could no longer be overtaken.
    Converged,
    /// Only one candidate.
    Forced,
}

impl SearchInput {
    /// What we know at the root, as a playout side's view.
    fn our_view(&self) -> SideView {
        SideView { known_opponent: self.known_opponent, tried_this_turn: self.tried_this_turn }
    }
}

/// Root candidate tries: empty points of our view (not our stones, not known opponent stones, not points tried
/// this turn, not our own single-point eyes); a pass too when nothing else is left or the opponent just passed.
pub fn root_moves(input: &SearchInput) -> Vec<Move> {
    let Some(board) = input.particles.first() else {
        return vec![Move::Pass];
    };
    let view = input.our_view();
    let mut moves: Vec<Move> = playout::candidates(board, input.us, &view).iter().map(Move::Play).collect();
    if moves.is_empty() || input.opponent_passed {
        moves.push(Move::Pass);
    }
    moves
}

/// State of one simulation while it walks the tree.
struct Simulation {
    board: Board,
    views: ByColor<SideView>,
    captures: ByColor<u32>,
    passes: u32,
}

struct Worker<'a> {
    input: &'a SearchInput,
    config: &'a SearchConfig,
    tree: Tree,
    rng: Xoshiro256PlusPlus,
    alpha: f32,
    probing: bool,
    cache: Option<LegalCache>,
}

/// A direct-mapped cache of try outcomes: position (Zobrist hash, full masks, ko), colour and point in,
/// the board after the try (or illegal) out. Entries are checked against the full masks, so a hash collision
/// can only cost a miss.
struct LegalCache {
    entries: Vec<Option<CacheEntry>>,
    lookups: u64,
    hits: u64,
}

/// One cached try: the position and try, and the board after it (`None`: illegal).
#[derive(Clone)]
struct CacheEntry {
    before: Board,
    color: Color,
    point: Point,
    after: Option<Board>,
}

impl LegalCache {
    const SIZE: usize = 1 << 13;

    fn new() -> LegalCache {
        LegalCache { entries: vec![None; Self::SIZE], lookups: 0, hits: 0 }
    }

    fn slot(board: &Board, color: Color, point: Point) -> usize {
        let key = board.hash() ^ crate::board::zobrist_key(color, point).rotate_left(17);
        (key as usize ^ (key >> 29) as usize) & (Self::SIZE - 1)
    }

    /// Plays `color` at `point` on `board` through the cache; `false` when the try is illegal (board unchanged).
    fn try_play(&mut self, board: &mut Board, color: Color, point: Point) -> Result<Bitboard, ()> {
        self.lookups += 1;
        let slot = Self::slot(board, color, point);
        if let Some(entry) = &self.entries[slot] {
            if entry.color == color && entry.point == point && entry.before == *board {
                self.hits += 1;
                return match &entry.after {
                    Some(after) => {
                        let captured = board.stones(color.opponent()) - after.stones(color.opponent());
                        *board = after.clone();
                        Ok(captured)
                    }
                    None => Err(()),
                };
            }
        }
        let before = board.clone();
        let outcome = board.try_play(color, point).map_err(|_| ());
        self.entries[slot] = Some(CacheEntry { before, color, point, after: outcome.is_ok().then(|| board.clone()) });
        outcome
    }
}

impl<'a> Worker<'a> {
    fn new(input: &'a SearchInput, config: &'a SearchConfig, seed: u64) -> Worker<'a> {
        let alpha = config.alpha(input.move_number);
        let mean_uncertainty = {
            let n = input.probabilities.len().max(1) as f32;
            input.probabilities.iter().map(|p| p * (1.0 - p)).sum::<f32>() / n
        };
        let probing = alpha > 0.0 && mean_uncertainty >= config.probe_min_mean_uncertainty;
        let mut worker = Worker {
            input,
            config,
            tree: Tree::default(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            alpha,
            probing,
            cache: config.legal_cache.then(LegalCache::new),
        };
        let root = worker.make_node(root_moves(input), 0);
        worker.tree = Tree::new(root);
        worker
    }

    fn bonus(&self, mv: Move, turn_depth: u16) -> f32 {
        match mv {
            Move::Play(p) if self.probing && turn_depth == 0 => {
                let prob = self.input.probabilities.get(p.index()).copied().unwrap_or(0.0);
                let uncertainty = prob * (1.0 - prob);
                if uncertainty < self.config.probe_min_uncertainty {
                    0.0
                } else {
                    self.alpha * uncertainty
                }
            }
            _ => 0.0,
        }
    }

    fn make_node(&self, moves: Vec<Move>, turn_depth: u16) -> Node {
        let edges = moves.into_iter().map(|mv| Edge::new(mv, self.bonus(mv, turn_depth))).collect();
        Node { edges, visits: 0, turn_depth }
    }

    /// One simulation: determinize, walk the tree, expand, play out, back up.
    fn simulate(&mut self) {
        let input = self.input;
        let us = input.us;
        let them = us.opponent();
        let particle = &input.particles[playout::below(&mut self.rng, input.particles.len() as u32) as usize];
        let mut sim = Simulation {
            board: particle.clone(),
            views: ByColor::new(SideView::default(), SideView::default()),
            captures: ByColor::default(),
            passes: if input.opponent_passed { 1 } else { 0 },
        };
        sim.views[us] = input.our_view();
        let mut path: Vec<(u32, usize)> = Vec::with_capacity(16);
        let mut node = 0u32;
        let mut to_move = us;
        let mut game_over = false;
        loop {
            let edge_index = self.tree.select(node, self.config.exploration, self.rng.next_u32());
            path.push((node, edge_index));
            let edge = &self.tree.nodes[node as usize].edges[edge_index];
            let mv = edge.mv;
            let edge_visits = edge.visits;
            let turn_depth = self.tree.nodes[node as usize].turn_depth;
            // Our try.
            let key = match mv {
                Move::Pass => {
                    sim.board.pass();
                    sim.views[us].tried_this_turn = Bitboard::EMPTY;
                    sim.passes += 1;
                    if sim.passes >= 2 {
                        game_over = true;
                        break;
                    }
                    to_move = them;
                    OutcomeKey::Quiet
                }
                Move::Play(point) => {
                    if sim.board.stones(us).contains(point) {
                        // Our stone in this determinization (the info sets differ deeper down): count it illegal.
                        OutcomeKey::Illegal
                    } else {
                        let result = match self.cache.as_mut() {
                            Some(cache) => cache.try_play(&mut sim.board, us, point),
                            None => sim.board.try_play(us, point).map_err(|_| ()),
                        };
                        let outcome = record_try(&sim.board, us, point, &mut sim.views[us], result);
                        match outcome {
                            SimTry::Illegal => OutcomeKey::Illegal,
                            SimTry::Ok(captured) => {
                                sim.passes = 0;
                                to_move = them;
                                if captured.any() {
                                    sim.captures[us] += captured.count();
                                    sim.views[us].known_opponent &= sim.board.stones(them);
                                    OutcomeKey::Eventful
                                } else {
                                    OutcomeKey::Quiet
                                }
                            }
                        }
                    }
                }
            };
            if key == OutcomeKey::Illegal {
                self.tree.nodes[node as usize].edges[edge_index].illegal += 1;
                if input.lose_turn {
                    sim.views[us].tried_this_turn = Bitboard::EMPTY;
                    sim.board.pass();
                    sim.passes = 0;
                    to_move = them;
                }
            }
            // The opponent's reply, when the turn passed to it.
            let mut key = key;
            if to_move == them {
                match policy_turn(
                    &mut sim.board,
                    them,
                    &mut sim.views[them],
                    input.lose_turn,
                    &self.config.policy,
                    &mut self.rng,
                ) {
                    TurnOutcome::Moved(captured) => {
                        sim.passes = 0;
                        if captured.any() {
                            sim.captures[them] += captured.count();
                            sim.views[them].known_opponent &= sim.board.stones(us);
                            key = OutcomeKey::Eventful;
                        }
                    }
                    TurnOutcome::Passed => {
                        sim.passes += 1;
                        if sim.passes >= 2 {
                            game_over = true;
                            break;
                        }
                    }
                    TurnOutcome::LostTurn => sim.passes = 0,
                }
                to_move = us;
            }
            // Descend or expand.
            let child = self.tree.nodes[node as usize].edges[edge_index].child(key);
            if child != 0 {
                node = child;
                continue;
            }
            if edge_visits + 1 >= self.config.expand_after && self.tree.nodes.len() < self.config.max_nodes {
                let same_turn = key == OutcomeKey::Illegal && !input.lose_turn;
                let depth = if same_turn { turn_depth } else { turn_depth + 1 };
                let tried = if same_turn { sim.views[us].tried_this_turn } else { Bitboard::EMPTY };
                let view = SideView { known_opponent: sim.views[us].known_opponent, tried_this_turn: tried };
                let mut moves: Vec<Move> = playout::candidates(&sim.board, us, &view).iter().map(Move::Play).collect();
                if moves.is_empty() {
                    moves.push(Move::Pass);
                }
                let new_node = self.make_node(moves, depth);
                let index = self.tree.push(new_node);
                self.tree.nodes[node as usize].edges[edge_index].children[key as usize] = index;
            }
            break;
        }
        if !game_over {
            let result = phantom_playout(
                &mut sim.board,
                to_move,
                &mut sim.views,
                sim.passes,
                input.lose_turn,
                &self.config.policy,
                &mut self.rng,
            );
            sim.captures[us] += result.captures[us];
            sim.captures[them] += result.captures[them];
        }
        let margin = scoring::score(&sim.board, input.komi) * if us == Color::Black { 1.0 } else { -1.0 };
        let adjusted = margin + self.config.capture_bonus * (sim.captures[us] as f32 - sim.captures[them] as f32);
        let reward = if adjusted > 0.0 {
            1.0
        } else if adjusted < 0.0 {
            0.0
        } else {
            self.config.tie.reward(0.0, us)
        };
        for (node, edge_index) in path {
            let node = &mut self.tree.nodes[node as usize];
            node.visits += 1;
            let edge = &mut node.edges[edge_index];
            edge.visits += 1;
            edge.wins += reward;
        }
    }

    fn root_visits_best_two(&self) -> (u32, u32) {
        let mut best = 0;
        let mut second = 0;
        for edge in &self.tree.nodes[0].edges {
            if edge.visits > best {
                second = best;
                best = edge.visits;
            } else if edge.visits > second {
                second = edge.visits;
            }
        }
        (best, second)
    }
}

/// Runs the search with `threads` root-parallel workers (each its own tree and seeded RNG; statistics merged at
/// the end, nothing shared on the hot path but a simulation counter and the stop flag). Only worker 0 reads
/// the clock. `external_stop` lets a caller end the search early.
pub fn search(
    input: &SearchInput,
    config: &SearchConfig,
    limits: &SearchLimits,
    threads: usize,
    seed: u64,
    external_stop: Option<&AtomicBool>,
) -> SearchResult {
    let start = Instant::now();
    let moves = root_moves(input);
    if moves.len() == 1 || input.particles.is_empty() {
        return player::forced(moves[0], start);
    }
    let playout_limit = limits.playouts.or(if limits.soft.is_none() && limits.hard.is_none() {
        Some(config.default_playouts)
    } else {
        None
    });
    let soft = limits.soft.or(limits.hard);
    let hard = limits.hard;
    let threads = threads.max(1);
    let simulations = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let stop_reason = parking_lot::Mutex::new(StopReason::Playouts);

    let trees: Vec<(Tree, u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let simulations = &simulations;
                let stop = &stop;
                let stop_reason = &stop_reason;
                scope.spawn(move || {
                    let worker_seed = seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let mut worker = Worker::new(input, config, worker_seed);
                    let mut local = 0u64;
                    loop {
                        if stop.load(Ordering::Relaxed) || external_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                            break;
                        }
                        if let Some(limit) = playout_limit {
                            if simulations.fetch_add(1, Ordering::Relaxed) >= limit {
                                simulations.fetch_sub(1, Ordering::Relaxed);
                                stop.store(true, Ordering::Relaxed);
                                break;
                            }
                        } else {
                            simulations.fetch_add(1, Ordering::Relaxed);
                        }
                        worker.simulate();
                        local += 1;
                        if t == 0 && local.is_multiple_of(32) {
                            let elapsed = start.elapsed();
                            let mut reason = None;
                            if hard.is_some_and(|h| elapsed >= h) || soft.is_some_and(|s| elapsed >= s) {
                                reason = Some(StopReason::Time);
                            } else if let Some(budget) = soft.or(hard) {
                                // Converged: the leader has 5x the visits of the runner-up and the simulations
                                // left in the budget (at the current rate) could not close the gap.
                                let (best, second) = worker.root_visits_best_two();
                                let rate = local as f64 / elapsed.as_secs_f64().max(1e-6);
                                let left = rate * (budget.as_secs_f64() - elapsed.as_secs_f64()).max(0.0);
                                if best as f32 >= config.convergence_ratio * second.max(1) as f32
                                    && (best - second) as f64 > left
                                {
                                    reason = Some(StopReason::Converged);
                                }
                            }
                            if let Some(reason) = reason {
                                *stop_reason.lock() = reason;
                                stop.store(true, Ordering::Relaxed);
                                break;
                            }
                        }
                    }
                    let (lookups, hits) = worker.cache.as_ref().map_or((0, 0), |c| (c.lookups, c.hits));
                    (worker.tree, lookups, hits)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("search worker panicked")).collect()
    });

    // Merge root statistics by move.
    let mut merged: Vec<RootChild> =
        moves.iter().map(|&mv| RootChild { mv, visits: 0, win_rate: 0.0, illegal_rate: 0.0 }).collect();
    let mut wins = vec![0.0f64; moves.len()];
    let mut illegal = vec![0u64; moves.len()];
    for (tree, _, _) in &trees {
        for (i, edge) in tree.nodes[0].edges.iter().enumerate() {
            // Every worker builds the root from the same input, so edges line up.
            debug_assert_eq!(edge.mv, moves[i]);
            merged[i].visits += edge.visits;
            wins[i] += edge.wins as f64;
            illegal[i] += edge.illegal as u64;
        }
    }
    for (i, child) in merged.iter_mut().enumerate() {
        if child.visits > 0 {
            child.win_rate = (wins[i] / child.visits as f64) as f32;
            child.illegal_rate = illegal[i] as f32 / child.visits as f32;
        }
    }
    merged.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
    let best = merged[0].mv;
    let reason = *stop_reason.lock();
    SearchResult {
        best,
        win_rate: merged[0].win_rate,
        simulations: simulations.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        children: merged,
        stop: reason,
        cache_lookups: trees.iter().map(|(_, lookups, _)| lookups).sum(),
        cache_hits: trees.iter().map(|(_, _, hits)| hits).sum(),
    }
}

/// Top tries this many in the debug summary of a search.
const SUMMARY_TRIES: usize = 5;

/// One line for the debug log: simulations, why the search stopped, and the most visited tries with their
/// visits, win rate, share of visits where they were illegal, and the probability of an opponent stone there.
pub fn search_summary(result: &SearchResult, probabilities: &[f32], size: usize) -> String {
    let tries: Vec<String> = result
        .children
        .iter()
        .take(SUMMARY_TRIES)
        .map(|child| {
            let p = child.mv.point().and_then(|point| probabilities.get(point.index())).copied().unwrap_or(0.0);
            format!(
                "{} visits {} win {:.3} illegal {:.2} p(stone) {:.2}",
                child.mv.to_vertex(size),
                child.visits,
                child.win_rate,
                child.illegal_rate,
                p
            )
        })
        .collect();
    format!(
        "search: {} simulations in {:.0} ms, stopped on {:?}; top tries: {}",
        result.simulations,
        result.elapsed.as_secs_f64() * 1000.0,
        result.stop,
        if tries.is_empty() { "none".to_string() } else { tries.join("; ") }
    )
}

/// A safe try for when there is no time to search: the candidate least likely to hold a hidden opponent stone
/// (ideally one no particle puts a stone on), legal for us in the first particle, preferring points that leave
/// the stone with two or more liberties and next to our own stones, then away from the edge (on an empty board:
/// the centre). A pass only when there is no candidate.
pub fn safe_move(input: &SearchInput) -> Move {
    let Some(board) = input.particles.first() else {
        return Move::Pass;
    };
    let geometry = board.geometry();
    let us = input.us;
    let view = input.our_view();
    let own = board.stones(us);
    let mut best: Option<(f32, i32, Point)> = None;
    for point in playout::candidates(board, us, &view).iter() {
        let p = input.probabilities.get(point.index()).copied().unwrap_or(1.0);
        let mut after = board.clone();
        if after.try_play(us, point).is_err() {
            continue;
        }
        let liberties = after.group_and_liberties(point).1.count();
        let (col, row, last) = (geometry.col(point), geometry.row(point), geometry.size() - 1);
        let from_edge = col.min(row).min(last - col).min(last - row);
        let score = if liberties >= 2 { 100 } else { 0 }
            + 8 * (geometry.neighbours(point) & own).count() as i32
            + 2 * liberties.min(4) as i32
            + from_edge.min(5) as i32;
        let better = match best {
            None => true,
            Some((best_p, best_score, _)) => p < best_p || (p == best_p && score > best_score),
        };
        if better {
            best = Some((p, score, point));
        }
    }
    best.map_or(Move::Pass, |(_, _, point)| Move::Play(point))
}

#[cfg(test)]
mod tests {
    use super::player::ring_with_group_in_atari;
    use super::*;

    fn input_from(board: Board, us: Color) -> SearchInput {
        let probabilities = board
            .geometry()
            .points()
            .map(|p| if board.stones(us.opponent()).contains(p) { 1.0 } else { 0.0 })
            .collect();
        SearchInput {
            particles: vec![board],
            probabilities,
            us,
            lose_turn: false,
            komi: 7.5,
            move_number: 0,
            tried_this_turn: Bitboard::EMPTY,
            known_opponent: Bitboard::EMPTY,
            opponent_passed: false,
            tries_left: None,
            repetition: crate::game::Repetition::Allowed,
        }
    }

    #[test]
    fn fixed_seed_and_playouts_give_the_same_move() {
        let board = Board::new(9).unwrap();
        let input = input_from(board, Color::Black);
        let limits = SearchLimits { playouts: Some(2000), ..SearchLimits::default() };
        let config = SearchConfig::default();
        let a = search(&input, &config, &limits, 1, 42, None);
        let b = search(&input, &config, &limits, 1, 42, None);
        assert_eq!(a.best, b.best);
        assert_eq!(a.children, b.children);
        assert_eq!(a.simulations, 2000);
    }

    /// White's eight stones with one liberty, at D4, inside a Black ring.
    #[test]
    fn finds_the_capture_of_a_big_group() {
        // Perfect information: capturing at D4 wins the game.
        let board = ring_with_group_in_atari();
        let mut input = input_from(board, Color::Black);
        input.komi = 30.0;
        let limits = SearchLimits { playouts: Some(3000), ..SearchLimits::default() };
        let result = search(&input, &SearchConfig::default(), &limits, 1, 7, None);
        assert_eq!(result.best, Move::Play(Point::from_coords(3, 3, 7).unwrap()), "{:?}", &result.children[..3]);
    }

    #[test]
    fn the_legal_move_cache_changes_nothing_but_speed() {
        let board = ring_with_group_in_atari();
        let input = input_from(board, Color::White);
        let limits = SearchLimits { playouts: Some(1500), ..SearchLimits::default() };
        let plain = search(&input, &SearchConfig::default(), &limits, 1, 3, None);
        let cached =
            search(&input, &SearchConfig { legal_cache: true, ..SearchConfig::default() }, &limits, 1, 3, None);
        assert_eq!(plain.children, cached.children);
        assert_eq!(plain.cache_lookups, 0);
        assert!(cached.cache_hits > 0 && cached.cache_hits <= cached.cache_lookups);
    }

    #[test]
    fn probing_bonus_only_at_uncertain_points_and_off_in_a_settled_phase() {
        let mut input = input_from(Board::new(5).unwrap(), Color::Black);
        input.probabilities[0] = 0.5; // uncertain
        input.probabilities[1] = 0.01; // settled: p(1-p) < 0.02
        let config = SearchConfig::default();
        let worker = Worker::new(&input, &config, 1);
        let bonus = |w: &Worker, index: usize| {
            w.tree.nodes[0].edges.iter().find(|e| e.mv == Move::Play(Point::new(index).unwrap())).unwrap().bonus
        };
        assert!((bonus(&worker, 0) - 0.15 * 0.25).abs() < 1e-6);
        assert_eq!(bonus(&worker, 1), 0.0);
        assert_eq!(bonus(&worker, 2), 0.0);
        // The mean p(1-p) here is about 0.01: a threshold above it switches probing off everywhere.
        let settled = SearchConfig { probe_min_mean_uncertainty: 0.02, ..SearchConfig::default() };
        let worker = Worker::new(&input, &settled, 1);
        assert_eq!(bonus(&worker, 0), 0.0);
    }

    #[test]
    fn alpha_decays_linearly_then_stays() {
        let config = SearchConfig::default();
        assert!((config.alpha(0) - 0.15).abs() < 1e-6);
        assert!((config.alpha(25) - 0.09).abs() < 1e-6);
        assert!((config.alpha(50) - 0.03).abs() < 1e-6);
        assert!((config.alpha(120) - 0.03).abs() < 1e-6);
        let fixed = SearchConfig { alpha_decay_moves: 0, ..SearchConfig::default() };
        assert!((fixed.alpha(80) - 0.15).abs() < 1e-6);
        let off = SearchConfig { info_gain: false, ..SearchConfig::default() };
        assert_eq!(off.alpha(0), 0.0);
    }

    #[test]
    fn safe_move_prefers_certainly_empty_points_and_passes_last() {
        let board = Board::new(5).unwrap();
        let mut input = input_from(board, Color::Black);
        for p in input.probabilities.iter_mut() {
            *p = 0.5;
        }
        input.probabilities[12] = 0.0; // C3
        assert_eq!(safe_move(&input), Move::Play(Point::new(12).unwrap()));
        // No certainly empty point: the least likely one, still not a pass.
        input.probabilities[12] = 0.5;
        input.probabilities[7] = 0.1; // C2
        assert_eq!(safe_move(&input), Move::Play(Point::new(7).unwrap()));
        // On an empty board with nothing known, the centre.
        let empty = input_from(Board::new(9).unwrap(), Color::Black);
        assert_eq!(safe_move(&empty).to_vertex(9), "E5");
        // Nothing left to try: pass.
        input.tried_this_turn = input.particles[0].geometry().mask();
        assert_eq!(safe_move(&input), Move::Pass);
    }
}
