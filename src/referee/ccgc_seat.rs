//! The championship dialect seat (`ccgc:`): an engine speaking the platform's line protocol
//! (`shared/ccgc.md`), told what the rules announce in that dialect, with its clock kept by the runner
//! (the dialect does not transmit one).
//!
//! Lines that ask for a try (`new black`, `refuse` under `retry`, `move go`, `move pass`) are held until
//! the game loop asks this seat for a try, so the time the engine takes is measured from the moment the
//! question is written.

use super::clock::Clock;
use super::player::{Answer, GameSetup, PlayerError};
use super::process::{EngineProcess, ProcessError};
use super::seat::Seat;
use crate::bitboard::Bitboard;
use crate::ccgc::line::{format_point, parse_point};
use crate::color::Color;
use crate::judge::IllegalRule;
use crate::observation::Observation;
use crate::point::Move;
use std::time::{Duration, Instant};

/// An engine speaking the championship dialect.
pub struct CcgcSeat {
    process: EngineProcess,
    color: Color,
    size: usize,
    timeout: Duration,
    rule: IllegalRule,
    /// The line that asks for the next try, written when the loop asks for it.
    question: Option<&'static str>,
    warnings: Vec<String>,
}

impl CcgcSeat {
    /// The seat over a started process; `timeout` bounds every line but a try.
    pub fn new(process: EngineProcess, color: Color, size: usize, timeout: Duration) -> CcgcSeat {
        CcgcSeat { process, color, size, timeout, rule: IllegalRule::Retry, question: None, warnings: Vec::new() }
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        Ok(self.process.send_line(line)?)
    }

    /// The next non-blank line within `limit` (control characters dropped, trimmed).
    fn answer(&mut self, asked: &str, limit: Duration) -> Result<String, ProcessError> {
        let deadline = Instant::now() + limit;
        loop {
            let line = self.process.receive_line(asked, deadline, limit)?;
            let line: String = line.chars().filter(|c| !c.is_control()).collect();
            if !line.trim().is_empty() {
                return Ok(line.trim().to_string());
            }
        }
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        let lower = text.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["move", "pass"] => Some(Move::Pass),
            ["move", point] => parse_point(point, self.size).map(Move::Play),
            _ => None,
        }
    }

    fn points(&self, set: Bitboard) -> String {
        let joined: String = set.iter().map(|p| format_point(p, self.size)).collect();
        format!("{} {joined}", set.count())
    }

    /// Lines for one announcement: written now, and (at most one) held as the next question.
    fn lines_for(&mut self, observation: &Observation) -> (Vec<String>, Option<&'static str>) {
        let retry = self.rule == IllegalRule::Retry;
        match *observation {
            Observation::OwnOk { captured, .. } if captured.any() => {
                (vec!["accept".into(), format!("take {}", self.points(captured))], None)
            }
            Observation::OwnOk { .. } => (vec!["accept".into()], None),
            Observation::OwnIllegal { .. } if retry => (Vec::new(), Some("refuse")),
            Observation::OwnIllegal { .. } => (vec!["refuse".into()], None),
            Observation::OwnPass => (vec!["accept".into()], None),
            Observation::OpponentMove { captured } | Observation::OpponentSeen { captured, .. } => {
                let taked = captured.any().then(|| format!("taked {}", self.points(captured)));
                (taked.into_iter().collect(), Some("move go"))
            }
            Observation::OpponentPass => (Vec::new(), Some("move pass")),
            // Not announced under retry; under lose-turn the turn comes back with no stone placed.
            Observation::OpponentIllegal if retry => (Vec::new(), None),
            Observation::OpponentIllegal => (Vec::new(), Some("move pass")),
        }
    }

    /// Our turn was passed for us after a refusal (too many illegal tries): the engine still answers the
    /// `refuse`, and that answer is dropped; the dialect has no line for a forced pass.
    fn forced_pass(&mut self) -> Result<String, PlayerError> {
        self.send("refuse")?;
        let dropped = self.answer("refuse", self.timeout)?;
        self.warnings.push(format!(
            "{}: turn passed after too many illegal tries; its answer '{dropped}' was dropped (the dialect cannot say so)",
            self.color
        ));
        Ok("refuse (turn passed)".to_string())
    }
}

