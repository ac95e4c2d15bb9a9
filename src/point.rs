//! Point (a board intersection), Move {Play, Pass} and GTP vertex parsing and formatting.

use std::fmt;

/// Smallest supported board size.
pub const MIN_SIZE: usize = 2;
/// Largest supported board size (121 points fit in 128 bits).
pub const MAX_SIZE: usize = 11;
/// Points on the largest board.
pub const MAX_AREA: usize = MAX_SIZE * MAX_SIZE;

/// GTP column letters (no `I`).
const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// A board point, stored as `row * size + col` (row 0 = line 1, col 0 = column A).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Point(u8);

impl Point {
    /// The point with this index, checked against the largest board.
    pub fn new(index: usize) -> Option<Point> {
        (index < MAX_AREA).then_some(Point(index as u8))
    }

    /// The point with this index; the range is only debug-asserted.
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Point {
        debug_assert!((index as usize) < MAX_AREA);
        Point(index)
    }

    /// The point at `col`, `row` (0-based) on a board of `size`, if on it.
    pub fn from_coords(col: usize, row: usize, size: usize) -> Option<Point> {
        (col < size && row < size && size <= MAX_SIZE).then(|| Point((row * size + col) as u8))
    }

    /// The index `row * size + col`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Formats as a GTP vertex (`C4`) on a board of `size`.
    pub fn to_vertex(self, size: usize) -> String {
        let col = self.index() % size;
        let row = self.index() / size;
        format!("{}{}", COLUMN_LETTERS[col] as char, row + 1)
    }
}

/// A move: a stone at a point, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Place a stone.
    Play(Point),
    /// Pass.
    Pass,
}

impl Move {
    /// Formats as GTP (`C4`, `pass`) on a board of `size`.
    pub fn to_vertex(self, size: usize) -> String {
        match self {
            Move::Play(p) => p.to_vertex(size),
            Move::Pass => "pass".to_string(),
        }
    }

    /// The point played, if any.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

/// Why a vertex could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not of the form letter + number or `pass`.
    Malformed(String),
    /// Well formed, but off a board of this size.
    OffBoard(String),
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexError::Malformed(v) => write!(f, "invalid vertex '{v}'"),
            VertexError::OffBoard(v) => write!(f, "vertex '{v}' is off the board"),
        }
    }
}

impl std::error::Error for VertexError {}

/// Parses a GTP vertex (`c4`, `K10`, `pass`; case-insensitive) for a board of `size`.
///
/// # Errors
/// [`VertexError::Malformed`] for text that is no vertex, [`VertexError::OffBoard`] for a vertex beyond `size`.
pub fn parse_vertex(text: &str, size: usize) -> Result<Move, VertexError> {
    let shown: String = text.chars().take(16).collect();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = text.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 || !bytes[0].is_ascii_alphabetic() {
        return Err(VertexError::Malformed(shown));
    }
    let letter = bytes[0].to_ascii_uppercase();
    let col = COLUMN_LETTERS.iter().position(|&c| c == letter).ok_or_else(|| VertexError::Malformed(shown.clone()))?;
    let digits = &text[1..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return Err(VertexError::Malformed(shown));
    }
    let row: usize = digits.parse().map_err(|_| VertexError::Malformed(shown.clone()))?;
    if row == 0 || row > 25 {
        return Err(VertexError::Malformed(shown));
    }
    Point::from_coords(col, row - 1, size).map(Move::Play).ok_or(VertexError::OffBoard(shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_on_every_size() {
        for size in MIN_SIZE..=MAX_SIZE {
            for index in 0..size * size {
                let p = Point::new(index).unwrap();
                let v = p.to_vertex(size);
                assert_eq!(parse_vertex(&v, size), Ok(Move::Play(p)));
                assert_eq!(parse_vertex(&v.to_lowercase(), size), Ok(Move::Play(p)));
            }
        }
    }

    #[test]
    fn column_i_is_skipped() {
        assert_eq!(parse_vertex("J1", 9), Ok(Move::Play(Point::new(8).unwrap())));
        assert!(matches!(parse_vertex("I1", 9), Err(VertexError::Malformed(_))));
    }

    #[test]
    fn bad_vertices_are_errors() {
        for bad in ["", "A", "A0", "A01", "Z9", "5A", "A-1", "AA1", "é1", "A1000"] {
            assert!(parse_vertex(bad, 9).is_err(), "{bad}");
        }
        assert!(matches!(parse_vertex("K10", 9), Err(VertexError::OffBoard(_))));
        assert!(matches!(parse_vertex("A12", 11), Err(VertexError::OffBoard(_))));
        assert_eq!(parse_vertex("PASS", 9), Ok(Move::Pass));
    }
}
