//! The championship dialect's words: one platform line parsed into a [`Line`], points in the dialect's
//! two-letter coordinates, and the engine's answers formatted.
//!
//! Coordinates: two letters `A`.. (the letter `I` is used); the first counts rows from the top, the second
//! columns from the left (what the organisers' sample program printed). Lower case is accepted.

use crate::color::Color;
use crate::point::{Move, Point};
use std::fmt;

/// One line from the platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// `name?`: who are you.
    Name,
    /// `new black` / `new white`: a new game, we play this colour.
    New(Color),
    /// `accept`: our last try stands.
    Accept,
    /// `refuse`: our last try was illegal.
    Refuse,
    /// `take N P...`: our accepted try captured these opponent stones (`count` as written).
    Take {
        /// The count as written.
        count: usize,
        /// The points given.
        points: Vec<Point>,
    },
    /// `taked N P...`: the opponent's move captured these of our stones.
    Taked {
        /// The count as written.
        count: usize,
        /// The points given.
        points: Vec<Point>,
    },
    /// `move go`: the opponent made a legal move; our turn.
    MoveGo,
    /// `move pass`: the opponent passed; our turn.
    MovePass,
    /// `end`: the game is over.
    End,
    /// `error`: the platform did not accept our last line.
    Error,
    /// `quit`: exit.
    Quit,
}

/// Why a line is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not a word of the dialect.
    UnknownWord(String),
    /// A known word with arguments that do not fit it.
    BadArguments(String),
    /// A point that is not two letters on the board.
    BadPoint(String),
    /// The line is not UTF-8 or too long.
    Unreadable,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::UnknownWord(word) => write!(f, "unknown word '{word}'"),
            LineError::BadArguments(line) => write!(f, "bad arguments in '{line}'"),
            LineError::BadPoint(text) => write!(f, "'{text}' is not a point on the board"),
            LineError::Unreadable => f.write_str("unreadable line (not UTF-8, or too long)"),
        }
    }
}

impl std::error::Error for LineError {}

/// The point written `text` (two letters, row from the top then column) on a board of `size`.
pub fn parse_point(text: &str, size: usize) -> Option<Point> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let index = |b: u8| -> Option<usize> {
        let i = usize::from(b.to_ascii_uppercase().checked_sub(b'A')?);
        (b.is_ascii_alphabetic() && i < size).then_some(i)
    };
    let (from_top, col) = (index(bytes[0])?, index(bytes[1])?);
    Point::from_coords(col, size - 1 - from_top, size)
}

/// The dialect's two letters for `point` on a board of `size`.
pub fn format_point(point: Point, size: usize) -> String {
    let col = point.index() % size;
    let from_top = size - 1 - point.index() / size;
    let letter = |i: usize| char::from(b'A' + i as u8);
    format!("{}{}", letter(from_top), letter(col))
}

/// A try as the dialect names it in logs: `XY (GTP vertex)` or `pass`.
pub fn format_try(mv: Move, size: usize) -> String {
    match mv {
        Move::Play(point) => format!("{} ({})", format_point(point, size), mv.to_vertex(size)),
        Move::Pass => "pass".to_string(),
    }
}

/// The answer line for a try: `move XY` or `move pass`.
pub fn format_move(mv: Move, size: usize) -> String {
    match mv {
        Move::Play(point) => format!("move {}", format_point(point, size)),
        Move::Pass => "move pass".to_string(),
    }
}

/// The points after the count: written together (`DEDF`) or apart (`DE DF`).
fn parse_points(words: &[&str], size: usize) -> Result<Vec<Point>, LineError> {
    let joined: String = words.concat();
    if !joined.len().is_multiple_of(2) || !joined.is_ascii() {
        return Err(LineError::BadPoint(words.join(" ")));
    }
    (0..joined.len())
        .step_by(2)
        .map(|i| parse_point(&joined[i..i + 2], size).ok_or_else(|| LineError::BadPoint(joined[i..i + 2].to_string())))
        .collect()
}

