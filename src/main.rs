//! Command line: parses arguments (clap) and dispatches to the GTP engine, the match runner or the benchmarks.
//!
//! Each subcommand is one variant of [`Command`] with its own argument struct and one `run_*` function;
//! the engine options ([`EngineOptions`]) are global and may appear before or after the subcommand.

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use phantomgo::config::{EngineOptions, Settings};

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
    /// Move chooser: `mcts` (belief + MCTS), `random` (uniform legal-looking tries), `flat` (Golois-style
    /// one-ply Monte Carlo) or `pimc` (InTheDark-style determinized UCT); overrides engine.player.
    #[arg(long, value_name = "PLAYER", value_parser = ["mcts", "random", "flat", "pimc"])]
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
    match cli.command {
        None => run_gtp(&cli.engine, &cli.gtp),
        Some(Command::Gtp(args)) => {
            let args = GtpArgs { player: args.player.or(cli.gtp.player) };
            run_gtp(&cli.engine, &args)
        }
        Some(Command::Bench(kind)) => phantomgo::bench::run(&kind),
        Some(Command::Match(args)) => phantomgo::referee::cli::run_match(&args),
        Some(Command::MatchMerge(args)) => phantomgo::referee::cli::run_merge(&args),
    }
}
