//! Engine subprocess client: spawns a GTP engine, sends one request at a time with a timeout, frames the replies and keeps the tail of its stderr.

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
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Extra time allowed for the remaining lines of a multi-line reply after its first line.
const REPLY_TAIL_GRACE: Duration = Duration::from_secs(2);

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

/// One GTP reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `=` (true) or `?` (false).
    pub success: bool,
    /// The text after the marker and optional id, lines joined by `\n`.
    pub text: String,
    /// From the end of writing the request to the arrival of the reply's first line.
    pub elapsed: Duration,
}

/// What a reply's first line says: success, and the text after the marker and id.
///
/// # Errors
/// Returns the line back when it does not start with `=` or `?`.
pub fn parse_reply_head(line: &str) -> Result<(bool, String), String> {
    let success = match line.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(line.chars().take(200).collect()),
    };
    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    Ok((success, rest.trim().to_string()))
}

/// Drops control characters other than tab (turned into a space), as GTP asks.
fn clean_line(raw: &str) -> String {
    raw.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

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

    /// Sends `command` and waits at most `timeout` for the first line of the reply.
    ///
    /// # Errors
    /// [`ProcessError::Exited`], [`ProcessError::Timeout`] or [`ProcessError::Garbage`]; after any of them the
    /// engine should be killed.
    pub fn request(&mut self, command: &str, timeout: Duration) -> Result<Reply, ProcessError> {
        let exited = |this: &mut EngineProcess| this.exited_error(command);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(exited(self));
        };
        if stdin.send(format!("{command}\n")).is_err() {
            return Err(exited(self));
        }
        log::debug!("[{}] << {command}", self.label);
        let start = Instant::now();
        let deadline = start + timeout;
        let head = loop {
            let line = clean_line(&self.next_line(command, deadline, timeout)?);
            if !line.trim().is_empty() {
                break line;
            }
        };
        let elapsed = start.elapsed();
        let (success, first) =
            parse_reply_head(&head).map_err(|line| ProcessError::Garbage { command: command.to_string(), line })?;
        let mut text = first;
        let tail_deadline = Instant::now() + REPLY_TAIL_GRACE;
        loop {
            match self.next_line(command, tail_deadline, REPLY_TAIL_GRACE) {
                Ok(line) => {
                    let line = clean_line(&line);
                    if line.trim().is_empty() {
                        break;
                    }
                    text.push('\n');
                    text.push_str(line.trim_end());
                }
                // An engine that exits right after its last reply (quit) has answered.
                Err(ProcessError::Exited { .. }) if command == "quit" => break,
                Err(ProcessError::Timeout { .. }) => {
                    return Err(ProcessError::Garbage {
                        command: command.to_string(),
                        line: format!("{head} (reply not ended by an empty line)"),
                    })
                }
                Err(e) => return Err(e),
            }
        }
        log::debug!("[{}] >> {}{text}", self.label, if success { "= " } else { "? " });
        Ok(Reply { success, text, elapsed })
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

    /// Sends `quit`, gives the engine a moment to exit, then kills whatever is left.
    pub fn quit(mut self) {
        let _ = self.request("quit", Duration::from_secs(1));
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
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

    #[test]
    fn reply_heads() {
        assert_eq!(parse_reply_head("= E5"), Ok((true, "E5".to_string())));
        assert_eq!(parse_reply_head("=12 pass"), Ok((true, "pass".to_string())));
        assert_eq!(parse_reply_head("?3 illegal move"), Ok((false, "illegal move".into())));
        assert_eq!(parse_reply_head("="), Ok((true, String::new())));
        assert!(parse_reply_head("hello").is_err());
    }

    #[test]
    fn clean_drops_control_characters() {
        assert_eq!(clean_line("= E5\r\n"), "= E5");
        assert_eq!(clean_line("=\tA1"), "= A1");
    }

    #[cfg(unix)]
    #[test]
    fn echo_engine_replies_and_times_out() {
        let mut engine = EngineProcess::spawn(
            "while read -r line; do case $line in slow) sleep 5;; *) printf '= %s\\n\\n' \"$line\";; esac; done",
        )
        .expect("sh exists");
        let reply = engine.request("hello", Duration::from_secs(5)).unwrap();
        assert!(reply.success);
        assert_eq!(reply.text, "hello");
        let err = engine.request("slow", Duration::from_millis(100)).unwrap_err();
        assert!(matches!(err, ProcessError::Timeout { .. }));
        engine.kill();
    }

    #[cfg(unix)]
    #[test]
    fn a_reply_without_its_empty_line_is_garbage() {
        let mut engine = EngineProcess::spawn("read -r line; echo '= E5'; sleep 5").expect("sh exists");
        let err = engine.request("genmove b", Duration::from_secs(5)).unwrap_err();
        assert!(matches!(err, ProcessError::Garbage { .. }), "{err}");
        engine.kill();
    }

    #[cfg(unix)]
    #[test]
    fn crash_is_reported_with_stderr() {
        let mut engine = EngineProcess::spawn("echo dying >&2; exit 3").expect("sh exists");
        let err = engine.request("name", Duration::from_secs(5)).unwrap_err();
        assert!(matches!(err, ProcessError::Exited { .. }), "{err}");
        assert!(engine.stderr_tail().contains("dying"));
    }
}
