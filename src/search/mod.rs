//! The search's shared vocabulary (settings, what the engine tells it, what it answers) and its entry point:
//! the main search ([`uct`]: determinized UCT with RAVE over the belief), the earlier information-set MCTS
//! ([`ismcts`]), the published baselines ([`flat`], [`pimc`]), playouts and the safe try for an empty clock.

pub mod flat;
pub mod ismcts;
pub mod limits;
pub mod pimc;
pub mod player;
pub mod playout;
pub mod policy;
pub mod tree;
pub mod uct;

pub use limits::SearchLimits;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};
use crate::scoring;
use playout::{PlayoutPolicy, SideView};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The main search's default [`SearchConfig::tie_jitter`]: 2^24 x 1e-9, the largest perturbation of the tie-break
/// the search was built with.
pub const DEFAULT_TIE_JITTER: f32 = 0.016_777_216;

/// Search settings (all configurable).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// UCB exploration constant (the main search: at the root and at the opponent's nodes).
    pub exploration: f32,
    /// The main search's UCB exploration constant at our own nodes below the root, where our later tries are
    /// chosen on the simulation's board; `exploration` elsewhere. The same 0.15 by default: 0.05 won 219 of 400
    /// self-play games at 4000 playouts (not shown to differ from half), no more against `pimc`, and 62 of 100
    /// on the 4x line against the default's 74 (p = 0.088; docs/ladder/stop42-probes).
    pub exploration_below: f32,
    /// Add the information-gain bonus alpha * p * (1 - p) to tries.
    pub info_gain: bool,
    /// Alpha at the first move.
    pub alpha_start: f32,
    /// Alpha from `alpha_decay_moves` on.
    pub alpha_end: f32,
    /// Moves over which alpha decays linearly; 0 = fixed `alpha_start`.
    pub alpha_decay_moves: u32,
    /// No bonus at points where p * (1 - p) is below this (already settled).
    pub probe_min_uncertainty: f32,
    /// No bonus at all when the belief's mean per-point p * (1 - p) over empty points is below this.
    pub probe_min_mean_uncertainty: f32,
    /// Points added to our score per stone we capture in a playout (and taken per stone we lose).
    pub capture_bonus: f32,
    /// Visits of an edge before its outcome child is expanded.
    pub expand_after: u32,
    /// Cap on nodes per worker tree.
    pub max_nodes: usize,
    /// Stop early when the best root try has this many times the visits of the second and the rest of the
    /// budget cannot change the order.
    pub convergence_ratio: f32,
    /// Playouts when no limit at all is given.
    pub default_playouts: u64,
    /// The playout policy.
    pub policy: PlayoutPolicy,
    /// Cache the outcome of our tries in the tree phase by Zobrist hash (checked against the full masks).
    /// Off by default: `phantomgo bench search` measures it and it does not pay (see the README).
    pub legal_cache: bool,
    /// Who wins a playout that ends level (the reward of a zero margin).
    pub tie: scoring::TieRule,
    /// RAVE equivalence parameter k of the main search: the RAVE mean's weight falls to one half near
    /// k / 3 visits of a move; 0 = no RAVE.
    pub rave_equivalence: f32,
    /// The RAVE equivalence parameter at the main search's root (its tries); 0 = `rave_equivalence`. Only where
    /// `rave_equivalence` is above 0 (the all-moves-as-first statistics are kept only then).
    pub root_rave_equivalence: f32,
    /// The largest random perturbation added to every edge's value at each selection of the main search (in
    /// win-rate units): it breaks ties at random instead of by point order, and blurs value differences below
    /// it. [`DEFAULT_TIE_JITTER`] (0.0168) is the size every measured line before stop 50 was played with; 0.0001
    /// was no stronger (docs/ladder/stop50-jitter).
    pub tie_jitter: f32,
    /// Value of a move never tried (no visits, no RAVE statistics) in the main search.
    pub first_play_urgency: f32,
    /// Progressive widening of the main search: at a node (the root included) with n visits, a move not yet
    /// tried there is chosen only while fewer than ceil(widening * (n + 1)^widening_power) of the offered moves
    /// have been tried, and then only when its value (its RAVE mean and exploration term) beats every tried
    /// move's; otherwise the best tried move is chosen. 0 = off: every move is let in at once.
    pub widening: f32,
    /// The exponent of [`SearchConfig::widening`] (0..=1).
    pub widening_power: f32,
    /// The main search's opponent as a fallible player: at each of the opponent's nodes below the root, with this
    /// probability (0..=1) the walk takes a move drawn uniformly from the offered points instead of the
    /// selection's. The real opponent does not see our stones and plays worse than the tree's opponent, which
    /// answers every particle's board as if it saw it. 0 = off (the default; measured in
    /// docs/ladder/stop55-black-levers and stop56-timed-mix).
    pub opponent_mix: f32,
    /// The main search's playout policy: by default the light policy, ended by the mercy rule at a lead of a
    /// quarter of the points and capped at two moves a point.
    pub playout: policy::PolicyConfig,
    /// The main search passes instead of its most visited try when the pass's win rate is within this of the
    /// try's (and the pass was offered and searched).
    pub pass_margin: f32,
    /// The main search does not pass while at least `invader_share` of the particles show an opponent stone in our
    /// area, unless the best try's win rate is below the pass's by more than this.
    pub invader_margin: f32,
    /// The main search under `lose-turn`: taken off the reward of a simulation whose root try was refused (the
    /// particle held a stone there), so that where every try wins alike the search prefers the tries that keep
    /// the turn; 0 = a refused try costs only what the lost turn costs on the board.
    pub refusal_cost: f32,
    /// The share of particles showing an opponent stone inside our area from which the main search counts
    /// our area as invaded and does not pass (see `invader_margin`).
    pub invader_share: f32,
    /// [`SearchConfig::invader_share`] under `retry`, where a try made instead of a pass costs only the try.
    pub invader_share_retry: f32,
    /// Under `retry`, when the main search would pass: the share of particles showing an unseen opponent stone
    /// inside our area at one point from which that point is tried first (a clean-up probe); 0 = never.
    pub cleanup_share: f32,
    /// Under `retry`, the share of its statistics the main search keeps from the search of a try refused since
    /// (the next try of the same turn starts from that tree, scaled by this); 0 = every search starts afresh.
    pub reuse_decay: f32,
    /// At our next turn after a try that stood, the share of the main search's statistics after that try and
    /// each reply that starts the new root's edges (summed over the replies); 0 = none.
    pub reply_prior: f32,
    /// Weigh the kept statistics by how much of them the referee's answer left standing: after a refusal
    /// `reuse_decay` is multiplied by the share of the old search's particles in which the refused try was
    /// illegal too (the simulations on the others ran on boards the refusal rules out), and at the next turn
    /// `reply_prior` by the share in which it was legal; false = the two shares as given. On by default: as Black against `pimc`
    /// at 8000 playouts the engine at 32000 won 34 of 40 with it and 23 without (docs/ladder/carry-consistent).
    pub carry_consistent: bool,
    /// The main search keeps one tree per player (multiple-observer information-set MCTS): each side's moves
    /// in the tree are chosen at nodes keyed by what that side has seen (its own moves; of the other side's,
    /// only passes and captures), so neither side answers a move it was not shown; false = one tree keyed by
    /// every move, in which both sides see all.
    pub observer_trees: bool,
    /// The main search's playouts play the last good reply to the stone just played when it is playable (LGRF-1:
    /// each worker learns, per colour, the reply that won its last simulation after each opponent move, and
    /// forgets a reply that lost); false = the playout policy alone. Off by default: level against the default
    /// at 1000, 4000 and 16000 playouts and on the 4x line, 6-8% slower (docs/ladder/last-good-reply).
    pub last_good_reply: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: 0.15,
            exploration_below: 0.15,
            info_gain: false,
            alpha_start: 0.15,
            alpha_end: 0.03,
            alpha_decay_moves: 50,
            probe_min_uncertainty: 0.02,
            probe_min_mean_uncertainty: 0.0,
            capture_bonus: 0.5,
            expand_after: 2,
            max_nodes: 200_000,
            convergence_ratio: 5.0,
            default_playouts: 20_000,
            policy: PlayoutPolicy::default(),
            legal_cache: false,
            tie: scoring::TieRule::Draw,
            rave_equivalence: 4000.0,
            root_rave_equivalence: 0.0,
            tie_jitter: DEFAULT_TIE_JITTER,
            first_play_urgency: 1.1,
            widening: 0.0,
            widening_power: 0.5,
            opponent_mix: 0.0,
            playout: policy::PolicyConfig { mercy: 0.25, moves_per_point: 2, ..policy::PolicyConfig::light() },
            pass_margin: 0.02,
            invader_margin: 0.1,
            refusal_cost: 0.25,
            invader_share: 0.5,
            invader_share_retry: 0.2,
            cleanup_share: 0.03,
            reuse_decay: 0.5,
            reply_prior: 0.5,
            carry_consistent: true,
            observer_trees: false,
            last_good_reply: false,
        }
    }
}

