//! Command line: parses arguments (clap) and dispatches to the GTP engine, the match runner or the benchmarks.

use clap::{Parser, Subcommand};
use phantomgo::referee::cli::{run_match, run_merge, MatchArgs, MergeArgs};

/// phantomgo: a Phantom Go engine, match runner and tools.
#[derive(Parser, Debug)]
#[command(name = "phantomgo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play engines against each other under Phantom Go rules (self-play demo with no engines named).
    Match(Box<MatchArgs>),
    /// Combine the JSON lines of several match shards into one table.
    MatchMerge(MergeArgs),
}

fn main() -> anyhow::Result<()> {
    env_logger::init();
    let cli = Cli::parse();
    match &cli.command {
        Command::Match(args) => run_match(args),
        Command::MatchMerge(args) => run_merge(args),
    }
}
