//! Whole-binary tests of `phantomgo match` and `match-merge` against the small bash engines in tests/engines/.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const RANDOM: &str = "bash tests/engines/random.sh --seed {seed} --pass-after 12";

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("phantomgo-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn phantomgo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// Runs a match writing JSON lines to `dir/results.jsonl`; returns the records and the output.
fn run_match(dir: &Path, args: &[&str]) -> (Vec<Value>, Output) {
    let results = dir.join("results.jsonl");
    let mut all = vec!["match", "--quiet", "--results", results.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = phantomgo(&all);
    assert!(output.status.success(), "match failed: {}", String::from_utf8_lossy(&output.stderr));
    (read_records(&results), output)
}

fn read_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("results written")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON record"))
        .collect()
}

fn sorted(mut records: Vec<Value>) -> Vec<Value> {
    records.sort_by_key(|r| r["game"].as_u64());
    records
}

#[test]
fn two_random_engines_play_a_match_with_records_and_sgf() {
    let dir = out_dir("selfplay");
    let sgf = dir.join("sgf");
    let (records, output) = run_match(
        &dir,
        &[
            "--black",
            RANDOM,
            "--black-name",
            "alpha",
            "--white",
            RANDOM,
            "--white-name",
            "beta",
            "--games",
            "4",
            "--size",
            "5",
            "--concurrency",
            "2",
            "--sgf",
            sgf.to_str().unwrap(),
        ],
    );
    let records = sorted(records);
    assert_eq!(records.len(), 4);
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record["game"].as_u64(), Some(i as u64));
        // Colours alternate: alpha is Black in even games.
        let black = if i % 2 == 0 { "alpha" } else { "beta" };
        assert_eq!(record["black"], black);
        assert!(record["fault"].is_null(), "{record}");
        let reason = record["reason"].as_str().unwrap();
        assert!(["two_passes", "length_cap"].contains(&reason), "{reason}");
        let result = record["result"].as_str().unwrap();
        assert!(result.starts_with("B+") || result.starts_with("W+") || result == "0");
        assert!(record["moves"].as_u64().unwrap() > 0);
        assert!(record["time"]["black"]["replies"].as_u64().unwrap() > 0);
        let text = std::fs::read_to_string(sgf.join(format!("game-{i:05}.sgf"))).expect("sgf written");
        assert!(text.starts_with("(;FF[4]GM[1]"));
        assert!(text.contains("SZ[5]") && text.contains(&format!("RE[{result}]")));
        assert!(text.contains("phantom-result ok"));
    }
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("95% Wilson") && table.contains("A = alpha"), "{table}");
}

fn assert_fault(records: &[Value], engine: &str, kind: &str, stderr_says: &str) {
    for record in records {
        let fault = &record["fault"];
        assert_eq!(record["reason"], kind, "{record}");
        assert_eq!(fault["kind"], kind);
        assert_eq!(fault["engine"], engine);
        let faulty = fault["color"].as_str().unwrap();
        assert_eq!(record[faulty], engine);
        assert_ne!(record["winner"], faulty);
        let letter = if faulty == "black" { "W" } else { "B" };
        let suffix = if kind == "time" { "T" } else { "F" };
        assert_eq!(record["result"], format!("{letter}+{suffix}"));
        assert!(fault["stderr_tail"].as_str().unwrap().contains(stderr_says), "{fault}");
    }
}

#[test]
fn a_crashing_engine_loses_each_game_and_the_match_goes_on() {
    let dir = out_dir("crash");
    let (records, output) = run_match(
        &dir,
        &[
            "--black",
            "bash tests/engines/crash.sh",
            "--black-name",
            "crash",
            "--white",
            RANDOM,
            "--games",
            "3",
            "--size",
            "5",
        ],
    );
    assert_eq!(records.len(), 3);
    assert_fault(&records, "crash", "crash", "simulated crash");
    assert!(String::from_utf8_lossy(&output.stdout).contains("errors"));
}

#[test]
fn garbage_is_a_protocol_violation() {
    let dir = out_dir("garbage");
    let (records, _) = run_match(
        &dir,
        &[
            "--black",
            "bash tests/engines/garbage.sh",
            "--black-name",
            "garbage",
            "--white",
            RANDOM,
            "--games",
            "2",
            "--size",
            "5",
        ],
    );
    assert_eq!(records.len(), 2);
    assert_fault(&records, "garbage", "protocol", "about to print garbage");
    assert!(records[0]["fault"]["detail"].as_str().unwrap().contains("not GTP"));
}

#[test]
fn a_hanging_engine_is_killed_and_recorded() {
    let dir = out_dir("hang");
    let started = Instant::now();
    let (records, _) = run_match(
        &dir,
        &[
            "--black",
            "bash tests/engines/hang.sh",
            "--black-name",
            "hang",
            "--white",
            RANDOM,
            "--games",
            "2",
            "--size",
            "5",
            "--move-timeout",
            "0.5",
        ],
    );
    assert_eq!(records.len(), 2);
    assert_fault(&records, "hang", "hang", "hanging at genmove");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_slow_engine_loses_on_time() {
    let dir = out_dir("time");
    let (records, output) = run_match(
        &dir,
        &[
            "--black",
            "bash tests/engines/random.sh --slow 0.15",
            "--black-name",
            "slow",
            "--white",
            RANDOM,
            "--games",
            "2",
            "--size",
            "5",
            "--time",
            "0.5",
        ],
    );
    assert_fault(&records, "slow", "time", "");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.lines().any(|l| l.starts_with("time losses") && l.contains('2')), "{table}");
}

