//! The true position: stones by colour, captures before suicide, simple ko and an incremental Zobrist hash.

use crate::bitboard::{chain_liberty_search, Bitboard, Geometry, Shape};
use crate::color::{ByColor, Color};
use crate::point::{Point, MAX_AREA};
use std::fmt;

/// Why a stone cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The point holds a stone.
    Occupied,
    /// The stone's group would have no liberty and nothing is captured.
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    /// The move recreates an earlier whole-board position (positional superko, when enabled).
    Superko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "point is occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko recapture",
            IllegalMove::Superko => "superko",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Zobrist keys: one per colour and point, from a fixed seed (splitmix64), built at compile time.
static ZOBRIST_KEYS: [[u64; MAX_AREA]; 2] = {
    let mut keys = [[0u64; MAX_AREA]; 2];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut color = 0;
    while color < 2 {
        let mut index = 0;
        while index < MAX_AREA {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[color][index] = z ^ (z >> 31);
            index += 1;
        }
        color += 1;
    }
    keys
};

/// The Zobrist key of a stone of `color` at `point`.
#[inline]
pub fn zobrist_key(color: Color, point: Point) -> u64 {
    ZOBRIST_KEYS[color.index()][point.index()]
}

/// The Zobrist hash of a set of stones of one colour.
pub fn zobrist_of(color: Color, stones: Bitboard) -> u64 {
    stones.iter().fold(0, |h, p| h ^ zobrist_key(color, p))
}

/// A Go position: stones of each colour and the simple-ko point, on one board size.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    geometry: &'static Geometry,
    stones: ByColor<Bitboard>,
    /// The point the given colour may not play next (simple ko).
    ko: Option<(Point, Color)>,
    hash: u64,
}

impl Board {
    /// An empty board of `size` (2..=11), or `None` for an unsupported size.
    pub fn new(size: usize) -> Option<Board> {
        Geometry::of(size).map(|geometry| Board { geometry, stones: ByColor::default(), ko: None, hash: 0 })
    }

    /// Builds a position from stone masks (no captures are applied; groups without liberties are the caller's concern).
    pub fn from_stones(size: usize, black: Bitboard, white: Bitboard) -> Option<Board> {
        let mut board = Board::new(size)?;
        let mask = board.geometry.mask();
        let black = black & mask;
        let white = (white & mask) - black;
        board.stones = ByColor::new(black, white);
        board.hash = zobrist_of(Color::Black, black) ^ zobrist_of(Color::White, white);
        Some(board)
    }

    /// Builds a position from a picture: rows top first, `X` black, `O` white, anything else empty.
    ///
    /// # Panics
    /// When the picture is not `size` rows of `size` points (a test helper).
    pub fn from_picture(size: usize, picture: &str) -> Board {
        let geometry = Geometry::of(size).expect("supported size");
        let black = geometry.parse_picture(&picture.replace(['O', 'o'], "."));
        let white = geometry.parse_picture(&picture.replace(['X', 'x'], ".").replace(['O', 'o'], "X"));
        Board::from_stones(size, black, white).expect("supported size")
    }

