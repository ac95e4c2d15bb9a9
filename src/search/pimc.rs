//! `pimc`: determinized (perfect-information Monte Carlo) UCT after InTheDark (Borsboom, Saito, Chaslot,
//! Uiterwijk, "A Comparison of Monte-Carlo Methods for Phantom Go", BNAIC 2007; Olympiad 2007 entrant).
//!
//! Each simulation samples one full board, a particle of our belief (so that the gap to our engine measures
//! the search, not the belief; InTheDark placed the unseen stones at random), and plays perfect-information
//! UCT on it: one tree over our moves and the opponent's moves, shared by all samples, with no nodes for
//! what the referee tells us. In each sample only the moves legal there are offered (a point holding a
//! stone in that sample is not a move of it), so a try that is often occupied is visited less. Selection
//! is UCB1 over the moves available in the sample, an unvisited available move first (at random among
//! them); one node is added per simulation (the first edge walked that has no node); from there a plain
//! uniformly random game is played to the end on the sample ([`random_playout`]), scored by area with
//! komi: win 1, draw 0.5, loss 0, backed up for the side to move at each node. The most visited try is
//! played. Refused tries of this turn and the opponent stones we know are never offered at the root; a pass
//! is offered at the root only when nothing else is left or the opponent has just passed, and in the tree
//! only when the side to move has no legal move. Root-parallel threads merge root statistics by move.
//!
//! Parameters ([`PimcConfig`]): UCB1 constant 0.7 and the node cap are ours (the paper's own constant could
//! not be checked here); the budget is the engine's (`--playouts` per try, or the time manager's limits),
//! never less than our engine gets at equal settings.
//!
//! Illegal tries never happen inside the search (each sample is played as if seen), so `retry` and
//! `lose-turn` differ only in the real game, where a refused try is excluded for the rest of the turn.

use super::player::{forced, ranked, run_workers, Player, PlayerInput};
use super::playout::{below, random_playout};
use super::SearchLimits;
use super::{root_moves, RootChild, SearchResult};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};
use crate::scoring;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Settings of the `pimc` player.
#[derive(Clone, Debug, PartialEq)]
pub struct PimcConfig {
    /// UCB1 exploration constant c in mean + c * sqrt(ln N / n).
    pub exploration: f32,
    /// Cap on nodes per worker tree; past it the tree stops growing and simulations still run.
    pub max_nodes: usize,
    /// Simulations per genmove when neither playouts nor time are given.
    pub default_playouts: u64,
    /// Cap on the moves of one random game, as a multiple of the number of points (ko cycles).
    pub moves_per_point: u32,
}

impl Default for PimcConfig {
    fn default() -> Self {
        PimcConfig { exploration: 0.7, max_nodes: 100_000, default_playouts: 20_000, moves_per_point: 3 }
    }
}

/// The determinized-UCT player.
#[derive(Clone, Debug, Default)]
pub struct Pimc {
    /// Its settings.
    pub config: PimcConfig,
}

const NO_EDGE: u16 = u16::MAX;

/// One move out of a node: its statistics for the side to move at the node, and the node it leads to.
#[derive(Clone, Debug)]
struct Edge {
    visits: u32,
    wins: f32,
    child: u32,
}

/// A position reached by a sequence of moves (whatever the sample); edges only for moves walked.
#[derive(Clone, Debug)]
struct Node {
    /// Per point index (and the pass at `area`), the index of its edge, or `NO_EDGE`.
    slot: Vec<u16>,
    edges: Vec<Edge>,
    visits: u32,
    /// The first sample that reached the node, and whether another sample has reached it since.
    first_sample: u32,
    shared: bool,
}

impl Node {
    fn new(area: usize, sample: u32) -> Node {
        Node { slot: vec![NO_EDGE; area + 1], edges: Vec::new(), visits: 0, first_sample: sample, shared: false }
    }
}

/// One worker: its tree and random source.
struct Worker {
    nodes: Vec<Node>,
    rng: Xoshiro256PlusPlus,
    /// The most moves one walk down the tree took.
    max_depth: usize,
}