/// Parses one line (already cleaned of control characters) for a board of `size`.
///
/// # Errors
/// [`LineError`] for anything that is not a line of the dialect.
pub fn parse(text: &str, size: usize) -> Result<Line, LineError> {
    let lower = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let bad = || LineError::BadArguments(text.trim().chars().take(80).collect());
    let Some((&first, rest)) = words.split_first() else {
        return Err(LineError::UnknownWord(String::new()));
    };
    let no_args = |line: Line| if rest.is_empty() { Ok(line) } else { Err(bad()) };
    match first {
        "name?" => no_args(Line::Name),
        "name" if rest == ["?"] => Ok(Line::Name),
        "accept" => no_args(Line::Accept),
        "refuse" => no_args(Line::Refuse),
        "end" => no_args(Line::End),
        "error" => Ok(Line::Error),
        "quit" => no_args(Line::Quit),
        "new" => match rest {
            ["black"] => Ok(Line::New(Color::Black)),
            ["white"] => Ok(Line::New(Color::White)),
            _ => Err(bad()),
        },
        "move" => match rest {
            ["go"] => Ok(Line::MoveGo),
            ["pass"] => Ok(Line::MovePass),
            _ => Err(bad()),
        },
        "take" | "taked" => {
            let (count, points) = rest.split_first().ok_or_else(bad)?;
            let count: usize = count.parse().map_err(|_| bad())?;
            let points = parse_points(points, size)?;
            Ok(if first == "take" { Line::Take { count, points } } else { Line::Taked { count, points } })
        }
        other => Err(LineError::UnknownWord(other.chars().take(40).collect())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_vertex;

    fn gtp(vertex: &str) -> Point {
        parse_vertex(vertex, 9).unwrap().point().unwrap()
    }

    #[test]
    fn points_are_row_from_the_top_then_column_and_use_the_letter_i() {
        assert_eq!(parse_point("AA", 9), Some(gtp("A9")));
        assert_eq!(parse_point("IA", 9), Some(gtp("A1")));
        assert_eq!(parse_point("AI", 9), Some(gtp("J9")));
        assert_eq!(parse_point("ee", 9), Some(gtp("E5")));
        assert_eq!(parse_point("BC", 9), Some(gtp("C8")));
        assert_eq!(parse_point("JA", 9), None);
        assert_eq!(parse_point("A", 9), None);
        assert_eq!(parse_point("A1", 9), None);
        for index in 0..81 {
            let point = Point::new(index).unwrap();
            assert_eq!(parse_point(&format_point(point, 9), 9), Some(point));
        }
        assert_eq!(format_move(Move::Play(gtp("J1")), 9), "move II");
        assert_eq!(format_move(Move::Pass, 9), "move pass");
        assert_eq!(format_try(Move::Play(gtp("E5")), 9), "EE (E5)");
        assert_eq!(format_try(Move::Play(gtp("J1")), 9), "II (J1)");
        assert_eq!(format_try(Move::Pass, 9), "pass");
    }

    #[test]
    fn every_line_of_the_contract() {
        assert_eq!(parse("name?", 9), Ok(Line::Name));
        assert_eq!(parse("  NEW Black\r", 9), Ok(Line::New(Color::Black)));
        assert_eq!(parse("new white", 9), Ok(Line::New(Color::White)));
        assert_eq!(parse("accept", 9), Ok(Line::Accept));
        assert_eq!(parse("refuse", 9), Ok(Line::Refuse));
        assert_eq!(parse("move go", 9), Ok(Line::MoveGo));
        assert_eq!(parse("move  pass", 9), Ok(Line::MovePass));
        assert_eq!(parse("end", 9), Ok(Line::End));
        assert_eq!(parse("error", 9), Ok(Line::Error));
        assert_eq!(parse("quit", 9), Ok(Line::Quit));
        let two = vec![gtp("D6"), gtp("F6")];
        assert_eq!(parse("take 2 DDDF", 9), Ok(Line::Take { count: 2, points: two.clone() }));
        assert_eq!(parse("take 2 DD DF", 9), Ok(Line::Take { count: 2, points: two.clone() }));
        assert_eq!(parse("taked 3 dd df", 9), Ok(Line::Taked { count: 3, points: two }));
        assert_eq!(parse("take 0", 9), Ok(Line::Take { count: 0, points: vec![] }));
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(matches!(parse("fly", 9), Err(LineError::UnknownWord(_))));
        assert!(matches!(parse("", 9), Err(LineError::UnknownWord(_))));
        assert!(matches!(parse("new red", 9), Err(LineError::BadArguments(_))));
        assert!(matches!(parse("move EE", 9), Err(LineError::BadArguments(_))));
        assert!(matches!(parse("take", 9), Err(LineError::BadArguments(_))));
        assert!(matches!(parse("take x AA", 9), Err(LineError::BadArguments(_))));
        assert!(matches!(parse("take 1 AZ", 9), Err(LineError::BadPoint(_))));
        assert!(matches!(parse("take 1 AAA", 9), Err(LineError::BadPoint(_))));
        assert!(matches!(parse("take 1 ÄA", 9), Err(LineError::BadPoint(_))));
        assert!(matches!(parse("accept now", 9), Err(LineError::BadArguments(_))));
    }
}
