//! The championship dialect through the real binary: golden transcripts (`tests/ccgc/*.in` piped through
//! `phantomgo ccgc`, stdout compared with `.out`), and whole games through the match runner with a dialect
//! seat, checked by the runner's judge and against a golden transcript of a whole 9x9 game.
//!
//! The first line of a `.in` file may be `# args: ...` (taken off before the rest is piped): the arguments
//! after `ccgc`. Without it: `--player random --seed 1 --threads 1`. In `.out`, `{move}` matches one
//! `move XY` or `move pass` line.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DEFAULT_ARGS: &str = "--player random --seed 1 --threads 1";

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_phantomgo")
}

fn run_ccgc(args: &[String], input: &[u8]) -> (String, String) {
    let mut child = Command::new(binary())
        .arg("ccgc")
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write input");
    drop(stdin);
    let output = child.wait_with_output().expect("binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "exit {:?}: {stderr}", output.status);
    (String::from_utf8(output.stdout).expect("stdout is UTF-8"), stderr)
}

fn is_move_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("move ") else {
        return false;
    };
    rest == "pass" || (rest.len() == 2 && rest.bytes().all(|b| (b'A'..=b'I').contains(&b)))
}

fn line_matches(expected: &str, actual: &str) -> bool {
    if expected == "{move}" {
        return is_move_line(actual);
    }
    expected == actual
}

fn check(path: &Path) {
    let text = std::fs::read_to_string(path).expect("read transcript");
    let (args, input) = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with("# args:") => (&first["# args:".len()..], rest),
        _ => (DEFAULT_ARGS, text.as_str()),
    };
    let args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    let (actual, stderr) = run_ccgc(&args, input.as_bytes());
    let expected_path = path.with_extension("out");
    if std::env::var_os("PHANTOMGO_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).expect("bless");
        return;
    }
    let expected =
        std::fs::read_to_string(&expected_path).unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    assert_eq!(e.len(), a.len(), "{}: line count differs; output:\n{actual}\nstderr:\n{stderr}", path.display());
    for (number, (e, a)) in e.iter().zip(&a).enumerate() {
        assert!(line_matches(e, a), "{} line {}: expected {e:?}, got {a:?}\n{actual}", path.display(), number + 1);
    }
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("ccgc");
    let mut transcripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/ccgc exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    transcripts.sort();
    assert!(transcripts.len() >= 4, "{transcripts:?}");
    for transcript in &transcripts {
        check(transcript);
    }
}