/// Tree statistics of one worker, for tests and logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStats {
    /// Nodes in the tree.
    pub nodes: usize,
    /// Visits of the root.
    pub root_visits: u32,
    /// Nodes below the root reached from two different samples or more.
    pub shared_nodes: usize,
    /// The most moves one walk down the tree took (at most the random game's cap on moves).
    pub max_depth: usize,
}

struct Search<'a> {
    input: &'a PlayerInput,
    config: &'a PimcConfig,
    particles: Vec<Board>,
    root_points: Bitboard,
    root_pass: bool,
    area: usize,
    cap: u32,
}

impl<'a> Search<'a> {
    fn new(input: &'a PlayerInput, config: &'a PimcConfig) -> Search<'a> {
        let particles =
            if input.search.particles.is_empty() { vec![input.known.clone()] } else { input.search.particles.clone() };
        let moves = root_moves(&input.search);
        let area = input.known.geometry().area();
        Search {
            input,
            config,
            particles,
            root_points: moves.iter().filter_map(|m| m.point()).collect(),
            root_pass: moves.contains(&Move::Pass),
            area,
            cap: config.moves_per_point * area as u32,
        }
    }

    fn slot(&self, mv: Move) -> usize {
        mv.point().map_or(self.area, Point::index)
    }

    /// UCB1 over the moves of `offered` (and the pass when `pass` is true): an unvisited one first.
    fn select(&self, worker: &mut Worker, node: u32, offered: Bitboard, pass: bool) -> Option<Move> {
        let n = &worker.nodes[node as usize];
        let mut unvisited: Vec<Move> =
            offered.iter().filter(|p| n.slot[p.index()] == NO_EDGE).map(Move::Play).collect();
        if pass && n.slot[self.area] == NO_EDGE {
            unvisited.push(Move::Pass);
        }
        if !unvisited.is_empty() {
            return Some(unvisited[below(&mut worker.rng, unvisited.len() as u32) as usize]);
        }
        let log_n = (n.visits.max(1) as f32).ln();
        let c = self.config.exploration;
        let mut best: Option<(f32, Move)> = None;
        let moves = offered.iter().map(Move::Play).chain(pass.then_some(Move::Pass));
        for mv in moves {
            let edge = &n.edges[n.slot[self.slot(mv)] as usize];
            let value = edge.wins / edge.visits as f32 + c * (log_n / edge.visits as f32).sqrt();
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// The edge of `mv` at `node`, made when first walked.
    fn edge(&self, worker: &mut Worker, node: u32, mv: Move) -> usize {
        let slot = self.slot(mv);
        let n = &mut worker.nodes[node as usize];
        if n.slot[slot] == NO_EDGE {
            n.slot[slot] = n.edges.len() as u16;
            n.edges.push(Edge { visits: 0, wins: 0.0, child: 0 });
        }
        n.slot[slot] as usize
    }

    /// Walks the tree on `board` from the root; plays the moves; returns the path, whether the game ended in
    /// the tree, and the side to move after it.
    fn descend(&self, worker: &mut Worker, board: &mut Board, sample: u32) -> (Vec<(u32, usize)>, bool, Color) {
        let mut path = Vec::with_capacity(16);
        let mut node = 0u32;
        let mut to_move = self.input.search.us;
        let mut passes = u32::from(self.input.search.opponent_passed);
        loop {
            {
                let n = &mut worker.nodes[node as usize];
                if n.first_sample != sample {
                    n.shared = true;
                }
            }
            let (mut offered, pass_allowed) = if node == 0 {
                (self.root_points & board.empty(), self.root_pass)
            } else {
                (board.empty() - board.single_point_eyes(to_move), false)
            };
            // Pick among the offered moves; one found illegal in this sample (suicide, ko) is dropped.
            let mv = loop {
                let pass = pass_allowed || offered.is_empty();
                let Some(mv) = self.select(worker, node, offered, pass) else { break Move::Pass };
                match mv {
                    Move::Pass => break mv,
                    Move::Play(p) if board.try_play(to_move, p).is_ok() => break mv,
                    Move::Play(p) => offered.remove(p),
                }
            };
            let edge = self.edge(worker, node, mv);
            path.push((node, edge));
            if mv == Move::Pass {
                board.pass();
                passes += 1;
            } else {
                passes = 0;
            }
            to_move = to_move.opponent();
            // Two passes end the game; so does the random game's cap on moves, which the walk down the tree
            // reaches only in a cycle of captures (without it, each simulation of such a cycle walks one move
            // deeper than the last).
            if passes >= 2 || path.len() >= self.cap as usize {
                worker.max_depth = worker.max_depth.max(path.len());
                return (path, true, to_move);
            }
            let child = worker.nodes[node as usize].edges[edge].child;
            if child != 0 {
                node = child;
                continue;
            }
            worker.max_depth = worker.max_depth.max(path.len());
            if worker.nodes.len() < self.config.max_nodes {
                let index = worker.nodes.len() as u32;
                worker.nodes.push(Node::new(self.area, sample));
                worker.nodes[node as usize].edges[edge].child = index;
            }
            return (path, false, to_move);
        }
    }

    fn simulate(&self, worker: &mut Worker) {
        let us = self.input.search.us;
        let sample = below(&mut worker.rng, self.particles.len() as u32);
        let mut board = self.particles[sample as usize].clone();
        let (path, ended, to_move) = self.descend(worker, &mut board, sample);
        if !ended {
            random_playout(&mut board, to_move, &mut worker.rng, self.cap);
        }
        let margin = scoring::score(&board, self.input.search.komi) * if us == Color::Black { 1.0 } else { -1.0 };
        let reward = if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            0.5
        };
        let mut mover = us;
        for (node, edge) in path {
            let n = &mut worker.nodes[node as usize];
            n.visits += 1;
            let e = &mut n.edges[edge];
            e.visits += 1;
            e.wins += if mover == us { reward } else { 1.0 - reward };
            mover = mover.opponent();
        }
    }

    fn new_worker(&self, seed: u64) -> Worker {
        Worker {
            nodes: vec![Node::new(self.area, u32::MAX)],
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            max_depth: 0,
        }
    }
}

