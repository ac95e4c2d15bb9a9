//! Consecutive faults per engine: the match stops once one engine has broken in several games in a row.

use super::record::GameRecord;
use std::collections::HashMap;

/// Default for `--max-faults`: games in a row an engine may fault before the match stops.
pub const DEFAULT_MAX_CONSECUTIVE_FAULTS: u32 = 5;

/// Counts, per engine name, the games in a row that ended by its fault (crash, hang, protocol).
#[derive(Clone, Debug, Default)]
pub struct FaultStreaks {
    limit: u32,
    streaks: HashMap<String, u32>,
}

impl FaultStreaks {
    /// Streaks that stop the match at `limit` faults in a row (0: never).
    pub fn new(limit: u32) -> FaultStreaks {
        FaultStreaks { limit, streaks: HashMap::new() }
    }

    /// Takes in one finished game (in finishing order); returns why the match must stop, if it must.
    pub fn observe(&mut self, record: &GameRecord) -> Option<String> {
        let faulty = record.fault.as_ref().filter(|f| f.kind.is_fault()).map(|f| f.engine.clone());
        for engine in [&record.black, &record.white] {
            if faulty.as_ref() != Some(engine) {
                self.streaks.insert(engine.clone(), 0);
            }
        }
        let engine = faulty?;
        let streak = self.streaks.entry(engine.clone()).or_insert(0);
        *streak += 1;
        let detail = record.fault.as_ref().map_or("", |f| f.detail.as_str());
        (self.limit > 0 && *streak >= self.limit)
            .then(|| format!("engine '{engine}' broke in {streak} games in a row (last: {detail}); the match stopped"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::referee::record::{EndReason, Fault};

    fn game(black: &str, white: &str, faulty: Option<(&str, EndReason)>) -> GameRecord {
        let fault = faulty.map(|(engine, kind)| Fault {
            color: if engine == black { Color::Black } else { Color::White },
            engine: engine.to_string(),
            kind,
            detail: "broken".into(),
            stderr_tail: String::new(),
        });
        let json = serde_json::json!({
            "game": 0, "black": black, "white": white, "seed": 1, "size": 5, "komi": 7.5, "rules": "retry",
            "result": "0", "winner": null, "winner_engine": null, "reason": "two_passes", "score": null,
            "moves": 1, "illegal_tries": {"black": 0, "white": 0}, "forced_passes": {"black": 0, "white": 0},
            "time": {"black": {"replies": 0, "total_s": 0.0, "mean_s": 0.0, "max_s": 0.0},
                     "white": {"replies": 0, "total_s": 0.0, "mean_s": 0.0, "max_s": 0.0}},
            "brier": {"black": null, "white": null}, "fault": fault, "duration_s": 0.0,
        });
        serde_json::from_value(json).expect("a record")
    }

    #[test]
    fn a_run_of_faults_by_one_engine_stops_and_a_clean_game_resets_it() {
        let mut streaks = FaultStreaks::new(3);
        let crash = Some(("a", EndReason::Crash));
        assert!(streaks.observe(&game("a", "b", crash)).is_none());
        assert!(streaks.observe(&game("b", "a", crash)).is_none());
        assert!(streaks.observe(&game("a", "b", None)).is_none());
        assert!(streaks.observe(&game("a", "b", crash)).is_none());
        assert!(streaks.observe(&game("b", "a", Some(("a", EndReason::Hang)))).is_none());
        let stop = streaks.observe(&game("a", "b", Some(("a", EndReason::Protocol)))).expect("third in a row");
        assert!(stop.contains("'a'") && stop.contains("3 games"), "{stop}");
        // A time loss is no fault: it never stops the match.
        let mut slow = FaultStreaks::new(1);
        assert!(slow.observe(&game("b", "a", Some(("b", EndReason::Time)))).is_none());
        let mut never = FaultStreaks::new(0);
        for _ in 0..10 {
            assert!(never.observe(&game("a", "b", crash)).is_none());
        }
    }
}
