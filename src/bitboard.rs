//! Bitboard: a set of board points as a private 128-bit mask, with the board geometry that shifts it.

use crate::point::{Point, MAX_AREA, MAX_SIZE, MIN_SIZE};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign};
use std::sync::OnceLock;

pub(crate) mod select;

/// `POINT_BITS[i] == 1 << i`: a table load is cheaper than a variable shift of a 128-bit word.
const POINT_BITS: [u128; 128] = {
    let mut bits = [0u128; 128];
    let mut index = 0;
    while index < 128 {
        bits[index] = 1 << index;
        index += 1;
    }
    bits
};

/// A set of points, one bit per point index (`row * size + col`), bits 0..121 used.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Builds a bitboard from raw bits (bit i = point index i).
    #[inline]
    pub const fn from_bits(bits: u128) -> Self {
        Bitboard(bits)
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `point`.
    #[inline]
    pub const fn from_point(point: Point) -> Self {
        Bitboard(POINT_BITS[point.index() & 127])
    }

    /// True when no point is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one point is in the set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `point` is in the set.
    #[inline]
    pub const fn contains(self, point: Point) -> bool {
        self.0 & POINT_BITS[point.index() & 127] != 0
    }

    /// Adds `point`.
    #[inline]
    pub fn insert(&mut self, point: Point) {
        self.0 |= POINT_BITS[point.index() & 127];
    }

    /// Removes `point`.
    #[inline]
    pub fn remove(&mut self, point: Point) {
        self.0 &= !POINT_BITS[point.index() & 127];
    }

    /// The lowest-index point, if any.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// True when the set has more than one point.
    #[inline]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The `n`-th point (0-based, in index order); `None` when `n >= count()`.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Point> {
        if n >= self.count() {
            return None;
        }
        let low = self.0 as u64;
        let low_count = low.count_ones();
        // Branch-free choice of the word that holds the bit (compiles to conditional moves).
        let (word, base, rank) = if n < low_count { (low, 0, n) } else { ((self.0 >> 64) as u64, 64, n - low_count) };
        Some(Point::from_index_unchecked((base + select_u64(word, rank)) as u8))
    }

    /// The set without its lowest-index point.
    #[inline]
    pub const fn without_first(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_sub(1))
    }

    /// Iterates the points in index order.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter { low: self.0 as u64, high: (self.0 >> 64) as u64 }
    }
}

/// `SELECT_IN_BYTE[byte * 8 + n]`: the index of the `n`-th set bit of `byte` (0 when there is none).
static SELECT_IN_BYTE: [u8; 256 * 8] = {
    let mut table = [0u8; 256 * 8];
    let mut byte = 0;
    while byte < 256 {
        let mut n = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte * 8 + n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Index of the `n`-th set bit of `word` (`n < word.count_ones()`), without branches: bytewise popcounts and
/// their prefix sums locate the byte (Vigna, "Broadword implementation of rank/select queries"), then a table
/// finishes within the byte. (BMI2 `pdep` would be shorter but is not in the x86-64-v2 baseline.)
#[inline]
fn select_u64(word: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `prefix` counts the set bits of bytes 0..=i (at most 64, so no byte overflows).
    let prefix = counts.wrapping_mul(ONES);
    // Byte i gets its high bit when n >= prefix[i]; those bytes all lie below the one holding the bit.
    let below = (((n as u64 * ONES) | HIGHS) - prefix) & HIGHS;
    let shift = below.count_ones() * 8;
    let before = ((prefix << 8) >> shift) as u32 & 0xFF;
    let byte = (word >> shift) as usize & 0xFF;
    shift + SELECT_IN_BYTE[byte * 8 + (n - before) as usize] as u32
}

/// Iterator over the points of a [`Bitboard`], lowest index first (the low 64-bit word, then the high one:
/// clearing the lowest bit of one word is cheaper than of the 128-bit pair).
#[derive(Clone)]
pub struct BitboardIter {
    low: u64,
    high: u64,
}

impl Iterator for BitboardIter {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.low != 0 {
            let index = self.low.trailing_zeros();
            self.low &= self.low - 1;
            return Some(Point::from_index_unchecked(index as u8));
        }
        if self.high != 0 {
            let index = 64 + self.high.trailing_zeros();
            self.high &= self.high - 1;
            return Some(Point::from_index_unchecked(index as u8));
        }
        None
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        let mut board = Bitboard::EMPTY;
        for point in iter {
            board.insert(point);
        }
        board
    }
}

macro_rules! bit_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, other: Bitboard) -> Bitboard {
                Bitboard(self.0 $op other.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, other: Bitboard) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}