impl Seat for CcgcSeat {
    fn greet(&mut self) -> Result<String, PlayerError> {
        self.send("name?")?;
        let answer = self.answer("name?", self.timeout)?;
        match answer.split_once(' ') {
            Some((word, name)) if word.eq_ignore_ascii_case("name") && !name.trim().is_empty() => {
                Ok(name.trim().to_string())
            }
            _ => Err(PlayerError::Refused { command: "name?".into(), message: answer }),
        }
    }

    fn setup(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.rule = setup.rule;
        self.question = None;
        self.send("name?")?;
        let name = self.answer("name?", self.timeout)?;
        if !name.to_ascii_lowercase().starts_with("name ") {
            self.warnings.push(format!("{}: answer to 'name?' was '{name}'", self.color));
        }
        match self.color {
            Color::Black => self.question = Some("new black"),
            Color::White => self.send("new white")?,
        }
        Ok(())
    }

    fn time_left(&mut self, _clock: &Clock) -> Result<(), PlayerError> {
        // The dialect carries no clock; the runner enforces it.
        Ok(())
    }

    fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError> {
        let Some(question) = self.question.take() else {
            return Err(PlayerError::Refused {
                command: "(a try)".into(),
                message: "no dialect line asks for a try now".into(),
            });
        };
        self.send(question)?;
        let start = Instant::now();
        let text = self.answer(question, limit)?;
        let elapsed = start.elapsed();
        let mv = self.parse_move(&text).ok_or(PlayerError::BadMove(text))?;
        Ok((Answer::Move(mv), elapsed))
    }

    fn tell(&mut self, observation: &Observation) -> Result<String, PlayerError> {
        if *observation == Observation::OwnPass && self.question == Some("refuse") {
            self.question = None;
            return self.forced_pass();
        }
        let (lines, question) = self.lines_for(observation);
        for line in &lines {
            self.send(line)?;
        }
        let mut told = lines.join("; ");
        if let Some(question) = question {
            self.question = Some(question);
            if !told.is_empty() {
                told.push_str("; ");
            }
            told.push_str(question);
        }
        Ok(told)
    }

    fn belief(&mut self) -> Result<Option<Vec<f64>>, PlayerError> {
        Ok(None)
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn kill_and_stderr_tail(&mut self) -> String {
        self.process.kill_and_stderr_tail()
    }

    fn finish(mut self: Box<Self>) {
        let _ = self.send("end");
        let _ = self.send("quit");
        self.process.close(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_vertex;

    fn seat(rule: IllegalRule) -> CcgcSeat {
        let process = EngineProcess::spawn("cat >/dev/null").expect("sh exists");
        let mut seat = CcgcSeat::new(process, Color::Black, 9, Duration::from_secs(1));
        seat.rule = rule;
        seat
    }

    #[test]
    fn announcements_become_dialect_lines() {
        let mut s = seat(IllegalRule::Retry);
        let p = |v: &str| parse_vertex(v, 9).unwrap().point().unwrap();
        let two: Bitboard = [p("D6"), p("F6")].into_iter().collect();
        let (lines, question) = s.lines_for(&Observation::OwnOk { point: p("E5"), captured: two });
        assert_eq!((lines, question), (vec!["accept".to_string(), "take 2 DDDF".to_string()], None));
        assert_eq!(s.lines_for(&Observation::OwnIllegal { point: p("E5") }), (vec![], Some("refuse")));
        assert_eq!(s.lines_for(&Observation::OpponentIllegal), (vec![], None));
        assert_eq!(
            s.lines_for(&Observation::OpponentMove { captured: Bitboard::from_point(p("A9")) }),
            (vec!["taked 1 AA".to_string()], Some("move go"))
        );
        assert_eq!(s.lines_for(&Observation::OpponentPass), (vec![], Some("move pass")));
        s.rule = IllegalRule::LoseTurn;
        assert_eq!(s.lines_for(&Observation::OwnIllegal { point: p("E5") }), (vec!["refuse".to_string()], None));
        assert_eq!(s.lines_for(&Observation::OpponentIllegal), (vec![], Some("move pass")));
        assert_eq!(s.parse_move("MOVE ii"), Some(Move::Play(p("J1"))));
        assert_eq!(s.parse_move("move pass"), Some(Move::Pass));
        assert_eq!(s.parse_move("move J9"), None);
        s.process.kill();
    }
}
