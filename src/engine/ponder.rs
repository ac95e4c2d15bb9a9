//! Pondering: the main search run ahead of our turn, on the opponent's time, in a copy of the engine that has
//! already taken in the opponent turn we expect to be told (a move somewhere unseen that captured nothing).
//! When that report comes, the copy is the engine and its search carries on from the pondered trees.

use super::{Engine, PlayerKind};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::observation::Observation;
use crate::search::SearchLimits;
use std::sync::atomic::AtomicBool;

/// The opponent turn a ponder expects to be told: a legal move somewhere unseen that captured nothing, by far
/// the most common report (an illegal try or a pass is told on its own line and a new ponder follows).
pub const EXPECTED_REPORT: Observation = Observation::OpponentMove { captured: Bitboard::EMPTY };

impl Engine {
    /// The colour a ponder would search for: the main search plays (`mcts`), our colour is known, no try of ours
    /// awaits its result and the opponent is to move; `None` otherwise.
    pub fn ponder_color(&self) -> Option<Color> {
        self.ponder_color_when(false)
    }

    /// The colour a ponder would search for once our pending try stands with no captures: as
    /// [`Engine::ponder_color`], but with a try of ours awaiting its result (the championship dialect's `accept`,
    /// which a `take` may still follow), which the ponder's copy takes in first.
    pub fn ponder_color_after_ok(&self) -> Option<Color> {
        self.ponder_color_when(true)
    }

    fn ponder_color_when(&self, pending: bool) -> Option<Color> {
        let us = self.knowledge.us?;
        // While our try is pending the engine already keeps it played and the opponent to move.
        let ready = self.config.player == PlayerKind::Mcts
            && self.pending.is_some() == pending
            && self.knowledge.to_move == us.opponent()
            && self.belief.is_some();
        ready.then_some(us)
    }

    /// A copy of the engine for a ponder to take the expected report in and search on; the kept trees move to
    /// the copy (the ponder's search starts from them as the genmove would), so the engine itself keeps none.
    pub fn speculative_copy(&mut self) -> Engine {
        Engine {
            config: self.config.clone(),
            komi: self.komi,
            illegal_rule: self.illegal_rule,
            optional_rules: self.optional_rules,
            knowledge: self.knowledge.clone(),
            pending: self.pending.clone(),
            history: self.history.clone(),
            rng: self.rng.clone(),
            last_stats: self.last_stats.clone(),
            belief: self.belief.clone(),
            trees: std::mem::take(&mut self.trees),
            pondered: 0,
        }
    }

    /// Takes a stopped ponder's trees from its copy (after the opponent's illegal try under `retry` the next
    /// ponder goes on from them: the root is the same, as is the expected report).
    pub fn take_trees_from(&mut self, copy: &mut Engine) {
        self.trees = std::mem::take(&mut copy.trees);
    }

