//! The `match` and `match-merge` subcommands: their command-line arguments, the progress line, the output
//! files and the final table.

use super::clock::TimeControl;
use super::player::{EngineSpec, SeatKind, SEED_PLACEHOLDER};
use super::record::GameRecord;
use super::stats::{merge_records, parse_records, Summary};
use super::{run_match as play_match, scheduled_games, GameOutput, MatchConfig, Shard};
use crate::judge::{IllegalRule, Judge};
use crate::point::{MAX_SIZE, MIN_SIZE};
use crate::scoring::TieRule;
use anyhow::{bail, Context};
use std::fs::{self, File};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Name of this binary's own engine in tables when no command is given.
pub const OWN_ENGINE_NAME: &str = "phantomgo";

/// `phantomgo match`: play engines against each other under Phantom Go rules.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Engine A's command, Black in even games (default: this binary's own engine). `view:CMD` wraps a plain
    /// GTP engine, `ccgc:CMD` seats an engine speaking the Chinese championship dialect; `{seed}` in a
    /// command is replaced by the game's seed.
    #[arg(long, value_name = "CMD")]
    pub black: Option<String>,
    /// Engine B's command, White in even games (default: this binary's own engine).
    #[arg(long, value_name = "CMD")]
    pub white: Option<String>,
    /// Engine A's name in tables and records (default: its command).
    #[arg(long, value_name = "NAME")]
    pub black_name: Option<String>,
    /// Engine B's name in tables and records (default: its command).
    #[arg(long, value_name = "NAME")]
    pub white_name: Option<String>,
    /// Games in the whole match (all shards together).
    #[arg(long, default_value_t = 2)]
    pub games: u64,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f32,
    /// What an illegal try costs: retry or lose-turn.
    #[arg(long, default_value = "retry")]
    pub rules: IllegalRule,
    /// Who wins a level game when the runner scores the board: draw, or white (the Chinese championship's
    /// rule).
    #[arg(long, default_value = "draw", value_name = "white|draw")]
    pub tie_goes_to: TieRule,
    /// Clock per engine per game: MAIN seconds plus BYO seconds per move once MAIN is spent (`60`, `10+1`).
    #[arg(long, value_name = "MAIN[+BYO]")]
    pub time: Option<TimeControl>,
    /// Match seed; each game's seed is derived from it and the game index.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, each with its own engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write one SGF of the true game per game into this folder.
    #[arg(long, value_name = "DIR")]
    pub sgf: Option<PathBuf>,
    /// Write what each engine was told and answered (both protocols) into this folder, one file per game
    /// and colour.
    #[arg(long, value_name = "DIR")]
    pub transcript: Option<PathBuf>,
    /// Write one JSON line per game to this file.
    #[arg(long, value_name = "FILE.jsonl")]
    pub results: Option<PathBuf>,
    /// Play only the I-th of N slices of the match (games with index = I-1 mod N).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Illegal tries in one turn after which the turn counts as a pass.
    #[arg(long, default_value_t = Judge::DEFAULT_MAX_ILLEGAL_PER_TURN)]
    pub max_illegal: u32,
    /// Length cap in tries, illegal ones included (default 4 x size x size).
    #[arg(long)]
    pub max_tries: Option<usize>,
    /// Seconds allowed for any command but genmove before the engine counts as hung.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    pub timeout: f64,
    /// Seconds allowed for genmove in untimed games before the engine counts as hung.
    #[arg(long, default_value_t = 300.0, value_name = "SECS")]
    pub move_timeout: f64,
    /// Keep engine A as Black in every game (no colour alternation).
    #[arg(long)]
    pub fixed_colors: bool,
    /// No progress line.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `phantomgo match-merge`: combine the JSON lines of several shards into one table.
#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// JSON-lines files written by `phantomgo match --results`.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Also write the merged records, sorted by game, to this file.
    #[arg(long, value_name = "FILE.jsonl")]
    pub output: Option<PathBuf>,
}

/// Quotes `text` for `sh`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The command that runs this binary's own engine with the game's seed.
pub fn own_engine_command() -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    Ok(format!("{} gtp --seed {SEED_PLACEHOLDER}", shell_quote(&exe.to_string_lossy())))
}

fn seconds(value: f64, what: &str) -> anyhow::Result<Duration> {
    if !value.is_finite() || value <= 0.0 || value > 1.0e6 {
        bail!("--{what} must be a positive number of seconds");
    }
    Ok(Duration::from_secs_f64(value))
}

