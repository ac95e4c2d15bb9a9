//! The seeing seat (`full:`): a phantom-GTP engine shown the whole board. Each legal opponent move is told
//! with `play <colour> <vertex>` (the engine applies the captures of its own stones itself), an opponent
//! pass with `phantom-opponent pass`, an illegal opponent try with `phantom-opponent illegal`; its own tries
//! get `phantom-result` as in any phantom game. It measures what a perfect belief is worth: the gap
//! between an engine and its seeing twin.

use super::clock::Clock;
use super::player::{announcement, Answer, GameSetup, PhantomGtpSeat, PlayerError};
use super::seat::Seat;
use crate::color::Color;
use crate::judge::Ruling;
use crate::observation::Observation;
use std::time::Duration;

/// A phantom-GTP engine that is shown every opponent move.
pub struct FullSeat {
    seat: PhantomGtpSeat,
}

impl FullSeat {
    /// The seat over a phantom-GTP seat.
    pub fn new(seat: PhantomGtpSeat) -> FullSeat {
        FullSeat { seat }
    }
}

/// What the seeing player learns of `ruling`: its own tries as announced, the opponent's as the opponent
/// learned them, turned round (a legal stone seen where it stands, an illegal try, a pass, a forced pass).
pub fn shown(ruling: &Ruling, listener: Color) -> Vec<Observation> {
    if listener == ruling.mover {
        ruling.observations_for(listener)
    } else {
        ruling.observations_for(ruling.mover).into_iter().filter_map(Observation::for_opponent).collect()
    }
}

impl Seat for FullSeat {
    fn greet(&mut self) -> Result<String, PlayerError> {
        self.seat.greet()
    }

    fn setup(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.seat.setup(setup)
    }

    fn time_left(&mut self, clock: &Clock) -> Result<(), PlayerError> {
        self.seat.time_left(clock)
    }

    fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError> {
        self.seat.genmove(limit)
    }

    fn announcements(&self, ruling: &Ruling, listener: Color) -> Vec<Observation> {
        shown(ruling, listener)
    }

    fn tell(&mut self, observation: &Observation) -> Result<String, PlayerError> {
        if !matches!(observation, Observation::OpponentSeen { .. }) {
            return self.seat.tell(observation);
        }
        let gtp = self.seat.engine();
        let told = full_line(observation, gtp.color, gtp.size);
        let reply = gtp.send(&told)?;
        if !reply.success {
            let warning = format!("{}: refused '{told}' ({}); its board no longer matches", gtp.color, reply.text);
            gtp.warnings.push(warning);
        }
        Ok(told)
    }

    fn belief(&mut self) -> Result<Option<Vec<f64>>, PlayerError> {
        self.seat.belief()
    }

    fn warnings(&self) -> &[String] {
        self.seat.warnings()
    }

    fn kill_and_stderr_tail(&mut self) -> String {
        self.seat.kill_and_stderr_tail()
    }

    fn finish(self: Box<Self>) {
        Box::new(self.seat).finish();
    }
}

/// The line a seeing engine playing `color` gets for an announcement: `play` for a shown opponent move,
/// the phantom line otherwise (empty for its own pass).
pub fn full_line(observation: &Observation, color: Color, size: usize) -> String {
    match *observation {
        Observation::OpponentSeen { point, .. } => {
            format!("play {} {}", color.opponent().letter().to_ascii_lowercase(), point.to_vertex(size))
        }
        _ => announcement(observation, size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::game::{KoRule, Rules};
    use crate::judge::{IllegalRule, Judge};
    use crate::point::{parse_vertex, Move, Point};

    fn point(v: &str) -> Point {
        parse_vertex(v, 5).unwrap().point().unwrap()
    }

    fn judge(rule: IllegalRule) -> Judge {
        Judge::new(Rules { size: 5, komi: 0.5, ko: KoRule::Simple, max_tries: None }, rule).unwrap()
    }

    #[test]
    fn the_seeing_player_is_shown_where_the_opponent_played() {
        let mut judge = judge(IllegalRule::Retry);
        let ruling = judge.submit(Color::Black, Move::Play(point("C3"))).unwrap();
        let seen = shown(&ruling, Color::White);
        assert_eq!(seen, vec![Observation::OpponentSeen { point: point("C3"), captured: Bitboard::EMPTY }]);
        assert_eq!(full_line(&seen[0], Color::White, 5), "play b C3");
        // The mover's own announcements are the judge's.
        assert_eq!(shown(&ruling, Color::Black), ruling.observations_for(Color::Black));
        let illegal = judge.submit(Color::White, Move::Play(point("C3"))).unwrap();
        assert_eq!(shown(&illegal, Color::Black), vec![Observation::OpponentIllegal]);
        assert_eq!(full_line(&Observation::OpponentIllegal, Color::Black, 5), "phantom-opponent illegal");
        let pass = judge.submit(Color::White, Move::Pass).unwrap();
        assert_eq!(shown(&pass, Color::Black), vec![Observation::OpponentPass]);
        assert_eq!(full_line(&Observation::OpponentPass, Color::Black, 5), "phantom-opponent pass");
    }

    #[test]
    fn a_capture_of_own_stones_is_part_of_the_shown_move() {
        let mut judge = judge(IllegalRule::Retry);
        for (color, v) in [(Color::Black, "A1"), (Color::White, "A2"), (Color::Black, "E5")] {
            judge.submit(color, Move::Play(point(v))).unwrap();
        }
        let ruling = judge.submit(Color::White, Move::Play(point("B1"))).unwrap();
        let captured = Bitboard::from_point(point("A1"));
        assert_eq!(shown(&ruling, Color::Black), vec![Observation::OpponentSeen { point: point("B1"), captured }]);
    }

    #[test]
    fn a_forced_pass_is_shown_after_the_illegal_try() {
        let rules = Rules { size: 5, komi: 0.5, ko: KoRule::Simple, max_tries: None };
        let mut judge = Judge::new(rules, IllegalRule::Retry).unwrap().with_max_illegal_per_turn(1);
        judge.submit(Color::Black, Move::Play(point("C3"))).unwrap();
        let ruling = judge.submit(Color::White, Move::Play(point("C3"))).unwrap();
        assert!(ruling.forced_pass);
        assert_eq!(shown(&ruling, Color::Black), vec![Observation::OpponentIllegal, Observation::OpponentPass]);
        assert_eq!(shown(&ruling, Color::Black), ruling.observations_for(Color::Black));
    }
}
