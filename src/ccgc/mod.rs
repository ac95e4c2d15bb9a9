//! The Chinese Computer Games Championship platform dialect (`shared/ccgc.md`): a short line protocol on
//! stdin/stdout beside GTP, over the same protocol-neutral [`Session`](crate::session::Session).
//!
//! The loop reads raw lines (length-capped, any bytes; standard input is read ahead on its own thread and each
//! line stamped with its arrival, since the platform does not wait for our work on `accept` before it sends
//! `move go`), drops control characters, parses each into a [`line::Line`] and hands it to the
//! [`handler::Dialect`]; an answer, when the line asks for one, is one
//! line flushed at once. Nothing else goes to stdout; logs go to stderr. `quit` or end of input ends it.

pub mod handler;
pub mod line;

pub use handler::Dialect;
pub use line::{parse, Line, LineError};

use crate::config::Settings;
use crate::input::{Inline, LineSource, ReadAhead};
use crate::session::Session;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Drops control characters (a trailing `\r` included); tabs become spaces.
fn clean(raw: &[u8]) -> Vec<u8> {
    raw.iter()
        .filter_map(|&b| match b {
            b'\t' => Some(b' '),
            0..=31 | 127 => None,
            _ => Some(b),
        })
        .collect()
}

/// Parses one raw line for a board of `size`; `None` for a blank line.
pub fn read(raw: &crate::gtp::RawLine, size: usize) -> Option<Result<Line, LineError>> {
    let cleaned = clean(&raw.bytes);
    let Ok(text) = std::str::from_utf8(&cleaned) else {
        return Some(Err(LineError::Unreadable));
    };
    if text.trim().is_empty() {
        return None;
    }
    if raw.too_long {
        return Some(Err(LineError::Unreadable));
    }
    Some(parse(text, size))
}

/// Speaks the dialect from `input` to `output` until `quit` or end of input.
///
/// # Errors
/// Errors reading `input` or writing `output`.
pub fn run<R: BufRead, W: Write>(dialect: &mut Dialect, input: R, output: W) -> io::Result<()> {
    run_lines(dialect, Inline(input), output)
}

/// Speaks the dialect from any [`LineSource`] to `output` until `quit` or end of input; the clock of a try
/// starts when the line asking for it arrived, even if it waited while the engine finished an earlier update.
///
/// # Errors
/// Errors reading `input` or writing `output`.
pub fn run_lines<S: LineSource, W: Write>(dialect: &mut Dialect, mut input: S, mut output: W) -> io::Result<()> {
    loop {
        if !input.line_waiting() {
            dialect.idle();
        }
        let Some((raw, received)) = input.next_line()? else {
            break;
        };
        let size = dialect.session().engine().size();
        let Some(line) = read(&raw, size) else {
            continue;
        };
        log::debug!("< {}", String::from_utf8_lossy(&clean(&raw.bytes)));
        let quit = line == Ok(Line::Quit);
        let answer = catch_unwind(AssertUnwindSafe(|| dialect.handle(line, received))).unwrap_or_else(|_| {
            log::error!("internal error on this line; no answer");
            None
        });
        if let Some(answer) = answer {
            log::debug!("> {answer}");
            writeln!(output, "{answer}")?;
            output.flush()?;
        }
        if quit {
            break;
        }
    }
    Ok(())
}

