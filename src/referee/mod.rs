//! The match runner: holds the true game (the judge), drives two engine processes through each game, and
//! plays a match of many games (colours alternated, seeds derived, several at once), producing records.
//!
//! Faults: a crash, a hang, an answer that is not GTP or not a move, or a refused setup command ends the
//! game as a loss for the faulty engine (result `B+F`/`W+F`, reason `crash`/`hang`/`protocol`, with the
//! tail of its stderr); a reply over the clock loses on time (`B+T`/`W+T`). Each game starts fresh
//! processes, so the match goes on after any fault.

pub mod belief;
pub mod ccgc_seat;
pub mod cli;
pub mod clock;
pub mod compare;
pub mod faults;
pub mod full_seat;
pub mod gtp_link;
pub mod own_engine;
pub mod player;
pub mod preflight;
pub mod process;
pub mod record;
pub mod seat;
pub mod sgf;
pub mod stats;
pub mod view;
pub mod view_seat;

use crate::color::{ByColor, Color};
use crate::game::{GameEnd, Repetition, Rules};
use crate::judge::{IllegalRule, Judge, TryOutcome};
use crate::point::Move;
use crate::scoring::TieRule;
use clock::{Clock, TimeControl};
use player::{Answer, EngineSpec, GameSetup, PlayerError};
use process::ProcessError;
use record::{BrierScore, EndReason, Fault, GameRecord, PerColor, TimeStats};
use seat::Seat;
use sgf::{SgfGame, SgfNode};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Which slice of a match this run plays: games whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based slice number.
    pub index: u64,
    /// Number of slices.
    pub count: u64,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// True when game `game` belongs to this slice.
    pub fn contains(self, game: u64) -> bool {
        game % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    /// Parses `I/N` with 1 <= I <= N.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("'{text}' is not a shard I/N with 1 <= I <= N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if i == 0 || n == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard { index: i - 1, count: n })
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine A (Black in even games) and engine B.
    pub engines: [EngineSpec; 2],
    /// Games in the whole match (all shards together).
    pub games: u64,
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f32,
    /// Illegal-try rule.
    pub rule: IllegalRule,
    /// Who wins a level game when the runner scores the true board (`--tie-goes-to`).
    pub tie: TieRule,
    /// Clock, if the games are timed.
    pub time: Option<TimeControl>,
    /// Match seed; each game's seed is derived from it and the game index.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The slice of the match this run plays.
    pub shard: Shard,
    /// Illegal tries in one turn after which the turn counts as a pass.
    pub max_illegal_per_turn: u32,
    /// Length cap in tries (`None`: 4 x size x size).
    pub max_tries: Option<usize>,
    /// Timeout for every command but genmove.
    pub command_timeout: Duration,
    /// Timeout for genmove in untimed games.
    pub move_timeout: Duration,
    /// Alternate colours between games (engine A is Black in even games).
    pub swap_colors: bool,
    /// Write what each engine was told and answered, per game and colour, into this directory.
    pub transcript: Option<PathBuf>,
    /// What a move that recreates an earlier whole-board position does.
    pub repetition: Repetition,
    /// Stop the match once one engine has faulted in this many games in a row (0: never stop).
    pub max_consecutive_faults: u32,
}

/// A finished game: its record and its SGF.
#[derive(Clone, Debug)]
pub struct GameOutput {
    /// The record (one JSON line).
    pub record: GameRecord,
    /// The true game as SGF.
    pub sgf: String,
}

/// SplitMix64 finaliser: a well-mixed 64-bit value from any input.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Game seeds keep 48 bits: exact in JSON numbers and in any engine's 64-bit integer.
pub const SEED_MASK: u64 = (1 << 48) - 1;

/// The seed of game `game` of a match with seed `seed` (the same whichever shard plays it).
pub fn game_seed(seed: u64, game: u64) -> u64 {
    mix(mix(seed) ^ game) & SEED_MASK
}

