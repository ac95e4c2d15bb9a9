//! What a player is told in Phantom Go: the outcome of its own tries and what it learns of the opponent's turns.

use crate::bitboard::Bitboard;
use crate::point::Point;

/// One announcement to one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observation {
    /// Our try at `point` was illegal (hidden stone, suicide or ko: not said which).
    OwnIllegal {
        /// The point tried.
        point: Point,
    },
    /// Our try at `point` was legal; `captured` are the opponent stones it removed.
    OwnOk {
        /// The point played.
        point: Point,
        /// Opponent stones captured (revealed, now empty).
        captured: Bitboard,
    },
    /// We passed.
    OwnPass,
    /// The opponent made an illegal try.
    OpponentIllegal,
    /// The opponent played a legal stone somewhere unseen; `captured` are our stones it removed.
    OpponentMove {
        /// Our stones captured by that move.
        captured: Bitboard,
    },
    /// The opponent passed.
    OpponentPass,
}
