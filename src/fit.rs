//! `phantomgo fit-model`: fits the belief's opponent model (pool weights per phase) to the true games a match
//! recorded (`phantomgo match --sgf DIR`) by maximum likelihood, and scores models on held-out games.
//!
//! Every non-capturing stone of either side is one sample: the board before it, the mover, and for each pool
//! of [`crate::belief::opponent`] its size among the candidates and whether it holds the move. A model's
//! probability of the move is the sampler's: the sum over the pools holding it of weight / pool size, over the
//! sum of the weights of the pools that are not empty. Capturing moves are left out: the belief draws those
//! from what was announced, not from the model.

use crate::belief::opponent::{candidates, OpponentModel, Pool, PoolWeights, POOLS};
use crate::belief::pattern::PatternSample;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::Point;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of `phantomgo fit-model`.
#[derive(Args, Debug, Clone)]
pub struct FitArgs {
    /// Folders of true-game SGFs (from `phantomgo match --sgf`) to fit on (repeatable).
    #[arg(long, value_name = "DIR")]
    pub train: Vec<PathBuf>,
    /// Folders of SGFs to score the models on, never fitted on (repeatable).
    #[arg(long, value_name = "DIR")]
    pub eval: Vec<PathBuf>,
    /// The mover's stone counts at which phases start, comma-separated.
    #[arg(long, value_name = "N,N", default_value = "6,16", value_delimiter = ',')]
    pub phase_starts: Vec<u32>,
    /// Write the fitted model here (TOML, as configs/opponent_model.toml).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Score this model file instead of fitting one (with --eval).
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Gradient steps of the fit.
    #[arg(long, default_value_t = 3000)]
    pub steps: usize,
    /// Weight every player kind (gnugo, random, pimc, flat, engine) equally in the fit, whatever its number
    /// of moves, so that one model serves every opponent rather than the most recorded one.
    #[arg(long)]
    pub balance: bool,
    /// Fit only the moves of these player kinds (gnugo, random, pimc, flat, engine; repeatable): a model of
    /// one opponent from its recorded games. Held-out games are scored on every player's moves.
    #[arg(long = "player", value_name = "KIND")]
    pub players: Vec<String>,
    /// Fit the pattern model instead (`belief.pattern_model`): a strength per 3x3 neighbourhood and line,
    /// by minorization-maximization; --out writes it as a pattern file.
    #[arg(long)]
    pub patterns: bool,
    /// Minorization-maximization rounds of the pattern fit.
    #[arg(long, default_value_t = 100)]
    pub pattern_iterations: usize,
}

/// The player kinds a record's names are read as ([`kind_of`]).
const KINDS: [&str; 5] = ["gnugo", "random", "pimc", "flat", "engine"];

/// `samples` less the moves of player kinds not in `players` (all kept when it is empty).
///
/// # Errors
/// A kind that is not one of [`KINDS`].
fn keep_players(samples: Vec<Sample>, players: &[String]) -> Result<Vec<Sample>> {
    keep_kinds(samples, players, |s| &s.who)
}

/// `samples` less those whose player kind (`who`) is not in `players` (all kept when it is empty).
///
/// # Errors
/// A kind that is not one of [`KINDS`].
fn keep_kinds<T>(mut samples: Vec<T>, players: &[String], who: impl Fn(&T) -> &String) -> Result<Vec<T>> {
    if let Some(unknown) = players.iter().find(|p| !KINDS.contains(&p.as_str())) {
        bail!("--player {unknown}: not a player kind (one of {})", KINDS.join(", "));
    }
    if !players.is_empty() {
        samples.retain(|s| players.contains(who(s)));
    }
    Ok(samples)
}

/// The fit's options as they appear in a model file's header (` --balance --player pimc`).
fn fit_flags(args: &FitArgs) -> String {
    let balance = if args.balance { " --balance" } else { "" };
    let players: String = args.players.iter().map(|p| format!(" --player {p}")).collect();
    format!("{balance}{players}")
}

