//! The engine's main search: determinized UCT with RAVE over the belief's particles, priced for the rules of
//! illegal tries.
//!
//! Each simulation draws one particle (a full board consistent with everything we were told) and walks one tree
//! of both sides' moves, shared by all particles, playing perfect-information moves on the drawn board; below
//! the tree the playout policy ([`super::policy`]) plays to the end, and the area score decides the reward.
//! The opponent's moves in the tree are chosen for the opponent (its own UCB), so a try is judged against the
//! best replies the samples allow, not against a random opponent.
//!
//! The root is where Phantom Go differs. Under `retry` a try that a particle shows occupied (or suicide, or ko)
//! is not offered in that particle: a refused try costs nothing but the retry, so a try's value is its value
//! where it is legal, and a try that is often occupied is visited less. Under `lose-turn` every candidate is
//! offered in every particle, and where it is illegal the turn passes to the opponent (a separate child): the
//! chance of a hidden stone is priced in the try's value. At the root a pass is offered once the opponent has
//! passed or the particles are settled; the engine does not pass while half the particles show an opponent
//! stone standing inside its area (an invader), unless every try is clearly worse; under `retry`, before it
//! passes, it tries a point where a few particles show an unseen invader (a clean-up probe: a refusal finds the
//! stone, an accepted try fills its own area), and a try whose win rate where it is legal clearly beats the
//! pass's ([`try_before_passing`]). While the opponent holds a ko against us, the root also offers our
//! spare single-point eyes as waiting moves ([`waiting_fills`]): where our area holds nothing but eyes, a pass
//! was the only waiting move left, and it lets the opponent end the game by passing before we may retake.
//! When every well-searched try is lost, the win rates no longer tell them apart and the best mean final margin
//! chooses ([`play_on_when_lost`]): a lost engine defends what it has instead of passing while it is taken.
//!
//! Selection is UCB on the blend of the move's own mean and its all-moves-as-first (RAVE) mean, with the RAVE
//! weight beta = n_amaf / (n_amaf + n + n_amaf * n / k) (Gelly and Silver, 2007). Workers are root-parallel
//! (one tree each, merged by move at the end); with one thread, a playout limit and a seed the search repeats.

use super::player::{forced, ranked, run_workers_until};
use super::playout::below;
use super::policy::{self, Played, Replies, ReplyState};
use super::{root_moves, RootChild, SearchConfig, SearchInput, SearchLimits, SearchResult, DEFAULT_TIE_JITTER};
use crate::bitboard::{with_shape, Bitboard, Shape};
use crate::chains::ChainBoard;
use crate::color::Color;
use crate::game::Repetition;
use crate::point::{Move, Point};
use crate::scoring;
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Statistics of one move out of a node, for the side to move there: the four numbers selection reads, in 16
/// bytes (a node's 82 edges in 21 cache lines; deep nodes come from memory), the child apart.
#[derive(Clone, Copy, Debug, Default)]
struct EdgeStats {
    visits: u32,
    wins: f32,
    amaf_visits: u32,
    amaf_wins: f32,
}

/// A position reached by a sequence of moves and outcomes (whatever the particle): one slot per point, and the
/// pass at slot `area`; its edges' statistics are in the worker's [`EdgeArena`] under the node's index.
struct Node {
    to_move: Color,
    visits: u32,
    /// The node after each slot's move (0: none yet); empty until the node's first child (most nodes are leaves).
    children: Vec<u32>,
}

/// Nodes in each block of an [`EdgeArena`] (336 KiB of 9x9 edges).
const BLOCK_NODES: usize = 256;

/// The edge statistics of a worker's nodes, `stride` (one per slot) a node, in blocks of [`BLOCK_NODES`] nodes:
/// a node's edges lie where its index says, so a child's can be fetched from memory while the move to it is
/// played, and the tree grows without an allocation per node or a copy of what it holds.
struct EdgeArena {
    blocks: Vec<Vec<EdgeStats>>,
    stride: usize,
}

impl EdgeArena {
    /// The block and the offset in it of `node`'s edges.
    #[inline(always)]
    fn place(&self, node: u32) -> (usize, usize) {
        let node = node as usize;
        (node / BLOCK_NODES, node % BLOCK_NODES * self.stride)
    }

    #[inline(always)]
    fn edges(&self, node: u32) -> &[EdgeStats] {
        let (block, offset) = self.place(node);
        &self.blocks[block][offset..offset + self.stride]
    }

    #[inline(always)]
    fn edges_mut(&mut self, node: u32) -> &mut [EdgeStats] {
        let (block, offset) = self.place(node);
        &mut self.blocks[block][offset..offset + self.stride]
    }

    /// Zeroed edges for `node`, the next index: a new block when the last one is full.
    fn add(&mut self, node: u32) {
        if node as usize >= self.blocks.len() * BLOCK_NODES {
            self.blocks.push(vec![EdgeStats::default(); BLOCK_NODES * self.stride]);
        }
    }
}

/// Asks the processor to bring the cache lines of `items` into the cache (a hint: nothing is read, and no
/// answer changes).
#[inline(always)]
fn prefetch<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = items.as_ptr() as usize;
        let end = start + std::mem::size_of_val(items);
        // From the line of the first byte to the line of the last.
        let mut line = start & !63;
        while line < end {
            // SAFETY: a prefetch is a hint that neither reads into the program nor faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line as *const i8) };
            line += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}

/// A random perturbation of up to 0.0168 x `scale` for `slot` (one `draw` per selection, mixed with the slot): it
/// breaks ties at random instead of by point order and blurs differences below it. `scale` is
/// [`SearchConfig::tie_jitter`] over [`DEFAULT_TIE_JITTER`] (exactly 1.0 at the default, so the default's numbers
/// are those every earlier measured line was played with).
#[inline(always)]
fn jitter(draw: u32, slot: usize, scale: f32) -> f32 {
    ((slot as u32 ^ draw).wrapping_mul(0x9E37_79B1) >> 8) as f32 * 1e-9 * scale
}

/// The multiplier of [`jitter`] under `config`: `tie_jitter` over its default (exactly 1.0 there).
fn jitter_scale(config: &SearchConfig) -> f32 {
    config.tie_jitter / DEFAULT_TIE_JITTER
}

/// Visits of a node from which selection computes all its edges' values in one pass ([`Uct::values`]).
const BATCH_VISITS: u32 = 16;

/// The node of the opponent's tree's root in a worker that keeps one tree per player
/// ([`SearchConfig::observer_trees`]); our tree's root is node 0.
const THEIR_ROOT: u32 = 1;

/// What only the root has (a try is refused only there: below it only legal points are offered), per slot:
/// the node after the try was refused and the turn lost (`lose-turn` only; 0: none yet), the visits in
/// which the try was refused, and the sum and count of our final area margins of this search's simulations
/// through the try (for [`play_on_when_lost`]; a kept tree's margins are not carried).
struct RootRefusals {
    lost_children: Vec<u32>,
    refused: Vec<u32>,
    margins: Vec<f64>,
    margin_visits: Vec<u32>,
}

/// One worker: its tree, random source and scratch buffers.
struct Worker {
    nodes: Vec<Node>,
    /// The nodes' edge statistics.
    edges: EdgeArena,
    root: RootRefusals,
    rng: Xoshiro256PlusPlus,
    played: Vec<Played>,
    path: Vec<Step>,
    /// Selection's scratch: the slots offered at a node, padded to a multiple of 4, and their values
    /// ([`Uct::values`]).
    slots: [u8; 128],
    values: [f32; 128],
    /// Whether this simulation's root try was refused (`lose-turn`), for [`SearchConfig::refusal_cost`].
    refused_at_root: bool,
    /// The playouts' last good replies ([`SearchConfig::last_good_reply`]), learnt from this worker's simulations.
    replies: Replies,
}

