//! The opponent model's parameters: a mixture of point pools (near its stones, next to ours, atari, off the
//! edge, ...) with a weight per pool and game phase, fitted on recorded games (`phantomgo fit-model`) and kept
//! in `configs/opponent_model.toml`.
//!
//! A hidden opponent move is drawn by choosing a pool with probability proportional to its weight among the
//! pools that hold a candidate point, then a point of that pool uniformly. The candidates are the empty points
//! that are not single-point eyes of ours and not the opponent's ko point. The same definition scores a
//! recorded move in the fitter, so the fitted weights are the maximum-likelihood weights of the sampler itself.

use crate::bitboard::{Bitboard, Geometry};
use crate::board::Board;
use crate::color::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The fitted model shipped with the engine (written by `scripts/fit_model.sh`).
pub const FITTED_MODEL: &str = include_str!("../../configs/opponent_model.toml");

/// A candidate model, built in but not the default: the same fit on 8000-playout games of the engine, `pimc` and
/// `flat`, without the random player (scripts/fit_model_8000.sh; `belief.opponent_model = "fitted-8000"`).
pub const FITTED_8000_MODEL: &str = include_str!("../../configs/opponent_model_8000.toml");

/// Number of pools in the mixture.
pub const POOLS: usize = 13;

/// The pools of the mixture, in the order of [`PoolWeights::as_array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// Next to one of the mover's own stones.
    AdjacentOwn,
    /// Within distance 2 of the mover's own stones.
    NearOwn,
    /// Next to one of the other side's stones.
    ContactOther,
    /// A liberty of a chain of the other side with exactly two liberties (the move puts it in atari).
    AtariOther,
    /// The liberty of one of the mover's chains in atari (an escape).
    Escape,
    /// Off the first line.
    OffEdge,
    /// Off the first two lines.
    Centre,
    /// Diagonal to one of the mover's stones.
    Diagonal,
    /// Two points straight out from one of the mover's stones (a one-point jump).
    Jump,
    /// Next to both sides' stones at once (cuts, blocks, hanes).
    Fight,
    /// More than two points from every stone on the board (an open area).
    Open,
    /// On the second line.
    SecondLine,
    /// Any candidate.
    Uniform,
}

impl Pool {
    /// Every pool, in weight order.
    pub const ALL: [Pool; POOLS] = [
        Pool::AdjacentOwn,
        Pool::NearOwn,
        Pool::ContactOther,
        Pool::AtariOther,
        Pool::Escape,
        Pool::OffEdge,
        Pool::Centre,
        Pool::Diagonal,
        Pool::Jump,
        Pool::Fight,
        Pool::Open,
        Pool::SecondLine,
        Pool::Uniform,
    ];

    /// The pool's name in the model file.
    pub fn name(self) -> &'static str {
        match self {
            Pool::AdjacentOwn => "adjacent_own",
            Pool::NearOwn => "near_own",
            Pool::ContactOther => "contact_other",
            Pool::AtariOther => "atari_other",
            Pool::Escape => "escape",
            Pool::OffEdge => "off_edge",
            Pool::Centre => "centre",
            Pool::Diagonal => "diagonal",
            Pool::Jump => "jump",
            Pool::Fight => "fight",
            Pool::Open => "open",
            Pool::SecondLine => "second_line",
            Pool::Uniform => "uniform",
        }
    }

    /// The pool's points among `candidates` when `mover` is to play on `board`. The two chain pools flood
    /// the chains of one colour; the others are a few mask operations.
    pub fn points(self, board: &Board, mover: Color, candidates: Bitboard) -> Bitboard {
        let geometry = board.geometry();
        let own = board.stones(mover);
        let other = board.stones(mover.opponent());
        let set = match self {
            Pool::AdjacentOwn => geometry.adjacent(own),
            Pool::NearOwn => geometry.expand(geometry.expand(own)),
            Pool::ContactOther => geometry.adjacent(other),
            Pool::AtariOther => liberties_of_chains(board, other, 2),
            Pool::Escape => liberties_of_chains(board, own, 1),
            Pool::OffEdge => geometry.mask() - first_line(geometry),
            Pool::Centre => {
                let off = geometry.mask() - first_line(geometry);
                off - first_line_of(geometry, off)
            }
            Pool::Diagonal => {
                let rows = geometry.north(own) | geometry.south(own);
                geometry.east(rows) | geometry.west(rows)
            }
            Pool::Jump => {
                geometry.north(geometry.north(own))
                    | geometry.south(geometry.south(own))
                    | geometry.east(geometry.east(own))
                    | geometry.west(geometry.west(own))
            }
            Pool::Fight => geometry.adjacent(own) & geometry.adjacent(other),
            Pool::Open => geometry.mask() - geometry.expand(geometry.expand(own | other)),
            Pool::SecondLine => {
                let off = geometry.mask() - first_line(geometry);
                first_line_of(geometry, off)
            }
            Pool::Uniform => geometry.mask(),
        };
        set & candidates
    }
}

