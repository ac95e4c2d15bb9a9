//! Replay and validation: the whole history replayed with a particle's slot row, each announcement checked.

use super::facts::Event;
use super::model::is_legal;
use super::rebuild::Lookahead;
use super::Belief;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::Repetition;
use crate::judge::IllegalRule;
use crate::point::Point;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Where a replay stopped agreeing with the history.
pub(super) struct Failure {
    /// The announcement not reproduced (`None`: the base stones).
    pub(super) event: Option<usize>,
    /// Slots placed before it.
    pub(super) slots_before: usize,
    /// The board just before it.
    pub(super) board: Board,
}

impl Belief {
    /// Applies an event that needs no choice of point, the `index`-th of the history; false when the board
    /// contradicts it.
    #[inline]
    pub(super) fn apply_fixed(&self, board: &mut Board, event: Event, index: usize) -> bool {
        let them = self.us.opponent();
        match event {
            Event::OwnOk { point, captured } => {
                matches!(board.try_play(self.us, point), Ok(c) if c == captured)
            }
            Event::OwnIllegal { point } => {
                // A try legal here can still be a superko repetition: see `refused_as_repetition`.
                if is_legal(board, self.us, point) {
                    return false;
                }
                if self.illegal_rule == IllegalRule::LoseTurn {
                    board.pass();
                }
                true
            }
            Event::OwnPass | Event::OpponentPass => {
                board.pass();
                true
            }
            Event::OpponentIllegal => {
                // Some point must be illegal for the opponent: any stone, or a ko point; an empty board has none.
                // Under superko after a capture, a repetition makes some try illegal too.
                let possible = board.occupied().any()
                    || matches!(board.ko(), Some((_, c)) if c == them)
                    || self.repetition_may_refuse(index);
                if self.illegal_rule == IllegalRule::LoseTurn {
                    board.pass();
                }
                possible
            }
            Event::OpponentSeen { point, captured } => {
                matches!(board.try_play(them, point), Ok(c) if c == captured)
            }
            Event::OpponentHidden { captured } => {
                // Only reached with a fixed point through `replay`.
                let _ = captured;
                false
            }
        }
    }

    /// Under superko, whether our try at `point`, legal on `board` (the `index`-th announcement), was refused
    /// as a repetition: the position it makes is among `positions`, the particle's whole-board positions so far
    /// (from the start of the game). After a rebase those are not known, and any refusal after a capture may be
    /// one. When it was, the turn is applied as for any illegal try.
    pub(super) fn refused_as_repetition(
        &self,
        board: &mut Board,
        point: Point,
        index: usize,
        positions: &[u64],
    ) -> bool {
        if !self.repetition_may_refuse(index) {
            return false;
        }
        if !self.rebased {
            let mut next = board.clone();
            if next.try_play(self.us, point).is_err() || !positions.contains(&next.hash()) {
                return false;
            }
        }
        if self.illegal_rule == IllegalRule::LoseTurn {
            board.pass();
        }
        true
    }

    /// Replays the whole history with the slot points in `row`. Unassigned slots are sampled (and written back)
    /// when `rng` is given, and fail the replay otherwise. Returns the final board, or `None` when some
    /// announcement is not reproduced.
    pub(super) fn replay(
        &self,
        row: &mut [u8],
        rng: Option<&mut Xoshiro256PlusPlus>,
        lookahead: Option<&Lookahead>,
    ) -> Option<Board> {
        self.replay_detailed(row, rng, lookahead, false, None).ok()
    }

