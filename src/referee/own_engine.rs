//! The runner's default engines (this binary's own, started as `phantomgo gtp`): which engine options reach
//! them, the threads they get when games run side by side, and the quick default for the untimed demo.

use super::player::{GAME_PLACEHOLDER, SEED_PLACEHOLDER};
use crate::config::{EngineOptions, FileConfig, Settings};
use anyhow::{bail, Context};

/// Seconds a try for the runner's own engines in an untimed match when nothing else sets their budget
/// (no `--time`, `--move-time`, `--playouts`, nor `engine.move_time`/`engine.playouts` in the config):
/// the bare `phantomgo match` is a demo of under a minute a game on 9x9.
pub const DEMO_MOVE_TIME: f64 = 0.1;

/// The command that starts this binary's own engine, and what it was given, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnEngine {
    /// Shell command with `{seed}` and `{game}` placeholders.
    pub command: String,
    /// The options it gets, for the match header (`--threads 2 --move-time 0.1`).
    pub options: String,
}

/// Quotes `text` for `sh`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The engine options given on the command line, by flag (`--seed` never reaches `match`: it is the match's).
pub fn given_options(options: &EngineOptions) -> Vec<&'static str> {
    let mut given = Vec::new();
    let flags: [(&str, bool); 10] = [
        ("--config", options.config.is_some()),
        ("--threads", options.threads.is_some()),
        ("--playouts", options.playouts.is_some()),
        ("--move-time", options.move_time.is_some()),
        ("--particles", options.particles.is_some()),
        ("--seed", options.seed.is_some()),
        ("--log-file", options.log_file.is_some()),
        ("--safety-margin-ms", options.safety_margin_ms.is_some()),
        ("--set", !options.set.is_empty()),
        ("--game-id", options.game_id.is_some()),
    ];
    for (flag, is_given) in flags {
        if is_given {
            given.push(flag);
        }
    }
    given
}

/// Threads each of the runner's own engines gets with `concurrency` games at once: the cores shared out
/// (at least one). The two engines of one game take turns, so a game keeps about one engine's threads busy.
pub fn thread_share(concurrency: usize) -> usize {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    (cores / concurrency.max(1)).max(1)
}

/// Builds the command of the runner's own engine from the global engine options: each one given is passed
/// on; `--threads` defaults to [`thread_share`] unless the config sets `engine.threads`; with no clock and
/// nothing setting a budget, `--move-time` [`DEMO_MOVE_TIME`].
///
/// # Errors
/// Options that do not resolve (a missing config file, a bad key or value), or no path to this program.
pub fn own_engine(options: &EngineOptions, concurrency: usize, timed: bool) -> anyhow::Result<OwnEngine> {
    Settings::resolve(options, None).context("the options for this binary's own engines")?;
    if options.game_id.is_some() {
        bail!("--game-id is set by the runner: its own engines get --game-id {GAME_PLACEHOLDER}");
    }
    let file = FileConfig::load_with(options.config.as_deref(), &options.set)?;
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    let mut passed: Vec<String> = Vec::new();
    let mut pass = |flag: &str, value: String| {
        passed.push(flag.to_string());
        passed.push(shell_quote(&value));
    };
    if let Some(path) = &options.config {
        pass("--config", path.to_string_lossy().into_owned());
    }
    for item in &options.set {
        pass("--set", item.clone());
    }
    match options.threads {
        Some(threads) => pass("--threads", threads.to_string()),
        None if file.engine.threads.is_some_and(|t| t > 0) => {}
        None => pass("--threads", thread_share(concurrency).to_string()),
    }
    if let Some(playouts) = options.playouts {
        pass("--playouts", playouts.to_string());
    }
    if let Some(seconds) = options.move_time {
        pass("--move-time", seconds.to_string());
    }
    let budget_set = options.move_time.is_some()
        || options.playouts.is_some()
        || file.engine.move_time.is_some_and(|t| t > 0.0)
        || file.engine.playouts.is_some_and(|p| p > 0);
    if !timed && !budget_set {
        pass("--move-time", DEMO_MOVE_TIME.to_string());
    }
    if let Some(particles) = options.particles {
        pass("--particles", particles.to_string());
    }
    if let Some(margin) = options.safety_margin_ms {
        pass("--safety-margin-ms", margin.to_string());
    }
    if let Some(path) = &options.log_file {
        pass("--log-file", path.to_string_lossy().into_owned());
    }
    let shown = passed.iter().map(|w| w.trim_matches('\'').to_string()).collect::<Vec<_>>().join(" ");
    let command = format!(
        "{} gtp --seed {SEED_PLACEHOLDER} --game-id {GAME_PLACEHOLDER} {}",
        shell_quote(&exe.to_string_lossy()),
        passed.join(" ")
    );
    Ok(OwnEngine { command: command.trim_end().to_string(), options: shown })
}

/// Refuses engine options when no engine of the match is this binary's own (they would reach nothing).
///
/// # Errors
/// Names the options given.
pub fn refuse_unused(options: &EngineOptions, what: &str) -> anyhow::Result<()> {
    let given = given_options(options);
    if !given.is_empty() {
        bail!("{} not used by {what}", describe(&given));
    }
    Ok(())
}

fn describe(given: &[&str]) -> String {
    match given {
        [one] => format!("{one} is"),
        many => format!("{} are", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn options_reach_the_command_and_the_demo_default_applies_only_untimed() {
        let options = EngineOptions {
            playouts: Some(10),
            threads: Some(1),
            set: vec!["search.info_gain=false".into()],
            ..EngineOptions::default()
        };
        let own = own_engine(&options, 1, false).unwrap();
        assert!(own.command.contains("--playouts '10'") && own.command.contains("--threads '1'"), "{own:?}");
        assert!(own.command.contains("--set 'search.info_gain=false'") && !own.command.contains("--move-time"));
        assert!(own.command.contains("--seed {seed} --game-id {game}"));
        let bare = own_engine(&EngineOptions::default(), 1, false).unwrap();
        assert!(bare.command.contains(&format!("--move-time '{DEMO_MOVE_TIME}'")), "{bare:?}");
        assert!(bare.options.contains("--threads"));
        let timed = own_engine(&EngineOptions::default(), 1, true).unwrap();
        assert!(!timed.command.contains("--move-time"), "{timed:?}");
        let many = own_engine(&EngineOptions::default(), 1_000_000, true).unwrap();
        assert!(many.command.contains("--threads '1'"), "{many:?}");
    }

    #[test]
    fn bad_options_are_refused_before_any_game() {
        let missing = EngineOptions { config: Some(PathBuf::from("/nonexistent.toml")), ..EngineOptions::default() };
        assert!(own_engine(&missing, 1, false).is_err());
        let bad = EngineOptions { particles: Some(0), ..EngineOptions::default() };
        assert!(own_engine(&bad, 1, false).is_err());
        let error = refuse_unused(&EngineOptions { playouts: Some(3), ..EngineOptions::default() }, "x").unwrap_err();
        assert_eq!(error.to_string(), "--playouts is not used by x");
        assert!(refuse_unused(&EngineOptions::default(), "x").is_ok());
    }
}
