//! Game rules around a board: turn, ko rule, passes, length cap, history for superko, the end and its score.

use crate::bitboard::Bitboard;
use crate::board::{Board, IllegalMove};
use crate::color::Color;
use crate::point::{Move, Point};
use crate::scoring::GameResult;
use std::collections::HashSet;
use std::fmt;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone.
    #[default]
    Simple,
    /// No move may recreate an earlier whole-board position.
    PositionalSuperko,
}

/// What the referee does when a move recreates an earlier whole-board position (`--repetition`,
/// `phantom-rules repetition=...`). A pass never counts as recreating a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Repetition {
    /// Only simple ko applies; repetitions go on (until the length cap).
    #[default]
    Allowed,
    /// Positional superko: such a move is illegal.
    Superko,
    /// The game ends at once as a draw (OpenSpiel's rule).
    Draw,
}

impl Repetition {
    /// The ko rule the true game is played with.
    pub fn ko_rule(self) -> KoRule {
        match self {
            Repetition::Superko => KoRule::PositionalSuperko,
            Repetition::Allowed | Repetition::Draw => KoRule::Simple,
        }
    }
}

impl fmt::Display for Repetition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Repetition::Allowed => "allowed",
            Repetition::Superko => "superko",
            Repetition::Draw => "draw",
        })
    }
}

impl std::str::FromStr for Repetition {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "allowed" => Ok(Repetition::Allowed),
            "superko" => Ok(Repetition::Superko),
            "draw" => Ok(Repetition::Draw),
            other => Err(format!("unknown repetition rule '{other}' (expected draw, superko or allowed)")),
        }
    }
}

/// Rules of one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Board side length.
    pub size: usize,
    /// Points given to White.
    pub komi: f32,
    /// Ko rule.
    pub ko: KoRule,
    /// Tries (legal, illegal and passes) after which the game ends; `None` = 4 * size * size.
    pub max_tries: Option<usize>,
}

impl Rules {
    /// 9x9, komi 7.5, simple ko, the default length cap.
    pub fn new(size: usize) -> Rules {
        Rules { size, komi: 7.5, ko: KoRule::Simple, max_tries: None }
    }

    /// The length cap in tries.
    pub fn length_cap(&self) -> usize {
        self.max_tries.unwrap_or(4 * self.size * self.size)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new(9)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Two passes in a row.
    TwoPasses,
    /// The length cap was reached.
    LengthCap,
}

/// Errors from [`Game`] other than an illegal stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move is illegal on the board.
    Illegal(IllegalMove),
    /// The game is over.
    GameOver,
    /// The point is not on this board.
    OffBoard,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal(why) => write!(f, "illegal move ({why})"),
            GameError::GameOver => f.write_str("the game is over"),
            GameError::OffBoard => f.write_str("point is off the board"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<IllegalMove> for GameError {
    fn from(why: IllegalMove) -> Self {
        GameError::Illegal(why)
    }
}

/// A game in progress: the board plus turn, passes, tries and position history.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    board: Board,
    to_move: Color,
    consecutive_passes: u32,
    tries: usize,
    history: HashSet<u64>,
    repeated: bool,
    end: Option<GameEnd>,
}

impl Game {
    /// A new game, or `None` for an unsupported board size.
    pub fn new(rules: Rules) -> Option<Game> {
        let board = Board::new(rules.size)?;
        let mut history = HashSet::new();
        history.insert(board.hash());
        Some(Game {
            rules,
            board,
            to_move: Color::Black,
            consecutive_passes: 0,
            tries: 0,
            history,
            repeated: false,
            end: None,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Tries made so far (legal, illegal and passes).
    pub fn tries(&self) -> usize {
        self.tries
    }

    /// Passes in a row at the end of the game so far.
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// Why the game ended, if it has.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The area score of the current board.
    pub fn result(&self) -> GameResult {
        GameResult::of(&self.board, self.rules.komi)
    }

    /// Whether `color` may play at `point` now (ignores whose turn it is).
    pub fn legality(&self, color: Color, point: Point) -> Result<(), IllegalMove> {
        let mut board = self.board.clone();
        board.try_play(color, point)?;
        if self.rules.ko == KoRule::PositionalSuperko && self.history.contains(&board.hash()) {
            return Err(IllegalMove::Superko);
        }
        Ok(())
    }

    /// Sets who moves next (for protocol front ends where either colour may play).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    fn count_try(&mut self) {
        self.tries += 1;
        if self.end.is_none() && self.tries >= self.rules.length_cap() {
            self.end = Some(GameEnd::LengthCap);
        }
    }

    /// Records an illegal try by the player to move: the board is unchanged, the try counts towards the cap.
    pub fn record_illegal_try(&mut self) {
        self.count_try();
    }

    /// Plays `mv` for the player to move. A legal stone or a pass passes the turn; an illegal stone
    /// counts as a try but changes nothing. Returns the captured stones.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end, [`GameError::OffBoard`], or [`GameError::Illegal`].
    pub fn play(&mut self, mv: Move) -> Result<Bitboard, GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        let color = self.to_move;
        match mv {
            Move::Pass => {
                self.count_try();
                self.record_forced_pass();
                Ok(Bitboard::EMPTY)
            }
            Move::Play(point) => {
                if !self.board.geometry().mask().contains(point) {
                    return Err(GameError::OffBoard);
                }
                let mut next = self.board.clone();
                let outcome = next.try_play(color, point).map_err(GameError::from).and_then(|captured| {
                    if self.rules.ko == KoRule::PositionalSuperko && self.history.contains(&next.hash()) {
                        Err(GameError::Illegal(IllegalMove::Superko))
                    } else {
                        Ok(captured)
                    }
                });
                self.count_try();
                let captured = outcome?;
                self.board = next;
                self.repeated = !self.history.insert(self.board.hash());
                self.consecutive_passes = 0;
                self.to_move = color.opponent();
                Ok(captured)
            }
        }
    }

    /// Passes the turn without a move (a lost turn under `lose-turn`): clears ko; a turn that is not a pass,
    /// so it breaks a run of passes.
    pub fn skip_turn(&mut self) {
        self.board.pass();
        self.consecutive_passes = 0;
        self.to_move = self.to_move.opponent();
    }

    /// A pass by the player to move that does not count as a try (the judge turns a capped run of
    /// illegal tries, already counted, into one).
    pub fn record_forced_pass(&mut self) {
        self.board.pass();
        self.consecutive_passes += 1;
        self.to_move = self.to_move.opponent();
        if self.consecutive_passes >= 2 && self.end.is_none() {
            self.end = Some(GameEnd::TwoPasses);
        }
    }

    /// True when the last legal stone recreated an earlier whole-board position (possible under simple ko).
    pub fn last_move_repeated_position(&self) -> bool {
        self.repeated
    }
}