    /// [`Belief::replay`], telling on failure which announcement was not reproduced and the board before it,
    /// and writing the whole-board positions after each stone (Zobrist hashes) to `positions_out` when given.
    /// The failure's board is the one before the failing announcement only when `keep_before` is set (a copy
    /// per announcement); otherwise it is whatever the replay left.
    pub(super) fn replay_detailed(
        &self,
        row: &mut [u8],
        mut rng: Option<&mut Xoshiro256PlusPlus>,
        lookahead: Option<&Lookahead>,
        keep_before: bool,
        positions_out: Option<&mut Vec<u64>>,
    ) -> Result<Board, Failure> {
        let them = self.us.opponent();
        let area = self.geometry.area();
        let mut board = Board::new(self.geometry.size()).expect("size from a geometry");
        for point in self.base_own.iter() {
            board.put_stone(self.us, point);
        }
        let base_failure =
            |board: &Board, slot: usize| Failure { event: None, slots_before: slot, board: board.clone() };
        for k in 0..self.base_opponent.min(row.len()) {
            let chosen = usize::from(row[k]);
            if chosen < area {
                let point = Point::from_index_unchecked(chosen as u8);
                if board.occupied().contains(point) {
                    return Err(base_failure(&board, k));
                }
                board.put_stone(them, point);
            } else {
                let Some(rng) = rng.as_deref_mut() else {
                    return Err(base_failure(&board, k));
                };
                match self.sample_base_stone(rng, &mut board) {
                    Some(point) => row[k] = point.index() as u8,
                    None => return Err(base_failure(&board, k)),
                }
            }
        }
        if row.len() < self.base_opponent || (self.base_opponent > 0 && board.chains_without_liberty().any()) {
            return Err(base_failure(&board, self.base_opponent.min(row.len())));
        }
        let mut slot = self.base_opponent;
        // Whole-board positions after each stone so far, kept only where superko needs them (as the referee).
        let superko = self.repetition == Repetition::Superko;
        let collect = superko || positions_out.is_some();
        let mut positions = if collect { vec![board.hash()] } else { Vec::new() };
        for e in 0..self.history.len() {
            let event = self.history[e];
            let before = keep_before.then(|| board.clone());
            let failure = |slot: usize, now: &Board| Failure {
                event: Some(e),
                slots_before: slot,
                board: before.clone().unwrap_or_else(|| now.clone()),
            };
            if let Event::OpponentHidden { captured } = event {
                let Some(&chosen) = row.get(slot) else {
                    return Err(failure(slot.min(row.len()), &board));
                };
                let chosen = usize::from(chosen);
                if chosen < area {
                    let point = Point::from_index_unchecked(chosen as u8);
                    match board.try_play(them, point) {
                        Ok(c) if c == captured => {}
                        _ => return Err(failure(slot, &board)),
                    }
                } else {
                    let Some(rng) = rng.as_deref_mut() else {
                        return Err(failure(slot, &board));
                    };
                    let (wanted, avoided) = match lookahead {
                        Some(l) => (
                            l.wanted.get(e).copied().unwrap_or_default(),
                            l.avoided.get(e).copied().unwrap_or_default(),
                        ),
                        None => (Bitboard::EMPTY, Bitboard::EMPTY),
                    };
                    // Keep off the points later slots place stones on, and those we play later.
                    let mut later = avoided;
                    for &p in &row[slot + 1..] {
                        if usize::from(p) < area {
                            later.insert(Point::from_index_unchecked(p));
                        }
                    }
                    match self.sample_opponent_move(rng, &mut board, captured, wanted - later, Bitboard::EMPTY, later) {
                        Some(point) => row[slot] = point.index() as u8,
                        None => return Err(failure(slot, &board)),
                    }
                }
                slot += 1;
            } else if !self.apply_fixed(&mut board, event, e) {
                let repeated = match event {
                    Event::OwnIllegal { point } => self.refused_as_repetition(&mut board, point, e, &positions),
                    _ => false,
                };
                if !repeated {
                    return Err(failure(slot, &board));
                }
            }
            if collect
                && matches!(event, Event::OwnOk { .. } | Event::OpponentHidden { .. } | Event::OpponentSeen { .. })
            {
                positions.push(board.hash());
            }
        }
        if let Some(out) = positions_out {
            *out = positions;
        }
        Ok(board)
    }
}
