//! Command line: parses arguments (clap) and dispatches to the GTP engine, the championship dialect, the match
//! runner or the benchmarks.
//!
//! Each subcommand is one variant of [`Command`] with its own argument struct and one `run_*` function;
//! the engine options ([`EngineOptions`]) are global and may appear before or after the subcommand.

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use phantomgo::config::{EngineOptions, Protocol, Settings};
use phantomgo::referee::own_engine::refuse_unused;

/// Exit status of `phantomgo match` when games ended by an engine's fault or the match stopped early
/// (1 is any error before or outside the games).
const MATCH_FAULT_EXIT_CODE: i32 = 3;

/// A Phantom Go engine speaking GTP with phantom extensions.
///
/// With no subcommand, `phantomgo` is `phantomgo gtp`. Settings come from the built-in defaults, then the
/// `--config` file, then the options given here. Logs go to stderr (filter with RUST_LOG, default `info`);
/// stdout carries protocol replies only.
#[derive(Parser, Debug)]
#[command(name = "phantomgo", version, about, long_about)]
struct Cli {
    #[command(flatten)]
    engine: EngineOptions,
    /// Options of the default `gtp` subcommand when none is named.
    #[command(flatten)]
    gtp: GtpArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Speak GTP (phantom extensions included) on stdin/stdout; the default (unless `game.protocol` says ccgc).
    Gtp(GtpArgs),
    /// Speak the Chinese championship platform's dialect on stdin/stdout (see docs/ccgc.md).
    Ccgc(CcgcArgs),
    /// Speed benchmarks: `bench playouts`, `bench search`.
    #[command(subcommand)]
    Bench(phantomgo::bench::BenchKind),
    /// Referee a match between engines under Phantom Go rules (self-play demo with no engines named).
    Match(Box<phantomgo::referee::cli::MatchArgs>),
    /// Combine the JSON lines of several match shards into one table.
    MatchMerge(phantomgo::referee::cli::MergeArgs),
    /// Compare two matches played on the same games (same `--seed`) game by game: the sign test.
    MatchCompare(phantomgo::referee::cli::CompareArgs),
    /// Fit the belief's opponent model to recorded true games (SGFs from `match --sgf`), or score a model.
    FitModel(phantomgo::fit::FitArgs),
}

/// Options of `phantomgo gtp`.
#[derive(Args, Debug, Default, Clone)]
struct GtpArgs {
    /// Move chooser: `mcts` (belief + the main search, determinized UCT with RAVE), `ismcts` (belief + the
    /// earlier information-set MCTS), `random` (uniform legal-looking tries), `flat` (Golois-style one-ply
    /// Monte Carlo) or `pimc` (InTheDark-style determinized UCT); overrides engine.player.
    #[arg(long, value_name = "PLAYER", value_parser = ["mcts", "ismcts", "random", "flat", "pimc"])]
    player: Option<String>,
}

/// Options of `phantomgo ccgc` (over the `[game]` section of the config).
#[derive(Args, Debug, Default, Clone)]
struct CcgcArgs {
    /// Move chooser, as for `gtp`.
    #[arg(long, value_name = "PLAYER", value_parser = ["mcts", "ismcts", "random"])]
    player: Option<String>,
    /// The answer to `name?` (one word; default phantomgo).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The engine's whole-game time budget in seconds (the platform does not send its clock).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    main_time: Option<f64>,
    /// Komi (default 7.5).
    #[arg(long, value_name = "KOMI", allow_negative_numbers = true)]
    komi: Option<f64>,
    /// What an illegal try costs: `retry` (default) or `lose-turn`.
    #[arg(long, value_name = "RULE")]
    rules: Option<String>,
    /// Who wins a level game: `white` (default here) or `draw`.
    #[arg(long, value_name = "WHO")]
    tie_goes_to: Option<String>,
}

fn ccgc_settings(engine: &EngineOptions, args: &CcgcArgs) -> Result<Settings> {
    let mut settings = Settings::resolve(engine, args.player.as_deref())?;
    let game = &mut settings.game;
    if let Some(name) = &args.name {
        game.set_name(name).map_err(|m| anyhow::anyhow!("--name: {m}"))?;
    }
    if let Some(seconds) = args.main_time {
        game.set_main_time(seconds).map_err(|m| anyhow::anyhow!("--main-time: {m}"))?;
    }
    if let Some(komi) = args.komi {
        game.set_komi(komi).map_err(|m| anyhow::anyhow!("--komi: {m}"))?;
    }
    if let Some(rule) = &args.rules {
        game.rule = rule.parse().map_err(|m: String| anyhow::anyhow!("--rules: {m}"))?;
    }
    if let Some(tie) = &args.tie_goes_to {
        game.tie = Some(tie.parse().map_err(|m: String| anyhow::anyhow!("--tie-goes-to: {m}"))?);
    }
    Ok(settings.for_protocol(Protocol::Ccgc))
}

