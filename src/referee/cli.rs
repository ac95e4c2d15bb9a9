//! The `match` and `match-merge` subcommands: their command-line arguments, the progress line, the output
//! files and the final table.

use super::clock::TimeControl;
use super::faults::DEFAULT_MAX_CONSECUTIVE_FAULTS;
use super::own_engine::{own_engine, refuse_unused, OwnEngine};
use super::player::{EngineSpec, SeatKind};
use super::record::GameRecord;
use super::stats::{merge_records, parse_records, Summary};
use super::{play_match, preflight, scheduled_games, GameOutput, MatchConfig, Shard};
use crate::config::EngineOptions;
use crate::game::Repetition;
use crate::judge::{IllegalRule, Judge};
use crate::point::{MAX_SIZE, MIN_SIZE};
use crate::scoring::TieRule;
use anyhow::{bail, Context};
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Name of this binary's own engine in tables when no command is given.
pub const OWN_ENGINE_NAME: &str = "phantomgo";

/// `phantomgo match`: play engines against each other under Phantom Go rules.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Engine A's command, Black in even games (default: this binary's own engine, given the engine options
    /// of this command line). `view:CMD` wraps a plain GTP engine, `ccgc:CMD` seats an engine speaking the
    /// Chinese championship dialect; `{seed}` in a command is replaced by the game's seed, `{game}` by its index.
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
    /// Games in the whole match (all shards together; at least 1).
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
    /// What a move recreating an earlier whole-board position does: draw (the game ends, drawn), superko
    /// (it is illegal) or allowed (only simple ko).
    #[arg(long, default_value = "allowed", value_name = "RULE")]
    pub repetition: Repetition,
    /// Clock per engine per game: MAIN seconds plus BYO seconds per move once MAIN is spent (`60`, `10+1`).
    /// Untimed by default: this binary's own engines then think 0.1 s a try unless --move-time, --playouts
    /// or the config say otherwise; engines given as commands keep their own settings.
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
    /// Write one JSON line per game to this file (an existing file is refused without --force or --append).
    #[arg(long, value_name = "FILE.jsonl")]
    pub results: Option<PathBuf>,
    /// Overwrite an existing --results file.
    #[arg(long, conflicts_with = "append")]
    pub force: bool,
    /// Add to an existing --results file.
    #[arg(long)]
    pub append: bool,
    /// Play only the I-th of N slices of the match (games with index = I-1 mod N).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Illegal tries in one turn after which the turn counts as a pass.
    #[arg(long, default_value_t = Judge::DEFAULT_MAX_ILLEGAL_PER_TURN)]
    pub max_illegal: u32,
    /// Length cap in tries, illegal ones included (default 4 x size x size; at least 1).
    #[arg(long)]
    pub max_tries: Option<usize>,
    /// Stop the match once one engine has faulted (crash, hang, protocol) in this many games in a row;
    /// 0 = never stop.
    #[arg(long, default_value_t = DEFAULT_MAX_CONSECUTIVE_FAULTS, value_name = "N")]
    pub max_faults: u32,
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

/// `phantomgo match-compare`: two matches on the same games (same `--seed`), compared game by game.
#[derive(clap::Args, Debug, Clone)]
pub struct CompareArgs {
    /// Results of the match with the change (`match --results` files; shards of one match may be listed together).
    #[arg(long = "new", required = true, num_args = 1.., value_name = "FILES")]
    pub new: Vec<PathBuf>,
    /// Results of the match without it, played with the same `--seed`.
    #[arg(long = "old", required = true, num_args = 1.., value_name = "FILES")]
    pub old: Vec<PathBuf>,
    /// The engine compared in the new records (default: side A, Black in game 0).
    #[arg(long, value_name = "NAME")]
    pub new_engine: Option<String>,
    /// The engine compared in the old records (default: side A, Black in game 0).
    #[arg(long, value_name = "NAME")]
    pub old_engine: Option<String>,
}

fn seconds(value: f64, what: &str) -> anyhow::Result<Duration> {
    if !value.is_finite() || value <= 0.0 || value > 1.0e6 {
        bail!("--{what} must be a positive number of seconds");
    }
    Ok(Duration::from_secs_f64(value))
}