/// Weights that give each player kind the same total weight, one per sample of `kinds`.
fn balanced_weights<'a>(kinds: impl Iterator<Item = &'a str> + Clone) -> Vec<f64> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for kind in kinds.clone() {
        *counts.entry(kind).or_default() += 1;
    }
    let total: usize = counts.values().sum();
    let per_kind = total as f64 / counts.len().max(1) as f64;
    kinds.map(|kind| per_kind / counts[kind] as f64).collect()
}

/// Gives each player kind the same total weight.
fn balance(samples: &mut [Sample]) {
    let weights = balanced_weights(samples.iter().map(|s| s.who.as_str()));
    for (s, w) in samples.iter_mut().zip(weights) {
        s.weight = w;
    }
}

/// One recorded move as the model sees it.
#[derive(Clone, Debug)]
struct Sample {
    /// Which kind of player moved (from the SGF's player names).
    who: String,
    /// The mover's stones on the board before the move.
    own_stones: u32,
    /// Each pool's size among the candidates.
    sizes: [u16; POOLS],
    /// Bit k set when pool k holds the move.
    member: u16,
    /// The sample's weight in the fit (1, or balanced across player kinds).
    weight: f64,
}

/// A true game read from an SGF: size, players' names, and the moves (`None` = pass).
struct SgfRecord {
    size: usize,
    names: [String; 2],
    moves: Vec<(Color, Option<Point>)>,
}

/// The value of property `key` in `text` (the first one), unescaped.
fn property(text: &str, key: &str) -> Option<String> {
    let start = text.find(&format!("{key}["))? + key.len() + 1;
    let mut out = String::new();
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            ']' => return Some(out),
            _ => out.push(c),
        }
    }
    None
}

/// Reads the moves of a true-game SGF: `;B[xy]` and `;W[xy]` nodes (empty or `tt` = pass), comments skipped.
fn parse_sgf(text: &str) -> Option<SgfRecord> {
    let size: usize = property(text, "SZ")?.parse().ok()?;
    let names = [property(text, "PB").unwrap_or_default(), property(text, "PW").unwrap_or_default()];
    let mut moves = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut in_value = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_value {
            match c {
                b'\\' => i += 1,
                b']' => in_value = false,
                _ => {}
            }
        } else if c == b'[' {
            in_value = true;
        } else if c == b';'
            && i + 2 < bytes.len()
            && (bytes[i + 1] == b'B' || bytes[i + 1] == b'W')
            && bytes[i + 2] == b'['
        {
            let color = if bytes[i + 1] == b'B' { Color::Black } else { Color::White };
            let end = text[i + 3..].find(']')? + i + 3;
            let value = &text[i + 3..end];
            let point = match value.as_bytes() {
                [] | [b't', b't'] => None,
                [col, row] => {
                    let (col, row) = (col.wrapping_sub(b'a') as usize, row.wrapping_sub(b'a') as usize);
                    Some(Point::from_coords(col, size.checked_sub(1 + row)?, size)?)
                }
                _ => return None,
            };
            moves.push((color, point));
            i = end;
        }
        i += 1;
    }
    Some(SgfRecord { size, names, moves })
}

/// A player's kind from its name in the record: gnugo, random, pimc, flat or the engine.
fn kind_of(name: &str) -> String {
    let lower = name.to_lowercase();
    for kind in KINDS.into_iter().filter(|&k| k != "engine") {
        if lower.contains(kind) {
            return kind.to_string();
        }
    }
    "engine".to_string()
}

/// Replays a true game and hands each move to `read` (the board before it, the mover, the point and the
/// candidates there), keeping what it returns for the non-capturing moves with the mover's kind; `None` when
/// a move is illegal on the replayed board (not a true game).
fn replay_samples<T>(
    record: &SgfRecord,
    mut read: impl FnMut(&Board, Color, Point, Bitboard) -> Option<T>,
) -> Option<Vec<(String, T)>> {
    let mut board = Board::new(record.size)?;
    let mut out = Vec::new();
    for &(color, point) in &record.moves {
        let Some(point) = point else {
            board.pass();
            continue;
        };
        let sample = read(&board, color, point, candidates(&board, color));
        let captured = board.try_play(color, point).ok()?;
        if let (true, Some(sample)) = (captured.is_empty(), sample) {
            out.push((kind_of(&record.names[usize::from(color == Color::White)]), sample));
        }
    }
    Some(out)
}

