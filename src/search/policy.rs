//! The main search's perfect-information playout policy on the [`ChainBoard`]: captures, escapes from atari,
//! no big self-atari, otherwise uniformly random (never filling one's own single-point eye); it records the
//! moves it plays for the tree's all-moves-as-first (RAVE) statistics.

use super::playout::below;
use crate::bitboard::select::{Portable, Select};
use crate::bitboard::{with_shape, Bitboard, Shape};
use crate::chains::ChainBoard;
use crate::color::{ByColor, Color};
use crate::point::Point;
use rand::RngCore;

/// Settings of the playout policy (each rule can be switched off for ablation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyConfig {
    /// Probability of capturing a chain in atari (a random one of its liberties) when there is one.
    pub capture: f32,
    /// Probability of extending a chain of ours in atari when the extension gives it two liberties or more.
    pub escape: f32,
    /// Probability of rejecting a random move that puts our chain of `self_atari_min` stones or more in atari
    /// (it draws again, once).
    pub avoid_self_atari: f32,
    /// Smallest chain (after the move) whose self-atari is avoided.
    pub self_atari_min: u32,
    /// Cap on the moves of a playout, as a multiple of the number of points (ko and regrowth cycles).
    pub moves_per_point: u32,
    /// Mercy rule: a playout ends once one colour has this share of the board's points more stones on the board
    /// than the other and wins the count of the board as it stands (komi included; the board is scored so), else
    /// it plays on without the rule; 0 = never. Random play that has captured a large chain seldom turns round,
    /// and such playouts run longest (capture and regrowth cycles up to the cap).
    pub mercy: f32,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig {
            capture: 0.9,
            escape: 0.9,
            avoid_self_atari: 0.9,
            self_atari_min: 2,
            moves_per_point: 3,
            mercy: 0.0,
        }
    }
}

impl PolicyConfig {
    /// The light policy: uniformly random legal moves that do not fill one's own eye.
    pub fn light() -> PolicyConfig {
        PolicyConfig { capture: 0.0, escape: 0.0, avoid_self_atari: 0.0, ..PolicyConfig::default() }
    }
}

/// A move of a playout for the RAVE statistics: colour and point.
pub type Played = (Color, Point);

/// No reply stored ([`Replies`]).
const NO_REPLY: u8 = u8::MAX;

/// Last good reply with forgetting (LGRF-1, Baier and Drake 2010): for each colour and each point the other
/// colour may play, the reply that colour made to it in the last simulation it won. A playout plays the stored
/// reply to the move just before when it is playable, else its usual move; a simulation the replier lost
/// forgets its replies. The table is a worker's own and learns only from that worker's simulations.
#[derive(Clone)]
pub struct Replies {
    /// reply[colour][previous point]: the reply's point index, [`NO_REPLY`] for none.
    reply: [[u8; 128]; 2],
}

impl Default for Replies {
    fn default() -> Self {
        Replies { reply: [[NO_REPLY; 128]; 2] }
    }
}

impl Replies {
    /// The stored reply of `color` to the other colour's move at `previous`.
    #[inline]
    pub fn get(&self, color: Color, previous: Point) -> Option<Point> {
        let stored = self.reply[color.index()][previous.index()];
        if stored == NO_REPLY {
            None
        } else {
            Point::new(stored as usize)
        }
    }

    /// Learns from one simulation's moves in order (`played`: each stone played, passes left out) and its
    /// `winner` (`None`: level, nothing learned): each move that answered the other colour's move just before it
    /// is stored as the reply when its colour won, and forgotten (if it is the stored one) when it lost. Two
    /// moves of one colour in a row had a pass between them: the second answered no move.
    pub fn learn(&mut self, played: &[Played], winner: Option<Color>) {
        let Some(winner) = winner else { return };
        for pair in played.windows(2) {
            let ((before, previous), (color, reply)) = (pair[0], pair[1]);
            if before == color {
                continue;
            }
            let slot = &mut self.reply[color.index()][previous.index()];
            if color == winner {
                *slot = reply.index() as u8;
            } else if *slot == reply.index() as u8 {
                *slot = NO_REPLY;
            }
        }
    }
}

