//! Repair and mutation of slot rows: a hill climb aimed at the first announcement a replay fails on, and the
//! random moves of 1-3 stones that make children.

use super::facts::Event;
use super::rebuild::Lookahead;
use super::storage::{NO_SLOT, UNASSIGNED};
use super::{Belief, RefusalRepair};
use crate::bitboard::{Bitboard, Geometry};
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
        let mut failure = match self.replay_detailed(row, Some(rng), Some(lookahead), true, None) {
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
            match self.replay_detailed(&mut candidate, Some(rng), Some(lookahead), true, None) {
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
        let limit = limit.min(row.len());
        if limit == 0 {
            return;
        }
        let slots = SlotTable::new(self.geometry, &row[..limit], board.stones(self.us.opponent()));
        if let Some(event) = directed {
            if rng.gen::<f32>() < AIMED_MUTATION_SHARE && self.aim(rng, row, limit, board, event, &slots) {
                return;
            }
        }
        self.move_stones(rng, row, limit, directed, lookahead, &slots);
    }

    /// Changes `row` so that the replay may reproduce `event`; false when there is no aimed change for it.
    fn aim(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        limit: usize,
        board: &Board,
        event: Event,
        slots: &SlotTable,
    ) -> bool {
        match event {
            Event::OwnIllegal { point } => {
                self.aim_at_illegal(rng, row, limit, board, point, slots);
                true
            }
            Event::OwnOk { point, captured } => {
                self.aim_at_own_ok(rng, row, board, point, captured, slots);
                true
            }
            Event::OpponentSeen { point, .. } if slots.standing.contains(point) => {
                slots.clear(row, point);
                true
            }
            Event::OpponentHidden { captured } if captured.any() => {
                self.aim_at_hidden_capture(rng, row, board, captured, slots)
            }
            _ => false,
        }
    }

    /// Our try at `point` was illegal: put a stone on it, or (sometimes) fill its empty neighbours for a suicide.
    fn aim_at_illegal(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        limit: usize,
        board: &Board,
        point: Point,
        slots: &SlotTable,
    ) {
        let geometry = self.geometry;
        let empty_around = geometry.neighbours(point) & board.empty();
        if rng.gen::<f32>() < SUICIDE_AIM_SHARE && empty_around.any() {
            // Make it suicide: fill its empty neighbours.
            let mut exclude = geometry.neighbours(point);
            for liberty in empty_around.iter() {
                if let Some(k) = slots.pick(rng, exclude, liberty) {
                    row[k] = liberty.index() as u8;
                    exclude.insert(liberty);
                }
            }
        } else {
            let source = match self.config.refusal_repair {
                RefusalRepair::Near => slots.pick(rng, Bitboard::EMPTY, point),
                RefusalRepair::Away => slots.pick_away(rng, point),
            };
            match source {
                Some(k) => row[k] = point.index() as u8,
                None => row[rng.gen_range(0..limit)] = point.index() as u8,
            }
        }
    }

    /// Our stone at `point` stood and captured exactly `captured`: stones onto the captured points, the point and
    /// the chains that would have been captured too cleared, a liberty freed when the try needed one.
    fn aim_at_own_ok(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        board: &Board,
        point: Point,
        captured: Bitboard,
        slots: &SlotTable,
    ) {
        let geometry = self.geometry;
        let standing = slots.standing;
        let mut exclude = captured;
        if standing.contains(point) {
            slots.clear(row, point);
            exclude.insert(point);
        }
        for missing in (captured - standing).iter() {
            if let Some(k) = slots.pick(rng, exclude, missing) {
                row[k] = missing.index() as u8;
                exclude.insert(missing);
            }
        }
        // Stones touching the captured group would have joined it.
        for stone in ((geometry.adjacent(captured) & standing) - captured).iter() {
            slots.clear(row, stone);
        }
        // Other opponent chains at the point were not captured: they had another liberty.
        let empty = board.empty();
        let others = (geometry.neighbours(point) & standing) - captured;
        for stone in others.iter() {
            let (chain, liberties) = geometry.group_and_liberties(stone, standing, empty);
            if (liberties - Bitboard::from_point(point)).is_empty() {
                if let Some(moved) = chain.nth(rng.gen_range(0..chain.count().max(1))) {
                    slots.clear(row, moved);
                }
            }
        }
        if captured.is_empty() && !standing.contains(point) {
            // Legal needs a liberty: free a point next to it or to our chains it joins.
            let own = board.stones(self.us);
            let joined = geometry.flood(geometry.expand(Bitboard::from_point(point)) & own, own);
            let around = geometry.adjacent(joined | Bitboard::from_point(point)) & standing;
            if let Some(stone) = around.nth(rng.gen_range(0..around.count().max(1))) {
                slots.clear(row, stone);
            }
        }
    }

    /// A hidden opponent move captured `captured` of ours: the move is a point next to every captured chain, and
    /// every other liberty of them was filled before. Chooses such a point, clears it and fills the rest; false
    /// when there is none.
    fn aim_at_hidden_capture(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        board: &Board,
        captured: Bitboard,
        slots: &SlotTable,
    ) -> bool {
        let geometry = self.geometry;
        let standing = slots.standing;
        let own = board.stones(self.us);
        let mut common = geometry.mask() - own;
        let mut left = captured;
        while let Some(stone) = left.first() {
            let chain = geometry.flood(Bitboard::from_point(stone), captured);
            common &= geometry.adjacent(chain);
            left -= chain;
        }
        let Some(point) = common.nth(rng.gen_range(0..common.count().max(1))) else {
            return false;
        };
        if standing.contains(point) {
            slots.clear(row, point);
        }
        let mut exclude = Bitboard::from_point(point);
        let liberties = (geometry.adjacent(captured) & board.empty()) - exclude;
        for liberty in liberties.iter() {
            if let Some(k) = slots.pick(rng, exclude, liberty) {
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
                    slots.clear(row, blocker);
                }
            }
        }
        true
    }

    /// The undirected mutation: 1 to [`MAX_MOVED_STONES`] slots among the first `limit`, each moved to a point
    /// within distance 2 or re-drawn from the model; stones near the failing announcement are picked more often,
    /// stones later announcements rely on (`pinned`) less.
    fn move_stones(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        row: &mut [u8],
        limit: usize,
        directed: Option<Event>,
        lookahead: &Lookahead,
        slots: &SlotTable,
    ) {
        let geometry = self.geometry;
        let area = geometry.area();
        let pinned = lookahead.pinned;
        let focus = match directed {
            Some(Event::OwnOk { point, captured }) | Some(Event::OpponentSeen { point, captured }) => {
                geometry.expand(geometry.expand(captured | Bitboard::from_point(point)))
            }
            Some(Event::OwnIllegal { point }) => geometry.expand(geometry.expand(Bitboard::from_point(point))),
            Some(Event::OpponentHidden { captured }) => geometry.expand(geometry.expand(captured)),
            _ => Bitboard::EMPTY,
        } & slots.standing;
        // Points other slots use, and stones later illegal tries or captures rely on (moved less often).
        let mut used = Bitboard::EMPTY;
        for &p in row.iter() {
            if usize::from(p) < area {
                used.insert(Point::from_index_unchecked(p));
            }
        }
        let changes = rng.gen_range(1..=MAX_MOVED_STONES.min(limit));
        for _ in 0..changes {
            let mut k = rng.gen_range(0..limit);
            for _ in 0..PINNED_REDRAWS {
                let p = usize::from(row[k]);
                if p < area && pinned.contains(Point::from_index_unchecked(p as u8)) {
                    k = rng.gen_range(0..limit);
                } else {
                    break;
                }
            }
            // A fair coin: a stone near the failing announcement instead.
            if focus.any() && rng.gen::<bool>() {
                if let Some(stone) = focus.nth(rng.gen_range(0..focus.count())) {
                    let slot = slots.slot_of[stone.index()];
                    if slot != NO_SLOT {
                        k = slot;
                    }
                }
            }
            let old = usize::from(row[k]);
            if old < area && rng.gen::<f32>() < MOVE_NEARBY_SHARE {
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

/// Share of directed mutations that make the change aimed at the failing announcement (the rest move stones at
/// random near it).
const AIMED_MUTATION_SHARE: f32 = 0.85;

/// Share of aimed repairs of an illegal try that make it a suicide (fill its empty neighbours) rather than put a
/// stone on it.
const SUICIDE_AIM_SHARE: f32 = 0.3;

/// Most stones one undirected mutation moves.
const MAX_MOVED_STONES: usize = 3;

/// Redraws of a slot whose stone later announcements rely on, before it is moved anyway.
const PINNED_REDRAWS: usize = 3;

/// Share of moved stones that go to a point within distance 2 (the others are re-drawn from the model).
const MOVE_NEARBY_SHARE: f32 = 0.5;

/// Which slot put each standing opponent stone, for the mutations of one row.
struct SlotTable {
    geometry: &'static Geometry,
    /// Per point index: the latest slot naming that point, or [`NO_SLOT`].
    slot_of: [usize; 128],
    /// Opponent stones on the board the mutation aims at.
    standing: Bitboard,
}

impl SlotTable {
    fn new(geometry: &'static Geometry, row: &[u8], standing: Bitboard) -> SlotTable {
        let area = geometry.area();
        let mut slot_of = [NO_SLOT; 128];
        for (k, &p) in row.iter().enumerate() {
            if usize::from(p) < area {
                slot_of[usize::from(p)] = k;
            }
        }
        SlotTable { geometry, slot_of, standing }
    }

    /// A standing stone's slot to move onto `target`: on a fair coin one close to it (a slightly misplaced
    /// stone), else the later of two random ones (fewer later constraints).
    fn pick(&self, rng: &mut Xoshiro256PlusPlus, exclude: Bitboard, target: Point) -> Option<usize> {
        let geometry = self.geometry;
        let pool = self.standing - exclude;
        if pool.is_empty() {
            return None;
        }
        let near = pool & geometry.expand(geometry.expand(Bitboard::from_point(target)));
        if near.any() && rng.gen::<bool>() {
            let p = near.nth(rng.gen_range(0..near.count()))?;
            let k = self.slot_of[p.index()];
            if k != NO_SLOT {
                return Some(k);
            }
        }
        let mut best: Option<usize> = None;
        for _ in 0..2 {
            let p = pool.nth(rng.gen_range(0..pool.count()))?;
            let k = self.slot_of[p.index()];
            if k != NO_SLOT {
                best = Some(best.map_or(k, |b| b.max(k)));
            }
        }
        best
    }

    /// A standing stone's slot to move onto a refused `target`: one more than two points from it (the later of
    /// two random ones), else any ([`SlotTable::pick`]). A stone near a refused point is as likely part of the
    /// same wall or enclosure as a misplaced stone, and moving it would open the gap the next try looks for:
    /// the particles would keep the opponent's shape in pieces however often the shape refuses us.
    fn pick_away(&self, rng: &mut Xoshiro256PlusPlus, target: Point) -> Option<usize> {
        let near = self.geometry.expand(self.geometry.expand(Bitboard::from_point(target)));
        self.pick(rng, near, target).or_else(|| self.pick(rng, Bitboard::EMPTY, target))
    }

    /// Unassigns the slot that put the stone at `point` (re-drawn at the next replay).
    fn clear(&self, row: &mut [u8], point: Point) {
        let k = self.slot_of[point.index()];
        if k != NO_SLOT {
            row[k] = UNASSIGNED;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::{parse_vertex, Move};
    use rand::SeedableRng;

    fn pt(vertex: &str) -> Point {
        parse_vertex(vertex, 9).ok().and_then(Move::point).expect("test vertex")
    }

    /// A table of stones put by slots 0, 1, 2... at `vertices`.
    fn table(vertices: &[&str]) -> SlotTable {
        let points: Vec<Point> = vertices.iter().map(|v| pt(v)).collect();
        let row: Vec<u8> = points.iter().map(|p| p.index() as u8).collect();
        SlotTable::new(Geometry::of(9).expect("9x9"), &row, points.into_iter().collect())
    }

    // A White wall C5-D5 and a stone at H9; our try at E5 was refused:
    //   9 . . . . . . . X .
    //   5 . . X X ! . . . .
    //     A B C D E F G H J
    #[test]
    fn a_refused_point_takes_a_stone_from_away_from_the_wall() {
        let slots = table(&["C5", "D5", "H9"]);
        for seed in 0..200 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            assert_eq!(slots.pick_away(&mut rng, pt("E5")), Some(2), "seed {seed}");
        }
    }

    #[test]
    fn a_refused_point_with_only_near_stones_still_gets_one() {
        let slots = table(&["C5", "D5"]);
        let mut picked = [false; 2];
        for seed in 0..200 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let k = slots.pick_away(&mut rng, pt("E5")).expect("a slot");
            picked[k] = true;
        }
        assert_eq!(picked, [true, true]);
    }
}
