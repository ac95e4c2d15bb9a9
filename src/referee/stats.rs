//! Match statistics: the Wilson score interval, the final table of a match (by engine and colour), and
//! reading JSON-lines records back for `match-merge`.

use super::belief::add_split;
use super::record::{EndReason, GameRecord, IllegalKinds, IllegalSplit, PerColor};
use std::collections::BTreeMap;
use std::fmt::Write;

/// z for a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `successes` out of `trials` (successes may be fractional, a draw
/// counting one half); `(0, 1)` when there are no trials.
pub fn wilson_interval(successes: f64, trials: f64, z: f64) -> (f64, f64) {
    if trials <= 0.0 {
        return (0.0, 1.0);
    }
    let p = (successes / trials).clamp(0.0, 1.0);
    let z2 = z * z;
    let denominator = 1.0 + z2 / trials;
    let center = (p + z2 / (2.0 * trials)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The Elo difference a score rate `p` (wins plus half the draws, over games) stands for:
/// 400 log10(p / (1 - p)); infinite at 0 and 1 (and within rounding of them, as a Wilson bound can be).
pub fn elo_difference(p: f64) -> f64 {
    const ROUNDING: f64 = 1e-9;
    if p >= 1.0 - ROUNDING {
        f64::INFINITY
    } else if p <= ROUNDING {
        f64::NEG_INFINITY
    } else {
        400.0 * (p / (1.0 - p)).log10()
    }
}

/// An Elo difference for tables: signed, rounded, `inf` when unbounded.
fn elo_cell(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{elo:+.0}")
    }
}

/// One engine's totals over a set of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTotals {
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games as Black, and won as Black.
    pub black_games: u32,
    /// Wins as Black.
    pub black_wins: u32,
    /// Games as White.
    pub white_games: u32,
    /// Wins as White.
    pub white_wins: u32,
    /// Genmove replies timed.
    pub replies: u64,
    /// Seconds over all replies.
    pub total_time_s: f64,
    /// Longest reply.
    pub max_time_s: f64,
    /// Illegal tries.
    pub illegal_tries: u64,
    /// Games lost on time.
    pub time_losses: u32,
    /// Games lost by a crash, a hang or a protocol violation.
    pub errors: u32,
    /// Games resigned.
    pub resignations: u32,
    /// Belief samples (one per turn of the engine), and their summed Brier scores.
    pub brier_samples: u64,
    /// Sum of engine Brier scores over the samples.
    pub brier_engine_sum: f64,
    /// Sum of fair-baseline Brier scores over the samples.
    pub brier_fair_sum: f64,
    /// Sum of uniform-baseline Brier scores over the samples.
    pub brier_uniform_sum: f64,
    /// Games whose record splits the illegal tries by kind.
    pub kinds_games: u32,
    /// Illegal tries by kind over those games, in all and per phase.
    pub kinds: IllegalKinds,
    /// Games whose record counts invaders ([`crate::scoring::invaders`]).
    pub invader_games: u32,
    /// Its stones left standing inside the opponent's area at the end, over those games.
    pub invaders_left: u64,
    /// The opponent's stones left standing inside its area at the end, over those games.
    pub invaders_suffered: u64,
}

impl EngineTotals {
    /// Wins plus half the draws over games.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points() / f64::from(self.games)
        }
    }

    fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// The 95% Wilson interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson_interval(self.points(), f64::from(self.games), Z_95)
    }

    /// The mean of the engine's per-turn Brier scores over the mean of the fair baseline's, over all its turns.
    pub fn fair_ratio(&self) -> Option<f64> {
        (self.brier_samples > 0 && self.brier_fair_sum > 0.0).then(|| self.brier_engine_sum / self.brier_fair_sum)
    }

    fn add_kinds(&mut self, kinds: &IllegalKinds) {
        self.kinds_games += 1;
        self.kinds.total = add_split(self.kinds.total, kinds.total);
        for (sum, phase) in self.kinds.by_phase.iter_mut().zip(kinds.by_phase) {
            *sum = add_split(*sum, phase);
        }
    }

    /// A sum over the games that count invaders, per game; `-` without such records.
    fn invader_cell(&self, sum: u64) -> String {
        if self.invader_games == 0 {
            "-".into()
        } else {
            format!("{:.2}", sum as f64 / f64::from(self.invader_games))
        }
    }

    /// `found_new/hit_known/suicide_ko` per game, or `-` without split records.
    fn split_cell(&self, split: &IllegalSplit) -> String {
        if self.kinds_games == 0 {
            return "-".into();
        }
        let n = f64::from(self.kinds_games);
        let per_game = |v: u32| f64::from(v) / n;
        format!("{:.2}/{:.2}/{:.2}", per_game(split.found_new), per_game(split.hit_known), per_game(split.suicide_ko))
    }
}