/// The liberties of the chains of `stones` that have exactly `count` liberties.
fn liberties_of_chains(board: &Board, stones: Bitboard, count: u32) -> Bitboard {
    let mut left = stones;
    let mut out = Bitboard::EMPTY;
    while let Some(point) = left.first() {
        let (chain, liberties) = board.group_and_liberties(point);
        if liberties.count() == count {
            out |= liberties;
        }
        left -= chain | Bitboard::from_point(point);
    }
    out
}

/// The first line of the board.
pub(super) fn first_line(geometry: &Geometry) -> Bitboard {
    first_line_of(geometry, geometry.mask())
}

/// The points of `region` with a neighbour outside it on some side (its outer ring), for a rectangle `region`.
fn first_line_of(geometry: &Geometry, region: Bitboard) -> Bitboard {
    let inner = geometry.north(region) & geometry.south(region) & geometry.east(region) & geometry.west(region);
    region - inner
}

/// The candidate points of a hidden move by `mover`: empty, not a single-point eye of the other side (a stone
/// there is suicide unless it captures, and captures are drawn apart), not the mover's ko point.
pub fn candidates(board: &Board, mover: Color) -> Bitboard {
    let mut out = board.empty() - board.single_point_eyes(mover.opponent());
    if let Some((ko, color)) = board.ko() {
        if color == mover {
            out.remove(ko);
        }
    }
    out
}

/// One phase's pool weights (any non-negative scale; only ratios matter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolWeights {
    /// [`Pool::AdjacentOwn`].
    pub adjacent_own: f64,
    /// [`Pool::NearOwn`].
    pub near_own: f64,
    /// [`Pool::ContactOther`].
    pub contact_other: f64,
    /// [`Pool::AtariOther`].
    pub atari_other: f64,
    /// [`Pool::Escape`].
    pub escape: f64,
    /// [`Pool::OffEdge`].
    pub off_edge: f64,
    /// [`Pool::Centre`].
    pub centre: f64,
    /// [`Pool::Diagonal`].
    #[serde(default)]
    pub diagonal: f64,
    /// [`Pool::Jump`].
    #[serde(default)]
    pub jump: f64,
    /// [`Pool::Fight`].
    #[serde(default)]
    pub fight: f64,
    /// [`Pool::Open`].
    #[serde(default)]
    pub open: f64,
    /// [`Pool::SecondLine`].
    #[serde(default)]
    pub second_line: f64,
    /// [`Pool::Uniform`].
    pub uniform: f64,
}

impl PoolWeights {
    /// The weights in [`Pool::ALL`] order.
    pub fn as_array(&self) -> [f64; POOLS] {
        [
            self.adjacent_own,
            self.near_own,
            self.contact_other,
            self.atari_other,
            self.escape,
            self.off_edge,
            self.centre,
            self.diagonal,
            self.jump,
            self.fight,
            self.open,
            self.second_line,
            self.uniform,
        ]
    }

