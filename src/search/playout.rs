//! Playouts: uniform random perfect-information games (the speed benchmark) and Phantom Go playouts for the
//! search, both played on the [`ChainBoard`] (incremental chains, no flood fill per move).

use crate::bitboard::select::{Portable, Select};
use crate::bitboard::{with_shape, Bitboard, Geometry, Shape};
use crate::board::{Board, IllegalMove};
use crate::chains::ChainBoard;
use crate::color::{ByColor, Color};
use crate::point::Point;
use rand::RngCore;

/// A random index below `n` (`n > 0`) by multiply-shift; the tiny bias does not matter in playouts.
#[inline]
pub fn below<R: RngCore>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// The board operations a Phantom Go turn needs: the mask [`Board`] (the search's tree phase) and the
/// [`ChainBoard`] (its playouts) both have them, with the same rules.
pub trait PlayoutBoard {
    /// The board geometry.
    fn geometry(&self) -> &'static Geometry;
    /// Stones of `color`.
    fn stones(&self, color: Color) -> Bitboard;
    /// Plays a stone, applying captures; returns the captured stones, or why it is illegal (board unchanged).
    ///
    /// # Errors
    /// [`IllegalMove::Occupied`], [`IllegalMove::Ko`] or [`IllegalMove::Suicide`].
    fn try_play(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove>;
    /// A turn without a stone: clears the ko point.
    fn pass(&mut self);
}

impl PlayoutBoard for Board {
    #[inline]
    fn geometry(&self) -> &'static Geometry {
        Board::geometry(self)
    }
    #[inline]
    fn stones(&self, color: Color) -> Bitboard {
        Board::stones(self, color)
    }
    #[inline]
    fn try_play(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove> {
        Board::try_play(self, color, point)
    }
    #[inline]
    fn pass(&mut self) {
        Board::pass(self)
    }
}

impl PlayoutBoard for ChainBoard {
    #[inline]
    fn geometry(&self) -> &'static Geometry {
        ChainBoard::geometry(self)
    }
    #[inline]
    fn stones(&self, color: Color) -> Bitboard {
        ChainBoard::stones(self, color)
    }
    #[inline]
    fn try_play(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove> {
        ChainBoard::try_play(self, color, point)
    }
    #[inline]
    fn pass(&mut self) {
        ChainBoard::pass(self)
    }
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
/// or `max_moves` moves. The player with no such move passes. Played on a [`ChainBoard`] copy of `board`,
/// written back at the end.
pub fn random_playout<R: RngCore>(board: &mut Board, to_move: Color, rng: &mut R, max_moves: u32) -> RandomPlayout {
    let mut chains = ChainBoard::from_board(board);
    let result = random_playout_on(&mut chains, to_move, rng, max_moves);
    chains.write_to(board);
    result
}

/// [`random_playout`] on a [`ChainBoard`].
pub fn random_playout_on<R: RngCore>(
    board: &mut ChainBoard,
    to_move: Color,
    rng: &mut R,
    max_moves: u32,
) -> RandomPlayout {
    #[cfg(target_arch = "x86_64")]
    if crate::bitboard::select::fast_pdep() {
        // SAFETY: `fast_pdep` found BMI1 and BMI2 on this processor.
        return unsafe { random_playout_bmi2(board, to_move, rng, max_moves) };
    }
    with_shape!(board.geometry(), shape => random_playout_in::<_, _, Portable>(shape, board, to_move, rng, max_moves))
}

/// [`random_playout_on`] compiled for BMI1 and BMI2, drawing with `pdep` (the same points), as the search's
/// playouts ([`super::policy`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
fn random_playout_bmi2<R: RngCore>(
    board: &mut ChainBoard,
    to_move: Color,
    rng: &mut R,
    max_moves: u32,
) -> RandomPlayout {
    use crate::bitboard::select::Pdep;
    with_shape!(board.geometry(), shape => random_playout_in::<_, _, Pdep>(shape, board, to_move, rng, max_moves))
}

/// [`random_playout_on`] with the board operations of `shape`, the drawn point found by `N`.
#[inline(always)]
fn random_playout_in<S: Shape, R: RngCore, N: Select>(
    shape: S,
    board: &mut ChainBoard,
    mut to_move: Color,
    rng: &mut R,
    max_moves: u32,
) -> RandomPlayout {
    let mut result = RandomPlayout { moves: 0, captures: ByColor::default(), ended_by_passes: false };
    let mut passes = 0;
    while result.moves < max_moves {
        match random_legal_point_in::<S, R, N>(shape, board, to_move, rng) {
            Some(point) => {
                let captured = board.play_legal_in(shape, to_move, point);
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

/// A uniformly random point of [`ChainBoard::playable_in`] (legal points less `color`'s own single-point eyes),
/// drawn once from the mask (no failed tries) and found by `N`; `None` when there is none.
#[inline(always)]
fn random_legal_point_in<S: Shape, R: RngCore, N: Select>(
    shape: S,
    board: &ChainBoard,
    color: Color,
    rng: &mut R,
) -> Option<Point> {
    let playable = board.playable_in(shape, color);
    if playable.is_empty() {
        return None;
    }
    N::nth(playable, below(rng, playable.count()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn playable_points_are_the_legal_non_eyes_of_the_mask_board() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for size in [5, 7, 9, 11] {
            for _ in 0..20 {
                let mut board = ChainBoard::new(size).unwrap();
                let mut color = Color::Black;
                for _ in 0..2 * size * size {
                    let truth = board.to_board();
                    let expected: Bitboard =
                        truth.geometry().points().filter(|&p| truth.legality(color, p).is_ok()).collect();
                    let expected = expected - truth.single_point_eyes(color);
                    assert_eq!(board.playable_in(board.geometry(), color), expected, "{truth:?}");
                    match random_legal_point_in::<_, _, Portable>(board.geometry(), &board, color, &mut rng) {
                        Some(point) => {
                            let captured = board.play_legal_in(board.geometry(), color, point);
                            let mut copy = truth.clone();
                            assert_eq!(copy.try_play(color, point), Ok(captured));
                            assert_eq!(board.to_board(), copy);
                        }
                        None => board.pass(),
                    }
                    color = color.opponent();
                }
                assert!(board.is_consistent());
            }
        }
    }

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

/// What one side of a Phantom Go playout knows: the opponent stones it has bumped into, and the points it
/// tried in vain during the current turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideView {
    /// Opponent stones this side has found (illegal tries on them, or known before the playout).
    pub known_opponent: Bitboard,
    /// Points tried illegal during the current turn (suicide, ko, or a hidden stone).
    pub tried_this_turn: Bitboard,
}

/// How a Phantom Go try turned out on the (simulated) true board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimTry {
    /// Illegal: a hidden opponent stone, suicide or ko.
    Illegal,
    /// Legal; these opponent stones were captured.
    Ok(Bitboard),
}

/// Settings of the playout policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutPolicy {
    /// Probability of choosing among candidates next to one's own stones (when there are any).
    pub near_own: f32,
    /// Illegal tries after which a side passes its turn in a playout.
    pub max_illegal_per_turn: u32,
    /// Cap on turns, as a multiple of the number of points.
    pub turn_cap_per_point: u32,
}

impl Default for PlayoutPolicy {
    fn default() -> Self {
        PlayoutPolicy { near_own: 0.5, max_illegal_per_turn: 8, turn_cap_per_point: 3 }
    }
}

/// Plays a try for `color` at `point` on the true board and updates its view.
#[inline]
pub fn sim_try<B: PlayoutBoard>(board: &mut B, color: Color, point: Point, view: &mut SideView) -> SimTry {
    let result = board.try_play(color, point).map_err(|_| ());
    record_try(board, color, point, view, result)
}

/// Updates `color`'s view with the outcome of its try at `point` (`board` is the board after it).
#[inline]
pub fn record_try<B: PlayoutBoard>(
    board: &B,
    color: Color,
    point: Point,
    view: &mut SideView,
    result: Result<Bitboard, ()>,
) -> SimTry {
    match result {
        Ok(captured) => {
            view.tried_this_turn = Bitboard::EMPTY;
            SimTry::Ok(captured)
        }
        Err(()) => {
            if board.stones(color.opponent()).contains(point) {
                view.known_opponent.insert(point);
            }
            view.tried_this_turn.insert(point);
            SimTry::Illegal
        }
    }
}

/// The points `color` would consider trying: not its own stones, not opponent stones it knows, not its own
/// single-point eyes (as far as it can tell: all neighbours its own), not tried this turn.
#[inline]
pub fn candidates<B: PlayoutBoard>(board: &B, color: Color, view: &SideView) -> Bitboard {
    candidates_in(board.geometry(), board.stones(color), view)
}

/// [`candidates`] from `color`'s stones `own`, with the board operations of `shape`.
#[inline]
fn candidates_in<S: Shape>(shape: S, own: Bitboard, view: &SideView) -> Bitboard {
    let others = shape.mask() - own;
    let own_eyes = others - shape.adjacent(others);
    shape.mask() - own - view.known_opponent - view.tried_this_turn - own_eyes
}

/// The outcome of one side's whole turn in a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnOutcome {
    /// A stone was placed, capturing these.
    Moved(Bitboard),
    /// The side passed (no candidate left, or too many illegal tries).
    Passed,
    /// Lost the turn to an illegal try (lose-turn rules).
    LostTurn,
}

/// Plays one whole Phantom Go turn for `color` with the cheap playout policy: random candidates, biased towards
/// points next to its own stones; illegal tries are retried (`retry`) or end the turn (`lose_turn`).
#[inline]
pub fn policy_turn<B: PlayoutBoard, R: RngCore>(
    board: &mut B,
    color: Color,
    view: &mut SideView,
    lose_turn: bool,
    policy: &PlayoutPolicy,
    rng: &mut R,
) -> TurnOutcome {
    policy_turn_in(board.geometry(), board, color, view, lose_turn, policy, rng)
}

/// [`policy_turn`] with the board operations of `shape`.
#[inline]
fn policy_turn_in<S: Shape, B: PlayoutBoard, R: RngCore>(
    shape: S,
    board: &mut B,
    color: Color,
    view: &mut SideView,
    lose_turn: bool,
    policy: &PlayoutPolicy,
    rng: &mut R,
) -> TurnOutcome {
    // Own stones do not change during the turn: their eyes and neighbours are found once.
    let own = board.stones(color);
    let others = shape.mask() - own;
    // Not own stones, not own single-point eyes (points all of whose neighbours are own stones).
    let considered = others & shape.adjacent(others);
    let near_own = shape.adjacent(own);
    let mut illegal = 0;
    loop {
        let all = considered - view.known_opponent - view.tried_this_turn;
        debug_assert_eq!(all, candidates_in(shape, own, view));
        if all.is_empty() || illegal >= policy.max_illegal_per_turn {
            view.tried_this_turn = Bitboard::EMPTY;
            board.pass();
            return TurnOutcome::Passed;
        }
        let near = all & near_own;
        let pool = if near.any() && (below(rng, 1 << 16) as f32) < policy.near_own * 65536.0 { near } else { all };
        let point = match pool.nth(below(rng, pool.count())) {
            Some(p) => p,
            None => return TurnOutcome::Passed,
        };
        match sim_try(board, color, point, view) {
            SimTry::Ok(captured) => return TurnOutcome::Moved(captured),
            SimTry::Illegal => {
                illegal += 1;
                if lose_turn {
                    view.tried_this_turn = Bitboard::EMPTY;
                    board.pass();
                    return TurnOutcome::LostTurn;
                }
            }
        }
    }
}

/// Result of a Phantom Go playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhantomPlayout {
    /// Turns played.
    pub turns: u32,
    /// Stones captured by each colour during the playout.
    pub captures: ByColor<u32>,
}

/// Plays a Phantom Go game to its end from `board` with `to_move` first: each side sees only its own stones and
/// what it bumped into. Ends after two passes in a row or the turn cap. `passes` is the run of passes so far.
/// Played on a [`ChainBoard`] copy of `board`, written back at the end.
pub fn phantom_playout<R: RngCore>(
    board: &mut Board,
    to_move: Color,
    views: &mut ByColor<SideView>,
    passes: u32,
    lose_turn: bool,
    policy: &PlayoutPolicy,
    rng: &mut R,
) -> PhantomPlayout {
    let mut chains = ChainBoard::from_board(board);
    let result = phantom_playout_on(&mut chains, to_move, views, passes, lose_turn, policy, rng);
    chains.write_to(board);
    result
}

/// [`phantom_playout`] on a [`ChainBoard`].
pub fn phantom_playout_on<R: RngCore>(
    board: &mut ChainBoard,
    to_move: Color,
    views: &mut ByColor<SideView>,
    passes: u32,
    lose_turn: bool,
    policy: &PlayoutPolicy,
    rng: &mut R,
) -> PhantomPlayout {
    with_shape!(board.geometry(), shape => phantom_playout_in(shape, board, to_move, views, passes, lose_turn, policy, rng))
}

/// [`phantom_playout_on`] with the board operations of `shape`.
#[allow(clippy::too_many_arguments)]
fn phantom_playout_in<S: Shape, B: PlayoutBoard, R: RngCore>(
    shape: S,
    board: &mut B,
    mut to_move: Color,
    views: &mut ByColor<SideView>,
    mut passes: u32,
    lose_turn: bool,
    policy: &PlayoutPolicy,
    rng: &mut R,
) -> PhantomPlayout {
    let mut result = PhantomPlayout { turns: 0, captures: ByColor::default() };
    let cap = policy.turn_cap_per_point * board.geometry().area() as u32;
    while passes < 2 && result.turns < cap {
        match policy_turn_in(shape, board, to_move, &mut views[to_move], lose_turn, policy, rng) {
            TurnOutcome::Moved(captured) => {
                passes = 0;
                if captured.any() {
                    result.captures[to_move] += captured.count();
                    let opponent = to_move.opponent();
                    views[opponent].known_opponent &= board.stones(to_move);
                    views[to_move].known_opponent &= board.stones(opponent);
                }
            }
            TurnOutcome::Passed => passes += 1,
            TurnOutcome::LostTurn => passes = 0,
        }
        to_move = to_move.opponent();
        result.turns += 1;
    }
    result
}
#[cfg(test)]
mod phantom_tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn phantom_playouts_fill_the_board_and_stay_legal() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let policy = PlayoutPolicy::default();
        let mut total_turns = 0;
        for lose_turn in [false, true] {
            for _ in 0..100 {
                let mut board = Board::new(9).unwrap();
                let mut views = ByColor::default();
                let out = phantom_playout(&mut board, Color::Black, &mut views, 0, lose_turn, &policy, &mut rng);
                assert!(board.is_consistent());
                total_turns += out.turns;
                // At the end few empty points are left that are not someone's eye.
                let eyes = board.single_point_eyes(Color::Black) | board.single_point_eyes(Color::White);
                assert!((board.empty() - eyes).count() <= 12, "{board:?}");
            }
        }
        let mean = total_turns as f32 / 200.0;
        assert!((60.0..243.0).contains(&mean), "mean turns {mean}");
    }

    /// One truth for the rules: the same playout on the chain board and on the mask board (same seed) makes
    /// the same tries with the same outcomes, so the search sees the same games on either.
    #[test]
    fn phantom_playouts_agree_on_chain_and_mask_boards() {
        let policy = PlayoutPolicy::default();
        for size in [7, 9, 11] {
            for seed in 0..60u64 {
                let lose_turn = seed % 2 == 1;
                let mut mask = Board::new(size).unwrap();
                // Start some games from a position with stones, as the search does.
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let start = (seed % 3) as u32 * 10;
                let mut views = ByColor::<SideView>::default();
                let mut color = Color::Black;
                for _ in 0..start {
                    let _ = policy_turn(&mut mask, color, &mut views[color], lose_turn, &policy, &mut rng);
                    color = color.opponent();
                }
                let mut chains = ChainBoard::from_board(&mask);
                let (mut mask_views, mut chain_views) = (views, views);
                let (mut mask_rng, mut chain_rng) = (rng.clone(), rng);
                let a = phantom_playout_in(
                    mask.geometry(),
                    &mut mask,
                    color,
                    &mut mask_views,
                    0,
                    lose_turn,
                    &policy,
                    &mut mask_rng,
                );
                let b = phantom_playout_on(&mut chains, color, &mut chain_views, 0, lose_turn, &policy, &mut chain_rng);
                assert_eq!(a, b, "size {size} seed {seed}");
                assert_eq!(chains.to_board(), mask, "size {size} seed {seed}");
                assert_eq!(mask_views, chain_views);
                assert_eq!(mask_rng.next_u64(), chain_rng.next_u64());
                assert!(chains.is_consistent());
            }
        }
    }
}