impl SearchConfig {
    /// Alpha at move `move_number`: linear from `alpha_start` to `alpha_end` over `alpha_decay_moves`.
    pub fn alpha(&self, move_number: u32) -> f32 {
        if !self.info_gain {
            return 0.0;
        }
        if self.alpha_decay_moves == 0 {
            return self.alpha_start;
        }
        let t = (move_number as f32 / self.alpha_decay_moves as f32).min(1.0);
        self.alpha_start + (self.alpha_end - self.alpha_start) * t
    }
}

/// Everything the search needs to know about the position, from the engine.
#[derive(Clone, Debug)]
pub struct SearchInput {
    /// Determinizations: hypotheses of the true board (our stones exact), ready for `us` to move.
    pub particles: Vec<Board>,
    /// Per point index, the share of particles with an opponent stone there.
    pub probabilities: Vec<f32>,
    /// Our colour.
    pub us: Color,
    /// Illegal tries cost a turn (true) or are retried (false).
    pub lose_turn: bool,
    /// Komi.
    pub komi: f32,
    /// Turns played so far (alpha decay).
    pub move_number: u32,
    /// Points we already tried illegal this turn.
    pub tried_this_turn: Bitboard,
    /// Opponent stones we know for certain.
    pub known_opponent: Bitboard,
    /// Points in `known_opponent` only because an old refusal there may have been a suicide, which some particles
    /// now find legal (a capture; [`crate::belief::Belief::retriable`]): the main search offers them again
    /// before a pass under `retry`.
    pub retriable: Bitboard,
    /// The opponent passed on its last turn (a pass of ours would end the game).
    pub opponent_passed: bool,
    /// Tries the referee's cap (`phantom-rules max-tries=N`) leaves in the game, both players' tries counted as
    /// the engine knows them (see [`crate::engine::Engine::tries_made`]); `None` when no cap was announced.
    pub tries_left: Option<u32>,
    /// What the referee does with a move that recreates an earlier whole-board position
    /// (`phantom-rules repetition=...`).
    pub repetition: crate::game::Repetition,
    /// Per particle (same order as `particles`), the root points where our stone would recreate one of that
    /// particle's earlier whole-board positions ([`uct::repeating_tries`]); empty when unknown or the rule
    /// is `allowed`.
    pub repeating: Vec<Bitboard>,
}

