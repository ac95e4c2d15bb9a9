//! Command line: parses arguments (clap) and dispatches to the GTP engine, the match runner or the benchmarks.
//!
//! Each subcommand is one variant of [`Command`] with its own argument struct and one `run_*` function;
//! the engine options ([`EngineOptions`]) are global and may appear before or after the subcommand.

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use phantomgo::config::{EngineOptions, Settings};
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
    /// Speak GTP (phantom extensions included) on stdin/stdout; the default.
    Gtp(GtpArgs),
    /// Speed benchmarks: `bench playouts`, `bench search`.
    #[command(subcommand)]
    Bench(phantomgo::bench::BenchKind),
    /// Referee a match between engines under Phantom Go rules (self-play demo with no engines named).
    Match(Box<phantomgo::referee::cli::MatchArgs>),
    /// Combine the JSON lines of several match shards into one table.
    MatchMerge(phantomgo::referee::cli::MergeArgs),
}

/// Options of `phantomgo gtp`.
#[derive(Args, Debug, Default, Clone)]
struct GtpArgs {
    /// Move chooser: `mcts` (belief + MCTS) or `random` (uniform legal-looking tries); overrides engine.player.
    #[arg(long, value_name = "PLAYER", value_parser = ["mcts", "random"])]
    player: Option<String>,
}

fn run_gtp(engine: &EngineOptions, args: &GtpArgs) -> Result<()> {
    let settings = Settings::resolve(engine, args.player.as_deref())?;
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
    if cli.gtp.player.is_some() && !matches!(cli.command, None | Some(Command::Gtp(_))) {
        anyhow::bail!("--player is an option of gtp only");
    }
    match cli.command {
        None => run_gtp(&cli.engine, &cli.gtp),
        Some(Command::Gtp(args)) => {
            let args = GtpArgs { player: args.player.or(cli.gtp.player) };
            run_gtp(&cli.engine, &args)
        }
        Some(Command::Bench(kind)) => {
            // `bench search` takes the global `--threads` as its extra measurement; nothing else is used.
            let unused = EngineOptions { threads: None, ..cli.engine.clone() };
            refuse_unused(&unused, "bench")?;
            phantomgo::bench::run(&kind, cli.engine.threads)
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
    }
}
