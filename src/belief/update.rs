//! One announcement applied to the belief: the facts it proves, every particle updated in place, and the dead
//! replaced.

use super::facts::Event;
use super::rebuild::Population;
use super::storage::UNASSIGNED;
use super::Belief;
use crate::bitboard::Bitboard;

/// Aimed repair steps per dead particle when enough particles survived (and one mutated child per gap).
const REPAIR_STEPS_PER_DEAD: usize = 2;

/// Aimed repair steps per try on a dead particle in a resampling (too few survived).
const REPAIR_STEPS_PER_DEAD_RESAMPLING: usize = 4;

impl Belief {
    /// Takes in one checked announcement: the facts first, then every particle, then the dead replaced.
    pub(super) fn push_event(&mut self, event: Event) {
        // The opponent model shuns points proven empty just before its move (it did not play there before).
        let avoid = self.known_empty;
        self.record_facts(event);
        self.history.push(event);
        if self.first_capture.is_none() && event.captured().any() {
            self.first_capture = Some(self.history.len() - 1);
        }
        let new_slot = matches!(event, Event::OpponentHidden { .. });
        if new_slot {
            self.ensure_stride(self.slots + 1);
            self.slots += 1;
        }
        let survivors = self.update_particles(event, avoid);
        if survivors.len() < self.boards.len() {
            self.replace_dead(&survivors, new_slot);
        }
    }

    /// The announcements alone: our stones, the opponent's count, points proven empty, blocked tries.
    fn record_facts(&mut self, event: Event) {
        match event {
            Event::OwnIllegal { point } => {
                let last = self.history.iter().rev().find(|e| !matches!(e, Event::OwnIllegal { .. })).copied();
                let facts = (self.own, self.opponent_count, self.known_empty);
                // The event is pushed after its facts: it will sit at index `history.len()`.
                let repetition_possible = self.repetition_may_refuse(self.history.len());
                self.tries.illegal(self.geometry, point, last, facts, repetition_possible);
            }
            Event::OwnOk { point, captured } => {
                self.tries.own_ok(point, captured);
                self.own.insert(point);
                self.opponent_count -= i64::from(captured.count());
                self.known_empty = (self.known_empty | captured) - Bitboard::from_point(point);
            }
            Event::OpponentHidden { captured } => {
                self.tries.own_captured(captured);
                self.own -= captured;
                self.opponent_count += 1;
                // The stone may be on any point not proven otherwise; our captured stones left empty points.
                self.known_empty = captured;
            }
            Event::OpponentSeen { point, captured } => {
                self.tries.own_captured(captured);
                self.own -= captured;
                self.opponent_count += 1;
                self.known_empty = (self.known_empty - Bitboard::from_point(point)) | captured;
            }
            _ => {}
        }
    }

    /// Applies the last event to every particle's board in place (a hidden move drawn from the opponent model,
    /// avoiding `avoid`); returns the indices of the particles that agree. The old slot rows stay as the
    /// parents of repairs; a board that disagrees is replaced later, whatever state it was left in.
    fn update_particles(&mut self, event: Event, avoid: Bitboard) -> Vec<usize> {
        let n = self.boards.len();
        let mut survivors = Vec::with_capacity(n);
        let mut rng = self.rng.clone();
        let stride = self.stride;
        let last_slot = self.slots.wrapping_sub(1);
        let index = self.history.len() - 1;
        let mut boards = std::mem::take(&mut self.boards);
        for (i, board) in boards.iter_mut().enumerate() {
            let ok = match event {
                Event::OpponentHidden { captured } => {
                    match self.sample_opponent_move(&mut rng, board, captured, Bitboard::EMPTY, avoid, Bitboard::EMPTY)
                    {
                        Some(point) => {
                            self.moves[i * stride + last_slot] = point.index() as u8;
                            true
                        }
                        None => false,
                    }
                }
                Event::OwnIllegal { .. } if self.repetition_may_refuse(index) => {
                    // A repetition needs the particle's earlier positions: replay its whole history.
                    self.apply_fixed(board, event, index)
                        || match self.replay(&mut self.row(i).to_vec(), None, None) {
                            Some(replayed) => {
                                *board = replayed;
                                true
                            }
                            None => false,
                        }
                }
                _ => self.apply_fixed(board, event, index),
            };
            if ok {
                survivors.push(i);
            }
        }
        self.boards = boards;
        self.rng = rng;
        self.stats.survivors_last = survivors.len();
        survivors
    }

    /// Replaces the particles not in `survivors`: short aimed repairs of each dead one and a mutated child per
    /// gap when at least [`super::BeliefConfig::resample_below`] survived, otherwise a resampling with larger
    /// budgets.
    fn replace_dead(&mut self, survivors: &[usize], new_slot: bool) {
        let n = self.boards.len();
        // Parents for the dead: their own rows before this event (the new slot still to be drawn).
        let mut old_moves = self.moves.clone();
        if new_slot {
            for i in 0..n {
                old_moves[i * self.stride + self.slots - 1] = UNASSIGNED;
            }
        }
        let mut alive = vec![false; n];
        for &i in survivors {
            alive[i] = true;
        }
        let dead: Vec<usize> = (0..n).filter(|&i| !alive[i]).collect();
        let threshold = (self.config.resample_below * n as f32).ceil() as usize;
        let gaps = n - survivors.len();
        let (dead_tries, dead_budget, budget) = if survivors.len() >= threshold.max(1) {
            (REPAIR_STEPS_PER_DEAD, REPAIR_STEPS_PER_DEAD * gaps, gaps)
        } else {
            self.stats.resamplings += 1;
            let budget = self.config.max_resample_attempts.max(1) * n;
            (REPAIR_STEPS_PER_DEAD_RESAMPLING, budget, budget)
        };
        let population = Population {
            kept: survivors,
            dead: &dead,
            old_moves: &old_moves,
            dead_tries,
            dead_budget,
            budget,
            replace_all: false,
        };
        self.rebuild_population(population);
    }
}
