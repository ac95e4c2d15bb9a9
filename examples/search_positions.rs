//! The positions of `phantomgo bench search` (the empty 9x9 board, and the mid-game: a random judge-run game 40
//! turns in, 128 copies of its board) searched for a fixed number of simulations on one thread with seed 1, so
//! that instruction counts (callgrind) and CPU times (`perf stat`) of the main search can be compared between
//! builds, which a timed bench cannot give. The positions are built as `src/bench.rs` builds them (copied here so
//! the file also builds against older commits, e.g. 827dffe).
//!
//! `cargo run --release --example search_positions -- mid 200000` (or `empty`); prints the answer, a check sum of
//! the root visits (equal between builds that search alike) and the rate.
use phantomgo::bitboard::Bitboard;
use phantomgo::judge::{IllegalRule, Judge};
use phantomgo::point::Move;
use phantomgo::search::{search, SearchConfig, SearchInput, SearchLimits};
use phantomgo::{Board, Color, Rules};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The bench's empty 9x9 position.
fn empty_input(size: usize) -> SearchInput {
    let board = Board::new(size).expect("size");
    SearchInput {
        particles: vec![board; 128],
        probabilities: vec![0.0; size * size],
        us: Color::Black,
        lose_turn: false,
        komi: 7.5,
        move_number: 0,
        tried_this_turn: Bitboard::EMPTY,
        known_opponent: Bitboard::EMPTY,
        retriable: Bitboard::EMPTY,
        opponent_passed: false,
        tries_left: None,
        repetition: phantomgo::game::Repetition::Allowed,
        repeating: Vec::new(),
    }
}

/// The bench's mid-game position.
fn midgame_input(size: usize) -> SearchInput {
    let mut judge = Judge::new(Rules::new(size), IllegalRule::Retry).expect("size");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut turns = 0;
    let half = (size * size / 2) as u32;
    while turns < half && !judge.game().is_over() {
        let color = judge.to_move();
        let empty = judge.game().board().empty();
        let mv =
            empty.nth(phantomgo::search::playout::below(&mut rng, empty.count().max(1))).map_or(Move::Pass, Move::Play);
        if let Ok(ruling) = judge.submit(color, mv) {
            if ruling.next_to_move != color {
                turns += 1;
            }
        }
    }
    let truth = judge.game().board().clone();
    let mut input = empty_input(size);
    input.particles = vec![truth.clone(); 128];
    input.us = judge.to_move();
    let opponent = truth.stones(input.us.opponent());
    input.probabilities = truth.geometry().points().map(|p| if opponent.contains(p) { 0.5 } else { 0.0 }).collect();
    input.move_number = half;
    input
}

/// Runs the search given by the arguments: `mid` or `empty`, then the number of simulations.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("mid");
    let playouts: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20000);
    let input = if which == "mid" { midgame_input(9) } else { empty_input(9) };
    let config = SearchConfig { convergence_ratio: f32::INFINITY, ..SearchConfig::default() };
    let limits = SearchLimits { playouts: Some(playouts), ..SearchLimits::default() };
    let r = search(&input, &config, &limits, 1, 1, None);
    // Root visits weighted by the move: equal when two builds searched alike.
    let sum: u64 =
        r.children.iter().map(|c| c.visits as u64 * (1 + c.mv.point().map_or(0, |p| p.index() as u64))).sum();
    println!(
        "{} best {:?} sims {} wr {:.6} check {} {:.3}s {:.0}/s",
        which,
        r.best,
        r.simulations,
        r.win_rate,
        sum,
        r.elapsed.as_secs_f64(),
        r.simulations as f64 / r.elapsed.as_secs_f64()
    );
}
