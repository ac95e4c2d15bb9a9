//! How the main search's playout rules that end a playout early change its length and its result: for each
//! mercy share (a playout ends once one colour leads by that share of the points in stones) and move cap,
//! uniformly random playouts from the empty 9x9 board (the search's light policy, seed 1): moves a playout,
//! Black's wins at komi 7.5, the share ended by the mercy rule, and of those the share whose winner changes when
//! the same board is played on to the end without the rule.
//!
//! `cargo run --release --example playout_length -- 40000` (the number of playouts per setting).
use phantomgo::chains::ChainBoard;
use phantomgo::search::policy::{playout, PolicyConfig};
use phantomgo::{Board, Color};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let count: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(40_000);
    let empty = ChainBoard::from_board(&Board::new(9).expect("9x9"));
    for (mercy, cap) in [(0.0f32, 3u32), (0.0, 2), (0.2, 3), (0.25, 3), (0.3, 3), (0.4, 3), (0.25, 2)] {
        let config = PolicyConfig { mercy, moves_per_point: cap, ..PolicyConfig::light() };
        let free = PolicyConfig::light();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let (mut moves, mut black_wins, mut by_mercy, mut turned) = (0u64, 0u64, 0u64, 0u64);
        let mut played = Vec::new();
        for _ in 0..count {
            let mut board = empty.clone();
            let out = playout(&mut board, Color::Black, 0, None, 7.5, &config, &mut rng, &mut played);
            // The rule is checked before each turn and the lead changes only with a stone, so a mercy stop follows
            // a stone: the other colour moves next (the count of stones says nothing after an earlier pass).
            let next = played.last().map_or(Color::Black, |&(color, _)| color.opponent());
            played.clear();
            moves += u64::from(out.moves);
            let black_won = board.area_margin(7.5) > 0.0;
            black_wins += u64::from(black_won);
            if out.mercy {
                by_mercy += 1;
                // Played on without the rule from where it stopped.
                let mut rest = board.clone();
                playout(&mut rest, next, 0, None, 7.5, &free, &mut rng, &mut played);
                played.clear();
                turned += u64::from((rest.area_margin(7.5) > 0.0) != black_won);
            }
        }
        println!(
            "mercy {mercy:.2} cap {cap}x: {:.1} moves/playout, Black wins {:.3}, ended by mercy {:.3}, of those turned {:.4}",
            moves as f64 / count as f64,
            black_wins as f64 / count as f64,
            by_mercy as f64 / count as f64,
            turned as f64 / by_mercy.max(1) as f64
        );
    }
}
