//! `phantomgo bench`: playout and search speed, printed as text or one JSON object.

use crate::board::Board;
use crate::color::Color;
use crate::game::Rules;
use crate::search::playout::random_playout;
use crate::search::SearchLimits;
use crate::search::{search, SearchConfig, SearchInput};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// What to benchmark.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum BenchKind {
    /// Uniform random perfect-information playouts from the empty board, one thread, on each size given.
    Playouts {
        /// Number of playouts per size.
        #[arg(long, default_value_t = 200_000)]
        count: u64,
        /// Board sizes (repeat the option or list them: `--size 9 11`).
        #[arg(long, num_args = 1.., default_values_t = [9, 11])]
        size: Vec<usize>,
        /// Print one JSON object per size (one a line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Search simulations per second from the empty board and a mid-game position, with 1 and 2 threads
    /// (and with the global `--threads N` too, when given and not 0); the earlier ISMCTS beside it.
    Search {
        /// Board size.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Seconds per measurement.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Figures from the search benchmark.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SearchBench {
    /// Board size.
    pub size: usize,
    /// Simulations per second, empty board, one thread.
    pub sims_per_s_1_thread: f64,
    /// Simulations per second, empty board, two threads.
    pub sims_per_s_2_threads: f64,
    /// Two threads over one, empty board.
    pub scaling_2_threads: f64,
    /// Simulations per second, mid-game position, one thread.
    pub midgame_sims_per_s_1_thread: f64,
    /// Simulations per second, mid-game position, two threads.
    pub midgame_sims_per_s_2_threads: f64,
    /// The earlier information-set MCTS (`--player ismcts`), empty board, one thread: the search before.
    pub ismcts_sims_per_s_1_thread: f64,
    /// The same, mid-game position.
    pub ismcts_midgame_sims_per_s_1_thread: f64,
    /// Mid-game, one thread, the earlier ISMCTS with its legal-move cache on (the main search has none).
    pub midgame_cached_sims_per_s_1_thread: f64,
    /// Share of cache lookups that hit in that run.
    pub cache_hit_rate: f64,
    /// Extra measurement: (threads, simulations per second on the empty board).
    pub extra: Option<(usize, f64)>,
}

/// A mid-game position: half as many turns as points (40 on 9x9) of a random Phantom Go game (judge-run, retry
/// rules), seen by the player to move.
fn midgame_input(size: usize) -> SearchInput {
    use crate::judge::{IllegalRule, Judge};
    use crate::point::Move;
    let mut judge = Judge::new(Rules::new(size), IllegalRule::Retry).expect("supported size");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut turns = 0;
    let half = (size * size / 2) as u32;
    while turns < half && !judge.game().is_over() {
        let color = judge.to_move();
        let empty = judge.game().board().empty();
        let mv =
            empty.nth(crate::search::playout::below(&mut rng, empty.count().max(1))).map_or(Move::Pass, Move::Play);
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
    // Every opponent stone uncertain (p = 0.5), so the information bonus is at work.
    let opponent = truth.stones(input.us.opponent());
    input.probabilities = truth.geometry().points().map(|p| if opponent.contains(p) { 0.5 } else { 0.0 }).collect();
    input.move_number = half;
    input
}

fn empty_input(size: usize) -> SearchInput {
    let board = Board::new(size).expect("supported size");
    SearchInput {
        particles: vec![board; 128],
        probabilities: vec![0.0; size * size],
        us: Color::Black,
        lose_turn: false,
        komi: 7.5,
        move_number: 0,
        tried_this_turn: crate::bitboard::Bitboard::EMPTY,
        known_opponent: crate::bitboard::Bitboard::EMPTY,
        retriable: crate::bitboard::Bitboard::EMPTY,
        opponent_passed: false,
        tries_left: None,
        repetition: crate::game::Repetition::Allowed,
        repeating: Vec::new(),
    }
}

/// Which search a measurement runs.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    /// The main search.
    Main,
    /// The earlier ISMCTS, with or without its legal-move cache.
    Ismcts { legal_cache: bool },
}

/// Simulations per second and the cache hit rate of one timed search.
fn measure(input: &SearchInput, base: &SearchConfig, threads: usize, seconds: f64, which: Which) -> (f64, f64) {
    let legal_cache = which == Which::Ismcts { legal_cache: true };
    let config = SearchConfig { convergence_ratio: f32::INFINITY, legal_cache, ..base.clone() };
    let budget = Duration::from_secs_f64(seconds);
    let limits = SearchLimits { soft: Some(budget), hard: Some(budget), ..SearchLimits::default() };
    let result = match which {
        Which::Main => search(input, &config, &limits, threads, 1, None),
        Which::Ismcts { .. } => crate::search::ismcts::search(input, &config, &limits, threads, 1, None),
    };
    let rate = result.simulations as f64 / result.elapsed.as_secs_f64().max(1e-9);
    (rate, result.cache_hits as f64 / result.cache_lookups.max(1) as f64)
}

/// Measures search speed on boards of `size` with the search settings `base` (the built-in ones, or those of
/// `bench search --config/--set`: a knob's cost in speed); the timed searches never stop early.
///
/// # Errors
/// When `size` is unsupported.
pub fn search_speed(
    size: usize,
    seconds: f64,
    extra_threads: usize,
    base: &SearchConfig,
) -> anyhow::Result<SearchBench> {
    if Board::new(size).is_none() {
        anyhow::bail!("unsupported board size {size}");
    }
    let empty = empty_input(size);
    let mid = midgame_input(size);
    let sims_per_second =
        |input: &SearchInput, threads: usize, seconds: f64| measure(input, base, threads, seconds, Which::Main).0;
    let one = sims_per_second(&empty, 1, seconds);
    let two = sims_per_second(&empty, 2, seconds);
    let (cached, hit_rate) = measure(&mid, base, 1, seconds, Which::Ismcts { legal_cache: true });
    let ismcts = |input: &SearchInput| measure(input, base, 1, seconds, Which::Ismcts { legal_cache: false }).0;
    Ok(SearchBench {
        size,
        ismcts_sims_per_s_1_thread: ismcts(&empty),
        ismcts_midgame_sims_per_s_1_thread: ismcts(&mid),
        midgame_cached_sims_per_s_1_thread: cached,
        cache_hit_rate: hit_rate,
        sims_per_s_1_thread: one,
        sims_per_s_2_threads: two,
        scaling_2_threads: two / one.max(1e-9),
        midgame_sims_per_s_1_thread: sims_per_second(&mid, 1, seconds),
        midgame_sims_per_s_2_threads: sims_per_second(&mid, 2, seconds),
        extra: (extra_threads > 0).then(|| (extra_threads, sims_per_second(&empty, extra_threads, seconds))),
    })
}

/// Figures from the playout benchmark.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct PlayoutBench {
    /// Board size.
    pub size: usize,
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
        size,
        playouts: count,
        seconds,
        playouts_per_s: count as f64 / seconds.max(1e-9),
        moves_per_playout: moves as f64 / count.max(1) as f64,
        capped_share: capped as f64 / count.max(1) as f64,
    })
}

