//! GTP commands as data: the pure parser `parse(&str) -> Result<Command, GtpError>` and the request id split.

use crate::color::Color;
use crate::game::Repetition;
use crate::judge::IllegalRule;
use std::fmt;

/// Column letters of GTP vertices (no `I`).
const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";
/// Largest line number a GTP vertex may carry (the protocol's limit, not the engine's).
const MAX_VERTEX_LINE: usize = 25;
/// Longest number of seconds accepted in a time command (about 115 days).
const MAX_SECONDS: f64 = 1.0e7;
/// Most vertices accepted in one phantom report.
const MAX_REPORT_VERTICES: usize = 128;

/// A GTP vertex as written, before it is checked against the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vertex {
    /// `pass`.
    Pass,
    /// A point: 0-based column (A = 0, `I` skipped) and 0-based row (line 1 = 0).
    Coord {
        /// Column, 0 = A.
        col: u8,
        /// Row, 0 = line 1.
        row: u8,
    },
}

impl Vertex {
    /// Parses `c4`, `K10`, `pass` (case-insensitive); the board size is checked later.
    pub fn parse(text: &str) -> Option<Vertex> {
        if text.eq_ignore_ascii_case("pass") {
            return Some(Vertex::Pass);
        }
        let bytes = text.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return None;
        }
        let letter = bytes[0].to_ascii_uppercase();
        let col = COLUMN_LETTERS.iter().position(|&c| c == letter)?;
        let digits = &bytes[1..];
        if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
            return None;
        }
        let line = digits.iter().fold(0usize, |n, d| n * 10 + usize::from(d - b'0'));
        if line == 0 || line > MAX_VERTEX_LINE {
            return None;
        }
        Some(Vertex::Coord { col: col as u8, row: (line - 1) as u8 })
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::Coord { col, row } => {
                write!(f, "{}{}", COLUMN_LETTERS[usize::from(col)] as char, usize::from(row) + 1)
            }
        }
    }
}

/// A time control as set by `time_settings` or `kgs-time_settings`; times in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSpec {
    /// No time limit.
    None,
    /// Sudden death: `main` seconds for the game.
    Absolute {
        /// Main time.
        main: f64,
    },
    /// Japanese byo-yomi: main time, then `periods` periods of `period` seconds each.
    ByoYomi {
        /// Main time.
        main: f64,
        /// Seconds per period.
        period: f64,
        /// Number of periods.
        periods: u32,
    },
    /// Canadian byo-yomi: main time, then `stones` moves in every `period` seconds.
    Canadian {
        /// Main time.
        main: f64,
        /// Seconds per period.
        period: f64,
        /// Moves to make in each period.
        stones: u32,
    },
}

/// The rules one `phantom-rules` line sets; what it leaves out is `None` (unchanged).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhantomRules {
    /// `illegal=retry|lose-turn` (a bare `retry`/`lose-turn` too).
    pub illegal: Option<IllegalRule>,
    /// `repetition=draw|superko|allowed`.
    pub repetition: Option<Repetition>,
    /// `max-tries=N` (0: no cap).
    pub max_tries: Option<u32>,
}

/// One GTP command with its arguments parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command NAME`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `quit`.
    Quit,
    /// `boardsize N` (any non-negative integer; the engine judges the size).
    BoardSize(u64),
    /// `clear_board`.
    ClearBoard,
    /// `komi K`.
    Komi(f64),
    /// `play COLOR VERTEX`.
    Play(Color, Vertex),
    /// `genmove COLOR`.
    Genmove(Color),
    /// `undo`.
    Undo,
    /// `showboard`.
    ShowBoard,
    /// `final_score`.
    FinalScore,
    /// `time_settings MAIN BYO_YOMI STONES` and `kgs-time_settings ...`.
    TimeSettings(TimeSpec),
    /// `time_left COLOR SECONDS STONES`.
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Seconds left (in main time, or in the current period).
        seconds: f64,
        /// 0 in main time; in byo-yomi the stones (Canadian) or periods (Japanese) left.
        stones: u32,
    },
    /// `phantom-rules illegal=retry|lose-turn repetition=... max-tries=N` (one or more, each optional).
    PhantomRules(PhantomRules),
    /// `phantom-result illegal`.
    PhantomResultIllegal,
    /// `phantom-result ok [v ...]`: the try stands and captured these opponent stones.
    PhantomResultOk(Vec<Vertex>),
    /// `phantom-opponent illegal`.
    PhantomOpponentIllegal,
    /// `phantom-opponent pass`.
    PhantomOpponentPass,
    /// `phantom-opponent ok [v ...]`: a legal move unseen that captured these of our stones.
    PhantomOpponentOk(Vec<Vertex>),
    /// `phantom-belief`: the belief as a grid of percentages.
    PhantomBelief,
    /// `phantom-belief-gfx`: the belief as a GoGui `gfx` heat map.
    PhantomBeliefGfx,
    /// `gogui-analyze_commands`.
    GoguiAnalyzeCommands,
}