/// Totals of a set of game records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Engines in order of first appearance, with their totals.
    pub engines: Vec<(String, EngineTotals)>,
    /// Games.
    pub games: u32,
    /// Moves over all games.
    pub moves: u64,
    /// Games by end reason.
    pub reasons: BTreeMap<EndReason, u32>,
    /// Board sizes, komis and rules seen (`9x9 komi 7.5 retry`).
    pub settings: Vec<String>,
    /// Games whose record counts invaders.
    pub invader_games: u32,
    /// Invaders per colour (`invaders_black`, `invaders_white`) summed over those games.
    pub invaders: PerColor<u64>,
}

impl Summary {
    fn engine(&mut self, name: &str) -> &mut EngineTotals {
        let at = match self.engines.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                self.engines.push((name.to_string(), EngineTotals::default()));
                self.engines.len() - 1
            }
        };
        &mut self.engines[at].1
    }

    /// Sums `records`.
    pub fn of(records: &[GameRecord]) -> Summary {
        let mut summary = Summary::default();
        for record in records {
            summary.games += 1;
            summary.moves += u64::from(record.moves);
            *summary.reasons.entry(record.reason).or_default() += 1;
            let setting = format!("{0}x{0} komi {1} {2}", record.size, record.komi, record.rules);
            if !summary.settings.contains(&setting) {
                summary.settings.push(setting);
            }
            let invaders = record.invaders_black.zip(record.invaders_white);
            if let Some((black, white)) = invaders {
                summary.invader_games += 1;
                summary.invaders.black += u64::from(black);
                summary.invaders.white += u64::from(white);
            }
            let kinds = record.illegal_kinds.as_ref();
            let sides = [
                (
                    "black",
                    &record.black,
                    &record.time.black,
                    record.illegal_tries.black,
                    &record.brier.black,
                    kinds.map(|k| &k.black),
                ),
                (
                    "white",
                    &record.white,
                    &record.time.white,
                    record.illegal_tries.white,
                    &record.brier.white,
                    kinds.map(|k| &k.white),
                ),
            ];
            for (color, name, time, illegal, brier, kinds) in sides {
                let won = record.winner.as_deref() == Some(color);
                let lost = record.winner.is_some() && !won;
                let totals = summary.engine(name);
                totals.games += 1;
                if won {
                    totals.wins += 1;
                } else if !lost {
                    totals.draws += 1;
                }
                if color == "black" {
                    totals.black_games += 1;
                    totals.black_wins += u32::from(won);
                } else {
                    totals.white_games += 1;
                    totals.white_wins += u32::from(won);
                }
                totals.replies += u64::from(time.replies);
                totals.total_time_s += time.total_s;
                totals.max_time_s = totals.max_time_s.max(time.max_s);
                totals.illegal_tries += u64::from(illegal);
                if lost {
                    match record.reason {
                        EndReason::Time => totals.time_losses += 1,
                        EndReason::Resign => totals.resignations += 1,
                        r if r.is_fault() => totals.errors += 1,
                        _ => {}
                    }
                }
                if let Some(score) = brier {
                    let n = f64::from(score.samples);
                    totals.brier_samples += u64::from(score.samples);
                    totals.brier_engine_sum += score.engine * n;
                    totals.brier_fair_sum += score.brier_fair * n;
                    totals.brier_uniform_sum += score.brier_uniform * n;
                }
                if let Some(kinds) = kinds {
                    totals.add_kinds(kinds);
                }
                if let Some((black, white)) = invaders {
                    let (left, suffered) = if color == "black" { (black, white) } else { (white, black) };
                    totals.invader_games += 1;
                    totals.invaders_left += u64::from(left);
                    totals.invaders_suffered += u64::from(suffered);
                }
            }
        }
        summary
    }

    /// The table printed at the end of a match or by `match-merge`.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Match: {} games ({})",
            self.games,
            if self.settings.is_empty() { "none".to_string() } else { self.settings.join("; ") }
        );
        let labels: Vec<String> = (0..self.engines.len())
            .map(|i| char::from_u32('A' as u32 + (i as u32 % 26)).map_or_else(|| format!("E{i}"), |c| c.to_string()))
            .collect();
        for (label, (name, _)) in labels.iter().zip(&self.engines) {
            let _ = writeln!(out, "  {label} = {name}");
        }
        let width = 20;
        let _ = write!(out, "{:<24}", "");
        for label in &labels {
            let _ = write!(out, "{label:>width$}");
        }
        out.push('\n');
        let mut row = |title: &str, cell: &dyn Fn(&EngineTotals) -> String| {
            let _ = write!(out, "{title:<24}");
            for (_, totals) in &self.engines {
                let _ = write!(out, "{:>width$}", cell(totals));
            }
            out.push('\n');
        };
        row("games", &|t| t.games.to_string());
        row("wins", &|t| t.wins.to_string());
        row("  as black", &|t| format!("{}/{}", t.black_wins, t.black_games));
        row("  as white", &|t| format!("{}/{}", t.white_wins, t.white_games));
        row("draws", &|t| t.draws.to_string());
        row("win rate", &|t| format!("{:.1}%", 100.0 * t.win_rate()));
        row("  95% Wilson", &|t| {
            let (lo, hi) = t.interval();
            format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi)
        });
        row("Elo diff [95%]", &|t| {
            let (lo, hi) = t.interval();
            let elo = elo_difference(t.win_rate());
            format!("{} [{}, {}]", elo_cell(elo), elo_cell(elo_difference(lo)), elo_cell(elo_difference(hi)))
        });
        row("time/move mean (s)", &|t| {
            if t.replies == 0 {
                "-".into()
            } else {
                format!("{:.3}", t.total_time_s / t.replies as f64)
            }
        });
        row("time/move max (s)", &|t| format!("{:.3}", t.max_time_s));
        row("illegal tries/game", &|t| {
            if t.games == 0 {
                "-".into()
            } else {
                format!("{:.2}", t.illegal_tries as f64 / f64::from(t.games))
            }
        });
        if self.engines.iter().any(|(_, t)| t.kinds_games > 0) {
            row("  new/known/suicide-ko", &|t| t.split_cell(&t.kinds.total));
            row("  turns 1-15", &|t| t.split_cell(&t.kinds.by_phase[0]));
            row("  turns 16-30", &|t| t.split_cell(&t.kinds.by_phase[1]));
            row("  turns 31+", &|t| t.split_cell(&t.kinds.by_phase[2]));
        }
        if self.invader_games > 0 {
            row("invaders left/game", &|t| t.invader_cell(t.invaders_left));
            row("  in its area/game", &|t| t.invader_cell(t.invaders_suffered));
        }
        row("resignations", &|t| t.resignations.to_string());
        row("time losses", &|t| t.time_losses.to_string());
        row("errors", &|t| t.errors.to_string());
        if self.engines.iter().any(|(_, t)| t.brier_samples > 0) {
            row("belief Brier/point", &|t| brier_cell(t, t.brier_engine_sum));
            row("  fair baseline", &|t| brier_cell(t, t.brier_fair_sum));
            row("  ratio to fair", &|t| t.fair_ratio().map_or_else(|| "-".into(), |r| format!("{r:.3}")));
            row("  uniform baseline", &|t| brier_cell(t, t.brier_uniform_sum));
        }
        let mean_moves = if self.games == 0 { 0.0 } else { self.moves as f64 / f64::from(self.games) };
        let share = |n: u32| 100.0 * f64::from(n) / f64::from(self.games.max(1));
        let endings: Vec<String> =
            self.reasons.iter().map(|(reason, &n)| format!("{} {n} ({:.1}%)", reason.name(), share(n))).collect();
        let _ = writeln!(out, "mean moves per game: {mean_moves:.1}");
        let _ = writeln!(out, "endings: {}", endings.join(", "));
        if self.invader_games > 0 {
            let per_game = |sum: u64| sum as f64 / f64::from(self.invader_games);
            let _ = writeln!(
                out,
                "invaders per game (stones left inside the other side's area): black {:.2}, white {:.2}",
                per_game(self.invaders.black),
                per_game(self.invaders.white)
            );
        }
        out
    }
}

