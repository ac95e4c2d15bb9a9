//! The move choosers behind one trait: what a player is told about the position ([`PlayerInput`]), the
//! [`Player`] trait, and the root-parallel budget loop (playouts, time, threads) the baselines share.

use super::SearchLimits;
use super::{RootChild, SearchConfig, SearchInput, SearchResult, StopReason};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::point::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What a player knows when it is asked for a try: the engine's search input plus the raw knowledge the
/// published baselines work from.
#[derive(Clone, Debug)]
pub struct PlayerInput {
    /// The belief-based input (particles, probabilities, our colour, rules, komi, tries refused this turn).
    /// `search.particles` is empty for players that do not use the belief (`flat`).
    pub search: SearchInput,
    /// Our stones and the opponent stones we have seen, with the ko the known moves left; `search.us` to move.
    pub known: Board,
    /// Opponent stones read from our refused tries (an illegal try read as a stone), not since captured.
    pub inferred_opponent: Bitboard,
    /// Opponent stones on the board that we have not seen (played out of sight and not known captured),
    /// the inferred ones included.
    pub unseen_opponent: u32,
}

/// A move chooser: answers the try to make from what the player knows, within the limits.
pub trait Player: Sync {
    /// The try to make. A fixed `seed` with a playout limit and one thread gives the same answer every run.
    fn choose(&self, input: &PlayerInput, limits: &SearchLimits, threads: usize, seed: u64) -> SearchResult;
}

/// The engine's own player: belief + the main search ([`super::search`]).
pub struct Main<'a>(pub &'a SearchConfig);

impl Player for Main<'_> {
    fn choose(&self, input: &PlayerInput, limits: &SearchLimits, threads: usize, seed: u64) -> SearchResult {
        super::search(&input.search, self.0, limits, threads, seed, None)
    }
}

/// The earlier information-set MCTS player ([`super::ismcts::search`]).
pub struct Ismcts<'a>(pub &'a SearchConfig);

impl Player for Ismcts<'_> {
    fn choose(&self, input: &PlayerInput, limits: &SearchLimits, threads: usize, seed: u64) -> SearchResult {
        super::ismcts::search(&input.search, self.0, limits, threads, seed, None)
    }
}

/// The answer when there is only one candidate: no simulation is run.
pub(crate) fn forced(best: Move, start: Instant) -> SearchResult {
    SearchResult {
        best,
        win_rate: 0.5,
        simulations: 0,
        elapsed: start.elapsed(),
        children: vec![RootChild { mv: best, visits: 0, win_rate: 0.5, illegal_rate: 0.0, margin: 0.0 }],
        stop: StopReason::Forced,
        cache_lookups: 0,
        cache_hits: 0,
    }
}

/// The result of a finished search whose `children` are already ranked best first (at least one).
pub(crate) fn ranked(children: Vec<RootChild>, simulations: u64, start: Instant, stop: StopReason) -> SearchResult {
    SearchResult {
        best: children[0].mv,
        win_rate: children[0].win_rate,
        simulations,
        elapsed: start.elapsed(),
        children,
        stop,
        cache_lookups: 0,
        cache_hits: 0,
    }
}

