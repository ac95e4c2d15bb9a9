//! Golden GTP transcripts: every `tests/gtp/*.gtp` is piped through the real binary and its stdout compared with
//! the matching `.out` file.
//!
//! The first line of a `.gtp` file may be `# args: ...` (the engine skips it as a comment): the command-line
//! arguments of the run. Without it the run uses `--player random --seed 1 --threads 1 --playouts 50`.
//! In `.out` files, `{vertex}` matches one GTP vertex, `pass` or `resign`, and `{any}` matches the rest of the
//! line; everything else must match exactly. Transcripts for the MCTS player use `{vertex}` for genmove replies
//! (the search will change); transcripts with `--player random --seed 1` may assert exact tries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DEFAULT_ARGS: &str = "--player random --seed 1 --threads 1 --playouts 50";

fn is_vertex(text: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    if upper == "PASS" || upper == "RESIGN" {
        return true;
    }
    let bytes = upper.as_bytes();
    bytes.len() >= 2
        && bytes.len() <= 3
        && (b'A'..=b'T').contains(&bytes[0])
        && bytes[0] != b'I'
        && bytes[1..].iter().all(u8::is_ascii_digit)
}

/// Does `actual` match the `expected` pattern line?
fn line_matches(expected: &str, actual: &str) -> bool {
    if let Some((head, _)) = expected.split_once("{any}") {
        return actual.starts_with(head);
    }
    let Some((head, tail)) = expected.split_once("{vertex}") else {
        return expected == actual;
    };
    let Some(rest) = actual.strip_prefix(head) else {
        return false;
    };
    let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    is_vertex(&rest[..end]) && line_matches(tail, &rest[end..])
}

