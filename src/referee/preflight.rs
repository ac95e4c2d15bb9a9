//! Before game one: each engine is started once and greeted (`protocol_version`, `name`, `boardsize`), so a
//! misspelt command or a broken setup stops the match with a clear error instead of a forfeit in every game.

use super::player::EngineSpec;
use super::process::EngineProcess;
use std::time::Duration;

/// Starts `spec` as it would be for game `game` with `seed`, sends `protocol_version`, `name` and
/// `boardsize size` (each must be answered `=`), then `quit`. Returns the engine's own name.
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
    let mut process = EngineProcess::spawn(&command).map_err(|e| fail(e.to_string(), String::new()))?;
    process.set_label(format!("{} (greeting)", spec.name));
    let mut name = String::new();
    for request in ["protocol_version".to_string(), "name".to_string(), format!("boardsize {size}")] {
        match process.request(&request, timeout) {
            Ok(reply) if reply.success => {
                if request == "name" {
                    name = reply.text.trim().to_string();
                }
            }
            Ok(reply) => {
                let why = format!("it answered '{request}' with '? {}'", reply.text.trim());
                return Err(fail(why, process.kill_and_stderr_tail()));
            }
            Err(e) => return Err(fail(e.to_string(), process.kill_and_stderr_tail())),
        }
    }
    process.quit();
    Ok(name)
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
}
