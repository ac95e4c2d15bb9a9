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
pub(super) struct Children<'a> {
    pub(super) boards: &'a mut Vec<Board>,
    pub(super) moves: &'a mut Vec<u8>,
    pub(super) row: &'a mut Vec<u8>,
    pub(super) rng: &'a mut Xoshiro256PlusPlus,
}

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
        let slots = self.slots;
        let mut boards: Vec<Board> = Vec::with_capacity(n);
        let mut moves: Vec<u8> = Vec::with_capacity(n * stride);
        for &i in population.kept {
            boards.push(self.boards[i].clone());
            moves.extend_from_slice(&self.moves[i * stride..(i + 1) * stride]);
        }
        let lookahead = self.lookahead();
        let mut row = vec![UNASSIGNED; stride];
        let mut rng = self.rng.clone();
        if self.config.resampling == Resampling::Fresh {
            // The ablation baseline: fresh particles, every hidden stone drawn anew, instead of repairs and mutants.
            let mut attempts = 0;
            while boards.len() < n && attempts < population.budget {
                attempts += 1;
                row.fill(UNASSIGNED);
                if let Some(board) = self.replay(&mut row[..slots], Some(&mut rng), None) {
                    boards.push(board);
                    moves.extend_from_slice(&row);
                }
            }
        }
        let mutation = self.config.resampling == Resampling::Mutation;
        // Dead particles: repair their old rows (their replay fails on the last announcement only).
        let mut spent = 0;
        if mutation && !population.dead.is_empty() && population.dead_tries > 0 {
            let mut round = 0;
            while boards.len() < n && spent < population.dead_budget {
                let d = population.dead[round % population.dead.len()];
                round += 1;
                row.copy_from_slice(&population.old_moves[d * stride..(d + 1) * stride]);
                spent += population.dead_tries;
                if let Some(board) = self.repair(&mut rng, &mut row[..slots], &lookahead, population.dead_tries) {
                    boards.push(board);
                    moves.extend_from_slice(&row);
                }
            }
        }
        // Mutated children of the kept particles (of everyone for a rejuvenation).
        let parents: Vec<usize> = if !mutation {
            Vec::new()
        } else if population.replace_all {
            (0..self.boards.len()).collect()
        } else {
            population.kept.to_vec()
        };
        let mut attempts = 0;
        while !parents.is_empty() && boards.len() < n && attempts < population.budget {
            let parent = parents[attempts % parents.len()];
            attempts += 1;
            row.copy_from_slice(&self.moves[parent * stride..(parent + 1) * stride]);
            self.mutate(&mut rng, &mut row[..slots], slots, &self.boards[parent], None, &lookahead);
            if let Some(board) = self.replay(&mut row[..slots], Some(&mut rng), Some(&lookahead)) {
                boards.push(board);
                moves.extend_from_slice(&row);
            }
        }
        if boards.is_empty() && !population.dead.is_empty() {
            // Nothing agrees yet: longer repairs of the dead before giving up on them.
            let chunk = 256;
            let mut spent = 0;
            let mut round = 0;
            while boards.len() < 4.min(n) && spent < self.config.max_repair_steps {
                let d = population.dead[round % population.dead.len()];
                round += 1;
                spent += chunk;
                row.copy_from_slice(&population.old_moves[d * stride..(d + 1) * stride]);
                if let Some(board) = self.repair(&mut rng, &mut row[..slots], &lookahead, chunk) {
                    boards.push(board);
                    moves.extend_from_slice(&row);
                }
            }
            let mut children = Children { boards: &mut boards, moves: &mut moves, row: &mut row, rng: &mut rng };
            self.fill_with_children(&mut children, &lookahead, n, population.budget.max(n));
        }
        if boards.is_empty() {
            // Nothing agrees: build particles from scratch, aiming at what later observations need, and repair.
            let steps = 16;
            let mut built = 0;
            for _ in 0..(self.config.max_fresh_attempts / steps).max(1) {
                row.fill(UNASSIGNED);
                if let Some(board) = self.repair(&mut rng, &mut row[..slots], &lookahead, steps) {
                    boards.push(board);
                    moves.extend_from_slice(&row);
                    built += 1;
                    if built >= 4.min(n) {
                        break;
                    }
                }
            }
            self.stats.fresh_particles += built as u64;
            let mut children = Children { boards: &mut boards, moves: &mut moves, row: &mut row, rng: &mut rng };
            self.fill_with_children(&mut children, &lookahead, n, population.budget.max(n));
        }
        let replace_all = population.replace_all;
        self.rng = rng;
        if boards.is_empty() {
            if replace_all {
                // A rejuvenation that found nothing keeps the old particles.
                return;
            }
            self.rebase();
            return;
        }
        let found = boards.len();
        for j in found..n {
            let i = j % found;
            boards.push(boards[i].clone());
            moves.extend_from_within(i * stride..(i + 1) * stride);
        }
        self.boards = boards;
        self.moves = moves;
    }

    /// Fills the population in `children` up to `n` with mutated children of the particles already in it, each
    /// checked against the whole history, within `budget` attempts.
    pub(super) fn fill_with_children(
        &self,
        children: &mut Children<'_>,
        lookahead: &Lookahead,
        n: usize,
        budget: usize,
    ) {
        let (stride, slots) = (self.stride, self.slots);
        let parents = children.boards.len();
        let mut attempts = 0;
        while parents > 0 && children.boards.len() < n && attempts < budget {
            let parent = attempts % parents;
            attempts += 1;
            children.row.copy_from_slice(&children.moves[parent * stride..(parent + 1) * stride]);
            self.mutate(children.rng, &mut children.row[..slots], slots, &children.boards[parent], None, lookahead);
            if let Some(board) = self.replay(&mut children.row[..slots], Some(&mut *children.rng), Some(lookahead)) {
                children.boards.push(board);
                children.moves.extend_from_slice(children.row);
            }
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