/// Checks the arguments and builds the match configuration; `engine` are the global engine options, which
/// reach this binary's own engines (the default for `--black`/`--white`) and are refused when there is none.
///
/// # Errors
/// Bad sizes, counts, timeouts or engine options.
pub fn match_config(args: &MatchArgs, engine: &EngineOptions) -> anyhow::Result<MatchConfig> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&args.size) {
        bail!("--size must be between {MIN_SIZE} and {MAX_SIZE}");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.max_tries == Some(0) {
        bail!("--max-tries must be at least 1 (leave it out for the default cap, 4 x size x size)");
    }
    if !args.komi.is_finite() {
        bail!("--komi must be a number");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let own = own_engine_for(args, engine)?;
    let spec = |command: &Option<String>, name: &Option<String>, fallback: &str| {
        anyhow::Ok(match (command, &own) {
            (Some(command), _) => {
                let spec = EngineSpec::parse(command, name.as_deref());
                if spec.command.is_empty() {
                    bail!("engine command '{command}' has nothing to run");
                }
                spec
            }
            (None, Some(own)) => EngineSpec {
                name: name.clone().unwrap_or_else(|| fallback.to_string()),
                command: own.command.clone(),
                kind: SeatKind::PhantomGtp,
            },
            (None, None) => bail!("no engine command and no own engine"),
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
        repetition: args.repetition,
        max_consecutive_faults: args.max_faults,
    })
}

/// This binary's own engine when `--black` or `--white` is left out; otherwise `None`, and engine options
/// (which would reach nothing) are refused.
fn own_engine_for(args: &MatchArgs, engine: &EngineOptions) -> anyhow::Result<Option<OwnEngine>> {
    if args.black.is_some() && args.white.is_some() {
        refuse_unused(engine, "match when both --black and --white are given (put them in the engine commands)")?;
        return Ok(None);
    }
    Ok(Some(own_engine(engine, args.concurrency, args.time.is_some())?))
}

/// The time control line of the match header.
fn time_header(args: &MatchArgs, own: Option<&OwnEngine>) -> String {
    let clock = match args.time {
        Some(time) => format!("clock {time} s per engine per game (--time)"),
        None => "no clock".to_string(),
    };
    let own = own.map_or(String::new(), |own| format!("; this binary's engines: {}", own.options));
    let given = if args.black.is_some() || args.white.is_some() {
        "; engines given as commands use their own settings"
    } else {
        ""
    };
    format!("[match] time: {clock}{own}{given}")
}

fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// How a match ended, for the exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOutcome {
    /// Games that ended by an engine's fault (crash, hang, protocol).
    pub faults: usize,
    /// Why the match stopped before its last game, if it did.
    pub stopped: Option<String>,
}

impl MatchOutcome {
    /// True when every scheduled game was played and none ended by a fault.
    pub fn is_clean(&self) -> bool {
        self.faults == 0 && self.stopped.is_none()
    }
}

/// Opens the `--results` file: a new file, or an existing one with `--force` (overwritten) or `--append`.
fn open_results(path: &Path, force: bool, append: bool) -> anyhow::Result<File> {
    if path.exists() && !force && !append {
        bail!("--results {} already exists: add --force to overwrite it or --append to add to it", path.display());
    }
    let mut options = OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options.open(path).with_context(|| format!("cannot write {}", path.display()))
}

/// Decimal places kept for fractional numbers in the JSON records.
const JSON_DECIMALS: i32 = 4;

/// `value` with every fractional number rounded to [`JSON_DECIMALS`] places (integers are left alone).
fn rounded(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            let scale = 10f64.powi(JSON_DECIMALS);
            let x = n.as_f64().map_or(0.0, |x| (x * scale).round() / scale);
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(rounded).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, rounded(v))).collect()),
        other => other,
    }
}

/// One record as a JSON line, fractional numbers rounded.
pub fn record_line(record: &GameRecord) -> anyhow::Result<String> {
    Ok(serde_json::to_string(&rounded(serde_json::to_value(record)?))?)
}

