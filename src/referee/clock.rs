//! Match clocks: the `MAIN[+BYO]` time control, each engine's clock in a game, and what GTP is told about it.
//!
//! Rules: each engine has MAIN seconds for the whole game plus, once MAIN is spent, BYO seconds for every
//! move (Canadian byo-yomi with one stone per period, i.e. plain byo-yomi: an unused period is not carried
//! over). The runner times each reply itself, from writing `genmove` to reading the reply's first line.
//! A reply that takes longer than the main time left plus one byo-yomi period loses the game on time.
//! With BYO = 0 the control is sudden death (absolute time).

use crate::color::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: main time per game and byo-yomi per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time for the whole game.
    pub main: Duration,
    /// Time per move once the main time is spent (zero: sudden death).
    pub byo_yomi: Duration,
}

impl FromStr for TimeControl {
    type Err = String;
    /// Parses `MAIN` or `MAIN+BYO` in seconds (decimals allowed): `60`, `10+1`, `0+0.5`.
    fn from_str(text: &str) -> Result<Self, String> {
        let seconds = |part: &str| -> Result<Duration, String> {
            let value: f64 = part.trim().parse().map_err(|_| format!("'{part}' is not a number of seconds"))?;
            if !value.is_finite() || !(0.0..=1.0e6).contains(&value) {
                return Err(format!("'{part}' is out of range"));
            }
            Ok(Duration::from_secs_f64(value))
        };
        let (main, byo_yomi) = match text.split_once('+') {
            Some((main, byo)) => (seconds(main)?, seconds(byo)?),
            None => (seconds(text)?, Duration::ZERO),
        };
        if main.is_zero() && byo_yomi.is_zero() {
            return Err("a time control needs some time".into());
        }
        Ok(TimeControl { main, byo_yomi })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.main.as_secs_f64(), self.byo_yomi.as_secs_f64())
    }
}

/// Whole seconds for GTP, never below 1 while any time is left (engines read 0 as "no time").
fn gtp_seconds(time: Duration) -> u64 {
    if time.is_zero() {
        0
    } else {
        time.as_secs().max(1)
    }
}

impl TimeControl {
    /// The `time_settings` command for this control.
    pub fn time_settings_command(&self) -> String {
        if self.byo_yomi.is_zero() {
            format!("time_settings {} 0 0", gtp_seconds(self.main))
        } else {
            format!("time_settings {} {} 1", self.main.as_secs(), gtp_seconds(self.byo_yomi))
        }
    }
}

/// One engine's clock in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    main_left: Duration,
}

impl Clock {
    /// A full clock.
    pub fn new(control: TimeControl) -> Clock {
        Clock { control, main_left: control.main }
    }

    /// Main time left.
    pub fn main_left(&self) -> Duration {
        self.main_left
    }

    /// The longest the next reply may take without losing on time.
    pub fn allowance(&self) -> Duration {
        self.main_left + self.control.byo_yomi
    }

    /// Charges a reply that took `elapsed`; false when it was over the limit (the game is lost on time).
    pub fn charge(&mut self, elapsed: Duration) -> bool {
        if elapsed <= self.main_left {
            self.main_left -= elapsed;
            true
        } else {
            let over = elapsed - self.main_left;
            self.main_left = Duration::ZERO;
            over <= self.control.byo_yomi
        }
    }

    /// The `time_left` command for `color` before its next genmove.
    pub fn time_left_command(&self, color: Color) -> String {
        let letter = color.letter().to_ascii_lowercase();
        if !self.main_left.is_zero() {
            format!("time_left {letter} {} 0", gtp_seconds(self.main_left))
        } else {
            format!("time_left {letter} {} 1", gtp_seconds(self.control.byo_yomi))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_controls() {
        let tc: TimeControl = "10+0.5".parse().unwrap();
        assert_eq!(tc.main, Duration::from_secs(10));
        assert_eq!(tc.byo_yomi, Duration::from_millis(500));
        let sd: TimeControl = "3".parse().unwrap();
        assert_eq!(sd.byo_yomi, Duration::ZERO);
        assert!("x".parse::<TimeControl>().is_err());
        assert!("0".parse::<TimeControl>().is_err());
        assert!("-1+2".parse::<TimeControl>().is_err());
        assert_eq!(sd.time_settings_command(), "time_settings 3 0 0");
        assert_eq!(tc.time_settings_command(), "time_settings 10 1 1");
    }

    #[test]
    fn main_time_then_byo_yomi_then_loss() {
        let mut clock = Clock::new("2+1".parse().unwrap());
        assert!(clock.charge(Duration::from_millis(1500)));
        assert_eq!(clock.time_left_command(Color::Black), "time_left b 1 0");
        // 0.5 s main left + 1 s byo-yomi: 1.4 s is fine and spends the main time.
        assert!(clock.charge(Duration::from_millis(1400)));
        assert_eq!(clock.main_left(), Duration::ZERO);
        assert_eq!(clock.time_left_command(Color::White), "time_left w 1 1");
        // Each period is fresh.
        assert!(clock.charge(Duration::from_millis(900)));
        assert!(clock.charge(Duration::from_millis(1000)));
        assert!(!clock.charge(Duration::from_millis(1001)));
    }

    #[test]
    fn sudden_death() {
        let mut clock = Clock::new("1".parse().unwrap());
        assert!(clock.charge(Duration::from_millis(600)));
        assert_eq!(clock.allowance(), Duration::from_millis(400));
        assert!(!clock.charge(Duration::from_millis(401)));
    }
}
