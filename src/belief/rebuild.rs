//! Rebuilding the population: kept survivors, aimed repairs of the dead, mutated children, particles built from
//! scratch, copies, and the rebase when nothing explains the history.

use super::facts::Event;
use super::storage::UNASSIGNED;
use super::{Belief, Resampling};
use crate::bitboard::Bitboard;
use crate::board::Board;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Points later observations want occupied by the opponent, or empty, after each event (for rebuilding).
#[derive(Clone, Debug, Default)]
pub(super) struct Lookahead {
    /// Per event index: points tried illegal or captured by us after that event.
    pub(super) wanted: Vec<Bitboard>,
    /// Per event index: points we play legally after that event.
    pub(super) avoided: Vec<Bitboard>,
    /// Points any illegal try or capture of ours needed an opponent stone on (mutations move them less).
    pub(super) pinned: Bitboard,
    /// Points we ever played on (mutations move stones elsewhere).
    pub(super) played: Bitboard,
}

/// A population being built: boards, their slot rows, a scratch row and the random stream.
pub(super) struct Children {
    pub(super) boards: Vec<Board>,
    pub(super) moves: Vec<u8>,
    pub(super) row: Vec<u8>,
    pub(super) rng: Xoshiro256PlusPlus,
}

impl Children {
    /// Adds the board and the slot row in `row` when a replay or repair found one.
    fn push(&mut self, board: Option<Board>) -> bool {
        match board {
            Some(board) => {
                self.boards.push(board);
                self.moves.extend_from_slice(&self.row);
                true
            }
            None => false,
        }
    }
}

/// Particles that the longer repairs of the dead (or building from scratch) find before their mutated children
/// fill the rest of the population.
const RESCUED_PARTICLES: usize = 4;

/// Repair steps per try in the longer repairs of the dead when nothing else agrees.
const RESCUE_REPAIR_STEPS: usize = 256;

/// Repair steps per particle built from scratch.
const SCRATCH_REPAIR_STEPS: usize = 16;

/// What a rebuild of the population starts from.
pub(super) struct Population<'a> {
    /// Survivors (indices into the current population), kept as they are.
    pub(super) kept: &'a [usize],
    /// Particles that died on the last announcement (row indices into `old_moves`).
    pub(super) dead: &'a [usize],
    /// Slot rows before the last announcement (a new slot unassigned).
    pub(super) old_moves: &'a [u8],
    /// Repair steps per try on a dead particle.
    pub(super) dead_tries: usize,
    /// Repair steps on dead particles in all.
    pub(super) dead_budget: usize,
    /// Mutated children of the kept particles tried.
    pub(super) budget: usize,
    /// Replace everyone by children of the current population (a rejuvenation).
    pub(super) replace_all: bool,
}

impl Belief {
    /// Builds a new population: the kept particles stay; each dead one gets aimed repairs of its old row (at the
    /// last announcement); then mutated children of the kept ones (or, for a rejuvenation, of everyone), each
    /// checked against the whole history; then particles built from scratch; then copies; and a rebase when
    /// nothing agrees.
    pub(super) fn rebuild_population(&mut self, population: Population<'_>) {
        let n = self.config.particles;
        let stride = self.stride;
        let mut children = Children {
            boards: Vec::with_capacity(n),
            moves: Vec::with_capacity(n * stride),
            row: vec![UNASSIGNED; stride],
            rng: self.rng.clone(),
        };
        for &i in population.kept {
            children.boards.push(self.boards[i].clone());
            children.moves.extend_from_slice(&self.moves[i * stride..(i + 1) * stride]);
        }
        let lookahead = self.lookahead();
        match self.config.resampling {
            Resampling::Fresh => self.add_fresh_particles(&mut children, population.budget),
            Resampling::Mutation => {
                self.repair_dead(&mut children, &population, &lookahead);
                self.add_children_of_parents(&mut children, &population, &lookahead);
            }
        }
        if children.boards.is_empty() && !population.dead.is_empty() {
            self.rescue_dead(&mut children, &population, &lookahead);
        }
        if children.boards.is_empty() {
            let built = self.build_from_scratch(&mut children, &lookahead);
            self.stats.fresh_particles += built as u64;
            self.fill_with_children(&mut children, &lookahead, n, population.budget.max(n));
        }
        self.rng = children.rng.clone();
        if children.boards.is_empty() {
            if !population.replace_all {
                self.rebase();
            }
            // A rejuvenation that found nothing keeps the old particles.
            return;
        }
        self.complete_with_copies(children);
    }

