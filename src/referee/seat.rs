//! The seat abstraction: one side of a match game as the game loop sees it, whatever protocol the engine
//! behind it speaks. A new kind of engine is a new seat, not a change to the loop.

use super::ccgc_seat::CcgcSeat;
use super::clock::Clock;
use super::full_seat::FullSeat;
use super::gtp_link::GtpLink;
use super::player::{Answer, EngineSpec, GameSetup, GtpEngine, PhantomGtpSeat, PlayerError, SeatKind};
use super::process::EngineProcess;
use super::view_seat::ViewSeat;
use crate::color::Color;
use crate::judge::Ruling;
use crate::observation::Observation;
use std::io::Write;
use std::time::Duration;

/// One engine in one game.
pub trait Seat: Send {
    /// Greets the engine before any game (a GTP engine answers `protocol_version`, `name` and the board size;
    /// a dialect engine answers `name?`); returns the name it gives.
    ///
    /// # Errors
    /// A process failure, or a greeting refused or not answered as the protocol says.
    fn greet(&mut self) -> Result<String, PlayerError>;

    /// Sends the game setup (size, komi, rules, time, as far as the protocol carries them).
    ///
    /// # Errors
    /// A process failure, or a refused setting the game needs.
    fn setup(&mut self, setup: &GameSetup) -> Result<(), PlayerError>;

    /// Tells the engine its clock before a try, when the protocol can.
    ///
    /// # Errors
    /// A process failure.
    fn time_left(&mut self, clock: &Clock) -> Result<(), PlayerError>;

    /// Asks for a try within `limit`; returns it and how long the engine took.
    ///
    /// # Errors
    /// A process failure (a timeout included), or an answer that is no move.
    fn genmove(&mut self, limit: Duration) -> Result<(Answer, Duration), PlayerError>;

    /// What this seat's engine learns of `ruling` when it plays `listener`, to be given to [`Seat::tell`] in
    /// order: the judge's announcements (a seat that shows more, like `full:`, says so here).
    fn announcements(&self, ruling: &Ruling, listener: Color) -> Vec<Observation> {
        ruling.observations_for(listener)
    }

    /// Tells the engine one announcement; returns the text of what it was told (empty for nothing), for
    /// the records.
    ///
    /// # Errors
    /// A process failure.
    fn tell(&mut self, observation: &Observation) -> Result<String, PlayerError>;

    /// The engine's belief (probability of an opponent stone per point), when it can give one.
    ///
    /// # Errors
    /// A process failure.
    fn belief(&mut self) -> Result<Option<Vec<f64>>, PlayerError>;

    /// Non-fatal oddities seen so far.
    fn warnings(&self) -> &[String];

    /// Kills the engine (it broke) and returns the tail of its stderr.
    fn kill_and_stderr_tail(&mut self) -> String;

    /// Ends the game for the engine, says goodbye and makes sure the process is gone.
    fn finish(self: Box<Self>);
}

/// Starts the engine of `spec` for `color` in a game with `seed`, and seats it by the protocol it speaks;
/// `timeout` bounds every command but a try; `transcript` receives every line both ways.
///
/// # Errors
/// [`PlayerError::Process`] when it cannot be started.
pub fn start(
    spec: &EngineSpec,
    seed: u64,
    color: Color,
    size: usize,
    timeout: Duration,
    transcript: Option<Box<dyn Write + Send>>,
) -> Result<Box<dyn Seat>, PlayerError> {
    start_labelled(spec, seed, color, size, timeout, transcript, &format!("{} {color}", spec.name))
}

/// [`start`], naming the engine `label` in debug lines.
///
/// # Errors
/// [`PlayerError::Process`] when it cannot be started.
pub fn start_labelled(
    spec: &EngineSpec,
    seed: u64,
    color: Color,
    size: usize,
    timeout: Duration,
    transcript: Option<Box<dyn Write + Send>>,
    label: &str,
) -> Result<Box<dyn Seat>, PlayerError> {
    let mut process = EngineProcess::spawn(&spec.command_for_seed(seed))?;
    process.set_label(label);
    if let Some(sink) = transcript {
        process = process.with_transcript(sink);
        process.note(&format!("{} plays {color} ({:?}): {}", spec.name, spec.kind, spec.command_for_seed(seed)));
    }
    Ok(match spec.kind {
        SeatKind::PhantomGtp => {
            Box::new(PhantomGtpSeat::new(GtpEngine::new(GtpLink { process }, color, size, timeout)))
        }
        SeatKind::Full => {
            Box::new(FullSeat::new(PhantomGtpSeat::new(GtpEngine::new(GtpLink { process }, color, size, timeout))))
        }
        SeatKind::View => Box::new(ViewSeat::new(GtpEngine::new(GtpLink { process }, color, size, timeout), seed)?),
        SeatKind::Ccgc => Box::new(CcgcSeat::new(process, color, size, timeout)),
    })
}