    /// Weights from an array in [`Pool::ALL`] order.
    pub fn from_array(w: [f64; POOLS]) -> Self {
        PoolWeights {
            adjacent_own: w[0],
            near_own: w[1],
            contact_other: w[2],
            atari_other: w[3],
            escape: w[4],
            off_edge: w[5],
            centre: w[6],
            diagonal: w[7],
            jump: w[8],
            fight: w[9],
            open: w[10],
            second_line: w[11],
            uniform: w[12],
        }
    }
}

/// The opponent model: pool weights per game phase, the phase given by the mover's stones on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentModel {
    /// The mover's stone counts at which the second, third, ... phase starts (increasing).
    pub phase_starts: Vec<u32>,
    /// One set of weights per phase (`phase_starts.len() + 1` of them).
    pub phase: Vec<PoolWeights>,
}

/// Why a model file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "opponent model: {}", self.0)
    }
}

impl std::error::Error for ModelError {}

impl OpponentModel {
    /// Parses and checks a model file.
    ///
    /// # Errors
    /// A [`ModelError`] for bad TOML, a phase count that does not match, unsorted phase starts, or weights
    /// that are negative, not finite, or leave the uniform pool at zero (every legal point must stay possible).
    pub fn from_toml(text: &str) -> Result<Self, ModelError> {
        let model: OpponentModel = toml::from_str(text).map_err(|e| ModelError(e.to_string()))?;
        model.check()?;
        Ok(model)
    }

    /// The shipped fitted model.
    pub fn fitted() -> Self {
        static FITTED: std::sync::OnceLock<OpponentModel> = std::sync::OnceLock::new();
        // The file is part of the build and checked by a test; a broken one falls back to the hand model.
        FITTED.get_or_init(|| Self::from_toml(FITTED_MODEL).unwrap_or_else(|_| Self::hand(0.3, 0.15, 0.3))).clone()
    }

    /// The candidate model fitted on 8000-playout games ([`FITTED_8000_MODEL`]).
    pub fn fitted_8000() -> Self {
        static FITTED: std::sync::OnceLock<OpponentModel> = std::sync::OnceLock::new();
        FITTED.get_or_init(|| Self::from_toml(FITTED_8000_MODEL).unwrap_or_else(|_| Self::fitted())).clone()
    }

    /// The earlier hand-set model as a mixture: `locality` within distance 2 of its stones, `contact` next to
    /// ours, and the rest uniform, off the first line with probability `edge_avoidance`; one phase.
    pub fn hand(locality: f32, contact: f32, edge_avoidance: f32) -> Self {
        let (locality, contact, edge_avoidance) = (f64::from(locality), f64::from(contact), f64::from(edge_avoidance));
        let rest = (1.0 - locality - contact).max(0.0);
        let mut w = [0.0; POOLS];
        w[1] = locality;
        w[2] = contact;
        w[5] = rest * edge_avoidance;
        w[POOLS - 1] = (rest * (1.0 - edge_avoidance)).max(1e-3);
        OpponentModel { phase_starts: Vec::new(), phase: vec![PoolWeights::from_array(w)] }
    }

    fn check(&self) -> Result<(), ModelError> {
        if self.phase.len() != self.phase_starts.len() + 1 {
            return Err(ModelError(format!(
                "{} phase starts need {} weight tables, found {}",
                self.phase_starts.len(),
                self.phase_starts.len() + 1,
                self.phase.len()
            )));
        }
        if self.phase_starts.windows(2).any(|w| w[0] >= w[1]) {
            return Err(ModelError("phase_starts must increase".into()));
        }
        for (i, p) in self.phase.iter().enumerate() {
            let w = p.as_array();
            if w.iter().any(|x| !x.is_finite() || *x < 0.0) {
                return Err(ModelError(format!("phase {i}: weights must be finite and non-negative")));
            }
            if p.uniform <= 0.0 {
                return Err(ModelError(format!("phase {i}: the uniform weight must be positive")));
            }
        }
        Ok(())
    }

    /// The phase of a move by a side with `own_stones` stones on the board.
    pub fn phase_of(&self, own_stones: u32) -> usize {
        self.phase_starts.iter().take_while(|&&s| own_stones >= s).count()
    }

