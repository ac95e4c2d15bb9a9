//! The playouts' board: the stone masks of [`Board`] plus incremental chains (a chain id per point, stones and
//! liberties per chain as bitboards), so a move, a legality test or a capture is a few mask operations.
//!
//! [`Board`] stays the truth of the rules (the judge, the belief and the reference tests use it); this board is
//! checked against it move by move in tests/reference.rs and tests/vectors.rs.

use crate::bitboard::{with_shape, Bitboard, Geometry, Shape};
use crate::board::{Board, IllegalMove};
use crate::color::{ByColor, Color};
use crate::point::Point;

/// Slots in the per-point tables: a power of two above the largest area, so an index masked by `SLOTS - 1`
/// needs no bounds check.
const SLOTS: usize = 128;

/// What the playout policy chooses a move from ([`ChainBoard::policy_masks_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PolicyMasks {
    /// Legal points that are not the mover's own single-point eyes.
    pub playable: Bitboard,
    /// The last liberties of the opponent's chains in atari (capturing moves, before the ko test).
    pub captures: Bitboard,
    /// The last liberties of the mover's own chains in atari.
    pub escapes: Bitboard,
}

/// A Go position with its chains kept up to date move by move; the rules are those of [`Board`].
///
/// A chain's id is the index of one of its stones (the stone that founded it, or the founder of the largest
/// chain it merged into), so a chain's id always names one of its own points and an empty point is never a
/// live id. Entries of dead ids are stale and never read.
#[derive(Clone)]
pub struct ChainBoard {
    geometry: &'static Geometry,
    stones: ByColor<Bitboard>,
    ko: Option<(Point, Color)>,
    /// The chain id of each occupied point (stale on empty points).
    chain_of: [u8; SLOTS],
    /// The stones of each live chain, by id.
    chain_stones: [Bitboard; SLOTS],
    /// The liberties of each live chain, by id.
    chain_liberties: [Bitboard; SLOTS],
    /// The stones of each colour's chains in atari (one liberty). Their liberties are the empty points beside
    /// them (a chain's liberties are the empty points beside its stones), so the last liberties of all chains in
    /// atari are one neighbour expansion, without a loop over the chains.
    atari: ByColor<Bitboard>,
    /// The points beside each colour's stones (one neighbour expansion of them), exact on the empty points (on
    /// stones it may hold stale bits, never read: every reader masks it with empty points). Kept move by move: a
    /// stone adds its neighbours; a capture changes only the captured points (no other empty point touches a
    /// chain without liberties), which touch no stone of their colour any more and touch the capturer's stones
    /// where its chains get them back as liberties. The playable mask's contested points are the enclosed ones beside an
    /// opponent stone.
    around: ByColor<Bitboard>,
}

#[inline]
fn slot(point: Point) -> usize {
    point.index() & (SLOTS - 1)
}

impl ChainBoard {
    /// An empty board of `size` (2..=11), or `None` for an unsupported size.
    pub fn new(size: usize) -> Option<ChainBoard> {
        Board::new(size).map(|board| ChainBoard::from_board(&board))
    }

    /// The position of `board`, with its chains found by flood fill.
    pub fn from_board(board: &Board) -> ChainBoard {
        let mut chains = ChainBoard {
            geometry: board.geometry(),
            stones: ByColor::default(),
            ko: None,
            chain_of: [0; SLOTS],
            chain_stones: [Bitboard::EMPTY; SLOTS],
            chain_liberties: [Bitboard::EMPTY; SLOTS],
            atari: ByColor::default(),
            around: ByColor::default(),
        };
        chains.set_from_board(board);
        chains
    }

    /// Takes the position of `board` (any supported size), its chains found by flood fill, reusing this board's
    /// tables: only the entries of live chains are written (the others are stale and never read), so a search
    /// that keeps one chain board per thread skips the 4 KiB of fresh tables [`ChainBoard::from_board`] makes.
    pub fn set_from_board(&mut self, board: &Board) {
        let geometry = board.geometry();
        self.geometry = geometry;
        self.stones = ByColor::new(board.stones(Color::Black), board.stones(Color::White));
        self.ko = board.ko();
        self.atari = ByColor::default();
        self.around =
            ByColor::new(geometry.adjacent(self.stones[Color::Black]), geometry.adjacent(self.stones[Color::White]));
        let empty = board.empty();
        for color in Color::BOTH {
            let stones = board.stones(color);
            let mut left = stones;
            while let Some(founder) = left.first() {
                let (chain, liberties) = geometry.group_and_liberties(founder, stones, empty);
                let id = slot(founder);
                for stone in chain.iter() {
                    self.chain_of[slot(stone)] = id as u8;
                }
                self.chain_stones[id] = chain;
                self.chain_liberties[id] = liberties;
                self.mark_atari(color, chain, liberties);
                left -= chain;
            }
        }
    }