fn run_binary(args: &[String], input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .args(args)
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write input");
    drop(stdin);
    let output = child.wait_with_output().expect("binary runs");
    assert!(output.status.success(), "exit {:?}: {}", output.status, String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

fn check(transcript: &Path) {
    let input = std::fs::read(transcript).expect("read transcript");
    let first_line = input.split(|&b| b == b'\n').next().unwrap_or_default();
    let first_line = String::from_utf8_lossy(first_line);
    let args = first_line
        .strip_prefix("# args:")
        .unwrap_or(DEFAULT_ARGS)
        .split_whitespace()
        .map(str::to_string)
        .collect::<Vec<_>>();
    let expected_path = transcript.with_extension("out");
    let expected =
        std::fs::read_to_string(&expected_path).unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
    let actual = run_binary(&args, &input);
    if std::env::var_os("PHANTOMGO_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).expect("bless");
        return;
    }
    let expected_lines: Vec<&str> = expected.split('\n').collect();
    let actual_lines: Vec<&str> = actual.split('\n').collect();
    for (number, (e, a)) in expected_lines.iter().zip(&actual_lines).enumerate() {
        assert!(
            line_matches(e, a),
            "{}: line {} differs\nexpected: {e:?}\nactual:   {a:?}\nfull output:\n{actual}",
            transcript.display(),
            number + 1
        );
    }
    assert_eq!(
        expected_lines.len(),
        actual_lines.len(),
        "{}: line count differs; full output:\n{actual}",
        transcript.display()
    );
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("gtp");
    let mut transcripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/gtp exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    transcripts.sort();
    assert!(transcripts.len() >= 5, "transcripts: {transcripts:?}");
    for transcript in &transcripts {
        check(transcript);
    }
}

#[test]
fn pattern_lines() {
    assert!(line_matches("= {vertex}", "= E5"));
    assert!(line_matches("=3 {vertex}", "=3 pass"));
    assert!(!line_matches("= {vertex}", "= I5"));
    assert!(!line_matches("= {vertex}", "= E5 x"));
    assert!(line_matches("= {any}", "= 0.1.0"));
}

#[test]
fn help_explains_every_option() {
    let help = run_binary(&["--help".to_string()], b"");
    for option in
        ["--config", "--threads", "--playouts", "--move-time", "--particles", "--seed", "--log-file", "--player"]
    {
        assert!(help.contains(option), "{option} missing from --help");
    }
}

#[test]
fn bad_config_is_refused_naming_the_key() {
    let dir = std::env::temp_dir().join(format!("phantomgo-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bad.toml");
    std::fs::write(&path, "[engine]\nthreds = 2\n").expect("write config");
    let output = Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .arg("--config")
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .expect("binary runs");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "nothing on stdout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("threds"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn log_file_gets_one_json_line_per_move() {
    let dir = std::env::temp_dir().join(format!("phantomgo-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("moves.jsonl");
    let args: Vec<String> = DEFAULT_ARGS
        .split_whitespace()
        .map(str::to_string)
        .chain(["--log-file".to_string(), path.to_string_lossy().into_owned()])
        .collect();
    let out = run_binary(&args, b"genmove b\nphantom-result ok\ngenmove w\nquit\n");
    assert_eq!(out.matches("\n\n").count(), 4, "{out}");
    let log = std::fs::read_to_string(&path).expect("log written");
    assert_eq!(log.lines().count(), 2, "{log}");
    for line in log.lines() {
        assert!(line.starts_with('{') && line.contains("\"simulations\""), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sends one command and waits for its reply; returns the reply and how long it took.
fn ask(stdin: &mut impl Write, stdout: &mut impl std::io::BufRead, line: &str) -> (String, std::time::Duration) {
    let started = std::time::Instant::now();
    writeln!(stdin, "{line}").expect("write");
    stdin.flush().expect("flush");
    let mut reply = String::new();
    loop {
        let mut part = String::new();
        let read = stdout.read_line(&mut part).expect("read");
        assert!(read > 0, "engine exited during '{line}'");
        if part == "\n" {
            break;
        }
        reply.push_str(&part);
    }
    (reply, started.elapsed())
}

#[test]
fn one_second_byo_yomi_replies_in_under_a_second() {
    // The default (MCTS) player with no fixed playouts: the clock alone limits the search.
    let mut child = Command::new(env!("CARGO_BIN_EXE_phantomgo"))
        .args(["--seed", "1", "--threads", "1"])
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    for line in ["boardsize 9", "time_settings 0 1 1", "phantom-rules illegal=retry"] {
        assert_eq!(ask(&mut stdin, &mut stdout, line).0, "=\n");
    }
    for _ in 0..2 {
        let (reply, took) = ask(&mut stdin, &mut stdout, "genmove b");
        assert!(reply.starts_with("= "), "{reply}");
        assert!(took < std::time::Duration::from_millis(1000), "genmove took {took:?}");
        ask(&mut stdin, &mut stdout, "phantom-result ok");
        ask(&mut stdin, &mut stdout, "phantom-opponent ok");
    }
    ask(&mut stdin, &mut stdout, "quit");
    assert!(child.wait().expect("exit").success());
}

/// Reproducibility (Stockfish's reprosearch): a fixed seed, a fixed playout count and one thread give the same
/// tries on every run of the MCTS player, through a whole phantom exchange (with the playouts' last good replies
/// too); another seed may differ.
#[test]
fn mcts_with_fixed_seed_playouts_and_one_thread_repeats_its_moves() {
    let input = b"boardsize 9\nclear_board\nphantom-rules illegal=retry\n\
        genmove b\nphantom-result ok\nphantom-opponent ok\n\
        genmove b\nphantom-result illegal\ngenmove b\nphantom-result ok\nphantom-opponent illegal\nphantom-opponent ok\n\
        genmove b\nphantom-result ok\nphantom-opponent ok\ngenmove b\nphantom-belief\n";
    let args = |seed: &str| -> Vec<String> {
        ["--player", "mcts", "--seed", seed, "--threads", "1", "--playouts", "400"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let first = run_binary(&args("7"), input);
    let second = run_binary(&args("7"), input);
    assert_eq!(first, second);
    let tries: Vec<&str> = first.lines().filter(|l| l.starts_with("= ") && l.len() <= 5).collect();
    assert!(tries.len() >= 5, "{first}");
    // The playouts' last good replies are learnt per thread from its own simulations: still the same tries.
    let with_replies = || {
        let mut args = args("7");
        args.extend(["--set", "search.last_good_reply=true"].iter().map(|s| s.to_string()));
        run_binary(&args, input)
    };
    assert_eq!(with_replies(), with_replies());
}
