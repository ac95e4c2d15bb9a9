//! What a player is told in Phantom Go: the one announcement type that runs from the referee (or a protocol
//! front end) through the session and the engine to the belief.
//!
//! Every announcement is phrased for one player ("own" try, "opponent" turn). The engine's game log keeps
//! each one with the colour it is phrased for; [`Observation::for_opponent`] gives the same fact as the
//! other player learns it when the game is played with full information (`play`).

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
    /// The opponent played a stone we were shown (full information: `play`); `captured` are our stones it
    /// removed.
    OpponentSeen {
        /// Where the opponent stone stands.
        point: Point,
        /// Our stones captured by that move.
        captured: Bitboard,
    },
    /// The opponent passed.
    OpponentPass,
}

impl Observation {
    /// The same fact as the other player learns it when it is shown the move: a legal try is seen where it
    /// stands, an illegal one is an opponent illegal try, a pass a pass. `None` for announcements of the
    /// opponent's turn, whose mover knows more than they say.
    pub fn for_opponent(self) -> Option<Observation> {
        match self {
            Observation::OwnOk { point, captured } => Some(Observation::OpponentSeen { point, captured }),
            Observation::OwnIllegal { .. } => Some(Observation::OpponentIllegal),
            Observation::OwnPass => Some(Observation::OpponentPass),
            Observation::OpponentIllegal
            | Observation::OpponentMove { .. }
            | Observation::OpponentSeen { .. }
            | Observation::OpponentPass => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponent_sees_a_shown_move_where_it_stands() {
        let point = Point::from_coords(2, 2, 5).unwrap();
        let captured = Bitboard::from_point(Point::from_coords(2, 3, 5).unwrap());
        assert_eq!(
            Observation::OwnOk { point, captured }.for_opponent(),
            Some(Observation::OpponentSeen { point, captured })
        );
        assert_eq!(Observation::OwnIllegal { point }.for_opponent(), Some(Observation::OpponentIllegal));
        assert_eq!(Observation::OwnPass.for_opponent(), Some(Observation::OpponentPass));
        assert_eq!(Observation::OpponentMove { captured }.for_opponent(), None);
    }
}