/// Serves the dialect on stdin/stdout with an engine built from `settings`, appending JSON move lines to the
/// log file if one is set. A log file that cannot be opened is a warning on stderr naming the key; play goes on.
///
/// # Errors
/// stdin/stdout fail.
pub fn serve(settings: &Settings) -> io::Result<()> {
    let session = Session::open(settings);
    let mut dialect = Dialect::with_session(session, settings.game.clone());
    let stdout = io::stdout();
    run_lines(&mut dialect, ReadAhead::stdin()?, stdout.lock())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{GameSettings, Protocol};
    use crate::engine::{EngineConfig, PlayerKind};
    use proptest::prelude::*;

    fn dialect() -> Dialect {
        let settings = Settings {
            engine: EngineConfig { player: PlayerKind::Random, threads: 1, seed: 2, ..EngineConfig::default() },
            ..Settings::default()
        }
        .for_protocol(Protocol::Ccgc);
        Dialect::new(&settings)
    }

    /// The loop ponders while it waits for the platform, never while a line already waits to be answered.
    #[test]
    fn no_ponder_starts_while_a_line_waits() {
        for waiting in [false, true] {
            let settings = Settings {
                engine: EngineConfig {
                    threads: 1,
                    seed: 2,
                    playouts: Some(50),
                    particles: 32,
                    ponder_playouts: 200,
                    ..EngineConfig::default()
                },
                ..Settings::default()
            }
            .for_protocol(Protocol::Ccgc);
            let mut dialect = Dialect::new(&settings);
            // After `accept` (no `take` with it) the ponder takes our try as standing with no captures.
            let lines = ["new black", "accept"].into();
            run_lines(&mut dialect, crate::input::Scripted { lines, waiting }, Vec::new()).unwrap();
            assert_eq!(dialect.session().is_pondering(), !waiting, "line waiting: {waiting}");
        }
    }

    fn talk(dialect: &mut Dialect, input: &[u8]) -> String {
        let mut output = Vec::new();
        run(dialect, input, &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn answers_only_what_asks_and_quits() {
        let out = talk(&mut dialect(), b"name?\r\n\n  \nnew white\nmove go\nrefuse\naccept\nend\nquit\nname?\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[0], "name phantomgo");
        assert!(lines[1].starts_with("move ") && lines[2].starts_with("move "), "{out}");
        let named = Settings {
            game: GameSettings { name: "pg-ccgc".into(), ..GameSettings::default() },
            ..Settings::default()
        };
        assert_eq!(talk(&mut Dialect::new(&named), b"NAME?"), "name pg-ccgc\n");
    }

    #[test]
    fn unreadable_lines_are_skipped() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'a', 100_000));
        input.extend_from_slice(b"\nname?\n");
        assert_eq!(talk(&mut dialect(), &input), "name phantomgo\n");
    }

    /// Lines built from the dialect's words, so the fuzz reaches deep into the state machine.
    fn dialect_line() -> impl Strategy<Value = String> {
        let words = prop::sample::select(vec![
            "name?", "new", "black", "white", "accept", "refuse", "take", "taked", "move", "go", "pass", "end",
            "error", "0", "1", "2", "3", "AA", "EE", "II", "JJ", "ab", "DEDF", "A", "x", "\t", "\r", "-1",
        ]);
        prop::collection::vec(words, 0..5).prop_map(|w| w.join(" "))
    }

    fn check(lines: &[String]) -> Result<(), TestCaseError> {
        let mut d = dialect();
        let mut input = lines.join("\n").into_bytes();
        input.extend_from_slice(b"\nend\nnew black\n");
        let out = talk(&mut d, &input);
        let answers: Vec<&str> = out.lines().collect();
        for answer in &answers {
            prop_assert!(answer.starts_with("move ") || answer.starts_with("name "), "{}", answer);
        }
        prop_assert!(answers.len() <= lines.len() + 2);
        // Whatever came before, a new game as Black is answered with a try at once.
        prop_assert!(answers.last().is_some_and(|a| a.starts_with("move ")), "{}", out);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        #[test]
        fn parse_never_panics(text in ".{0,80}", size in 2usize..=11) {
            let _ = parse(&text, size);
        }

        #[test]
        fn dialect_word_lines_keep_the_engine_usable(lines in prop::collection::vec(dialect_line(), 0..40)) {
            let lines: Vec<String> = lines.into_iter().filter(|l| !l.to_ascii_lowercase().contains("quit")).collect();
            check(&lines)?;
        }

        #[test]
        fn random_bytes_keep_the_engine_usable(
            lines in prop::collection::vec(
                prop::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 0..30),
                0..15,
            )
        ) {
            let lines: Vec<String> = lines
                .into_iter()
                .map(|l| String::from_utf8_lossy(&l).into_owned())
                .filter(|l| !l.to_ascii_lowercase().contains("quit"))
                .collect();
            check(&lines)?;
        }
    }
}
