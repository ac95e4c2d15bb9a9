//! Paired comparison of two matches played on the same games (`phantomgo match-compare`): games won only
//! with one setting or only with the other, and the exact sign test on them.
//!
//! Two matches run with the same `--seed` give every game index the same seed, so a change to one engine
//! can be judged game by game rather than by two independent win rates: the games both versions won or
//! both lost say nothing about the change, the discordant ones do.

use super::record::GameRecord;
use super::stats::{wilson_interval, Z_95};
use anyhow::bail;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The seat `engine` holds in `record` (`"black"` or `"white"`).
///
/// # Errors
/// The engine holds neither seat, or both (two seats of one name cannot be told apart by the record).
fn seat(record: &GameRecord, engine: &str, which: &str) -> anyhow::Result<&'static str> {
    match (record.black == engine, record.white == engine) {
        (true, false) => Ok("black"),
        (false, true) => Ok("white"),
        (true, true) => bail!(
            "both seats of game {} of the {which} records are named {engine:?}: give the engines apart names \
             (--black-name, --white-name) to compare one of them",
            record.game
        ),
        (false, false) => bail!(
            "engine {engine:?} does not play game {} of the {which} records ({} against {}); name it with \
             --{which}-engine",
            record.game,
            record.black,
            record.white
        ),
    }
}

