//! Soundness checks of capture reports (`phantom-result ok V...`, `phantom-opponent ok V...`) against what
//! the engine knows for sure: its own stones (always exact) and the opponent stones it has seen.
//!
//! Every check refuses only reports no referee could send, whatever the hidden stones are: a point listed
//! twice; a capture of one of our stones by our own try; captured opponent stones that do not touch the try
//! or whose chain keeps a neighbour that is not ours (a captured chain's neighbours are all the capturer's
//! stones); a capture of a point that is not our stone; part of one of our chains (a capture takes whole
//! chains); our captured chains with no common neighbour (one stone took them all, so it touches each).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::Point;

/// The listed points as a set, refusing one listed twice.
///
/// # Errors
/// The point listed twice, in words.
pub fn distinct(points: &[Point], size: usize) -> Result<Bitboard, String> {
    let mut set = Bitboard::EMPTY;
    for &point in points {
        if set.contains(point) {
            return Err(format!("{} is listed twice", point.to_vertex(size)));
        }
        set.insert(point);
    }
    Ok(set)
}

/// Checks `phantom-result ok` captures of our try at `try_point` on `before` (the known board before it).
///
/// # Errors
/// The reason in words (the caller prefixes `inconsistent report: `).
pub fn own_captures(before: &Board, us: Color, try_point: Point, captured: &[Point]) -> Result<Bitboard, String> {
    let size = before.size();
    let geometry = before.geometry();
    let set = distinct(captured, size)?;
    if (set - geometry.mask()).any() {
        return Err("captured point off the board".into());
    }
    let own_after = before.stones(us) | Bitboard::from_point(try_point);
    if let Some(bad) = (set & own_after).first() {
        return Err(format!("{} holds our stone", bad.to_vertex(size)));
    }
    let mut rest = set;
    while let Some(seed) = rest.first() {
        // A connected part of the captured stones is one opponent chain: it touches the try, and every
        // neighbour it has is ours once the try stands.
        let chain = geometry.flood(Bitboard::from_point(seed), set);
        rest -= chain;
        let around = geometry.adjacent(chain) - chain;
        if !around.contains(try_point) {
            return Err("captured stones do not touch the try".into());
        }
        if let Some(free) = (around - own_after).first() {
            return Err(format!(
                "{} cannot be captured: its chain still has a neighbour at {} that is not our stone",
                seed.to_vertex(size),
                free.to_vertex(size)
            ));
        }
    }
    Ok(set)
}

/// Checks `phantom-opponent ok` captures of our stones on `board` (the known board, our pending try on it).
///
/// # Errors
/// The reason in words (the caller prefixes `inconsistent report: `).
pub fn opponent_captures(board: &Board, us: Color, captured: &[Point]) -> Result<Bitboard, String> {
    let size = board.size();
    let geometry = board.geometry();
    let ours = board.stones(us);
    if let Some(bad) = captured.iter().find(|p| !ours.contains(**p)) {
        return Err(format!("{} is not our stone", bad.to_vertex(size)));
    }
    let set = distinct(captured, size)?;
    let mut rest = set;
    let mut common = geometry.mask();
    while let Some(seed) = rest.first() {
        let chain = geometry.flood(Bitboard::from_point(seed), ours);
        if let Some(left) = (chain - set).first() {
            return Err(format!(
                "a capture takes whole chains: {} is captured but {} of its chain is not",
                seed.to_vertex(size),
                left.to_vertex(size)
            ));
        }
        rest -= chain;
        common &= geometry.adjacent(chain) - ours;
    }
    if set.any() && common.is_empty() {
        return Err("the captured chains have no common neighbour where the capturing stone could stand".into());
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(vertex: &str) -> Point {
        match crate::point::parse_vertex(vertex, 5) {
            Ok(crate::point::Move::Play(p)) => p,
            _ => panic!("{vertex}"),
        }
    }

    fn pts(vertices: &[&str]) -> Vec<Point> {
        vertices.iter().map(|v| pt(v)).collect()
    }

    #[test]
    fn our_captures_are_whole_surrounded_chains_touching_the_try() {
        // Black (us) before trying C2; a White stone could sit at B2 (hidden).
        let before = Board::from_picture(
            5,
            ". . . . .\n\
             . . . . .\n\
             . X . . .\n\
             X . . . .\n\
             . X . . .",
        );
        let try_point = pt("C2");
        assert_eq!(own_captures(&before, Color::Black, try_point, &pts(&["B2"])).map(|s| s.count()), Ok(1));
        assert!(own_captures(&before, Color::Black, try_point, &[]).is_ok());
        let twice = own_captures(&before, Color::Black, try_point, &pts(&["B2", "B2"])).unwrap_err();
        assert!(twice.contains("twice"), "{twice}");
        // D2 touches the try but keeps free neighbours (D3, E2, D1).
        let free = own_captures(&before, Color::Black, try_point, &pts(&["D2"])).unwrap_err();
        assert!(free.contains("not our stone"), "{free}");
        // A3 does not touch C2.
        let far = own_captures(&before, Color::Black, try_point, &pts(&["A1"])).unwrap_err();
        assert!(far.contains("do not touch"), "{far}");
        assert!(own_captures(&before, Color::Black, try_point, &pts(&["B3"])).unwrap_err().contains("our stone"));
    }

    #[test]
    fn opponent_captures_take_whole_chains_with_a_common_neighbour() {
        let board = Board::from_picture(
            5,
            ". . . . .\n\
             . . . . X\n\
             . . . . .\n\
             . X . . .\n\
             . X . . X",
        );
        assert!(opponent_captures(&board, Color::Black, &pts(&["B1", "B2"])).is_ok());
        let half = opponent_captures(&board, Color::Black, &pts(&["B2"])).unwrap_err();
        assert!(half.contains("whole chains") && half.contains("B1"), "{half}");
        let twice = opponent_captures(&board, Color::Black, &pts(&["B1", "B2", "B1"])).unwrap_err();
        assert!(twice.contains("twice"), "{twice}");
        assert!(opponent_captures(&board, Color::Black, &pts(&["C3"])).unwrap_err().contains("not our stone"));
        // E1 and E4 share no neighbour: one stone cannot take both.
        let apart = opponent_captures(&board, Color::Black, &pts(&["E1", "E4"])).unwrap_err();
        assert!(apart.contains("common neighbour"), "{apart}");
        assert!(opponent_captures(&board, Color::Black, &pts(&["E1"])).is_ok());
    }
}
