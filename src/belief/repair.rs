//! Repair and mutation of slot rows: a hill climb aimed at the first announcement a replay fails on, and the
//! random moves of 1-3 stones that make children.

use super::facts::Event;
use super::rebuild::Lookahead;
use super::storage::{NO_SLOT, UNASSIGNED};
use super::Belief;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::point::Point;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

impl Belief {
    /// Hill-climbs `row` towards agreement with the whole history: each step mutates the slots placed before the
    /// first announcement the replay fails on (aimed at that announcement) and keeps the change when the replay
    /// gets at least as far. Returns the board once a replay agrees, or `None` after `steps` tries.
    pub(super) fn repair(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        lookahead: &Lookahead,
        steps: usize,
    ) -> Option<Board> {
        let mut failure = match self.replay_detailed(row, Some(rng), Some(lookahead), true) {
            Ok(board) => return Some(board),
            Err(failure) => failure,
        };
        let mut candidate = row.to_vec();
        for _ in 0..steps {
            candidate.copy_from_slice(row);
            let directed = failure.event.map(|e| self.history[e]);
            let limit = failure.slots_before;
            // The failing slot itself (a hidden move that found no point) is drawn again.
            if let Some(slot) = candidate.get_mut(limit) {
                if matches!(directed, Some(Event::OpponentHidden { .. })) {
                    *slot = UNASSIGNED;
                }
            }
            self.mutate(rng, &mut candidate, limit, &failure.board, directed, lookahead);
            match self.replay_detailed(&mut candidate, Some(rng), Some(lookahead), true) {
                Ok(board) => {
                    row.copy_from_slice(&candidate);
                    return Some(board);
                }
                Err(next) => {
                    if next.event.map_or(0, |e| e + 1) >= failure.event.map_or(0, |e| e + 1) {
                        row.copy_from_slice(&candidate);
                        failure = next;
                    }
                }
            }
        }
        None
    }

