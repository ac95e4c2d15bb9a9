//! Scoring an engine's `phantom-belief` against the true board: the reply's grid parsed, Brier score per point,
//! the fair and uniform baselines, and the ledger of each player's illegal tries (which stones it has found).

use super::record::{CalibrationBin, IllegalKinds, IllegalSplit};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::point::{Move, Point};

/// Parses a `phantom-belief` reply into per-point probabilities (point index order: A1, B1, ..).
///
/// Accepted: `size` rows of `size` numbers, top row first (line `size` down to line 1, as `showboard`
/// draws them); each row may carry its line number before and/or after the values; other lines (a
/// header of column letters, blank lines) are skipped. Values are percentages 0..100 (decimals allowed);
/// `.` counts as 0. Returns `None` when the reply has no such grid.
pub fn parse_belief(text: &str, size: usize) -> Option<Vec<f64>> {
    let mut rows: Vec<(Option<usize>, Vec<f64>)> = Vec::new();
    for line in text.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let values: Option<Vec<f64>> = tokens
            .iter()
            .map(|t| {
                let t = t.trim_end_matches('%');
                if t == "." {
                    Some(0.0)
                } else {
                    t.parse::<f64>().ok().filter(|v| v.is_finite())
                }
            })
            .collect();
        let Some(values) = values else { continue };
        let is_label = |v: f64| v.fract() == 0.0 && v >= 1.0 && v <= size as f64;
        let row = match values.len() {
            n if n == size => (None, values),
            n if n == size + 1 && is_label(values[0]) => (Some(values[0] as usize), values[1..].to_vec()),
            n if n == size + 2 && is_label(values[0]) && values[0] == values[n - 1] => {
                (Some(values[0] as usize), values[1..=size].to_vec())
            }
            _ => continue,
        };
        rows.push(row);
    }
    if rows.len() != size {
        return None;
    }
    let mut grid = vec![0.0; size * size];
    for (i, (label, values)) in rows.into_iter().enumerate() {
        let line = label.unwrap_or(size - i);
        if line == 0 || line > size {
            return None;
        }
        for (col, value) in values.into_iter().enumerate() {
            grid[(line - 1) * size + col] = (value / 100.0).clamp(0.0, 1.0);
        }
    }
    Some(grid)
}

/// Mean over the board's points of (p - truth)², truth being 1 where `color`'s opponent has a stone.
pub fn brier(board: &Board, color: Color, probabilities: &[f64]) -> f64 {
    let truth = board.stones(color.opponent());
    let area = board.geometry().area();
    let total: f64 = board
        .geometry()
        .points()
        .map(|p| {
            let p_stone = probabilities.get(p.index()).copied().unwrap_or(0.0);
            let actual = if truth.contains(p) { 1.0 } else { 0.0 };
            (p_stone - actual).powi(2)
        })
        .sum();
    total / area as f64
}

/// Adds one turn's stated probabilities of `color` to the reliability bins (tenths of [0, 1]).
pub fn calibrate(board: &Board, color: Color, probabilities: &[f64], bins: &mut [CalibrationBin; 10]) {
    let truth = board.stones(color.opponent());
    for p in board.geometry().points() {
        let stated = probabilities.get(p.index()).copied().unwrap_or(0.0).clamp(0.0, 1.0);
        let bin = &mut bins[((stated * 10.0) as usize).min(9)];
        bin.points += 1;
        bin.stones += u32::from(truth.contains(p));
        bin.p_sum += stated;
    }
}

/// The fair baseline for `color`: p = 1 on `found` (opponent stones its own illegal tries hit that still stand),
/// 0 on its own stones, and the remaining true count of opponent stones spread evenly over every other point.
/// No other inference: a player may infer more, the baseline does not.
pub fn fair_baseline(board: &Board, color: Color, found: Bitboard) -> Vec<f64> {
    let own = board.stones(color);
    let found = found & board.stones(color.opponent());
    let unknown: Bitboard = board.geometry().mask() - own - found;
    let remaining = board.stones(color.opponent()).count() - found.count();
    let p = if unknown.any() { f64::from(remaining) / f64::from(unknown.count()) } else { 0.0 };
    (0..board.geometry().area())
        .map(|i| match Point::new(i) {
            Some(point) if found.contains(point) => 1.0,
            Some(point) if unknown.contains(point) => p,
            _ => 0.0,
        })
        .collect()
}

/// What one illegal try hit, as the runner (which knows the truth) sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalKind {
    /// An opponent stone this player had not found before.
    FoundNew,
    /// An opponent stone an earlier illegal try of this player had already hit (the same stone, not captured since).
    HitKnown,
    /// An empty point: suicide, ko or a repetition.
    SuicideKo,
}

