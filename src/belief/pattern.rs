//! The belief's pattern model of hidden opponent moves: a Bradley-Terry strength per 3x3 neighbourhood and
//! line, fitted on recorded games (`phantomgo fit-model --patterns`), an alternative to the pool mixture of
//! `opponent.rs` (`belief.pattern_model`).
//!
//! A candidate point's pattern is its eight neighbours, each empty, the mover's own stone, the other side's
//! stone or off the board, read around the point and reduced to the smallest of its eight symmetric forms,
//! with its line (1, 2, 3, or 4 and above). A hidden move is drawn among the candidates in proportion to the
//! strengths of their patterns (Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go", 2007, for
//! the model and its minorization-maximization fit). Unlike a pool, a pattern tells a stone played from the
//! mover's own side against ours from one dropped into the middle of our shape.

use super::opponent::ModelError;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::Point;
use rand::Rng;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// Raw neighbourhood codes: two bits for each of the eight neighbours.
const CODES: usize = 1 << 16;
/// Lines told apart: the first, second, third, and the fourth and above.
pub const LINES: usize = 4;

/// A neighbour's state in a code.
const EMPTY: u16 = 0;
const OWN: u16 = 1;
const OTHER: u16 = 2;
const OFF: u16 = 3;
/// The characters of the states in a pattern's text form.
const STATE_CHARS: [char; 4] = ['.', 'o', 'x', '-'];

/// The eight neighbours (column, row offsets), in order around the point.
const RING: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];

/// The smallest of the eight symmetric forms of every raw code.
fn canonical_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // For each symmetry, where each ring position's neighbour goes.
        let mut perms = Vec::with_capacity(8);
        for swap in [false, true] {
            for fx in [1, -1] {
                for fy in [1, -1] {
                    let perm: Vec<usize> = RING
                        .iter()
                        .map(|&(dx, dy)| {
                            let (dx, dy) = if swap { (dy, dx) } else { (dx, dy) };
                            let target = (dx * fx, dy * fy);
                            RING.iter().position(|&r| r == target).unwrap_or(0)
                        })
                        .collect();
                    perms.push(perm);
                }
            }
        }
        (0..CODES)
            .map(|raw| {
                perms
                    .iter()
                    .map(|perm| (0..8).fold(0u16, |code, k| code | ((((raw >> (2 * perm[k])) & 3) as u16) << (2 * k))))
                    .min()
                    .unwrap_or(raw as u16)
            })
            .collect()
    })
}

/// The smallest symmetric form of a raw neighbourhood code.
pub fn canonical(raw: u16) -> u16 {
    canonical_table()[usize::from(raw)]
}

/// The raw neighbourhood code of `point` for `mover` on `board` (ring order, two bits a neighbour).
pub fn raw_code(board: &Board, mover: Color, point: Point) -> u16 {
    let size = board.size() as i32;
    let (col, row) = ((point.index() % board.size()) as i32, (point.index() / board.size()) as i32);
    let own = board.stones(mover);
    let other = board.stones(mover.opponent());
    let mut code = 0u16;
    for (k, &(dx, dy)) in RING.iter().enumerate() {
        let (c, r) = (col + dx, row + dy);
        let state = if c < 0 || r < 0 || c >= size || r >= size {
            OFF
        } else {
            let q = Point::from_index_unchecked((r * size + c) as u8);
            if own.contains(q) {
                OWN
            } else if other.contains(q) {
                OTHER
            } else {
                EMPTY
            }
        };
        code |= state << (2 * k);
    }
    code
}

/// The line of `point` (0 = the first line, 3 = the fourth and above).
pub fn line_of(point: Point, size: usize) -> usize {
    let (col, row) = (point.index() % size, point.index() / size);
    col.min(row).min(size - 1 - col).min(size - 1 - row).min(LINES - 1)
}

/// A pattern's key: its canonical code and line.
pub fn key(board: &Board, mover: Color, point: Point) -> u32 {
    u32::from(canonical(raw_code(board, mover, point))) | ((line_of(point, board.size()) as u32) << 16)
}

/// A pattern key as text: eight state characters (ring order) and the line, 1-based (`..o.x... 2`).
pub fn key_text(key: u32) -> String {
    let code = key & 0xffff;
    let pattern: String = (0..8).map(|k| STATE_CHARS[((code >> (2 * k)) & 3) as usize]).collect();
    format!("{pattern} {}", (key >> 16) + 1)
}

