//! Whole-binary tests of the seeing seat (`full:`: this binary's engine shown every opponent move plays
//! whole games against its blind twin through the match runner) and of the runner's tie rule
//! (`--tie-goes-to`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_phantomgo")
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("phantomgo-full-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The lines sent to the engine in a transcript.
fn sent(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(str::to_string)
        .collect()
}

/// Two games (colours alternate) of the seeing engine against its blind twin: both end normally with no
/// fault or warning; the seeing engine is told each opponent stone with `play` and never an unseen move,
/// and its belief is certain (Brier 0) while its twin's is not.
#[test]
fn the_seeing_seat_is_shown_every_opponent_move() {
    let dir = out_dir("twin");
    let (results, transcripts) = (dir.join("results.jsonl"), dir.join("transcripts"));
    let engine = format!("{} gtp --playouts 30 --threads 1", shell_quote(binary()));
    let output = Command::new(binary())
        .args(["match", "--games", "2", "--quiet", "--size", "7"])
        .arg("--black")
        .arg(format!("full:{engine} --seed {{seed}}"))
        .arg("--white")
        .arg(format!("{engine} --seed {{seed}}7"))
        .arg("--results")
        .arg(&results)
        .arg("--transcript")
        .arg(&transcripts)
        .env("RUST_LOG", "off")
        .output()
        .expect("runner runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let records: Vec<Value> = std::fs::read_to_string(&results)
        .expect("results written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(records.len(), 2);
    for (record, (seeing, blind)) in records.iter().zip([("black", "white"), ("white", "black")]) {
        assert!(record["fault"].is_null(), "{record}");
        assert_eq!(record["warnings"].as_array().map(Vec::len), Some(0), "{record}");
        assert!(["two_passes", "length_cap"].contains(&record["reason"].as_str().unwrap()), "{record}");
        let certain = record["brier"][seeing]["engine"].as_f64().expect("the seeing engine's belief is scored");
        assert!(certain < 1e-9, "the seeing engine knows the board: {record}");
        assert!(record["brier"][blind]["engine"].as_f64().unwrap() > 0.0, "{record}");
        let game = record["game"].as_u64().unwrap();
        let told = sent(&transcripts.join(format!("game-{game:06}-{seeing}.txt")));
        let other = &blind[..1];
        let plays = told.iter().filter(|l| l.starts_with(&format!("play {other} "))).count();
        assert!(plays > 5, "{told:?}");
        assert!(told.iter().all(|l| !l.starts_with("phantom-opponent ok")), "{told:?}");
        assert!(told.iter().any(|l| l.starts_with("phantom-result ok")), "own tries are still phantom");
        let twin = sent(&transcripts.join(format!("game-{game:06}-{blind}.txt")));
        assert!(twin.iter().any(|l| l.starts_with("phantom-opponent ok")), "{twin:?}");
        assert!(twin.iter().all(|l| !l.starts_with("play ")), "{twin:?}");
    }
}

/// A level game (both engines pass at once on an empty board, komi 0) is a draw by default and a win for
/// White under `--tie-goes-to white`; the rule is recorded in each game's JSON line.
#[test]
fn a_level_game_is_a_draw_or_goes_to_white() {
    let dir = out_dir("tie");
    let passer = "bash tests/engines/random.sh --seed {seed} --pass-after 0";
    for (tie, result, winner) in [("draw", "0", Value::Null), ("white", "W+0", Value::from("white"))] {
        let results = dir.join(format!("{tie}.jsonl"));
        let mut command = Command::new(binary());
        command.current_dir(env!("CARGO_MANIFEST_DIR"));
        command.args(["match", "--quiet", "--games", "2", "--size", "5", "--komi", "0", "--black", passer]);
        command.args(["--white", passer, "--results", results.to_str().unwrap()]);
        if tie == "white" {
            command.args(["--tie-goes-to", "white"]);
        }
        let output = command.output().expect("runner runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let table = String::from_utf8_lossy(&output.stdout);
        for line in std::fs::read_to_string(&results).expect("results written").lines() {
            let record: Value = serde_json::from_str(line).expect("JSON line");
            assert_eq!(record["score"].as_f64(), Some(0.0), "{record}");
            assert_eq!(record["result"], result, "{record}");
            assert_eq!(record["winner"], winner, "{record}");
            assert_eq!(record["tie_goes_to"], tie, "{record}");
        }
        let draws = table.lines().find(|l| l.starts_with("draws")).unwrap_or_default().to_string();
        let expected_draws = if tie == "draw" { "2" } else { "0" };
        assert_eq!(draws.split_whitespace().nth(1), Some(expected_draws), "{table}");
    }
    let bad = Command::new(binary()).args(["match", "--tie-goes-to", "black"]).output().expect("runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("white or draw"));
}
