//! Criterion benches of the rules: a random playout, one move, legality over a position, a large capture, each
//! on the mask board (the judge's) and on the chain board (the playouts').
//!
//! Each bench checks a known figure, so a broken rules engine fails the bench instead of timing wrong work.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use phantomgo::search::playout::{random_playout, random_playout_on};
use phantomgo::{Bitboard, Board, ChainBoard, Color, Point};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A 9x9 middle game, Black to play: 35 empty points, of which E9, G9, J9, F8, G4, F3 and H3 are suicide for
/// Black (no liberty, nothing captured), while A8, B9, C7 and D1 are Black's own eyes (legal).
const MIDDLE_GAME: &str = "
    X . X O . O . O .
    . X X O O . O O O
    X X . X O O . . .
    . . X . X O O . .
    . X O O . X O . .
    . X X O X O . O .
    . . X O O . O . O
    . X . X O O . O .
    . . X . X O . O .";

/// Black points that are legal in [`MIDDLE_GAME`].
const MIDDLE_GAME_LEGAL_FOR_BLACK: usize = 28;

/// A 9x9 position where Black at E5 captures the 27-stone white chain (E5 is its last liberty).
const BIG_CAPTURE: &str = "
    . . X X X X X . .
    . X O O O O O X .
    . X O O O O O X .
    . X O O X O O X .
    . X O X . O O X .
    . X O O O O O X .
    . X O O O O O X .
    . . X X X X X . .
    . . . . . . . . .";

fn bench_playout(c: &mut Criterion) {
    let empty = Board::new(9).expect("9x9");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    c.bench_function("random playout 9x9", |b| {
        b.iter(|| {
            let mut board = empty.clone();
            let out = random_playout(&mut board, Color::Black, &mut rng, 3 * 81);
            // Every stone played is on the board or was captured.
            let on_board = board.stones(Color::Black).count() + board.stones(Color::White).count();
            assert_eq!(on_board + out.captures[Color::Black] + out.captures[Color::White], out.moves);
            assert!(out.moves <= 3 * 81);
            black_box(out)
        })
    });
}

fn bench_chain_playout(c: &mut Criterion) {
    let empty = ChainBoard::new(9).expect("9x9");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    c.bench_function("random playout 9x9, chain board without copy-back", |b| {
        b.iter(|| {
            let mut board = empty.clone();
            let out = random_playout_on(&mut board, Color::Black, &mut rng, 3 * 81);
            let on_board = board.stones(Color::Black).count() + board.stones(Color::White).count();
            assert_eq!(on_board + out.captures[Color::Black] + out.captures[Color::White], out.moves);
            black_box(out)
        })
    });
}

/// One quiet move in [`MIDDLE_GAME`] (Black E5: joins two chains, takes a liberty of two white ones), the
/// board's copy made outside the timing.
fn bench_one_move(c: &mut Criterion) {
    let board = Board::from_picture(9, MIDDLE_GAME);
    let chains = ChainBoard::from_board(&board);
    let e5 = Point::from_coords(4, 4, 9).expect("on board");
    c.bench_function("one move 9x9, mask board", |b| {
        b.iter_batched_ref(
            || board.clone(),
            |copy| assert_eq!(copy.try_play(Color::Black, black_box(e5)), Ok(Bitboard::EMPTY)),
            BatchSize::SmallInput,
        )
    });
    c.bench_function("one move 9x9, chain board", |b| {
        b.iter_batched_ref(
            || chains.clone(),
            |copy| assert_eq!(copy.try_play(Color::Black, black_box(e5)), Ok(Bitboard::EMPTY)),
            BatchSize::SmallInput,
        )
    });
}

/// The stones of one random 9x9 game (fixed seed), replayed move by move on each board: the cost of a move
/// in a game, without the copy-make of a single-move bench (the chain board is 4 KiB to copy).
fn bench_replay(c: &mut Criterion) {
    let mut board = Board::new(9).expect("9x9");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut moves = Vec::new();
    let mut color = Color::Black;
    while moves.len() < 100 {
        let legal: Vec<Point> = board.geometry().points().filter(|&p| board.legality(color, p).is_ok()).collect();
        let eyes = board.single_point_eyes(color);
        let choices: Vec<Point> = legal.into_iter().filter(|&p| !eyes.contains(p)).collect();
        assert!(!choices.is_empty(), "the game lasts 100 moves");
        let point = choices[(rng.next_u32() as usize) % choices.len()];
        board.try_play(color, point).expect("legal");
        moves.push((color, point));
        color = color.opponent();
    }
    let empty = Board::new(9).expect("9x9");
    c.bench_function("100 moves of a game 9x9, mask board", |b| {
        b.iter(|| {
            let mut copy = empty.clone();
            for &(color, point) in &moves {
                black_box(copy.try_play(color, point).is_ok());
            }
            assert_eq!(copy, board);
        })
    });
    c.bench_function("100 moves of a game 9x9, chain board", |b| {
        b.iter(|| {
            let mut copy = ChainBoard::from_board(&empty);
            for &(color, point) in &moves {
                black_box(copy.try_play(color, point).is_ok());
            }
            assert_eq!(copy.stones(Color::Black), board.stones(Color::Black));
        })
    });
}

