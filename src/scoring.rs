//! Area scoring (Tromp-Taylor: stones plus empty regions that reach only one colour) and result strings.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use std::fmt;

/// Area of each colour on a board: its stones plus empty points that reach only its stones.
pub fn area(board: &Board) -> ByColor<u32> {
    let territory = territory(board);
    ByColor::new(
        board.stones(Color::Black).count() + territory[Color::Black].count(),
        board.stones(Color::White).count() + territory[Color::White].count(),
    )
}

/// Empty points that reach stones of one colour only, per colour.
pub fn territory(board: &Board) -> ByColor<Bitboard> {
    let geometry = board.geometry();
    let empty = board.empty();
    let reach = |color: Color| geometry.flood(geometry.adjacent(board.stones(color)) & empty, empty);
    let black = reach(Color::Black);
    let white = reach(Color::White);
    ByColor::new(black - white, white - black)
}

/// Stones of each colour left standing inside the other colour's area (invaders): a stone of colour C counts when
/// the connected region of points not holding the opponent's stones (C stones and empty points, 4-connected) that
/// contains it is bordered only by opponent stones (the board's edge aside; a region with no opponent stone
/// around it at all does not count) and covers at most a fifth of the board's points: a small enclosed group, not
/// a half board cut off by a wall, and its chain is not unconditionally alive ([`invader_stones`]). Area scoring
/// (Tromp-Taylor) counts such stones where they stand, whatever their life.
pub fn invaders(board: &Board) -> ByColor<u32> {
    ByColor::new(invader_stones(board, Color::Black).count(), invader_stones(board, Color::White).count())
}

/// The stones of `color` that [`invaders`] counts: those standing in a small region enclosed by the other colour,
/// less the chains that are alive whatever the other colour plays ([`unconditionally_alive`]): a living group in
/// its own eyes is not an invader left to capture.
pub fn invader_stones(board: &Board, color: Color) -> Bitboard {
    let enclosed = enclosed_stones(board, color);
    if enclosed.is_empty() {
        return enclosed;
    }
    enclosed - unconditionally_alive(board, color)
}

/// The chains of `color` that no sequence of the other colour's moves can capture (Benson's algorithm, 1976):
/// a chain stays while it borders two regions (maximal connected sets of points not holding `color`) whose
/// empty points are all its liberties and whose bordering chains all stay; a region goes when it borders a
/// chain that went.
pub fn unconditionally_alive(board: &Board, color: Color) -> Bitboard {
    let geometry = board.geometry();
    let ours = board.stones(color);
    let empty = board.empty();
    let chains: Vec<Bitboard> = geometry.components(ours).collect();
    let regions: Vec<Bitboard> = geometry.components(geometry.mask() - ours).collect();
    let liberties: Vec<Bitboard> = chains.iter().map(|&chain| geometry.adjacent(chain) & empty).collect();
    let around: Vec<Bitboard> = regions.iter().map(|&region| geometry.adjacent(region) & ours).collect();
    let mut alive = vec![true; chains.len()];
    let mut healthy = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (index, chain) in chains.iter().enumerate() {
            if !alive[index] {
                continue;
            }
            let vital = (0..regions.len())
                .filter(|&r| {
                    healthy[r] && (around[r] & *chain).any() && ((regions[r] & empty) - liberties[index]).is_empty()
                })
                .count();
            if vital < 2 {
                alive[index] = false;
                changed = true;
            }
        }
        for (r, region_around) in around.iter().enumerate() {
            if healthy[r] && chains.iter().zip(&alive).any(|(&chain, &stays)| !stays && (chain & *region_around).any())
            {
                healthy[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    chains.iter().zip(&alive).filter(|(_, &stays)| stays).fold(Bitboard::EMPTY, |all, (&chain, _)| all | chain)
}

/// The stones of `color` standing in a small region enclosed by the other colour, alive or not.
fn enclosed_stones(board: &Board, color: Color) -> Bitboard {
    let geometry = board.geometry();
    let them = board.stones(color.opponent());
    let open = geometry.mask() - them;
    let mut left = board.stones(color);
    let mut invaders = Bitboard::EMPTY;
    while let Some(point) = left.first() {
        let region = geometry.flood(Bitboard::from_point(point), open);
        left -= region;
        let small = 5 * region.count() as usize <= geometry.area();
        // Maximal within `open`, the region's outside neighbours are all opponent stones.
        if small && (geometry.adjacent(region) & them).any() {
            invaders |= region & board.stones(color);
        }
    }
    invaders
}

/// Black's area minus White's area minus komi.
pub fn score(board: &Board, komi: f32) -> f32 {
    let a = area(board);
    a[Color::Black] as f32 - a[Color::White] as f32 - komi
}

/// Who wins a game whose area margin is exactly zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieRule {
    /// A draw (GTP games; komi is usually fractional anyway).
    #[default]
    Draw,
    /// White wins (the Chinese championship's rule).
    White,
}

impl std::str::FromStr for TieRule {
    type Err = String;
    /// `draw` or `white`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "draw" => Ok(TieRule::Draw),
            "white" => Ok(TieRule::White),
            other => Err(format!("'{other}' is not white or draw")),
        }
    }
}