/// The result for the engine in seat `color`: 1 for a win, 1/2 for a draw, 0 for a loss (by the winning
/// colour, as the match table counts them).
fn score(record: &GameRecord, color: &str) -> f64 {
    match record.winner.as_deref() {
        Some(winner) if winner == color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// The name of a match's side A: the engine playing Black in its even-numbered games (the runner gives
/// side A Black in games 0, 2, 4, ... whether or not colours alternate); `None` when the records hold no
/// even-numbered game.
pub fn side_a(records: &[GameRecord]) -> Option<&str> {
    records.iter().find(|r| r.game % 2 == 0).map(|r| r.black.as_str())
}

/// The two-sided exact sign test: the probability, with `n` fair coin flips, of a split at least as
/// uneven as `k` heads and `n - k` tails. 1 when `n` is 0.
pub fn sign_test(k: u64, n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let low = k.min(n - k);
    // Binomial(n, 1/2) probabilities from 0 up to `low`, in logs so that large n does not underflow early.
    let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = 0.0;
    for i in 0..=low {
        tail += log_pmf.exp();
        log_pmf += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    (2.0 * tail).min(1.0)
}

/// One side's totals over the paired games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideTotals {
    /// Points scored (a draw counts one half).
    pub score: f64,
    /// Points scored as Black and the games played as Black.
    pub as_black: (f64, u32),
    /// Points scored as White and the games played as White.
    pub as_white: (f64, u32),
}

impl SideTotals {
    fn add(&mut self, score: f64, color: &str) {
        self.score += score;
        let side = if color == "black" { &mut self.as_black } else { &mut self.as_white };
        side.0 += score;
        side.1 += 1;
    }
}

/// The comparison of engine `new_engine` in the `new` match with `old_engine` in the `old` match, over the
/// games both hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The engine compared in the new records.
    pub new_engine: String,
    /// The engine compared in the old records.
    pub old_engine: String,
    /// Games found in both (the same game index and game seed).
    pub paired: u32,
    /// Games found in only one of the two (left out of every figure).
    pub unpaired: (u32, u32),
    /// The new side's totals.
    pub new: SideTotals,
    /// The old side's totals.
    pub old: SideTotals,
    /// Games scored higher with the new engine than with the old (a win against a draw counts too).
    pub only_new: u64,
    /// Games scored higher with the old engine.
    pub only_old: u64,
    /// The two-sided sign test on `only_new` out of `only_new + only_old`.
    pub p_value: f64,
}

/// Pairs two matches' records by game index and seed and compares one engine in each; `None` names pick each
/// match's side A ([`side_a`]).
///
/// # Errors
/// An empty side, a side A that cannot be told, no game in common, a paired game whose size, komi or rules
/// differ between the two, an engine holding neither or both seats of a paired game, or the same game
/// twice in one side.
pub fn compare<'r>(
    new: &'r [GameRecord],
    old: &'r [GameRecord],
    new_engine: Option<&str>,
    old_engine: Option<&str>,
) -> anyhow::Result<Comparison> {
    if new.is_empty() || old.is_empty() {
        bail!("both sides need game records");
    }
    let pick = |named: Option<&str>, records: &[GameRecord], which: &str| -> anyhow::Result<String> {
        match named.or_else(|| side_a(records)) {
            Some(name) => Ok(name.to_string()),
            None => {
                bail!("the {which} records hold no even-numbered game to tell side A by: name it with --{which}-engine")
            }
        }
    };
    let new_engine = pick(new_engine, new, "new")?;
    let old_engine = pick(old_engine, old, "old")?;
    // A game is its index and its seed: matches run with different --seed values (seeds 1 and 2 of a line)
    // can be listed together on each side, and pair up with their own counterparts only.
    let index = |records: &'r [GameRecord], which: &str| -> anyhow::Result<BTreeMap<(u64, u64), &'r GameRecord>> {
        let mut map = BTreeMap::new();
        for record in records {
            if map.insert((record.game, record.seed), record).is_some() {
                bail!(
                    "game {} (seed {}) appears twice among the {which} records (merge shards with match-merge)",
                    record.game,
                    record.seed
                );
            }
        }
        Ok(map)
    };
    let new_map = index(new, "new")?;
    let old_map = index(old, "old")?;
    let mut result = Comparison {
        new_engine,
        old_engine,
        paired: 0,
        unpaired: (0, 0),
        new: SideTotals::default(),
        old: SideTotals::default(),
        only_new: 0,
        only_old: 0,
        p_value: 1.0,
    };
    for (key, n) in &new_map {
        let Some(o) = old_map.get(key) else {
            result.unpaired.0 += 1;
            continue;
        };
        if (n.size, n.rules.as_str()) != (o.size, o.rules.as_str()) || n.komi != o.komi {
            bail!(
                "game {} (seed {}) was played under other settings in the two matches ({}x{} komi {} {} \
                 against {}x{} komi {} {}): compare matches run with the same settings",
                n.game,
                n.seed,
                n.size,
                n.size,
                n.komi,
                n.rules,
                o.size,
                o.size,
                o.komi,
                o.rules
            );
        }
        let (new_color, old_color) = (seat(n, &result.new_engine, "new")?, seat(o, &result.old_engine, "old")?);
        let (sn, so) = (score(n, new_color), score(o, old_color));
        result.paired += 1;
        result.new.add(sn, new_color);
        result.old.add(so, old_color);
        if sn > so {
            result.only_new += 1;
        } else if so > sn {
            result.only_old += 1;
        }
    }
    result.unpaired.1 = old_map.keys().filter(|key| !new_map.contains_key(key)).count() as u32;
    if result.paired == 0 {
        bail!("the two sides share no game (the same game index and seed): were they run with the same --seed?");
    }
    result.p_value = sign_test(result.only_new, result.only_new + result.only_old);
    Ok(result)
}

fn points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

impl Comparison {
    /// The printed table: both sides' scores with Wilson intervals and colour splits, the discordant games
    /// and the sign test.
    pub fn table(&self) -> String {
        let n = f64::from(self.paired);
        let mut out = String::new();
        let _ = writeln!(out, "Paired comparison: {} games played in both (same game index and seed)", self.paired);
        if self.unpaired != (0, 0) {
            let _ = writeln!(
                out,
                "  left out: {} game(s) only in the new records, {} only in the old",
                self.unpaired.0, self.unpaired.1
            );
        }
        let _ = writeln!(out, "  new = {}", self.new_engine);
        let _ = writeln!(out, "  old = {}", self.old_engine);
        let _ = writeln!(out, "{:<28}{:>20}{:>20}", "", "new", "old");
        let row = |out: &mut String, label: &str, a: String, b: String| {
            let _ = writeln!(out, "{label:<28}{a:>20}{b:>20}");
        };
        row(&mut out, "score", points(self.new.score), points(self.old.score));
        let split = |(s, g): (f64, u32)| format!("{}/{g}", points(s));
        row(&mut out, "  as black", split(self.new.as_black), split(self.old.as_black));
        row(&mut out, "  as white", split(self.new.as_white), split(self.old.as_white));
        let rate = |s: f64| format!("{:.1}%", 100.0 * s / n);
        row(&mut out, "win rate", rate(self.new.score), rate(self.old.score));
        let interval = |s: f64| {
            let (lo, hi) = wilson_interval(s, n, Z_95);
            format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi)
        };
        row(&mut out, "  95% Wilson", interval(self.new.score), interval(self.old.score));
        let _ = writeln!(
            out,
            "games scored higher only with new: {}, only with old: {} (the rest alike)",
            self.only_new, self.only_old
        );
        let _ = writeln!(out, "sign test on them, two-sided: p = {:.3}", self.p_value);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::{EndReason, PerColor, TimeStats};