fn run_ccgc(settings: &Settings) -> Result<()> {
    log::info!(
        "phantomgo {} speaking the championship dialect as '{}': {:?}, {} thread(s), seed {}, main time {:?}, komi {}, rules {}",
        env!("CARGO_PKG_VERSION"),
        settings.game.name,
        settings.engine.player,
        settings.engine.threads,
        settings.engine.seed,
        settings.game.main_time,
        settings.game.komi,
        settings.game.rule,
    );
    if let Some(warning) = settings.time_manager().startup_warning() {
        log::warn!("{warning}");
    }
    match phantomgo::ccgc::serve(settings) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("championship dialect session failed"),
    }
}

fn run_gtp(engine: &EngineOptions, args: &GtpArgs) -> Result<()> {
    let settings = Settings::resolve(engine, args.player.as_deref())?.for_protocol(Protocol::Gtp);
    log::info!(
        "phantomgo {} ready: {:?}, {} thread(s), seed {}, playouts {:?}, move time {:?}",
        env!("CARGO_PKG_VERSION"),
        settings.engine.player,
        settings.engine.threads,
        settings.engine.seed,
        settings.engine.playouts,
        settings.engine.move_time
    );
    if let Some(warning) = settings.time_manager().startup_warning() {
        log::warn!("{warning}");
    }
    match phantomgo::gtp::serve(&settings) {
        // The controller went away: nothing is left to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("GTP session failed"),
    }
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .init();
    if cli.gtp.player.is_some() && !matches!(cli.command, None | Some(Command::Gtp(_) | Command::Ccgc(_))) {
        anyhow::bail!("--player is an option of gtp and ccgc only");
    }
    match cli.command {
        None => {
            let protocol = Settings::resolve(&cli.engine, cli.gtp.player.as_deref())?.game.protocol;
            match protocol {
                Protocol::Gtp => run_gtp(&cli.engine, &cli.gtp),
                Protocol::Ccgc => {
                    let args = CcgcArgs { player: cli.gtp.player.clone(), ..CcgcArgs::default() };
                    run_ccgc(&ccgc_settings(&cli.engine, &args)?)
                }
            }
        }
        Some(Command::Ccgc(args)) => {
            let args = CcgcArgs { player: args.player.clone().or(cli.gtp.player), ..args };
            run_ccgc(&ccgc_settings(&cli.engine, &args)?)
        }
        Some(Command::Gtp(args)) => {
            let args = GtpArgs { player: args.player.or(cli.gtp.player) };
            run_gtp(&cli.engine, &args)
        }
        Some(Command::Bench(kind)) => {
            // `bench search` takes the global `--threads` as its extra measurement and the search settings of
            // `--config` and `--set` (a knob's cost in speed); nothing else is used.
            let unused = EngineOptions { threads: None, config: None, set: Vec::new(), ..cli.engine.clone() };
            refuse_unused(&unused, "bench")?;
            let tuned = cli.engine.config.is_some() || !cli.engine.set.is_empty();
            let options = EngineOptions { threads: None, ..cli.engine.clone() };
            let search = Settings::resolve(&options, None)?.engine.search;
            phantomgo::bench::run(&kind, cli.engine.threads, tuned.then_some(&search))
        }
        Some(Command::Match(args)) => {
            // `--seed` here is the match's own (the engines get each game's seed), not an engine option.
            let engine = EngineOptions { seed: None, ..cli.engine.clone() };
            let outcome = phantomgo::referee::cli::run_match(&args, &engine)?;
            if !outcome.is_clean() {
                use std::io::Write as _;
                let _ = std::io::stdout().flush();
                // Documented in docs/match.md: games ended by faults, or the match stopped early.
                std::process::exit(MATCH_FAULT_EXIT_CODE);
            }
            Ok(())
        }
        Some(Command::MatchMerge(args)) => {
            refuse_unused(&cli.engine, "match-merge")?;
            phantomgo::referee::cli::run_merge(&args)
        }
        Some(Command::MatchCompare(args)) => {
            refuse_unused(&cli.engine, "match-compare")?;
            phantomgo::referee::cli::run_compare(&args)
        }
        Some(Command::FitModel(args)) => {
            refuse_unused(&cli.engine, "fit-model")?;
            phantomgo::fit::run(&args)
        }
    }
}