#[test]
fn a_plain_gtp_engine_plays_through_the_view_wrapper() {
    let dir = out_dir("view");
    let (records, _) = run_match(
        &dir,
        &[
            "--black",
            "view:bash tests/engines/random.sh --seed {seed} --pass-after 8",
            "--black-name",
            "plain",
            "--white",
            RANDOM,
            "--games",
            "2",
            "--size",
            "5",
        ],
    );
    for record in &records {
        assert!(record["fault"].is_null(), "{record}");
        assert!(record["moves"].as_u64().unwrap() > 4);
    }
}

#[test]
fn lose_turn_rules_and_resignation() {
    let dir = out_dir("loseturn");
    let (records, _) = run_match(
        &dir,
        &[
            "--black",
            "bash tests/engines/random.sh --resign-after 3",
            "--black-name",
            "quitter",
            "--white",
            RANDOM,
            "--games",
            "2",
            "--size",
            "5",
            "--rules",
            "lose-turn",
        ],
    );
    for record in &records {
        assert_eq!(record["rules"], "lose-turn");
        assert_eq!(record["reason"], "resign");
        assert_ne!(record["winner_engine"], "quitter");
        assert!(record["result"].as_str().unwrap().ends_with("+R"));
    }
}

#[test]
fn beliefs_are_scored_against_the_truth() {
    let dir = out_dir("belief");
    let (records, output) = run_match(
        &dir,
        &[
            "--black",
            "bash tests/engines/random.sh --belief --seed {seed} --pass-after 10",
            "--white",
            RANDOM,
            "--games",
            "2",
            "--size",
            "5",
        ],
    );
    for record in &records {
        let color = if record["game"] == 0 { "black" } else { "white" };
        let brier = &record["brier"][color];
        assert!(brier["samples"].as_u64().unwrap() > 0, "{record}");
        let engine = brier["engine"].as_f64().unwrap();
        let fair = brier["brier_fair"].as_f64().unwrap();
        let uniform = brier["brier_uniform"].as_f64().unwrap();
        assert!([engine, fair, uniform].iter().all(|v| (0.0..=1.0).contains(v)));
        // The fair baseline knows at least what the uniform one does.
        assert!(fair <= uniform + 1e-12, "{record}");
        let other = if color == "black" { "white" } else { "black" };
        assert!(record["brier"][other].is_null());
        for side in ["black", "white"] {
            let kinds = &record["illegal_kinds"][side];
            let sum = |split: &serde_json::Value| {
                ["found_new", "hit_known", "suicide_ko"].iter().map(|k| split[k].as_u64().unwrap()).sum::<u64>()
            };
            assert_eq!(sum(&kinds["total"]), record["illegal_tries"][side].as_u64().unwrap(), "{record}");
            let phases: u64 = kinds["by_phase"].as_array().unwrap().iter().map(sum).sum();
            assert_eq!(phases, sum(&kinds["total"]), "{record}");
        }
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("fair baseline") && stdout.contains("uniform baseline"), "{stdout}");
}

#[test]
fn shards_merge_into_the_whole_match() {
    let dir = out_dir("shards");
    let common = ["--black", RANDOM, "--white", RANDOM, "--games", "5", "--size", "5", "--seed", "9"];
    let (whole, whole_output) = run_match(&dir.join(""), &common);
    let mut shard_files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let sub = dir.join(shard.replace('/', "of"));
        std::fs::create_dir_all(&sub).unwrap();
        let mut args = common.to_vec();
        args.extend_from_slice(&["--shard", shard]);
        let (records, _) = run_match(&sub, &args);
        assert_eq!(records.len(), if shard == "1/2" { 3 } else { 2 });
        shard_files.push(sub.join("results.jsonl"));
    }
    let merged_path = dir.join("merged.jsonl");
    let output = phantomgo(&[
        "match-merge",
        shard_files[0].to_str().unwrap(),
        shard_files[1].to_str().unwrap(),
        "--output",
        merged_path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let merged = read_records(&merged_path);
    let whole = sorted(whole);
    assert_eq!(merged.len(), whole.len());
    for (a, b) in merged.iter().zip(&whole) {
        for key in ["game", "seed", "black", "white", "result", "moves", "illegal_tries"] {
            assert_eq!(a[key], b[key], "{key}");
        }
    }
    // The merged table reports the same wins as the single run.
    let wins =
        |out: &Output| String::from_utf8_lossy(&out.stdout).lines().find(|l| l.starts_with("wins")).map(str::to_string);
    assert_eq!(wins(&output), wins(&whole_output));
}

#[test]
fn a_missing_engine_is_a_crash_with_the_shell_message() {
    let dir = out_dir("missing");
    let (records, _) = run_match(
        &dir,
        &[
            "--black",
            "no-such-engine-phantomgo-test",
            "--black-name",
            "missing",
            "--white",
            RANDOM,
            "--games",
            "1",
            "--size",
            "5",
        ],
    );
    assert_fault(&records, "missing", "crash", "not found");
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        &["match", "--size", "30"][..],
        &["match", "--time", "abc"],
        &["match", "--shard", "3/2"],
        &["match", "--rules", "sometimes"],
        &["match-merge", "/nonexistent/results.jsonl"],
    ] {
        let output = phantomgo(args);
        assert!(!output.status.success(), "{args:?}");
    }
}