    fn record(game: u64, seed: u64, black: &str, white: &str, winner: Option<&str>) -> GameRecord {
        GameRecord {
            game,
            black: black.to_string(),
            white: white.to_string(),
            seed,
            size: 9,
            komi: 7.5,
            rules: "retry".to_string(),
            tie_goes_to: "draw".to_string(),
            result: String::new(),
            winner: None,
            winner_engine: winner.map(str::to_string),
            reason: EndReason::TwoPasses,
            score: None,
            moves: 100,
            illegal_tries: PerColor::default(),
            illegal_kinds: None,
            forced_passes: PerColor::default(),
            invaders_black: None,
            invaders_white: None,
            time: PerColor { black: TimeStats::default(), white: TimeStats::default() },
            brier: PerColor { black: None, white: None },
            warnings: Vec::new(),
            fault: None,
            duration_s: 1.0,
        }
    }

    /// A match of `winners.len()` games between A and B with colours alternating from A as Black;
    /// `winners[i]` is 'A', 'B' or 'D' (a draw).
    fn match_of(a: &str, b: &str, winners: &str) -> Vec<GameRecord> {
        winners
            .chars()
            .enumerate()
            .map(|(i, w)| {
                let (black, white) = if i % 2 == 0 { (a, b) } else { (b, a) };
                let winner = match w {
                    'A' => Some(a),
                    'B' => Some(b),
                    _ => None,
                };
                let mut r = record(i as u64, 1000 + i as u64, black, white, winner);
                r.winner = winner.map(|w| if w == black { "black" } else { "white" }.to_string());
                r
            })
            .collect()
    }