fn brier_cell(totals: &EngineTotals, sum: f64) -> String {
    if totals.brier_samples == 0 {
        "-".into()
    } else {
        format!("{:.4}", sum / totals.brier_samples as f64)
    }
}

/// Why a results file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// A line is not a game record.
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The parser's message.
        message: String,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::BadLine { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads the game records of a JSON-lines text (blank lines skipped).
///
/// # Errors
/// [`ReadError::BadLine`] for a line that is not a record.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, ReadError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| ReadError::BadLine { line: i + 1, message: e.to_string() })
        })
        .collect()
}

/// Combines records from several shards: sorted by game index, a game seen twice kept once; returns the
/// duplicates' indices too.
pub fn merge_records(mut records: Vec<GameRecord>) -> (Vec<GameRecord>, Vec<u64>) {
    records.sort_by_key(|r| r.game);
    let mut duplicates = Vec::new();
    let mut merged: Vec<GameRecord> = Vec::with_capacity(records.len());
    for record in records {
        if merged.last().is_some_and(|last| last.game == record.game) {
            duplicates.push(record.game);
        } else {
            merged.push(record);
        }
    }
    (merged, duplicates)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 5e-4 && (a.1 - b.1).abs() < 5e-4
    }

    #[test]
    fn elo_difference_known_values() {
        assert!(elo_difference(0.5).abs() < 1e-9);
        // 10:1 odds are 400 Elo; 1:10 odds are -400.
        assert!((elo_difference(10.0 / 11.0) - 400.0).abs() < 1e-9);
        assert!((elo_difference(1.0 / 11.0) + 400.0).abs() < 1e-9);
        assert!((elo_difference(0.75) - 190.848).abs() < 1e-3);
        assert_eq!(elo_difference(1.0), f64::INFINITY);
        assert_eq!(elo_difference(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_cell(elo_difference(1.0)), "+inf");
        // All ten games won: the Wilson upper bound is 1 up to rounding, and its Elo is unbounded.
        let (lo, hi) = wilson_interval(10.0, 10.0, Z_95);
        assert_eq!(elo_difference(hi), f64::INFINITY);
        assert!((elo_difference(lo) - 166.0).abs() < 1.0, "{}", elo_difference(lo));
        assert_eq!(elo_cell(-190.8), "-191");
    }

    #[test]
    fn wilson_known_values() {
        // Reference values (Wilson 1927; e.g. R's prop.test without continuity correction / binom.wilson).
        assert!(close(wilson_interval(5.0, 10.0, Z_95), (0.2366, 0.7634)));
        assert!(close(wilson_interval(0.0, 10.0, Z_95), (0.0, 0.2775)));
        assert!(close(wilson_interval(10.0, 10.0, Z_95), (0.7225, 1.0)));
        assert!(close(wilson_interval(81.0, 263.0, Z_95), (0.2553, 0.3662)));
        assert_eq!(wilson_interval(0.0, 0.0, Z_95), (0.0, 1.0));
    }

    fn kinds(found_new: u32, hit_known: u32, suicide_ko: u32) -> IllegalKinds {
        let split = IllegalSplit { found_new, hit_known, suicide_ko };
        IllegalKinds { total: split, by_phase: [IllegalSplit::default(), split, IllegalSplit::default()] }
    }

    fn record(game: u64, black: &str, white: &str, result: &str, reason: EndReason) -> GameRecord {
        use super::super::record::{PerColor, TimeStats};
        let winner = match result.chars().next() {
            Some('B') => Some("black".to_string()),
            Some('W') => Some("white".to_string()),
            _ => None,
        };
        let winner_engine = winner.as_deref().map(|c| if c == "black" { black } else { white }.to_string());
        let mut time = TimeStats::default();
        time.add(0.5);
        time.add(1.5);
        GameRecord {
            game,
            black: black.into(),
            white: white.into(),
            seed: game,
            size: 9,
            komi: 7.5,
            rules: "retry".into(),
            tie_goes_to: "draw".into(),
            result: result.into(),
            winner,
            winner_engine,
            reason,
            score: None,
            moves: 10,
            illegal_tries: PerColor { black: 2, white: 4 },
            illegal_kinds: Some(PerColor { black: kinds(1, 1, 0), white: kinds(2, 0, 2) }),
            forced_passes: PerColor::default(),
            invaders_black: Some(game as u32 % 2),
            invaders_white: Some(2),
            time: PerColor { black: time, white: time },
            brier: PerColor::default(),
            warnings: Vec::new(),
            fault: None,
            duration_s: 1.0,
        }
    }

    #[test]
    fn summary_counts_by_engine_and_colour() {
        let records = vec![
            record(0, "a", "b", "B+3.5", EndReason::TwoPasses),
            record(1, "b", "a", "B+F", EndReason::Crash),
            record(2, "a", "b", "0", EndReason::TwoPasses),
            record(3, "b", "a", "W+T", EndReason::Time),
        ];
        let summary = Summary::of(&records);
        assert_eq!(summary.games, 4);
        let (name, a) = &summary.engines[0];
        assert_eq!(name, "a");
        assert_eq!((a.games, a.wins, a.draws), (4, 2, 1));
        assert_eq!((a.black_wins, a.black_games, a.white_wins, a.white_games), (1, 2, 1, 2));
        assert_eq!((a.errors, a.time_losses), (1, 0));
        assert!((a.win_rate() - 2.5 / 4.0).abs() < 1e-12);
        let (_, b) = &summary.engines[1];
        assert_eq!((b.wins, b.errors, b.time_losses), (1, 0, 1));
        assert_eq!(a.illegal_tries, 2 + 4 + 2 + 4);
        assert!((a.max_time_s - 1.5).abs() < 1e-12);
        let table = summary.table();
        assert!(table.contains("A = a") && table.contains("B = b"));
        assert!(table.contains("endings: two_passes 2 (50.0%), time 1 (25.0%), crash 1 (25.0%)"), "{table}");
        // Black left 0, 1, 0, 1 invaders and White 2 each game: a left 0+2+0+2 and suffered 2+1+2+1.
        assert_eq!((a.invader_games, a.invaders_left, a.invaders_suffered), (4, 4, 6));
        assert!(table.contains("invaders per game (stones left inside the other side's area): black 0.50, white 2.00"));
        assert!(table.lines().any(|l| l.starts_with("invaders left/game") && l.ends_with("1.00                1.50")));
        // a: black twice (1 new, 1 known), white twice (2 new, 2 suicide/ko): per game 1.5/0.5/1.0.
        assert_eq!(a.kinds_games, 4);
        assert_eq!(a.kinds.total.total(), a.illegal_tries as u32);
        assert!(table.contains("1.50/0.50/1.00"), "{table}");
        assert!(table.contains("0.00/0.00/0.00"), "{table}");
    }

    #[test]
    fn fair_ratio_is_the_ratio_of_the_means_over_turns() {
        use super::super::record::{BrierScore, PerColor};
        let mut first = record(0, "a", "b", "B+1", EndReason::TwoPasses);
        first.brier = PerColor {
            black: Some(BrierScore {
                samples: 10,
                engine: 0.05,
                brier_fair: 0.1,
                brier_uniform: 0.2,
                ..Default::default()
            }),
            white: None,
        };
        let mut second = record(1, "b", "a", "B+1", EndReason::TwoPasses);
        second.brier = PerColor {
            black: None,
            white: Some(BrierScore {
                samples: 30,
                engine: 0.09,
                brier_fair: 0.1,
                brier_uniform: 0.2,
                ..Default::default()
            }),
        };
        let summary = Summary::of(&[first, second]);
        let (_, a) = &summary.engines[0];
        // (10 x 0.05 + 30 x 0.09) / (40 x 0.1)
        assert!((a.fair_ratio().unwrap() - 0.8).abs() < 1e-12);
        assert!(summary.engines[1].1.fair_ratio().is_none());
        let table = summary.table();
        assert!(table.contains("ratio to fair") && table.contains("0.800"), "{table}");
    }

    #[test]
    fn records_with_the_old_uniform_baseline_field_are_refused() {
        let mut old = serde_json::to_value(record(0, "a", "b", "B+1", EndReason::TwoPasses)).unwrap();
        old["brier"]["black"] = serde_json::json!({"samples": 3, "engine": 0.05, "baseline": 0.1});
        old.as_object_mut().unwrap().remove("illegal_kinds");
        assert!(parse_records(&old.to_string()).is_err());
        old["brier"]["black"] = serde_json::Value::Null;
        let parsed = parse_records(&old.to_string()).unwrap();
        assert!(parsed[0].illegal_kinds.is_none());
    }

    #[test]
    fn merge_sorts_and_drops_duplicates() {
        let records = vec![
            record(2, "a", "b", "B+1", EndReason::TwoPasses),
            record(0, "a", "b", "B+1", EndReason::TwoPasses),
            record(2, "a", "b", "W+1", EndReason::TwoPasses),
        ];
        let (merged, duplicates) = merge_records(records);
        assert_eq!(merged.iter().map(|r| r.game).collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!(duplicates, vec![2]);
        let text: String = merged.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect();
        assert_eq!(parse_records(&text).unwrap(), merged);
        assert!(matches!(parse_records("{}"), Err(ReadError::BadLine { line: 1, .. })));
    }

    #[test]
    fn wilson_is_symmetric_and_narrows() {
        let (lo, hi) = wilson_interval(30.0, 100.0, Z_95);
        let (lo2, hi2) = wilson_interval(70.0, 100.0, Z_95);
        assert!((lo - (1.0 - hi2)).abs() < 1e-12 && (hi - (1.0 - lo2)).abs() < 1e-12);
        let (lo3, hi3) = wilson_interval(300.0, 1000.0, Z_95);
        assert!(hi3 - lo3 < hi - lo);
    }
}