    /// The board geometry.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Board side length.
    #[inline]
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// Stones of `color`.
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color]
    }

    /// All stones.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[Color::Black] | self.stones[Color::White]
    }

    /// Empty points.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.geometry.mask() - self.occupied()
    }

    /// The colour of the stone at `point`, if any.
    pub fn color_at(&self, point: Point) -> Option<Color> {
        Color::BOTH.into_iter().find(|&c| self.stones[c].contains(point))
    }

    /// The simple-ko point and the colour forbidden to play it next.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    /// Zobrist hash of the stones (not of the ko point).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Clears the ko point (a pass, or any turn that is not a stone).
    #[inline]
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// The chain through `point` and its liberties (empty chain if the point is empty).
    pub fn group_and_liberties(&self, point: Point) -> (Bitboard, Bitboard) {
        match self.color_at(point) {
            Some(c) => self.geometry.group_and_liberties(point, self.stones[c], self.empty()),
            None => (Bitboard::EMPTY, Bitboard::EMPTY),
        }
    }

    /// Plays a stone of `color` at `point`, applying captures; returns the captured stones.
    /// Captures come before the suicide test; the board is unchanged on error.
    ///
    /// # Errors
    /// [`IllegalMove::Occupied`], [`IllegalMove::Ko`] or [`IllegalMove::Suicide`].
    #[inline]
    pub fn try_play(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove> {
        debug_assert!(self.geometry.mask().contains(point));
        if self.occupied().contains(point) {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some((point, color)) {
            return Err(IllegalMove::Ko);
        }
        self.play_on_empty(color, point)
    }

    /// What [`Board::try_play`] would answer, without changing the board.
    pub fn legality(&self, color: Color, point: Point) -> Result<(), IllegalMove> {
        let mut copy = self.clone();
        copy.try_play(color, point).map(|_| ())
    }

    /// Plays at an empty point that is not the ko point for `color`; returns the captured stones.
    ///
    /// # Errors
    /// [`IllegalMove::Suicide`] when the stone's group would have no liberty.
    #[inline]
    pub fn play_on_empty(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove> {
        let mut lively = Bitboard::EMPTY;
        self.play_on_empty_in(self.geometry, color, point, &mut lively)
    }

    /// [`Board::play_on_empty`] with the board operations of `shape` (which must match the board's size).
    ///
    /// `lively` holds opponent stones whose chains are known to have two liberties or more, so they cannot be
    /// captured and need no flood; the stones of any chain found to have a liberty besides `point` (which is one
    /// too) are added. It describes the current position only: clear it once a move succeeds.
    #[inline]
    pub(crate) fn play_on_empty_in<S: Shape>(
        &mut self,
        shape: S,
        color: Color,
        point: Point,
        lively: &mut Bitboard,
    ) -> Result<Bitboard, IllegalMove> {
        debug_assert_eq!(shape.mask(), self.geometry.mask());
        let bit = Bitboard::from_point(point);
        let neighbours = shape.neighbours(point);
        let opponent = color.opponent();
        let own = self.stones[color] | bit;
        let opponent_stones = self.stones[opponent];
        let empty = shape.mask() - own - opponent_stones;

        let mut captured = Bitboard::EMPTY;
        // Enemy neighbours with a liberty of their own are skipped in bulk (no data-dependent branch per stone).
        let mut enemies = (neighbours & opponent_stones) - *lively - shape.adjacent(empty);
        while let Some(neighbour) = enemies.first() {
            match chain_liberty_search(shape, neighbour, opponent_stones, empty) {
                Ok(chain) => {
                    captured |= chain;
                    enemies -= chain;
                }
                // The part of the chain already seen reaches a liberty besides `point`: other neighbours in it
                // need no flood, nor does any stone of it on later tries in this position.
                Err(part) => {
                    enemies -= part;
                    *lively |= part;
                }
            }
        }

        // Suicide: nothing captured, no empty neighbour, and no friendly neighbour chain with another liberty.
        if captured.is_empty()
            && (neighbours & empty).is_empty()
            && ((neighbours & own).is_empty() || chain_liberty_search(shape, point, own, empty).is_ok())
        {
            return Err(IllegalMove::Suicide);
        }

        self.stones[color] = own;
        self.hash ^= zobrist_key(color, point);
        self.ko = None;
        if captured.any() {
            self.stones[opponent] = opponent_stones - captured;
            for stone in captured.iter() {
                self.hash ^= zobrist_key(opponent, stone);
            }
            // Simple ko: one stone captured by a lone stone that now has that point as its only liberty.
            if !captured.has_several() && (neighbours & own).is_empty() && (neighbours & (empty | captured)) == captured
            {
                self.ko = captured.first().map(|p| (p, opponent));
            }
        }
        debug_assert!(self.is_consistent());
        Ok(captured)
    }

    /// Removes the given stones (of either colour) without any rule check; used by the belief to edit hypotheses.
    pub fn remove_stones(&mut self, stones: Bitboard) {
        for color in Color::BOTH {
            let gone = self.stones[color] & stones;
            for stone in gone.iter() {
                self.hash ^= zobrist_key(color, stone);
            }
            self.stones[color] -= gone;
        }
        self.ko = None;
    }

    /// Puts a stone on an empty point without any rule check; used by the belief to edit hypotheses.
    pub fn put_stone(&mut self, color: Color, point: Point) {
        debug_assert!(!self.occupied().contains(point));
        self.stones[color].insert(point);
        self.hash ^= zobrist_key(color, point);
    }

    /// Replaces the stones (no rule check; the hash follows). Used to copy a [`crate::ChainBoard`] back.
    pub(crate) fn set_stones(&mut self, black: Bitboard, white: Bitboard) {
        debug_assert!((black & white).is_empty() && ((black | white) - self.geometry.mask()).is_empty());
        self.stones = ByColor::new(black, white);
        self.hash = zobrist_of(Color::Black, black) ^ zobrist_of(Color::White, white);
    }

    /// Sets the ko point (used when replaying a known position).
    pub fn set_ko(&mut self, ko: Option<(Point, Color)>) {
        self.ko = ko;
    }

    /// Structural invariants: colours disjoint and on the board, hash matches, no chain without a liberty.
    pub fn is_consistent(&self) -> bool {
        let mask = self.geometry.mask();
        let black = self.stones[Color::Black];
        let white = self.stones[Color::White];
        if (black & white).any() || (black - mask).any() || (white - mask).any() {
            return false;
        }
        if self.hash != zobrist_of(Color::Black, black) ^ zobrist_of(Color::White, white) {
            return false;
        }
        self.chains_without_liberty().is_empty()
    }

    /// Stones (of either colour) whose chain has no liberty; empty in any legal position.
    pub fn chains_without_liberty(&self) -> Bitboard {
        let empty = self.empty();
        let mut dead = Bitboard::EMPTY;
        for color in Color::BOTH {
            let stones = self.stones[color];
            let alive = self.geometry.flood(self.geometry.adjacent(empty) & stones, stones);
            dead |= stones - alive;
        }
        dead
    }

    /// Single-point eyes of `color`: empty points whose every neighbour is a stone of `color`.
    #[inline]
    pub fn single_point_eyes(&self, color: Color) -> Bitboard {
        self.single_point_eyes_in(self.geometry, color)
    }

    /// [`Board::single_point_eyes`] with the board operations of `shape` (which must match the board's size).
    #[inline]
    pub(crate) fn single_point_eyes_in<S: Shape>(&self, shape: S, color: Color) -> Bitboard {
        let others = shape.mask() - self.stones[color];
        (others - self.stones[color.opponent()]) - shape.adjacent(others)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{} ko={:?}", self.size(), self.size(), self.ko)?;
        f.write_str(&self.picture())
    }
}

impl Board {
    /// The position as text, top row first: `X` black, `O` white, `.` empty.
    pub fn picture(&self) -> String {
        let size = self.size();
        let mut out = String::new();
        for row in (0..size).rev() {
            for col in 0..size {
                let p = Point::from_coords(col, row, size).expect("on board");
                out.push(match self.color_at(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}