/// The reply a playout plays before its policy's move: the table and the stone just played (`None` after a
/// pass or at the start of the game).
#[derive(Clone, Copy)]
pub(crate) struct ReplyState<'a> {
    /// The worker's table.
    pub replies: &'a Replies,
    /// The stone played just before the playout's first turn, if the turn before was not a pass.
    pub last: Option<Point>,
}

/// True with probability `p` (16-bit resolution).
#[inline]
pub(crate) fn chance<R: RngCore>(rng: &mut R, p: f32) -> bool {
    p > 0.0 && (below(rng, 1 << 16) as f32) < p * 65536.0
}

/// The liberties `color`'s chain through `point` would have after a stone there, captures aside (the empty
/// neighbours of `point` and the liberties of the friendly chains it joins, less `point` itself), and the
/// chain's size.
#[inline]
fn liberties_after<S: Shape>(shape: S, board: &ChainBoard, color: Color, point: Point) -> (Bitboard, u32) {
    let neighbours = shape.neighbours(point);
    let mut liberties = neighbours & board.empty_in(shape);
    let mut stones = Bitboard::from_point(point);
    let mut friends = neighbours & board.stones(color);
    while let Some(stone) = friends.first() {
        let (chain, libs) = board.chain_at(stone);
        liberties |= libs;
        stones |= chain;
        friends -= chain;
    }
    liberties.remove(point);
    (liberties, stones.count())
}

/// Whether a stone of `color` at `point` captures something (an enemy neighbour chain has it as last liberty).
#[inline]
fn captures_at<S: Shape>(shape: S, board: &ChainBoard, color: Color, point: Point) -> bool {
    let mut enemies = shape.neighbours(point) & board.stones(color.opponent());
    while let Some(stone) = enemies.first() {
        let (chain, libs) = board.chain_at(stone);
        if libs == Bitboard::from_point(point) {
            return true;
        }
        enemies -= chain;
    }
    false
}

/// Picks the policy's move for `color`: a capture, an escape, or a random playable point; `None`: pass.
pub fn choose<R: RngCore>(board: &ChainBoard, color: Color, config: &PolicyConfig, rng: &mut R) -> Option<Point> {
    with_shape!(board.geometry(), shape => choose_in(shape, board, color, config, rng))
}

/// [`choose`] with the board operations of `shape` (the board's size).
#[inline]
fn choose_in<S: Shape, R: RngCore>(
    shape: S,
    board: &ChainBoard,
    color: Color,
    config: &PolicyConfig,
    rng: &mut R,
) -> Option<Point> {
    if !(config.capture > 0.0 || config.escape > 0.0) {
        // Neither rule can fire (`chance` draws nothing for them): only the playable mask is needed.
        return choose_playable(shape, board, color, board.playable_in(shape, color), config, rng);
    }
    let masks = board.policy_masks_in(shape, color);
    let playable = masks.playable;
    if playable.is_empty() {
        return None;
    }
    if chance(rng, config.capture) {
        let captures = masks.captures & playable;
        if let Some(point) = captures.nth(below(rng, captures.count().max(1))) {
            return Some(point);
        }
    }
    if chance(rng, config.escape) {
        let mut escapes = masks.escapes & playable;
        while escapes.any() {
            let point = escapes.nth(below(rng, escapes.count())).expect("escapes is not empty");
            if liberties_after(shape, board, color, point).0.has_several() {
                return Some(point);
            }
            escapes.remove(point);
        }
    }
    choose_playable(shape, board, color, playable, config, rng)
}

