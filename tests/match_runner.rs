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

/// Exit status of `phantomgo match` when games ended by an engine's fault (docs/match.md).
const FAULT_EXIT: i32 = 3;

/// Runs a match writing JSON lines to `dir/results.jsonl`; returns the records and the output.
fn run_match(dir: &Path, args: &[&str]) -> (Vec<Value>, Output) {
    run_match_with_status(dir, args, 0)
}

/// Like [`run_match`], expecting exit status `code`.
fn run_match_with_status(dir: &Path, args: &[&str], code: i32) -> (Vec<Value>, Output) {
    let results = dir.join("results.jsonl");
    let _ = std::fs::remove_file(&results);
    let mut all = vec!["match", "--quiet", "--results", results.to_str().unwrap()];
    all.extend_from_slice(args);
    let output = phantomgo(&all);
    assert_eq!(output.status.code(), Some(code), "match: {}", String::from_utf8_lossy(&output.stderr));
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
    let (records, output) = run_match_with_status(
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
        FAULT_EXIT,
    );
    assert_eq!(records.len(), 3);
    assert_fault(&records, "crash", "crash", "simulated crash");
    assert!(String::from_utf8_lossy(&output.stdout).contains("errors"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("ended by an engine fault"));
}

#[test]
fn garbage_is_a_protocol_violation() {
    let dir = out_dir("garbage");
    let (records, _) = run_match_with_status(
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
        FAULT_EXIT,
    );
    assert_eq!(records.len(), 2);
    assert_fault(&records, "garbage", "protocol", "about to print garbage");
    assert!(records[0]["fault"]["detail"].as_str().unwrap().contains("not GTP"));
}

#[test]
fn a_hanging_engine_is_killed_and_recorded() {
    let dir = out_dir("hang");
    let started = Instant::now();
    let (records, _) = run_match_with_status(
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
        FAULT_EXIT,
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
fn a_broken_engine_command_stops_the_match_before_game_one() {
    let dir = out_dir("missing");
    let results = dir.join("results.jsonl");
    for (engine, says) in [
        ("no-such-engine-phantomgo-test", "not found"),
        ("false", "exited during 'protocol_version'"),
        ("view:", "nothing to run"),
    ] {
        let output = phantomgo(&[
            "match",
            "--black",
            engine,
            "--white",
            RANDOM,
            "--games",
            "200",
            "--size",
            "5",
            "--results",
            results.to_str().unwrap(),
            "--force",
        ]);
        assert_eq!(output.status.code(), Some(1), "{engine}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{engine}: {stderr}");
        assert!(read_records(&results).is_empty(), "{engine}: no game is played");
        let _ = std::fs::remove_file(&results);
        std::fs::write(&results, "").unwrap();
    }
}

#[test]
fn an_engine_faulting_game_after_game_stops_the_match() {
    let dir = out_dir("streak");
    let crash = "bash tests/engines/crash.sh";
    let args = ["--black", crash, "--black-name", "crash", "--white", RANDOM, "--size", "5", "--max-faults", "2"];
    let mut all = args.to_vec();
    all.extend_from_slice(&["--games", "6"]);
    let (records, output) = run_match_with_status(&dir, &all, FAULT_EXIT);
    assert_eq!(records.len(), 2, "stopped after two faults in a row");
    assert_fault(&records, "crash", "crash", "simulated crash");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("'crash' broke in 2 games in a row") && stderr.contains("stopped after 2 of 6"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        &["match", "--size", "30"][..],
        &["match", "--time", "abc"],
        &["match", "--shard", "3/2"],
        &["match", "--rules", "sometimes"],
        &["match-merge", "/nonexistent/results.jsonl"],
        &["match-merge", "/dev/null"],
        &["match", "--games", "0"],
        &["match", "--max-tries", "0"],
        &["match", "--repetition", "sometimes"],
        &["match", "--config", "/nonexistent.toml"],
        &["match", "--set", "search.nonsense=1"],
        &["match", "--black", RANDOM, "--white", RANDOM, "--playouts", "10"],
        &["match", "--game-id", "3"],
        &["match-merge", "--threads", "2", "/dev/null"],
        &["match-compare", "--new", "/dev/null", "--old", "/dev/null"],
        &["match-compare", "--new", "/nonexistent/results.jsonl", "--old", "/dev/null"],
        &["match-compare", "--old", "/dev/null"],
        &["bench", "playouts", "--threads", "2"],
        &["bench", "search", "--playouts", "5"],
        &["--player", "random", "match"],
    ] {
        let output = phantomgo(args);
        assert!(!output.status.success(), "{args:?}");
    }
}

#[test]
fn a_compressed_results_file_is_named_as_such() {
    // A results file gzipped as docs/ladder keeps them (the header of a gzip stream), and bytes that are no text.
    let dir = out_dir("binary");
    let record = dir.join("games.jsonl.gz");
    std::fs::write(&record, [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]).expect("write");
    let record = record.to_str().unwrap();
    let output = phantomgo(&["match-compare", "--new", record, "--old", record]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("gzip-compressed") && stderr.contains("zcat"), "{stderr}");
    let binary = dir.join("binary.jsonl");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x7b]).expect("write");
    let output = phantomgo(&["match-merge", binary.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is not text"), "{stderr}");
}

#[test]
fn engine_options_reach_the_runners_own_engines() {
    let dir = out_dir("options");
    let log = dir.join("moves.jsonl");
    let (records, output) = run_match(
        &dir,
        &[
            "--games",
            "2",
            "--size",
            "5",
            "--max-tries",
            "12",
            "--playouts",
            "10",
            "--threads",
            "1",
            "--log-file",
            log.to_str().unwrap(),
            "--set",
            "engine.particles=16",
        ],
    );
    assert_eq!(records.len(), 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--threads 1 --playouts 10"), "{stderr}");
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .expect("the engines log")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 10, "{} lines", lines.len());
    for line in &lines {
        // Fixed playouts and no clock: no time budget, at most 10 simulations.
        assert_eq!(line["playouts_limit"], 10, "{line}");
        assert!(line["hard_ms"].is_null() && line["simulations"].as_u64().unwrap() <= 10, "{line}");
    }
    // Each line names its game (`--game-id {game}`), so the shared file splits by game.
    for game in [0, 1] {
        assert!(lines.iter().any(|l| l["game"] == game), "game {game}");
    }
}

#[test]
fn the_header_prints_the_time_control_and_the_demo_default() {
    let dir = out_dir("header");
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let output = phantomgo(&["match", "--games", "1", "--size", "5", "--max-tries", "6", "--concurrency", "2"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let share = (cores / 2).max(1);
    assert!(
        stderr.contains(&format!("time: no clock; this binary's engines: --threads {share} --move-time 0.1")),
        "{stderr}"
    );
    let (_, output) = run_match(&dir, &["--games", "1", "--size", "5", "--max-tries", "6", "--time", "5+0.5"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("time: clock 5+0.5 s per engine per game") && !stderr.contains("--move-time"), "{stderr}");
    let (_, output) = run_match(&dir, &["--black", RANDOM, "--white", RANDOM, "--games", "1", "--size", "5"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("time: no clock; engines given as commands use their own settings"), "{stderr}");
}

#[test]
fn results_are_not_overwritten_without_force_and_append_adds() {
    let dir = out_dir("overwrite");
    let results = dir.join("results.jsonl");
    let args = |extra: &'static str| {
        let mut all = vec!["match", "-q", "--black", RANDOM, "--white", RANDOM, "--games", "1", "--size", "5"];
        all.extend_from_slice(&["--results", results.to_str().unwrap()]);
        if !extra.is_empty() {
            all.push(extra);
        }
        phantomgo(&all)
    };
    assert!(args("").status.success());
    let refused = args("");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--force"));
    assert_eq!(read_records(&results).len(), 1);
    assert!(args("--append").status.success());
    assert_eq!(read_records(&results).len(), 2);
    assert!(args("--force").status.success());
    let records = read_records(&results);
    assert_eq!(records.len(), 1);
    // Fractions are rounded to 4 places in the JSON.
    let text = std::fs::read_to_string(&results).unwrap();
    for number in text.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|t| t.contains('.')) {
        assert!(number.split('.').nth(1).unwrap().len() <= 4, "{number} in {text}");
    }
}

#[test]
fn merging_two_different_matches_with_shared_games_is_an_error() {
    let dir = out_dir("merge-clash");
    let mut files = Vec::new();
    for seed in ["1", "2"] {
        let sub = dir.join(seed);
        std::fs::create_dir_all(&sub).unwrap();
        run_match(&sub, &["--black", RANDOM, "--white", RANDOM, "--games", "1", "--size", "5", "--seed", seed]);
        files.push(sub.join("results.jsonl"));
    }
    let output = phantomgo(&["match-merge", files[0].to_str().unwrap(), files[1].to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("two different matches"));
    // The same shard twice is the same games: kept once, with a warning.
    let output = phantomgo(&["match-merge", files[0].to_str().unwrap(), files[0].to_str().unwrap()]);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("more than once"));
}

#[test]
fn two_matches_on_the_same_games_are_compared_game_by_game() {
    let dir = out_dir("compare");
    let mut files = Vec::new();
    for (name, seed) in [("new", "5"), ("old", "5"), ("other", "6")] {
        let sub = dir.join(name);
        std::fs::create_dir_all(&sub).unwrap();
        run_match(
            &sub,
            &[
                "--black",
                RANDOM,
                "--black-name",
                name,
                "--white",
                RANDOM,
                "--games",
                "4",
                "--size",
                "5",
                "--seed",
                seed,
            ],
        );
        files.push(sub.join("results.jsonl"));
    }
    let file = |i: usize| files[i].to_str().unwrap().to_string();
    // The same scripted engines on the same seeds play the same games: nothing discordant.
    let output = phantomgo(&["match-compare", "--new", &file(0), "--old", &file(1)]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.contains("4 games played in both"), "{text}");
    assert!(text.contains("new = new") && text.contains("old = old"), "{text}");
    assert!(text.contains("only with new: 0, only with old: 0") && text.contains("p = 1.000"), "{text}");
    // Another --seed is other games.
    let output = phantomgo(&["match-compare", "--new", &file(0), "--old", &file(2)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("share no game"));
    // An engine that did not play is named in the error.
    let output = phantomgo(&["match-compare", "--new", &file(0), "--old", &file(1), "--old-engine", "nobody"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("\"nobody\" does not play"));
}

#[test]
fn game_indices_reach_engine_commands() {
    let dir = out_dir("game-index");
    let marker = dir.join("started");
    let command = format!("touch {}-{{game}}; exec bash tests/engines/random.sh --seed {{seed}}", marker.display());
    run_match(&dir, &["--black", &command, "--white", RANDOM, "--games", "3", "--size", "5"]);
    for game in 0..3 {
        assert!(dir.join(format!("started-{game}")).exists(), "game {game}");
    }
}

#[test]
fn repetition_draw_ends_games_that_repeat_a_position() {
    let dir = out_dir("repetition");
    let common = ["--black", RANDOM, "--white", RANDOM, "--games", "4", "--size", "2"];
    let mut draw = common.to_vec();
    draw.extend_from_slice(&["--repetition", "draw"]);
    // What the engines are told: the rule on a line of its own.
    let heard = dir.join("heard");
    let listener = format!("tee -a {}-{{game}} | {RANDOM}", heard.display());
    let mut told = draw.clone();
    told[1] = listener.as_str();
    run_match(&dir, &told);
    let input = std::fs::read_to_string(dir.join("heard-1")).expect("engine input recorded");
    assert!(input.lines().any(|l| l == "phantom-rules repetition=draw"), "{input}");
    let (records, output) = run_match(&dir, &draw);
    let repeated: Vec<&Value> = records.iter().filter(|r| r["reason"] == "repetition").collect();
    assert!(!repeated.is_empty(), "2x2 random games repeat positions");
    for record in repeated {
        assert_eq!(record["result"], "0");
        assert!(record["winner"].is_null() && record["score"].is_null(), "{record}");
    }
    assert!(String::from_utf8_lossy(&output.stdout).contains("repetition"));
    // Today's rule (the default) lets the same games go on; superko forbids the repeating moves.
    for rule in ["allowed", "superko"] {
        let mut args = common.to_vec();
        args.extend_from_slice(&["--repetition", rule]);
        let (records, _) = run_match(&dir, &args);
        assert!(records.iter().all(|r| r["reason"] != "repetition" && r["fault"].is_null()), "{rule}");
    }
}

#[test]
fn debug_lines_name_the_engines() {
    let output = Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .args(["match", "-q", "--black", RANDOM, "--black-name", "alpha", "--white", RANDOM, "--white-name", "beta"])
        .args(["--games", "1", "--size", "5"])
        .env("RUST_LOG", "debug")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("[alpha black] << genmove b") && stderr.contains("[beta white] >> = "), "{stderr}");
    assert!(stderr.contains("[alpha (greeting)] << protocol_version"), "{stderr}");
}

/// The true final board of a game, replayed from the runner's SGF (`;B[cc]`, `;W[]` for a pass).
fn final_board(sgf: &str, size: usize) -> phantomgo::Board {
    let mut board = phantomgo::Board::new(size).expect("size");
    for (at, _) in sgf.match_indices(['B', 'W']) {
        let node = &sgf[at..];
        if !sgf[..at].ends_with(';') || !node[1..].starts_with('[') {
            continue;
        }
        let color = if node.starts_with('B') { phantomgo::Color::Black } else { phantomgo::Color::White };
        let value: Vec<u8> = node[2..].bytes().take_while(|&b| b != b']').collect();
        if value.is_empty() {
            board.pass();
            continue;
        }
        let (col, row) = (usize::from(value[0] - b'a'), size - 1 - usize::from(value[1] - b'a'));
        let point = phantomgo::Point::from_coords(col, row, size).expect("on the board");
        board.try_play(color, point).expect("the SGF holds legal moves");
    }
    board
}

#[test]
fn invaders_left_at_the_end_are_recorded_and_tabled() {
    let dir = out_dir("invaders");
    let sgf = dir.join("sgf");
    let heard = dir.join("heard");
    // Engines that never pass fill the board until the cap: stones end up walled in.
    let dense = "bash tests/engines/random.sh --seed {seed}";
    let listener = format!("tee -a {}-{{game}} | {dense}", heard.display());
    let args = ["--black", &listener, "--white", dense, "--games", "6", "--size", "5", "--max-tries", "80"];
    let mut all = args.to_vec();
    all.extend_from_slice(&["--sgf", sgf.to_str().unwrap()]);
    let (records, output) = run_match(&dir, &all);
    // The cap reaches the engine as an optional rule on a line of its own.
    let input = std::fs::read_to_string(dir.join("heard-0")).expect("engine input recorded");
    assert!(input.lines().any(|l| l == "phantom-rules max-tries=80"), "{input}");
    let mut total = 0;
    for record in &records {
        let game = record["game"].as_u64().unwrap();
        let text = std::fs::read_to_string(sgf.join(format!("game-{game:05}.sgf"))).expect("sgf written");
        let found = phantomgo::scoring::invaders(&final_board(&text, 5));
        for (field, color) in [("invaders_black", phantomgo::Color::Black), ("invaders_white", phantomgo::Color::White)]
        {
            assert_eq!(record[field].as_u64(), Some(u64::from(found[color])), "game {game} {field}: {record}");
            total += found[color];
        }
    }
    assert!(total > 0, "random 5x5 games leave stones inside the other side's area");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("invaders left/game") && table.contains("  in its area/game"), "{table}");
    assert!(table.contains("invaders per game (stones left inside the other side's area): black "), "{table}");
    let endings = table.lines().find(|l| l.starts_with("endings: ")).expect("endings line");
    assert!(endings.contains('%'), "{endings}");
}
