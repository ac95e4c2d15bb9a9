//! Engine subprocess transport: spawns an engine, writes lines to it, reads its lines with a deadline, keeps the
//! tail of its stderr and, on request, a transcript of both directions. Protocol framing lives above it
//! (`gtp_link.rs` for GTP, `ccgc_seat.rs` for the championship dialect).

use parking_lot::Mutex;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bytes of an engine's stderr kept for fault reports.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// Longest stdout line kept (a longer one is cut; a garbage engine cannot exhaust memory).
pub const MAX_LINE_BYTES: u64 = 64 * 1024;

/// How a request to an engine failed; every variant ends the engine's game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessError {
    /// The engine could not be started.
    Spawn(String),
    /// The engine closed its output or stdin (it exited or crashed).
    Exited {
        /// The request in flight.
        command: String,
        /// The exit status, when it was collected.
        status: Option<String>,
    },
    /// No reply within the allowed time.
    Timeout {
        /// The request in flight.
        command: String,
        /// How long the runner waited.
        waited: Duration,
    },
    /// Output that is not GTP framing (`=` or `?` first, an empty line last).
    Garbage {
        /// The request in flight.
        command: String,
        /// The offending line (cut to 200 characters).
        line: String,
    },
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessError::Spawn(why) => write!(f, "could not start the engine: {why}"),
            ProcessError::Exited { command, status } => {
                write!(f, "engine exited during '{command}' (status: {})", status.as_deref().unwrap_or("unknown"))
            }
            ProcessError::Timeout { command, waited } => {
                write!(f, "no reply to '{command}' within {:.3} s", waited.as_secs_f64())
            }
            ProcessError::Garbage { command, line } => {
                write!(f, "reply to '{command}' is not GTP: '{line}'")
            }
        }
    }
}

impl std::error::Error for ProcessError {}

/// A running engine: a channel to the thread writing its stdin (so a full pipe never blocks the runner),
/// a channel of its stdout lines and the tail of its stderr.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: Option<Sender<String>>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    killed: bool,
    transcript: Option<Box<dyn Write + Send>>,
    /// Who this is in debug lines (the engine's name; its process id until named).
    label: String,
}