    /// Changes slots of a row before it is re-validated. With `directed`, aimed at that announcement, which the
    /// replay failed on with `board` the position before it and `limit` slots placed; otherwise (or sometimes)
    /// 1-3 stones among the first `limit` slots moved to nearby points or re-drawn from the model.
    pub(super) fn mutate(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        limit: usize,
        board: &Board,
        directed: Option<Event>,
        lookahead: &Lookahead,
    ) {
        let pinned = lookahead.pinned;
        let limit = limit.min(row.len());
        if limit == 0 {
            return;
        }
        let them = self.us.opponent();
        let geometry = self.geometry;
        let area = geometry.area();
        // The slot that put each standing opponent stone: the latest slot naming that point.
        let mut slot_of = [NO_SLOT; 128];
        for (k, &p) in row[..limit].iter().enumerate() {
            if usize::from(p) < area {
                slot_of[usize::from(p)] = k;
            }
        }
        let standing = board.stones(them);
        // A standing stone's slot to move onto `target`: often one close to it (a slightly misplaced stone),
        // else any, the more recent ones (fewer later constraints) favoured.
        let pick_slot = |rng: &mut Xoshiro256PlusPlus, exclude: Bitboard, target: Point| -> Option<usize> {
            let pool = standing - exclude;
            if pool.is_empty() {
                return None;
            }
            let near = pool & geometry.expand(geometry.expand(Bitboard::from_point(target)));
            if near.any() && rng.gen::<bool>() {
                let p = near.nth(rng.gen_range(0..near.count()))?;
                let k = slot_of[p.index()];
                if k != NO_SLOT {
                    return Some(k);
                }
            }
            let mut best: Option<usize> = None;
            for _ in 0..2 {
                let p = pool.nth(rng.gen_range(0..pool.count()))?;
                let k = slot_of[p.index()];
                if k != NO_SLOT {
                    best = Some(best.map_or(k, |b| b.max(k)));
                }
            }
            best
        };
        let clear = |row: &mut [u8], point: Point| {
            let k = slot_of[point.index()];
            if k != NO_SLOT {
                row[k] = UNASSIGNED;
            }
        };
        if let Some(event) = directed {
            if rng.gen::<f32>() < 0.85 {
                match event {
                    Event::OwnIllegal { point } => {
                        let empty_around = geometry.neighbours(point) & board.empty();
                        if rng.gen::<f32>() < 0.3 && empty_around.any() {
                            // Make it suicide: fill its empty neighbours.
                            let mut exclude = geometry.neighbours(point);
                            for liberty in empty_around.iter() {
                                if let Some(k) = pick_slot(rng, exclude, liberty) {
                                    row[k] = liberty.index() as u8;
                                    exclude.insert(liberty);
                                }
                            }
                        } else {
                            match pick_slot(rng, Bitboard::EMPTY, point) {
                                Some(k) => row[k] = point.index() as u8,
                                None => row[rng.gen_range(0..limit)] = point.index() as u8,
                            }
                        }
                        return;
                    }
                    Event::OwnOk { point, captured } => {
                        let mut exclude = captured;
                        if standing.contains(point) {
                            clear(row, point);
                            exclude.insert(point);
                        }
                        for missing in (captured - standing).iter() {
                            if let Some(k) = pick_slot(rng, exclude, missing) {
                                row[k] = missing.index() as u8;
                                exclude.insert(missing);
                            }
                        }
                        // Stones touching the captured group would have joined it.
                        for stone in ((geometry.adjacent(captured) & standing) - captured).iter() {
                            clear(row, stone);
                        }
                        // Other opponent chains at the point were not captured: they had another liberty.
                        let empty = board.empty();
                        let others = (geometry.neighbours(point) & standing) - captured;
                        for stone in others.iter() {
                            let (chain, liberties) = geometry.group_and_liberties(stone, standing, empty);
                            if (liberties - Bitboard::from_point(point)).is_empty() {
                                if let Some(moved) = chain.nth(rng.gen_range(0..chain.count().max(1))) {
                                    clear(row, moved);
                                }
                            }
                        }
                        if captured.is_empty() && !standing.contains(point) {
                            // Legal needs a liberty: free a point next to it or to our chains it joins.
                            let own = board.stones(self.us);
                            let joined = geometry.flood(geometry.expand(Bitboard::from_point(point)) & own, own);
                            let around = geometry.adjacent(joined | Bitboard::from_point(point)) & standing;
                            if let Some(stone) = around.nth(rng.gen_range(0..around.count().max(1))) {
                                clear(row, stone);
                            }
                        }
                        return;
                    }
                    Event::OpponentSeen { point, .. } if standing.contains(point) => {
                        clear(row, point);
                        return;
                    }
                    Event::OpponentHidden { captured } if captured.any() => {
                        // The move is a point next to every captured chain; every other liberty of them was
                        // filled before. Choose such a point, clear it, and fill the rest.
                        let own = board.stones(self.us);
                        let mut common = geometry.mask() - own;
                        let mut left = captured;
                        while let Some(stone) = left.first() {
                            let chain = geometry.flood(Bitboard::from_point(stone), captured);
                            common &= geometry.adjacent(chain);
                            left -= chain;
                        }
                        if let Some(point) = common.nth(rng.gen_range(0..common.count().max(1))) {
                            if standing.contains(point) {
                                clear(row, point);
                            }
                            let mut exclude = Bitboard::from_point(point);
                            let liberties = (geometry.adjacent(captured) & board.empty()) - exclude;
                            for liberty in liberties.iter() {
                                if let Some(k) = pick_slot(rng, exclude, liberty) {
                                    row[k] = liberty.index() as u8;
                                    exclude.insert(liberty);
                                }
                            }
                            // Our other chains at that point kept a liberty: free one where none is left.
                            let empty = board.empty();
                            let others = (geometry.neighbours(point) & own) - captured;
                            for stone in others.iter() {
                                let (chain, liberties) = geometry.group_and_liberties(stone, own, empty);
                                if (liberties - Bitboard::from_point(point)).is_empty() {
                                    let around = geometry.adjacent(chain) & standing;
                                    if let Some(blocker) = around.nth(rng.gen_range(0..around.count().max(1))) {
                                        clear(row, blocker);
                                    }
                                }
                            }
                            return;
                        }
                    }
                    _ => {}
                }
            }
        }
        let focus = match directed {
            Some(Event::OwnOk { point, captured }) | Some(Event::OpponentSeen { point, captured }) => {
                geometry.expand(geometry.expand(captured | Bitboard::from_point(point)))
            }
            Some(Event::OwnIllegal { point }) => geometry.expand(geometry.expand(Bitboard::from_point(point))),
            Some(Event::OpponentHidden { captured }) => geometry.expand(geometry.expand(captured)),
            _ => Bitboard::EMPTY,
        } & standing;
        // Points other slots use, and stones later illegal tries or captures rely on (moved less often).
        let mut used = Bitboard::EMPTY;
        for &p in row.iter() {
            if usize::from(p) < area {
                used.insert(Point::from_index_unchecked(p));
            }
        }
        let changes = rng.gen_range(1..=3usize.min(limit));
        for _ in 0..changes {
            let mut k = rng.gen_range(0..limit);
            for _ in 0..3 {
                let p = usize::from(row[k]);
                if p < area && pinned.contains(Point::from_index_unchecked(p as u8)) {
                    k = rng.gen_range(0..limit);
                } else {
                    break;
                }
            }
            if focus.any() && rng.gen::<bool>() {
                if let Some(stone) = focus.nth(rng.gen_range(0..focus.count())) {
                    let slot = slot_of[stone.index()];
                    if slot != NO_SLOT {
                        k = slot;
                    }
                }
            }
            let old = usize::from(row[k]);
            if old < area && rng.gen::<f32>() < 0.5 {
                let from = Bitboard::from_point(Point::from_index_unchecked(old as u8));
                let near = geometry.expand(geometry.expand(from)) - from - self.base_own - used - lookahead.played;
                if let Some(p) = near.nth(rng.gen_range(0..near.count().max(1))) {
                    row[k] = p.index() as u8;
                    continue;
                }
            }
            row[k] = UNASSIGNED;
        }
    }
}