/// Strengths per pattern, expanded to every raw code and line so that a draw never reduces a code.
#[derive(Clone, PartialEq)]
pub struct PatternModel {
    /// Strength by `line * CODES + raw code`; patterns the file does not name have strength 1.
    gamma: Vec<f32>,
    /// The strengths as given (canonical key to strength), for writing the model back out.
    named: BTreeMap<u32, f32>,
}

impl fmt::Debug for PatternModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PatternModel({} patterns)", self.named.len())
    }
}

impl PatternModel {
    /// A model from canonical keys and their strengths (every other pattern at strength 1).
    pub fn from_strengths(named: BTreeMap<u32, f32>) -> PatternModel {
        let table = canonical_table();
        let mut gamma = vec![1.0f32; LINES * CODES];
        for line in 0..LINES {
            for raw in 0..CODES {
                let key = u32::from(table[raw]) | ((line as u32) << 16);
                if let Some(&g) = named.get(&key) {
                    gamma[line * CODES + raw] = g;
                }
            }
        }
        PatternModel { gamma, named }
    }

    /// The strength of a canonical key.
    pub fn strength_of(&self, key: u32) -> f32 {
        let line = (key >> 16) as usize;
        if line >= LINES {
            return 1.0;
        }
        self.gamma[line * CODES + (key & 0xffff) as usize]
    }

    /// The strength of a move by `mover` at `point` on `board`.
    pub fn strength(&self, board: &Board, mover: Color, point: Point) -> f32 {
        self.gamma[line_of(point, board.size()) * CODES + usize::from(raw_code(board, mover, point))]
    }

    /// Draws one of `candidates` in proportion to its pattern's strength; `None` when there is none.
    pub fn draw<R: Rng>(&self, rng: &mut R, board: &Board, mover: Color, candidates: Bitboard) -> Option<Point> {
        let mut points = [Point::from_index_unchecked(0); crate::point::MAX_AREA];
        let mut cumulative = [0.0f32; crate::point::MAX_AREA];
        let mut n = 0;
        let mut total = 0.0f32;
        for point in candidates.iter() {
            total += self.strength(board, mover, point);
            points[n] = point;
            cumulative[n] = total;
            n += 1;
        }
        if n == 0 {
            return None;
        }
        if !(total > 0.0 && total.is_finite()) {
            return Some(points[rng.gen_range(0..n)]);
        }
        let roll = rng.gen::<f32>() * total;
        let index = cumulative[..n].partition_point(|&c| c <= roll).min(n - 1);
        Some(points[index])
    }

    /// Reads a model file: `#` comments and lines `PATTERN LINE STRENGTH` (eight of `.ox-` in ring order, the
    /// line 1-4, a positive strength). A pattern in any of its symmetric forms names the same entry.
    ///
    /// # Errors
    /// A malformed line, a line number outside 1-4, a strength that is not positive and finite, or no entry.
    pub fn from_text(text: &str) -> Result<PatternModel, ModelError> {
        let mut named = BTreeMap::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| ModelError(format!("line {}: {why}: '{line}'", number + 1));
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [pattern, board_line, strength] = fields[..] else {
                return Err(bad("want PATTERN LINE STRENGTH"));
            };
            if pattern.chars().count() != 8 {
                return Err(bad("a pattern is eight of . o x -"));
            }
            let mut raw = 0u16;
            for (k, c) in pattern.chars().enumerate() {
                let state =
                    STATE_CHARS.iter().position(|&s| s == c).ok_or_else(|| bad("a pattern is eight of . o x -"))?;
                raw |= (state as u16) << (2 * k);
            }
            let board_line: usize = board_line.parse().map_err(|_| bad("the line is 1-4"))?;
            if !(1..=LINES).contains(&board_line) {
                return Err(bad("the line is 1-4"));
            }
            let strength: f32 = strength.parse().map_err(|_| bad("the strength is a number"))?;
            if !(strength.is_finite() && strength > 0.0) {
                return Err(bad("the strength must be positive"));
            }
            named.insert(u32::from(canonical(raw)) | (((board_line - 1) as u32) << 16), strength);
        }
        if named.is_empty() {
            return Err(ModelError("no patterns".into()));
        }
        Ok(PatternModel::from_strengths(named))
    }

    /// The model as a file (`header` lines become comments), one pattern a line, strongest first.
    pub fn to_text(&self, header: &str) -> String {
        let mut out: String = header.lines().map(|l| format!("# {l}\n").replace("# \n", "#\n")).collect();
        out.push_str(
            "# pattern (ring order from the upper left, . empty, o mover, x other, - off board) line strength\n",
        );
        let mut entries: Vec<(&u32, &f32)> = self.named.iter().collect();
        entries.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
        for (key, strength) in entries {
            out.push_str(&format!("{} {strength:.5}\n", key_text(*key)));
        }
        out
    }

    /// Patterns the model names.
    pub fn len(&self) -> usize {
        self.named.len()
    }

    /// True when the model names no pattern.
    pub fn is_empty(&self) -> bool {
        self.named.is_empty()
    }
}