impl Worker {
    /// A new node with `to_move` to play and its zeroed edges; returns its index.
    fn add_node(&mut self, to_move: Color) -> u32 {
        let index = self.nodes.len() as u32;
        self.edges.add(index);
        self.nodes.push(Node { to_move, visits: 0, children: Vec::new() });
        index
    }
}

/// One step of a simulation's walk down the tree: the node, the slot chosen, and where in the move record the
/// node's turn starts (for RAVE).
#[derive(Clone, Copy)]
struct Step {
    node: u32,
    slot: usize,
    first_move: usize,
}

/// How a simulated game stands when the walk down the tree ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// Still going: a playout finishes it.
    Open,
    /// Over (two passes or the referee's cap on tries): the area score decides.
    Scored,
    /// Our try recreated an earlier position under `repetition=draw`: the referee ends it as a draw.
    Drawn,
}

/// The main search's trees, kept for the next search. Under `retry` a refused try leaves the position as it
/// was: the tree of the search that chose the try still describes the root, less that try (its statistics came
/// from particles the refusal partly rules out), so the next search of the turn starts from it (statistics
/// scaled by [`SearchConfig::reuse_decay`], the refused tries' root edges cleared) instead of from nothing;
/// about a third of a game's tries are retries. At our next turn, when the try stood, the new root's edges start
/// from the statistics two moves down (our try, then each reply), scaled by [`SearchConfig::reply_prior`]. The
/// old trees are dropped as soon as the new search has what it takes from them.
#[derive(Default)]
pub struct KeptTrees {
    kept: Option<Kept>,
}

/// One search's workers and what they were searched for.
struct Kept {
    turn: TurnKey,
    /// The tries refused this turn when the trees were searched.
    tried: Bitboard,
    /// The try the search chose (refused, if the trees are to be used again).
    best: Point,
    /// The share of the search's particles in which `best` was not a legal try (counted only with
    /// [`SearchConfig::carry_consistent`], which alone reads it; 0 without).
    best_refused: f32,
    /// Worker t's tree at t.
    workers: Vec<Worker>,
    /// Searched ahead of the turn (pondering on the opponent's time): the trees describe this very root and
    /// serve its search whole, as long as nothing was refused since.
    pondered: bool,
}

/// What must not change between two searches of one game for the first's trees to serve the second.
#[derive(Clone, Copy, Debug, PartialEq)]
struct GameKey {
    us: Color,
    komi: u32,
    area: usize,
    threads: usize,
    repetition: Repetition,
}

/// Where a search stands: its game, its turn, our stones and whether the opponent had just passed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TurnKey {
    game: GameKey,
    move_number: u32,
    ours: Bitboard,
    opponent_passed: bool,
}

impl TurnKey {
    fn of(input: &SearchInput, threads: usize) -> Option<TurnKey> {
        let first = input.particles.first()?;
        Some(TurnKey {
            game: GameKey {
                us: input.us,
                komi: input.komi.to_bits(),
                area: first.geometry().area(),
                threads: threads.max(1),
                repetition: input.repetition,
            },
            move_number: input.move_number,
            ours: first.stones(input.us),
            opponent_passed: input.opponent_passed,
        })
    }
}

impl KeptTrees {
    /// Forgets the kept trees (a new game, an undo).
    pub fn clear(&mut self) {
        self.kept = None;
    }

    /// Whether trees are kept for a next search.
    #[cfg(test)]
    pub(crate) fn is_kept(&self) -> bool {
        self.kept.is_some()
    }

    /// Marks the kept trees as searched ahead of their turn (pondering): the next search of that same root,
    /// with the same tries refused, starts from them whole ([`Carry::Pondered`]).
    pub fn mark_pondered(&mut self) {
        if let Some(kept) = self.kept.as_mut() {
            kept.pondered = true;
        }
    }

    /// Root visits the kept trees hold (over all workers), 0 when none are kept.
    pub fn root_visits(&self) -> u64 {
        self.kept.as_ref().map_or(0, |kept| kept.workers.iter().map(|w| u64::from(w.nodes[0].visits)).sum())
    }

    /// What the kept trees offer a search of `input` with `threads` workers (taken either way): the whole trees
    /// when it is the same turn, position and settings under `retry` with the kept search's choice refused
    /// since; the statistics after our try and each reply when it is our next turn and that try stands on the
    /// board; nothing otherwise.
    fn take_for(&mut self, input: &SearchInput, threads: usize) -> Option<(Kept, Carry)> {
        let kept = self.kept.take()?;
        let turn = TurnKey::of(input, threads)?;
        if kept.pondered {
            let same = turn == kept.turn && kept.tried == input.tried_this_turn;
            return same.then_some((kept, Carry::Pondered));
        }
        let same = !input.lose_turn
            && turn == kept.turn
            && input.tried_this_turn.contains(kept.best)
            && (kept.tried - input.tried_this_turn).is_empty();
        let next = turn.game == kept.turn.game
            && turn.move_number == kept.turn.move_number + 2
            && turn.ours.contains(kept.best);
        match (same, next) {
            (true, _) => Some((kept, Carry::Refused)),
            (_, true) => Some((kept, Carry::Played)),
            _ => None,
        }
    }
}

/// How kept trees serve the next search: the same turn after a refusal, or our next turn after the try stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Carry {
    Refused,
    Played,
    /// Searched ahead on the opponent's time for this very root: the trees serve whole.
    Pondered,
}

impl Carry {
    /// The share of the kept statistics the referee's answer left standing, given the share of the particles in
    /// which the chosen try was illegal: those particles after a refusal, the others after the try stood; all
    /// of them unless [`SearchConfig::carry_consistent`].
    fn standing(self, config: &SearchConfig, best_refused: f32) -> f32 {
        match (config.carry_consistent, self) {
            (false, _) => 1.0,
            (true, Carry::Refused) => best_refused,
            (true, Carry::Played) => 1.0 - best_refused,
            (_, Carry::Pondered) => 1.0,
        }
    }
}

/// The settings and root facts shared by all workers of one search.
struct Uct<'a> {
    input: &'a SearchInput,
    config: &'a SearchConfig,
    particles: Vec<ChainBoard>,
    root_points: Bitboard,
    root_pass: bool,
    /// The information bonus of each root slot (alpha * p * (1 - p) where probing is on; 0 elsewhere).
    root_bonus: Vec<f32>,
    /// The bonus below the root: 0 for every slot.
    no_bonus: Vec<f32>,
    /// The multiplier of [`jitter`], [`jitter_scale`] of the settings (once a search, not at every selection).
    jitter_scale: f32,
    area: usize,
}

