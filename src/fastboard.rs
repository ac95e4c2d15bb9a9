//! The light playouts' board: an array of points with a guard border, neighbour counts per point and chains as
//! rings with pseudo-liberties, so a move and a legality test touch a few bytes around the point (the design of
//! libEGO's board, written anew); the playout's random pick is made on the stone masks kept beside the arrays.
//!
//! [`crate::board::Board`] stays the truth of the rules; this board is checked against it move by move in
//! tests/reference.rs and tests/vectors.rs.

use crate::bitboard::{with_shape, Bitboard, Geometry, Shape};
use crate::board::{Board, IllegalMove};
use crate::color::{ByColor, Color};
use crate::point::{Point, MAX_SIZE, MIN_SIZE};
use crate::search::playout::below;
use rand::RngCore;
use std::sync::OnceLock;

/// Cells per table: the largest board with its border ((11 + 2)^2 = 169) fits, and an index masked by
/// `CELLS - 1` needs no bounds check.
const CELLS: usize = 256;
/// Colour codes of a cell: `Color::index()` for stones, then these.
const EMPTY: u8 = 2;
const BORDER: u8 = 3;
/// One empty neighbour in a packed neighbour count (byte 0 Black, byte 1 White, byte 2 empty; the border
/// counts as both colours, so a point is a single-point eye of a colour when its byte of that colour is 4).
const ONE_EMPTY: u32 = 1 << 16;

#[inline]
fn at(cell: usize) -> usize {
    cell & (CELLS - 1)
}

/// One colour's unit in a packed neighbour count.
#[inline]
fn one_of(color: usize) -> u32 {
    1 << (8 * color)
}

/// A chain's pseudo-liberties (pairs of a stone and an empty neighbour): their number, and the sums of their
/// cells and of the cells' squares, so "all at one cell" is exact (libEGO's trick: the sum of squared
/// distances to that cell, `squares - 2 * cell * sum + count * cell^2`, is zero only then).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Liberties {
    count: u32,
    sum: u32,
    squares: u32,
}

impl Liberties {
    #[inline]
    fn add(&mut self, cell: usize) {
        let cell = cell as u32;
        self.count += 1;
        self.sum += cell;
        self.squares += cell * cell;
    }

    #[inline]
    fn remove(&mut self, cell: usize) {
        let cell = cell as u32;
        self.count -= 1;
        self.sum -= cell;
        self.squares -= cell * cell;
    }

    #[inline]
    fn join(&mut self, other: Liberties) {
        self.count += other.count;
        self.sum += other.sum;
        self.squares += other.squares;
    }

    /// Whether every pseudo-liberty is at `cell` (and there is one).
    #[inline]
    fn all_at(self, cell: usize) -> bool {
        let cell = cell as u32;
        self.count != 0 && self.sum == self.count * cell && self.squares == cell * self.sum
    }
}

/// Where each point of a board size lies among the cells.
struct Layout {
    geometry: &'static Geometry,
    /// Cells per row, border included (`size + 2`).
    width: usize,
    /// The cell of each point (128 entries, so an index masked by 127 needs no bounds check).
    cell_of: [u8; 128],
    /// The point index of each cell (stale on border cells).
    point_of: [u8; CELLS],
}

impl Layout {
    fn build(size: usize) -> Layout {
        let width = size + 2;
        let mut layout = Layout {
            geometry: Geometry::of(size).expect("supported size"),
            width,
            cell_of: [0; 128],
            point_of: [0; CELLS],
        };
        for row in 0..size {
            for col in 0..size {
                let cell = (row + 1) * width + col + 1;
                layout.cell_of[row * size + col] = cell as u8;
                layout.point_of[cell] = (row * size + col) as u8;
            }
        }
        layout
    }
}

