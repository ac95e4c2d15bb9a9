//! The time manager: pure arithmetic from a time control and a clock state to a move's budget (soft, hard).
//!
//! Nothing here reads a clock. The protocol loop keeps one [`ClockState`] per colour (set by
//! `time_settings`/`kgs-time_settings`, corrected by `time_left`, advanced by [`ClockState::after_move`])
//! and asks [`TimeManager::limits`] for the [`SearchLimits`] of each `genmove`.
//!
//! Rules, in order:
//! - the soft budget is the time left over the expected number of our remaining tries for the board size
//!   (at least a floor, so time shrinks geometrically and never reaches zero), plus most of what byo-yomi
//!   gives every move; the search is told to stop at 90% of it;
//! - the hard budget never exceeds what is left (main time plus the current byo-yomi period) minus the
//!   safety margin for process and pipe lag, so no byo-yomi period is ever overrun;
//! - when the hard budget is too short to think, the move is an emergency: answer at once with a safe try.

use crate::search::SearchLimits;
use std::time::Duration;

/// Default allowance for process start-up, scheduling and pipe lag, taken off every hard budget.
pub const DEFAULT_SAFETY_MARGIN: Duration = Duration::from_millis(50);
/// The search is told to stop at this fraction of the soft budget.
pub const SOFT_STOP_FRACTION: f64 = 0.9;
/// Below this hard budget there is no point thinking: emergency mode.
pub const MIN_THINKING_TIME: Duration = Duration::from_millis(20);
/// Per-move budget when no clock, no fixed time and no fixed playouts are given.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// The hard budget is at most this many soft budgets (room to finish a move the search is unsure of).
const HARD_OVER_SOFT: u32 = 3;
/// In main time, never spend more than this fraction of what is left on one move.
const MAX_MAIN_FRACTION: f64 = 0.25;

/// A time control, per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// No limit.
    #[default]
    Unlimited,
    /// Sudden death.
    Absolute {
        /// Time for the whole game.
        main: Duration,
    },
    /// Japanese byo-yomi: after main time, every move must be made within one period; overrunning costs a period.
    ByoYomi {
        /// Main time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Number of periods.
        periods: u32,
    },
    /// Canadian byo-yomi: after main time, `stones` moves in every period.
    Canadian {
        /// Main time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Moves per period.
        stones: u32,
    },
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClockState {
    /// Main time left.
    pub main_left: Duration,
    /// Time left in the current byo-yomi period.
    pub period_left: Duration,
    /// Japanese byo-yomi periods left.
    pub periods_left: u32,
    /// Canadian stones still to play in the current period.
    pub stones_left: u32,
}

impl ClockState {
    /// A full clock at the start of a game.
    pub fn start(control: TimeControl) -> ClockState {
        match control {
            TimeControl::Unlimited => ClockState::default(),
            TimeControl::Absolute { main } => ClockState { main_left: main, ..ClockState::default() },
            TimeControl::ByoYomi { main, period, periods } => {
                ClockState { main_left: main, period_left: period, periods_left: periods, stones_left: 0 }
            }
            TimeControl::Canadian { main, period, stones } => {
                ClockState { main_left: main, period_left: period, periods_left: 0, stones_left: stones }
            }
        }
    }

    /// The clock told by GTP `time_left`: `stones` = 0 means `left` is main time; otherwise `left` is the current
    /// period and `stones` the Canadian stones (or, under Japanese byo-yomi, the periods) left.
    pub fn from_time_left(control: TimeControl, left: Duration, stones: u32) -> ClockState {
        let full = ClockState::start(control);
        if stones == 0 {
            return ClockState { main_left: left, ..full };
        }
        match control {
            TimeControl::Unlimited | TimeControl::Absolute { .. } => ClockState { main_left: left, ..full },
            TimeControl::ByoYomi { .. } => {
                ClockState { main_left: Duration::ZERO, period_left: left, periods_left: stones, stones_left: 0 }
            }
            TimeControl::Canadian { .. } => {
                ClockState { main_left: Duration::ZERO, period_left: left, periods_left: 0, stones_left: stones }
            }
        }
    }