    /// Searches `color`'s coming try until `stop` is raised or `limit` simulations are run, and keeps the trees
    /// for that try's genmove ([`crate::search::uct::KeptTrees::mark_pondered`]). Returns the simulations run.
    pub fn ponder(&mut self, color: Color, limit: u64, stop: &AtomicBool) -> u64 {
        if self.config.player != PlayerKind::Mcts || self.knowledge.to_move != color || limit == 0 {
            return 0;
        }
        self.sync_belief();
        let Some((belief, _)) = self.belief.as_ref() else {
            return 0;
        };
        let input = self.mcts_input(belief, color);
        let limits = SearchLimits { playouts: Some(limit), ..SearchLimits::default() };
        let seed = self.config.seed ^ (u64::from(self.knowledge.move_number) << 32) ^ 0x9E37_79B9;
        let result = crate::search::uct::search_keeping(
            &input,
            &self.config.search,
            &limits,
            self.config.threads,
            seed,
            Some(stop),
            &mut self.trees,
        );
        self.trees.mark_pondered();
        self.pondered = self.trees.root_visits();
        log::debug!("pondered {} simulations, {} root visits kept", result.simulations, self.pondered);
        result.simulations
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use crate::point::{Move, Point};

    fn engine() -> Engine {
        Engine::new(EngineConfig { threads: 1, seed: 3, playouts: Some(300), particles: 64, ..EngineConfig::default() })
    }

    /// Black's first try stood and White is to move: the engine and a copy that took in the expected report.
    fn pondering_copy() -> (Engine, Engine) {
        let mut engine = engine();
        engine.genmove(Color::Black, &SearchLimits { playouts: Some(200), ..SearchLimits::default() });
        engine.phantom_result_ok(&[]).unwrap();
        let mut copy = engine.speculative_copy();
        copy.phantom_opponent(&EXPECTED_REPORT).unwrap();
        (engine, copy)
    }

    fn point(vertex: &str) -> Point {
        crate::point::parse_vertex(vertex, 9).unwrap().point().unwrap()
    }

    #[test]
    fn ponders_only_while_the_opponent_is_to_move() {
        let mut engine = engine();
        assert_eq!(engine.ponder_color(), None, "our colour is not known yet");
        let limits = SearchLimits { playouts: Some(300), ..SearchLimits::default() };
        let crate::engine::Decision::Move(Move::Play(_)) = engine.genmove(Color::Black, &limits) else {
            panic!("the first try is a play");
        };
        assert_eq!(engine.ponder_color(), None, "our try awaits its result");
        assert_eq!(engine.ponder_color_after_ok(), Some(Color::Black), "unless it is taken to stand");
        engine.phantom_result_ok(&[]).unwrap();
        assert_eq!(engine.ponder_color(), Some(Color::Black));
        assert_eq!(engine.ponder_color_after_ok(), None, "no try pending");
        engine.phantom_opponent(&EXPECTED_REPORT).unwrap();
        assert_eq!(engine.ponder_color(), None, "our turn now");
        assert_eq!(engine.ponder_color_after_ok(), None, "our turn now");
    }

    #[test]
    fn the_copy_takes_the_report_and_the_engine_is_untouched() {
        let mut engine = engine();
        let limits = SearchLimits { playouts: Some(200), ..SearchLimits::default() };
        engine.genmove(Color::Black, &limits);
        engine.phantom_result_ok(&[]).unwrap();
        let bad = Observation::OpponentMove { captured: [point("A1")].into_iter().collect() };
        assert!(engine.speculative_copy().phantom_opponent(&bad).is_err(), "A1 is not our stone");
        let mut copy = engine.speculative_copy();
        copy.phantom_opponent(&EXPECTED_REPORT).expect("a move that captured nothing fits");
        assert_eq!(copy.knowledge.to_move, Color::Black);
        assert_eq!(engine.knowledge.to_move, Color::White, "the engine itself is untouched");
    }

    #[test]
    fn the_pondered_trees_carry_into_the_genmove_of_that_turn() {
        let (_, mut copy) = pondering_copy();
        let limits = SearchLimits { playouts: Some(300), ..SearchLimits::default() };
        let stop = AtomicBool::new(false);
        assert_eq!(copy.ponder(Color::Black, 2000, &stop), 2000);
        assert!(copy.trees.root_visits() >= 2000, "the pondered root visits are kept");
        copy.genmove(Color::Black, &limits);
        let stats = copy.last_move_stats();
        assert_eq!(stats.simulations, 300, "the genmove runs its own playouts on top");
        assert!(stats.pondered >= 2000, "and reports the pondered visits it started from: {}", stats.pondered);
    }

    #[test]
    fn a_raised_stop_ends_the_ponder_at_once() {
        let (mut engine, mut copy) = pondering_copy();
        let stop = AtomicBool::new(true);
        assert_eq!(copy.ponder(Color::Black, u64::MAX, &stop), 0);
        assert_eq!(engine.ponder(Color::Black, 1000, &AtomicBool::new(false)), 0, "not our turn in the engine");
    }
}
