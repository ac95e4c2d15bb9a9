//! Protocol input for both front ends: raw lines stamped with the instant they arrived, read either on the
//! loop's own thread or ahead on a thread of their own, so that a line that waits while the engine is busy
//! (a resampling after `accept`, say, while the championship platform already runs our clock with `move go`)
//! is still timed from its arrival, as the platform times it.

use crate::gtp::{read_line, RawLine};
use crossbeam::channel::{bounded, Receiver};
use std::io::{self, BufRead};
use std::time::Instant;

/// Lines held by a [`ReadAhead`] before its reader waits for the loop.
pub const READ_AHEAD_LINES: usize = 4096;

/// A source of raw protocol lines, each with the instant it arrived.
pub trait LineSource {
    /// The next line and its arrival; `None` at end of input.
    ///
    /// # Errors
    /// Errors of the underlying reader.
    fn next_line(&mut self) -> io::Result<Option<(RawLine, Instant)>>;

    /// True when a line has already arrived and waits to be taken, so the loop answers it before starting
    /// anything idle (a ponder started now would be stopped at once, after the belief update it begins with).
    /// A source that cannot tell without blocking says false.
    fn line_waiting(&self) -> bool {
        false
    }
}

/// Reads on the caller's thread: a line is stamped when the loop asks for it (tests and in-memory input).
pub struct Inline<R>(pub R);

impl<R: BufRead> LineSource for Inline<R> {
    fn next_line(&mut self) -> io::Result<Option<(RawLine, Instant)>> {
        Ok(read_line(&mut self.0)?.map(|line| (line, Instant::now())))
    }
}

/// Reads ahead on a thread of its own and stamps each line as it is read, whatever the loop is doing.
pub struct ReadAhead {
    lines: Receiver<io::Result<(RawLine, Instant)>>,
}

impl ReadAhead {
    /// Starts the reader thread on the input `open` returns (opened on that thread, so a lock such as
    /// `stdin().lock()` need not be `Send`). The thread ends at end of input, on a read error (handed on as the
    /// last item) or when the `ReadAhead` is dropped.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn spawn<F, R>(open: F) -> io::Result<ReadAhead>
    where
        F: FnOnce() -> R + Send + 'static,
        R: BufRead,
    {
        let (sender, lines) = bounded(READ_AHEAD_LINES);
        std::thread::Builder::new().name("input".into()).spawn(move || {
            let mut input = open();
            loop {
                let item = match read_line(&mut input) {
                    Ok(Some(line)) => Ok((line, Instant::now())),
                    Ok(None) => break,
                    Err(e) => Err(e),
                };
                let failed = item.is_err();
                if sender.send(item).is_err() || failed {
                    break;
                }
            }
        })?;
        Ok(ReadAhead { lines })
    }

    /// Reads standard input ahead.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn stdin() -> io::Result<ReadAhead> {
        ReadAhead::spawn(|| io::stdin().lock())
    }

    /// Lines read and not yet taken.
    pub fn waiting(&self) -> usize {
        self.lines.len()
    }
}

impl LineSource for ReadAhead {
    fn next_line(&mut self) -> io::Result<Option<(RawLine, Instant)>> {
        match self.lines.recv() {
            Ok(item) => item.map(Some),
            // The reader ended (end of input) and everything it read has been taken.
            Err(_) => Ok(None),
        }
    }

    fn line_waiting(&self) -> bool {
        !self.lines.is_empty()
    }
}

/// Test input: the given lines, each stamped when taken, with `line_waiting` answering `waiting` throughout
/// (as a read-ahead queue does while the referee's lines arrive faster than we answer).
#[cfg(test)]
pub(crate) struct Scripted {
    /// Lines still to give.
    pub lines: std::collections::VecDeque<&'static str>,
    /// What `line_waiting` answers.
    pub waiting: bool,
}

#[cfg(test)]
impl LineSource for Scripted {
    fn next_line(&mut self) -> io::Result<Option<(RawLine, Instant)>> {
        Ok(self
            .lines
            .pop_front()
            .map(|text| (RawLine { bytes: text.as_bytes().to_vec(), too_long: false }, Instant::now())))
    }

    fn line_waiting(&self) -> bool {
        self.waiting
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn text(source: &mut impl LineSource) -> Option<String> {
        source.next_line().unwrap().map(|(line, _)| String::from_utf8(line.bytes).unwrap())
    }

    #[test]
    fn read_ahead_gives_every_line_then_end() {
        let mut ahead = ReadAhead::spawn(|| &b"name?\r\naccept\nmove go"[..]).unwrap();
        assert_eq!(text(&mut ahead).as_deref(), Some("name?\r"));
        assert_eq!(text(&mut ahead).as_deref(), Some("accept"));
        assert_eq!(text(&mut ahead).as_deref(), Some("move go"));
        assert_eq!(text(&mut ahead), None);
        assert_eq!(text(&mut ahead), None);
    }

    /// The point of reading ahead: a line that waited while the loop was busy keeps the instant it arrived.
    /// Inline reading stamps it when taken, after the wait.
    #[test]
    fn a_waiting_line_keeps_its_arrival() {
        let mut ahead = ReadAhead::spawn(|| &b"accept\nmove go\n"[..]).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while ahead.waiting() < 2 && Instant::now() < deadline {
            std::thread::yield_now();
        }
        assert_eq!(ahead.waiting(), 2, "the reader thread did not read two lines in 30 s");
        assert!(ahead.line_waiting());
        let busy_from = Instant::now();
        std::thread::sleep(Duration::from_millis(20));
        for _ in 0..2 {
            let (_, arrived) = ahead.next_line().unwrap().unwrap();
            assert!(arrived <= busy_from, "stamped when taken, not when read");
        }
        assert!(!ahead.line_waiting(), "both lines taken");
        let mut inline = Inline(&b"move go\n"[..]);
        let (_, stamped) = inline.next_line().unwrap().unwrap();
        assert!(stamped > busy_from);
    }

    struct Failing;
    impl io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("gone"))
        }
    }

    #[test]
    fn a_read_error_is_handed_on_then_the_input_ends() {
        let mut ahead = ReadAhead::spawn(|| io::BufReader::new(Failing)).unwrap();
        assert_eq!(ahead.next_line().unwrap_err().to_string(), "gone");
        assert!(ahead.next_line().unwrap().is_none());
    }
}