/// Every command name the engine implements, in the order `list_commands` prints them.
pub const COMMAND_NAMES: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "phantom-rules",
    "phantom-result",
    "phantom-opponent",
    "phantom-belief",
    "phantom-belief-gfx",
    "gogui-analyze_commands",
];

/// Why a line could not be turned into a command; its `Display` is the `?` reply text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    /// The command name is not implemented.
    UnknownCommand,
    /// Wrong number or form of arguments.
    Syntax(String),
    /// The line is not valid UTF-8.
    InvalidUtf8,
    /// The line exceeded the length cap.
    LineTooLong,
    /// A line with an id but no command.
    MissingCommand,
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpError::UnknownCommand => f.write_str("unknown command"),
            GtpError::Syntax(why) if why.is_empty() => f.write_str("syntax error"),
            GtpError::Syntax(why) => write!(f, "syntax error: {why}"),
            GtpError::InvalidUtf8 => f.write_str("invalid UTF-8"),
            GtpError::LineTooLong => f.write_str("line too long"),
            GtpError::MissingCommand => f.write_str("missing command"),
        }
    }
}

impl std::error::Error for GtpError {}

/// Splits a cleaned line into its numeric id (if the first word is one) and the rest.
pub fn split_id(line: &str) -> (Option<u64>, &str) {
    let line = line.trim();
    let (first, rest) = match line.split_once(' ') {
        Some((first, rest)) => (first, rest.trim_start()),
        None => (line, ""),
    };
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(id) = first.parse::<u64>() {
            return (Some(id), rest);
        }
    }
    (None, line)
}

/// Shortens user text quoted in an error message.
fn shown(text: &str) -> String {
    text.chars().take(24).collect()
}

fn syntax(why: impl Into<String>) -> GtpError {
    GtpError::Syntax(why.into())
}

fn expect_args(args: &[&str], count: usize) -> Result<(), GtpError> {
    if args.len() == count {
        Ok(())
    } else {
        Err(syntax(format!("expected {count} argument{}, got {}", if count == 1 { "" } else { "s" }, args.len())))
    }
}

fn parse_color(text: &str) -> Result<Color, GtpError> {
    Color::parse(text).ok_or_else(|| syntax(format!("invalid color '{}'", shown(text))))
}

fn parse_vertex(text: &str) -> Result<Vertex, GtpError> {
    Vertex::parse(text).ok_or_else(|| syntax(format!("invalid vertex '{}'", shown(text))))
}

/// Captured stones listed in a report: points only, no `pass`, at most [`MAX_REPORT_VERTICES`].
fn parse_captures(args: &[&str]) -> Result<Vec<Vertex>, GtpError> {
    if args.len() > MAX_REPORT_VERTICES {
        return Err(syntax("too many vertices"));
    }
    args.iter()
        .map(|a| match parse_vertex(a)? {
            Vertex::Pass => Err(syntax("'pass' cannot be captured")),
            v => Ok(v),
        })
        .collect()
}

fn parse_seconds(text: &str) -> Result<f64, GtpError> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Ok(s),
        _ => Err(syntax(format!("invalid time '{}'", shown(text)))),
    }
}

fn parse_count(text: &str) -> Result<u32, GtpError> {
    match text.parse::<u32>() {
        Ok(n) if n <= 1_000_000 => Ok(n),
        _ => Err(syntax(format!("invalid count '{}'", shown(text)))),
    }
}