/// Why a game stopped early.
struct Stop {
    color: Color,
    reason: EndReason,
    detail: String,
}

impl Stop {
    fn from_error(color: Color, error: &PlayerError) -> Stop {
        Stop { color, reason: error.reason(), detail: error.to_string() }
    }
}

/// One game being played.
struct GameRun<'a> {
    config: &'a MatchConfig,
    specs: ByColor<&'a EngineSpec>,
    game: u64,
    seed: u64,
    judge: Judge,
    players: ByColor<Option<Box<dyn Seat>>>,
    clocks: ByColor<Option<Clock>>,
    times: ByColor<TimeStats>,
    illegal: ByColor<u32>,
    forced_passes: ByColor<u32>,
    brier: ByColor<Option<BrierScore>>,
    ledger: belief::TryLedger,
    moves: u32,
    nodes: Vec<SgfNode>,
    pending_comment: ByColor<Vec<String>>,
    repeated_position: bool,
}

impl GameRun<'_> {
    fn player(&mut self, color: Color) -> &mut dyn Seat {
        self.players[color].as_deref_mut().expect("players are started before the game loop")
    }

    /// The transcript file of `color`'s engine in this game, when transcripts are asked for.
    fn transcript(&self, color: Color) -> Option<Box<dyn std::io::Write + Send>> {
        let dir = self.config.transcript.as_ref()?;
        let path = dir.join(format!("game-{:06}-{color}.txt", self.game));
        let opened = std::fs::create_dir_all(dir).and_then(|()| std::fs::File::create(&path));
        match opened {
            Ok(file) => Some(Box::new(std::io::BufWriter::new(file))),
            Err(e) => {
                log::warn!("transcript {}: {e}", path.display());
                None
            }
        }
    }

    fn start(&mut self) -> Result<(), Stop> {
        let setup = GameSetup {
            size: self.config.size,
            komi: self.config.komi,
            rule: self.config.rule,
            time_settings: self.config.time.map(|t| t.time_settings_command()),
            repetition: self.config.repetition,
            max_tries: self.judge.game().rules().length_cap(),
        };
        for color in Color::BOTH {
            let transcript = self.transcript(color);
            let (size, timeout) = (self.config.size, self.config.command_timeout);
            let player = seat::start(self.specs[color], self.seed, color, size, timeout, transcript)
                .map_err(|e| Stop::from_error(color, &e))?;
            self.players[color] = Some(player);
            self.player(color).setup(&setup).map_err(|e| Stop::from_error(color, &e))?;
        }
        Ok(())
    }

    fn play(&mut self) -> Result<Option<(EndReason, Color)>, Stop> {
        let size = self.config.size;
        while !self.judge.game().is_over() {
            let color = self.judge.to_move();
            let fail = |e: PlayerError| Stop::from_error(color, &e);
            let clock = self.clocks[color];
            if let Some(clock) = clock {
                self.player(color).time_left(&clock).map_err(fail)?;
            }
            let limit = clock.map_or(self.config.move_timeout, |c| c.allowance());
            let (answer, elapsed) = match self.player(color).genmove(limit) {
                Ok(reply) => reply,
                Err(PlayerError::Process(ProcessError::Timeout { waited, .. })) if clock.is_some() => {
                    return Err(Stop {
                        color,
                        reason: EndReason::Time,
                        detail: format!("no genmove reply within the {:.3} s left on its clock", waited.as_secs_f64()),
                    })
                }
                Err(e) => return Err(fail(e)),
            };
            self.times[color].add(elapsed.as_secs_f64());
            if let Some(clock) = self.clocks[color].as_mut() {
                if !clock.charge(elapsed) {
                    return Err(Stop {
                        color,
                        reason: EndReason::Time,
                        detail: format!(
                            "genmove took {:.3} s, {:.3} s were allowed",
                            elapsed.as_secs_f64(),
                            limit.as_secs_f64()
                        ),
                    });
                }
            }
            let mv = match answer {
                Answer::Resign => {
                    self.pending_comment[color].push(format!("{color} resigns"));
                    self.push_node(color, None);
                    return Ok(Some((EndReason::Resign, color.opponent())));
                }
                Answer::Move(mv) => mv,
            };
            let hit_stone = belief::TryLedger::hits_stone(self.judge.game().board(), color, mv);
            let ruling = self.judge.submit(color, mv).map_err(|e| Stop {
                color,
                reason: EndReason::Protocol,
                detail: format!("try {} refused by the judge: {e}", mv.to_vertex(size)),
            })?;
            let mut told = Vec::new();
            for listener in [color, color.opponent()] {
                for observation in self.player(listener).announcements(&ruling, listener) {
                    let text = self.player(listener).tell(&observation).map_err(|e| Stop::from_error(listener, &e))?;
                    if !text.is_empty() {
                        told.push(format!("{listener}: {text}"));
                    }
                }
            }
            let turn_over = ruling.next_to_move != color || ruling.game_over.is_some();
            self.ledger.refresh(self.judge.game().board());
            match ruling.outcome {
                TryOutcome::Illegal => {
                    self.illegal[color] += 1;
                    if let Some(point) = mv.point() {
                        self.ledger.illegal(color, point, hit_stone);
                    }
                    let what = format!("{color} tried {}: illegal; told {}", mv.to_vertex(size), told.join(", "));
                    self.pending_comment[color].push(what);
                    if ruling.forced_pass {
                        self.forced_passes[color] += 1;
                        self.pending_comment[color]
                            .push(format!("{color}: too many illegal tries, the turn is a pass"));
                    } else if turn_over {
                        self.pending_comment[color].push(format!("{color} loses the turn"));
                    }
                    if turn_over {
                        self.push_node(color, Some(Move::Pass));
                    }
                }
                TryOutcome::Ok { .. } | TryOutcome::Pass => {
                    self.moves += 1;
                    self.pending_comment[color].push(format!("told {}", told.join(", ")));
                    self.push_node(color, Some(mv));
                }
            }
            if turn_over {
                self.ledger.end_turn(color);
                self.score_belief(color).map_err(fail)?;
            }
            if self.config.repetition == Repetition::Draw
                && matches!(ruling.outcome, TryOutcome::Ok { .. })
                && self.judge.game().last_move_repeated_position()
            {
                self.repeated_position = true;
                return Ok(None);
            }
        }
        Ok(None)
    }

    fn push_node(&mut self, color: Color, mv: Option<Move>) {
        let comment = std::mem::take(&mut self.pending_comment[color]).join("\n");
        self.nodes.push(SgfNode { color, mv, comment });
    }

    fn score_belief(&mut self, color: Color) -> Result<(), PlayerError> {
        let Some(probabilities) = self.player(color).belief()? else {
            return Ok(());
        };
        let board = self.judge.game().board();
        let engine = belief::brier(board, color, &probabilities);
        let fair = belief::brier(board, color, &belief::fair_baseline(board, color, self.ledger.found(color)));
        let uniform = belief::brier(board, color, &belief::uniform_baseline(board, color));
        let score = self.brier[color].get_or_insert_with(BrierScore::default);
        let n = f64::from(score.samples);
        score.engine = (score.engine * n + engine) / (n + 1.0);
        score.brier_fair = (score.brier_fair * n + fair) / (n + 1.0);
        score.brier_uniform = (score.brier_uniform * n + uniform) / (n + 1.0);
        score.samples += 1;
        belief::calibrate(board, color, &probabilities, &mut score.calibration);
        Ok(())
    }
}