    /// The ablation baseline: fresh particles, every hidden stone drawn anew, instead of repairs and mutants.
    fn add_fresh_particles(&self, children: &mut Children, budget: usize) {
        let n = self.config.particles;
        let slots = self.slots;
        let mut attempts = 0;
        while children.boards.len() < n && attempts < budget {
            attempts += 1;
            children.row.fill(UNASSIGNED);
            let board = self.replay(&mut children.row[..slots], Some(&mut children.rng), None);
            children.push(board);
        }
    }

    /// Dead particles: short aimed repairs of their old rows (their replay fails on the last announcement only),
    /// in turn, within the population's budget.
    fn repair_dead(&self, children: &mut Children, population: &Population<'_>, lookahead: &Lookahead) {
        if population.dead.is_empty() || population.dead_tries == 0 {
            return;
        }
        let (n, stride, slots) = (self.config.particles, self.stride, self.slots);
        let mut spent = 0;
        let mut round = 0;
        while children.boards.len() < n && spent < population.dead_budget {
            let d = population.dead[round % population.dead.len()];
            round += 1;
            children.row.copy_from_slice(&population.old_moves[d * stride..(d + 1) * stride]);
            spent += population.dead_tries;
            let board = self.repair(&mut children.rng, &mut children.row[..slots], lookahead, population.dead_tries);
            children.push(board);
        }
    }

    /// Mutated children of the kept particles (of everyone for a rejuvenation), each checked against the whole
    /// history, within the population's budget.
    fn add_children_of_parents(&self, children: &mut Children, population: &Population<'_>, lookahead: &Lookahead) {
        let (n, stride, slots) = (self.config.particles, self.stride, self.slots);
        let parents: Vec<usize> =
            if population.replace_all { (0..self.boards.len()).collect() } else { population.kept.to_vec() };
        let mut attempts = 0;
        while !parents.is_empty() && children.boards.len() < n && attempts < population.budget {
            let parent = parents[attempts % parents.len()];
            attempts += 1;
            children.row.copy_from_slice(&self.moves[parent * stride..(parent + 1) * stride]);
            self.mutate(&mut children.rng, &mut children.row[..slots], slots, &self.boards[parent], None, lookahead);
            let board = self.replay(&mut children.row[..slots], Some(&mut children.rng), Some(lookahead));
            children.push(board);
        }
    }

    /// Nothing agrees yet: longer repairs of the dead (up to [`BeliefConfig::max_repair_steps`]) before giving up
    /// on them, then children of what they found.
    ///
    /// [`BeliefConfig::max_repair_steps`]: super::BeliefConfig::max_repair_steps
    fn rescue_dead(&self, children: &mut Children, population: &Population<'_>, lookahead: &Lookahead) {
        let (n, stride, slots) = (self.config.particles, self.stride, self.slots);
        let mut spent = 0;
        let mut round = 0;
        while children.boards.len() < RESCUED_PARTICLES.min(n) && spent < self.config.max_repair_steps {
            let d = population.dead[round % population.dead.len()];
            round += 1;
            spent += RESCUE_REPAIR_STEPS;
            children.row.copy_from_slice(&population.old_moves[d * stride..(d + 1) * stride]);
            let board = self.repair(&mut children.rng, &mut children.row[..slots], lookahead, RESCUE_REPAIR_STEPS);
            children.push(board);
        }
        self.fill_with_children(children, lookahead, n, population.budget.max(n));
    }

    /// Nothing agrees: particles built from scratch, aiming at what later observations need, and repaired
    /// (within [`BeliefConfig::max_fresh_attempts`] replays); returns how many were built.
    ///
    /// [`BeliefConfig::max_fresh_attempts`]: super::BeliefConfig::max_fresh_attempts
    fn build_from_scratch(&self, children: &mut Children, lookahead: &Lookahead) -> usize {
        let n = self.config.particles;
        let slots = self.slots;
        let mut built = 0;
        for _ in 0..(self.config.max_fresh_attempts / SCRATCH_REPAIR_STEPS).max(1) {
            children.row.fill(UNASSIGNED);
            let board = self.repair(&mut children.rng, &mut children.row[..slots], lookahead, SCRATCH_REPAIR_STEPS);
            if children.push(board) {
                built += 1;
                if built >= RESCUED_PARTICLES.min(n) {
                    break;
                }
            }
        }
        built
    }

    /// Makes `children` the population, copies of its particles filling any shortfall.
    fn complete_with_copies(&mut self, mut children: Children) {
        let (n, stride) = (self.config.particles, self.stride);
        let found = children.boards.len();
        for j in found..n {
            let i = j % found;
            children.boards.push(children.boards[i].clone());
            children.moves.extend_from_within(i * stride..(i + 1) * stride);
        }
        self.boards = children.boards;
        self.moves = children.moves;
    }