/// The pool samples of one game; `None` when it is not a true game.
fn game_samples(record: &SgfRecord) -> Option<Vec<Sample>> {
    let samples = replay_samples(record, |board, color, point, c| {
        let mut sizes = [0u16; POOLS];
        let mut member = 0u16;
        for (k, pool) in Pool::ALL.iter().enumerate() {
            let set = pool.points(board, color, c);
            sizes[k] = set.count() as u16;
            if set.contains(point) {
                member |= 1 << k;
            }
        }
        let own_stones = board.stones(color).count();
        (member != 0).then(|| Sample { who: String::new(), own_stones, sizes, member, weight: 1.0 })
    })?;
    Some(samples.into_iter().map(|(who, sample)| Sample { who, ..sample }).collect())
}

/// The pattern samples of one game (mover kind, sample), the moves [`game_samples`] takes; `None` when it is
/// not a true game.
fn game_pattern_samples(record: &SgfRecord) -> Option<Vec<(String, PatternSample)>> {
    replay_samples(record, |board, color, point, c| {
        c.contains(point).then(|| PatternSample::new(board, color, point, c, 1.0))
    })
}

/// The true games in the `.sgf` files of `dirs`, each read by `read`.
fn load_with<T>(dirs: &[PathBuf], read: impl Fn(&SgfRecord) -> Option<Vec<T>>) -> Result<Vec<T>> {
    let mut out = Vec::new();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            match parse_sgf(&text).as_ref().and_then(&read) {
                Some(samples) => out.extend(samples),
                None => log::warn!("{}: not a replayable true game, skipped", file.display()),
            }
        }
    }
    Ok(out)
}

