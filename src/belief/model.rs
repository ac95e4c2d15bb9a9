//! Drawing hidden opponent stones from the opponent model (the mixture of point pools of `opponent.rs`),
//! forced captures, the rebuild's wanted points, and base stones after a rebase; never in our eyes.

use super::opponent::{self, Pool, POOLS};
use super::Belief;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::Point;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Random picks tried for one opponent move before giving up on a particle.
pub(super) const SAMPLE_TRIES: usize = 12;

/// Pool draws before falling back to all candidates (an empty pool is drawn again, which is the same as
/// renormalising the weights over the pools that hold a candidate).
const POOL_DRAWS: usize = 16;

impl Belief {
    /// Chooses and plays the opponent's hidden move on `board` (capturing exactly `captured` of ours), from the
    /// opponent model; `wanted` points are preferred (when rebuilding), `avoid` points shunned. Returns the point,
    /// or `None` when no legal move fits (the board is then unchanged).
    pub(super) fn sample_opponent_move(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        board: &mut Board,
        captured: Bitboard,
        wanted: Bitboard,
        avoid: Bitboard,
        exclude: Bitboard,
    ) -> Option<Point> {
        let them = self.us.opponent();
        let geometry = self.geometry;
        if captured.any() {
            // The move took the last liberty of exactly the captured groups: that liberty is forced.
            let liberties = geometry.adjacent(captured) & board.empty();
            if liberties.count() != 1 {
                return None;
            }
            let point = liberties.first()?;
            let mut next = board.clone();
            return match next.try_play(them, point) {
                Ok(c) if c == captured => {
                    *board = next;
                    Some(point)
                }
                _ => None,
            };
        }
        let mut all_candidates = opponent::candidates(board, them);
        // The model's picks keep off `exclude` while they can; the final scan may use it.
        let mut candidates = if (all_candidates - exclude).any() { all_candidates - exclude } else { all_candidates };
        let weights = self.model.weights(self.model.phase_of(board.stones(them).count()));
        for _ in 0..SAMPLE_TRIES {
            if candidates.is_empty() {
                break;
            }
            // The rebuild's wanted points first (with probability `lookahead_bias`), else the pattern model when
            // one is set, else a pool of the mixture.
            let point = if (candidates & wanted).any() && rng.gen::<f32>() < self.config.lookahead_bias {
                let pool = candidates & wanted;
                pool.nth(rng.gen_range(0..pool.count()))?
            } else if let Some(patterns) = &self.config.pattern {
                patterns.draw(rng, board, them, candidates)?
            } else {
                let pool = self.draw_pool(rng, board, candidates, avoid, &weights);
                pool.nth(rng.gen_range(0..pool.count()))?
            };
            let mut next = board.clone();
            match next.play_on_empty(them, point) {
                Ok(c) if c.is_empty() => {
                    *board = next;
                    return Some(point);
                }
                _ => {
                    candidates.remove(point);
                    all_candidates.remove(point);
                }
            }
        }
        // The model's picks failed (a crowded board): try every remaining point once, from a random start.
        let candidates = all_candidates;
        let count = candidates.count();
        if count == 0 {
            return None;
        }
        let start = rng.gen_range(0..count);
        for offset in 0..count {
            let point = candidates.nth((start + offset) % count)?;
            let mut next = board.clone();
            if matches!(next.play_on_empty(them, point), Ok(c) if c.is_empty()) {
                *board = next;
                return Some(point);
            }
        }
        None
    }

    /// The pool a hidden opponent move is drawn from: a pool of the model chosen in proportion to its weight
    /// among the pools that hold a candidate (empty pools are redrawn). The pools that ignore the position keep
    /// off `avoid` when they can.
    fn draw_pool(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        board: &Board,
        candidates: Bitboard,
        avoid: Bitboard,
        weights: &[f32; POOLS],
    ) -> Bitboard {
        let them = self.us.opponent();
        let total: f32 = weights.iter().sum();
        for _ in 0..POOL_DRAWS {
            let mut roll = rng.gen::<f32>() * total;
            let mut chosen = Pool::Uniform;
            for (pool, &w) in Pool::ALL.iter().zip(weights) {
                if roll < w {
                    chosen = *pool;
                    break;
                }
                roll -= w;
            }
            let set = chosen.points(board, them, candidates);
            if set.any() {
                let positional = matches!(chosen, Pool::Uniform | Pool::OffEdge | Pool::Centre);
                return if positional && (set - avoid).any() { set - avoid } else { set };
            }
        }
        if (candidates - avoid).any() {
            candidates - avoid
        } else {
            candidates
        }
    }

    /// Places a base opponent stone on `board` from the opponent model, never leaving a chain without liberty.
    pub(super) fn sample_base_stone(&self, rng: &mut Xoshiro256PlusPlus, board: &mut Board) -> Option<Point> {
        let them = self.us.opponent();
        let geometry = self.geometry;
        let mut candidates = board.empty();
        for _ in 0..SAMPLE_TRIES {
            if candidates.is_empty() {
                return None;
            }
            let near = candidates & geometry.expand(geometry.expand(board.stones(them)));
            let pool = if near.any() && rng.gen::<f32>() < self.config.locality { near } else { candidates };
            let point = pool.nth(rng.gen_range(0..pool.count()))?;
            board.put_stone(them, point);
            if board.chains_without_liberty().is_empty() {
                return Some(point);
            }
            board.remove_stones(Bitboard::from_point(point));
            candidates.remove(point);
        }
        None
    }
}

/// True when `color` may play at `point` on `board` (cheap paths first).
#[inline]
pub(super) fn is_legal(board: &Board, color: Color, point: Point) -> bool {
    if board.occupied().contains(point) || board.ko() == Some((point, color)) {
        return false;
    }
    if (board.geometry().neighbours(point) & board.empty()).any() {
        return true;
    }
    board.legality(color, point).is_ok()
}
