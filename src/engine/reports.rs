//! What the referee reports to the engine: the result of its try, the opponent's turn, late captures, and undo.

use super::*;

impl Engine {
    /// `phantom-result illegal`: the last try is undone and recorded as illegal.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`] when no try awaits a result.
    pub fn phantom_result_illegal(&mut self) -> Result<(), EngineError> {
        let pending = self.pending.take().ok_or(EngineError::NoPendingTry)?;
        let mut knowledge = *pending.before;
        knowledge.events.push((pending.color, Observation::OwnIllegal { point: pending.point }));
        knowledge.illegal_this_turn.insert(pending.point);
        if self.illegal_rule == IllegalRule::LoseTurn {
            knowledge.end_turn(pending.color);
        }
        self.knowledge = knowledge;
        self.sync_belief();
        Ok(())
    }

    /// `phantom-result ok [captured]`: the last try stands and captured these opponent stones.
    ///
    /// # Errors
    /// [`EngineError::NoPendingTry`], or [`EngineError::Inconsistent`] when a captured point cannot hold an opponent
    /// stone (see [`crate::report_check::own_captures`]); the pending try is kept then.
    pub fn phantom_result_ok(&mut self, captured: &[Point]) -> Result<(), EngineError> {
        let pending = self.pending.as_ref().ok_or(EngineError::NoPendingTry)?;
        let (color, point) = (pending.color, pending.point);
        let mut knowledge = (*pending.before).clone();
        // A point that holds one of our stones is named by the caller's own coordinates (InconsistentAt).
        let own_after = knowledge.board.stones(color) | Bitboard::from_point(point);
        if let Some(&bad) = captured.iter().find(|&&p| own_after.contains(p)) {
            return Err(EngineError::InconsistentAt { point: bad, size: self.size(), why: "holds our stone" });
        }
        let captured_set = crate::report_check::own_captures(&knowledge.board, color, point, captured)
            .map_err(EngineError::Inconsistent)?;
        // The referee is the authority: seen opponent stones among the captures go, our stone stands.
        knowledge.board.remove_stones(captured_set);
        if knowledge.board.color_at(point).is_none() {
            knowledge.board.put_stone(color, point);
        }
        knowledge.hidden_opponent_moves = knowledge.hidden_opponent_moves.saturating_sub(captured_set.count());
        knowledge.events.push((color, Observation::OwnOk { point, captured: captured_set }));
        knowledge.end_turn(color);
        self.pending = None;
        self.knowledge = knowledge;
        self.sync_belief();
        Ok(())
    }

    /// What the opponent's turn revealed (`phantom-opponent ...`): [`Observation::OpponentMove`],
    /// [`Observation::OpponentIllegal`] or [`Observation::OpponentPass`].
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`] when the captured points are not whole chains of our stones that one stone
    /// could take (see [`crate::report_check::opponent_captures`]), or for an announcement that is not about the
    /// opponent's turn; nothing changes then.
    pub fn phantom_opponent(&mut self, report: &Observation) -> Result<(), EngineError> {
        match *report {
            Observation::OpponentMove { captured } => {
                // Check before settling a pending try, so that a bad report changes nothing.
                // The known board holds a pending try already (genmove plays it tentatively).
                let us = self.pending.as_ref().map(|p| p.color);
                let us = us.unwrap_or(self.knowledge.us.unwrap_or(self.knowledge.to_move.opponent()));
                if let Some(bad) = (captured - self.knowledge.board.stones(us)).first() {
                    return Err(EngineError::InconsistentAt { point: bad, size: self.size(), why: "is not our stone" });
                }
                let points: Vec<Point> = captured.iter().collect();
                crate::report_check::opponent_captures(&self.knowledge.board, us, &points)
                    .map_err(EngineError::Inconsistent)?;
            }
            Observation::OpponentIllegal | Observation::OpponentPass => {}
            _ => return Err(EngineError::Inconsistent("not a report of the opponent's turn".into())),
        }
        self.settle_pending();
        let mut next = self.knowledge.clone();
        if next.us.is_none() {
            next.us = Some(next.to_move.opponent());
        }
        let us = next.us.expect("set above");
        let opponent = us.opponent();
        match *report {
            Observation::OpponentIllegal => {
                if self.illegal_rule == IllegalRule::LoseTurn {
                    next.end_turn(opponent);
                }
            }
            Observation::OpponentMove { captured } => {
                // Checked above to be our stones.
                next.board.remove_stones(captured & next.board.stones(us));
                next.hidden_opponent_moves += 1;
                next.end_turn(opponent);
            }
            _ => {
                next.board.pass();
                next.end_turn(opponent);
            }
        }
        next.events.push((us, *report));
        self.remember();
        self.knowledge = next;
        self.sync_belief();
        Ok(())
    }

    /// Captures the engine is told of after the announcement they belong to (the championship dialect's late
    /// `take`/`taked`): our stones among `points` were taken by the opponent's last unseen move, the others by
    /// our last legal try that stands. The known board drops them (under a pending try too), that
    /// announcement gains them, and the belief is rebuilt from the corrected history.
    ///
    /// # Errors
    /// [`EngineError::Inconsistent`] when the points mix our stones with others, hold our pending try, or no
    /// announcement can have captured them; nothing changes then.
    pub fn late_captures(&mut self, points: Bitboard) -> Result<(), EngineError> {
        let us = self.knowledge.us.ok_or_else(|| EngineError::Inconsistent("our colour is not known".into()))?;
        let mut knowledge = match &self.pending {
            Some(pending) => (*pending.before).clone(),
            None => self.knowledge.clone(),
        };
        if let Some(pending) = &self.pending {
            if points.contains(pending.point) {
                return Err(EngineError::Inconsistent("a capture of our pending try".into()));
            }
        }
        amend_captures(&mut knowledge, us, points)?;
        match self.pending.as_mut() {
            Some(pending) => {
                let mut tentative = knowledge.clone();
                pending.known_captures = tentative
                    .board
                    .try_play(pending.color, pending.point)
                    .map_err(|_| EngineError::Inconsistent("the pending try would not stand".into()))?;
                tentative.end_turn(pending.color);
                *pending.before = knowledge;
                self.knowledge = tentative;
            }
            None => self.knowledge = knowledge,
        }
        self.belief = None;
        self.sync_belief();
        Ok(())
    }

    /// Takes back the last move or report.
    ///
    /// # Errors
    /// [`EngineError::CannotUndo`] when there is nothing to take back.
    pub fn undo(&mut self) -> Result<(), EngineError> {
        self.pending = None;
        self.trees.clear();
        let previous = self.history.pop().ok_or(EngineError::CannotUndo)?;
        self.knowledge = previous;
        self.sync_belief();
        Ok(())
    }
}