    /// The clock after a move that took `used`.
    pub fn after_move(self, control: TimeControl, used: Duration) -> ClockState {
        let mut next = self;
        let overflow = used.saturating_sub(self.main_left);
        next.main_left = self.main_left.saturating_sub(used);
        match control {
            TimeControl::Unlimited | TimeControl::Absolute { .. } => {}
            TimeControl::ByoYomi { period, .. } => {
                if self.main_left.is_zero() || !overflow.is_zero() {
                    let mut over = overflow;
                    while over > next.period_left && next.periods_left > 0 {
                        over -= next.period_left;
                        next.periods_left -= 1;
                        next.period_left = period;
                    }
                    // A move made within its period resets the period.
                    next.period_left = period;
                }
            }
            TimeControl::Canadian { period, stones, .. } => {
                if self.main_left.is_zero() || !overflow.is_zero() {
                    next.period_left = next.period_left.saturating_sub(overflow);
                    next.stones_left = next.stones_left.saturating_sub(1);
                    if next.stones_left == 0 {
                        next.period_left = period;
                        next.stones_left = stones;
                    }
                }
            }
        }
        next
    }

    /// Under Canadian byo-yomi, gives back the stone counted for a try that turned out illegal (the turn goes on).
    pub fn refund_stone(self, control: TimeControl) -> ClockState {
        match control {
            TimeControl::Canadian { stones, .. } if self.main_left.is_zero() && self.stones_left < stones => {
                ClockState { stones_left: self.stones_left + 1, ..self }
            }
            _ => self,
        }
    }
}

/// What one move may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim to use this much.
    pub soft: Duration,
    /// Never use more than this.
    pub hard: Duration,
    /// Too little time to think: answer at once with a safe try.
    pub emergency: bool,
}

/// Where in the game the move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveContext {
    /// Board side length.
    pub board_size: usize,
    /// Tries this player has already made this game.
    pub own_tries: u32,
    /// Time already gone since the command arrived (taken off the budget).
    pub already_elapsed: Duration,
}

/// Turns clocks and fixed budgets into search limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeManager {
    /// Taken off every hard budget for process and pipe lag.
    pub safety_margin: Duration,
    /// A fixed time per move (`--move-time`); with a clock, the smaller of the two budgets wins.
    pub move_time: Option<Duration>,
    /// A fixed number of playouts per move (`--playouts`).
    pub playouts: Option<u64>,
}

impl Default for TimeManager {
    fn default() -> Self {
        TimeManager { safety_margin: DEFAULT_SAFETY_MARGIN, move_time: None, playouts: None }
    }
}

/// Tries a player is expected to make from now on: about one and a half per board point over a game (stones,
/// retries after illegal tries, recaptures), never fewer than one per point (the floor keeps the budget
/// shrinking slowly and geometrically instead of running out in long games).
pub fn expected_remaining_tries(board_size: usize, own_tries: u32) -> u32 {
    let area = (board_size * board_size) as u32;
    let expected_total = area * 3 / 2;
    let floor = area.max(4);
    expected_total.saturating_sub(own_tries).max(floor)
}

fn scale(d: Duration, factor: f64) -> Duration {
    Duration::from_secs_f64((d.as_secs_f64() * factor).max(0.0))
}

impl TimeManager {
    /// A warning for start-up when a fixed move time leaves no time to search once the safety margin is
    /// taken off (every move would be an emergency try); `None` when the budget is usable.
    pub fn startup_warning(&self) -> Option<String> {
        let move_time = self.move_time?;
        let usable = move_time.saturating_sub(self.safety_margin);
        (usable < MIN_THINKING_TIME).then(|| {
            format!(
                "the move time ({:.3} s, engine.move_time / --move-time) minus the safety margin ({} ms, \
                 time.safety_margin_ms / --safety-margin-ms) leaves {} ms, under the {} ms any search needs: \
                 every move will be an emergency try without search; give a longer move time or a smaller margin",
                move_time.as_secs_f64(),
                self.safety_margin.as_millis(),
                usable.as_millis(),
                MIN_THINKING_TIME.as_millis()
            )
        })
    }

