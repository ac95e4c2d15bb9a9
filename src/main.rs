//! Command line: parses arguments (clap) and dispatches to the GTP engine, the match runner or the benchmarks.

use clap::{Parser, Subcommand};

/// phantomgo: a Phantom Go engine.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speed benchmarks.
    #[command(subcommand)]
    Bench(phantomgo::bench::BenchKind),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench(kind)) => phantomgo::bench::run(&kind),
        None => Ok(()),
    }
}