    /// Fills the population in `children` up to `n` with mutated children of the particles already in it, each
    /// checked against the whole history, within `budget` attempts.
    pub(super) fn fill_with_children(&self, children: &mut Children, lookahead: &Lookahead, n: usize, budget: usize) {
        let (stride, slots) = (self.stride, self.slots);
        let parents = children.boards.len();
        let mut attempts = 0;
        while parents > 0 && children.boards.len() < n && attempts < budget {
            let parent = attempts % parents;
            attempts += 1;
            children.row.copy_from_slice(&children.moves[parent * stride..(parent + 1) * stride]);
            self.mutate(
                &mut children.rng,
                &mut children.row[..slots],
                slots,
                &children.boards[parent],
                None,
                lookahead,
            );
            let board = self.replay(&mut children.row[..slots], Some(&mut children.rng), Some(lookahead));
            children.push(board);
        }
    }

    /// The history cannot be explained: keep what is certain (our stones and the opponent's stone count),
    /// forget the rest, and place the opponent's stones afresh.
    pub(super) fn rebase(&mut self) {
        log::warn!(
            "belief: no particle agrees with the {} announcements; rebasing on our {} stones and {} opponent stones",
            self.history.len(),
            self.own.count(),
            self.opponent_count.max(0)
        );
        log::debug!("belief: unexplained history {:?}", self.history);
        self.stats.contradictions += 1;
        // Our stones without liberties on an otherwise empty board cannot be: drop them.
        let mut own_board = Board::new(self.geometry.size()).expect("size from a geometry");
        for point in self.own.iter() {
            own_board.put_stone(self.us, point);
        }
        self.own -= own_board.chains_without_liberty();
        let room = (self.geometry.mask() - self.own).count() as i64;
        let mut count = self.opponent_count.clamp(0, (room - 1).max(0));
        self.base_own = self.own;
        self.captured_before_base |= self.first_capture.is_some();
        self.rebased = true;
        self.first_capture = None;
        self.history.clear();
        self.known_empty = Bitboard::EMPTY;
        let n = self.config.particles;
        loop {
            self.base_opponent = count as usize;
            self.slots = self.base_opponent;
            let stride = self.slots.max(32);
            self.stride = stride;
            let mut boards = Vec::with_capacity(n);
            let mut moves = Vec::with_capacity(n * stride);
            let mut row = vec![UNASSIGNED; stride];
            let mut rng = self.rng.clone();
            for _ in 0..n * 4 {
                if boards.len() == n {
                    break;
                }
                row.fill(UNASSIGNED);
                if let Some(board) = self.replay(&mut row[..self.slots], Some(&mut rng), None) {
                    boards.push(board);
                    moves.extend_from_slice(&row);
                }
            }
            self.rng = rng;
            if !boards.is_empty() || count == 0 {
                if boards.is_empty() {
                    // Only our own stones: cannot fail, but stay total.
                    let mut board = Board::new(self.geometry.size()).expect("size from a geometry");
                    for point in self.own.iter() {
                        board.put_stone(self.us, point);
                    }
                    boards.push(board);
                    moves.extend_from_slice(&row);
                }
                let found = boards.len();
                for j in found..n {
                    let i = j % found;
                    boards.push(boards[i].clone());
                    moves.extend_from_within(i * stride..(i + 1) * stride);
                }
                self.boards = boards;
                self.moves = moves;
                self.opponent_count = count;
                return;
            }
            count -= 1;
        }
    }

    /// Per event, what later observations need: points tried illegal or captured later (wanted occupied) and
    /// points we play later (wanted empty).
    pub(super) fn lookahead(&self) -> Lookahead {
        let h = self.history.len();
        let mut wanted = vec![Bitboard::EMPTY; h];
        let mut avoided = vec![Bitboard::EMPTY; h];
        let mut want = Bitboard::EMPTY;
        let mut avoid = Bitboard::EMPTY;
        for e in (0..h).rev() {
            wanted[e] = want;
            avoided[e] = avoid;
            match self.history[e] {
                Event::OwnIllegal { point } => want.insert(point),
                Event::OwnOk { point, captured } => {
                    want |= captured;
                    avoid.insert(point);
                }
                Event::OpponentSeen { point, .. } => avoid.insert(point),
                _ => {}
            }
        }
        Lookahead { wanted, avoided, pinned: want, played: avoid }
    }
}
