//! The earlier information-set MCTS (`--player ismcts`): a tree over our tries and what we are told,
//! determinized Phantom Go playouts in which the opponent plays blind with a cheap policy, the information-gain
//! bonus alpha * p * (1 - p), root-parallel workers with merged statistics, time and convergence stops. Kept as
//! a measured rung below the main search ([`super::uct`]); docs/ablation.md was measured on it.

use super::player::{forced, ranked, run_workers_until};
use super::playout::{self, phantom_playout, policy_turn, record_try, SideView, SimTry, TurnOutcome};
use super::tree::{Edge, Node, OutcomeKey, Tree};
use super::{root_moves, RootChild, SearchConfig, SearchInput, SearchLimits, SearchResult};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::point::{Move, Point};
use crate::scoring;
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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
    /// The information bonus per point index ([`super::probe_bonuses`]).
    bonuses: Vec<f32>,
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
        let mut worker = Worker {
            input,
            config,
            tree: Tree::default(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            bonuses: super::probe_bonuses(input, config),
            cache: config.legal_cache.then(LegalCache::new),
        };
        let root = worker.make_node(root_moves(input), 0);
        worker.tree = Tree::new(root);
        worker
    }

    fn bonus(&self, mv: Move, turn_depth: u16) -> f32 {
        match mv {
            Move::Play(p) if turn_depth == 0 => self.bonuses.get(p.index()).copied().unwrap_or(0.0),
            _ => 0.0,
        }
    }

    fn make_node(&self, moves: Vec<Move>, turn_depth: u16) -> Node {
        let edges = moves.into_iter().map(|mv| Edge::new(mv, self.bonus(mv, turn_depth))).collect();
        Node { edges, visits: 0, turn_depth }
    }

    /// One simulation: determinize, walk the tree (our try, the opponent's turn), expand, play out, back up.
    fn simulate(&mut self) {
        let input = self.input;
        let us = input.us;
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
        let mut game_over = false;
        loop {
            let edge_index = self.tree.select(node, self.config.exploration, self.rng.next_u32());
            path.push((node, edge_index));
            let edge = &self.tree.nodes[node as usize].edges[edge_index];
            let (mv, edge_visits) = (edge.mv, edge.visits);
            let turn_depth = self.tree.nodes[node as usize].turn_depth;
            let Some((mut key, turn_passed)) = self.our_try(&mut sim, node, edge_index, mv) else {
                game_over = true;
                break;
            };
            if turn_passed {
                match self.opponent_turn(&mut sim) {
                    None => {
                        game_over = true;
                        break;
                    }
                    Some(true) => key = OutcomeKey::Eventful,
                    Some(false) => {}
                }
            }
            let child = self.tree.nodes[node as usize].edges[edge_index].child(key);
            if child != 0 {
                node = child;
                continue;
            }
            if edge_visits + 1 >= self.config.expand_after && self.tree.nodes.len() < self.config.max_nodes {
                self.expand(node, edge_index, key, turn_depth, &sim);
            }
            break;
        }
        if !game_over {
            // Every step of the walk ends with us to move: our turn again, or the same turn after a refusal.
            let them = us.opponent();
            let result = phantom_playout(
                &mut sim.board,
                us,
                &mut sim.views,
                sim.passes,
                input.lose_turn,
                &self.config.policy,
                &mut self.rng,
            );
            sim.captures[us] += result.captures[us];
            sim.captures[them] += result.captures[them];
        }
        let reward = self.reward(&sim);
        self.back_up(&path, reward);
    }

    /// Our try `mv` (the edge `edge_index` of `node`) on the simulated board: its outcome for the tree and
    /// whether the turn passed to the opponent; `None` when our pass ended the game.
    fn our_try(&mut self, sim: &mut Simulation, node: u32, edge_index: usize, mv: Move) -> Option<(OutcomeKey, bool)> {
        let us = self.input.us;
        let them = us.opponent();
        let mut turn_passed = false;
        let key = match mv {
            Move::Pass => {
                sim.board.pass();
                sim.views[us].tried_this_turn = Bitboard::EMPTY;
                sim.passes += 1;
                if sim.passes >= 2 {
                    return None;
                }
                turn_passed = true;
                OutcomeKey::Quiet
            }
            // Our stone in this determinization (the info sets differ deeper down): count it illegal.
            Move::Play(point) if sim.board.stones(us).contains(point) => OutcomeKey::Illegal,
            Move::Play(point) => {
                let result = match self.cache.as_mut() {
                    Some(cache) => cache.try_play(&mut sim.board, us, point),
                    None => sim.board.try_play(us, point).map_err(|_| ()),
                };
                match record_try(&sim.board, us, point, &mut sim.views[us], result) {
                    SimTry::Illegal => OutcomeKey::Illegal,
                    SimTry::Ok(captured) => {
                        sim.passes = 0;
                        turn_passed = true;
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
        };
        if key == OutcomeKey::Illegal {
            self.tree.nodes[node as usize].edges[edge_index].illegal += 1;
            if self.input.lose_turn {
                sim.views[us].tried_this_turn = Bitboard::EMPTY;
                sim.board.pass();
                sim.passes = 0;
                turn_passed = true;
            }
        }
        Some((key, turn_passed))
    }

    /// The opponent's whole turn with the playout policy: `Some(true)` when it captured our stones,
    /// `Some(false)` otherwise, `None` when its pass ended the game.
    fn opponent_turn(&mut self, sim: &mut Simulation) -> Option<bool> {
        let us = self.input.us;
        let them = us.opponent();
        let outcome = policy_turn(
            &mut sim.board,
            them,
            &mut sim.views[them],
            self.input.lose_turn,
            &self.config.policy,
            &mut self.rng,
        );
        match outcome {
            TurnOutcome::Moved(captured) => {
                sim.passes = 0;
                if captured.any() {
                    sim.captures[them] += captured.count();
                    sim.views[them].known_opponent &= sim.board.stones(us);
                    return Some(true);
                }
                Some(false)
            }
            TurnOutcome::Passed => {
                sim.passes += 1;
                if sim.passes >= 2 {
                    None
                } else {
                    Some(false)
                }
            }
            TurnOutcome::LostTurn => {
                sim.passes = 0;
                Some(false)
            }
        }
    }

    /// Adds the node reached by outcome `key` of edge `edge_index` of `node`: the same turn after a refused
    /// try under `retry` (the refused points left out), else our next turn.
    fn expand(&mut self, node: u32, edge_index: usize, key: OutcomeKey, turn_depth: u16, sim: &Simulation) {
        let us = self.input.us;
        let same_turn = key == OutcomeKey::Illegal && !self.input.lose_turn;
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

    /// Our reward for the simulated game: win/loss of the area margin plus `capture_bonus` per stone captured
    /// (taken per stone lost); a level result gets the tie rule's value.
    fn reward(&self, sim: &Simulation) -> f32 {
        let us = self.input.us;
        let them = us.opponent();
        let margin = scoring::score(&sim.board, self.input.komi) * if us == Color::Black { 1.0 } else { -1.0 };
        let adjusted = margin + self.config.capture_bonus * (sim.captures[us] as f32 - sim.captures[them] as f32);
        if adjusted > 0.0 {
            1.0
        } else if adjusted < 0.0 {
            0.0
        } else {
            self.config.tie.reward(0.0, us)
        }
    }

    /// Adds the reward to every edge walked.
    fn back_up(&mut self, path: &[(u32, usize)], reward: f32) {
        for &(node, edge_index) in path {
            let node = &mut self.tree.nodes[node as usize];
            node.visits += 1;
            let edge = &mut node.edges[edge_index];
            edge.visits += 1;
            edge.wins += reward;
        }
    }

    fn root_visits(&self) -> impl Iterator<Item = u32> + '_ {
        self.tree.nodes[0].edges.iter().map(|e| e.visits)
    }
}

/// Runs the search with `threads` root-parallel workers (each its own tree and seeded RNG; statistics merged at
/// the end, nothing shared on the hot path but a simulation counter and the stop flag) through
/// [`run_workers_until`]: playouts, time, or a leader that can no longer be caught. `external_stop` lets a
/// caller end the search early.
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
        return forced(moves[0], start);
    }
    let make = |seed: u64| Worker::new(input, config, seed);
    let step = |w: &mut Worker| w.simulate();
    // Converged: the leader has `convergence_ratio` times the visits of the runner-up and the simulations
    // left in the budget (at the current rate) could not close the gap.
    let settled = |w: &Worker, left: f64| super::leader_is_safe(w.root_visits(), config.convergence_ratio, left);
    let (workers, simulations, stop) =
        run_workers_until(limits, config.default_playouts, threads, seed, external_stop, make, step, settled);
    let mut result = ranked(merge_roots(&moves, &workers), simulations, start, stop);
    for worker in &workers {
        let (lookups, hits) = worker.cache.as_ref().map_or((0, 0), |c| (c.lookups, c.hits));
        result.cache_lookups += lookups;
        result.cache_hits += hits;
    }
    result
}

