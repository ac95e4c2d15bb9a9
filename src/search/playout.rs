//! Playouts: uniform random perfect-information games (the speed benchmark) and Phantom Go playouts for the search.

use crate::bitboard::{with_shape, Bitboard, Shape};
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::point::Point;
use rand::RngCore;

/// A random index below `n` (`n > 0`) by multiply-shift; the tiny bias does not matter in playouts.
#[inline]
pub fn below<R: RngCore>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// Picks a uniformly random point of `candidates` that is legal for `color` on `board` and not its own
/// single-point eye, plays it and returns the captured stones; points found unfit are dropped from `candidates`.
/// `None` when no candidate is legal.
#[inline]
pub fn play_random_from<R: RngCore>(
    board: &mut Board,
    color: Color,
    candidates: &mut Bitboard,
    rng: &mut R,
) -> Option<(Point, Bitboard)> {
    with_shape!(board.geometry(), shape => play_random_in(shape, board, color, candidates, rng))
}

/// [`play_random_from`] with the board operations of `shape`.
#[inline]
fn play_random_in<S: Shape, R: RngCore>(
    shape: S,
    board: &mut Board,
    color: Color,
    candidates: &mut Bitboard,
    rng: &mut R,
) -> Option<(Point, Bitboard)> {
    if let Some((ko, forbidden)) = board.ko() {
        if forbidden == color {
            candidates.remove(ko);
        }
    }
    // Never fill one's own single-point eye.
    *candidates -= board.single_point_eyes_in(shape, color);
    // Opponent stones seen to have two liberties or more: tries after the first skip their floods.
    let mut lively = Bitboard::EMPTY;
    while candidates.any() {
        // A branch-free select: rejection sampling over all points costs more draws and mispredicted branches.
        let point = candidates.nth(below(rng, candidates.count()))?;
        match board.play_on_empty_in(shape, color, point, &mut lively) {
            Ok(captured) => return Some((point, captured)),
            Err(_) => candidates.remove(point),
        }
    }
    None
}

/// Result of a perfect-information random playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlayout {
    /// Stones played (passes not counted).
    pub moves: u32,
    /// Stones captured by each colour.
    pub captures: ByColor<u32>,
    /// True when two passes ended it (false: the move cap, e.g. in a ko cycle).
    pub ended_by_passes: bool,
}

/// Plays uniformly random legal moves, never filling one's own single-point eye, until two passes in a row
/// or `max_moves` moves. The player with no such move passes.
pub fn random_playout<R: RngCore>(board: &mut Board, to_move: Color, rng: &mut R, max_moves: u32) -> RandomPlayout {
    with_shape!(board.geometry(), shape => random_playout_in(shape, board, to_move, rng, max_moves))
}

/// [`random_playout`] with the board operations of `shape`.
fn random_playout_in<S: Shape, R: RngCore>(
    shape: S,
    board: &mut Board,
    mut to_move: Color,
    rng: &mut R,
    max_moves: u32,
) -> RandomPlayout {
    let mut result = RandomPlayout { moves: 0, captures: ByColor::default(), ended_by_passes: false };
    let mut passes = 0;
    while result.moves < max_moves {
        let mut candidates = board.empty();
        match play_random_in(shape, board, to_move, &mut candidates, rng) {
            Some((_, captured)) => {
                result.moves += 1;
                result.captures[to_move] += captured.count();
                passes = 0;
            }
            None => {
                board.pass();
                passes += 1;
                if passes == 2 {
                    result.ended_by_passes = true;
                    break;
                }
            }
        }
        to_move = to_move.opponent();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn random_playouts_end_with_only_eyes_left() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for size in [7, 9, 11] {
            let mut natural_ends = 0;
            for _ in 0..50 {
                let mut board = Board::new(size).unwrap();
                let cap = 3 * (size * size) as u32;
                let out = random_playout(&mut board, Color::Black, &mut rng, cap);
                assert!(out.moves > 0 && out.moves <= cap);
                assert!(board.is_consistent());
                if !out.ended_by_passes {
                    continue; // a ko cycle ran into the cap
                }
                natural_ends += 1;
                // Every empty point is an eye of one side or illegal for both.
                for p in board.empty().iter() {
                    let eye = Color::BOTH.iter().any(|&c| board.single_point_eyes(c).contains(p));
                    let legal = Color::BOTH.iter().any(|&c| board.legality(c, p).is_ok());
                    assert!(eye || !legal, "{board:?}");
                }
            }
            assert!(natural_ends >= 30, "size {size}: {natural_ends} of 50 ended by passes");
        }
    }
}
