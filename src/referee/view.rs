//! The plain-GTP wrapper's view: lets an ordinary Go engine play Phantom Go by showing it only its own stones
//! and the opponent stones the announcements revealed, and turns its answers into tries.
//!
//! How it works (all from announcements, never from the hidden truth):
//! - The wrapper keeps the engine's view board: its own stones (exact, since every capture of them is
//!   announced) and opponent stones inferred from its illegal tries.
//! - `genmove` answers a try and the plain engine plays it on its own board. When the try is legal, the
//!   announced captures are applied; when the engine's board no longer matches the view (it missed a
//!   capture, or removed a stone that was only believed), the wrapper re-syncs it before its next genmove:
//!   `clear_board`, then one `play` per stone of the view.
//! - When the try is illegal, the wrapper sends `undo`, then `play <opponent> <point>`, so the engine sees an
//!   opponent stone there and chooses another point. If that stone cannot stand on the view board (it would
//!   capture or have no liberty: the try was suicide or ko rather than a hidden stone) the point is only
//!   remembered as tried. If the engine answers a point it already tried illegally this turn, the wrapper
//!   takes it back with `undo` and passes instead (one repeat is enough: a deterministic engine would repeat
//!   it forever). An engine without `undo` is re-synced instead.
//! - A plain engine passes as soon as its view looks settled, which in Phantom Go hands the board to an
//!   opponent who keeps playing. So the wrapper replaces a pass (and a repeated illegal point) by a try at a
//!   random point that is empty on the view, legal there, not one of the engine's single-point eyes and not
//!   tried this turn (seeded by the game seed); it passes only when no such point is left. Under area
//!   scoring such fill-in costs nothing, and every illegal fill-in reveals a hidden stone. The engine's board
//!   is re-synced before its next genmove.
//! - Opponent stones believed from illegal tries are dropped when they are left without liberties or they
//!   leave one of the engine's own chains without liberties, so the view is always a legal position and the
//!   re-sync never captures.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::observation::Observation;
use crate::point::{Move, Point};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What the wrapper knows for one plain engine in one game.
#[derive(Clone, Debug)]
pub struct ViewState {
    color: Color,
    view: Board,
    tried_this_turn: Bitboard,
    in_sync: bool,
    rng: Xoshiro256PlusPlus,
}

fn letter(color: Color) -> char {
    color.letter().to_ascii_lowercase()
}

impl ViewState {
    /// A view on an empty board of `size` for the engine playing `color`, or `None` for a bad size; `seed`
    /// drives the fill-in tries.
    pub fn new(size: usize, color: Color, seed: u64) -> Option<ViewState> {
        Some(ViewState {
            color,
            view: Board::new(size)?,
            tried_this_turn: Bitboard::EMPTY,
            in_sync: true,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        })
    }

    /// A try to make instead of the engine's pass (or repeated illegal point): a random point empty and legal
    /// on the view, not an own single-point eye, not tried this turn. The engine's board no longer matches
    /// afterwards (it did not play it), so the view is marked out of sync. `None`: nothing left, pass.
    pub fn fill_in(&mut self) -> Option<Point> {
        let mut candidates = self.view.empty() - self.view.single_point_eyes(self.color) - self.tried_this_turn;
        while candidates.any() {
            let n = self.rng.gen_range(0..candidates.count());
            let point = candidates.nth(n)?;
            if self.view.legality(self.color, point).is_ok() {
                self.in_sync = false;
                return Some(point);
            }
            candidates.remove(point);
        }
        None
    }

    /// The view board: own stones and believed opponent stones.
    pub fn board(&self) -> &Board {
        &self.view
    }

    /// True when the engine's own board is known to match the view.
    pub fn is_in_sync(&self) -> bool {
        self.in_sync
    }

    /// Records that the engine refused a command, so its board is no longer known.
    pub fn mark_out_of_sync(&mut self) {
        self.in_sync = false;
    }

    /// Commands that rebuild the engine's board from the view (`clear_board` then `play`s); empty when it is
    /// in sync. The view is taken to be in sync afterwards; call [`ViewState::mark_out_of_sync`] if one fails.
    pub fn resync_commands(&mut self) -> Vec<String> {
        if self.in_sync {
            return Vec::new();
        }
        self.in_sync = true;
        let size = self.view.size();
        let mut commands = vec!["clear_board".to_string()];
        for color in Color::BOTH {
            for point in self.view.stones(color) {
                commands.push(format!("play {} {}", letter(color), point.to_vertex(size)));
            }
        }
        commands
    }

    /// True when the engine's answer repeats a point already tried illegally this turn: the wrapper sends
    /// `undo` and passes instead.
    pub fn is_repeat(&self, mv: Move) -> bool {
        mv.point().is_some_and(|point| self.tried_this_turn.contains(point))
    }

    /// Drops believed opponent stones until the view is a legal position.
    fn clean_up(&mut self) {
        let opponent = self.color.opponent();
        for _ in 0..8 {
            let dead = self.view.chains_without_liberty();
            if dead.is_empty() {
                return;
            }
            let dead_opponent = dead & self.view.stones(opponent);
            let dead_own = dead & self.view.stones(self.color);
            let blocking = self.view.geometry().adjacent(dead_own) & self.view.stones(opponent);
            self.view.remove_stones(dead_opponent | blocking);
            self.in_sync = false;
        }
    }