/// The seed of worker `t` of a root-parallel search.
pub(crate) fn worker_seed(seed: u64, t: usize) -> u64 {
    seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Runs `threads` workers, each built by `make` from its seed and stepped by `step` (one simulation a step)
/// until the playout limit (or `default_playouts` when no limit at all is given) or the soft/hard time is
/// reached, or until `external_stop` is set. Only worker 0 reads the clock. Returns the workers, the simulations run and why they stopped.
/// With one thread and a playout limit the run is deterministic.
pub(crate) fn run_workers<W: Send>(
    limits: &SearchLimits,
    default_playouts: u64,
    threads: usize,
    seed: u64,
    external_stop: Option<&AtomicBool>,
    make: impl Fn(u64) -> W + Sync,
    step: impl Fn(&mut W) + Sync,
) -> (Vec<W>, u64, StopReason) {
    run_workers_until(limits, default_playouts, threads, seed, external_stop, make, step, |_: &W, _: f64| false)
}

/// [`run_workers`] that also stops, on a time budget, when `settled(worker 0, simulations it may still run)`
/// says the answer can no longer change (the leader too far ahead to be caught).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_workers_until<W: Send>(
    limits: &SearchLimits,
    default_playouts: u64,
    threads: usize,
    seed: u64,
    external_stop: Option<&AtomicBool>,
    make: impl Fn(u64) -> W + Sync,
    step: impl Fn(&mut W) + Sync,
    settled: impl Fn(&W, f64) -> bool + Sync,
) -> (Vec<W>, u64, StopReason) {
    let start = limits.since.unwrap_or_else(Instant::now);
    let playout_limit =
        limits.playouts.or(if limits.soft.is_none() && limits.hard.is_none() { Some(default_playouts) } else { None });
    let soft = limits.soft.or(limits.hard);
    let hard = limits.hard;
    let simulations = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let timed_out = AtomicBool::new(false);
    let converged = AtomicBool::new(false);
    let workers = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let (simulations, stop, timed_out, make, step) = (&simulations, &stop, &timed_out, &make, &step);
                let (converged, settled) = (&converged, &settled);
                scope.spawn(move || {
                    let mut worker = make(worker_seed(seed, t));
                    let mut local = 0u64;
                    while !stop.load(Ordering::Relaxed) && !external_stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        if simulations.fetch_add(1, Ordering::Relaxed) >= playout_limit.unwrap_or(u64::MAX) {
                            simulations.fetch_sub(1, Ordering::Relaxed);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        step(&mut worker);
                        local += 1;
                        if t == 0 && local.is_multiple_of(16) {
                            let elapsed = start.elapsed();
                            if hard.is_some_and(|h| elapsed >= h) || soft.is_some_and(|s| elapsed >= s) {
                                timed_out.store(true, Ordering::Relaxed);
                                stop.store(true, Ordering::Relaxed);
                            } else if let Some(budget) = soft {
                                // Simulations this worker may still run at its current rate.
                                let rate = local as f64 / elapsed.as_secs_f64().max(1e-6);
                                let left = rate * (budget - elapsed).as_secs_f64();
                                if settled(&worker, left) {
                                    converged.store(true, Ordering::Relaxed);
                                    stop.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                    worker
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("search worker panicked")).collect::<Vec<W>>()
    });
    let reason = if timed_out.load(Ordering::Relaxed) {
        StopReason::Time
    } else if converged.load(Ordering::Relaxed) {
        StopReason::Converged
    } else {
        StopReason::Playouts
    };
    (workers, simulations.load(Ordering::Relaxed), reason)
}

/// Test picture shared by the players' tests: White's eight stones with one liberty, at D4, inside a Black
/// ring on 7x7; capturing at D4 wins the game.
#[cfg(test)]
pub(crate) fn ring_with_group_in_atari() -> Board {
    Board::from_picture(
        7,
        ". . . . . . .
         . . X X X . .
         . X O O O X .
         . X O . O X .
         . X O O O X .
         . . X X X . .
         . . . . . . .",
    )
}

/// A perfect-information input for tests: `board` is known in full, its only particle, `us` to move.
#[cfg(test)]
pub(crate) fn seen_input(board: Board, us: crate::color::Color, komi: f32) -> PlayerInput {
    PlayerInput {
        search: SearchInput::for_test(vec![board.clone()], us, komi),
        known: board,
        inferred_opponent: Bitboard::EMPTY,
        unseen_opponent: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn workers_stop_at_the_playout_limit_or_the_soft_time() {
        let limits = SearchLimits { playouts: Some(500), ..SearchLimits::default() };
        let (workers, sims, reason) = run_workers(&limits, 10, 2, 1, None, |_| 0u64, |w| *w += 1);
        assert_eq!(sims, 500);
        assert_eq!(workers.iter().sum::<u64>(), 500);
        assert_eq!(reason, StopReason::Playouts);
        let (_, sims, _) = run_workers(&SearchLimits::default(), 10, 1, 1, None, |_| 0u64, |w| *w += 1);
        assert_eq!(sims, 10, "the default budget applies when no limit is given");
        let timed = SearchLimits { soft: Some(Duration::from_millis(20)), ..SearchLimits::default() };
        let start = Instant::now();
        let (_, _, reason) =
            run_workers(&timed, 10, 1, 1, None, |_| (), |_| std::thread::sleep(Duration::from_micros(200)));
        assert_eq!(reason, StopReason::Time);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn the_budget_counts_from_its_anchor_not_from_the_search_start() {
        // A budget of 40 ms set 50 ms before the search starts has run out: worker 0 stops at its first look at
        // the clock (every 16 steps). Counted from the search's own start it would run about 40 ms of 200 us steps.
        let anchor = Instant::now();
        std::thread::sleep(Duration::from_millis(50));
        let budget = Some(Duration::from_millis(40));
        let limits = SearchLimits { soft: budget, hard: budget, since: Some(anchor), ..SearchLimits::default() };
        let step = |_: &mut ()| std::thread::sleep(Duration::from_micros(200));
        let (_, sims, reason) = run_workers(&limits, 10, 1, 1, None, |_| (), step);
        assert_eq!(reason, StopReason::Time);
        assert_eq!(sims, 16, "the first clock check finds the budget spent");
        // Without the anchor the same budget starts with the search: far more than 16 quick steps fit in it.
        let unanchored = SearchLimits { since: None, ..limits };
        let (_, sims, _) = run_workers(&unanchored, 10, 1, 1, None, |_| (), |_| std::hint::black_box(()));
        assert!(sims > 16, "without the anchor the budget was spent at once ({sims} steps)");
    }
}