impl TieRule {
    /// `draw` or `white`, as the options and records spell it.
    pub fn name(self) -> &'static str {
        match self {
            TieRule::Draw => "draw",
            TieRule::White => "white",
        }
    }

    /// The reward (1 win, 0 loss, 0.5 draw) of a final `margin` (Black's area minus White's and komi) for `us`.
    pub fn reward(self, margin: f32, us: Color) -> f32 {
        let winner = GameResult { margin }.winner_under(self);
        match winner {
            Some(color) if color == us => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// A final result: the winner and margin, or a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// Black's area minus White's area minus komi.
    pub margin: f32,
}

impl GameResult {
    /// The result of the position on `board` with `komi`.
    pub fn of(board: &Board, komi: f32) -> GameResult {
        GameResult { margin: score(board, komi) }
    }

    /// The winner under `tie`: on a zero margin, White or nobody.
    pub fn winner_under(self, tie: TieRule) -> Option<Color> {
        match (self.winner(), tie) {
            (None, TieRule::White) => Some(Color::White),
            (winner, _) => winner,
        }
    }

    /// The result as records write it under `tie`: `B+3.5`, `W+0.5`; on a zero margin `0` (a draw) or
    /// `W+0` (the tie goes to White).
    pub fn to_string_under(self, tie: TieRule) -> String {
        match (self.winner(), self.winner_under(tie)) {
            (None, Some(color)) => format!("{}+0", color.letter()),
            _ => self.to_string(),
        }
    }

    /// The winner, `None` on a draw.
    pub fn winner(self) -> Option<Color> {
        if self.margin > 0.0 {
            Some(Color::Black)
        } else if self.margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for GameResult {
    /// `B+3.5`, `W+0.5` or `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(c) => write!(f, "{}+{}", c.letter(), self.margin.abs()),
            None => f.write_str("0"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tie_goes_to_white_only_under_that_rule() {
        let tie = GameResult { margin: 0.0 };
        assert_eq!(tie.winner_under(TieRule::Draw), None);
        assert_eq!(tie.winner_under(TieRule::White), Some(Color::White));
        assert_eq!(GameResult { margin: 0.5 }.winner_under(TieRule::White), Some(Color::Black));
        assert_eq!(tie.to_string_under(TieRule::Draw), "0");
        assert_eq!(tie.to_string_under(TieRule::White), "W+0");
        assert_eq!(GameResult { margin: -1.0 }.to_string_under(TieRule::White), "W+1");
        assert_eq!(GameResult { margin: 2.5 }.to_string_under(TieRule::White), "B+2.5");
        assert_eq!(("white".parse::<TieRule>().map(TieRule::name)), Ok("white"));
        assert_eq!(TieRule::Draw.name(), "draw");
        assert_eq!(TieRule::White.reward(0.0, Color::Black), 0.0);
        assert_eq!(TieRule::White.reward(0.0, Color::White), 1.0);
        assert_eq!(TieRule::Draw.reward(0.0, Color::Black), 0.5);
        assert_eq!(TieRule::Draw.reward(-2.0, Color::White), 1.0);
        assert_eq!("White".parse(), Ok(TieRule::White));
        assert!("black".parse::<TieRule>().is_err());
    }

    #[test]
    fn empty_board_is_komi_for_white() {
        let board = Board::new(9).unwrap();
        assert_eq!(GameResult::of(&board, 7.5).to_string(), "W+7.5");
        assert_eq!(GameResult::of(&board, 0.0).to_string(), "0");
    }

    #[test]
    fn eyes_territory_and_neutral_points() {
        // Black owns the left, White the right; C3 touches both colours and is neutral.
        let board = Board::from_picture(
            5,
            "X . X O .
             X X X O .
             . X . O O
             X X X O .
             . X O . O",
        );
        let t = territory(&board);
        // Black: B5, A3, A1 (C3 also touches D3, so it is neutral).
        assert_eq!(t[Color::Black].count(), 3);
        // White: E5, E4, E2, D1.
        assert_eq!(t[Color::White].count(), 4);
        let a = area(&board);
        assert_eq!(a[Color::Black], 10 + 3);
        assert_eq!(a[Color::White], 7 + 4);
        assert_eq!(GameResult::of(&board, 0.5).to_string(), "B+1.5");
    }

    #[test]
    fn an_invader_counts_inside_a_small_enclosed_region() {
        // White's B8 stands in Black's 12-point corner; Black's J1 in White's 4-point corner. White's G5 and
        // Black's wall belong to regions larger than a fifth of the board.
        let board = Board::from_picture(
            9,
            ". . . . X . . . .
             . O . . X . . . .
             . . . . X . . . .
             X X X X X . . . .
             . . . . . . O . .
             . . . . . . . . .
             . . . . . . . O O
             . . . . . . O . .
             . . . . . . O . X",
        );
        let found = invaders(&board);
        assert_eq!((found[Color::Black], found[Color::White]), (1, 1));
        let empty = invaders(&Board::new(9).unwrap());
        assert_eq!((empty[Color::Black], empty[Color::White]), (0, 0));
    }

    #[test]
    fn a_group_alive_in_two_eyes_is_no_invader() {
        // White's top-left group has two eyes (A7, C8) inside Black's wall: alive, so no invader; with C8 filled
        // by White (one eye left) the same stones are invaders Black can capture.
        let picture = |c8: &str| {
            format!(
                "O O O O X . . . .
                 O O {c8} O X . . . .
                 . O O X . . . . .
                 O O O X . . . . .
                 X X X X . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . ."
            )
        };
        let alive = Board::from_picture(9, &picture("."));
        assert_eq!(unconditionally_alive(&alive, Color::White).count(), 12);
        assert_eq!(invaders(&alive)[Color::White], 0);
        let one_eye = Board::from_picture(9, &picture("O"));
        assert_eq!(unconditionally_alive(&one_eye, Color::White), Bitboard::EMPTY);
        assert_eq!(invaders(&one_eye)[Color::White], 13);
        // Black's wall has no eyes of its own: not unconditionally alive, and no invader either (its region is
        // most of the board).
        assert_eq!(unconditionally_alive(&alive, Color::Black), Bitboard::EMPTY);
        assert_eq!(invaders(&alive)[Color::Black], 0);
    }

    #[test]
    fn a_corner_chain_with_two_eyes_lives_and_with_one_does_not() {
        // Black's corner chain has the eyes A1 and B2.
        let two = Board::from_picture(
            5,
            ". . . . .
             . . . . .
             X X X . .
             X . X . .
             . X X . .",
        );
        assert_eq!(unconditionally_alive(&two, Color::Black), two.stones(Color::Black));
        // A single eye is not enough.
        let one = Board::from_picture(
            5,
            ". . . . .
             . . . . .
             X X X . .
             X . X . .
             X X X . .",
        );
        assert_eq!(unconditionally_alive(&one, Color::Black), Bitboard::EMPTY);
        // Four chains that share the eyes A1, B2, C1, D2 and E1 (each borders two of them) live together.
        let shared = Board::from_picture(
            5,
            ". . . . .
             . . . . .
             X X X X .
             X . X . X
             . X . X .",
        );
        assert_eq!(unconditionally_alive(&shared, Color::Black), shared.stones(Color::Black));
        // Without D1 the chain at E2 keeps only D2 (E1 now opens onto C1 and the big region): ...
        let open = Board::from_picture(
            5,
            ". . . . .
             . . . . .
             X X X X .
             X . X . X
             . X . . .",
        );
        // ... E2 borders the region {C1, D1, E1, D2}, whose empty points are not all its liberties: it dies, and
        // the chain above keeps A1 and B2.
        let alive = unconditionally_alive(&open, Color::Black);
        assert_eq!(alive.count(), 7, "{alive:?}");
        assert!(!alive.contains(crate::point::parse_vertex("E2", 5).unwrap().point().unwrap()));
    }

    #[test]
    fn a_half_board_behind_a_wall_is_not_an_invasion() {
        // White's 36-point top half is bordered only by Black's wall and the edge, but it is no invader.
        let board = Board::from_picture(
            9,
            ". . . . . . . . .
             . . . . . . O . .
             . . O . . . . . .
             . . . . . . . . .
             X X X X X X X X X
             . . . . . . . . .
             . . . . X . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        let found = invaders(&board);
        assert_eq!((found[Color::Black], found[Color::White]), (0, 0));
        // The same wall around a 16-point region (a fifth of 81 points rounds down to 16) makes invaders.
        let board = Board::from_picture(
            9,
            ". . . . X . . . .
             . O . . X . . . .
             . . . O X . . . .
             . . . . X . . . .
             X X X X X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        assert_eq!(invaders(&board)[Color::White], 2);
        // One row more (20 points) is more than a fifth of the board: no longer an invasion.
        let board = Board::from_picture(
            9,
            ". . . . X . . . .
             . O . . X . . . .
             . . . O X . . . .
             . . . . X . . . .
             . . . . X . . . .
             X X X X X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        assert_eq!(invaders(&board)[Color::White], 0);
    }

    #[test]
    fn dame_counts_for_nobody() {
        let board = Board::from_picture(
            3,
            "X . O
             X . O
             X . O",
        );
        let t = territory(&board);
        assert!(t[Color::Black].is_empty() && t[Color::White].is_empty());
        assert_eq!(GameResult::of(&board, 0.0).to_string(), "0");
    }
}