    /// Applies what the engine was told; returns the commands to send it now, in order. Stop at the first
    /// refused one and call [`ViewState::mark_out_of_sync`].
    pub fn observe(&mut self, observation: &Observation) -> Vec<String> {
        let size = self.view.size();
        let opponent = self.color.opponent();
        let mut commands = Vec::new();
        match *observation {
            Observation::OwnIllegal { point } => {
                self.tried_this_turn.insert(point);
                if self.in_sync {
                    commands.push("undo".to_string());
                }
                if self.believe_opponent_stone(point) && self.in_sync {
                    commands.push(format!("play {} {}", letter(opponent), point.to_vertex(size)));
                }
            }
            Observation::OwnOk { point, captured } => {
                self.tried_this_turn = Bitboard::EMPTY;
                let mut engine_board = self.view.clone();
                let engine_ok = engine_board.try_play(self.color, point).is_ok();
                self.view.remove_stones(captured);
                if self.view.color_at(point).is_some() {
                    self.view.remove_stones(Bitboard::from_point(point));
                }
                self.view.put_stone(self.color, point);
                self.view.pass();
                self.clean_up();
                if !engine_ok
                    || engine_board.stones(Color::Black) != self.view.stones(Color::Black)
                    || engine_board.stones(Color::White) != self.view.stones(Color::White)
                {
                    self.in_sync = false;
                }
            }
            Observation::OpponentMove { captured } => {
                self.tried_this_turn = Bitboard::EMPTY;
                let lost = captured & self.view.stones(self.color);
                if lost.any() {
                    self.view.remove_stones(lost);
                    self.in_sync = false;
                }
                self.clean_up();
            }
            Observation::OwnPass
            | Observation::OpponentIllegal
            | Observation::OpponentPass
            | Observation::OpponentSeen { .. } => {
                self.tried_this_turn = Bitboard::EMPTY;
            }
        }
        commands
    }

    /// Puts a believed opponent stone at `point` when it can stand on the view (empty, captures nothing,
    /// has a liberty); true when it was put.
    fn believe_opponent_stone(&mut self, point: Point) -> bool {
        let opponent = self.color.opponent();
        let mut next = self.view.clone();
        match next.try_play(opponent, point) {
            Ok(captured) if captured.is_empty() => {
                next.pass();
                self.view = next;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_vertex;

    fn point(v: &str) -> Point {
        parse_vertex(v, 5).unwrap().point().unwrap()
    }

    #[test]
    fn illegal_try_becomes_a_believed_stone() {
        let mut view = ViewState::new(5, Color::Black, 1).unwrap();
        let commands = view.observe(&Observation::OwnIllegal { point: point("C3") });
        assert_eq!(commands, vec!["undo", "play w C3"]);
        assert_eq!(view.board().color_at(point("C3")), Some(Color::White));
        assert!(view.is_repeat(Move::Play(point("C3"))));
        assert!(view.is_in_sync());
        view.observe(&Observation::OwnOk { point: point("D3"), captured: Bitboard::EMPTY });
        assert!(view.is_in_sync());
        assert!(!view.is_repeat(Move::Play(point("C3"))));
    }

    #[test]
    fn captured_own_stones_force_a_resync() {
        let mut view = ViewState::new(5, Color::White, 1).unwrap();
        view.observe(&Observation::OwnOk { point: point("A1"), captured: Bitboard::EMPTY });
        assert!(view.is_in_sync());
        view.observe(&Observation::OpponentMove { captured: Bitboard::from_point(point("A1")) });
        assert!(!view.is_in_sync());
        assert_eq!(view.resync_commands(), vec!["clear_board"]);
        assert!(view.resync_commands().is_empty());
    }

    #[test]
    fn capture_of_an_unseen_stone_is_applied() {
        let mut view = ViewState::new(5, Color::Black, 1).unwrap();
        for v in ["A2", "B1"] {
            view.observe(&Observation::OwnOk { point: point(v), captured: Bitboard::EMPTY });
        }
        // A1 would be suicide on the view: not believed as a stone, only remembered as tried.
        let commands = view.observe(&Observation::OwnIllegal { point: point("A1") });
        assert_eq!(commands, vec!["undo"]);
        // Our C1 captured an unseen White stone at D1; the engine's board never had it: still in sync.
        view.observe(&Observation::OwnOk { point: point("C1"), captured: Bitboard::from_point(point("D1")) });
        assert!(view.is_in_sync());
        assert_eq!(view.board().stones(Color::Black).count(), 3);
    }

    #[test]
    fn fill_in_avoids_eyes_and_tried_points() {
        let mut view = ViewState::new(2, Color::Black, 7).unwrap();
        // 2x2: Black A1; B2 tried illegal (White stone believed there). Left: A2 and B1.
        view.observe(&Observation::OwnOk {
            point: parse_vertex("A1", 2).unwrap().point().unwrap(),
            captured: Bitboard::EMPTY,
        });
        view.observe(&Observation::OwnIllegal { point: parse_vertex("B2", 2).unwrap().point().unwrap() });
        let point = view.fill_in().expect("A2 or B1 is open");
        assert!(["A2", "B1"].contains(&point.to_vertex(2).as_str()));
        assert!(!view.is_in_sync());
    }
}