impl<'a> Uct<'a> {
    fn new(input: &'a SearchInput, config: &'a SearchConfig, offer: &RootOffer) -> Uct<'a> {
        let area = input.particles[0].geometry().area();
        // The information bonus at the root; never under lose-turn, where a refused probe costs the turn.
        let mut root_bonus = if input.lose_turn { Vec::new() } else { super::probe_bonuses(input, config) };
        root_bonus.resize(area + 1, 0.0);
        Uct {
            input,
            config,
            particles: input.particles.iter().map(ChainBoard::from_board).collect(),
            root_points: offer.moves.iter().filter_map(|m| m.point()).collect(),
            root_pass: offer.pass,
            root_bonus,
            no_bonus: vec![0.0; area + 1],
            jitter_scale: jitter_scale(config),
            area,
        }
    }

    /// The root tries that would repeat an earlier position of particle `sample` (none when unknown).
    fn repeating(&self, sample: usize) -> Bitboard {
        self.input.repeating.get(sample).copied().unwrap_or(Bitboard::EMPTY)
    }

    fn new_worker(&self, seed: u64) -> Worker {
        let mut worker = Worker {
            nodes: Vec::new(),
            edges: EdgeArena { blocks: Vec::new(), stride: self.area + 1 },
            root: RootRefusals {
                lost_children: vec![0; self.area + 1],
                refused: vec![0; self.area + 1],
                margins: vec![0.0; self.area + 1],
                margin_visits: vec![0; self.area + 1],
            },
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            played: Vec::with_capacity(4 * self.area),
            path: Vec::with_capacity(32),
            slots: [0; 128],
            values: [0.0; 128],
            refused_at_root: false,
            replies: Replies::default(),
        };
        worker.add_node(self.input.us);
        if self.config.observer_trees {
            // The opponent's tree: its root is the same position, ours to play, as the opponent sees it.
            worker.add_node(self.input.us);
        }
        worker
    }

    /// A kept worker ready for this search: every statistic scaled by `decay` ([`scale_edges`]), the root edges
    /// of the tries refused this turn (never offered again) cleared by [`Uct::keep_offered`].
    fn reuse_worker(&self, mut worker: Worker, decay: f32) -> Worker {
        if decay < 1.0 {
            for index in 0..worker.nodes.len() as u32 {
                let node = &mut worker.nodes[index as usize];
                node.visits = (node.visits as f32 * decay).round() as u32;
                scale_edges(worker.edges.edges_mut(index), decay);
            }
        }
        self.keep_offered(worker)
    }

    /// A new worker whose root edges start from `old`'s statistics two moves below its root, after its try
    /// `played` (which stood) and each reply of the opponent, summed over the replies (each weighted by how
    /// often the opponent's side of the tree chose it) and scaled by `share`; the rest of the tree is new.
    fn prior_worker(&self, seed: u64, old: &Worker, played: Point, share: f32) -> Worker {
        let mut worker = self.new_worker(seed);
        let after = old.nodes[0].children.get(played.index()).copied().unwrap_or(0);
        if after != 0 {
            let root = worker.edges.edges_mut(0);
            for &reply in old.nodes[after as usize].children.iter().filter(|&&c| c != 0) {
                for (sum, edge) in root.iter_mut().zip(old.edges.edges(reply)) {
                    sum.visits += edge.visits;
                    sum.wins += edge.wins;
                    sum.amaf_visits += edge.amaf_visits;
                    sum.amaf_wins += edge.amaf_wins;
                }
            }
            scale_edges(root, share);
        }
        self.keep_offered(worker)
    }

    /// The share of the particles in which `point` is not a legal try for us (under `superko`, a try that
    /// repeats the particle's earlier position included, as the root offers it).
    fn illegal_share(&self, point: Point) -> f32 {
        let superko = self.input.repetition == Repetition::Superko;
        let illegal = (0..self.particles.len())
            .filter(|&i| {
                self.particles[i].legality(self.input.us, point).is_err()
                    || (superko && self.repeating(i).contains(point))
            })
            .count();
        illegal as f32 / self.particles.len().max(1) as f32
    }

    /// `worker` with only this search's root candidates holding root statistics (the pass's only when the pass
    /// is offered), the root's visits their sum, no refusals counted.
    fn keep_offered(&self, mut worker: Worker) -> Worker {
        let root = worker.edges.edges_mut(0);
        for (slot, edge) in root.iter_mut().enumerate() {
            let offered = match Point::new(slot) {
                Some(point) if slot < self.area => self.root_points.contains(point),
                _ => self.root_pass,
            };
            if !offered {
                *edge = EdgeStats::default();
            }
        }
        worker.nodes[0].visits = root.iter().map(|e| e.visits).sum();
        worker.root.refused.fill(0);
        worker.root.margins.fill(0.0);
        worker.root.margin_visits.fill(0);
        worker
    }

    fn slot(&self, mv: Move) -> usize {
        mv.point().map_or(self.area, Point::index)
    }

    /// The blended value of an edge for selection at a node with `parent_visits` and RAVE weight `k`;
    /// `unvisited_exploration` is the exploration term of an edge with no visits of its own
    /// (`exploration * sqrt(parent_log)`).
    #[inline]
    fn value(&self, edge: &EdgeStats, parent_log: f32, unvisited_exploration: f32, exploration: f32, k: f32) -> f32 {
        let n = edge.visits as f32;
        let an = edge.amaf_visits as f32;
        if edge.visits == 0 {
            if edge.amaf_visits == 0 {
                return self.config.first_play_urgency;
            }
            if k > 0.0 {
                // The general formula below with n = 0: beta is exactly 1 and the blend exactly the RAVE mean,
                // so this is the same number without three of its divisions and the square root.
                return edge.amaf_wins / an + unvisited_exploration;
            }
        }
        let q = if edge.visits > 0 { edge.wins / n } else { 0.0 };
        let aq = if edge.amaf_visits > 0 { edge.amaf_wins / an } else { 0.0 };
        let beta = if k > 0.0 && an > 0.0 { an / (an + n + an * n / k) } else { 0.0 };
        (1.0 - beta) * q + beta * aq + exploration * (parent_log / (n + 1.0)).sqrt()
    }

    /// [`Uct::value`] (UCB constant `exploration`) of the edge of each of `slots` plus its `bonus` and [`jitter`] into `out` (by position in
    /// `slots`, whose length is a multiple of 4), without branches: each number is the one [`Uct::select`] adds
    /// up slot by slot.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn values(
        &self,
        edges: &[EdgeStats],
        parent_log: f32,
        bonus: &[f32],
        draw: u32,
        slots: &[u8],
        out: &mut [f32; 128],
        exploration: f32,
        k: f32,
    ) {
        let fpu = self.config.first_play_urgency;
        let rave = k > 0.0;
        let scale = self.jitter_scale;
        // Four edges at a time, each step on arrays of four: the form the compiler turns into vector operations.
        for (values, slots) in out.chunks_exact_mut(4).zip(slots.chunks_exact(4)) {
            let (mut n, mut an, mut wins, mut amaf_wins) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
            let mut bonuses = [0.0f32; 4];
            for (i, &slot) in slots.iter().enumerate() {
                let (edge, slot) = (&edges[usize::from(slot)], usize::from(slot));
                bonuses[i] = bonus[slot];
                // Counts below 2^31 (a search never comes near): the signed conversion gives the same number and
                // is the one the vector units have.
                n[i] = edge.visits as i32 as f32;
                an[i] = edge.amaf_visits as i32 as f32;
                wins[i] = edge.wins;
                amaf_wins[i] = edge.amaf_wins;
            }
            // Every operation on all four lanes, then a choice per lane (a division by zero is made and dropped).
            let lanes = |f: &dyn Fn(usize) -> f32| -> [f32; 4] { [f(0), f(1), f(2), f(3)] };
            let q_all = lanes(&|i| wins[i] / n[i]);
            let aq_all = lanes(&|i| amaf_wins[i] / an[i]);
            let damping = lanes(&|i| an[i] * n[i] / k);
            let beta_all = lanes(&|i| an[i] / (an[i] + n[i] + damping[i]));
            let explore = lanes(&|i| exploration * (parent_log / (n[i] + 1.0)).sqrt());
            for i in 0..4 {
                let q = if n[i] > 0.0 { q_all[i] } else { 0.0 };
                let aq = if an[i] > 0.0 { aq_all[i] } else { 0.0 };
                let beta = if rave && an[i] > 0.0 { beta_all[i] } else { 0.0 };
                let general = (1.0 - beta) * q + beta * aq + explore[i];
                let value = if n[i] == 0.0 && an[i] == 0.0 { fpu } else { general };
                values[i] = value + bonuses[i] + jitter(draw, usize::from(slots[i]), scale);
            }
        }
    }

    /// The best slot among `offered` points (and the pass when `pass`), or `None` when there is nothing.
    #[inline(always)]
    fn select(&self, worker: &mut Worker, node: u32, offered: Bitboard, pass: bool) -> Option<usize> {
        let n = &worker.nodes[node as usize];
        let parent_log = (n.visits.max(1) as f32).ln();
        // Our own choices below the root take their own constant (`exploration_below`); the root's and the
        // opponent's take `exploration`.
        let exploration = if node != 0 && n.to_move == self.input.us {
            self.config.exploration_below
        } else {
            self.config.exploration
        };
        // The exploration term of an edge with n = 0 (parent_log / (0 + 1) is parent_log exactly).
        let unvisited_exploration = exploration * parent_log.sqrt();
        // The root's tries may take their own RAVE weight (`root_rave_equivalence`; without RAVE statistics,
        // with `rave_equivalence` 0, any k gives the same values).
        let root_k = self.config.root_rave_equivalence;
        let k = if node == 0 && root_k > 0.0 { root_k } else { self.config.rave_equivalence };
        let draw = worker.rng.next_u32();
        let scale = self.jitter_scale;
        // Below the root the bonus is 0.0 (adding it changes no value).
        let bonus = if node == 0 { &self.root_bonus } else { &self.no_bonus };
        // Progressive widening: how many tried moves let no untried one in (none without widening).
        let width = self.width(n.visits);
        // Without widening every move counts as tried: one argmax, no edge read for it.
        let widen = width != u32::MAX;
        // The first slot in point order (the pass last) with the largest value wins, tried and untried moves
        // kept apart for the widening.
        let (mut best, mut best_value) = (None, 0.0);
        let (mut best_new, mut best_new_value) = (None, 0.0);
        let mut tried = 0u32;
        let mut consider = |slot: usize, value: f32, visited: bool| {
            if visited {
                tried += 1;
                if best.is_none() || value > best_value {
                    (best, best_value) = (Some(slot), value);
                }
            } else if best_new.is_none() || value > best_new_value {
                (best_new, best_new_value) = (Some(slot), value);
            }
        };
        if n.visits >= BATCH_VISITS {
            // A node visited often has most edges visited (four divisions and a square root each): the values of
            // the offered slots are computed four at a time, where the compiler uses the vector units; the same
            // numbers either way. The list is padded to a multiple of 4 with the pass's slot (computed, not read).
            let slots = &mut worker.slots;
            let mut count = 0;
            for point in offered.iter() {
                slots[count & 127] = point.index() as u8;
                count += 1;
            }
            if pass {
                slots[count & 127] = self.area as u8;
                count += 1;
            }
            // Three pads always (at most 122 slots on 11x11, so within the 128), the ones past the multiple of 4
            // unread.
            for pad in 0..3 {
                slots[(count + pad) & 127] = self.area as u8;
            }
            let padded = count.next_multiple_of(4).min(128);
            let values = &mut worker.values;
            self.values(worker.edges.edges(node), parent_log, bonus, draw, &slots[..padded], values, exploration, k);
            let edges = worker.edges.edges(node);
            for (&slot, &value) in slots[..count.min(padded)].iter().zip(values.iter()) {
                consider(usize::from(slot), value, !widen || edges[usize::from(slot)].visits > 0);
            }
        } else {
            let edges = worker.edges.edges(node);
            let value = |slot: usize| {
                self.value(&edges[slot], parent_log, unvisited_exploration, exploration, k)
                    + bonus[slot]
                    + jitter(draw, slot, scale)
            };
            for slot in offered.iter().map(Point::index) {
                consider(slot, value(slot), !widen || edges[slot].visits > 0);
            }
            if pass {
                consider(self.area, value(self.area), !widen || edges[self.area].visits > 0);
            }
        }
        match (best, best_new) {
            (None, new) => new,
            (old, None) => old,
            // An untried move beats the best tried one only while the node is narrower than `width`; on a tie the
            // earlier slot.
            (Some(old), Some(new)) if tried < width && (best_new_value, old) > (best_value, new) => Some(new),
            (old, Some(_)) => old,
        }
    }

    /// The number of tried moves at a node with `visits` from which [`Uct::select`] lets no untried move in
    /// ([`SearchConfig::widening`]; u32::MAX without widening).
    #[inline]
    fn width(&self, visits: u32) -> u32 {
        if self.config.widening > 0.0 {
            (self.config.widening * (visits as f32 + 1.0).powf(self.config.widening_power)).ceil() as u32
        } else {
            u32::MAX
        }
    }

    /// The move walked at a node: [`Uct::select`]'s, except that at an opponent's node below the root, with
    /// probability [`SearchConfig::opponent_mix`], a move drawn uniformly from the offered points (the pass only
    /// where nothing is offered). With the mixture at 0 (the default) no random number is drawn, so the search is
    /// exactly the selection's.
    fn choose(&self, worker: &mut Worker, node: u32, offered: Bitboard, pass: bool, ours: bool) -> Option<usize> {
        if !ours && !offered.is_empty() && policy::chance(&mut worker.rng, self.config.opponent_mix) {
            return offered.nth(below(&mut worker.rng, offered.count())).map(Point::index);
        }
        self.select(worker, node, offered, pass)
    }

    /// One simulation on the worker's scratch `board`: draw a particle, walk and grow the tree, play out, back up.
    fn simulate(&self, worker: &mut Worker, board: &mut ChainBoard) {
        let sample = below(&mut worker.rng, self.particles.len() as u32) as usize;
        board.copy_from(&self.particles[sample]);
        worker.played.clear();
        worker.path.clear();
        worker.refused_at_root = false;
        let (ending, to_move, passes) =
            with_shape!(board.geometry(), shape => self.descend(shape, worker, board, sample));
        if ending == Ending::Open {
            // A referee's cap on tries ends the game where it falls: the tries the tree used are spent.
            let tries_left = self.input.tries_left.map(|left| left.saturating_sub(worker.path.len() as u32));
            let config = &self.config.playout;
            let replies = self.config.last_good_reply.then(|| ReplyState {
                replies: &worker.replies,
                // The stone the tree's walk played last, when it was the other side's and no pass came after it.
                last: match worker.played.last() {
                    Some(&(color, point)) if passes == 0 && color != to_move => Some(point),
                    _ => None,
                },
            });
            let (rng, played) = (&mut worker.rng, &mut worker.played);
            policy::playout_uncounted(
                board,
                to_move,
                passes,
                tries_left,
                self.input.komi,
                config,
                rng,
                played,
                replies,
            );
        }
        let margin = if ending == Ending::Drawn { 0.0 } else { self.margin(board) };
        if let Some(&Step { node: 0, slot, .. }) = worker.path.first() {
            worker.root.margins[slot] += f64::from(margin);
            worker.root.margin_visits[slot] += 1;
        }
        let mut reward = if ending == Ending::Drawn { 0.5 } else { self.reward(margin) };
        if self.config.last_good_reply {
            let us = self.input.us;
            let winner = if reward > 0.5 {
                Some(us)
            } else if reward < 0.5 {
                Some(us.opponent())
            } else {
                None
            };
            worker.replies.learn(&worker.played, winner);
        }
        if worker.refused_at_root {
            reward -= self.config.refusal_cost;
        }
        self.back_up(worker, reward);
    }

    /// Walks the tree on `board` (particle `sample`) from the root, playing the moves; returns how the game
    /// stands after the tree (open, over and scored, or drawn by a repetition), the side to move and the
    /// passes in a row. `shape` gives the board operations of the board's size.
    ///
    /// With one tree per player ([`SearchConfig::observer_trees`]) the walk holds a cursor in each: the side to
    /// move chooses at its own tree's node, its tree follows the move it made, and the other tree follows what
    /// the other side is told of it (a pass, or the move itself when it captured; any other move is one
    /// "moved unseen" child). The walk leaves the trees when either has no node for what happened.
    fn descend<S: Shape>(
        &self,
        shape: S,
        worker: &mut Worker,
        board: &mut ChainBoard,
        sample: usize,
    ) -> (Ending, Color, u32) {
        let us = self.input.us;
        let split = self.config.observer_trees;
        // The node of the side to move and, with two trees, the waiting side's node in its own tree.
        let mut node = 0u32;
        let mut waiting = THEIR_ROOT;
        let mut to_move = us;
        let mut passes = u32::from(self.input.opponent_passed);
        loop {
            let at_root = node == 0;
            // The node's children (read after selection) come from memory while the offered points are found.
            prefetch(&worker.nodes[node as usize].children);
            let first_move = worker.played.len();
            let repeating = if at_root { self.repeating(sample) } else { Bitboard::EMPTY };
            let superko = self.input.repetition == Repetition::Superko;
            let (offered, pass) = if at_root {
                // Under superko a repeating try is illegal like any other.
                let legal = board.legal_points_in(shape, us) - if superko { repeating } else { Bitboard::EMPTY };
                let points = if self.input.lose_turn { self.root_points } else { self.root_points & legal };
                (points, self.root_pass || points.is_empty())
            } else {
                // In the tree a pass answers a pass (it ends the game) or is all that is left.
                // Legal points less the mover's own single-point eyes.
                let playable = board.playable_in(shape, to_move);
                (playable, passes > 0 || playable.is_empty())
            };
            let Some(slot) = self.choose(worker, node, offered, pass, at_root || to_move == us) else {
                return (Ending::Open, to_move, passes);
            };
            worker.path.push(Step { node, slot, first_move });
            // The child after this move (unless the try is refused), whose statistics come from memory while the
            // move is played and the next offered points are found.
            let next = worker.nodes[node as usize].children.get(slot).map_or(0, |&c| c);
            if next != 0 {
                prefetch(worker.edges.edges(next));
                prefetch(std::slice::from_ref(&worker.nodes[next as usize]));
            }
            let mut refused = false;
            // What the waiting side is told of the move: the slot of a pass or of a capturing move (its own
            // stones taken), the unseen slot for any other move.
            let mut told = self.unseen_slot();
            if slot == self.area {
                board.pass();
                passes += 1;
                told = self.area;
            } else {
                let point = Point::new(slot).expect("slot below area");
                let outcome = if superko && repeating.contains(point) {
                    Err(crate::board::IllegalMove::Ko)
                } else {
                    board.try_play_in(shape, to_move, point)
                };
                match outcome {
                    Ok(captured) => {
                        worker.played.push((to_move, point));
                        passes = 0;
                        if !captured.is_empty() {
                            told = slot;
                        }
                    }
                    Err(_) => {
                        // Only at the root under lose-turn: the try is refused and the turn passes.
                        refused = true;
                        board.pass();
                        passes = 0;
                        debug_assert_eq!(node, 0, "only a root try is ever refused");
                        worker.root.refused[slot] += 1;
                        worker.refused_at_root = true;
                        // The opponent is told of an illegal try and nothing else: its tree follows a pass.
                        told = self.area;
                    }
                }
            }
            to_move = to_move.opponent();
            // A referee's cap on tries ends the game; so does the playouts' cap on moves, which a walk down the
            // tree reaches only in a cycle of captures (each simulation there would walk one move deeper).
            let walked = worker.path.len() as u32;
            let capped = self.input.tries_left.is_some_and(|left| walked >= left)
                || walked >= self.config.playout.moves_per_point * self.area as u32;
            if passes >= 2 || capped {
                return (Ending::Scored, to_move, passes);
            }
            let repeated = slot < self.area && repeating.contains(Point::new(slot).expect("slot below area"));
            if !refused && self.input.repetition == Repetition::Draw && repeated {
                // The referee ends the game as a draw.
                return (Ending::Drawn, to_move, passes);
            }
            // With two trees, the waiting side's node after what it was told (0: none yet).
            let seen = split.then(|| self.follow_told(worker, waiting, told, to_move));
            let child = if refused { worker.root.lost_children[slot] } else { next };
            if child != 0 && seen != Some(0) {
                // The side to move next chooses at its own tree's node; the side that moved waits at `child`.
                (node, waiting) = match seen {
                    Some(seen) => (seen, child),
                    None => (child, THEIR_ROOT),
                };
                continue;
            }
            if child == 0
                && worker.nodes.len() < self.config.max_nodes
                && worker.edges.edges(node)[slot].visits + 1 >= self.config.expand_after
            {
                let index = worker.add_node(to_move);
                if refused {
                    worker.root.lost_children[slot] = index;
                } else {
                    self.set_child(worker, node, slot, index);
                }
            }
            return (Ending::Open, to_move, passes);
        }
    }

    /// The child of the waiting side's node `waiting` after what it was `told` (two trees), or 0 when it has
    /// none yet. The node counts the walks through it in its `visits` (nobody chooses at it); a missing child,
    /// with `to_move` to play, is grown once the node has been passed `expand_after` times.
    fn follow_told(&self, worker: &mut Worker, waiting: u32, told: usize, to_move: Color) -> u32 {
        let node = &mut worker.nodes[waiting as usize];
        node.visits += 1;
        let seen = node.children.get(told).map_or(0, |&c| c);
        if seen == 0 && node.visits >= self.config.expand_after && worker.nodes.len() < self.config.max_nodes {
            let index = worker.add_node(to_move);
            self.set_child(worker, waiting, told, index);
        }
        seen
    }

    /// The child slot of a move the waiting side was not shown ([`SearchConfig::observer_trees`]).
    fn unseen_slot(&self) -> usize {
        self.area + 1
    }

    /// Makes `index` the child of `node` after `slot` (a move's slot, or the unseen slot).
    fn set_child(&self, worker: &mut Worker, node: u32, slot: usize, index: u32) {
        let children = &mut worker.nodes[node as usize].children;
        if children.is_empty() {
            children.resize(self.area + 2, 0);
        }
        children[slot] = index;
    }

    /// Our area margin (komi included) on the final `board`.
    fn margin(&self, board: &ChainBoard) -> f32 {
        board.area_margin(self.input.komi) * if self.input.us == Color::Black { 1.0 } else { -1.0 }
    }

    /// Our reward for a final margin: 1 for a win, 0 for a loss, the tie rule's value for a level game.
    fn reward(&self, margin: f32) -> f32 {
        if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            self.config.tie.reward(0.0, self.input.us)
        }
    }

    /// Adds the result to every edge walked and, for RAVE, to every edge of a walked node whose move the side to
    /// move there played first at that point later in the simulation.
    fn back_up(&self, worker: &mut Worker, reward: f32) {
        let us = self.input.us;
        // first[point] = the colour that played first at the point from the current step on (0 none, 1 black,
        // 2 white); filled from the end of the record backwards.
        let mut first = [0u8; 128];
        let mut next = worker.played.len();
        for step in worker.path.iter().rev() {
            // The moves from this step's turn on that the later steps have not marked, latest first (so the
            // earliest play at a point marks it last).
            for &(color, point) in worker.played[step.first_move..next].iter().rev() {
                first[point.index() & 127] = 1 + color.index() as u8;
            }
            next = step.first_move;
            let node = &mut worker.nodes[step.node as usize];
            let mover = node.to_move;
            let value = if mover == us { reward } else { 1.0 - reward };
            node.visits += 1;
            let edges = worker.edges.edges_mut(step.node);
            let edge = &mut edges[step.slot];
            edge.visits += 1;
            edge.wins += value;
            if self.config.rave_equivalence > 0.0 {
                // Branch-free (whether the mover played a point first is a coin toss for the branch predictor):
                // adding 0 and 0.0 leaves the other edges' statistics as they are.
                let mark = 1 + mover.index() as u8;
                for (edge, &played_first) in edges[..self.area].iter_mut().zip(&first) {
                    let hit = played_first == mark;
                    edge.amaf_visits += u32::from(hit);
                    edge.amaf_wins += if hit { value } else { 0.0 };
                }
            }
        }
    }
}