#[test]
fn malformed_lines_are_logged_on_stderr() {
    let (out, stderr) = run_ccgc(&[], b"accept\nfly\ntake 1 ZZ\nname?\n");
    assert_eq!(out, "name phantomgo\n");
    assert_eq!(stderr.matches("malformed line ignored").count(), 3, "{stderr}");
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("phantomgo-ccgc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Plays a match between a dialect engine (Black in even games) and a GTP engine; the records and the
/// transcript folder.
fn dialect_match(name: &str, games: &str, black_args: &str, white_args: &str) -> (Vec<Value>, PathBuf) {
    dialect_match_with(name, games, black_args, white_args, &[])
}

fn dialect_match_with(
    name: &str,
    games: &str,
    black_args: &str,
    white_args: &str,
    extra: &[&str],
) -> (Vec<Value>, PathBuf) {
    let dir = out_dir(name);
    let exe = shell_quote(binary());
    let results = dir.join("results.jsonl");
    let transcripts = dir.join("transcripts");
    let output = Command::new(binary())
        .args(["match", "--games", games, "--quiet", "--size", "9"])
        .arg("--black")
        .arg(format!("ccgc:{exe} ccgc {black_args}"))
        .arg("--white")
        .arg(format!("{exe} gtp {white_args}"))
        .arg("--results")
        .arg(&results)
        .arg("--transcript")
        .arg(&transcripts)
        .args(extra)
        .env("RUST_LOG", "off")
        .output()
        .expect("runner runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let records = std::fs::read_to_string(&results)
        .expect("results written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    (records, transcripts)
}

/// The protocol lines of a transcript (notes dropped).
fn protocol_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| l.starts_with("< ") || l.starts_with("> "))
        .map(str::to_string)
        .collect()
}

/// Whole games through both protocols: the runner's judge rules every try the dialect engine answers, the
/// games end normally, and each engine's transcript shows what it was told.
#[test]
fn the_runner_plays_whole_games_between_the_dialect_and_gtp() {
    let (records, transcripts) = dialect_match(
        "match",
        "2",
        "--player random --seed {seed} --threads 1",
        "--player random --seed {seed} --threads 1",
    );
    assert_eq!(records.len(), 2);
    for record in &records {
        assert!(record["fault"].is_null(), "{record}");
        assert!(["two_passes", "length_cap"].contains(&record["reason"].as_str().unwrap()), "{record}");
        assert!(record["moves"].as_u64().unwrap() > 20, "{record}");
    }
    for (game, dialect_color) in [(0, "black"), (1, "white")] {
        let dialect = protocol_lines(&transcripts.join(format!("game-{game:06}-{dialect_color}.txt")));
        assert_eq!(dialect[0], "< name?");
        assert!(dialect.iter().any(|l| l == &format!("< new {dialect_color}")), "{dialect:?}");
        assert!(dialect.iter().any(|l| l.starts_with("> move ")));
        assert!(dialect.iter().all(|l| !l.starts_with("< phantom")), "no GTP to the dialect engine");
        let other = if dialect_color == "black" { "white" } else { "black" };
        let gtp = protocol_lines(&transcripts.join(format!("game-{game:06}-{other}.txt")));
        assert!(gtp.iter().any(|l| l.starts_with("< phantom-opponent ok")), "{gtp:?}");
        assert!(gtp.iter().any(|l| l.starts_with("> = ")));
    }
}

/// Pondering on both protocols (`engine.ponder_playouts`): whole games end normally through the runner's judge,
/// and each side's move log shows a good share of searches that started from pondered visits.
#[test]
fn pondering_engines_play_whole_games_on_both_protocols() {
    let logs = out_dir("ponder-logs");
    let args = |side: &str| {
        let log = shell_quote(&logs.join(format!("{side}.jsonl")).to_string_lossy());
        format!("--playouts 300 --particles 64 --seed {{seed}} --threads 1 --set engine.ponder_playouts=3000 --log-file {log}")
    };
    let (records, _) = dialect_match("ponder", "2", &args("dialect"), &args("gtp"));
    assert_eq!(records.len(), 2);
    for record in &records {
        assert!(record["fault"].is_null(), "{record}");
        assert!(record["warnings"].as_array().is_none_or(Vec::is_empty), "{record}");
        assert!(["two_passes", "length_cap"].contains(&record["reason"].as_str().unwrap()), "{record}");
    }
    for side in ["dialect", "gtp"] {
        let text = std::fs::read_to_string(logs.join(format!("{side}.jsonl"))).expect("move log written");
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
        assert!(lines.len() > 20, "{side}: {} moves", lines.len());
        // About half the turns on either protocol here; the dialect's accepted tries await a possible `take`,
        // and pondered only after a capture (5 turns of 153) until its ponder took the try as standing.
        let pondered = lines.iter().filter(|l| l["pondered"].as_u64().unwrap_or(0) > 0).count();
        assert!(
            pondered * 6 >= lines.len(),
            "{side}: {pondered} of {} searches started from pondered visits",
            lines.len()
        );
        assert!(lines.iter().all(|l| l["simulations"].as_u64().unwrap_or(0) <= 300), "{side}: the playouts stay fixed");
    }
}

/// A turn passed for the dialect engine after one refused try (`--max-illegal 1`) cannot be said in the
/// dialect: its answer to that `refuse` is dropped with a warning, and the games still end normally.
#[test]
fn a_forced_pass_is_survived_with_a_warning() {
    let args = "--player random --seed {seed} --threads 1";
    let (records, _) = dialect_match_with("forced", "2", args, args, &["--max-illegal", "1"]);
    for record in &records {
        assert!(record["fault"].is_null(), "{record}");
    }
    let warned = records.iter().flat_map(|r| r["warnings"].as_array().cloned().unwrap_or_default());
    assert!(warned.into_iter().any(|w| w.as_str().is_some_and(|w| w.contains("dropped"))), "{records:?}");
}

/// A whole 9x9 game of the seeded random dialect engine against the seeded random GTP engine, refereed by
/// the runner's judge, is exactly the golden transcript; and the dialect engine, fed the platform's side
/// of that transcript alone, answers every line as it did in the game.
#[test]
fn a_whole_9x9_game_matches_its_golden_transcript() {
    let golden_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("ccgc").join("whole_game_9x9.txt");
    let args = "--player random --seed 3 --threads 1";
    let (records, transcripts) = dialect_match("golden", "1", args, "--player random --seed 4 --threads 1");
    assert!(records[0]["fault"].is_null(), "{}", records[0]);
    let played = protocol_lines(&transcripts.join("game-000000-black.txt"));
    if std::env::var_os("PHANTOMGO_BLESS").is_some() {
        std::fs::write(&golden_path, played.join("\n") + "\n").expect("bless");
    }
    let golden = protocol_lines(&golden_path);
    assert_eq!(played, golden, "the game differs from tests/ccgc/whole_game_9x9.txt");
    let input: String = golden.iter().filter_map(|l| l.strip_prefix("< ")).map(|l| format!("{l}\n")).collect();
    let args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    let (out, _) = run_ccgc(&args, input.as_bytes());
    let answers: Vec<&str> = golden.iter().filter_map(|l| l.strip_prefix("> ")).collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), answers);
    assert!(answers.len() > 20);
}

#[test]
fn a_config_can_make_the_default_front_end_speak_the_dialect() {
    let dir = out_dir("config");
    let path = dir.join("ccgc.toml");
    std::fs::write(&path, "[game]\nprotocol = \"ccgc\"\nname = \"pg9\"\nmain_time = 60\n").expect("write config");
    let output = Command::new(binary())
        .arg("--config")
        .arg(&path)
        .args(["--player", "random"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().expect("stdin").write_all(b"name?\nnew black\nquit\n")?;
            child.wait_with_output()
        })
        .expect("binary runs");
    let out = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "name pg9");
    assert!(is_move_line(lines[1]), "{out}");
}
