//! What the engine knows of the game: its stones and the opponent stones it has seen, what it was told, and
//! the try that awaits its result.

use super::EngineError;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::observation::Observation;
use crate::point::Point;

/// A try answered by genmove that awaits `phantom-result`.
#[derive(Clone, Debug)]
pub(super) struct PendingTry {
    pub(super) color: Color,
    pub(super) point: Point,
    /// Captures on the known board (what plain GTP assumes when no result comes).
    pub(super) known_captures: Bitboard,
    pub(super) before: Box<Knowledge>,
}

/// One entry of the engine's game log: an announcement and the colour it is phrased for (for a
/// full-information `play`, what the mover was told). The belief reads it from its player's side.
pub(super) type Told = (Color, Observation);

/// `told` as `us` learns it: as is when phrased for `us`, else as the opponent of its mover sees it.
pub(super) fn seen_by((side, observation): Told, us: Color) -> Option<Observation> {
    if side == us {
        Some(observation)
    } else {
        observation.for_opponent()
    }
}

/// Adds `points` to the announcement that captured them (see [`Engine::late_captures`]) and takes them off
/// the known board.
pub(super) fn amend_captures(knowledge: &mut Knowledge, us: Color, points: Bitboard) -> Result<(), EngineError> {
    if (points - knowledge.board.geometry().mask()).any() {
        return Err(EngineError::Inconsistent("captured point off the board".into()));
    }
    let ours = knowledge.board.stones(us);
    let ours_taken = (points & ours).any();
    if ours_taken && (points - ours).any() {
        return Err(EngineError::Inconsistent("captures of both colours at once".into()));
    }
    let entry = knowledge.events.iter_mut().rev().find(|(side, observation)| {
        *side == us
            && if ours_taken {
                matches!(observation, Observation::OpponentMove { .. })
            } else {
                matches!(observation, Observation::OwnOk { .. })
            }
    });
    match entry {
        Some((_, Observation::OpponentMove { captured } | Observation::OwnOk { captured, .. })) => {
            *captured |= points;
        }
        _ => return Err(EngineError::Inconsistent("no move that could have captured these stones".into())),
    }
    knowledge.board.remove_stones(points);
    if !ours_taken {
        knowledge.hidden_opponent_moves = knowledge.hidden_opponent_moves.saturating_sub(points.count());
    }
    Ok(())
}

/// What the engine knows: its stones and the opponent stones it has seen, whose turn it is, and what it was told.
#[derive(Clone, Debug)]
pub(super) struct Knowledge {
    /// Own stones plus opponent stones seen (played with `play`).
    pub(super) board: Board,
    /// The colour whose hidden opponent stones we track; set by the first genmove or phantom report.
    pub(super) us: Option<Color>,
    pub(super) to_move: Color,
    /// Points tried illegal during the current turn.
    pub(super) illegal_this_turn: Bitboard,
    /// Everything that happened, in order.
    pub(super) events: Vec<Told>,
    /// Turns played so far.
    pub(super) move_number: u32,
    /// Unseen opponent stones placed and not known to be captured since.
    pub(super) hidden_opponent_moves: u32,
}

impl Knowledge {
    pub(super) fn new(size: usize) -> Knowledge {
        Knowledge {
            board: Board::new(size).expect("size checked by caller"),
            us: None,
            to_move: Color::Black,
            illegal_this_turn: Bitboard::EMPTY,
            events: Vec::new(),
            move_number: 0,
            hidden_opponent_moves: 0,
        }
    }

    pub(super) fn end_turn(&mut self, mover: Color) {
        self.to_move = mover.opponent();
        self.illegal_this_turn = Bitboard::EMPTY;
        self.move_number += 1;
    }

    /// True when the last thing the opponent did was a pass.
    pub(super) fn opponent_just_passed(&self, us: Color) -> bool {
        matches!(self.events.last().and_then(|&told| seen_by(told, us)), Some(Observation::OpponentPass))
    }
}

/// Opponent stones read from `us`'s refused tries (an illegal try read as a stone, as Golois does): every
/// refused point not since captured by us or played by us.
pub(super) fn inferred_opponent(events: &[Told], us: Color) -> Bitboard {
    let mut stones = Bitboard::EMPTY;
    for &(side, observation) in events {
        match observation {
            Observation::OwnIllegal { point } if side == us => stones.insert(point),
            Observation::OwnOk { point, captured } if side == us => {
                stones -= captured;
                stones.remove(point);
            }
            _ => {}
        }
    }
    stones
}