/// Scales each edge's visits (rounded) by `share`, its wins so that its means stay as they were.
fn scale_edges(edges: &mut [EdgeStats], share: f32) {
    for edge in edges {
        let visits = (edge.visits as f32 * share).round() as u32;
        edge.wins = if visits == 0 { 0.0 } else { edge.wins * visits as f32 / edge.visits as f32 };
        edge.visits = visits;
        let amaf = (edge.amaf_visits as f32 * share).round() as u32;
        edge.amaf_wins = if amaf == 0 { 0.0 } else { edge.amaf_wins * amaf as f32 / edge.amaf_visits as f32 };
        edge.amaf_visits = amaf;
    }
}

/// Whether the root offers a pass: the opponent has just passed (our pass ends the game and is scored as the
/// particles stand), or at least half the particles are settled (at least half the board is stones and no
/// empty point reaches both colours: no contested point, no invader left standing in anyone's area). Early passes waste turns; a settled game
/// needs one side to pass first.
fn root_pass_offered(input: &SearchInput) -> bool {
    if input.opponent_passed {
        return true;
    }
    let settled = input
        .particles
        .iter()
        .filter(|board| {
            let empty = board.empty();
            let territory = scoring::territory(board);
            2 * empty.count() as usize <= board.geometry().area()
                && (empty - territory[Color::Black] - territory[Color::White]).is_empty()
        })
        .count();
    2 * settled >= input.particles.len()
}

