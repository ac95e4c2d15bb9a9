//! The announcements as the belief stores them, and what they prove on their own: blocked tries.

use crate::bitboard::{Bitboard, Geometry};
use crate::point::Point;

/// An illegal try that a stone or a suicide explains, with no capture around it since, is tried again only when
/// at least this share of the particles find it legal now (it can only have become a capture).
pub const RETRY_LEGAL_SHARE: f32 = 0.5;

/// Points where an illegal try of ours says a retry would be illegal again, from the announcements alone.
///
/// An illegal try at an empty-looking point has three explanations: an opponent stone stood there, the stone
/// would have been suicide, or it retook a ko. Ko is possible only when the opponent's move just before captured
/// exactly one stone of ours, there (then the point is in fact empty, so no stone was hit). Suicide needs every
/// point next to the try and to our groups it joins (`L`) to hold an opponent stone: it is impossible when `L`
/// and the stones already proven need more stones than the opponent has, when `L` holds a point proven empty,
/// or, found later, when we play legally on a point of `L` that none of our captures since emptied. With ko and
/// suicide excluded the point holds an opponent stone, and it stays there until one of our reported captures
/// takes it (the opponent cannot remove its own stones): such points are `proven`. The others are `ambiguous`.
/// Under positional superko after a capture, a fourth explanation, a repetition, leaves the point possibly empty:
/// such a try is never proven, and stays blocked only while no particle finds it legal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct BlockedTries {
    /// Opponent stones our illegal tries proved, not captured since.
    pub(super) proven: Bitboard,
    /// Illegal tries explained by a stone or by suicide, not captured since.
    pub(super) ambiguous: Vec<AmbiguousTry>,
}

/// An illegal try of ours that a stone or suicide explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AmbiguousTry {
    /// The point tried.
    pub(super) point: Point,
    /// The points that all held opponent stones if it was suicide.
    pub(super) needs_stones: Bitboard,
    /// Our stones next to the try (with it, they would have formed the group without liberties).
    pub(super) joined: Bitboard,
    /// Opponent stones we captured since the try.
    pub(super) captured_since: Bitboard,
    /// A capture since emptied a point around it: if it was suicide, it may be legal now.
    pub(super) opened: bool,
    /// A repetition (superko) may explain it: no later fact proves a stone there.
    pub(super) repetition_possible: bool,
}

impl BlockedTries {
    /// Records our illegal try at `point`. `last` is the last announcement before it other than our own
    /// illegal tries this turn (the move that may have set a ko); `own`, `opponent_count` and `known_empty`
    /// are as they stood when we tried; `repetition_possible` when a superko repetition may explain it.
    pub(super) fn illegal(
        &mut self,
        geometry: &Geometry,
        point: Point,
        last: Option<Event>,
        (own, opponent_count, known_empty): (Bitboard, i64, Bitboard),
        repetition_possible: bool,
    ) {
        if own.contains(point) || self.proven.contains(point) {
            return;
        }
        let single = Bitboard::from_point(point);
        let ko_possible = matches!(
            last,
            Some(Event::OpponentHidden { captured } | Event::OpponentSeen { captured, .. }) if captured == single
        );
        if ko_possible {
            return;
        }
        let joined = geometry.flood(geometry.expand(single), own | single);
        let needs_stones = geometry.adjacent(joined) - joined - own;
        if needs_stones.is_empty() {
            // Suicide for certain: no stone was hit.
            return;
        }
        let suicide_impossible =
            i64::from((needs_stones | self.proven).count()) > opponent_count || (needs_stones & known_empty).any();
        self.ambiguous.retain(|t| t.point != point);
        if suicide_impossible && !repetition_possible {
            self.proven.insert(point);
        } else {
            let joined = joined - single;
            self.ambiguous.push(AmbiguousTry {
                point,
                needs_stones,
                joined,
                captured_since: Bitboard::EMPTY,
                // A repetition can end whenever the position moves on: blocked only while every particle agrees.
                opened: repetition_possible,
                repetition_possible,
            });
        }
    }

    /// Our stone stood at `point` and captured `captured`: the stones there are gone, and a point that had to
    /// hold a stone for a suicide (and was not emptied by a capture since) proves the other explanation.
    pub(super) fn own_ok(&mut self, point: Point, captured: Bitboard) {
        let gone = captured | Bitboard::from_point(point);
        self.proven -= gone;
        self.ambiguous.retain(|t| !gone.contains(t.point));
        for t in &mut self.ambiguous {
            t.captured_since |= captured;
            t.opened |= (t.needs_stones & captured).any();
        }
        let (refuted, kept): (Vec<AmbiguousTry>, Vec<AmbiguousTry>) = self.ambiguous.iter().partition(|t| {
            t.needs_stones.contains(point) && !t.captured_since.contains(point) && !t.repetition_possible
        });
        for t in refuted {
            self.proven.insert(t.point);
        }
        self.ambiguous = kept;
    }

    /// The opponent captured these stones of ours: a suicide next to them may be legal now.
    pub(super) fn own_captured(&mut self, captured: Bitboard) {
        for t in &mut self.ambiguous {
            t.opened |= (t.joined & captured).any();
        }
    }
}

impl Event {
    /// The stones this announcement says were captured (none for a try without capture, a pass, an illegal try).
    pub(super) fn captured(self) -> Bitboard {
        match self {
            Event::OwnOk { captured, .. }
            | Event::OpponentHidden { captured }
            | Event::OpponentSeen { captured, .. } => captured,
            Event::OwnIllegal { .. } | Event::OwnPass | Event::OpponentIllegal | Event::OpponentPass => Bitboard::EMPTY,
        }
    }
}

/// One announcement, as the belief stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// Our stone at `point` stood and captured `captured`.
    OwnOk { point: Point, captured: Bitboard },
    /// Our try at `point` was illegal.
    OwnIllegal { point: Point },
    /// We passed (or a capped run of illegal tries was turned into a pass).
    OwnPass,
    /// The opponent played a hidden stone that captured `captured` of ours.
    OpponentHidden { captured: Bitboard },
    /// The opponent played at a known point.
    OpponentSeen { point: Point, captured: Bitboard },
    /// The opponent made an illegal try.
    OpponentIllegal,
    /// The opponent passed.
    OpponentPass,
}