/// One recorded move for the fit: the chosen pattern and how many candidates held each pattern.
#[derive(Clone, Debug)]
pub struct PatternSample {
    /// The chosen move's key.
    pub chosen: u32,
    /// (key, number of candidates with it), one entry per key present.
    pub counts: Vec<(u32, u32)>,
    /// The sample's weight in the fit.
    pub weight: f64,
}

impl PatternSample {
    /// The sample of a move by `mover` at `point` among `candidates` (the point among them).
    pub fn new(board: &Board, mover: Color, point: Point, candidates: Bitboard, weight: f64) -> PatternSample {
        let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
        for q in candidates.iter() {
            *counts.entry(key(board, mover, q)).or_default() += 1;
        }
        PatternSample { chosen: key(board, mover, point), counts: counts.into_iter().collect(), weight }
    }
}

/// Fits strengths by minorization-maximization, with one virtual win and one virtual loss of every pattern
/// against a pattern of strength 1 (a prior that keeps rare patterns near 1).
pub fn fit(samples: &[PatternSample], iterations: usize) -> PatternModel {
    let mut gamma: BTreeMap<u32, f64> = BTreeMap::new();
    let mut wins: BTreeMap<u32, f64> = BTreeMap::new();
    for s in samples {
        *wins.entry(s.chosen).or_default() += s.weight;
        for &(k, _) in &s.counts {
            gamma.entry(k).or_insert(1.0);
        }
    }
    for _ in 0..iterations {
        let mut denominator: BTreeMap<u32, f64> = BTreeMap::new();
        for s in samples {
            let total: f64 = s.counts.iter().map(|&(k, n)| f64::from(n) * gamma[&k]).sum();
            for &(k, n) in &s.counts {
                *denominator.entry(k).or_default() += s.weight * f64::from(n) / total;
            }
        }
        for (k, g) in gamma.iter_mut() {
            let w = wins.get(k).copied().unwrap_or(0.0);
            let d = denominator.get(k).copied().unwrap_or(0.0);
            *g = (w + 1.0) / (d + 2.0 / (*g + 1.0));
        }
    }
    PatternModel::from_strengths(gamma.into_iter().map(|(k, g)| (k, g as f32)).collect())
}