/// Per player: the opponent stones its illegal tries found (still standing), its turn number, and its
/// illegal tries by kind and phase.
#[derive(Clone, Debug, Default)]
pub struct TryLedger {
    found: ByColor<Bitboard>,
    turns: ByColor<u32>,
    kinds: ByColor<IllegalKinds>,
}

/// The first player turn (1-based) of phases 2 and 3: turns 1-15, 16-30, 31 on.
pub const PHASE_STARTS: [u32; 2] = [16, 31];

impl TryLedger {
    /// True when `mv` is a try at a point holding an opponent stone of `color` on the true `board` (call before the
    /// judge rules on it).
    pub fn hits_stone(board: &Board, color: Color, mv: Move) -> bool {
        mv.point().is_some_and(|point| board.stones(color.opponent()).contains(point))
    }

    /// Records an illegal try of `color` at `point`; `hit_stone` from [`TryLedger::hits_stone`].
    pub fn illegal(&mut self, color: Color, point: Point, hit_stone: bool) -> IllegalKind {
        let kind = match (hit_stone, self.found[color].contains(point)) {
            (false, _) => IllegalKind::SuicideKo,
            (true, true) => IllegalKind::HitKnown,
            (true, false) => IllegalKind::FoundNew,
        };
        if hit_stone {
            self.found[color].insert(point);
        }
        let turn = self.turns[color] + 1;
        let phase = PHASE_STARTS.iter().filter(|&&start| turn >= start).count();
        let kinds = &mut self.kinds[color];
        for split in [&mut kinds.total, &mut kinds.by_phase[phase]] {
            match kind {
                IllegalKind::FoundNew => split.found_new += 1,
                IllegalKind::HitKnown => split.hit_known += 1,
                IllegalKind::SuicideKo => split.suicide_ko += 1,
            }
        }
        kind
    }

    /// Forgets found stones that no longer stand on the true `board` (call after every ruling: a stone can only go
    /// by a capture, and a new stone on the point needs another move).
    pub fn refresh(&mut self, board: &Board) {
        for color in Color::BOTH {
            self.found[color] &= board.stones(color.opponent());
        }
    }

    /// `color`'s turn ended (a stone, a pass, or a lost turn).
    pub fn end_turn(&mut self, color: Color) {
        self.turns[color] += 1;
    }

    /// The opponent stones `color` has found that still stand.
    pub fn found(&self, color: Color) -> Bitboard {
        self.found[color]
    }

    /// `color`'s illegal tries by kind.
    pub fn kinds(&self, color: Color) -> IllegalKinds {
        self.kinds[color]
    }
}

/// Splits of illegal tries added up.
pub fn add_split(a: IllegalSplit, b: IllegalSplit) -> IllegalSplit {
    IllegalSplit {
        found_new: a.found_new + b.found_new,
        hit_known: a.hit_known + b.hit_known,
        suicide_ko: a.suicide_ko + b.suicide_ko,
    }
}