    /// The weights of `phase`.
    pub fn weights(&self, phase: usize) -> [f32; POOLS] {
        self.phase[phase.min(self.phase.len() - 1)].as_array().map(|w| w as f32)
    }

    /// The model file's text for these weights, after `header` (comment lines).
    pub fn to_toml(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&toml::to_string(self).unwrap_or_default());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::parse_vertex;

    #[test]
    fn the_shipped_model_parses() {
        let model = OpponentModel::from_toml(FITTED_MODEL).expect("configs/opponent_model.toml");
        assert_eq!(model.phase.len(), model.phase_starts.len() + 1);
        let candidate = OpponentModel::from_toml(FITTED_8000_MODEL).expect("configs/opponent_model_8000.toml");
        assert_eq!(candidate.phase.len(), candidate.phase_starts.len() + 1);
        assert_ne!(candidate, model);
    }

    #[test]
    fn bad_models_are_refused() {
        let good = OpponentModel::hand(0.3, 0.15, 0.3).to_toml("t");
        assert!(OpponentModel::from_toml(&good).is_ok());
        assert!(OpponentModel::from_toml(&good.replace("uniform = ", "uniform = -")).is_err());
        assert!(OpponentModel::from_toml(&good.replace("phase_starts = []", "phase_starts = [3]")).is_err());
        assert!(OpponentModel::from_toml("phase_starts = [").is_err());
    }

    #[test]
    fn phases_follow_the_stone_count() {
        let mut model = OpponentModel::hand(0.3, 0.15, 0.3);
        model.phase_starts = vec![4, 10];
        model.phase = vec![model.phase[0]; 3];
        assert_eq!(model.phase_of(0), 0);
        assert_eq!(model.phase_of(4), 1);
        assert_eq!(model.phase_of(9), 1);
        assert_eq!(model.phase_of(30), 2);
    }

    #[test]
    fn pools_on_a_picture() {
        // White (O) to move. Its stone at B5 is in atari (liberty A5), its pair D1-E1 too (liberty C1); Black's
        // C5 and B4 have two liberties each, Black's D2-E2 three.
        let board = Board::from_picture(
            5,
            ". O X . .
             O X . . .
             . . . . .
             . . . X X
             . . . O O",
        );
        let c = candidates(&board, Color::White);
        let p = |s: &str| parse_vertex(s, 5).unwrap().point().unwrap();
        let set = |names: &[&str]| names.iter().fold(Bitboard::EMPTY, |b, n| b | Bitboard::from_point(p(n)));
        assert_eq!(Pool::Escape.points(&board, Color::White, c), set(&["A5", "C1"]));
        assert_eq!(Pool::AtariOther.points(&board, Color::White, c), set(&["D5", "C4", "B3"]));
        assert_eq!(Pool::Centre.points(&board, Color::White, c), set(&["C3"]));
        let adjacent = Pool::AdjacentOwn.points(&board, Color::White, c);
        assert_eq!(adjacent, set(&["A5", "A3", "C1"]));
        assert_eq!(Pool::Uniform.points(&board, Color::White, c), board.empty());
        assert_eq!(Pool::Diagonal.points(&board, Color::White, c), set(&["C4", "B3", "C2"]));
        assert_eq!(Pool::Jump.points(&board, Color::White, c), set(&["B3", "D5", "A2", "C4", "D3", "B1", "E3", "C1"]));
        let contact = Pool::ContactOther.points(&board, Color::White, c);
        assert_eq!(contact, set(&["D5", "C4", "B3", "D3", "C2", "E3"]));
        assert_eq!(Pool::Fight.points(&board, Color::White, c), Bitboard::EMPTY, "no point touches both");
        let fight = Pool::Fight.points(&board, Color::Black, candidates(&board, Color::Black));
        assert_eq!(fight, Bitboard::EMPTY, "the same for Black");
        assert_eq!(Pool::Open.points(&board, Color::White, c), set(&["A1"]));
        let second = Pool::SecondLine.points(&board, Color::White, c);
        assert_eq!(second, set(&["C4", "D4", "B3", "D3", "B2", "C2"]));
    }
}