/// What the main search's root offers, computed once a search (each part reads every particle).
struct RootOffer {
    /// The candidates: the searches' common [`root_moves`], while the opponent holds a ko against us our spare
    /// eyes as waiting moves ([`waiting_fills`]), under `retry`, where a pass is on offer or all that is left,
    /// the points an old refusal blocks that some particles find legal now (`retriable`), and the pass when
    /// offered.
    moves: Vec<Move>,
    /// Whether the pass is offered ([`root_pass_offered`]).
    pass: bool,
}

fn root_offer(input: &SearchInput) -> RootOffer {
    let pass = root_pass_offered(input);
    let mut moves = root_moves(input);
    moves.extend(waiting_fills(input).iter().map(Move::Play));
    let only_pass = moves == [Move::Pass];
    if !input.lose_turn && input.retriable.any() && (only_pass || pass) {
        // Before a pass, under retry: the points blocked by an old refusal that some particles now find legal (a
        // capture), each offered where it is legal; a refusal costs only the try.
        moves.extend((input.retriable - input.tried_this_turn).iter().map(Move::Play));
    }
    if pass && !moves.contains(&Move::Pass) {
        moves.push(Move::Pass);
    }
    RootOffer { moves, pass }
}

/// Our own single-point eyes that the root offers as waiting moves while the opponent holds a ko against us (in
/// at least half the particles its last move captured one stone of ours at a point we may not retake now). Where
/// our area holds nothing but eyes, a pass was the only waiting move left, and it lets the opponent end the game
/// by passing before we may retake (self-play games were lost by half a point so, with the ko's group dead).
/// Only spare eyes are offered: with the stone in it, the chains around the eye stay unconditionally alive
/// ([`scoring::unconditionally_alive`] on our stones alone, every other point taken as empty), and area scoring
/// counts the filled point as it counted the eye.
pub(crate) fn waiting_fills(input: &SearchInput) -> Bitboard {
    let us = input.us;
    let Some(first) = input.particles.first() else {
        return Bitboard::EMPTY;
    };
    let ko_against_us = input.particles.iter().filter(|b| b.ko().is_some_and(|(_, c)| c == us)).count();
    if 2 * ko_against_us < input.particles.len() {
        return Bitboard::EMPTY;
    }
    let ours = first.stones(us);
    let (black, white) = if us == Color::Black { (ours, Bitboard::EMPTY) } else { (Bitboard::EMPTY, ours) };
    let Some(alone) = crate::board::Board::from_stones(first.size(), black, white) else {
        return Bitboard::EMPTY;
    };
    let eyes = alone.single_point_eyes(us) - input.tried_this_turn - input.known_opponent;
    eyes.iter()
        .filter(|&eye| {
            let mut filled = alone.clone();
            filled.put_stone(us, eye);
            scoring::unconditionally_alive(&filled, us).contains(eye)
        })
        .collect()
}