/// The workers' root statistics merged by move (every worker builds the root from the same input, so the edges
/// line up), most visited first.
fn merge_roots(moves: &[Move], workers: &[Worker]) -> Vec<RootChild> {
    let mut merged: Vec<RootChild> =
        moves.iter().map(|&mv| RootChild { mv, visits: 0, win_rate: 0.0, illegal_rate: 0.0, margin: 0.0 }).collect();
    let mut wins = vec![0.0f64; moves.len()];
    let mut illegal = vec![0u64; moves.len()];
    for worker in workers {
        for (i, edge) in worker.tree.nodes[0].edges.iter().enumerate() {
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
    merged
}

#[cfg(test)]
mod tests {
    use super::super::player::ring_with_group_in_atari;
    use super::*;

    /// `board` as the only particle, komi 7.5, no opponent stone known.
    fn input_from(board: Board, us: Color) -> SearchInput {
        SearchInput { known_opponent: Bitboard::EMPTY, ..SearchInput::for_test(vec![board], us, 7.5) }
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
        let config = SearchConfig { info_gain: true, ..SearchConfig::default() };
        let worker = Worker::new(&input, &config, 1);
        let bonus = |w: &Worker, index: usize| {
            w.tree.nodes[0].edges.iter().find(|e| e.mv == Move::Play(Point::new(index).unwrap())).unwrap().bonus
        };
        assert!((bonus(&worker, 0) - 0.15 * 0.25).abs() < 1e-6);
        assert_eq!(bonus(&worker, 1), 0.0);
        assert_eq!(bonus(&worker, 2), 0.0);
        // The mean p(1-p) here is about 0.01: a threshold above it switches probing off everywhere.
        let settled = SearchConfig { probe_min_mean_uncertainty: 0.02, ..config.clone() };
        let worker = Worker::new(&input, &settled, 1);
        assert_eq!(bonus(&worker, 0), 0.0);
    }
}
