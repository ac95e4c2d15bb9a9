//! `phantomgo bench`: playout and search speed, printed as text or one JSON object.

use crate::board::Board;
use crate::color::Color;
use crate::search::playout::random_playout;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// What to benchmark.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum BenchKind {
    /// Uniform random perfect-information playouts from the empty board, one thread.
    Playouts {
        /// Number of playouts.
        #[arg(long, default_value_t = 200_000)]
        count: u64,
        /// Board size.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Figures from the playout benchmark.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct PlayoutBench {
    /// Playouts run.
    pub playouts: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Playouts per second.
    pub playouts_per_s: f64,
    /// Mean stones played per playout.
    pub moves_per_playout: f64,
    /// Share of playouts that hit the move cap (ko cycles) instead of ending by two passes.
    pub capped_share: f64,
}

/// Runs `count` random playouts on an empty board of `size` with a fixed seed.
///
/// # Errors
/// When `size` is unsupported.
pub fn playouts(count: u64, size: usize) -> anyhow::Result<PlayoutBench> {
    let empty = Board::new(size).ok_or_else(|| anyhow::anyhow!("unsupported board size {size}"))?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let cap = 3 * (size * size) as u32;
    let mut moves = 0u64;
    let mut capped = 0u64;
    let start = Instant::now();
    for _ in 0..count {
        let mut board = empty.clone();
        let out = random_playout(&mut board, Color::Black, &mut rng, cap);
        moves += out.moves as u64;
        capped += (!out.ended_by_passes) as u64;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(PlayoutBench {
        playouts: count,
        seconds,
        playouts_per_s: count as f64 / seconds.max(1e-9),
        moves_per_playout: moves as f64 / count.max(1) as f64,
        capped_share: capped as f64 / count.max(1) as f64,
    })
}

/// Runs a benchmark and prints its figures.
///
/// # Errors
/// Bad arguments or a failed search.
pub fn run(kind: &BenchKind) -> anyhow::Result<()> {
    match kind {
        BenchKind::Playouts { count, size, json } => {
            let figures = playouts(*count, *size)?;
            if *json {
                println!("{}", serde_json::to_string(&figures)?);
            } else {
                println!(
                    "{} playouts on {size}x{size} in {:.2} s: {:.0} playouts/s, {:.1} moves/playout, {:.1}% hit the move cap",
                    figures.playouts,
                    figures.seconds,
                    figures.playouts_per_s,
                    figures.moves_per_playout,
                    figures.capped_share * 100.0
                );
            }
        }
    }
    Ok(())
}