/// Runs a benchmark and prints its figures; `threads` is the global `--threads` (an extra search measurement;
/// refused for playouts) and `search` the search settings of `--config`/`--set` when given (refused for
/// playouts).
///
/// # Errors
/// A bad size or count, `--threads`, `--config` or `--set` given to `bench playouts`, or stdout failing.
pub fn run(kind: &BenchKind, threads: Option<usize>, search: Option<&SearchConfig>) -> anyhow::Result<()> {
    match kind {
        BenchKind::Playouts { count, size: sizes, json } => {
            if threads.is_some() {
                anyhow::bail!("--threads is not used by bench playouts (one thread)");
            }
            if search.is_some() {
                anyhow::bail!("--config and --set are not used by bench playouts (uniform random playouts)");
            }
            for &size in sizes {
                let figures = playouts(*count, size)?;
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
        BenchKind::Search { size, seconds, json } => {
            let default = SearchConfig::default();
            let figures = search_speed(*size, *seconds, threads.unwrap_or(0), search.unwrap_or(&default))?;
            if *json {
                println!("{}", serde_json::to_string(&figures)?);
            } else {
                println!("search simulations per second ({size}x{size}, {seconds} s each):");
                println!("  empty board, 1 thread : {:>9.0}", figures.sims_per_s_1_thread);
                println!(
                    "  empty board, 2 threads: {:>9.0}  ({:.2}x)",
                    figures.sims_per_s_2_threads, figures.scaling_2_threads
                );
                println!("  mid-game,    1 thread : {:>9.0}", figures.midgame_sims_per_s_1_thread);
                println!("  mid-game,    2 threads: {:>9.0}", figures.midgame_sims_per_s_2_threads);
                println!(
                    "  earlier ISMCTS (--player ismcts), 1 thread: empty {:>9.0}, mid-game {:>9.0}",
                    figures.ismcts_sims_per_s_1_thread, figures.ismcts_midgame_sims_per_s_1_thread
                );
                println!(
                    "  earlier ISMCTS, mid-game, 1 thread, legal-move cache: {:>9.0}  (hit rate {:.1}%)",
                    figures.midgame_cached_sims_per_s_1_thread,
                    figures.cache_hit_rate * 100.0
                );
                if let Some((t, sims)) = figures.extra {
                    println!("  empty board, {t} threads: {sims:>9.0}");
                }
            }
        }
    }
    Ok(())
}