/// Checks the arguments and builds the match configuration.
///
/// # Errors
/// Bad sizes, counts or timeouts.
pub fn match_config(args: &MatchArgs) -> anyhow::Result<MatchConfig> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&args.size) {
        bail!("--size must be between {MIN_SIZE} and {MAX_SIZE}");
    }
    if !args.komi.is_finite() {
        bail!("--komi must be a number");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let spec = |command: &Option<String>, name: &Option<String>, fallback: &str| {
        anyhow::Ok(match command {
            Some(command) => EngineSpec::parse(command, name.as_deref()),
            None => EngineSpec {
                name: name.clone().unwrap_or_else(|| fallback.to_string()),
                command: own_engine_command()?,
                kind: SeatKind::PhantomGtp,
            },
        })
    };
    let mut a = spec(&args.black, &args.black_name, OWN_ENGINE_NAME)?;
    let mut b = spec(&args.white, &args.white_name, OWN_ENGINE_NAME)?;
    if a.name == b.name {
        a.name.push_str(" #1");
        b.name.push_str(" #2");
    }
    Ok(MatchConfig {
        engines: [a, b],
        games: args.games,
        size: args.size,
        komi: args.komi,
        rule: args.rules,
        tie: args.tie_goes_to,
        time: args.time,
        seed: args.seed,
        concurrency: args.concurrency,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        max_illegal_per_turn: args.max_illegal.max(1),
        max_tries: args.max_tries,
        command_timeout: seconds(args.timeout, "timeout")?,
        move_timeout: seconds(args.move_timeout, "move-timeout")?,
        swap_colors: !args.fixed_colors,
        transcript: args.transcript.clone(),
    })
}

fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// Runs `phantomgo match`: plays, writes the outputs as games finish, prints the table on stdout.
///
/// # Errors
/// Bad arguments, or output files that cannot be written.
pub fn run_match(args: &MatchArgs) -> anyhow::Result<()> {
    let config = match_config(args)?;
    let mut results = match &args.results {
        Some(path) => Some(File::create(path).with_context(|| format!("cannot write {}", path.display()))?),
        None => None,
    };
    if let Some(dir) = &args.sgf {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let total = scheduled_games(&config).len();
    let started = Instant::now();
    let is_terminal = std::io::stderr().is_terminal();
    let names = [config.engines[0].name.clone(), config.engines[1].name.clone()];
    let mut score = [0.0f64; 2];
    let mut write_error: Option<anyhow::Error> = None;
    if !args.quiet {
        eprintln!("[match] {total} games: A = {}  vs  B = {}", names[0], names[1]);
    }
    let mut on_game = |output: &GameOutput, done: usize, total: usize| {
        let record = &output.record;
        if let Some(file) = results.as_mut() {
            let line = serde_json::to_string(record).map_err(anyhow::Error::from);
            if let Err(e) = line.and_then(|l| Ok(writeln!(file, "{l}").and_then(|_| file.flush())?)) {
                write_error.get_or_insert(e);
            }
        }
        if let Some(dir) = &args.sgf {
            let path = dir.join(format!("game-{:05}.sgf", record.game));
            if let Err(e) = fs::write(&path, &output.sgf) {
                write_error.get_or_insert(anyhow::Error::from(e).context(format!("cannot write {}", path.display())));
            }
        }
        for (i, name) in names.iter().enumerate() {
            if record.winner_engine.as_deref() == Some(name.as_str()) {
                score[i] += 1.0;
            } else if record.winner_engine.is_none() {
                score[i] += 0.5;
            }
        }
        if args.quiet {
            return;
        }
        let elapsed = started.elapsed();
        let left = elapsed.mul_f64((total - done) as f64 / done.max(1) as f64);
        let line = format!(
            "[match] {done}/{total} games  A {} - B {}  last: game {} {} ({})  elapsed {}  left ~{}",
            score[0],
            score[1],
            record.game,
            record.result,
            record.reason.name(),
            format_duration(elapsed),
            format_duration(left)
        );
        if is_terminal {
            eprint!("\r\x1b[2K{line}");
            if done == total {
                eprintln!();
            }
        } else {
            eprintln!("{line}");
        }
    };
    let records = play_match(&config, &mut on_game);
    if let Some(e) = write_error {
        return Err(e);
    }
    print!("{}", Summary::of(&records).table());
    Ok(())
}

/// Runs `phantomgo match-merge`: reads the shards' JSON lines and prints the same table as `match`.
///
/// # Errors
/// Unreadable files or lines that are not game records.
pub fn run_merge(args: &MergeArgs) -> anyhow::Result<()> {
    let mut records: Vec<GameRecord> = Vec::new();
    for path in &args.files {
        let text = fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        records.extend(parse_records(&text).with_context(|| format!("in {}", path.display()))?);
    }
    let (records, duplicates) = merge_records(records);
    if !duplicates.is_empty() {
        eprintln!(
            "[match-merge] warning: {} game(s) appear more than once (kept the first): {:?}",
            duplicates.len(),
            duplicates
        );
    }
    if let Some(path) = &args.output {
        let mut file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        for record in &records {
            writeln!(file, "{}", serde_json::to_string(record)?)?;
        }
    }
    print!("{}", Summary::of(&records).table());
    Ok(())
}