#[cfg(test)]
impl SearchInput {
    /// A test input: `particles` as the belief, `us` to move at move 0 with nothing tried or announced; p is the
    /// share of particles holding an opponent stone, and the opponent stones every particle holds are known.
    pub(crate) fn for_test(particles: Vec<Board>, us: Color, komi: f32) -> SearchInput {
        let n = particles.len() as f32;
        let them = us.opponent();
        let probabilities = particles[0]
            .geometry()
            .points()
            .map(|p| particles.iter().filter(|b| b.stones(them).contains(p)).count() as f32 / n)
            .collect();
        let known_opponent = particles.iter().fold(particles[0].stones(them), |all, b| all & b.stones(them));
        SearchInput {
            particles,
            probabilities,
            us,
            lose_turn: false,
            komi,
            move_number: 0,
            tried_this_turn: Bitboard::EMPTY,
            known_opponent,
            retriable: Bitboard::EMPTY,
            opponent_passed: false,
            tries_left: None,
            repetition: crate::game::Repetition::Allowed,
            repeating: Vec::new(),
        }
    }
}

/// Statistics of one root try after the search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootChild {
    /// The try.
    pub mv: Move,
    /// Visits over all workers.
    pub visits: u32,
    /// Mean reward.
    pub win_rate: f32,
    /// Share of visits where it was illegal.
    pub illegal_rate: f32,
    /// Our mean final area margin (komi included) over this search's simulations through the try, in points
    /// (the main search only; 0 where a player does not keep it).
    pub margin: f32,
}

/// The search's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited try.
    pub best: Move,
    /// Its win rate.
    pub win_rate: f32,
    /// Simulations run over all workers.
    pub simulations: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Root tries, most visited first.
    pub children: Vec<RootChild>,
    /// Why it stopped.
    pub stop: StopReason,
    /// Legal-move cache lookups and hits over all workers (0 when the cache is off).
    pub cache_lookups: u64,
    /// Hits among those lookups.
    pub cache_hits: u64,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Playout limit reached.
    Playouts,
    /// Soft time budget reached.
    Time,
    /// The best try could no longer be overtaken.
    Converged,
    /// Only one candidate.
    Forced,
}

impl SearchInput {
    /// What we know at the root, as a playout side's view.
    fn our_view(&self) -> SideView {
        SideView { known_opponent: self.known_opponent, tried_this_turn: self.tried_this_turn }
    }
}