/// A Go position for light playouts; the rules are those of [`Board`].
#[derive(Clone)]
pub struct FastBoard {
    layout: &'static Layout,
    stones: ByColor<Bitboard>,
    /// The simple-ko cell (0, a border cell, when none) and the colour forbidden to play it.
    ko: u8,
    ko_color: Color,
    /// Colour code of each cell.
    color: [u8; CELLS],
    /// Packed counts of each cell's neighbours by colour code (see [`ONE_EMPTY`]).
    neighbours: [u32; CELLS],
    /// The chain id of each stone: the cell of one of its stones (stale elsewhere).
    chain: [u8; CELLS],
    /// The next stone of the same chain (a ring through the chain's stones).
    next: [u8; CELLS],
    /// Pseudo-liberties of each chain, by id: pairs (stone, empty neighbour).
    liberties: [Liberties; CELLS],
    /// Stones of each chain, by id.
    chain_size: [u8; CELLS],
}

/// The layout of every size, built once.
fn layouts() -> &'static [Layout] {
    static LAYOUTS: OnceLock<Vec<Layout>> = OnceLock::new();
    LAYOUTS.get_or_init(|| (MIN_SIZE..=MAX_SIZE).map(Layout::build).collect())
}

/// The empty board of every size, built once (a new board is a copy of one).
fn empty_boards() -> &'static [FastBoard] {
    static EMPTY_BOARDS: OnceLock<Vec<FastBoard>> = OnceLock::new();
    EMPTY_BOARDS.get_or_init(|| layouts().iter().map(FastBoard::empty_of).collect())
}

impl FastBoard {
    fn empty_of(layout: &'static Layout) -> FastBoard {
        let mut board = FastBoard {
            layout,
            stones: ByColor::default(),
            ko: 0,
            ko_color: Color::Black,
            color: [BORDER; CELLS],
            neighbours: [0; CELLS],
            chain: [0; CELLS],
            next: [0; CELLS],
            liberties: [Liberties::default(); CELLS],
            chain_size: [0; CELLS],
        };
        for point in layout.geometry.points() {
            let cell = layout.cell_of[point.index()] as usize;
            board.color[cell] = EMPTY;
        }
        for point in layout.geometry.points() {
            let cell = layout.cell_of[point.index()] as usize;
            for n in board.around(cell) {
                board.neighbours[cell] += if board.color[n] == BORDER { one_of(0) + one_of(1) } else { ONE_EMPTY };
            }
        }
        board
    }

    /// An empty board of `size` (2..=11), or `None` for an unsupported size.
    pub fn new(size: usize) -> Option<FastBoard> {
        (MIN_SIZE..=MAX_SIZE).contains(&size).then(|| empty_boards()[size - MIN_SIZE].clone())
    }

    /// The position of `stones` (a consistent position: every chain has a liberty) with this `ko`.
    pub fn from_stones(geometry: &Geometry, stones: ByColor<Bitboard>, ko: Option<(Point, Color)>) -> FastBoard {
        let mut board = FastBoard::new(geometry.size()).expect("a geometry has a supported size");
        for color in Color::BOTH {
            for point in stones[color].iter() {
                let cell = board.cell(point);
                // No chain of a consistent position loses its last liberty, so nothing is captured.
                board.play_stone(color, cell);
            }
        }
        board.set_ko(ko);
        debug_assert!(board.is_consistent());
        board
    }

    /// The position of `board`.
    pub fn from_board(board: &Board) -> FastBoard {
        let stones = ByColor::new(board.stones(Color::Black), board.stones(Color::White));
        FastBoard::from_stones(board.geometry(), stones, board.ko())
    }

    /// Writes this position (stones and ko) into `board`, which must be of the same size.
    pub fn write_to(&self, board: &mut Board) {
        debug_assert_eq!(board.size(), self.layout.geometry.size());
        board.set_stones(self.stones[Color::Black], self.stones[Color::White]);
        board.set_ko(self.ko());
    }

    /// Calls `f` with the colour and the stones of every chain.
    pub fn for_each_chain(&self, mut f: impl FnMut(Color, Bitboard)) {
        for color in Color::BOTH {
            for point in self.stones[color].iter() {
                let cell = self.cell(point);
                if self.chain[cell] as usize == cell {
                    f(color, self.chain_stones(cell));
                }
            }
        }
    }

    /// The stones of the chain with id `id`, walked around its ring.
    fn chain_stones(&self, id: usize) -> Bitboard {
        let mut stones = Bitboard::EMPTY;
        let mut stone = id;
        loop {
            stones |= self.bit(stone);
            stone = self.next[at(stone)] as usize;
            if stone == id {
                return stones;
            }
        }
    }