/// A uniformly random point of `playable` (`None`: pass), drawn again once when it is a big self-atari and the
/// rule fires.
#[inline(always)]
fn choose_playable<S: Shape, R: RngCore>(
    shape: S,
    board: &ChainBoard,
    color: Color,
    playable: Bitboard,
    config: &PolicyConfig,
    rng: &mut R,
) -> Option<Point> {
    if playable.is_empty() {
        return None;
    }
    let point = playable.nth(below(rng, playable.count())).expect("playable is not empty");
    if chance(rng, config.avoid_self_atari) && is_big_self_atari(shape, board, color, point, config.self_atari_min) {
        return playable.nth(below(rng, playable.count()));
    }
    Some(point)
}

/// Whether a stone of `color` at `point` leaves its chain (of at least `min` stones) with one liberty or none
/// without capturing anything.
#[inline]
fn is_big_self_atari<S: Shape>(shape: S, board: &ChainBoard, color: Color, point: Point, min: u32) -> bool {
    // The usual answers first: two empty neighbours are two liberties; a lone stone is below a minimum of two.
    let neighbours = shape.neighbours(point);
    if (neighbours & board.empty_in(shape)).has_several() || (min >= 2 && (neighbours & board.stones(color)).is_empty())
    {
        return false;
    }
    let (liberties, size) = liberties_after(shape, board, color, point);
    size >= min && !liberties.has_several() && !captures_at(shape, board, color, point)
}

/// Result of a policy playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyPlayout {
    /// Stones played.
    pub moves: u32,
    /// Stones captured by each colour.
    pub captures: ByColor<u32>,
    /// Whether the mercy rule ended it ([`PolicyConfig::mercy`]).
    pub mercy: bool,
}

/// Plays the policy from `to_move` until two passes in a row, the policy's move cap, its mercy rule (which reads
/// `komi`) or `max_tries` turns (a referee's cap on tries: the position there is what gets scored); appends
/// each stone played to `played`. `passes` is the number of passes just before (1: a pass now ends the game).
#[allow(clippy::too_many_arguments)]
pub fn playout<R: RngCore>(
    board: &mut ChainBoard,
    to_move: Color,
    passes: u32,
    max_tries: Option<u32>,
    komi: f32,
    config: &PolicyConfig,
    rng: &mut R,
    played: &mut Vec<Played>,
) -> PolicyPlayout {
    with_shape!(board.geometry(), shape => playout_in::<_, _, true, Portable>(shape, board, to_move, passes, max_tries, komi, config, rng, played, None))
}

/// [`playout`] for the search, which reads only the final board and the move record: the same moves and draws,
/// without counting captures. Where the processor runs BMI2 fast ([`crate::bitboard::select::fast_pdep`]) the turns are compiled for
/// BMI1 and BMI2 and draw with `pdep` (the same points). With `replies`, each turn first plays the stored last
/// good reply to the stone just played when it is playable ([`Replies`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn playout_uncounted<R: RngCore>(
    board: &mut ChainBoard,
    to_move: Color,
    passes: u32,
    max_tries: Option<u32>,
    komi: f32,
    config: &PolicyConfig,
    rng: &mut R,
    played: &mut Vec<Played>,
    replies: Option<ReplyState>,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::bitboard::select::fast_pdep() {
        // SAFETY: `fast_pdep` found BMI1 and BMI2 on this processor.
        unsafe { playout_bmi2(board, to_move, passes, max_tries, komi, config, rng, played, replies) };
        return;
    }
    with_shape!(board.geometry(), shape => playout_in::<_, _, false, Portable>(shape, board, to_move, passes, max_tries, komi, config, rng, played, replies));
}

/// [`playout_uncounted`] compiled for BMI1 and BMI2 (`andn` for the masks' set differences, `pdep` for the draw).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
#[allow(clippy::too_many_arguments)]
fn playout_bmi2<R: RngCore>(
    board: &mut ChainBoard,
    to_move: Color,
    passes: u32,
    max_tries: Option<u32>,
    komi: f32,
    config: &PolicyConfig,
    rng: &mut R,
    played: &mut Vec<Played>,
    replies: Option<ReplyState>,
) {
    use crate::bitboard::select::Pdep;
    with_shape!(board.geometry(), shape => playout_in::<_, _, false, Pdep>(shape, board, to_move, passes, max_tries, komi, config, rng, played, replies));
}