bit_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }
}

impl SubAssign for Bitboard {
    #[inline]
    fn sub_assign(&mut self, other: Bitboard) {
        self.0 &= !other.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement over all 128 bits; intersect with [`Geometry::mask`] to stay on the board.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a grid of the smallest supported size that holds it, top row first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let highest = 128 - self.0.leading_zeros() as usize;
        let size = (MIN_SIZE..=MAX_SIZE).find(|s| s * s >= highest.max(1)).unwrap_or(MAX_SIZE);
        writeln!(f, "Bitboard({} points)", self.count())?;
        for row in (0..size).rev() {
            for col in 0..size {
                let bit = (self.0 >> (row * size + col)) & 1;
                f.write_str(if bit != 0 { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Masks and neighbour tables for one board size; shared, built once per size.
#[derive(Debug, PartialEq, Eq)]
pub struct Geometry {
    size: usize,
    mask: Bitboard,
    not_first_col: Bitboard,
    not_last_col: Bitboard,
    neighbours: [Bitboard; MAX_AREA],
}

impl Geometry {
    /// The geometry for `size` (2..=11), or `None` for an unsupported size.
    pub fn of(size: usize) -> Option<&'static Geometry> {
        static TABLES: OnceLock<Vec<Geometry>> = OnceLock::new();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let tables = TABLES.get_or_init(|| (MIN_SIZE..=MAX_SIZE).map(Geometry::build).collect());
        Some(&tables[size - MIN_SIZE])
    }

    fn build(size: usize) -> Geometry {
        let area = size * size;
        let mask = Bitboard(if area == 128 { u128::MAX } else { (1u128 << area) - 1 });
        let mut first_col = Bitboard::EMPTY;
        let mut last_col = Bitboard::EMPTY;
        for row in 0..size {
            first_col.0 |= 1u128 << (row * size);
            last_col.0 |= 1u128 << (row * size + size - 1);
        }
        let mut geometry = Geometry {
            size,
            mask,
            not_first_col: mask - first_col,
            not_last_col: mask - last_col,
            neighbours: [Bitboard::EMPTY; MAX_AREA],
        };
        for index in 0..area {
            let single = Bitboard(1u128 << index);
            geometry.neighbours[index] = geometry.adjacent(single);
        }
        geometry
    }

    /// Board side length.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of points.
    #[inline]
    pub fn area(&self) -> usize {
        self.size * self.size
    }

    /// All points of the board.
    #[inline]
    pub fn mask(&self) -> Bitboard {
        self.mask
    }

    /// The points one row up (towards higher line numbers).
    #[inline]
    pub fn north(&self, b: Bitboard) -> Bitboard {
        Bitboard((b.0 << (self.size & 63)) & self.mask.0)
    }

    /// The points one row down.
    #[inline]
    pub fn south(&self, b: Bitboard) -> Bitboard {
        Bitboard(b.0 >> (self.size & 63))
    }

    /// The points one column right; never wraps to the next row.
    #[inline]
    pub fn east(&self, b: Bitboard) -> Bitboard {
        Bitboard((b.0 & self.not_last_col.0) << 1)
    }

    /// The points one column left; never wraps to the previous row.
    #[inline]
    pub fn west(&self, b: Bitboard) -> Bitboard {
        Bitboard((b.0 & self.not_first_col.0) >> 1)
    }

    /// Points orthogonally adjacent to some point of `b` (may include points of `b`).
    #[inline]
    pub fn adjacent(&self, b: Bitboard) -> Bitboard {
        Bitboard(
            ((b.0 << (self.size & 63)) & self.mask.0)
                | (b.0 >> (self.size & 63))
                | ((b.0 & self.not_last_col.0) << 1)
                | ((b.0 & self.not_first_col.0) >> 1),
        )
    }

    /// `b` plus its adjacent points.
    #[inline]
    pub fn expand(&self, b: Bitboard) -> Bitboard {
        b | self.adjacent(b)
    }

    /// The orthogonal neighbours of `point`.
    #[inline]
    pub fn neighbours(&self, point: Point) -> Bitboard {
        self.neighbours[point.index()]
    }

    /// The connected component of `within` that contains the points of `seed` (flood fill by shifts).
    #[inline]
    pub fn flood(&self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut group = seed & within;
        loop {
            let next = self.expand(group) & within;
            if next == group {
                return group;
            }
            group = next;
        }
    }

    /// The connected components of `set` (4-connected), in the order of their first points.
    pub fn components(&self, set: Bitboard) -> impl Iterator<Item = Bitboard> + '_ {
        let mut left = set;
        std::iter::from_fn(move || {
            let part = self.flood(Bitboard::from_point(left.first()?), set);
            left -= part;
            Some(part)
        })
    }

    /// The chain of `stones` through `point`, with its liberties among `empty`.
    #[inline]
    pub fn group_and_liberties(&self, point: Point, stones: Bitboard, empty: Bitboard) -> (Bitboard, Bitboard) {
        let group = self.flood(Bitboard::from_point(point), stones);
        (group, self.adjacent(group) & empty)
    }

    /// The chain of `stones` through `point` when it has no liberty in `empty`; `None` as soon as one is found.
    #[inline]
    pub fn chain_without_liberty(&self, point: Point, stones: Bitboard, empty: Bitboard) -> Option<Bitboard> {
        chain_liberty_search(self, point, stones, empty).ok()
    }

    /// Every point as a [`Point`], in index order.
    pub fn points(&self) -> BitboardIter {
        self.mask.iter()
    }

    /// The point at `col` (0 = A) and `row` (0 = line 1), if on this board.
    pub fn point(&self, col: usize, row: usize) -> Option<Point> {
        (col < self.size && row < self.size).then(|| Point::from_index_unchecked((row * self.size + col) as u8))
    }

    /// Column (0-based) of `point` on this board.
    #[inline]
    pub fn col(&self, point: Point) -> usize {
        point.index() % self.size
    }

    /// Row (0-based, 0 = line 1) of `point` on this board.
    #[inline]
    pub fn row(&self, point: Point) -> usize {
        point.index() / self.size
    }

    /// Manhattan distance between two points.
    #[inline]
    pub fn distance(&self, a: Point, b: Point) -> usize {
        self.col(a).abs_diff(self.col(b)) + self.row(a).abs_diff(self.row(b))
    }

    /// Draws `b` on this geometry as a grid, top row first (`X` = in the set).
    pub fn draw(&self, b: Bitboard) -> String {
        let mut out = String::new();
        for row in (0..self.size).rev() {
            for col in 0..self.size {
                let bit = (b.0 >> (row * self.size + col)) & 1;
                out.push(if bit != 0 { 'X' } else { '.' });
            }
            out.push('\n');
        }
        out
    }

    /// Parses a picture (rows top first, `X`/`x`/`#` = in the set, anything else not), sized to this board.
    ///
    /// # Panics
    /// When the picture does not have `size` rows of `size` points (a test helper).
    pub fn parse_picture(&self, picture: &str) -> Bitboard {
        let rows: Vec<Vec<char>> = picture
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        assert_eq!(rows.len(), self.size, "picture needs {} rows", self.size);
        let mut b = Bitboard::EMPTY;
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), self.size, "picture row needs {} points", self.size);
            for (col, c) in row.iter().enumerate() {
                if matches!(c, 'X' | 'x' | '#') {
                    b.0 |= 1u128 << ((self.size - 1 - i) * self.size + col);
                }
            }
        }
        b
    }
}

/// The board operations of the hot paths (rules and playouts), either from a [`Geometry`] at run time or from
/// a [`Square`] whose size is a compile-time constant: shifting a 128-bit word by a constant is two instructions,
/// by a variable amount several more, and floods shift a lot.
pub(crate) trait Shape: Copy {
    /// All points of the board.
    fn mask(self) -> Bitboard;
    /// Points orthogonally adjacent to some point of `b`, as [`Geometry::adjacent`].
    fn adjacent(self, b: Bitboard) -> Bitboard;
    /// The orthogonal neighbours of `point`.
    fn neighbours(self, point: Point) -> Bitboard;
    /// The points of `within` connected to `seed` inside it, as [`Geometry::flood`].
    #[inline]
    fn flood(self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut group = seed & within;
        loop {
            let next = (group | self.adjacent(group)) & within;
            if next == group {
                return group;
            }
            group = next;
        }
    }
}

impl Shape for &Geometry {
    #[inline]
    fn mask(self) -> Bitboard {
        self.mask
    }
    #[inline]
    fn adjacent(self, b: Bitboard) -> Bitboard {
        Geometry::adjacent(self, b)
    }
    #[inline]
    fn neighbours(self, point: Point) -> Bitboard {
        self.neighbours[point.index()]
    }
}

/// A board of side `N` known at compile time, with its masks and neighbour table built at compile time.
#[derive(Clone, Copy)]
pub(crate) struct Square<const N: usize>;

impl<const N: usize> Square<N> {
    const MASK: u128 = (1u128 << (N * N)) - 1;
    const FIRST_COL: u128 = {
        let mut col = 0u128;
        let mut row = 0;
        while row < N {
            col |= 1u128 << (row * N);
            row += 1;
        }
        col
    };
    const NOT_FIRST_COL: u128 = Self::MASK & !Self::FIRST_COL;
    const NOT_LAST_COL: u128 = Self::MASK & !(Self::FIRST_COL << (N - 1));
    /// The neighbours of each point, as a table in the binary: no pointer to load or keep in a register.
    const NEIGHBOURS: [Bitboard; 128] = {
        let mut table = [Bitboard::EMPTY; 128];
        let mut index = 0;
        while index < N * N {
            let b = 1u128 << index;
            table[index] = Bitboard(
                ((b << N) & Self::MASK) | (b >> N) | ((b & Self::NOT_LAST_COL) << 1) | ((b & Self::NOT_FIRST_COL) >> 1),
            );
            index += 1;
        }
        table
    };