/// GTP `time_settings main byo_yomi stones`: byo-yomi 0 = absolute, stones 0 (with byo-yomi) = no limit.
fn parse_time_settings(args: &[&str]) -> Result<TimeSpec, GtpError> {
    expect_args(args, 3)?;
    let main = parse_seconds(args[0])?;
    let period = parse_seconds(args[1])?;
    let stones = parse_count(args[2])?;
    Ok(if period == 0.0 {
        TimeSpec::Absolute { main }
    } else if stones == 0 {
        TimeSpec::None
    } else {
        TimeSpec::Canadian { main, period, stones }
    })
}

fn parse_kgs_time_settings(args: &[&str]) -> Result<TimeSpec, GtpError> {
    let Some((&kind, rest)) = args.split_first() else {
        return Err(syntax("expected none, absolute, byoyomi or canadian"));
    };
    match kind.to_ascii_lowercase().as_str() {
        "none" => {
            expect_args(rest, 0)?;
            Ok(TimeSpec::None)
        }
        "absolute" => {
            expect_args(rest, 1)?;
            Ok(TimeSpec::Absolute { main: parse_seconds(rest[0])? })
        }
        "byoyomi" => {
            expect_args(rest, 3)?;
            let main = parse_seconds(rest[0])?;
            let period = parse_seconds(rest[1])?;
            let periods = parse_count(rest[2])?;
            Ok(if period == 0.0 || periods == 0 {
                TimeSpec::Absolute { main }
            } else {
                TimeSpec::ByoYomi { main, period, periods }
            })
        }
        "canadian" => {
            expect_args(rest, 3)?;
            let main = parse_seconds(rest[0])?;
            let period = parse_seconds(rest[1])?;
            let stones = parse_count(rest[2])?;
            Ok(if period == 0.0 || stones == 0 {
                TimeSpec::Absolute { main }
            } else {
                TimeSpec::Canadian { main, period, stones }
            })
        }
        other => Err(syntax(format!("unknown time system '{}'", shown(other)))),
    }
}

fn parse_phantom_rules(args: &[&str]) -> Result<PhantomRules, GtpError> {
    if args.is_empty() || args.len() > 3 {
        return Err(syntax("expected illegal=retry|lose-turn, repetition=draw|superko|allowed or max-tries=N"));
    }
    let mut rules = PhantomRules::default();
    for &item in args {
        match item.split_once('=') {
            Some((key, value)) if key.eq_ignore_ascii_case("illegal") => {
                rules.illegal = Some(parse_illegal_rule(value)?);
            }
            Some((key, value)) if key.eq_ignore_ascii_case("repetition") => {
                let rule = value.parse::<Repetition>().map_err(|_| {
                    syntax(format!("invalid repetition '{}' (expected draw, superko or allowed)", shown(value)))
                })?;
                rules.repetition = Some(rule);
            }
            Some((key, value)) if key.eq_ignore_ascii_case("max-tries") => {
                rules.max_tries = Some(parse_count(value)?);
            }
            Some((key, _)) => return Err(syntax(format!("unknown rule '{}'", shown(key)))),
            None => rules.illegal = Some(parse_illegal_rule(item)?),
        }
    }
    Ok(rules)
}

fn parse_illegal_rule(value: &str) -> Result<IllegalRule, GtpError> {
    value.parse::<IllegalRule>().map_err(|_| syntax("expected illegal=retry or illegal=lose-turn"))
}