/// Plays game `game` of the match and returns its record and SGF. Never panics on engine behaviour.
///
/// # Panics
/// When `config.size` is not a supported board size (the command line checks it first).
pub fn play_game(config: &MatchConfig, game: u64) -> GameOutput {
    let started = Instant::now();
    let seed = game_seed(config.seed, game);
    let engines = config.engines.clone().map(|spec| spec.for_game(game));
    let [a, b] = &engines;
    let specs = if config.swap_colors && game % 2 == 1 { ByColor::new(b, a) } else { ByColor::new(a, b) };
    let rules =
        Rules { size: config.size, komi: config.komi, ko: config.repetition.ko_rule(), max_tries: config.max_tries };
    let judge = Judge::new(rules, config.rule)
        .expect("board size checked when the match was configured")
        .with_max_illegal_per_turn(config.max_illegal_per_turn);
    let clock = config.time.map(Clock::new);
    let mut run = GameRun {
        config,
        specs,
        game,
        seed,
        judge,
        players: ByColor::new(None, None),
        clocks: ByColor::new(clock, clock),
        times: ByColor::default(),
        illegal: ByColor::default(),
        forced_passes: ByColor::default(),
        brier: ByColor::new(None, None),
        ledger: belief::TryLedger::default(),
        moves: 0,
        nodes: Vec::new(),
        pending_comment: ByColor::default(),
        repeated_position: false,
    };
    let outcome = run.start().and_then(|()| run.play());
    let mut fault = None;
    let (reason, winner, result, score, final_comment) = match outcome {
        Ok(Some((reason, winner))) => {
            let result = format!("{}+R", winner.letter());
            (reason, Some(winner), result, None, format!("{} resigned", winner.opponent()))
        }
        Ok(None) if run.repeated_position => {
            let comment = "repetition: a move recreated an earlier position, a draw".to_string();
            (EndReason::Repetition, None, "0".to_string(), None, comment)
        }
        Ok(None) => {
            let end = run.judge.game().end();
            let reason = match end {
                Some(GameEnd::LengthCap) => EndReason::LengthCap,
                _ => EndReason::TwoPasses,
            };
            let result = run.judge.game().result();
            let text = result.to_string_under(config.tie);
            (
                reason,
                result.winner_under(config.tie),
                text.clone(),
                Some(result.margin),
                format!("{}: area score of the true board {text}{}", reason.name(), tie_note(config.tie)),
            )
        }
        Err(stop) => {
            let winner = stop.color.opponent();
            let letter = if stop.reason == EndReason::Time { 'T' } else { 'F' };
            let stderr_tail =
                run.players[stop.color].as_mut().map(|seat| seat.kill_and_stderr_tail()).unwrap_or_default();
            let comment = format!("{} {}: {}", stop.color, stop.reason.name(), stop.detail);
            fault = Some(Fault {
                color: stop.color,
                engine: specs[stop.color].name.clone(),
                kind: stop.reason,
                detail: stop.detail,
                stderr_tail,
            });
            (stop.reason, Some(winner), format!("{}+{letter}", winner.letter()), None, comment)
        }
    };
    // Any illegal tries left without a closing move (the game stopped mid-turn) go on a last node.
    for color in Color::BOTH {
        if !run.pending_comment[color].is_empty() {
            run.push_node(color, None);
        }
    }
    let mut warnings = Vec::new();
    let faulty = fault.as_ref().map(|f| f.color);
    for color in Color::BOTH {
        if let Some(player) = run.players[color].take() {
            warnings.extend(player.warnings().iter().cloned());
            if faulty == Some(color) {
                drop(player); // killed, with its children
            } else {
                player.finish();
            }
        }
    }
    let sgf = SgfGame {
        size: config.size,
        komi: config.komi,
        rule: config.rule,
        black: specs[Color::Black].name.clone(),
        white: specs[Color::White].name.clone(),
        result: result.clone(),
        game,
        seed,
        nodes: run.nodes,
        final_comment,
    }
    .to_sgf();
    let invaders = crate::scoring::invaders(run.judge.game().board());
    let record = GameRecord {
        game,
        black: specs[Color::Black].name.clone(),
        white: specs[Color::White].name.clone(),
        seed,
        size: config.size,
        komi: config.komi,
        rules: config.rule.to_string(),
        tie_goes_to: config.tie.name().to_string(),
        result,
        winner: winner.map(|c| c.to_string()),
        winner_engine: winner.map(|c| specs[c].name.clone()),
        reason,
        score,
        moves: run.moves,
        illegal_tries: per_color(run.illegal),
        illegal_kinds: Some(PerColor { black: run.ledger.kinds(Color::Black), white: run.ledger.kinds(Color::White) }),
        forced_passes: per_color(run.forced_passes),
        invaders_black: Some(invaders[Color::Black]),
        invaders_white: Some(invaders[Color::White]),
        time: per_color(run.times),
        brier: per_color(run.brier),
        warnings,
        fault,
        duration_s: started.elapsed().as_secs_f64(),
    };
    GameOutput { record, sgf }
}

