//! The plain GTP seat (`view:`): a GTP engine with no phantom extensions, kept in step by the view wrapper
//! ([`ViewState`]), which plays what its player learns onto the engine's board as ordinary moves.

use super::clock::Clock;
use super::player::{announcement, Answer, GameSetup, GtpEngine, PlayerError};
use super::seat::Seat;
use super::view::ViewState;
use crate::observation::Observation;
use crate::point::Move;
use std::time::Duration;

/// A plain GTP engine behind the view wrapper.
pub struct ViewSeat {
    gtp: GtpEngine,
    view: ViewState,
}

impl ViewSeat {
    /// The seat over a started engine; `seed` drives the wrapper's fill-in tries.
    ///
    /// # Errors
    /// [`PlayerError::Refused`] for a board size the wrapper cannot keep.
    pub fn new(gtp: GtpEngine, seed: u64) -> Result<ViewSeat, PlayerError> {
        let view = ViewState::new(gtp.size, gtp.color, seed).ok_or_else(|| PlayerError::Refused {
            command: format!("boardsize {}", gtp.size),
            message: "unsupported size".into(),
        })?;
        Ok(ViewSeat { gtp, view })
    }
}

impl Seat for ViewSeat {
    fn greet(&mut self) -> Result<String, PlayerError> {
        self.gtp.greet()
    }

    fn setup(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.gtp.setup_board(setup)?;
        self.gtp.setup_time(setup)
    }

    fn time_left(&mut self, clock: &Clock) -> Result<(), PlayerError> {
        self.gtp.time_left(clock)
    }

    fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError> {
        for command in self.view.resync_commands() {
            self.gtp.send_required(&command)?;
        }
        let (answer, elapsed) = self.gtp.genmove(limit)?;
        let Answer::Move(mv) = answer else {
            return Ok((answer, elapsed));
        };
        let is_repeat = self.view.is_repeat(mv);
        if is_repeat || mv == Move::Pass {
            // The engine's board holds its answer; the fill-in (if any) re-syncs it before the next genmove.
            let substitute = self.view.fill_in();
            if is_repeat && substitute.is_none() {
                let undo = self.gtp.send("undo")?;
                if !undo.success {
                    self.view.mark_out_of_sync();
                }
            }
            let mv = substitute.map_or(Move::Pass, Move::Play);
            return Ok((Answer::Move(mv), elapsed));
        }
        Ok((answer, elapsed))
    }

    fn tell(&mut self, observation: &Observation) -> Result<String, PlayerError> {
        let told = announcement(observation, self.gtp.size);
        for command in self.view.observe(observation) {
            let reply = self.gtp.send(&command)?;
            if !reply.success {
                self.view.mark_out_of_sync();
                break;
            }
        }
        Ok(told)
    }

    fn belief(&mut self) -> Result<Option<Vec<f64>>, PlayerError> {
        Ok(None)
    }

    fn warnings(&self) -> &[String] {
        &self.gtp.warnings
    }

    fn kill_and_stderr_tail(&mut self) -> String {
        self.gtp.link.process.kill_and_stderr_tail()
    }

    fn finish(self: Box<Self>) {
        self.gtp.link.quit();
    }
}
