//! Scoring an engine's `phantom-belief` against the true board: the reply's grid parsed, Brier score per point, and the uniform baseline.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;

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
}