impl Pimc {
    /// Runs the search and returns the answer with each worker's tree statistics.
    pub fn search(
        &self,
        input: &PlayerInput,
        limits: &SearchLimits,
        threads: usize,
        seed: u64,
    ) -> (SearchResult, Vec<TreeStats>) {
        let start = Instant::now();
        let search = Search::new(input, &self.config);
        let moves = root_moves(&input.search);
        if moves.len() == 1 {
            return (forced(moves[0], start), Vec::new());
        }
        let make = |seed: u64| search.new_worker(seed);
        let step = |w: &mut Worker| search.simulate(w);
        let (workers, simulations, stop) =
            run_workers(limits, self.config.default_playouts, threads, seed, None, make, step);
        let mut children: Vec<RootChild> = moves
            .iter()
            .map(|&mv| {
                let slot = search.slot(mv);
                let (mut visits, mut wins) = (0u32, 0.0f64);
                for w in &workers {
                    let root = &w.nodes[0];
                    if root.slot[slot] != NO_EDGE {
                        let e = &root.edges[root.slot[slot] as usize];
                        visits += e.visits;
                        wins += f64::from(e.wins);
                    }
                }
                let win_rate = if visits == 0 { 0.0 } else { (wins / f64::from(visits)) as f32 };
                RootChild { mv, visits, win_rate, illegal_rate: 0.0, margin: 0.0 }
            })
            .collect();
        children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
        let stats = workers
            .iter()
            .map(|w| TreeStats {
                nodes: w.nodes.len(),
                root_visits: w.nodes[0].visits,
                shared_nodes: w.nodes[1..].iter().filter(|n| n.shared).count(),
                max_depth: w.max_depth,
            })
            .collect();
        let result = ranked(children, simulations, start, stop);
        (result, stats)
    }
}