/// Per particle of `input`, the root tries whose stone would recreate one of that particle's earlier
/// whole-board positions (`positions[i]`, Zobrist hashes as [`crate::board::Board::hash`]).
pub fn repeating_tries(input: &SearchInput, positions: &[Vec<u64>]) -> Vec<Bitboard> {
    let candidates: Bitboard = root_offer(input).moves.iter().filter_map(|m| m.point()).collect();
    input
        .particles
        .iter()
        .zip(positions)
        .map(|(particle, seen)| {
            let mut seen = seen.clone();
            seen.sort_unstable();
            candidates
                .iter()
                .filter(|&point| {
                    let mut next = particle.clone();
                    next.try_play(input.us, point).is_ok() && seen.binary_search(&next.hash()).is_ok()
                })
                .collect()
        })
        .collect()
}

/// Puts the pass first when it was searched enough (a tenth of the leader's visits) and its win rate is within
/// `margin` of the leader's: in a settled position every try wins or loses alike, and one side must pass for
/// the game to end.
fn prefer_pass_when_no_worse(children: &mut [RootChild], margin: f32) {
    let Some(index) = children.iter().position(|c| c.mv == Move::Pass) else {
        return;
    };
    let (leader, pass) = (&children[0], &children[index]);
    if index > 0 && pass.visits * 10 >= leader.visits && pass.win_rate + margin >= leader.win_rate {
        children[..=index].rotate_right(1);
    }
}