/// Parses one command (without its id): the name case-sensitively as GTP requires, then its arguments.
///
/// # Errors
/// [`GtpError::UnknownCommand`] for a name not in [`COMMAND_NAMES`], [`GtpError::Syntax`] for bad arguments,
/// [`GtpError::MissingCommand`] for an empty line.
pub fn parse(text: &str) -> Result<Command, GtpError> {
    let mut words = text.split_whitespace();
    let name = words.next().ok_or(GtpError::MissingCommand)?;
    // Arguments beyond this many are never valid; stop collecting early on hostile lines.
    let args: Vec<&str> = words.take(MAX_REPORT_VERTICES + 3).collect();
    let args = args.as_slice();
    let no_args = |command: Command| expect_args(args, 0).map(|()| command);
    match name {
        "protocol_version" => no_args(Command::ProtocolVersion),
        "name" => no_args(Command::Name),
        "version" => no_args(Command::Version),
        "known_command" => {
            expect_args(args, 1)?;
            Ok(Command::KnownCommand(args[0].to_string()))
        }
        "list_commands" => no_args(Command::ListCommands),
        "quit" => no_args(Command::Quit),
        "boardsize" => {
            expect_args(args, 1)?;
            let text = args[0];
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax(format!("invalid size '{}'", shown(text))));
            }
            Ok(Command::BoardSize(text.parse::<u64>().unwrap_or(u64::MAX)))
        }
        "clear_board" => no_args(Command::ClearBoard),
        "komi" => {
            expect_args(args, 1)?;
            match args[0].parse::<f64>() {
                Ok(k) if k.is_finite() => Ok(Command::Komi(k)),
                _ => Err(syntax(format!("invalid komi '{}'", shown(args[0])))),
            }
        }
        "play" => {
            expect_args(args, 2)?;
            Ok(Command::Play(parse_color(args[0])?, parse_vertex(args[1])?))
        }
        "genmove" => {
            expect_args(args, 1)?;
            Ok(Command::Genmove(parse_color(args[0])?))
        }
        "undo" => no_args(Command::Undo),
        "showboard" => no_args(Command::ShowBoard),
        "final_score" => no_args(Command::FinalScore),
        "time_settings" => Ok(Command::TimeSettings(parse_time_settings(args)?)),
        "kgs-time_settings" => Ok(Command::TimeSettings(parse_kgs_time_settings(args)?)),
        "time_left" => {
            expect_args(args, 3)?;
            Ok(Command::TimeLeft {
                color: parse_color(args[0])?,
                seconds: parse_seconds(args[1])?,
                stones: parse_count(args[2])?,
            })
        }
        "phantom-rules" => Ok(Command::PhantomRules(parse_phantom_rules(args)?)),
        "phantom-result" => match args.split_first() {
            Some((&"illegal", rest)) => {
                expect_args(rest, 0)?;
                Ok(Command::PhantomResultIllegal)
            }
            Some((&"ok", rest)) => Ok(Command::PhantomResultOk(parse_captures(rest)?)),
            _ => Err(syntax("expected 'illegal' or 'ok [vertex ...]'")),
        },
        "phantom-opponent" => match args.split_first() {
            Some((&"illegal", rest)) => {
                expect_args(rest, 0)?;
                Ok(Command::PhantomOpponentIllegal)
            }
            Some((&"pass", rest)) => {
                expect_args(rest, 0)?;
                Ok(Command::PhantomOpponentPass)
            }
            Some((&"ok", rest)) => Ok(Command::PhantomOpponentOk(parse_captures(rest)?)),
            _ => Err(syntax("expected 'ok [vertex ...]', 'illegal' or 'pass'")),
        },
        "phantom-belief" => no_args(Command::PhantomBelief),
        "phantom-belief-gfx" => no_args(Command::PhantomBeliefGfx),
        "gogui-analyze_commands" => no_args(Command::GoguiAnalyzeCommands),
        _ => Err(GtpError::UnknownCommand),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coord(col: u8, row: u8) -> Vertex {
        Vertex::Coord { col, row }
    }

    fn is_syntax(result: Result<Command, GtpError>) -> bool {
        matches!(result, Err(GtpError::Syntax(_)))
    }

    #[test]
    fn id_is_split_off() {
        assert_eq!(split_id("12 name"), (Some(12), "name"));
        assert_eq!(split_id("name"), (None, "name"));
        assert_eq!(split_id("7"), (Some(7), ""));
        assert_eq!(split_id("99999999999999999999999 name").0, None);
        assert_eq!(split_id("  3   play b c3"), (Some(3), "play b c3"));
    }

    #[test]
    fn vertex_parses_and_prints() {
        assert_eq!(Vertex::parse("a1"), Some(coord(0, 0)));
        assert_eq!(Vertex::parse("J9"), Some(coord(8, 8)));
        assert_eq!(Vertex::parse("T25"), Some(coord(18, 24)));
        assert_eq!(Vertex::parse("PaSs"), Some(Vertex::Pass));
        for bad in ["", "i5", "A0", "A01", "A26", "1A", "AA", "é1", "A1000"] {
            assert_eq!(Vertex::parse(bad), None, "{bad}");
        }
        assert_eq!(coord(8, 8).to_string(), "J9");
    }

    #[test]
    fn protocol_version() {
        assert_eq!(parse("protocol_version"), Ok(Command::ProtocolVersion));
        assert!(is_syntax(parse("protocol_version 2")));
    }

    #[test]
    fn name_and_version() {
        assert_eq!(parse("name"), Ok(Command::Name));
        assert_eq!(parse("version"), Ok(Command::Version));
    }

    #[test]
    fn known_command() {
        assert_eq!(parse("known_command genmove"), Ok(Command::KnownCommand("genmove".into())));
        assert!(is_syntax(parse("known_command")));
    }

    #[test]
    fn list_commands_and_quit() {
        assert_eq!(parse("list_commands"), Ok(Command::ListCommands));
        assert_eq!(parse("quit"), Ok(Command::Quit));
    }

    #[test]
    fn boardsize() {
        assert_eq!(parse("boardsize 9"), Ok(Command::BoardSize(9)));
        assert_eq!(parse("boardsize 0"), Ok(Command::BoardSize(0)));
        assert_eq!(parse("boardsize 99999999999999999999999"), Ok(Command::BoardSize(u64::MAX)));
        assert!(is_syntax(parse("boardsize -1")));
        assert!(is_syntax(parse("boardsize nine")));
        assert!(is_syntax(parse("boardsize")));
    }

    #[test]
    fn clear_board() {
        assert_eq!(parse("clear_board"), Ok(Command::ClearBoard));
    }

    #[test]
    fn komi() {
        assert_eq!(parse("komi 7.5"), Ok(Command::Komi(7.5)));
        assert_eq!(parse("komi -3"), Ok(Command::Komi(-3.0)));
        for bad in ["komi nan", "komi inf", "komi x", "komi"] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn play() {
        assert_eq!(parse("play B c3"), Ok(Command::Play(Color::Black, coord(2, 2))));
        assert_eq!(parse("play white pass"), Ok(Command::Play(Color::White, Vertex::Pass)));
        for bad in ["play", "play b", "play x c3", "play b z99", "play b c3 d4"] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn genmove() {
        assert_eq!(parse("genmove w"), Ok(Command::Genmove(Color::White)));
        assert!(is_syntax(parse("genmove")));
        assert!(is_syntax(parse("genmove red")));
    }

    #[test]
    fn undo_showboard_final_score() {
        assert_eq!(parse("undo"), Ok(Command::Undo));
        assert_eq!(parse("showboard"), Ok(Command::ShowBoard));
        assert_eq!(parse("final_score"), Ok(Command::FinalScore));
    }

    #[test]
    fn time_settings() {
        assert_eq!(parse("time_settings 30 0 0"), Ok(Command::TimeSettings(TimeSpec::Absolute { main: 30.0 })));
        assert_eq!(
            parse("time_settings 0 1 1"),
            Ok(Command::TimeSettings(TimeSpec::Canadian { main: 0.0, period: 1.0, stones: 1 }))
        );
        assert_eq!(parse("time_settings 10 5 0"), Ok(Command::TimeSettings(TimeSpec::None)));
        for bad in ["time_settings 1 2", "time_settings -1 0 0", "time_settings nan 0 0", "time_settings 1 1 x"] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn kgs_time_settings() {
        assert_eq!(parse("kgs-time_settings none"), Ok(Command::TimeSettings(TimeSpec::None)));
        assert_eq!(
            parse("kgs-time_settings absolute 60"),
            Ok(Command::TimeSettings(TimeSpec::Absolute { main: 60.0 }))
        );
        assert_eq!(
            parse("kgs-time_settings byoyomi 60 10 3"),
            Ok(Command::TimeSettings(TimeSpec::ByoYomi { main: 60.0, period: 10.0, periods: 3 }))
        );
        assert_eq!(
            parse("kgs-time_settings canadian 60 30 5"),
            Ok(Command::TimeSettings(TimeSpec::Canadian { main: 60.0, period: 30.0, stones: 5 }))
        );
        for bad in [
            "kgs-time_settings",
            "kgs-time_settings fischer 1 2",
            "kgs-time_settings none 5",
            "kgs-time_settings byoyomi 1 2",
        ] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn time_left() {
        assert_eq!(
            parse("time_left b 12.5 0"),
            Ok(Command::TimeLeft { color: Color::Black, seconds: 12.5, stones: 0 })
        );
        assert!(is_syntax(parse("time_left b -1 0")));
        assert!(is_syntax(parse("time_left q 1 0")));
    }

    #[test]
    fn phantom_rules() {
        let illegal = |rule| Ok(Command::PhantomRules(PhantomRules { illegal: Some(rule), ..PhantomRules::default() }));
        assert_eq!(parse("phantom-rules illegal=retry"), illegal(IllegalRule::Retry));
        assert_eq!(parse("phantom-rules illegal=lose-turn"), illegal(IllegalRule::LoseTurn));
        assert_eq!(
            parse("phantom-rules repetition=draw"),
            Ok(Command::PhantomRules(PhantomRules { repetition: Some(Repetition::Draw), ..PhantomRules::default() }))
        );
        assert_eq!(
            parse("phantom-rules illegal=retry max-tries=324 repetition=superko"),
            Ok(Command::PhantomRules(PhantomRules {
                illegal: Some(IllegalRule::Retry),
                repetition: Some(Repetition::Superko),
                max_tries: Some(324),
            }))
        );
        for bad in [
            "phantom-rules",
            "phantom-rules illegal=maybe",
            "phantom-rules ko=retry",
            "phantom-rules repetition=often",
            "phantom-rules max-tries=-1",
            "phantom-rules max-tries=x",
            "phantom-rules a=1 b=2 c=3 d=4",
        ] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn phantom_result() {
        assert_eq!(parse("phantom-result illegal"), Ok(Command::PhantomResultIllegal));
        assert_eq!(parse("phantom-result ok"), Ok(Command::PhantomResultOk(vec![])));
        assert_eq!(parse("phantom-result ok D4 e4"), Ok(Command::PhantomResultOk(vec![coord(3, 3), coord(4, 3)])));
        for bad in [
            "phantom-result",
            "phantom-result ok pass",
            "phantom-result ok Z1",
            "phantom-result illegal D4",
            "phantom-result maybe",
        ] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn phantom_opponent() {
        assert_eq!(parse("phantom-opponent ok"), Ok(Command::PhantomOpponentOk(vec![])));
        assert_eq!(parse("phantom-opponent ok E5"), Ok(Command::PhantomOpponentOk(vec![coord(4, 4)])));
        assert_eq!(parse("phantom-opponent illegal"), Ok(Command::PhantomOpponentIllegal));
        assert_eq!(parse("phantom-opponent pass"), Ok(Command::PhantomOpponentPass));
        for bad in ["phantom-opponent", "phantom-opponent pass E5", "phantom-opponent ok pass"] {
            assert!(is_syntax(parse(bad)), "{bad}");
        }
    }

    #[test]
    fn analysis_commands() {
        assert_eq!(parse("phantom-belief"), Ok(Command::PhantomBelief));
        assert_eq!(parse("phantom-belief-gfx"), Ok(Command::PhantomBeliefGfx));
        assert_eq!(parse("gogui-analyze_commands"), Ok(Command::GoguiAnalyzeCommands));
    }

    #[test]
    fn unknown_and_empty() {
        assert_eq!(parse("fly"), Err(GtpError::UnknownCommand));
        assert_eq!(parse("NAME"), Err(GtpError::UnknownCommand));
        assert_eq!(parse(""), Err(GtpError::MissingCommand));
    }

    #[test]
    fn every_listed_name_parses_to_something_known() {
        for name in COMMAND_NAMES {
            assert_ne!(parse(name), Err(GtpError::UnknownCommand), "{name}");
        }
    }
}