/// The uniform baseline for `color`: the true number of opponent stones (which a player can count from
/// what it was told: the opponent's legal moves minus its own captures) spread evenly over the points
/// that do not hold one of its own stones; 0 on its own stones.
pub fn uniform_baseline(board: &Board, color: Color) -> Vec<f64> {
    let own = board.stones(color);
    let unknown: Bitboard = board.geometry().mask() - own;
    let count = board.stones(color.opponent()).count();
    let p = if unknown.any() { f64::from(count) / f64::from(unknown.count()) } else { 0.0 };
    let area = board.geometry().area();
    (0..area).map(|i| crate::point::Point::new(i).filter(|point| unknown.contains(*point)).map_or(0.0, |_| p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_labelled_and_bare_grids() {
        let labelled = "   A  B  C\n 3 0 0 100 3\n 2 . 50 0 2\n 1 25 0 0 1\n   A  B  C";
        let grid = parse_belief(labelled, 3).unwrap();
        assert_eq!(grid[0], 0.25); // A1
        assert_eq!(grid[4], 0.5); // B2
        assert_eq!(grid[8], 1.0); // C3
        let bare = "0 0 100\n0 50 0\n25 0 0";
        assert_eq!(parse_belief(bare, 3).unwrap(), grid);
        assert!(parse_belief("= nothing here", 3).is_none());
        assert!(parse_belief("1 2\n3 4", 3).is_none());
    }

    #[test]
    fn parses_the_engines_own_grid() {
        // The layout of `phantomgo gtp`'s reply: header, right-aligned labels on both sides, header.
        let reply = "\n     A   B   C\n 3    0   0 100  3\n 2    0  50   0  2\n 1   25   0   0  1\n     A   B   C";
        let grid = parse_belief(reply, 3).unwrap();
        assert_eq!((grid[0], grid[4], grid[8]), (0.25, 0.5, 1.0));
    }

    #[test]
    fn brier_of_perfect_and_baseline() {
        let board = Board::from_picture(
            3,
            "X . .
             . O .
             . . .",
        );
        // Black's view: the White stone at B2 is the truth.
        let mut perfect = vec![0.0; 9];
        perfect[4] = 1.0;
        assert_eq!(brier(&board, Color::Black, &perfect), 0.0);
        let baseline = uniform_baseline(&board, Color::Black);
        assert_eq!(baseline[6], 0.0); // A3 is Black's own stone
        assert!((baseline[4] - 1.0 / 8.0).abs() < 1e-12);
        let expected = ((7.0 / 8.0f64).powi(2) + 7.0 * (1.0 / 8.0f64).powi(2)) / 9.0;
        assert!((brier(&board, Color::Black, &baseline) - expected).abs() < 1e-12);
    }

    #[test]
    fn calibration_bins_count_points_stones_and_probabilities() {
        let board = Board::from_picture(
            3,
            "X . .
             . O .
             . . .",
        );
        let mut stated = vec![0.0; 9];
        stated[4] = 1.0; // B2, the White stone: the last bin
        stated[0] = 0.25; // A1, empty: the third bin
        let mut bins = [CalibrationBin::default(); 10];
        calibrate(&board, Color::Black, &stated, &mut bins);
        assert_eq!((bins[9].points, bins[9].stones), (1, 1));
        assert_eq!((bins[2].points, bins[2].stones), (1, 0));
        assert!((bins[2].p_sum - 0.25).abs() < 1e-12);
        assert_eq!((bins[0].points, bins[0].stones), (7, 0));
    }

    #[test]
    fn fair_baseline_is_sure_of_found_stones_only_while_they_stand() {
        let board = Board::from_picture(
            3,
            "X . .
             . O O
             . . .",
        );
        let geometry = board.geometry();
        let b2 = geometry.point(1, 1).unwrap();
        let a1 = geometry.point(0, 0).unwrap();
        let found = Bitboard::from_point(b2) | Bitboard::from_point(a1); // A1 holds no stone: ignored
        let fair = fair_baseline(&board, Color::Black, found);
        assert_eq!(fair[b2.index()], 1.0);
        assert_eq!(fair[geometry.point(0, 2).unwrap().index()], 0.0); // A3: own stone
                                                                      // One stone left (C2) over the seven points that are neither ours nor found.
        assert!((fair[a1.index()] - 1.0 / 7.0).abs() < 1e-12);
        let uniform = uniform_baseline(&board, Color::Black);
        assert!(brier(&board, Color::Black, &fair) < brier(&board, Color::Black, &uniform));
        assert_eq!(fair_baseline(&board, Color::Black, Bitboard::EMPTY), uniform);
    }

    #[test]
    fn ledger_tells_new_stones_from_known_ones_and_forgets_captured_ones() {
        let mut board = Board::from_picture(
            3,
            "X O .
             . . .
             . . .",
        );
        let b3 = board.geometry().point(1, 2).unwrap();
        let mut ledger = TryLedger::default();
        let hit = TryLedger::hits_stone(&board, Color::Black, Move::Play(b3));
        assert!(hit);
        assert_eq!(ledger.illegal(Color::Black, b3, hit), IllegalKind::FoundNew);
        ledger.end_turn(Color::Black);
        assert_eq!(ledger.illegal(Color::Black, b3, hit), IllegalKind::HitKnown);
        let a1 = board.geometry().point(0, 0).unwrap();
        assert_eq!(ledger.illegal(Color::Black, a1, false), IllegalKind::SuicideKo);
        // Black captures B3; White plays there again: a new stone to find.
        board.try_play(Color::Black, board.geometry().point(2, 2).unwrap()).unwrap();
        board.try_play(Color::White, board.geometry().point(2, 0).unwrap()).unwrap();
        board.try_play(Color::Black, board.geometry().point(1, 1).unwrap()).unwrap();
        assert!(!board.stones(Color::White).contains(b3));
        ledger.refresh(&board);
        assert!(ledger.found(Color::Black).is_empty());
        board.put_stone(Color::White, b3);
        assert_eq!(ledger.illegal(Color::Black, b3, true), IllegalKind::FoundNew);
        let kinds = ledger.kinds(Color::Black);
        assert_eq!((kinds.total.found_new, kinds.total.hit_known, kinds.total.suicide_ko), (2, 1, 1));
        assert_eq!(kinds.by_phase[0], kinds.total);
        for _ in 0..20 {
            ledger.end_turn(Color::Black);
        }
        ledger.illegal(Color::Black, a1, false);
        assert_eq!(ledger.kinds(Color::Black).by_phase[1].suicide_ko, 1);
    }
}