/// Root candidate tries: empty points of our view (not our stones, not known opponent stones, not points tried
/// this turn, not our own single-point eyes); a pass too when nothing else is left or the opponent just passed.
pub fn root_moves(input: &SearchInput) -> Vec<Move> {
    let Some(board) = input.particles.first() else {
        return vec![Move::Pass];
    };
    let view = input.our_view();
    let mut moves: Vec<Move> = playout::candidates(board, input.us, &view).iter().map(Move::Play).collect();
    if moves.is_empty() || input.opponent_passed {
        moves.push(Move::Pass);
    }
    moves
}

/// The information bonus alpha * p * (1 - p) per point index, where a share p of the particles holds an
/// opponent stone: 0 when the bonus is off, while the belief's mean p * (1 - p) is below
/// `probe_min_mean_uncertainty` (a settled phase), and at points below `probe_min_uncertainty`. Both searches
/// add it to our tries at the root of a turn.
pub fn probe_bonuses(input: &SearchInput, config: &SearchConfig) -> Vec<f32> {
    let alpha = config.alpha(input.move_number);
    let n = input.probabilities.len().max(1) as f32;
    let mean = input.probabilities.iter().map(|p| p * (1.0 - p)).sum::<f32>() / n;
    let probing = alpha > 0.0 && mean >= config.probe_min_mean_uncertainty;
    input
        .probabilities
        .iter()
        .map(|p| {
            let uncertainty = p * (1.0 - p);
            if !probing || uncertainty < config.probe_min_uncertainty {
                0.0
            } else {
                alpha * uncertainty
            }
        })
        .collect()
}

/// The visits of the two most visited edges of a root, given as visit counts.
pub(crate) fn best_two(visits: impl Iterator<Item = u32>) -> (u32, u32) {
    let (mut best, mut second) = (0, 0);
    for v in visits {
        if v > best {
            second = best;
            best = v;
        } else if v > second {
            second = v;
        }
    }
    (best, second)
}

/// Whether a timed search may stop: the leader has `ratio` times the runner-up's visits and the `left`
/// simulations the budget still allows could not close the gap.
pub(crate) fn leader_is_safe(visits: impl Iterator<Item = u32>, ratio: f32, left: f64) -> bool {
    let (best, second) = best_two(visits);
    best as f32 >= ratio * second.max(1) as f32 && f64::from(best - second) > left
}

/// Runs the main search ([`uct::search`]) with `threads` root-parallel workers within `limits`; a fixed seed,
/// a playout limit and one thread give the same answer every run. `external_stop` lets a caller end it early.
pub fn search(
    input: &SearchInput,
    config: &SearchConfig,
    limits: &SearchLimits,
    threads: usize,
    seed: u64,
    external_stop: Option<&AtomicBool>,
) -> SearchResult {
    uct::search(input, config, limits, threads, seed, external_stop)
}

/// Top tries this many in the debug summary of a search.
const SUMMARY_TRIES: usize = 5;

/// One line for the debug log: simulations (and the root visits carried from an earlier tree), why the search
/// stopped, and the most visited tries with their visits, win rate, share of visits where they were illegal,
/// the probability of an opponent stone there, and (where the player keeps it: the main search) the mean final
/// margin, which chooses among tries once every one is lost.
pub fn search_summary(result: &SearchResult, probabilities: &[f32], size: usize) -> String {
    let margins = result.children.iter().any(|c| c.margin != 0.0);
    let tries: Vec<String> = result
        .children
        .iter()
        .take(SUMMARY_TRIES)
        .map(|child| {
            let p = child.mv.point().and_then(|point| probabilities.get(point.index())).copied().unwrap_or(0.0);
            let margin = if margins { format!(" margin {:+.1}", child.margin) } else { String::new() };
            format!(
                "{} visits {} win {:.3} illegal {:.2} p(stone) {:.2}{margin}",
                child.mv.to_vertex(size),
                child.visits,
                child.win_rate,
                child.illegal_rate,
                p
            )
        })
        .collect();
    // Root visits past the simulations run were carried from an earlier search's tree (uct::KeptTrees).
    let visits: u64 = result.children.iter().map(|c| u64::from(c.visits)).sum();
    format!(
        "search: {} simulations in {:.0} ms (+{} visits carried), stopped on {:?}; top tries: {}",
        result.simulations,
        result.elapsed.as_secs_f64() * 1000.0,
        visits.saturating_sub(result.simulations),
        result.stop,
        if tries.is_empty() { "none".to_string() } else { tries.join("; ") }
    )
}

