//! SGF (`FF[4]`) of the true game of a match: both colours' stones as played on the referee's board, with
//! comments recording illegal tries and what each side was told.

use crate::color::Color;
use crate::judge::IllegalRule;
use crate::point::Move;
use std::fmt::Write;

/// One node: a move (a stone or a pass) by `color`, or a comment-only node when `mv` is `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfNode {
    /// Who moved.
    pub color: Color,
    /// The move; `None` for a node that only carries a comment (a resignation, a game cut short).
    pub mv: Option<Move>,
    /// Comment (`C[]`), empty for none.
    pub comment: String,
}

/// A whole game to write.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f32,
    /// Illegal-try rule.
    pub rule: IllegalRule,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// `RE[]` value.
    pub result: String,
    /// Game index.
    pub game: u64,
    /// Game seed.
    pub seed: u64,
    /// The moves.
    pub nodes: Vec<SgfNode>,
    /// A comment on the last node: how the game ended.
    pub final_comment: String,
}

/// Escapes a property value (`\` and `]`).
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF coordinate of a move (`ee`), empty for a pass. SGF counts rows from the top.
pub fn coordinate(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => String::new(),
        Move::Play(point) => {
            let col = point.index() % size;
            let row = point.index() / size;
            let letter = |n: usize| (b'a' + n as u8) as char;
            format!("{}{}", letter(col), letter(size - 1 - row))
        }
    }
}

impl SgfGame {
    /// The SGF text.
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "(;FF[4]GM[1]CA[UTF-8]AP[phantomgo:{}]SZ[{}]KM[{}]RU[{}]PB[{}]PW[{}]RE[{}]GN[game {} seed {}]",
            env!("CARGO_PKG_VERSION"),
            self.size,
            self.komi,
            escape(&format!("Phantom Go, illegal tries: {}, area scoring", self.rule)),
            escape(&self.black),
            escape(&self.white),
            escape(&self.result),
            self.game,
            self.seed
        );
        let _ = write!(
            out,
            "C[{}]",
            escape("True game as judged by the phantomgo match runner; each player saw only its own stones.")
        );
        let last = self.nodes.len();
        for (i, node) in self.nodes.iter().enumerate() {
            out.push_str("\n;");
            if let Some(mv) = node.mv {
                let _ = write!(out, "{}[{}]", node.color.letter(), coordinate(mv, self.size));
            }
            let mut comment = node.comment.clone();
            if i + 1 == last && !self.final_comment.is_empty() {
                if !comment.is_empty() {
                    comment.push('\n');
                }
                comment.push_str(&self.final_comment);
            }
            if !comment.is_empty() {
                let _ = write!(out, "C[{}]", escape(&comment));
            }
        }
        if last == 0 && !self.final_comment.is_empty() {
            let _ = write!(out, "\n;C[{}]", escape(&self.final_comment));
        }
        out.push_str(")\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_vertex;

    #[test]
    fn coordinates_count_rows_from_the_top() {
        assert_eq!(coordinate(parse_vertex("A1", 9).unwrap(), 9), "ai");
        assert_eq!(coordinate(parse_vertex("J9", 9).unwrap(), 9), "ia");
        assert_eq!(coordinate(parse_vertex("E5", 9).unwrap(), 9), "ee");
        assert_eq!(coordinate(Move::Pass, 9), "");
    }

    #[test]
    fn writes_header_moves_and_escaped_comments() {
        let game = SgfGame {
            size: 9,
            komi: 7.5,
            rule: IllegalRule::Retry,
            black: "a]b".into(),
            white: "w".into(),
            result: "B+3.5".into(),
            game: 0,
            seed: 1,
            nodes: vec![
                SgfNode {
                    color: Color::Black,
                    mv: Some(parse_vertex("E5", 9).unwrap()),
                    comment: "told black: phantom-result ok".into(),
                },
                SgfNode { color: Color::White, mv: Some(Move::Pass), comment: String::new() },
            ],
            final_comment: "two_passes".into(),
        };
        let sgf = game.to_sgf();
        assert!(sgf.starts_with("(;FF[4]GM[1]"));
        assert!(sgf.contains("SZ[9]KM[7.5]"));
        assert!(sgf.contains("PB[a\\]b]"));
        assert!(sgf.contains(";B[ee]C[told black: phantom-result ok]"));
        assert!(sgf.contains(";W[]C[two_passes]"));
        assert!(sgf.contains("RE[B+3.5]"));
        assert!(sgf.trim_end().ends_with(')'));
    }
}