/// The stone lead (one colour's stones on the board less the other's) at which `config`'s mercy rule ends a
/// playout on a board of `area` points: the share rounded up, at least 1; `i32::MAX` when the rule is off.
fn mercy_margin(config: &PolicyConfig, area: usize) -> i32 {
    if config.mercy > 0.0 {
        ((config.mercy * area as f32).ceil() as i32).max(1)
    } else {
        i32::MAX
    }
}

/// Whether no rule of `config` can fire (`chance` draws nothing for a probability that is not above 0): every
/// turn is one draw from the playable mask.
#[inline]
fn is_uniform(config: &PolicyConfig) -> bool {
    !(config.capture > 0.0 || config.escape > 0.0 || config.avoid_self_atari > 0.0)
}

/// [`playout`] with the board operations of `shape` (the board's size); captures counted when `COUNT`; the
/// uniform policy's point found by `N`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn playout_in<S: Shape, R: RngCore, const COUNT: bool, N: Select>(
    shape: S,
    board: &mut ChainBoard,
    to_move: Color,
    passes: u32,
    max_tries: Option<u32>,
    komi: f32,
    config: &PolicyConfig,
    rng: &mut R,
    played: &mut Vec<Played>,
    replies: Option<ReplyState>,
) -> PolicyPlayout {
    // The light policy (the search's) gets a loop of its own, without the rules' tests each turn; so does a playout
    // without last good replies (the default), without their look-up each turn.
    match (is_uniform(config), replies.is_some()) {
        (true, false) => turns_in::<S, R, COUNT, true, false, N>(
            shape, board, to_move, passes, max_tries, komi, config, rng, played, None,
        ),
        (true, true) => turns_in::<S, R, COUNT, true, true, N>(
            shape, board, to_move, passes, max_tries, komi, config, rng, played, replies,
        ),
        (false, false) => turns_in::<S, R, COUNT, false, false, N>(
            shape, board, to_move, passes, max_tries, komi, config, rng, played, None,
        ),
        (false, true) => turns_in::<S, R, COUNT, false, true, N>(
            shape, board, to_move, passes, max_tries, komi, config, rng, played, replies,
        ),
    }
}