    /// Writes this position (stones and ko) into `board`, which must be of the same size.
    pub fn write_to(&self, board: &mut Board) {
        debug_assert_eq!(board.size(), self.size());
        board.set_stones(self.stones[Color::Black], self.stones[Color::White]);
        board.set_ko(self.ko);
    }

    /// This position as a mask [`Board`].
    pub fn to_board(&self) -> Board {
        let mut board = Board::new(self.size()).expect("a chain board has a supported size");
        self.write_to(&mut board);
        board
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

    /// Black's stones on the board less White's.
    #[inline]
    pub fn stone_lead(&self) -> i32 {
        self.stones[Color::Black].count() as i32 - self.stones[Color::White].count() as i32
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

    /// Empty points, with the board operations of `shape`.
    #[inline]
    pub(crate) fn empty_in<S: Shape>(&self, shape: S) -> Bitboard {
        shape.mask() - self.occupied()
    }

    /// The area of each colour: its stones plus the empty points that reach only its stones (Tromp-Taylor), the
    /// same counts as [`crate::scoring::area`] of this position.
    pub fn area(&self) -> ByColor<u32> {
        with_shape!(self.geometry, shape => self.area_in(shape))
    }

    /// [`ChainBoard::area`] with the board operations of `shape`.
    #[inline]
    fn area_in<S: Shape>(&self, shape: S) -> ByColor<u32> {
        let empty = self.empty_in(shape);
        let reach = |color: Color| shape.flood(self.around[color] & empty, empty);
        let (black, white) = (reach(Color::Black), reach(Color::White));
        ByColor::new(
            self.stones[Color::Black].count() + (black - white).count(),
            self.stones[Color::White].count() + (white - black).count(),
        )
    }

    /// Black's area minus White's area minus `komi`: [`crate::scoring::score`] of this position, without the
    /// copy to a mask board.
    pub fn area_margin(&self, komi: f32) -> f32 {
        let area = self.area();
        area[Color::Black] as f32 - area[Color::White] as f32 - komi
    }

    /// The simple-ko point and the colour forbidden to play it next.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    /// Clears the ko point (a pass, or any turn that is not a stone).
    #[inline]
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// The chain through `point` and its liberties (empty sets if the point is empty).
    pub fn group_and_liberties(&self, point: Point) -> (Bitboard, Bitboard) {
        if self.occupied().contains(point) {
            let id = self.chain_of[slot(point)] as usize;
            (self.chain_stones[id], self.chain_liberties[id])
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        }
    }

    /// The number of liberties of the chain through `point` (0 if the point is empty).
    #[inline]
    pub fn liberty_count(&self, point: Point) -> u32 {
        self.group_and_liberties(point).1.count()
    }

    /// The points where `color` captures: the last liberty of each opponent chain in atari. (Such a point is
    /// always legal for `color`, unless it is `color`'s ko point.)
    pub fn capture_points(&self, color: Color) -> Bitboard {
        self.geometry.adjacent(self.atari[color.opponent()]) & self.empty()
    }

    /// Single-point eyes of `color`: empty points whose every neighbour is a stone of `color`.
    #[inline]
    pub fn single_point_eyes(&self, color: Color) -> Bitboard {
        self.single_point_eyes_in(self.geometry, color)
    }

    /// [`ChainBoard::single_point_eyes`] with the board operations of `shape`.
    #[inline]
    pub(crate) fn single_point_eyes_in<S: Shape>(&self, shape: S, color: Color) -> Bitboard {
        let others = shape.mask() - self.stones[color];
        (others - self.stones[color.opponent()]) - shape.adjacent(others)
    }

    /// What [`ChainBoard::try_play`] would answer, without changing the board; as [`Board::legality`].
    ///
    /// # Errors
    /// [`IllegalMove::Occupied`], [`IllegalMove::Ko`] or [`IllegalMove::Suicide`].
    #[inline]
    pub fn legality(&self, color: Color, point: Point) -> Result<(), IllegalMove> {
        if self.occupied().contains(point) {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some((point, color)) {
            return Err(IllegalMove::Ko);
        }
        let neighbours = self.geometry.neighbours(point);
        if (neighbours - self.occupied()).any() || self.enclosed_point_is_legal(color, point, neighbours) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        }
    }

    /// Whether `color` may play at the empty `point` whose `neighbours` are all stones: it captures (an enemy
    /// neighbour chain has `point` as its last liberty) or joins a friendly chain with another liberty.
    #[inline]
    fn enclosed_point_is_legal(&self, color: Color, point: Point, neighbours: Bitboard) -> bool {
        let bit = Bitboard::from_point(point);
        let liberties = |stone: Point| self.chain_liberties[self.chain_of[slot(stone)] as usize];
        (neighbours & self.stones[color.opponent()]).iter().any(|q| liberties(q) == bit)
            || (neighbours & self.stones[color]).iter().any(|q| liberties(q) != bit)
    }

    /// Every point where `color` may play now (empty, not its ko point, not suicide).
    #[inline]
    pub fn legal_points(&self, color: Color) -> Bitboard {
        self.legal_points_in(self.geometry, color)
    }

    /// [`ChainBoard::legal_points`] with the board operations of `shape`, as mask operations: a point with an
    /// empty neighbour is legal; an enclosed one is legal when it is the last liberty of an enemy chain (a
    /// capture) or touches a friendly chain that is not in atari (which keeps a liberty).
    #[inline]
    pub(crate) fn legal_points_in<S: Shape>(&self, shape: S, color: Color) -> Bitboard {
        let opponent = color.opponent();
        let empty = shape.mask() - self.stones[color] - self.stones[opponent];
        let open = shape.adjacent(empty);
        // Beside an opponent chain in atari (a capture) or beside one of ours that is not (one expansion of both).
        let good = self.atari[opponent] | (self.stones[color] - self.atari[color]);
        let mut legal = empty & (open | shape.adjacent(good));
        if let Some((ko, forbidden)) = self.ko {
            if forbidden == color {
                legal.remove(ko);
            }
        }
        legal
    }

    /// The masks the playout policy chooses `color`'s move from, in one pass over the chains in atari: the
    /// same sets as [`ChainBoard::legal_points`] less [`ChainBoard::single_point_eyes`] (`playable`), the last
    /// liberties of the opponent's chains in atari ([`ChainBoard::capture_points`]) and of `color`'s own.
    #[inline]
    pub(crate) fn policy_masks_in<S: Shape>(&self, shape: S, color: Color) -> PolicyMasks {
        let opponent = color.opponent();
        let own = self.stones[color];
        let empty = shape.mask() - own - self.stones[opponent];
        let captures = shape.adjacent(self.atari[opponent]) & empty;
        let weak = self.atari[color];
        let escapes = shape.adjacent(weak) & empty;
        // A point with an empty neighbour is legal and no eye. An enclosed one (every neighbour a stone) is an
        // eye of `color` unless an opponent stone touches it, and legal when it captures or joins a chain of
        // `color` that keeps a liberty: the sets of `legal_points` less `single_point_eyes`, with the two
        // shifts of the enclosed case only where there is one.
        let open = shape.adjacent(empty);
        let mut playable = empty & open;
        let enclosed = empty - open;
        if enclosed.any() {
            let legal = captures | shape.adjacent(own - weak);
            playable |= enclosed & legal & self.around[opponent];
        }
        if let Some((ko, forbidden)) = self.ko {
            if forbidden == color {
                playable.remove(ko);
            }
        }
        PolicyMasks { playable, captures, escapes }
    }

    /// The `playable` set of [`ChainBoard::policy_masks_in`] alone (legal points less `color`'s own single-point
    /// eyes), for the light policy: the chains in atari are read only when an enclosed point touches an opponent
    /// stone (an enclosed point that touches none is `color`'s own eye, never playable).
    #[inline(always)]
    pub(crate) fn playable_in<S: Shape>(&self, shape: S, color: Color) -> Bitboard {
        let opponent = color.opponent();
        let own = self.stones[color];
        let empty = shape.mask() - own - self.stones[opponent];
        let open = shape.adjacent(empty);
        let mut playable = empty & open;
        let enclosed = empty - open;
        if enclosed.any() {
            let contested = enclosed & self.around[opponent];
            if contested.any() {
                // The last liberties of the opponent's chains in atari and the points beside our chains that keep a
                // liberty (contested points are empty): one expansion of both.
                let good = self.atari[opponent] | (own - self.atari[color]);
                playable |= contested & shape.adjacent(good);
            }
        }
        if let Some((ko, forbidden)) = self.ko {
            if forbidden == color {
                playable.remove(ko);
            }
        }
        playable
    }

    /// Makes this board the position of `source` in place (the search's copy of a particle each simulation,
    /// without the temporary that `clone` and a move make): the chain tables are copied for `source`'s points
    /// only, the only ids a chain of its size can have (entries above are never read).
    pub fn copy_from(&mut self, source: &ChainBoard) {
        let area = source.geometry.area().min(SLOTS);
        self.geometry = source.geometry;
        self.stones = source.stones;
        self.ko = source.ko;
        self.chain_of = source.chain_of;
        self.chain_stones[..area].copy_from_slice(&source.chain_stones[..area]);
        self.chain_liberties[..area].copy_from_slice(&source.chain_liberties[..area]);
        self.atari = source.atari;
        self.around = source.around;
    }

    /// The stones and liberties of the chain through the occupied `point` (stale entries for an empty one).
    #[inline]
    pub(crate) fn chain_at(&self, point: Point) -> (Bitboard, Bitboard) {
        let id = self.chain_of[slot(point)] as usize;
        (self.chain_stones[id], self.chain_liberties[id])
    }

    /// The chains of `color` in atari (one liberty): their stones.
    #[inline]
    pub fn stones_in_atari(&self, color: Color) -> Bitboard {
        self.atari[color]
    }

    /// Records whether the chain of `color` with these `stones` and `liberties` is in atari (stones of chains it
    /// absorbed are among `stones`, so their marks go too).
    #[inline]
    fn mark_atari(&mut self, color: Color, stones: Bitboard, liberties: Bitboard) {
        let one = liberties.count() == 1;
        let mask = Bitboard::from_bits(0u128.wrapping_sub(one as u128));
        self.atari[color] = (self.atari[color] - stones) | (stones & mask);
    }

    /// Plays a stone of `color` at `point`, applying captures; returns the captured stones. Same rules and
    /// answers as [`Board::try_play`]; the board is unchanged on error.
    ///
    /// # Errors
    /// [`IllegalMove::Occupied`], [`IllegalMove::Ko`] or [`IllegalMove::Suicide`].
    #[inline]
    pub fn try_play(&mut self, color: Color, point: Point) -> Result<Bitboard, IllegalMove> {
        self.try_play_in(self.geometry, color, point)
    }

    /// [`ChainBoard::try_play`] with the board operations of `shape` (which must match the board's size).
    #[inline]
    pub(crate) fn try_play_in<S: Shape>(
        &mut self,
        shape: S,
        color: Color,
        point: Point,
    ) -> Result<Bitboard, IllegalMove> {
        let occupied = self.occupied();
        if occupied.contains(point) {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some((point, color)) {
            return Err(IllegalMove::Ko);
        }
        let neighbours = shape.neighbours(point);
        if (neighbours - occupied).is_empty() && !self.enclosed_point_is_legal(color, point, neighbours) {
            return Err(IllegalMove::Suicide);
        }
        Ok(self.play_legal_in(shape, color, point))
    }

    /// Plays a stone of `color` at `point`, which must be legal (empty, not the ko point, not suicide);
    /// returns the captured stones.
    #[inline(always)]
    pub(crate) fn play_legal_in<S: Shape>(&mut self, shape: S, color: Color, point: Point) -> Bitboard {
        let bit = Bitboard::from_point(point);
        let neighbours = shape.neighbours(point);
        let opponent = color.opponent();
        let empty = shape.mask() - self.stones[Color::Black] - self.stones[Color::White];

        // Enemy neighbour chains lose the point (each once: its other stones beside the point are skipped);
        // those left without a liberty are captured.
        let mut captured = Bitboard::EMPTY;
        let mut enemies = neighbours & self.stones[opponent];
        while let Some(stone) = enemies.first() {
            let id = self.chain_of[slot(stone)] as usize & (SLOTS - 1);
            let stones = self.chain_stones[id];
            enemies -= stones;
            let liberties = self.chain_liberties[id] - bit;
            self.chain_liberties[id] = liberties;
            self.mark_atari(opponent, stones, liberties);
            let dead = 0u128.wrapping_sub(liberties.is_empty() as u128);
            captured |= stones & Bitboard::from_bits(dead);
        }

        // The new stone joins its friendly neighbour chains under the id of the largest.
        let mut chain = bit;
        let mut liberties = neighbours & empty;
        let mut id = slot(point);
        let mut largest = 0;
        let mut friends = neighbours & self.stones[color];
        while let Some(stone) = friends.first() {
            let other = self.chain_of[slot(stone)] as usize & (SLOTS - 1);
            let stones = self.chain_stones[other];
            friends -= stones;
            chain |= stones;
            liberties |= self.chain_liberties[other];
            let count = stones.count();
            if count > largest {
                largest = count;
                id = other;
            }
        }
        // The new stone takes the id directly; only the stones of the smaller chains joined are relabelled
        // (none in the usual move, which touches at most one friendly chain).
        self.chain_of[slot(point)] = id as u8;
        let relabel = if largest == 0 { Bitboard::EMPTY } else { chain - self.chain_stones[id] - bit };
        for stone in relabel.iter() {
            self.chain_of[slot(stone)] = id as u8;
        }
        self.stones[color] |= bit;
        self.around[color] |= neighbours;
        self.chain_stones[id] = chain;
        self.chain_liberties[id] = liberties - bit;
        self.mark_atari(color, chain, liberties - bit);
        self.ko = None;

        if captured.any() {
            self.remove_captured_in(shape, color, captured);
            // Simple ko: one stone captured by a lone stone whose only liberty is now that point.
            if largest == 0 && !captured.has_several() && self.chain_liberties[id] == captured {
                self.ko = captured.first().map(|p| (p, opponent));
            }
        }
        debug_assert!(self.is_consistent(), "{}", self.to_board().picture());
        captured
    }

    /// Takes `captured` (stones of `color`'s opponent) off and gives the freed points to `color`'s chains
    /// beside them as liberties.
    #[inline]
    fn remove_captured_in<S: Shape>(&mut self, shape: S, color: Color, captured: Bitboard) {
        self.stones[color.opponent()] -= captured;
        self.around[color.opponent()] -= captured;
        let mut regained = Bitboard::EMPTY;
        // A lone stone (the usual capture): the chains beside it are those of its neighbours, and each gets back
        // exactly that point; the shifts are for bigger captures.
        let single = !captured.has_several();
        let mut touching = if single {
            captured.first().map_or(Bitboard::EMPTY, |stone| shape.neighbours(stone)) & self.stones[color]
        } else {
            shape.adjacent(captured) & self.stones[color]
        };
        while let Some(stone) = touching.first() {
            let id = self.chain_of[slot(stone)] as usize & (SLOTS - 1);
            let stones = self.chain_stones[id];
            touching -= stones;
            let freed = if single { captured } else { shape.adjacent(stones) & captured };
            let liberties = self.chain_liberties[id] | freed;
            self.chain_liberties[id] = liberties;
            self.mark_atari(color, stones, liberties);
            regained |= freed;
        }
        // The captured points beside `color`'s stones: those its chains got back (their bits from when they were
        // stones are stale).
        self.around[color] = (self.around[color] - captured) | regained;
    }

    /// Structural invariants: the masks as in [`Board::is_consistent`], and every chain's id, stones and
    /// liberties as a flood fill finds them.
    pub fn is_consistent(&self) -> bool {
        let board = self.to_board();
        if !board.is_consistent() {
            return false;
        }
        let fresh = ChainBoard::from_board(&board);
        // The stones of chains with one liberty, as the flood fill's chains have them.
        let atari_right = Color::BOTH.into_iter().all(|color| {
            let truth: Bitboard = self.stones[color].iter().filter(|&p| fresh.chain_at(p).1.count() == 1).collect();
            self.atari[color] == truth
        });
        let empty = self.empty();
        let around_right =
            Color::BOTH.into_iter().all(|color| self.around[color] & empty == fresh.around[color] & empty);
        atari_right
            && around_right
            && self.occupied().iter().all(|point| {
                let id = self.chain_of[slot(point)] as usize;
                let truth = fresh.chain_of[slot(point)] as usize;
                self.chain_stones[id].contains(Point::from_index_unchecked(id as u8))
                    && self.chain_stones[id] == fresh.chain_stones[truth]
                    && self.chain_liberties[id] == fresh.chain_liberties[truth]
            })
    }
}

impl std::fmt::Debug for ChainBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "ChainBoard {}x{} ko={:?}", self.size(), self.size(), self.ko)?;
        f.write_str(&self.to_board().picture())
    }
}

impl PartialEq for ChainBoard {
    /// Same size, stones and ko (the chain tables follow from the stones).
    fn eq(&self, other: &ChainBoard) -> bool {
        self.size() == other.size() && self.stones == other.stones && self.ko == other.ko
    }
}

impl Eq for ChainBoard {}

#[cfg(test)]
mod tests;
