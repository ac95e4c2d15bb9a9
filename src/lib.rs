//! phantomgo: a Phantom Go engine library (rules, belief, search, protocol, referee).
#![warn(missing_docs)]

pub mod belief;
pub mod bench;
pub mod bitboard;
pub mod board;
pub mod ccgc;
pub mod chains;
pub mod color;
pub mod config;
pub mod engine;
pub mod fit;
pub mod game;
pub mod gtp;
pub mod input;
pub mod judge;
pub mod observation;
pub mod point;
pub mod referee;
pub mod report_check;
pub mod scoring;
pub mod search;
pub mod session;
pub mod time;

pub use belief::{Belief, BeliefConfig, BeliefStats, Resampling};
pub use bitboard::{Bitboard, Geometry};
pub use board::{Board, IllegalMove};
pub use chains::ChainBoard;
pub use color::{ByColor, Color};
pub use game::{Game, GameEnd, GameError, KoRule, Rules};
pub use judge::{IllegalRule, Judge, Ruling, TryOutcome};
pub use observation::Observation;
pub use point::{parse_vertex, Move, Point};
pub use scoring::{GameResult, TieRule};