/// The turns of [`playout_in`]; `UNIFORM`: the config is uniform ([`is_uniform`]), so a turn is one draw from
/// the playable mask (what [`choose_in`] does then, without its tests), its point found by `N`; `REPLIES`:
/// `replies` is given, and each turn first looks up the stored reply to the stone just played.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn turns_in<S: Shape, R: RngCore, const COUNT: bool, const UNIFORM: bool, const REPLIES: bool, N: Select>(
    shape: S,
    board: &mut ChainBoard,
    mut to_move: Color,
    mut passes: u32,
    max_tries: Option<u32>,
    komi: f32,
    config: &PolicyConfig,
    rng: &mut R,
    played: &mut Vec<Played>,
    replies: Option<ReplyState>,
) -> PolicyPlayout {
    let area = board.geometry().area();
    // Without `REPLIES` both are `None` throughout, and the look-up and its bookkeeping compile away.
    let table = if REPLIES { replies.map(|state| state.replies) } else { None };
    // The stone just played (`None` after a pass), for the last good reply.
    let mut last = if REPLIES { replies.and_then(|state| state.last) } else { None };
    let cap = config.moves_per_point * area as u32;
    let mut mercy = mercy_margin(config, area);
    // Black's stones less White's, kept up to date move by move for the mercy rule.
    let mut lead = board.stone_lead();
    let mut turns_left = max_tries.unwrap_or(u32::MAX);
    let mut result = PolicyPlayout { moves: 0, captures: ByColor::default(), mercy: false };
    while result.moves < cap && turns_left > 0 {
        if lead.abs() >= mercy {
            // The side ahead in stones must also win the count of the board as it stands, komi included: where it
            // does not (its opponent's stones still share the empty regions, or the komi outweighs the stones),
            // the playout goes on to its end, the rule spent.
            let margin = board.area_margin(komi);
            if (lead > 0 && margin > 0.0) || (lead < 0 && margin < 0.0) {
                result.mercy = true;
                break;
            }
            mercy = i32::MAX;
        }
        turns_left -= 1;
        // The stored reply to the stone just played, played when it is playable.
        let stored = match (table, last) {
            (Some(table), Some(previous)) => table.get(to_move, previous),
            _ => None,
        };
        let choice = if UNIFORM {
            let playable = board.playable_in(shape, to_move);
            if playable.is_empty() {
                None
            } else if let Some(point) = stored.filter(|&point| playable.contains(point)) {
                Some(point)
            } else {
                N::nth(playable, below(rng, playable.count()))
            }
        } else if let Some(point) = stored.filter(|&point| board.playable_in(shape, to_move).contains(point)) {
            Some(point)
        } else {
            choose_in(shape, board, to_move, config, rng)
        };
        match choice {
            Some(point) => {
                // The point came from the legal mask.
                let captured = board.play_legal_in(shape, to_move, point);
                result.moves += 1;
                if COUNT {
                    result.captures[to_move] += captured.count();
                }
                let gained = 1 + captured.count() as i32;
                lead += if to_move == Color::Black { gained } else { -gained };
                played.push((to_move, point));
                passes = 0;
                last = Some(point);
            }
            None => {
                board.pass();
                passes += 1;
                last = None;
            }
        }
        if passes >= 2 {
            break;
        }
        to_move = to_move.opponent();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn pt(vertex: &str, size: usize) -> Point {
        crate::point::parse_vertex(vertex, size).unwrap().point().unwrap()
    }

    #[test]
    fn captures_a_chain_in_atari() {
        let board = ChainBoard::from_board(&Board::from_picture(
            5,
            ". . . . .
             . X X . .
             X O O . .
             . X X . .
             . . . . .",
        ));
        let config = PolicyConfig { capture: 1.0, ..PolicyConfig::default() };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..20 {
            assert_eq!(choose(&board, Color::Black, &config, &mut rng), Some(pt("D3", 5)));
        }
    }

    #[test]
    fn escapes_from_atari_when_the_extension_gains_liberties() {
        let board = ChainBoard::from_board(&Board::from_picture(
            5,
            ". . . . .
             . X X . .
             X O O . .
             . X X . .
             . . . . .",
        ));
        let config = PolicyConfig { capture: 0.0, escape: 1.0, ..PolicyConfig::default() };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        for _ in 0..20 {
            assert_eq!(choose(&board, Color::White, &config, &mut rng), Some(pt("D3", 5)));
        }
    }

    #[test]
    fn avoids_a_big_self_atari_and_records_its_moves() {
        // White's three stones have two liberties, C4 and C2: White at C2 would leave its chain in atari.
        let board = Board::from_picture(
            4,
            ". X . .
             X O O X
             X O . X
             . X X .",
        );
        let chains = ChainBoard::from_board(&board);
        assert!(is_big_self_atari(chains.geometry(), &chains, Color::White, pt("C2", 4), 2));
        assert!(
            !is_big_self_atari(chains.geometry(), &chains, Color::Black, pt("C2", 4), 2),
            "Black's C2 joins chains with liberties"
        );
        assert!(
            !is_big_self_atari(chains.geometry(), &chains, Color::White, pt("C2", 4), 5),
            "a chain below the minimum size"
        );
        let mut played = Vec::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut chains = chains;
        let result = playout(&mut chains, Color::Black, 0, None, 7.5, &PolicyConfig::default(), &mut rng, &mut played);
        assert!(result.moves > 0);
        assert_eq!(result.moves as usize, played.len());
    }

    #[test]
    fn the_mercy_rule_ends_a_playout_that_starts_decided() {
        // Black leads by 8 stones on 25 points and wins the count as the board stands (its stones and the
        // empty points only it reaches) at komi 0.5: a share of 0.3 (7.5, so 8 stones) ends the playout before
        // its first move; 0.34 (9 stones) does not.
        let start = ChainBoard::from_board(&Board::from_picture(
            5,
            "X X X . .
             X . X . .
             X X X . O
             . . . . .
             X . . . .",
        ));
        assert_eq!(start.stone_lead(), 8);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut played = Vec::new();
        let decided = PolicyConfig { mercy: 0.3, ..PolicyConfig::light() };
        let mut board = start.clone();
        let result = playout(&mut board, Color::White, 0, None, 0.5, &decided, &mut rng, &mut played);
        assert_eq!((result.moves, played.len()), (0, 0));
        assert!(result.mercy);
        let open = PolicyConfig { mercy: 0.34, ..PolicyConfig::light() };
        let mut board = start.clone();
        let result = playout(&mut board, Color::White, 0, None, 0.5, &open, &mut rng, &mut played);
        assert!(result.moves > 0);
    }

    #[test]
    fn the_mercy_rule_waits_while_the_stones_leader_loses_the_count() {
        // The same lead of 8 stones, but a komi of 20 outweighs Black's count as the board stands (its 9 stones
        // and 1 eye, the open points shared): the playout goes on.
        let start = ChainBoard::from_board(&Board::from_picture(
            5,
            "X X X . .
             X . X . .
             X X X . O
             . . . . .
             X . . . .",
        ));
        assert!(start.area_margin(20.0) < 0.0);
        let decided = PolicyConfig { mercy: 0.3, ..PolicyConfig::light() };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let mut played = Vec::new();
        let mut board = start.clone();
        let result = playout(&mut board, Color::White, 0, None, 20.0, &decided, &mut rng, &mut played);
        assert!(result.moves > 0);
        assert!(!result.mercy, "the rule, spent at the start, never ends this playout");
    }

    #[test]
    fn the_mercy_rule_cuts_the_same_playout_where_the_lead_is_reached() {
        // The rule draws nothing: with the same seed a playout under it is the start of the playout without it,
        // cut after the first move that gives one colour a lead of the margin (23 stones on 9x9 at 0.28), if the
        // count of the board there agrees; if it does not, the rule is spent and the playout runs to its end (seen
        // with a komi of 30 on odd seeds, where a Black lead of 23 stones can lose the count).
        let free = PolicyConfig::light();
        let merciful = PolicyConfig { mercy: 0.28, ..free };
        let margin = mercy_margin(&merciful, 81);
        assert_eq!(margin, 23);
        let (mut cut, mut whole, mut spent) = (0, 0, 0);
        for seed in 0..300 {
            let komi = if seed % 2 == 0 { 7.5 } else { 30.0 };
            let mut full = ChainBoard::new(9).unwrap();
            let (mut all, mut part) = (Vec::new(), Vec::new());
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            playout(&mut full, Color::Black, 0, None, komi, &free, &mut rng, &mut all);
            let mut short = ChainBoard::new(9).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let ended = playout(&mut short, Color::Black, 0, None, komi, &merciful, &mut rng, &mut part);
            assert_eq!(&all[..part.len()], &part[..], "seed {seed}: not the start of the free playout");
            // Where the free playout first reached the margin, and whether the count there agreed.
            let mut board = ChainBoard::new(9).unwrap();
            let (mut expected, mut agreed) = (all.len(), false);
            for (index, &(color, point)) in all.iter().enumerate() {
                let geometry = board.geometry();
                board.play_legal_in(geometry, color, point);
                let lead = board.stone_lead();
                if lead.abs() >= margin {
                    let margin = board.area_margin(komi);
                    if (lead > 0 && margin > 0.0) || (lead < 0 && margin < 0.0) {
                        (expected, agreed) = (index + 1, true);
                    } else {
                        spent += 1;
                    }
                    break;
                }
            }
            assert_eq!(part.len(), expected, "seed {seed}: cut at the wrong move");
            assert!(!ended.mercy || agreed, "seed {seed}: reported as ended by the rule without reaching it");
            if part.len() < all.len() {
                assert!(ended.mercy, "seed {seed}: cut but not reported as the rule's");
                cut += 1;
            } else {
                whole += 1;
                let stones = |b: &ChainBoard| (b.stones(Color::Black), b.stones(Color::White));
                assert_eq!(stones(&short), stones(&full));
            }
        }
        assert!(
            cut > 50 && whole > 50 && spent > 0,
            "every kind of playout seen: {cut} cut, {whole} whole, {spent} spent"
        );
    }

    #[test]
    fn a_cap_on_tries_stops_the_playout() {
        let mut board = ChainBoard::new(9).unwrap();
        let mut played = Vec::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let result = playout(&mut board, Color::Black, 0, Some(3), 7.5, &PolicyConfig::light(), &mut rng, &mut played);
        assert_eq!((result.moves, played.len(), board.occupied().count()), (3, 3, 3));
    }

    #[test]
    fn last_good_replies_are_learnt_from_the_winner_and_forgotten_by_the_loser() {
        let (b, w) = (Color::Black, Color::White);
        let (c3, d4, e5, f6) = (pt("C3", 9), pt("D4", 9), pt("E5", 9), pt("F6", 9));
        let mut replies = Replies::default();
        // White answered C3 with D4 and Black answered D4 with E5; Black won.
        replies.learn(&[(b, c3), (w, d4), (b, e5)], Some(b));
        assert_eq!(replies.get(b, d4), Some(e5), "the winner's reply is stored");
        assert_eq!(replies.get(w, c3), None, "the loser's reply is not");
        // A level game teaches nothing.
        replies.learn(&[(w, c3), (b, f6)], None);
        assert_eq!(replies.get(b, c3), None);
        // Black's E5 after D4 lost this time: forgotten. A pass between two black stones: F6 answered nothing.
        replies.learn(&[(w, d4), (b, e5), (b, f6)], Some(w));
        assert_eq!(replies.get(b, d4), None, "the losing reply is forgotten");
        assert_eq!(replies.get(b, e5), None, "two stones of one colour: no reply");
        // Another reply that lost does not erase a stored one that differs.
        replies.learn(&[(b, c3), (w, d4)], Some(w));
        replies.learn(&[(b, c3), (w, e5)], Some(b));
        assert_eq!(replies.get(w, c3), Some(d4));
    }

    #[test]
    fn a_playout_plays_the_stored_reply_when_it_is_playable() {
        let (b, w) = (Color::Black, Color::White);
        let (c3, g7) = (pt("C3", 9), pt("G7", 9));
        let mut replies = Replies::default();
        replies.learn(&[(b, c3), (w, g7)], Some(w));
        // White's one playout move after Black's C3, on a board with Black's `stones`.
        let first_reply = |stones: &[Point], seed: u64| {
            let mut board = ChainBoard::new(9).unwrap();
            for &point in stones {
                board.play_legal_in(board.geometry(), b, point);
            }
            let (mut played, mut rng) = (Vec::new(), Xoshiro256PlusPlus::seed_from_u64(seed));
            let state = Some(ReplyState { replies: &replies, last: Some(c3) });
            let light = PolicyConfig::light();
            playout_uncounted(&mut board, w, 0, Some(1), 7.5, &light, &mut rng, &mut played, state);
            assert_eq!(played.len(), 1);
            played[0]
        };
        for seed in 0..20 {
            assert_eq!(first_reply(&[c3], seed), (w, g7), "seed {seed}");
            // Where G7 is taken the policy chooses as usual.
            assert_ne!(first_reply(&[c3, g7], seed).1, g7, "seed {seed}");
        }
    }
}