    /// The board geometry.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.layout.geometry
    }

    /// Stones of `color`.
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color]
    }

    /// The simple-ko point and the colour forbidden to play it next.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko != 0).then(|| (self.point(self.ko as usize), self.ko_color))
    }

    fn set_ko(&mut self, ko: Option<(Point, Color)>) {
        (self.ko, self.ko_color) = match ko {
            Some((point, color)) => (self.cell(point) as u8, color),
            None => (0, Color::Black),
        };
    }

    /// Clears the ko point (a pass, or any turn that is not a stone).
    #[inline]
    pub fn pass(&mut self) {
        self.ko = 0;
    }

    /// Empty points.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.layout.geometry.mask() - self.stones[Color::Black] - self.stones[Color::White]
    }

    #[inline]
    fn cell(&self, point: Point) -> usize {
        self.layout.cell_of[point.index() & 127] as usize
    }

    #[inline]
    fn point(&self, cell: usize) -> Point {
        Point::from_index_unchecked(self.layout.point_of[at(cell)])
    }

    #[inline]
    fn bit(&self, cell: usize) -> Bitboard {
        Bitboard::from_point(self.point(cell))
    }

    /// The four neighbour cells (border cells included).
    #[inline]
    fn around(&self, cell: usize) -> [usize; 4] {
        let width = self.layout.width;
        [cell - width, cell - 1, cell + 1, cell + width]
    }

    /// Whether the empty `cell` is a single-point eye of `color` (every neighbour its stone or the border).
    #[inline]
    fn is_eye(&self, color: Color, cell: usize) -> bool {
        (self.neighbours[at(cell)] >> (8 * color.index())) & 0xff == 4
    }

    /// Whether `color` may play at the empty `cell` (not its ko point, not suicide).
    #[inline]
    fn empty_cell_is_legal(&self, color: Color, cell: usize) -> bool {
        if self.ko as usize == cell && self.ko_color == color {
            return false;
        }
        self.neighbours[at(cell)] >= ONE_EMPTY || self.enclosed_cell_is_legal(color, cell)
    }

    /// Whether `color` may play at the empty `cell` whose neighbours are all stones or border: it captures (an
    /// enemy chain whose pseudo-liberties are all at `cell`) or joins a friendly chain with another liberty.
    #[inline]
    fn enclosed_cell_is_legal(&self, color: Color, cell: usize) -> bool {
        let mine = color.index() as u8;
        self.around(cell).into_iter().any(|n| {
            let code = self.color[at(n)];
            code < EMPTY && (self.liberties[at(self.chain[at(n)] as usize)].all_at(cell) == (code != mine))
        })
    }

    /// What [`FastBoard::try_play`] would answer, without changing the board; as [`Board::legality`].
    ///
    /// # Errors
    /// [`IllegalMove::Occupied`], [`IllegalMove::Ko`] or [`IllegalMove::Suicide`].
    pub fn legality(&self, color: Color, point: Point) -> Result<(), IllegalMove> {
        let cell = self.cell(point);
        if self.color[at(cell)] != EMPTY {
            Err(IllegalMove::Occupied)
        } else if self.ko as usize == cell && self.ko_color == color {
            Err(IllegalMove::Ko)
        } else if self.neighbours[at(cell)] >= ONE_EMPTY || self.enclosed_cell_is_legal(color, cell) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        }
    }

    /// Plays a stone of `color` at `point`, applying captures; returns the captured stones. Same rules and
    /// answers as [`Board::try_play`]; the board is unchanged on error.
    ///
    /// # Errors
    /// [`IllegalMove::Occupied`], [`IllegalMove::Ko`] or [`IllegalMove::Suicide`].
    #[inline]
    pub fn try_play(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove> {
        self.legality(color, point)?;
        Ok(self.play_legal(color, self.cell(point)))
    }

    /// Whether `color` may play at the empty `cell` and it is not its own single-point eye: the light playout's
    /// choice.
    #[inline]
    fn playable(&self, color: Color, cell: usize) -> bool {
        !self.is_eye(color, cell) && self.empty_cell_is_legal(color, cell)
    }

    /// Every point where `color` may play that is not its own single-point eye.
    pub fn playable_points(&self, color: Color) -> Bitboard {
        let empty = self.empty().iter().map(|point| self.cell(point));
        empty.filter(|&cell| self.playable(color, cell)).map(|cell| self.point(cell)).collect()
    }

    /// A uniformly random point where `color` may play that is not its own single-point eye, or `None`.
    #[inline]
    pub fn random_playable<R: RngCore>(&self, color: Color, rng: &mut R) -> Option<Point> {
        with_shape!(self.geometry(), shape => self.random_playable_in(shape, color, rng))
    }

    /// [`FastBoard::random_playable`] with the board operations of `shape`. The candidates are found as masks
    /// without branches: the empty points less own single-point eyes and the ko point. One is drawn; a candidate
    /// found suicide (mostly an opponent's eye that captures nothing) is set aside and another drawn, so every
    /// playable point is equally likely.
    #[inline]
    pub(crate) fn random_playable_in<S: Shape, R: RngCore>(
        &self,
        shape: S,
        color: Color,
        rng: &mut R,
    ) -> Option<Point> {
        let own = self.stones[color];
        let empty = shape.mask() - own - self.stones[color.opponent()];
        let mut candidates = empty & shape.adjacent(shape.mask() - own);
        if self.ko != 0 && self.ko_color == color {
            candidates.remove(self.point(self.ko as usize));
        }
        while candidates.any() {
            let point = candidates.nth(below(rng, candidates.count()))?;
            let cell = self.cell(point);
            if self.neighbours[at(cell)] >= ONE_EMPTY || self.enclosed_cell_is_legal(color, cell) {
                return Some(point);
            }
            candidates.remove(point);
        }
        None
    }

    /// Plays a uniformly random playable point of `color` (see [`FastBoard::random_playable`]) with the board
    /// operations of `shape`; returns the number of stones captured, or `None` (and passes) when there is none.
    #[inline]
    pub(crate) fn play_random_in<S: Shape, R: RngCore>(&mut self, shape: S, color: Color, rng: &mut R) -> Option<u32> {
        match self.random_playable_in(shape, color, rng) {
            Some(point) => Some(self.play_legal(color, self.cell(point)).count()),
            None => {
                self.pass();
                None
            }
        }
    }

    /// The pseudo-liberties of a lone stone at `cell`: its empty neighbours (added without branches).
    #[inline]
    fn empty_neighbour_liberties(&self, cell: usize) -> Liberties {
        let mut liberties = Liberties::default();
        for n in self.around(cell) {
            let empty = (self.color[at(n)] == EMPTY) as u32;
            let n = n as u32;
            liberties.count += empty;
            liberties.sum += empty * n;
            liberties.squares += empty * n * n;
        }
        liberties
    }

    /// Joins the chains `a` and `b` under the id of the larger.
    #[inline]
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chain_size[at(a)] >= self.chain_size[at(b)] { (a, b) } else { (b, a) };
        let mut stone = small;
        loop {
            self.chain[at(stone)] = big as u8;
            stone = self.next[at(stone)] as usize;
            if stone == small {
                break;
            }
        }
        let (x, y) = (self.next[at(big)], self.next[at(small)]);
        self.next[at(big)] = y;
        self.next[at(small)] = x;
        self.chain_size[at(big)] += self.chain_size[at(small)];
        let joined = self.liberties[at(small)];
        self.liberties[at(big)].join(joined);
    }

    /// Plays a stone of `color` at the empty `cell`, which must be legal; returns the captured stones. One pass
    /// over the neighbours: each takes the stone into its count, a neighbour chain loses a pseudo-liberty, a
    /// friendly one is merged, an enemy one left without is captured.
    #[inline]
    fn play_legal(&mut self, color: Color, cell: usize) -> Bitboard {
        let captured = self.play_stone(color, cell);
        debug_assert!(self.is_consistent(), "{}", self.to_board().picture());
        captured
    }

    /// [`FastBoard::play_legal`] without the consistency check (which uses it).
    #[inline]
    fn play_stone(&mut self, color: Color, cell: usize) -> Bitboard {
        let mine = color.index() as u8;
        let bit = self.bit(cell);
        self.stones[color] |= bit;
        self.color[at(cell)] = mine;
        self.chain[at(cell)] = cell as u8;
        self.next[at(cell)] = cell as u8;
        self.chain_size[at(cell)] = 1;
        self.liberties[at(cell)] = self.empty_neighbour_liberties(cell);
        let step = one_of(mine as usize).wrapping_sub(ONE_EMPTY);
        let mut captured = Bitboard::EMPTY;
        for n in self.around(cell) {
            self.neighbours[at(n)] = self.neighbours[at(n)].wrapping_add(step);
            let code = self.color[at(n)];
            if code < EMPTY {
                let id = self.chain[at(n)] as usize;
                self.liberties[at(id)].remove(cell);
                if code == mine {
                    let own = self.chain[at(cell)] as usize;
                    if own != id {
                        self.merge(own, id);
                    }
                } else if self.liberties[at(id)].count == 0 {
                    captured |= self.remove_chain(color, id);
                }
            }
        }
        self.ko = 0;
        if captured.any() {
            self.stones[color.opponent()] -= captured;
            // Simple ko: one stone captured by a lone stone whose only liberty is now that point.
            let own = self.chain[at(cell)] as usize;
            if !captured.has_several() && self.chain_size[at(own)] == 1 && self.liberties[at(own)].count == 1 {
                if let Some(point) = captured.first() {
                    self.ko = self.cell(point) as u8;
                    self.ko_color = color.opponent();
                }
            }
        }
        captured
    }

    /// Takes the chain `id` (stones of `color`'s opponent) off the board, giving its points back as empty points
    /// and pseudo-liberties of `color`'s chains beside them; returns its stones.
    fn remove_chain(&mut self, color: Color, id: usize) -> Bitboard {
        let mine = color.index() as u8;
        let step = ONE_EMPTY.wrapping_sub(one_of(color.opponent().index()));
        let mut removed = Bitboard::EMPTY;
        let mut stone = id;
        loop {
            removed |= self.bit(stone);
            self.color[at(stone)] = EMPTY;
            for n in self.around(stone) {
                self.neighbours[at(n)] = self.neighbours[at(n)].wrapping_add(step);
                if self.color[at(n)] == mine {
                    let chain = self.chain[at(n)] as usize;
                    self.liberties[at(chain)].add(stone);
                }
            }
            stone = self.next[at(stone)] as usize;
            if stone == id {
                return removed;
            }
        }
    }

    /// This position as a mask [`Board`].
    pub fn to_board(&self) -> Board {
        let mut board = Board::new(self.layout.geometry.size()).expect("a supported size");
        self.write_to(&mut board);
        board
    }

    /// Structural invariants: the masks as in [`Board::is_consistent`]; colours, neighbour counts, the empty
    /// chains, their sizes and pseudo-liberties as found from the masks afresh.
    pub fn is_consistent(&self) -> bool {
        let board = self.to_board();
        if !board.is_consistent() {
            return false;
        }
        let geometry = self.layout.geometry;
        let mut fresh = FastBoard::new(geometry.size()).expect("supported size");
        for color in Color::BOTH {
            for point in self.stones[color].iter() {
                fresh.play_stone(color, fresh.cell(point));
            }
        }
        geometry.points().all(|point| {
            let cell = self.cell(point);
            let same = self.color[cell] == fresh.color[cell] && self.neighbours[cell] == fresh.neighbours[cell];
            if self.color[cell] >= EMPTY {
                return same;
            }
            let (id, truth) = (self.chain[cell] as usize, fresh.chain[cell] as usize);
            same && self.chain_stones(id) == fresh.chain_stones(truth)
                && self.chain_size[id] == fresh.chain_size[truth]
                && self.liberties[id] == fresh.liberties[truth]
        })
    }
}

impl std::fmt::Debug for FastBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "FastBoard {0}x{0} ko={1:?}", self.layout.geometry.size(), self.ko())?;
        f.write_str(&self.to_board().picture())
    }
}
