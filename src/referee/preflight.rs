//! Before game one: each engine is started once and greeted through its seat (a GTP engine answers
//! `protocol_version`, `name` and `boardsize`; a dialect engine answers `name?`), so a misspelt command or a
//! broken setup stops the match with a clear error instead of a forfeit in every game.

use super::player::{EngineSpec, PlayerError, SeatKind};
use super::seat;
use crate::color::Color;
use std::time::Duration;

/// Starts `spec` as it would be for game `game` with `seed`, greets it (see [`seat::Seat::greet`]), then says
/// goodbye. Returns the engine's own name.
///
/// # Errors
/// A message naming the engine, its command, the step that failed and the tail of its stderr.
pub fn greet(spec: &EngineSpec, game: u64, seed: u64, size: usize, timeout: Duration) -> Result<String, String> {
    let spec = spec.for_game(game);
    let command = spec.command_for_seed(seed);
    let fail = |why: String, stderr: String| {
        let stderr = stderr.trim();
        let stderr = if stderr.is_empty() { String::new() } else { format!("; its stderr ends: {stderr}") };
        format!("engine '{}' (command: {command}) failed before game one: {why}{stderr}", spec.name)
    };
    if command.trim().is_empty() {
        return Err(fail("the command is empty".into(), String::new()));
    }
    let label = format!("{} (greeting)", spec.name);
    let mut engine = seat::start_labelled(&spec, seed, Color::Black, size, timeout, None, &label)
        .map_err(|e| fail(e.to_string(), String::new()))?;
    match engine.greet() {
        Ok(name) => {
            engine.finish();
            Ok(name)
        }
        Err(PlayerError::Refused { command, message }) => {
            let shown = if spec.kind == SeatKind::Ccgc { message } else { format!("? {}", message.trim()) };
            let why = format!("it answered '{command}' with '{}'", shown.trim());
            Err(fail(why, engine.kill_and_stderr_tail()))
        }
        Err(e) => Err(fail(e.to_string(), engine.kill_and_stderr_tail())),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn spec(command: &str) -> EngineSpec {
        EngineSpec::parse(command, Some("x"))
    }

    #[test]
    fn a_gtp_engine_is_greeted_and_broken_ones_are_named() {
        let echo = "while read -r c _; do case $c in name) printf '= echo\\n\\n';; boardsize) printf '? no\\n\\n';; \
                    *) printf '= 2\\n\\n';; esac; done";
        let error = greet(&spec(echo), 0, 1, 9, Duration::from_secs(5)).unwrap_err();
        assert!(error.contains("'boardsize 9'") && error.contains("? no"), "{error}");
        let fine = echo.replace("boardsize) printf '? no\\n\\n';;", "");
        assert_eq!(greet(&spec(&fine), 0, 1, 9, Duration::from_secs(5)), Ok("echo".to_string()));
        let error = greet(&spec("false"), 0, 1, 9, Duration::from_secs(5)).unwrap_err();
        assert!(error.contains("engine 'x'") && error.contains("exited"), "{error}");
        let error = greet(&spec("view:"), 0, 1, 9, Duration::from_secs(5)).unwrap_err();
        assert!(error.contains("empty"), "{error}");
    }

    #[test]
    fn a_dialect_engine_is_greeted_with_name() {
        let dialect = "while read -r c; do case $c in 'name?') echo 'name dummy';; quit) exit 0;; esac; done";
        assert_eq!(greet(&spec(&format!("ccgc:{dialect}")), 0, 1, 9, Duration::from_secs(5)), Ok("dummy".into()));
        let mute = "while read -r c; do echo 'hello'; done";
        let error = greet(&spec(&format!("ccgc:{mute}")), 0, 1, 9, Duration::from_secs(5)).unwrap_err();
        assert!(error.contains("'name?'") && error.contains("hello"), "{error}");
    }
}