/// What the final comment adds about the tie rule: nothing for the default (a draw).
fn tie_note(tie: TieRule) -> &'static str {
    match tie {
        TieRule::Draw => "",
        TieRule::White => " (a tie goes to White)",
    }
}

fn per_color<T: Copy>(pair: ByColor<T>) -> PerColor<T> {
    PerColor { black: pair[Color::Black], white: pair[Color::White] }
}

/// The games this run plays: the shard's slice of `0..games`.
pub fn scheduled_games(config: &MatchConfig) -> Vec<u64> {
    (0..config.games).filter(|&g| config.shard.contains(g)).collect()
}

/// Plays the shard's games, `concurrency` at a time; calls `on_game` on the calling thread as each one
/// finishes (in finishing order) and returns all records sorted by game index.
pub fn run_match(config: &MatchConfig, on_game: impl FnMut(&GameOutput, usize, usize)) -> Vec<GameRecord> {
    play_match(config, on_game).records
}

/// What [`play_match`] played.
#[derive(Clone, Debug)]
pub struct MatchRun {
    /// The records of the games played, sorted by game index.
    pub records: Vec<GameRecord>,
    /// Why the match stopped before its last game (an engine faulting game after game), if it did.
    pub stopped: Option<String>,
}

/// Like [`run_match`], but stops scheduling games once an engine has faulted in
/// `config.max_consecutive_faults` games in a row (games already running finish), and says so.
pub fn play_match(config: &MatchConfig, mut on_game: impl FnMut(&GameOutput, usize, usize)) -> MatchRun {
    let games = scheduled_games(config);
    let total = games.len();
    // Observed by each worker as its game ends, before it takes another: no game starts after the stop.
    let streaks = parking_lot::Mutex::new((faults::FaultStreaks::new(config.max_consecutive_faults), None));
    let next = AtomicUsize::new(0);
    let workers = config.concurrency.clamp(1, total.max(1));
    let (sender, receiver) = mpsc::channel::<GameOutput>();
    let mut records = Vec::with_capacity(total);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, games, streaks) = (&next, &games, &streaks);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&game) = games.get(i) else { break };
                let output = play_game(config, game);
                {
                    let mut guard = streaks.lock();
                    let (streaks, stopped) = &mut *guard;
                    if stopped.is_none() {
                        *stopped = streaks.observe(&output.record);
                        if stopped.is_some() {
                            next.store(games.len(), Ordering::SeqCst);
                        }
                    }
                }
                if sender.send(output).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for output in receiver {
            records.push(output.record.clone());
            on_game(&output, records.len(), total);
        }
    });
    records.sort_by_key(|r| r.game);
    MatchRun { records, stopped: streaks.into_inner().1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games() {
        let shard: Shard = "2/3".parse().unwrap();
        assert_eq!(shard, Shard { index: 1, count: 3 });
        assert!(shard.contains(1) && shard.contains(4) && !shard.contains(3));
        for bad in ["0/3", "4/3", "x", "1/0", "1-2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn game_seeds_differ_and_repeat() {
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
        assert_ne!(game_seed(7, 3), game_seed(7, 4));
        assert_ne!(game_seed(7, 3), game_seed(8, 3));
    }
}