    /// The budget of one move under a clock, or `None` when the clock sets no limit.
    pub fn clock_budget(&self, control: TimeControl, clock: ClockState, context: MoveContext) -> Option<Budget> {
        let lag = self.safety_margin + context.already_elapsed;
        let remaining_tries = expected_remaining_tries(context.board_size, context.own_tries);
        let main_share = |main: Duration| main.saturating_sub(lag) / remaining_tries;
        let (soft, hard) = match control {
            TimeControl::Unlimited => return None,
            TimeControl::Absolute { .. } => {
                let available = clock.main_left.saturating_sub(lag);
                let soft = main_share(clock.main_left);
                (soft, (soft * HARD_OVER_SOFT).min(scale(available, MAX_MAIN_FRACTION)))
            }
            TimeControl::ByoYomi { .. } => {
                let period = if clock.periods_left > 0 { clock.period_left } else { Duration::ZERO };
                if clock.main_left.is_zero() {
                    let available = period.saturating_sub(lag);
                    (scale(available, 0.8), available)
                } else {
                    // Main time first; the period is there for every move, so plan on most of it too.
                    let soft = main_share(clock.main_left) + scale(period, 0.5);
                    let hard = (clock.main_left + period).saturating_sub(lag);
                    (soft, (soft * HARD_OVER_SOFT).min(hard))
                }
            }
            TimeControl::Canadian { stones, .. } => {
                if clock.main_left.is_zero() {
                    let stones_left = clock.stones_left.max(1);
                    let available = clock.period_left.saturating_sub(lag);
                    let per_stone = available / stones_left;
                    // Leave every later stone of this period at least a margin's worth of time.
                    let reserve = (self.safety_margin + MIN_THINKING_TIME) * (stones_left - 1);
                    let hard = (per_stone * 2).min(available.saturating_sub(reserve));
                    (scale(per_stone, 0.8), hard)
                } else {
                    let per_stone = clock.period_left / stones.max(1);
                    let soft = main_share(clock.main_left) + scale(per_stone, 0.5);
                    let hard = (clock.main_left + per_stone).saturating_sub(lag);
                    (soft, (soft * HARD_OVER_SOFT).min(hard))
                }
            }
        };
        Some(Self::finish(soft, hard))
    }

    fn finish(soft: Duration, hard: Duration) -> Budget {
        if hard < MIN_THINKING_TIME {
            Budget { soft: Duration::ZERO, hard, emergency: true }
        } else {
            Budget { soft: soft.min(hard), hard, emergency: false }
        }
    }

    /// The budget of one move: the clock's, the fixed move time's (minus the margin), or the smaller of both;
    /// `None` when nothing limits time (fixed playouts with no clock).
    pub fn budget(&self, control: TimeControl, clock: ClockState, context: MoveContext) -> Option<Budget> {
        let by_clock = self.clock_budget(control, clock, context);
        let fixed = self
            .move_time
            .or(if by_clock.is_none() && self.playouts.is_none() { Some(DEFAULT_MOVE_TIME) } else { None })
            .map(|move_time| {
                let hard = move_time.saturating_sub(self.safety_margin + context.already_elapsed);
                Self::finish(hard, hard)
            });
        match (by_clock, fixed) {
            (Some(a), Some(b)) => Some(Self::finish(a.soft.min(b.soft), a.hard.min(b.hard))),
            (a, b) => a.or(b),
        }
    }

