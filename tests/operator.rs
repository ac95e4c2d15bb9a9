//! Whole-binary tests of what an operator sees on stderr: an unopenable move log is a warning naming its key,
//! a move time too short for any search is warned about (and the emergency try is sensible), `RUST_LOG=debug`
//! logs each command and a search summary (the baselines' too), `--game-id` marks every move-log line, and the
//! move log gives the time spent on announcements; genmove lines piped at once each get the whole move time.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the engine on `input` with `args` and `RUST_LOG=log`; returns (stdout, stderr), asserting success.
fn engine(args: &[&str], log: &str, input: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .args(args)
        .env("RUST_LOG", log)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let output = child.wait_with_output().expect("binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "exit {:?}: {stderr}", output.status);
    (String::from_utf8_lossy(&output.stdout).into_owned(), stderr)
}

/// A fresh temporary folder for one test's files (`tag` keeps tests apart) and the move log path in it.
fn move_log_dir(tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("phantomgo-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("moves.jsonl");
    (dir, path)
}

/// The JSON lines of a move log.
fn move_log_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn an_unopenable_move_log_is_a_warning_naming_the_key() {
    let missing = "/nonexistent-phantomgo-dir/moves.jsonl";
    let input = "genmove b\nname\n";
    let base = ["--player", "random", "--seed", "1"];
    let mut args = base.to_vec();
    args.extend_from_slice(&["--log-file", missing]);
    let (stdout, stderr) = engine(&args, "info", input);
    assert!(stdout.starts_with("= ") && stdout.contains("= phantomgo"), "{stdout}");
    assert!(stderr.contains("--log-file") && stderr.contains(missing), "{stderr}");
    let set = format!("log.file={missing}");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--set", &set]);
    let (stdout, stderr) = engine(&args, "info", input);
    assert!(stdout.contains("= phantomgo"), "{stdout}");
    assert!(stderr.contains("(log.file)"), "{stderr}");
}

#[test]
fn a_move_time_too_short_to_search_is_warned_and_the_emergency_try_is_central() {
    let (stdout, stderr) = engine(&["--move-time", "0.05", "--threads", "1"], "warn", "boardsize 9\ngenmove b\n");
    assert!(stderr.contains("--move-time") && stderr.contains("emergency"), "{stderr}");
    assert_eq!(stdout, "=\n\n= E5\n\n");
    let (_, stderr) = engine(&["--move-time", "0.2", "--threads", "1"], "warn", "name\n");
    assert!(!stderr.contains("emergency"), "{stderr}");
}

#[test]
fn debug_logs_name_each_command_and_summarise_the_search() {
    let args = ["--seed", "1", "--threads", "1", "--playouts", "50"];
    let (_, stderr) = engine(&args, "debug", "boardsize 5\ngenmove b\nkomi x\n");
    for expected in ["<< boardsize 5", "<< genmove b", ">> = ", "search: ", "top tries: ", "visits", "p(stone)"] {
        assert!(stderr.contains(expected), "{expected} missing:\n{stderr}");
    }
    let (_, quiet) = engine(&args, "info", "boardsize 5\ngenmove b\n");
    assert!(!quiet.contains("<< genmove"), "{quiet}");
    // The published baselines log the same line, so a match between players can be read side by side.
    for player in ["pimc", "flat"] {
        let args = ["--player", player, "--seed", "1", "--threads", "1", "--playouts", "50"];
        let (_, stderr) = engine(&args, "debug", "boardsize 5\ngenmove b\n");
        for expected in ["search: ", "top tries: ", "visits", "p(stone)"] {
            assert!(stderr.contains(expected), "{player}: {expected} missing:\n{stderr}");
        }
    }
}

#[test]
fn game_id_marks_every_move_log_line() {
    let (dir, path) = move_log_dir("gameid");
    let log = path.to_str().unwrap();
    for id in ["7", "final-a"] {
        let args = ["--player", "random", "--seed", "1", "--log-file", log, "--game-id", id];
        engine(&args, "off", "genmove b\nphantom-result ok\ngenmove w\n");
    }
    let lines = move_log_lines(&path);
    assert_eq!(lines.len(), 4);
    assert!(lines[..2].iter().all(|l| l["game"] == 7));
    assert!(lines[2..].iter().all(|l| l["game"] == "final-a"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_move_log_gives_the_time_spent_on_announcements_since_the_last_genmove() {
    let (dir, path) = move_log_dir("updates");
    let args = ["--playouts", "10", "--threads", "1", "--seed", "1", "--log-file", path.to_str().unwrap()];
    let input = "genmove b\nphantom-result ok\nphantom-opponent illegal\nphantom-opponent ok\ngenmove b\ngenmove b\n";
    engine(&args, "off", input);
    let lines = move_log_lines(&path);
    let updates: Vec<f64> = lines.iter().map(|l| l["update_ms"].as_f64().expect("update_ms")).collect();
    // Nothing announced before the first genmove, three belief updates before the second, none before the third.
    assert_eq!(updates.len(), 3);
    assert!(updates[0] == 0.0 && updates[1] > 0.0 && updates[2] == 0.0, "{updates:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_search_takes_the_global_threads_and_refuses_what_it_does_not_use() {
    let (stdout, _) = engine(&["bench", "search", "--seconds", "0.01", "--threads", "3", "--json"], "off", "");
    let figures: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(figures["extra"][0], 3, "{figures}");
    let refused = Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .args(["bench", "playouts", "--count", "10", "--move-time", "1"])
        .output()
        .expect("binary runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--move-time is not used by bench"));
}

#[test]
fn bench_search_takes_search_settings_and_playouts_refuses_them() {
    let args = ["bench", "search", "--seconds", "0.01", "--json", "--set", "search.expand_after=8"];
    let (stdout, _) = engine(&args, "off", "");
    let figures: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert!(figures["sims_per_s_1_thread"].as_f64().is_some_and(|rate| rate > 0.0), "{figures}");
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_phantomgo")).args(args).output().expect("binary runs");
    let unknown = run(&["bench", "search", "--seconds", "0.01", "--set", "search.nonsense=1"]);
    assert!(!unknown.status.success() && String::from_utf8_lossy(&unknown.stderr).contains("nonsense"));
    let playouts = run(&["bench", "playouts", "--count", "10", "--set", "search.expand_after=8"]);
    assert!(!playouts.status.success());
    assert!(String::from_utf8_lossy(&playouts.stderr).contains("not used by bench playouts"));
}

#[test]
fn fit_model_fits_recorded_games_and_the_engine_reads_the_file() {
    let dir = std::env::temp_dir().join(format!("phantomgo-fit-{}", std::process::id()));
    let sgf = dir.join("sgf");
    let model = dir.join("model.toml");
    let _ = std::fs::remove_dir_all(&dir);
    let bin = env!("CARGO_BIN_EXE_phantomgo");
    let status = Command::new(bin)
        .args(["match", "--games", "2", "--playouts", "30", "--threads", "1", "-q", "--size", "7", "--sgf"])
        .arg(&sgf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let out = Command::new(bin)
        .args(["fit-model", "--balance", "--steps", "200", "--train"])
        .arg(&sgf)
        .arg("--eval")
        .arg(&sgf)
        .arg("--out")
        .arg(&model)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.contains("training games") && report.contains("held-out games"), "{report}");
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.starts_with("# The belief's opponent model") && text.contains("[[phase]]"), "{text}");
    // The engine takes the file as its opponent model; a missing file is refused at start-up.
    let set = format!("belief.opponent_model={}", model.display());
    let (stdout, _) = engine(&["--set", &set, "--playouts", "20"], "", "boardsize 7\ngenmove b\nquit\n");
    let moves: Vec<&str> = stdout.lines().filter(|l| l.len() > 2 && l.starts_with("= ")).collect();
    assert_eq!(moves.len(), 1, "one genmove answered with a vertex: {stdout}");
    let refused = Command::new(bin).args(["--set", "belief.opponent_model=/no/such/file.toml"]).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("belief.opponent_model"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genmove_lines_piped_at_once_each_get_the_whole_move_time() {
    let (dir, path) = move_log_dir("piped");
    let args = ["--move-time", "0.2", "--threads", "1", "--seed", "1", "--log-file", path.to_str().unwrap()];
    let input = "boardsize 9\ngenmove b\ngenmove w\ngenmove b\ngenmove w\n";
    let (stdout, _) = engine(&args, "off", input);
    assert_eq!(stdout.matches("= ").count(), 4, "{stdout}");
    let lines = move_log_lines(&path);
    assert_eq!(lines.len(), 4);
    for line in &lines {
        // Each try is budgeted from the answer before it, not from the instant the whole script arrived.
        assert_eq!(line["emergency"], false, "{line}");
        assert!(line["soft_ms"].as_f64().unwrap() > 100.0, "{line}");
        assert!(line["simulations"].as_u64().unwrap() > 0, "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