/// `phantomgo fit-model --patterns`: fits the pattern model and scores it on the held-out games.
fn run_patterns(args: &FitArgs) -> Result<()> {
    if args.train.is_empty() {
        bail!("give --train folders to fit the pattern model on");
    }
    let mut samples = keep_kinds(load_with(&args.train, game_pattern_samples)?, &args.players, |(who, _)| who)?;
    if samples.is_empty() {
        bail!("no moves to fit on in {}", names(&args.train));
    }
    if args.balance {
        let weights = balanced_weights(samples.iter().map(|(who, _)| who.as_str()));
        for ((_, s), w) in samples.iter_mut().zip(weights) {
            s.weight = w;
        }
    }
    let train: Vec<PatternSample> = samples.into_iter().map(|(_, s)| s).collect();
    let model = crate::belief::pattern::fit(&train, args.pattern_iterations);
    let (ll, uniform) = crate::belief::pattern::mean_log_likelihood(&model, &train);
    let mut report = format!(
        "training games: {} moves, {} patterns; mean log-likelihood per move (nats): uniform {uniform:.4}, \
         patterns {ll:.4}\n",
        train.len(),
        model.len()
    );
    if !args.eval.is_empty() {
        let held_out: Vec<(String, PatternSample)> = load_with(&args.eval, game_pattern_samples)?;
        let mut kinds: BTreeMap<String, Vec<PatternSample>> = BTreeMap::new();
        for (who, s) in held_out {
            kinds.entry("all".into()).or_default().push(s.clone());
            kinds.entry(who).or_default().push(s);
        }
        report.push_str(&format!("held-out games ({}):\n", names(&args.eval)));
        for (who, s) in &kinds {
            let (ll, uniform) = crate::belief::pattern::mean_log_likelihood(&model, s);
            report.push_str(&format!("  {who:<8} {:>6} moves: uniform {uniform:.4}, patterns {ll:.4}\n", s.len()));
        }
    }
    print!("{report}");
    if let Some(out) = &args.out {
        let header = format!(
            "The belief's pattern model of hidden moves (see src/belief/pattern.rs; belief.pattern_model).\n\
             Fitted by `phantomgo fit-model --patterns{}` on {} moves from {}.\n\n{report}",
            fit_flags(args),
            train.len(),
            names(&args.train)
        );
        std::fs::write(out, model.to_text(&header)).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

/// Every sample in the `.sgf` files of `dirs`.
fn load(dirs: &[PathBuf]) -> Result<Vec<Sample>> {
    load_with(dirs, game_samples)
}

impl Sample {
    /// Per pool, 1 / size when the pool holds the move, else 0 (the move's probability within the pool).
    fn within(&self, k: usize) -> f64 {
        if self.member & (1 << k) != 0 {
            1.0 / f64::from(self.sizes[k])
        } else {
            0.0
        }
    }

    /// The move's probability under weights `w` as (numerator, normaliser): the weights of the pools holding
    /// it, each over its size, and the summed weights of the pools that are not empty.
    fn terms(&self, w: &[f64; POOLS]) -> (f64, f64) {
        let (mut num, mut den) = (0.0, 0.0);
        for (k, &wk) in w.iter().enumerate() {
            if self.sizes[k] > 0 {
                den += wk;
                num += wk * self.within(k);
            }
        }
        (num, den)
    }
}

/// log P(move) under pool weights `w` (any positive scale).
fn log_likelihood(s: &Sample, w: &[f64; POOLS]) -> f64 {
    let (num, den) = s.terms(w);
    if num > 0.0 {
        (num / den).ln()
    } else {
        f64::NEG_INFINITY
    }
}

/// The weights of one phase maximising the mean log-likelihood of `samples` (Adam on softmax logits), with
/// the uniform pool kept at 1% or more so that no legal point is ever impossible.
fn fit_phase(samples: &[&Sample], steps: usize) -> [f64; POOLS] {
    let mut theta = [0.0f64; POOLS];
    let (mut m, mut v) = ([0.0f64; POOLS], [0.0f64; POOLS]);
    let (rate, b1, b2) = (0.05, 0.9, 0.999);
    for step in 1..=steps {
        let w = softmax(&theta);
        let mut grad_w = [0.0f64; POOLS];
        for s in samples {
            let (num, den) = s.terms(&w);
            for (k, g) in grad_w.iter_mut().enumerate() {
                if s.sizes[k] > 0 {
                    *g += s.weight * (s.within(k) / num - 1.0 / den);
                }
            }
        }
        let n: f64 = samples.iter().map(|s| s.weight).sum::<f64>().max(1e-9);
        let mean: f64 = (0..POOLS).map(|k| w[k] * grad_w[k]).sum();
        for k in 0..POOLS {
            let g = w[k] * (grad_w[k] - mean) / n;
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let mh = m[k] / (1.0 - b1.powi(step as i32));
            let vh = v[k] / (1.0 - b2.powi(step as i32));
            theta[k] += rate * mh / (vh.sqrt() + 1e-9);
        }
    }
    let mut w = softmax(&theta);
    w[POOLS - 1] = w[POOLS - 1].max(0.01);
    let total: f64 = w.iter().sum();
    w.map(|x| x / total)
}

fn softmax(theta: &[f64; POOLS]) -> [f64; POOLS] {
    let max = theta.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e = theta.map(|t| (t - max).exp());
    let total: f64 = e.iter().sum();
    e.map(|x| x / total)
}

/// Mean log-likelihood per move of `model` on `samples`, overall and per player kind.
fn score(model: &OpponentModel, samples: &[Sample]) -> BTreeMap<String, (usize, f64)> {
    let mut out: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    for s in samples {
        let w = model.phase[model.phase_of(s.own_stones)].as_array();
        let ll = log_likelihood(s, &w);
        for key in ["all".to_string(), s.who.clone()] {
            let e = out.entry(key).or_default();
            e.0 += 1;
            e.1 += ll;
        }
    }
    for e in out.values_mut() {
        e.1 /= e.0.max(1) as f64;
    }
    out
}

/// Fits a model to `samples` with the given phase starts.
fn fit(samples: &[Sample], phase_starts: &[u32], steps: usize) -> OpponentModel {
    let mut model = OpponentModel {
        phase_starts: phase_starts.to_vec(),
        phase: vec![PoolWeights::default(); phase_starts.len() + 1],
    };
    for phase in 0..model.phase.len() {
        let chosen: Vec<&Sample> = samples.iter().filter(|s| model.phase_of(s.own_stones) == phase).collect();
        let w = fit_phase(&chosen, steps);
        model.phase[phase] = PoolWeights::from_array(w.map(|x| (x * 1e4).round() / 1e4));
    }
    model
}

/// The score table of several models on one sample set, as text.
fn table(title: &str, samples: &[Sample], models: &[(&str, &OpponentModel)]) -> String {
    let mut out = format!("{title}: mean log-likelihood per move (nats; higher is better)\n");
    let scores: Vec<_> = models.iter().map(|(_, m)| score(m, samples)).collect();
    out.push_str(&format!("{:<8} {:>6}", "player", "moves"));
    for (name, _) in models {
        out.push_str(&format!(" {name:>9}"));
    }
    out.push('\n');
    for (who, (n, _)) in &scores[0] {
        out.push_str(&format!("{who:<8} {n:>6}"));
        for s in &scores {
            out.push_str(&format!(" {:>9.4}", s[who].1));
        }
        out.push('\n');
    }
    out
}

/// Runs `phantomgo fit-model`.
///
/// # Errors
/// Unreadable folders or model files, no samples to fit on, or a file that cannot be written.
pub fn run(args: &FitArgs) -> Result<()> {
    if args.patterns {
        return run_patterns(args);
    }
    let uniform = OpponentModel {
        phase_starts: Vec::new(),
        phase: vec![PoolWeights::from_array({
            let mut w = [0.0; POOLS];
            w[POOLS - 1] = 1.0;
            w
        })],
    };
    let hand = OpponentModel::hand(0.3, 0.15, 0.3);
    let shipped = OpponentModel::fitted();
    let held_out = if args.eval.is_empty() { Vec::new() } else { load(&args.eval)? };
    let score_held_out = |model: &OpponentModel| {
        let models = [("uniform", &uniform), ("hand", &hand), ("shipped", &shipped), ("model", model)];
        if held_out.is_empty() {
            String::new()
        } else {
            table(&format!("held-out games ({})", names(&args.eval)), &held_out, &models)
        }
    };
    if let Some(path) = &args.model {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        print!("{}", score_held_out(&OpponentModel::from_toml(&text)?));
        return Ok(());
    }
    if args.train.is_empty() {
        bail!("give --train folders to fit on, or --model with --eval");
    }
    let mut samples = keep_players(load(&args.train)?, &args.players)?;
    if samples.is_empty() {
        let whose = if args.players.is_empty() { String::new() } else { format!(" by {}", args.players.join(", ")) };
        bail!("no moves{whose} to fit on in {}", names(&args.train));
    }
    if args.balance {
        balance(&mut samples);
    }
    let model = fit(&samples, &args.phase_starts, args.steps);
    let models = [("uniform", &uniform), ("hand", &hand), ("shipped", &shipped), ("fitted", &model)];
    let report = format!("{}{}", table("training games", &samples, &models), score_held_out(&model));
    print!("{report}");
    if let Some(out) = &args.out {
        let header = format!(
            "The belief's opponent model: pool weights per phase (see src/belief/opponent.rs).\n\
             Fitted by `phantomgo fit-model{}` (scripts/fit_model.sh) on {} moves from {}.\n\n{report}",
            fit_flags(args),
            samples.len(),
            names(&args.train)
        );
        std::fs::write(out, model.to_toml(&header)).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

/// The last path components of `dirs`, comma-separated.
fn names(dirs: &[PathBuf]) -> String {
    let name = |p: &PathBuf| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
    dirs.iter().map(name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::Move;
    use crate::referee::sgf::coordinate;

    #[test]
    fn sgf_coordinates_round_trip() {
        let p = Point::from_coords(2, 6, 9).unwrap();
        let text = format!("(;SZ[9]PB[gnugo]PW[x];B[{}]C[a ] b];W[];W[tt])", coordinate(Move::Play(p), 9));
        let record = parse_sgf(&text).unwrap();
        assert_eq!(record.moves, vec![(Color::Black, Some(p)), (Color::White, None), (Color::White, None)]);
        assert_eq!(kind_of(&record.names[0]), "gnugo");
    }

    #[test]
    fn player_kinds_select_the_moves_fitted() {
        let text = format!(
            "(;SZ[9]PB[pimc]PW[phantomgo];B[{}];W[{}];B[{}];W[{}])",
            coordinate(Move::Play(Point::from_coords(4, 4, 9).unwrap()), 9),
            coordinate(Move::Play(Point::from_coords(2, 2, 9).unwrap()), 9),
            coordinate(Move::Play(Point::from_coords(4, 5, 9).unwrap()), 9),
            coordinate(Move::Play(Point::from_coords(6, 6, 9).unwrap()), 9),
        );
        let samples = game_samples(&parse_sgf(&text).unwrap()).unwrap();
        assert_eq!(samples.len(), 4);
        let kinds = |players: &[&str]| {
            let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
            keep_players(samples.clone(), &players).map(|s| s.iter().map(|s| s.who.clone()).collect::<Vec<_>>())
        };
        assert_eq!(kinds(&["pimc"]).unwrap(), ["pimc", "pimc"]);
        assert_eq!(kinds(&["engine"]).unwrap(), ["engine", "engine"]);
        assert_eq!(kinds(&[]).unwrap().len(), 4);
        assert!(kinds(&["gnugo"]).unwrap().is_empty());
        let error = kinds(&["gnu"]).unwrap_err().to_string();
        assert!(error.contains("--player gnu") && error.contains("pimc"), "{error}");
    }

    #[test]
    fn pattern_samples_are_the_non_capturing_moves() {
        // Black fills A1's last liberty from B1 then captures at A2; the capture is not a sample.
        let v = |c, r| coordinate(Move::Play(Point::from_coords(c, r, 9).unwrap()), 9);
        let text = format!("(;SZ[9]PB[pimc]PW[gnugo];B[{}];W[{}];B[{}];W[];B[{}])", v(1, 0), v(0, 0), v(4, 4), v(0, 1));
        let samples = game_pattern_samples(&parse_sgf(&text).unwrap()).unwrap();
        let kinds: Vec<&str> = samples.iter().map(|(who, _)| who.as_str()).collect();
        assert_eq!(kinds, ["pimc", "gnugo", "pimc"]);
        // White's A1 sat in the corner next to Black's B1: a first-line key with an `x` neighbour.
        let white = &samples[1].1;
        assert_eq!(white.chosen >> 16, 0);
        assert!(crate::belief::pattern::key_text(white.chosen).contains('x'));
        assert!(white.counts.iter().any(|&(k, _)| k == white.chosen));
        assert_eq!(white.counts.iter().map(|&(_, n)| n).sum::<u32>(), 80);
    }

    #[test]
    fn the_fit_recovers_a_pool_preference() {
        // Synthetic moves: 80% in pool 0 (size 4), the rest uniform (size 40); the fit finds most weight on 0.
        let mut samples = Vec::new();
        for i in 0..500 {
            let mut sizes = [0u16; POOLS];
            sizes[0] = 4;
            sizes[POOLS - 1] = 40;
            let member = if i % 5 == 0 { 1 << (POOLS - 1) } else { 1 | (1 << (POOLS - 1)) };
            samples.push(Sample { who: "x".into(), own_stones: 0, sizes, member, weight: 1.0 });
        }
        let refs: Vec<&Sample> = samples.iter().collect();
        let w = fit_phase(&refs, 2000);
        // Pools that are never non-empty keep some weight, which no sample sees: compare the two that count.
        let share = w[0] / (w[0] + w[POOLS - 1]);
        assert!((share - 0.778).abs() < 0.03, "{w:?}");
        let fitted = log_likelihood(&samples[1], &w);
        let uniform = log_likelihood(&samples[1], &{
            let mut u = [0.0; POOLS];
            u[POOLS - 1] = 1.0;
            u
        });
        assert!(fitted > uniform);
    }
}