/// Starts and greets each engine once before game one (see [`preflight::greet`]).
fn greet_engines(config: &MatchConfig) -> anyhow::Result<()> {
    let Some(&first) = scheduled_games(config).first() else {
        return Ok(());
    };
    let seed = super::game_seed(config.seed, first);
    for spec in &config.engines {
        preflight::greet(spec, first, seed, config.size, config.command_timeout).map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

/// Runs `phantomgo match`: greets the engines, plays, writes the outputs as games finish, prints the table on
/// stdout and says whether games ended by faults.
///
/// # Errors
/// Bad arguments, an engine that fails its greeting, or output files that cannot be written.
pub fn run_match(args: &MatchArgs, engine: &EngineOptions) -> anyhow::Result<MatchOutcome> {
    let config = match_config(args, engine)?;
    let own = own_engine_for(args, engine)?;
    let mut results = match &args.results {
        Some(path) => Some(open_results(path, args.force, args.append)?),
        None => None,
    };
    if let Some(dir) = &args.sgf {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let total = scheduled_games(&config).len();
    let names = [config.engines[0].name.clone(), config.engines[1].name.clone()];
    eprintln!("[match] {total} games: A = {}  vs  B = {}", names[0], names[1]);
    eprintln!("{}", time_header(args, own.as_ref()));
    greet_engines(&config)?;
    let started = Instant::now();
    let is_terminal = std::io::stderr().is_terminal();
    let mut score = [0.0f64; 2];
    let mut write_error: Option<anyhow::Error> = None;
    let mut on_game = |output: &GameOutput, done: usize, total: usize| {
        let record = &output.record;
        if let Some(file) = results.as_mut() {
            let line = record_line(record);
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
    let run = play_match(&config, &mut on_game);
    if let Some(e) = write_error {
        return Err(e);
    }
    print!("{}", Summary::of(&run.records).table());
    let faults = run.records.iter().filter(|r| r.reason.is_fault()).count();
    if let Some(why) = &run.stopped {
        eprintln!("[match] stopped after {} of {total} games: {why}", run.records.len());
    }
    if faults > 0 {
        eprintln!("[match] {faults} game(s) ended by an engine fault (see the errors row); exit status 3");
    }
    Ok(MatchOutcome { faults, stopped: run.stopped })
}

/// What identifies the match a record belongs to (two records of one game index must agree on it).
fn match_identity(record: &GameRecord) -> (u64, usize, String, String, String, String) {
    (
        record.seed,
        record.size,
        record.komi.to_string(),
        record.rules.clone(),
        record.black.clone(),
        record.white.clone(),
    )
}

/// The first two bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The game records of one `--results` file; a file with none (`/dev/null`) is an error, and so is a
/// compressed one (named as such, with the command that reads it).
fn read_results(path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.starts_with(&GZIP_MAGIC) {
        bail!(
            "{} is gzip-compressed (as the records under docs/ladder are kept); decompress it first, e.g. \
             `zcat {} > games.jsonl`",
            path.display(),
            path.display()
        );
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{} is not text (UTF-8): {}", path.display(), e.utf8_error()))?;
    let records = parse_records(&text).with_context(|| format!("in {}", path.display()))?;
    if records.is_empty() {
        bail!("{} holds no game records", path.display());
    }
    Ok(records)
}

/// Runs `phantomgo match-merge`: reads the shards' JSON lines and prints the same table as `match`.
///
/// # Errors
/// Unreadable files, lines that are not game records, a file with no record, or two different matches
/// sharing a game index.
pub fn run_merge(args: &MergeArgs) -> anyhow::Result<()> {
    let mut records: Vec<GameRecord> = Vec::new();
    let mut seen: std::collections::HashMap<u64, (&Path, GameRecord)> = std::collections::HashMap::new();
    for path in &args.files {
        let file_records = read_results(path)?;
        for record in &file_records {
            if let Some((first_path, first)) = seen.get(&record.game) {
                if match_identity(first) != match_identity(record) {
                    bail!(
                        "game {} in {} and in {} comes from two different matches (seed, size, komi, rules or \
                         engines differ); merge only shards of one match",
                        record.game,
                        first_path.display(),
                        path.display()
                    );
                }
            } else {
                seen.insert(record.game, (path.as_path(), record.clone()));
            }
        }
        records.extend(file_records);
    }
    let (records, duplicates) = merge_records(records);
    if !duplicates.is_empty() {
        eprintln!(
            "[match-merge] warning: {} game(s) appear more than once (the same game; kept the first): {:?}",
            duplicates.len(),
            duplicates
        );
    }
    if let Some(path) = &args.output {
        let mut file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        for record in &records {
            writeln!(file, "{}", record_line(record)?)?;
        }
    }
    print!("{}", Summary::of(&records).table());
    Ok(())
}

fn read_all(files: &[PathBuf]) -> anyhow::Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    for path in files {
        records.extend(read_results(path)?);
    }
    Ok(records)
}

/// Runs `phantomgo match-compare`: pairs the two matches' games by index and prints the paired table.
///
/// # Errors
/// Unreadable files, lines that are not game records, an empty file, or records that are not the same
/// games ([`super::compare::compare`]).
pub fn run_compare(args: &CompareArgs) -> anyhow::Result<()> {
    let new = read_all(&args.new)?;
    let old = read_all(&args.old)?;
    let comparison = super::compare::compare(&new, &old, args.new_engine.as_deref(), args.old_engine.as_deref())?;
    print!("{}", comparison.table());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_rounded_and_integers_kept() {
        let value = serde_json::json!({"a": 0.123456789, "b": [1.00004999, 7], "seed": 281474976710655u64});
        assert_eq!(rounded(value), serde_json::json!({"a": 0.1235, "b": [1.0, 7], "seed": 281474976710655u64}));
    }
}