/// Win rate under which a try counts as lost for [`play_on_when_lost`].
const LOST_WIN_RATE: f32 = 0.03;

/// Points of mean margin by which a try must beat the pass for [`play_on_when_lost`] to play it instead.
const LOST_PASS_POINTS: f32 = 1.0;

/// When every well-searched try is lost (win rate under [`LOST_WIN_RATE`]; well searched: at least
/// [`TRY_BEFORE_PASS_VISITS`] visits and a quarter of the leader's), the win rates no longer tell the tries
/// apart, so the one with the best mean final margin among them leads instead, and the pass only while no try
/// beats its margin by [`LOST_PASS_POINTS`]. Without it a lost engine passed turn after turn while the
/// opponent captured every group it had (as Black against `pimc` at 8000, seed 505, game 2: eight passes
/// from move 99 on, lost by 88.5), where a defence keeps the points a blunder could still turn.
fn play_on_when_lost(children: &mut [RootChild]) {
    let Some(leader) = children.first() else {
        return;
    };
    let floor = TRY_BEFORE_PASS_VISITS.max(children.iter().map(|c| c.visits).max().unwrap_or(0) / 4);
    let searched = || children.iter().enumerate().filter(|(_, c)| c.visits >= floor);
    if leader.win_rate >= LOST_WIN_RATE || searched().any(|(_, c)| c.win_rate >= LOST_WIN_RATE) {
        return;
    }
    let Some((best, best_margin)) = searched()
        .filter(|(_, c)| c.mv != Move::Pass)
        .max_by(|(_, a), (_, b)| a.margin.total_cmp(&b.margin))
        .map(|(index, c)| (index, c.margin))
    else {
        return;
    };
    let pass = searched().find(|(_, c)| c.mv == Move::Pass);
    let index = match pass {
        Some((index, c)) if c.margin + LOST_PASS_POINTS >= best_margin => index,
        _ => best,
    };
    children[..=index].rotate_right(1);
}

/// Whether at least a share `share` of the particles (by default half) show an opponent stone standing inside our area (a small region of
/// the opponent's stones and empty points enclosed by ours: [`scoring::invaders`]). Area scoring counts it
/// where it stands, so passing gives its points away while filling its liberties captures it.
fn believes_invaded(input: &SearchInput, share: f32) -> bool {
    let them = input.us.opponent();
    let invaded = input.particles.iter().filter(|board| scoring::invaders(board)[them] > 0).count();
    invaded as f32 >= share * input.particles.len() as f32
}

/// While an invader is believed to stand in our area the engine does not pass: when the pass leads, the best
/// try (by visits) is played instead unless its win rate is below the pass's by more than `margin`.
fn try_rather_than_pass(children: &mut [RootChild], margin: f32) {
    if children.first().is_none_or(|c| c.mv != Move::Pass) {
        return;
    }
    let pass = children[0].win_rate;
    if let Some(index) = children.iter().position(|c| c.mv != Move::Pass && c.visits > 0) {
        if children[index].win_rate + margin >= pass {
            children[..=index].rotate_right(1);
        }
    }
}

/// Tries left under which the tries before a pass stop: the referee's cap is near, and each spends one try.
const CLEANUP_MIN_TRIES_LEFT: u32 = 16;

/// Whether a try made instead of the leading pass costs only the try: the pass leads, the rule is `retry` (a
/// refusal leaves the turn and the pass), and the referee's cap is not within [`CLEANUP_MIN_TRIES_LEFT`].
fn may_try_before_passing(input: &SearchInput, children: &[RootChild]) -> bool {
    !input.lose_turn
        && children.first().is_some_and(|c| c.mv == Move::Pass)
        && input.tries_left.is_none_or(|left| left >= CLEANUP_MIN_TRIES_LEFT)
}

/// Under `retry`, before passing: when the pass leads and at least a share `share` of the particles show an
/// opponent stone standing inside our area at one point (an unseen invader the pass would leave there), that
/// point is tried instead, if its win rate is within `margin` of the pass's. A refused try costs nothing but
/// the try and makes the stone known (then every particle holds it, and [`believes_invaded`] keeps the search
/// from passing until it is captured); an accepted one fills a point of our own area, which area scoring counts
/// the same, and the search's value of it (the value where it is legal) shows when the fill would hurt.
fn probe_rather_than_pass(input: &SearchInput, children: &mut [RootChild], share: f32, margin: f32) {
    if share <= 0.0 || !may_try_before_passing(input, children) {
        return;
    }
    let Some(first) = input.particles.first() else {
        return;
    };
    let them = input.us.opponent();
    let mut shown = vec![0u32; first.geometry().area()];
    for board in &input.particles {
        for point in scoring::invader_stones(board, them).iter() {
            shown[point.index()] += 1;
        }
    }
    let needed = share * input.particles.len() as f32;
    let pass = children[0].win_rate;
    let probe = children
        .iter()
        .enumerate()
        .filter_map(|(index, child)| {
            let count = shown[child.mv.point()?.index()];
            let worth = count as f32 >= needed && child.visits > 0 && child.win_rate + margin >= pass;
            worth.then_some((count, child.visits, std::cmp::Reverse(index)))
        })
        .max();
    if let Some((_, _, std::cmp::Reverse(index))) = probe {
        children[..=index].rotate_right(1);
    }
}

/// How much better than the pass's a try's win rate must be for [`try_before_passing`] to play it, and the
/// visits it needs (a win rate from 30 visits is known to about 0.09).
const TRY_BEFORE_PASS_GAIN: f32 = 0.05;
const TRY_BEFORE_PASS_VISITS: u32 = 30;

/// Under `retry`, before passing: a try whose win rate beats the pass's by [`TRY_BEFORE_PASS_GAIN`] (with at
/// least [`TRY_BEFORE_PASS_VISITS`] visits) is played instead, the best such. A try legal in few particles is
/// visited only there, so the pass, offered in every particle, can lead by visits with the lower win rate; but a
/// refused try costs only the try (the turn goes on and the pass is still there), so the try's value where it is
/// legal is what counts. (Self-play game 77 of seed 91: the pass led with 763 visits at 0.000 against a capture
/// of a ten-stone group with 237 at 0.093, and the group stayed.) Not with under 16 tries left before a cap.
fn try_before_passing(input: &SearchInput, children: &mut [RootChild]) {
    if !may_try_before_passing(input, children) {
        return;
    }
    let pass = children[0].win_rate;
    let best = children
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.mv != Move::Pass && c.visits >= TRY_BEFORE_PASS_VISITS && c.win_rate >= pass + TRY_BEFORE_PASS_GAIN
        })
        .max_by(|(_, a), (_, b)| a.win_rate.total_cmp(&b.win_rate))
        .map(|(index, _)| index);
    if let Some(index) = best {
        children[..=index].rotate_right(1);
    }
}

/// Runs the search: `threads` root-parallel workers within `limits`, merged by root move.
pub fn search(
    input: &SearchInput,
    config: &SearchConfig,
    limits: &SearchLimits,
    threads: usize,
    seed: u64,
    external_stop: Option<&AtomicBool>,
) -> SearchResult {
    search_keeping(input, config, limits, threads, seed, external_stop, &mut KeptTrees::default())
}