    #[test]
    fn sign_test_known_values() {
        // 14 against 3: 2 * (1 + 17 + 136 + 680) / 2^17.
        assert!((sign_test(14, 17) - 2.0 * 834.0 / 131_072.0).abs() < 1e-12);
        assert!((sign_test(3, 17) - sign_test(14, 17)).abs() < 1e-12);
        assert_eq!(sign_test(5, 10), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        // 0 of 10: 2 / 1024.
        assert!((sign_test(0, 10) - 2.0 / 1024.0).abs() < 1e-12);
        // A large split: 100 against 96, 2 * sum of C(196, i) for i <= 96 over 2^196 (exact, by big integers).
        assert!((sign_test(100, 196) - 0.830_392_558_653_872).abs() < 1e-9, "{}", sign_test(100, 196));
        assert!(sign_test(2000, 4000) > 0.98 && sign_test(2000, 4000) <= 1.0);
        assert!(sign_test(0, 5000) < 1e-300);
    }

    #[test]
    fn discordant_games_counted_and_draws_half() {
        //                 game: 0123456
        let new = match_of("x", "y", "AABADBA");
        let old = match_of("z", "y", "ABBBAAB");
        let c = compare(&new, &old, None, None).unwrap();
        assert_eq!((c.new_engine.as_str(), c.old_engine.as_str()), ("x", "z"));
        assert_eq!(c.paired, 7);
        assert_eq!(c.new.score, 4.5);
        assert_eq!(c.old.score, 3.0);
        // Higher only with new: games 1, 3, 6 (A against B) and 4 is a draw against a win: only old.
        // Games 0, 2 alike (both won), 5 (B against A): only old.
        assert_eq!((c.only_new, c.only_old), (3, 2));
        // x played Black in the even games 0, 2, 4, 6: 1 + 0 + 0.5 + 1.
        assert_eq!(c.new.as_black, (2.5, 4));
        assert_eq!(c.new.as_white, (2.0, 3));
        assert!((c.p_value - 1.0).abs() < 1e-12);
        let table = c.table();
        assert!(table.contains("only with new: 3, only with old: 2"), "{table}");
        assert!(table.contains("4.5"), "{table}");
    }

    #[test]
    fn unpaired_games_left_out() {
        let new = match_of("x", "y", "AAAA");
        let old: Vec<GameRecord> = match_of("x", "y", "BBBBBB").into_iter().skip(2).collect();
        let c = compare(&new, &old, None, Some("x")).unwrap();
        assert_eq!(c.paired, 2);
        assert_eq!(c.unpaired, (2, 2));
        assert_eq!((c.only_new, c.only_old), (2, 0));
        assert!(c.table().contains("left out: 2 game(s) only in the new records, 2 only in the old"));
    }

    #[test]
    fn different_games_refused() {
        let new = match_of("x", "y", "AB");
        // Another seed is another game: left out.
        let mut old = match_of("x", "y", "AB");
        old[1].seed += 1;
        let c = compare(&new, &old, None, None).unwrap();
        assert_eq!((c.paired, c.unpaired), (1, (1, 1)));
        let mut old = match_of("x", "y", "AB");
        old[0].komi = 6.5;
        let error = compare(&new, &old, None, None).unwrap_err().to_string();
        assert!(error.contains("other settings"), "{error}");
        let mut old = match_of("x", "y", "AB");
        old[1].rules = "lose-turn".to_string();
        assert!(compare(&new, &old, None, None).is_err());
        let disjoint: Vec<GameRecord> = match_of("x", "y", "ABAB").into_iter().skip(2).collect();
        let error = compare(&new, &disjoint, None, None).unwrap_err().to_string();
        assert!(error.contains("share no game"), "{error}");
        assert!(compare(&[], &new, None, None).is_err());
    }

    #[test]
    fn engine_names_checked_and_duplicates_refused() {
        let new = match_of("x", "y", "AB");
        let error = compare(&new, &new, Some("w"), None).unwrap_err().to_string();
        assert!(error.contains("\"w\" does not play game 0") && error.contains("--new-engine"), "{error}");
        let mut twice = new.clone();
        twice.push(new[0].clone());
        let error = compare(&twice, &new, None, None).unwrap_err().to_string();
        assert!(error.contains("game 0 (seed 1000) appears twice"), "{error}");
        // Two matches of one line with other seeds, listed together on each side, pair with their own.
        let mut second = match_of("x", "y", "BB");
        second.iter_mut().for_each(|r| r.seed += 500);
        let both_new: Vec<GameRecord> = new.iter().chain(&second).cloned().collect();
        let both_old: Vec<GameRecord> = second.iter().chain(&new).cloned().collect();
        let c = compare(&both_new, &both_old, None, None).unwrap();
        assert_eq!((c.paired, c.only_new, c.only_old), (4, 0, 0));
        // The other seat can be compared too: y against y.
        let c = compare(&new, &new, Some("y"), Some("y")).unwrap();
        assert_eq!((c.new.score, c.only_new, c.only_old), (1.0, 0, 0));
    }

    #[test]
    fn seats_of_one_name_refused() {
        let records = match_of("x", "x", "AB");
        let error = compare(&records, &records, None, None).unwrap_err().to_string();
        assert!(error.contains("both seats of game 0 of the new records are named \"x\""), "{error}");
    }

    #[test]
    fn side_a_is_black_of_an_even_game() {
        let records = match_of("x", "y", "AB");
        assert_eq!(side_a(&records), Some("x"));
        assert_eq!(side_a(&records[1..]), None);
        let error = compare(&records[1..], &records, None, None).unwrap_err().to_string();
        assert!(error.contains("name it with --new-engine"), "{error}");
        assert!(compare(&records[1..], &records, Some("x"), None).is_ok());
        assert_eq!(side_a(&[]), None);
    }
}
