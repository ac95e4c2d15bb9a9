//! GTP framing over the line transport: one request at a time with a timeout, replies read as `=`/`?`
//! heads with an empty line after them.

use super::process::{EngineProcess, ProcessError};
use std::time::{Duration, Instant};

/// Extra time allowed for the remaining lines of a multi-line reply after its first line.
const REPLY_TAIL_GRACE: Duration = Duration::from_secs(2);

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

/// A GTP engine process.
pub struct GtpLink {
    /// The transport.
    pub process: EngineProcess,
}

impl GtpLink {
    /// Starts `command` (see [`EngineProcess::spawn`]).
    ///
    /// # Errors
    /// [`ProcessError::Spawn`].
    pub fn spawn(command: &str) -> Result<GtpLink, ProcessError> {
        Ok(GtpLink { process: EngineProcess::spawn(command)? })
    }

    /// Sends `command` and waits at most `timeout` for the first line of the reply.
    ///
    /// # Errors
    /// [`ProcessError::Exited`], [`ProcessError::Timeout`] or [`ProcessError::Garbage`]; after any of them the
    /// engine should be killed.
    pub fn request(&mut self, command: &str, timeout: Duration) -> Result<Reply, ProcessError> {
        self.process.send_line(command)?;
        let start = Instant::now();
        let deadline = start + timeout;
        let head = loop {
            let line = clean_line(&self.process.receive_line(command, deadline, timeout)?);
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
            match self.process.receive_line(command, tail_deadline, REPLY_TAIL_GRACE) {
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
        Ok(Reply { success, text, elapsed })
    }

    /// Sends `quit`, gives the engine a moment to exit, then kills whatever is left.
    pub fn quit(mut self) {
        let _ = self.request("quit", Duration::from_secs(1));
        self.process.close(Duration::from_millis(500));
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
        let mut engine = GtpLink::spawn(
            "while read -r line; do case $line in slow) sleep 5;; *) printf '= %s\\n\\n' \"$line\";; esac; done",
        )
        .expect("sh exists");
        let reply = engine.request("hello", Duration::from_secs(5)).unwrap();
        assert!(reply.success);
        assert_eq!(reply.text, "hello");
        let err = engine.request("slow", Duration::from_millis(100)).unwrap_err();
        assert!(matches!(err, ProcessError::Timeout { .. }));
        engine.process.kill();
    }

    #[cfg(unix)]
    #[test]
    fn a_reply_without_its_empty_line_is_garbage() {
        let mut engine = GtpLink::spawn("read -r line; echo '= E5'; sleep 5").expect("sh exists");
        let err = engine.request("genmove b", Duration::from_secs(5)).unwrap_err();
        assert!(matches!(err, ProcessError::Garbage { .. }), "{err}");
        engine.process.kill();
    }
}