/// [`search`] that starts from `kept`'s trees where they serve this search (the next try of a turn whose last
/// try was refused under `retry`, or our next turn after a try that stood; see [`KeptTrees`]) and leaves its
/// own trees there for the next one. With one
/// thread, a playout limit and a seed the same sequence of searches repeats.
#[allow(clippy::too_many_arguments)]
pub fn search_keeping(
    input: &SearchInput,
    config: &SearchConfig,
    limits: &SearchLimits,
    threads: usize,
    seed: u64,
    external_stop: Option<&AtomicBool>,
    kept: &mut KeptTrees,
) -> SearchResult {
    let start = Instant::now();
    let reusable = kept.take_for(input, threads).filter(|(_, carry)| match carry {
        Carry::Refused => config.reuse_decay > 0.0,
        Carry::Played => config.reply_prior > 0.0,
        Carry::Pondered => true,
    });
    let offer = root_offer(input);
    if input.particles.is_empty() || offer.moves.len() == 1 {
        return forced(offer.moves[0], start);
    }
    let uct = Uct::new(input, config, &offer);
    let seeds: Vec<u64> = (0..threads.max(1)).map(|t| super::player::worker_seed(seed, t)).collect();
    // Worker t starts from the kept tree of worker t, if any.
    let (reused, carry): (Vec<parking_lot::Mutex<Option<Worker>>>, _) = match reusable {
        Some((kept, carry)) => {
            let standing = carry.standing(config, kept.best_refused);
            let workers = kept.workers.into_iter().map(|w| parking_lot::Mutex::new(Some(w))).collect();
            (workers, Some((carry, kept.best, standing)))
        }
        None => (Vec::new(), None),
    };
    // When the workers were ready (the latest, in nanoseconds after `prepared`), for the overrun report.
    let prepared = Instant::now();
    let ready_ns = AtomicU64::new(0);
    // Each worker with its scratch board, the particle's copy of each simulation.
    let make = |seed: u64| {
        let t = seeds.iter().position(|&s| s == seed);
        let old = t.and_then(|t| reused.get(t)).and_then(|slot| slot.lock().take());
        let worker = match (old, carry) {
            (Some(worker), Some((Carry::Refused, _, standing))) => {
                uct.reuse_worker(worker, config.reuse_decay * standing)
            }
            (Some(worker), Some((Carry::Pondered, _, _))) => uct.keep_offered(worker),
            (Some(old), Some((Carry::Played, played, standing))) => {
                uct.prior_worker(seed, &old, played, config.reply_prior * standing)
            }
            _ => uct.new_worker(seed),
        };
        let board = uct.particles[0].clone();
        ready_ns.fetch_max(prepared.elapsed().as_nanos() as u64, Ordering::Relaxed);
        (worker, board)
    };
    let step = |(w, board): &mut (Worker, ChainBoard)| uct.simulate(w, board);
    // On a time budget, stop once the leader has `convergence_ratio` times the runner-up's visits and the
    // simulations left could not close the gap.
    let ratio = config.convergence_ratio;
    let settled = |(w, _): &(Worker, ChainBoard), left: f64| {
        super::leader_is_safe(w.edges.edges(0).iter().map(|e| e.visits), ratio, left)
    };
    let (workers, simulations, stop) =
        run_workers_until(limits, config.default_playouts, threads, seed, external_stop, make, step, settled);
    let searched = Instant::now();
    let mut children: Vec<RootChild> = offer
        .moves
        .iter()
        .map(|&mv| {
            let slot = uct.slot(mv);
            let (mut visits, mut wins, mut refused) = (0u32, 0.0f64, 0u32);
            let (mut margins, mut margin_visits) = (0.0f64, 0u32);
            for (w, _) in &workers {
                let e = &w.edges.edges(0)[slot];
                visits += e.visits;
                wins += f64::from(e.wins);
                refused += w.root.refused[slot];
                margins += w.root.margins[slot];
                margin_visits += w.root.margin_visits[slot];
            }
            let win_rate = if visits == 0 { 0.0 } else { (wins / f64::from(visits)) as f32 };
            let illegal_rate = if visits == 0 { 0.0 } else { refused as f32 / visits as f32 };
            let margin = if margin_visits == 0 { 0.0 } else { (margins / f64::from(margin_visits)) as f32 };
            RootChild { mv, visits, win_rate, illegal_rate, margin }
        })
        .collect();
    children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
    let invader_share = if input.lose_turn { config.invader_share } else { config.invader_share_retry };
    if believes_invaded(input, invader_share) {
        try_rather_than_pass(&mut children, config.invader_margin);
    } else {
        prefer_pass_when_no_worse(&mut children, config.pass_margin);
    }
    play_on_when_lost(&mut children);
    probe_rather_than_pass(input, &mut children, config.cleanup_share, config.invader_margin);
    try_before_passing(input, &mut children);
    let result = ranked(children, simulations, start, stop);
    let phases = Phases {
        before: limits.since.map_or(Duration::ZERO, |since| start.saturating_duration_since(since)),
        prepare: prepared - start,
        ready: Duration::from_nanos(ready_ns.load(Ordering::Relaxed)),
        search: searched - prepared,
        finish: searched.elapsed(),
    };
    if let Some(report) = phases.overrun(limits.hard, simulations) {
        log::warn!("{report}");
    }
    // Kept only where a next search could use them: a retry of this turn (retry rule) or our next turn.
    let usable = (!input.lose_turn && config.reuse_decay > 0.0) || config.reply_prior > 0.0;
    kept.kept = match (result.best, TurnKey::of(input, threads)) {
        (Move::Play(best), Some(turn)) if usable => Some(Kept {
            turn,
            best_refused: if config.carry_consistent { uct.illegal_share(best) } else { 0.0 },
            tried: input.tried_this_turn,
            best,
            workers: workers.into_iter().map(|(w, _)| w).collect(),
            pondered: false,
        }),
        _ => None,
    };
    result
}

/// Where a search's time went, for the report of a search that overran its hard budget.
#[derive(Clone, Copy, Debug)]
struct Phases {
    /// From the budget's start ([`SearchLimits::since`]) to the search's start: the engine's work before it.
    before: Duration,
    /// Taking the kept trees (dropping those that do not serve), the root's offer, the particles' boards.
    prepare: Duration,
    /// Until the last worker was ready (a kept tree rescaled, or a prior built from it), counted from `prepare`'s
    /// end; inside `search`.
    ready: Duration,
    /// The workers: their setup and their simulations, up to the last one's end.
    search: Duration,
    /// The root's checks after the simulations (passes, invaders, probes).
    finish: Duration,
}

impl Phases {
    /// Overruns under this much are the time checks' granularity, not worth a report.
    const TOLERANCE: Duration = Duration::from_millis(5);

    /// A report naming each phase when the whole took longer than `hard` plus [`Phases::TOLERANCE`].
    fn overrun(&self, hard: Option<Duration>, simulations: u64) -> Option<String> {
        let total = self.before + self.prepare + self.search + self.finish;
        let hard = hard?;
        (total > hard + Self::TOLERANCE).then(|| {
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            format!(
                "search overran its hard budget of {:.1} ms by {:.1} ms: before the search {:.1} ms, preparing {:.1} ms, \
                 workers ready after {:.1} ms, simulations until {:.1} ms ({simulations}), root checks {:.1} ms",
                ms(hard),
                ms(total - hard),
                ms(self.before),
                ms(self.prepare),
                ms(self.ready),
                ms(self.search),
                ms(self.finish),
            )
        })
    }
}

#[cfg(test)]
mod tests;