    /// The search limits of one move: the search stops at 90% of the soft budget, never passes the hard one,
    /// and stops after the fixed playouts if any.
    pub fn limits(&self, control: TimeControl, clock: ClockState, context: MoveContext) -> SearchLimits {
        let budget = self.budget(control, clock, context);
        SearchLimits {
            soft: budget.map(|b| scale(b.soft, SOFT_STOP_FRACTION)),
            hard: budget.map(|b| b.hard),
            playouts: self.playouts,
            emergency: budget.is_some_and(|b| b.emergency),
            since: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn context(own_tries: u32) -> MoveContext {
        MoveContext { board_size: 9, own_tries, already_elapsed: Duration::ZERO }
    }

    #[test]
    fn remaining_tries_shrink_to_a_floor() {
        assert_eq!(expected_remaining_tries(9, 0), 121);
        assert_eq!(expected_remaining_tries(9, 10), 111);
        assert_eq!(expected_remaining_tries(9, 500), 81);
        assert_eq!(expected_remaining_tries(2, 0), 6);
        assert!(expected_remaining_tries(11, 0) > expected_remaining_tries(9, 0));
    }

    #[test]
    fn absolute_splits_main_time_over_the_expected_tries() {
        let control = TimeControl::Absolute { main: secs(30) };
        let manager = TimeManager::default();
        let budget = manager.budget(control, ClockState::start(control), context(0)).unwrap();
        // (30 s - 50 ms) / 121 tries.
        assert_eq!(budget.soft, ms(29_950) / 121);
        assert_eq!(budget.hard, budget.soft * 3);
        assert!(!budget.emergency);
        let limits = manager.limits(control, ClockState::start(control), context(0));
        assert_eq!(limits.soft, Some(scale(budget.soft, 0.9)));
        assert_eq!(limits.hard, Some(budget.hard));
        assert_eq!(limits.playouts, None);
    }

    #[test]
    fn unlimited_clock_uses_the_fixed_budgets() {
        let control = TimeControl::Unlimited;
        let clock = ClockState::start(control);
        let default = TimeManager::default().budget(control, clock, context(0)).unwrap();
        assert_eq!(default.hard, DEFAULT_MOVE_TIME - DEFAULT_SAFETY_MARGIN);
        let fixed = TimeManager { move_time: Some(secs(2)), ..TimeManager::default() };
        assert_eq!(fixed.budget(control, clock, context(0)).unwrap().hard, ms(1950));
        let playouts = TimeManager { playouts: Some(50), ..TimeManager::default() };
        assert_eq!(playouts.budget(control, clock, context(0)), None);
        let limits = playouts.limits(control, clock, context(0));
        assert_eq!(limits.playouts, Some(50));
        assert_eq!(limits.hard, None);
    }

    #[test]
    fn fixed_move_time_and_clock_take_the_smaller() {
        let control = TimeControl::Absolute { main: secs(1000) };
        let manager = TimeManager { move_time: Some(secs(1)), ..TimeManager::default() };
        let budget = manager.budget(control, ClockState::start(control), context(0)).unwrap();
        assert_eq!(budget.hard, ms(950));
    }

    #[test]
    fn one_second_byo_yomi_never_takes_a_second() {
        // time_settings 0 1 1: Canadian with one stone per 1 s period.
        let control = TimeControl::Canadian { main: Duration::ZERO, period: secs(1), stones: 1 };
        let manager = TimeManager::default();
        let mut clock = ClockState::start(control);
        for tries in 0..200 {
            let budget =
                manager.budget(control, clock, MoveContext { already_elapsed: ms(3), ..context(tries) }).unwrap();
            assert!(budget.hard + ms(3) + DEFAULT_SAFETY_MARGIN <= secs(1));
            assert!(budget.soft <= budget.hard);
            clock = clock.after_move(control, budget.hard + ms(3));
            assert_eq!(clock.period_left, secs(1));
        }
        // Japanese byo-yomi of 1 s behaves the same.
        let japanese = TimeControl::ByoYomi { main: Duration::ZERO, period: secs(1), periods: 1 };
        let budget = manager.budget(japanese, ClockState::start(japanese), context(5)).unwrap();
        assert_eq!(budget.hard, ms(950));
    }

    #[test]
    fn sudden_death_never_runs_out() {
        // 30 s on 9x9 over 150 tries (a long phantom game): the search stops at its soft limit, every fifth
        // try runs to the hard limit, and each try loses 5 ms of lag the engine cannot see.
        let control = TimeControl::Absolute { main: secs(30) };
        let manager = TimeManager::default();
        let mut truth = secs(30);
        let mut clock = ClockState::start(control);
        for tries in 0..150 {
            let limits = manager.limits(control, clock, context(tries));
            let used = if limits.emergency {
                ms(2)
            } else if tries % 5 == 4 {
                limits.hard.unwrap()
            } else {
                limits.soft.unwrap()
            };
            assert!(used + ms(5) < truth, "lost on time at try {tries}");
            truth -= used + ms(5);
            // The referee tells the real clock every move.
            clock = ClockState::from_time_left(control, truth, 0);
        }
        assert!(truth > secs(2), "{truth:?} left");
        // Without time_left, the engine's own bookkeeping keeps it alive even if every try runs to the hard limit.
        let mut clock = ClockState::start(control);
        let mut spent = Duration::ZERO;
        for tries in 0..300 {
            let budget = manager.budget(control, clock, context(tries)).unwrap();
            spent += budget.hard;
            clock = clock.after_move(control, budget.hard);
        }
        assert!(spent < secs(30));
    }

    #[test]
    fn a_move_time_under_the_margin_is_warned_about() {
        let manager = |ms| TimeManager { move_time: Some(Duration::from_millis(ms)), ..TimeManager::default() };
        let warning = manager(50).startup_warning().expect("50 ms - 50 ms margin leaves nothing");
        assert!(warning.contains("--move-time") && warning.contains("emergency"), "{warning}");
        assert!(manager(69).startup_warning().is_some());
        assert!(manager(70).startup_warning().is_none());
        assert!(TimeManager::default().startup_warning().is_none());
    }

    #[test]
    fn emergency_when_little_time_is_left() {
        let control = TimeControl::Absolute { main: secs(30) };
        let manager = TimeManager::default();
        let clock = ClockState::from_time_left(control, ms(120), 0);
        let budget = manager.budget(control, clock, context(30)).unwrap();
        assert!(budget.emergency);
        assert_eq!(budget.soft, Duration::ZERO);
        assert!(budget.hard < MIN_THINKING_TIME);
        let limits = manager.limits(control, clock, context(30));
        assert!(limits.emergency);
        let none_left = ClockState::from_time_left(control, Duration::ZERO, 0);
        assert!(manager.budget(control, none_left, context(30)).unwrap().emergency);
    }

    #[test]
    fn byo_yomi_uses_the_period_but_never_overruns_it() {
        let control = TimeControl::ByoYomi { main: secs(10), period: secs(5), periods: 3 };
        let manager = TimeManager::default();
        let start = ClockState::start(control);
        let in_main = manager.budget(control, start, context(0)).unwrap();
        assert!(in_main.soft > secs(2));
        assert!(in_main.hard <= secs(15) - DEFAULT_SAFETY_MARGIN);
        let in_period = ClockState::from_time_left(control, secs(5), 2);
        assert_eq!(in_period.periods_left, 2);
        let budget = manager.budget(control, in_period, context(40)).unwrap();
        assert_eq!(budget.hard, ms(4950));
        assert_eq!(budget.soft, scale(ms(4950), 0.8));
        // A move inside the period keeps all periods; an overrun costs one.
        let kept = in_period.after_move(control, secs(4));
        assert_eq!((kept.periods_left, kept.period_left), (2, secs(5)));
        let lost = in_period.after_move(control, secs(6));
        assert_eq!((lost.periods_left, lost.period_left), (1, secs(5)));
        // Running out of main time enters the periods.
        let entered = start.after_move(control, secs(11));
        assert_eq!(entered.main_left, Duration::ZERO);
        assert_eq!(entered.periods_left, 3);
    }

    #[test]
    fn canadian_shares_the_period_among_the_stones() {
        let control = TimeControl::Canadian { main: Duration::ZERO, period: secs(30), stones: 5 };
        let manager = TimeManager::default();
        let clock = ClockState::start(control);
        let budget = manager.budget(control, clock, context(0)).unwrap();
        let per_stone = ms(29_950) / 5;
        assert_eq!(budget.soft, scale(per_stone, 0.8));
        assert_eq!(budget.hard, per_stone * 2);
        let mut clock = clock;
        for _ in 0..4 {
            clock = clock.after_move(control, secs(6));
        }
        assert_eq!((clock.stones_left, clock.period_left), (1, secs(6)));
        let last = manager.budget(control, clock, context(4)).unwrap();
        assert_eq!(last.hard, ms(5950));
        let reset = clock.after_move(control, secs(5));
        assert_eq!((reset.stones_left, reset.period_left), (5, secs(30)));
        // An illegal try gives its stone back.
        let tried = ClockState::start(control).after_move(control, secs(1));
        assert_eq!(tried.refund_stone(control).stones_left, 5);
        // From time_left: 12 s for 3 stones.
        let told = ClockState::from_time_left(control, secs(12), 3);
        let budget = manager.budget(control, told, context(9)).unwrap();
        assert!(budget.hard <= ms(11_950) - (DEFAULT_SAFETY_MARGIN + MIN_THINKING_TIME) * 2);
    }

    #[test]
    fn elapsed_time_before_the_search_is_taken_off() {
        let control = TimeControl::Unlimited;
        let manager = TimeManager { move_time: Some(secs(1)), ..TimeManager::default() };
        let budget = manager
            .budget(control, ClockState::start(control), MoveContext { already_elapsed: ms(100), ..context(0) })
            .unwrap();
        assert_eq!(budget.hard, ms(850));
    }
}