/// Mean log-likelihood per move of `model` on `samples` (nats), and of the uniform choice among candidates.
pub fn mean_log_likelihood(model: &PatternModel, samples: &[PatternSample]) -> (f64, f64) {
    let (mut ll, mut uniform, mut n) = (0.0, 0.0, 0.0);
    for s in samples {
        let total: f64 = s.counts.iter().map(|&(k, c)| f64::from(c) * f64::from(model.strength_of(k))).sum();
        let candidates: u32 = s.counts.iter().map(|&(_, c)| c).sum();
        ll += s.weight * (f64::from(model.strength_of(s.chosen)) / total).ln();
        uniform += s.weight * -(f64::from(candidates)).ln();
        n += s.weight;
    }
    let n = f64::max(n, 1e-9);
    (ll / n, uniform / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn at(board: &Board, vertex: &str) -> Point {
        crate::point::parse_vertex(vertex, board.size()).unwrap().point().unwrap()
    }

    #[test]
    fn symmetric_neighbourhoods_share_a_pattern() {
        // The same shape twice, the second turned a quarter: White's stone next to the point, Black's diagonal.
        let board = Board::from_picture(
            9,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . O . .
            . . . . . . X . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . X O . . . . . .
            . . . . . . . . .",
        );
        // C3: White's C2 below, Black's B2 below left, third line. F7: White's G7 right, Black's G6 below right.
        let c3 = key(&board, Color::White, at(&board, "C3"));
        assert_eq!(c3, key(&board, Color::White, at(&board, "F7")), "{}", key_text(c3));
        assert_eq!(c3 >> 16, 2);
        // The same shape one line lower is another key; so is the same shape seen by Black.
        assert_ne!(c3, key(&board, Color::White, at(&board, "C1")));
        assert_ne!(c3, key(&board, Color::Black, at(&board, "C3")));
        assert!(key_text(c3).contains('o') && key_text(c3).contains('x'));
    }

    #[test]
    fn canonical_forms_are_the_minimum_of_their_orbit() {
        for raw in [0u16, 1, 0x00ff, 0x1234, 0xffff, 0x8001] {
            let c = canonical(raw);
            assert!(c <= raw);
            assert_eq!(canonical(c), c);
        }
    }

    #[test]
    fn lines_count_from_the_edge() {
        let p = |c, r| Point::from_coords(c, r, 9).unwrap();
        assert_eq!(line_of(p(0, 4), 9), 0);
        assert_eq!(line_of(p(1, 7), 9), 1);
        assert_eq!(line_of(p(2, 2), 9), 2);
        assert_eq!(line_of(p(4, 4), 9), 3);
        assert_eq!(line_of(p(3, 5), 9), 3);
    }

    #[test]
    fn draws_follow_the_strengths() {
        let board = Board::from_picture(
            9,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        // Strength 1000 for a point straight below or beside White's E5 stone (one key for all four).
        let target = key(&board, Color::White, at(&board, "E4"));
        let model = PatternModel::from_strengths([(target, 1000.0)].into_iter().collect());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let near = board.geometry().neighbours(at(&board, "E5"));
        let draws = 2000;
        let hits = (0..draws)
            .filter(|_| near.contains(model.draw(&mut rng, &board, Color::White, board.empty()).unwrap()))
            .count();
        // 4 x 1000 against 76 other points at 1: about 98%.
        assert!(hits > draws * 95 / 100, "{hits}");
        // Only the candidates are ever drawn.
        let only = Bitboard::from_point(at(&board, "A1"));
        assert_eq!(model.draw(&mut rng, &board, Color::White, only), Some(at(&board, "A1")));
        assert_eq!(model.draw(&mut rng, &board, Color::White, Bitboard::EMPTY), None);
    }

    #[test]
    fn the_fit_finds_a_preferred_pattern_and_files_round_trip() {
        let board = Board::from_picture(
            9,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        // Three moves in four next to the stone, the rest at A1.
        let samples: Vec<PatternSample> = (0..200)
            .map(|i| {
                let point = if i % 4 == 0 { at(&board, "A1") } else { at(&board, "E4") };
                PatternSample::new(&board, Color::White, point, board.empty(), 1.0)
            })
            .collect();
        let model = fit(&samples, 100);
        let near = model.strength(&board, Color::White, at(&board, "E4"));
        let open = model.strength(&board, Color::White, at(&board, "C7"));
        assert!(near > 20.0 * open, "{near} {open}");
        let (ll, uniform) = mean_log_likelihood(&model, &samples);
        assert!(ll > uniform + 1.0, "{ll} {uniform}");
        let text = model.to_text("a test model\n\nsecond line");
        assert!(text.starts_with("# a test model\n#\n# second line\n"), "{text}");
        let back = PatternModel::from_text(&text).unwrap();
        for p in board.empty().iter() {
            let (a, b) = (model.strength(&board, Color::White, p), back.strength(&board, Color::White, p));
            assert!((a - b).abs() <= 1e-4 * a.max(1.0), "{a} {b}");
        }
    }

    #[test]
    fn bad_files_are_refused() {
        for text in [
            "",
            "# only a comment",
            "........ 1",
            "....... 1 1.0",
            "........ 5 1.0",
            "........ 1 -2",
            "........ 1 nan",
            "...z.... 1 1.0",
            "###..... 1 1.0",
        ] {
            assert!(PatternModel::from_text(text).is_err(), "{text}");
        }
        let model = PatternModel::from_text("o....... 1 2.5\n..o..... 1 3.0").unwrap();
        // Two symmetric forms of one pattern name one entry; the last wins.
        assert_eq!(model.len(), 1);
        // Patterns with off-board neighbours (`-`) read back, whichever side the edge is on.
        let edge = PatternModel::from_text("# a comment\n---..... 1 0.5").unwrap();
        let board = Board::new(9).unwrap();
        assert_eq!(edge.strength(&board, Color::White, at(&board, "A5")), 0.5);
        assert_eq!(edge.strength(&board, Color::White, at(&board, "E9")), 0.5);
        assert_eq!(edge.strength(&board, Color::White, at(&board, "E5")), 1.0);
    }
}