/// A safe try for when there is no time to search: the candidate least likely to hold a hidden opponent stone
/// (ideally one no particle puts a stone on), legal for us in the first particle, preferring points that leave
/// the stone with two or more liberties and next to our own stones, then away from the edge (on an empty board:
/// the centre). A pass only when there is no candidate.
pub fn safe_move(input: &SearchInput) -> Move {
    let Some(board) = input.particles.first() else {
        return Move::Pass;
    };
    let geometry = board.geometry();
    let us = input.us;
    let view = input.our_view();
    let own = board.stones(us);
    let mut best: Option<(f32, i32, Point)> = None;
    for point in playout::candidates(board, us, &view).iter() {
        let p = input.probabilities.get(point.index()).copied().unwrap_or(1.0);
        let mut after = board.clone();
        if after.try_play(us, point).is_err() {
            continue;
        }
        let liberties = after.group_and_liberties(point).1.count();
        let (col, row, last) = (geometry.col(point), geometry.row(point), geometry.size() - 1);
        let from_edge = col.min(row).min(last - col).min(last - row);
        let score = if liberties >= 2 { 100 } else { 0 }
            + 8 * (geometry.neighbours(point) & own).count() as i32
            + 2 * liberties.min(4) as i32
            + from_edge.min(5) as i32;
        let better = match best {
            None => true,
            Some((best_p, best_score, _)) => p < best_p || (p == best_p && score > best_score),
        };
        if better {
            best = Some((p, score, point));
        }
    }
    best.map_or(Move::Pass, |(_, _, point)| Move::Play(point))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `board` as the only particle, komi 7.5, no opponent stone known.
    fn input_from(board: Board, us: Color) -> SearchInput {
        SearchInput { known_opponent: Bitboard::EMPTY, ..SearchInput::for_test(vec![board], us, 7.5) }
    }

    #[test]
    fn alpha_decays_linearly_then_stays() {
        let config = SearchConfig { info_gain: true, ..SearchConfig::default() };
        assert!((config.alpha(0) - 0.15).abs() < 1e-6);
        assert!((config.alpha(25) - 0.09).abs() < 1e-6);
        assert!((config.alpha(50) - 0.03).abs() < 1e-6);
        assert!((config.alpha(120) - 0.03).abs() < 1e-6);
        let fixed = SearchConfig { alpha_decay_moves: 0, ..config.clone() };
        assert!((fixed.alpha(80) - 0.15).abs() < 1e-6);
        let off = SearchConfig { info_gain: false, ..SearchConfig::default() };
        assert_eq!(off.alpha(0), 0.0);
    }

    #[test]
    fn the_summary_shows_margins_only_where_the_player_keeps_them() {
        let child = |vertex, margin: f32| RootChild {
            mv: Move::Play(Point::new(vertex).unwrap()),
            visits: 40,
            win_rate: 0.01,
            illegal_rate: 0.0,
            margin,
        };
        let mut result = SearchResult {
            best: Move::Pass,
            win_rate: 0.01,
            simulations: 80,
            elapsed: Duration::from_millis(5),
            children: vec![child(12, -20.5), child(7, 0.0)],
            stop: StopReason::Playouts,
            cache_lookups: 0,
            cache_hits: 0,
        };
        let line = search_summary(&result, &[0.0; 25], 5);
        assert!(line.contains("C3 visits 40 win 0.010 illegal 0.00 p(stone) 0.00 margin -20.5"), "{line}");
        assert!(line.contains("C2 visits 40 win 0.010 illegal 0.00 p(stone) 0.00 margin +0.0"), "{line}");
        for c in &mut result.children {
            c.margin = 0.0;
        }
        assert!(!search_summary(&result, &[0.0; 25], 5).contains("margin"));
    }

    #[test]
    fn safe_move_prefers_certainly_empty_points_and_passes_last() {
        let board = Board::new(5).unwrap();
        let mut input = input_from(board, Color::Black);
        for p in input.probabilities.iter_mut() {
            *p = 0.5;
        }
        input.probabilities[12] = 0.0; // C3
        assert_eq!(safe_move(&input), Move::Play(Point::new(12).unwrap()));
        // No certainly empty point: the least likely one, still not a pass.
        input.probabilities[12] = 0.5;
        input.probabilities[7] = 0.1; // C2
        assert_eq!(safe_move(&input), Move::Play(Point::new(7).unwrap()));
        // On an empty board with nothing known, the centre.
        let empty = input_from(Board::new(9).unwrap(), Color::Black);
        assert_eq!(safe_move(&empty).to_vertex(9), "E5");
        // Nothing left to try: pass.
        input.tried_this_turn = input.particles[0].geometry().mask();
        assert_eq!(safe_move(&input), Move::Pass);
    }
}