impl EngineProcess {
    /// Starts `command` with `sh -c` in its own process group (so a kill reaches its children too).
    ///
    /// # Errors
    /// [`ProcessError::Spawn`] when the shell cannot be started.
    pub fn spawn(command: &str) -> Result<EngineProcess, ProcessError> {
        let mut builder = Command::new("sh");
        builder.arg("-c").arg(command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            builder.process_group(0);
        }
        let mut child = builder.spawn().map_err(|e| ProcessError::Spawn(e.to_string()))?;
        let stdin = child.stdin.take().map(|mut pipe| {
            let (sender, requests) = mpsc::channel::<String>();
            std::thread::spawn(move || {
                for request in requests {
                    if pipe.write_all(request.as_bytes()).and_then(|()| pipe.flush()).is_err() {
                        break;
                    }
                }
            });
            sender
        });
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut buffer = Vec::new();
                    match (&mut reader).take(MAX_LINE_BYTES).read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buffer).into_owned();
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut stderr_reader = None;
        if let Some(mut pipe) = stderr_pipe {
            let tail = Arc::clone(&stderr);
            stderr_reader = Some(std::thread::spawn(move || {
                let mut chunk = [0u8; 1024];
                while let Ok(n) = pipe.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    let mut kept = tail.lock();
                    kept.extend_from_slice(&chunk[..n]);
                    if kept.len() > STDERR_TAIL_BYTES {
                        let cut = kept.len() - STDERR_TAIL_BYTES;
                        kept.drain(..cut);
                    }
                }
            }));
        }
        let label = format!("pid {}", child.id());
        Ok(EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            lines,
            stderr,
            stderr_reader,
            killed: false,
            transcript: None,
            label,
        })
    }

    /// Names the engine in debug lines (e.g. `alpha black`).
    pub fn set_label(&mut self, label: impl Into<String>) {
        self.label = label.into();
    }

    /// The command line the engine was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The last [`STDERR_TAIL_BYTES`] bytes the engine wrote to stderr (lossy UTF-8).
    pub fn stderr_tail(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock()).into_owned()
    }

    /// Kills the engine, waits briefly for its stderr to drain, and returns the tail (for fault reports).
    pub fn kill_and_stderr_tail(&mut self) -> String {
        self.kill();
        let until = Instant::now() + Duration::from_millis(300);
        while self.stderr_reader.as_ref().is_some_and(|reader| !reader.is_finished()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.stderr_tail()
    }

    /// Writes one line (a newline is added) to the engine's stdin, and to the transcript.
    ///
    /// # Errors
    /// [`ProcessError::Exited`] when the engine's stdin is closed.
    pub fn send_line(&mut self, line: &str) -> Result<(), ProcessError> {
        let sent = self.stdin.as_mut().is_some_and(|stdin| stdin.send(format!("{line}\n")).is_ok());
        if !sent {
            return Err(self.exited_error(line));
        }
        log::debug!("[{}] << {line}", self.label);
        self.transcribe('<', line);
        Ok(())
    }

    /// The next line the engine writes (raw, newline included), waiting until `deadline`; `command` and
    /// `waited` only describe a failure.
    ///
    /// # Errors
    /// [`ProcessError::Timeout`] at the deadline, [`ProcessError::Exited`] when the engine closed its output.
    pub fn receive_line(&mut self, command: &str, deadline: Instant, waited: Duration) -> Result<String, ProcessError> {
        let line = self.next_line(command, deadline, waited)?;
        let shown = line.trim_end_matches(['\n', '\r']);
        if !shown.is_empty() {
            log::debug!("[{}] >> {shown}", self.label);
            self.transcribe('>', shown);
        }
        Ok(line)
    }

    /// Copies every line sent (`< `) and received (`> `) to `sink`.
    pub fn with_transcript(mut self, sink: Box<dyn Write + Send>) -> EngineProcess {
        self.transcript = Some(sink);
        self
    }

    /// Writes a note (`# text`) to the transcript, if any.
    pub fn note(&mut self, text: &str) {
        self.transcribe('#', text);
    }

    fn transcribe(&mut self, mark: char, line: &str) {
        if let Some(sink) = self.transcript.as_mut() {
            if writeln!(sink, "{mark} {line}").and_then(|()| sink.flush()).is_err() {
                self.transcript = None;
            }
        }
    }

    /// Waits up to `grace` for the engine to exit by itself, then kills whatever is left.
    pub fn close(mut self, grace: Duration) {
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    fn next_line(&mut self, command: &str, deadline: Instant, waited: Duration) -> Result<String, ProcessError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout { command: command.to_string(), waited }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited_error(command)),
        }
    }

    fn exited_error(&mut self, command: &str) -> ProcessError {
        // Give the process a moment to finish exiting and its stderr to drain.
        let until = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < until {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s.to_string());
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(20));
        ProcessError::Exited { command: command.to_string(), status }
    }

    /// Kills the engine and its process group, and reaps it.
    pub fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        self.stdin = None;
        #[cfg(unix)]
        {
            let group = format!("-{}", self.child.id());
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &group])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn lines_go_both_ways_with_a_deadline_and_a_transcript() {
        #[derive(Clone, Default)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Shared::default();
        let mut engine = EngineProcess::spawn("read -r line; echo \"got $line\"; sleep 5")
            .expect("sh exists")
            .with_transcript(Box::new(sink.clone()));
        engine.send_line("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(engine.receive_line("hello", deadline, Duration::from_secs(5)).unwrap(), "got hello\n");
        let soon = Instant::now() + Duration::from_millis(50);
        let err = engine.receive_line("more", soon, Duration::from_millis(50)).unwrap_err();
        assert!(matches!(err, ProcessError::Timeout { .. }), "{err}");
        engine.kill();
        assert_eq!(String::from_utf8(sink.0.lock().clone()).unwrap(), "< hello\n> got hello\n");
    }

    #[cfg(unix)]
    #[test]
    fn crash_is_reported_with_stderr() {
        let mut engine = EngineProcess::spawn("echo dying >&2; exit 3").expect("sh exists");
        let deadline = Instant::now() + Duration::from_secs(5);
        let err = engine.receive_line("name", deadline, Duration::from_secs(5)).unwrap_err();
        assert!(matches!(err, ProcessError::Exited { .. }), "{err}");
        // The stderr reader may lag the exit on a loaded machine: wait for it (bounded).
        let until = Instant::now() + Duration::from_secs(5);
        while !engine.stderr_tail().contains("dying") && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(engine.stderr_tail().contains("dying"));
    }
}