    /// The square for `geometry`, which must have side `N`.
    #[inline]
    pub(crate) fn of(geometry: &Geometry) -> Self {
        debug_assert_eq!(geometry.size(), N);
        Square
    }
}

impl<const N: usize> Shape for Square<N> {
    #[inline]
    fn mask(self) -> Bitboard {
        Bitboard(Self::MASK)
    }
    #[inline]
    fn adjacent(self, b: Bitboard) -> Bitboard {
        Bitboard(
            ((b.0 << N) & Self::MASK)
                | (b.0 >> N)
                | ((b.0 & Self::NOT_LAST_COL) << 1)
                | ((b.0 & Self::NOT_FIRST_COL) >> 1),
        )
    }
    #[inline]
    fn neighbours(self, point: Point) -> Bitboard {
        // A table of 128 entries indexed below 128: no bounds check.
        Self::NEIGHBOURS[point.index() & 127]
    }
}

/// Runs `$body` with `$shape` bound to the fastest [`Shape`] for `$geometry`: a [`Square`] for the usual
/// Phantom Go sizes (7, 9, 11), the run-time [`Geometry`] otherwise. Each arm compiles `$body` anew.
macro_rules! with_shape {
    ($geometry:expr, $shape:ident => $body:expr) => {{
        let geometry: &'static $crate::bitboard::Geometry = $geometry;
        match geometry.size() {
            7 => {
                let $shape = $crate::bitboard::Square::<7>::of(geometry);
                $body
            }
            9 => {
                let $shape = $crate::bitboard::Square::<9>::of(geometry);
                $body
            }
            11 => {
                let $shape = $crate::bitboard::Square::<11>::of(geometry);
                $body
            }
            _ => {
                let $shape = geometry;
                $body
            }
        }
    }};
}
pub(crate) use with_shape;

/// `Ok(chain)` when the chain of `stones` through `point` has no liberty in `empty`; otherwise `Err(part)` as
/// soon as a liberty is found, where `part` is the part of the chain seen so far (so the caller can skip its
/// other stones).
#[inline]
pub(crate) fn chain_liberty_search<S: Shape>(
    shape: S,
    point: Point,
    stones: Bitboard,
    empty: Bitboard,
) -> Result<Bitboard, Bitboard> {
    // Most stones have a liberty right beside them: answer from the neighbour table before any shifting.
    let around = shape.neighbours(point);
    let mut group = Bitboard::from_point(point);
    if (around & empty).any() {
        return Err(group);
    }
    group |= around & stones;
    loop {
        // Two growth steps per test: the exit branches are hard to predict, shifts are cheap.
        let grown = group | (shape.adjacent(group) & stones);
        let around = shape.adjacent(grown);
        if (around & empty).any() {
            return Err(grown);
        }
        let next = grown | (around & stones);
        if next == grown {
            return Ok(grown);
        }
        group = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_never_wrap_rows() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::of(size).unwrap();
            for p in g.points() {
                let n = g.neighbours(p);
                let expected = [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)]
                    .iter()
                    .filter_map(|(dc, dr)| {
                        let c = g.col(p) as i32 + dc;
                        let r = g.row(p) as i32 + dr;
                        (c >= 0 && r >= 0).then(|| g.point(c as usize, r as usize)).flatten()
                    })
                    .collect::<Bitboard>();
                assert_eq!(n, expected, "size {size} point {}", p.index());
                assert!((n - g.mask()).is_empty());
            }
        }
    }

    #[test]
    fn squares_shift_like_their_geometry() {
        fn check<const N: usize>() {
            let g = Geometry::of(N).unwrap();
            let square = Square::<N>::of(g);
            assert_eq!(Shape::mask(square), g.mask());
            let mut state = 0x9E37_79B9_7F4A_7C15u128 ^ N as u128;
            for _ in 0..500 {
                state = state.wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645).wrapping_add(1);
                let b = Bitboard::from_bits(state.rotate_left(N as u32)) & g.mask();
                assert_eq!(Shape::adjacent(square, b), g.adjacent(b));
            }
            for p in g.points() {
                assert_eq!(Shape::adjacent(square, Bitboard::from_point(p)), g.neighbours(p));
                assert_eq!(Shape::neighbours(square, p), g.neighbours(p));
            }
        }
        check::<7>();
        check::<9>();
        check::<11>();
    }

    #[test]
    fn nth_and_iter_agree() {
        let b = Bitboard::from_bits(0x0100_0000_0000_0001_0000_0000_F0F0_0101u128);
        let all: Vec<Point> = b.iter().collect();
        assert_eq!(all.len(), b.count() as usize);
        for (i, p) in all.iter().enumerate() {
            assert_eq!(b.nth(i as u32), Some(*p));
        }
        assert_eq!(b.nth(b.count()), None);
    }

    #[test]
    fn select_matches_clearing_bits() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let word = state & state.rotate_left(29); // sparser words too
            for n in 0..word.count_ones() {
                let mut w = word;
                for _ in 0..n {
                    w &= w - 1;
                }
                assert_eq!(select_u64(word, n), w.trailing_zeros(), "{word:#x} {n}");
            }
        }
        assert_eq!(select_u64(u64::MAX, 63), 63);
        assert_eq!(select_u64(1 << 63, 0), 63);
    }

    #[test]
    fn flood_follows_only_connected_stones() {
        let g = Geometry::of(5).unwrap();
        let stones = g.parse_picture(
            "X X . . .
             . X . X X
             . . . X .
             X . . . .
             X X . . .",
        );
        let seed = Bitboard::from_point(g.point(0, 4).unwrap());
        let group = g.flood(seed, stones);
        assert_eq!(group.count(), 3);
        let libs = g.adjacent(group) & (g.mask() - stones);
        assert_eq!(libs.count(), 4);
        assert_eq!(g.draw(group).lines().next(), Some("XX..."));
    }
}
