//! The referee's judge: holds the true game and answers each try with exactly what Phantom Go announces.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::game::{Game, GameEnd, GameError, Rules};
use crate::observation::Observation;
use crate::point::Move;
use std::fmt;
use std::str::FromStr;

/// What an illegal try costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum IllegalRule {
    /// The same player tries again (Computer Olympiad, OpenSpiel).
    #[default]
    Retry,
    /// The turn passes to the opponent.
    LoseTurn,
}

impl fmt::Display for IllegalRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalRule::Retry => "retry",
            IllegalRule::LoseTurn => "lose-turn",
        })
    }
}

impl FromStr for IllegalRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "retry" => Ok(IllegalRule::Retry),
            "lose-turn" | "lose_turn" | "loseturn" => Ok(IllegalRule::LoseTurn),
            other => Err(format!("unknown illegal-try rule '{other}' (expected retry or lose-turn)")),
        }
    }
}

/// The outcome of one try, as the referee sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryOutcome {
    /// The stone could not be placed.
    Illegal,
    /// The stone stands; these opponent stones were captured.
    Ok {
        /// Captured stones (they belonged to the mover's opponent).
        captured: Bitboard,
    },
    /// The player passed.
    Pass,
}

/// The judge's answer to one try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Who tried.
    pub mover: Color,
    /// The move tried.
    pub tried: Move,
    /// What happened.
    pub outcome: TryOutcome,
    /// An illegal try that reached the per-turn cap and was turned into a pass.
    pub forced_pass: bool,
    /// The player to move after this ruling.
    pub next_to_move: Color,
    /// Set when this try ended the game.
    pub game_over: Option<GameEnd>,
}

impl Ruling {
    /// What `color` is told about this try, in order.
    pub fn observations_for(&self, color: Color) -> Vec<Observation> {
        let mut told = Vec::with_capacity(2);
        if color == self.mover {
            match (self.outcome, self.tried) {
                (TryOutcome::Illegal, Move::Play(point)) => told.push(Observation::OwnIllegal { point }),
                (TryOutcome::Ok { captured }, Move::Play(point)) => told.push(Observation::OwnOk { point, captured }),
                _ => told.push(Observation::OwnPass),
            }
            if self.forced_pass {
                told.push(Observation::OwnPass);
            }
        } else {
            match self.outcome {
                TryOutcome::Illegal => told.push(Observation::OpponentIllegal),
                TryOutcome::Ok { captured } => told.push(Observation::OpponentMove { captured }),
                TryOutcome::Pass => told.push(Observation::OpponentPass),
            }
            if self.forced_pass {
                told.push(Observation::OpponentPass);
            }
        }
        told
    }
}

/// Errors from the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// It is not this colour's turn.
    NotYourTurn,
    /// The game has ended.
    GameOver,
    /// The point is not on the board.
    OffBoard,
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JudgeError::NotYourTurn => "not this player's turn",
            JudgeError::GameOver => "the game is over",
            JudgeError::OffBoard => "point is off the board",
        })
    }
}

impl std::error::Error for JudgeError {}

/// The referee's view: the true game plus the Phantom Go announcement rules.
#[derive(Clone, Debug)]
pub struct Judge {
    game: Game,
    illegal_rule: IllegalRule,
    max_illegal_per_turn: u32,
    illegal_this_turn: u32,
}

impl Judge {
    /// Default cap on illegal tries in one turn before it counts as a pass.
    pub const DEFAULT_MAX_ILLEGAL_PER_TURN: u32 = 100;

    /// A judge for a new game, or `None` for an unsupported board size.
    pub fn new(rules: Rules, illegal_rule: IllegalRule) -> Option<Judge> {
        Some(Judge {
            game: Game::new(rules)?,
            illegal_rule,
            max_illegal_per_turn: Self::DEFAULT_MAX_ILLEGAL_PER_TURN,
            illegal_this_turn: 0,
        })
    }

    /// Sets the cap on illegal tries in one turn (at least 1); reaching it counts as a pass.
    pub fn with_max_illegal_per_turn(mut self, cap: u32) -> Judge {
        self.max_illegal_per_turn = cap.max(1);
        self
    }

    /// The true game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The illegal-try rule.
    pub fn illegal_rule(&self) -> IllegalRule {
        self.illegal_rule
    }

    /// Illegal tries so far in the current turn.
    pub fn illegal_tries_this_turn(&self) -> u32 {
        self.illegal_this_turn
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// Judges a try by `color`.
    ///
    /// # Errors
    /// [`JudgeError`] when it is not `color`'s turn, the game is over, or the point is off the board.
    pub fn submit(&mut self, color: Color, mv: Move) -> Result<Ruling, JudgeError> {
        if self.game.is_over() {
            return Err(JudgeError::GameOver);
        }
        if color != self.game.to_move() {
            return Err(JudgeError::NotYourTurn);
        }
        let mut forced_pass = false;
        let outcome = match self.game.play(mv) {
            Ok(captured) => {
                self.illegal_this_turn = 0;
                if mv == Move::Pass {
                    TryOutcome::Pass
                } else {
                    TryOutcome::Ok { captured }
                }
            }
            Err(GameError::Illegal(_)) => {
                self.illegal_this_turn += 1;
                if !self.game.is_over() {
                    if self.illegal_this_turn >= self.max_illegal_per_turn {
                        forced_pass = true;
                        self.illegal_this_turn = 0;
                        // The forced pass is part of this try: it ends the turn like a pass without counting again.
                        self.game.record_forced_pass();
                    } else if self.illegal_rule == IllegalRule::LoseTurn {
                        self.illegal_this_turn = 0;
                        self.game.skip_turn();
                    }
                }
                TryOutcome::Illegal
            }
            Err(GameError::GameOver) => return Err(JudgeError::GameOver),
            Err(GameError::OffBoard) => return Err(JudgeError::OffBoard),
        };
        Ok(Ruling {
            mover: color,
            tried: mv,
            outcome,
            forced_pass,
            next_to_move: self.game.to_move(),
            game_over: self.game.end(),
        })
    }
}