impl Player for Pimc {
    fn choose(&self, input: &PlayerInput, limits: &SearchLimits, threads: usize, seed: u64) -> SearchResult {
        self.search(input, limits, threads, seed).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::player::{ring_with_group_in_atari, seen_input};

    fn limits(n: u64) -> SearchLimits {
        SearchLimits { playouts: Some(n), ..SearchLimits::default() }
    }

    fn pt(col: usize, row: usize) -> Point {
        Point::from_coords(col, row, 7).unwrap()
    }

    #[test]
    fn finds_the_capture_of_a_big_group() {
        let board = ring_with_group_in_atari();
        let input = seen_input(board, Color::Black, 7.5);
        let result = Pimc::default().choose(&input, &limits(3000), 1, 7);
        assert_eq!(result.best, Move::Play(pt(3, 3)), "{:?}", &result.children[..3]);
    }

    /// Two samples of one position: a hidden white stone at C3 in one, at E5 in the other.
    fn two_samples() -> PlayerInput {
        let mut input = seen_input(Board::new(7).unwrap(), Color::Black, 7.5);
        let mut one = input.known.clone();
        one.put_stone(Color::White, pt(2, 2));
        let mut other = input.known.clone();
        other.put_stone(Color::White, pt(4, 4));
        input.search.particles = vec![one, other];
        input.unseen_opponent = 1;
        input
    }

    /// On a 2x2 board the tree soon reaches cycles of captures, where every simulation would walk one move
    /// deeper than the last (56 moves in 20,000 simulations here; 80 seconds for one 8,000-simulation move of a
    /// 9x9 game was seen before the cap): the walk stops at the random game's cap on moves (3 per point).
    #[test]
    fn the_walk_down_the_tree_stops_at_the_cap_on_moves() {
        let input = seen_input(Board::new(2).unwrap(), Color::Black, 2.5);
        let (_, stats) = Pimc::default().search(&input, &limits(20_000), 1, 5);
        let cap = PimcConfig::default().moves_per_point as usize * 4;
        assert_eq!(stats[0].max_depth, cap, "the walk reaches the cap and stops there: {:?}", stats[0]);
    }

    #[test]
    fn one_tree_gathers_the_statistics_of_every_sample() {
        let input = two_samples();
        let (result, stats) = Pimc::default().search(&input, &limits(2000), 1, 3);
        assert_eq!(result.simulations, 2000);
        let tree = stats[0];
        assert_eq!(tree.root_visits, 2000, "every simulation walks the one tree");
        assert!(tree.nodes <= 2001, "one node a simulation at most: {tree:?}");
        assert!(tree.shared_nodes > 100, "nodes below the root are reached from both samples: {tree:?}");
        // A point holding a stone in one sample is a move only in the other: about half the chances.
        let visits = |p: Point| result.children.iter().find(|c| c.mv == Move::Play(p)).map_or(0, |c| c.visits);
        assert!(visits(pt(2, 2)) > 0 && visits(pt(4, 4)) > 0);
    }

    #[test]
    fn a_point_occupied_in_every_sample_is_never_searched() {
        let mut input = two_samples();
        for particle in &mut input.search.particles {
            particle.put_stone(Color::White, pt(0, 6));
        }
        let (result, _) = Pimc::default().search(&input, &limits(1000), 1, 5);
        let a7 = result.children.iter().find(|c| c.mv == Move::Play(pt(0, 6))).unwrap();
        assert_eq!(a7.visits, 0);
        assert_ne!(result.best, Move::Play(pt(0, 6)));
    }

    #[test]
    fn a_fixed_seed_repeats_the_search_and_refused_tries_are_not_offered() {
        let mut input = two_samples();
        input.search.tried_this_turn = Bitboard::from_point(pt(3, 3));
        let a = Pimc::default().choose(&input, &limits(1500), 1, 9);
        let b = Pimc::default().choose(&input, &limits(1500), 1, 9);
        assert_eq!(a, SearchResult { elapsed: a.elapsed, ..b.clone() });
        assert!(a.children.iter().all(|c| c.mv != Move::Play(pt(3, 3))));
        let threads = Pimc::default().choose(&input, &limits(1500), 2, 9);
        assert_eq!(threads.simulations, 1500);
        assert_eq!(threads.children.iter().map(|c| c.visits).sum::<u32>(), 1500);
    }
}
