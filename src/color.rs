//! `Color` (Black, White) and `ByColor<T>`, a pair indexed by colour.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A player's colour (`"black"` / `"white"` in JSON).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Black, who moves first.
    Black,
    /// White.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a GTP colour: `b`, `black`, `w`, `white` (case-insensitive).
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// One value per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> ByColor<T> {
    /// A pair from Black's and White's values.
    pub const fn new(black: T, white: T) -> Self {
        ByColor([black, white])
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, color: Color) -> &T {
        &self.0[color.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, color: Color) -> &mut T {
        &mut self.0[color.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_opponent() {
        assert_eq!(Color::parse("B"), Some(Color::Black));
        assert_eq!(Color::parse("white"), Some(Color::White));
        assert_eq!(Color::parse("x"), None);
        assert_eq!(Color::Black.opponent(), Color::White);
        let mut pair = ByColor::new(1, 2);
        pair[Color::White] += 5;
        assert_eq!(pair[Color::White], 7);
    }
}