fn bench_legality(c: &mut Criterion) {
    let board = Board::from_picture(9, MIDDLE_GAME);
    assert!(board.is_consistent());
    let points: Vec<Point> = board.geometry().points().collect();
    c.bench_function("legality of every point 9x9", |b| {
        b.iter(|| {
            let legal = points.iter().filter(|&&p| black_box(&board).legality(Color::Black, p).is_ok()).count();
            assert_eq!(legal, MIDDLE_GAME_LEGAL_FOR_BLACK);
            legal
        })
    });
    let chains = ChainBoard::from_board(&board);
    c.bench_function("legality of every point 9x9, chain board", |b| {
        b.iter(|| {
            let legal = points.iter().filter(|&&p| black_box(&chains).legality(Color::Black, p).is_ok()).count();
            assert_eq!(legal, MIDDLE_GAME_LEGAL_FOR_BLACK);
            legal
        })
    });
    c.bench_function("legal points as one mask 9x9, chain board", |b| {
        b.iter(|| {
            let legal = black_box(&chains).legal_points(Color::Black);
            assert_eq!(legal.count() as usize, MIDDLE_GAME_LEGAL_FOR_BLACK);
            legal
        })
    });
}

fn bench_capture(c: &mut Criterion) {
    let board = Board::from_picture(9, BIG_CAPTURE);
    assert!(board.is_consistent());
    let e5 = Point::from_coords(4, 4, 9).expect("on board");
    c.bench_function("capture of a 27-stone chain 9x9", |b| {
        b.iter(|| {
            let mut copy = black_box(&board).clone();
            let captured: Bitboard = copy.try_play(Color::Black, e5).expect("legal");
            assert_eq!(captured.count(), 27);
            copy
        })
    });
    c.bench_function("capture of a 27-stone chain 9x9, mask board, copy outside", |b| {
        b.iter_batched_ref(
            || board.clone(),
            |copy| assert_eq!(copy.try_play(Color::Black, black_box(e5)).map(Bitboard::count), Ok(27)),
            BatchSize::SmallInput,
        )
    });
    let chains = ChainBoard::from_board(&board);
    c.bench_function("capture of a 27-stone chain 9x9, chain board, copy outside", |b| {
        b.iter_batched_ref(
            || chains.clone(),
            |copy| assert_eq!(copy.try_play(Color::Black, black_box(e5)).map(Bitboard::count), Ok(27)),
            BatchSize::SmallInput,
        )
    });
}

/// A chain board from a mid-game particle, as a search simulation makes one: fresh tables (`from_board`) or
/// a board kept per thread and reset (`set_from_board`).
fn bench_from_board(c: &mut Criterion) {
    let board = Board::from_picture(9, MIDDLE_GAME);
    c.bench_function("chain board from a middle-game board 9x9, from_board", |b| {
        b.iter(|| {
            let chains = ChainBoard::from_board(black_box(&board));
            assert_eq!(chains.legal_points(Color::Black).count() as usize, MIDDLE_GAME_LEGAL_FOR_BLACK);
            chains.stones(Color::White)
        })
    });
    let mut reused = ChainBoard::new(9).expect("9x9");
    c.bench_function("chain board from a middle-game board 9x9, set_from_board", |b| {
        b.iter(|| {
            reused.set_from_board(black_box(&board));
            assert_eq!(reused.legal_points(Color::Black).count() as usize, MIDDLE_GAME_LEGAL_FOR_BLACK);
            reused.stones(Color::White)
        })
    });
}

criterion_group!(
    benches,
    bench_from_board,
    bench_playout,
    bench_chain_playout,
    bench_one_move,
    bench_replay,
    bench_legality,
    bench_capture
);
criterion_main!(benches);
