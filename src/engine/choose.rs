//! How the engine chooses a try: `genmove`, and the players behind it (the main search, `ismcts`, the
//! baselines `flat` and `pimc`, the random player) handed what the engine knows.

use super::*;

impl Engine {
    /// Chooses a try for `color` within `limits` and plays it tentatively (it stands unless `phantom-result`
    /// says otherwise).
    pub fn genmove(&mut self, color: Color, limits: &SearchLimits) -> Decision {
        self.settle_pending();
        let started = std::time::Instant::now();
        if self.knowledge.us != Some(color) {
            self.knowledge.us = Some(color);
            self.sync_belief();
        }
        let mut stats = MoveStats {
            budget: limits.soft,
            win_rate: 0.5,
            move_number: self.knowledge.move_number,
            ..MoveStats::default()
        };
        let decision = match self.config.player {
            PlayerKind::Random => Decision::Move(self.choose_random(color)),
            PlayerKind::Mcts | PlayerKind::Ismcts => self.choose_mcts(color, limits, &mut stats),
            PlayerKind::Flat | PlayerKind::Pimc => self.choose_baseline(color, limits, &mut stats),
        };
        stats.vertex = match decision {
            Decision::Move(mv) => mv.to_vertex(self.size()),
            Decision::Resign => "resign".to_string(),
        };
        stats.time_used = started.elapsed();
        self.last_stats = stats;
        let Decision::Move(mv) = decision else {
            return decision;
        };
        self.remember();
        match mv {
            Move::Play(point) => {
                let before = Box::new(self.knowledge.clone());
                match self.knowledge.board.try_play(color, point) {
                    Ok(known_captures) => {
                        self.knowledge.end_turn(color);
                        self.pending = Some(PendingTry { color, point, known_captures, before });
                    }
                    Err(_) => {
                        // Cannot happen: both choosers offer only points legal on the known board.
                        log::error!(
                            "chosen try {} is illegal on the known board; passing",
                            point.to_vertex(self.size())
                        );
                        self.knowledge = *before;
                        return self.genmove_pass(color);
                    }
                }
            }
            Move::Pass => return self.genmove_pass(color),
        }
        decision
    }

    fn genmove_pass(&mut self, color: Color) -> Decision {
        self.knowledge.board.pass();
        self.knowledge.events.push((color, Observation::OwnPass));
        self.knowledge.end_turn(color);
        self.sync_belief();
        Decision::Move(Move::Pass)
    }

    /// Points that are empty on the known board but illegal there for `color` (suicide or ko with what we know).
    fn known_illegal(&self, color: Color) -> Bitboard {
        let board = &self.knowledge.board;
        board.empty().iter().filter(|&p| board.legality(color, p).is_err()).collect()
    }

    fn choose_random(&mut self, color: Color) -> Move {
        let board = &self.knowledge.board;
        let mut candidates = board.empty() - board.single_point_eyes(color) - self.knowledge.illegal_this_turn;
        while candidates.any() {
            let n = self.rng.gen_range(0..candidates.count());
            let point = candidates.nth(n).expect("n < count");
            if board.legality(color, point).is_ok() {
                return Move::Play(point);
            }
            candidates.remove(point);
        }
        Move::Pass
    }

    fn choose_mcts(&mut self, color: Color, limits: &SearchLimits, stats: &mut MoveStats) -> Decision {
        self.sync_belief();
        let Some((belief, _)) = self.belief.as_ref() else {
            return Decision::Move(self.choose_random(color));
        };
        let input = self.mcts_input(belief, color);
        stats.belief_entropy = belief.total_entropy();
        stats.survivors = belief.stats().survivors_last;
        (stats.opponent_chains, stats.opponent_weak) = belief.opponent_shape();
        stats.resamplings = belief.stats().resamplings;
        let record_point = |stats: &mut MoveStats, mv: Move| {
            let p = mv.point().map_or(0.0, |point| input.probabilities[point.index()]);
            stats.opponent_probability = p;
            stats.uncertainty = p * (1.0 - p);
        };
        if limits.emergency {
            let mv = safe_move(&input);
            record_point(stats, mv);
            return Decision::Move(mv);
        }
        let mut limits = *limits;
        if let Some(playouts) = self.config.playouts {
            limits.playouts = Some(playouts);
        }
        stats.pondered = std::mem::take(&mut self.pondered);
        let seed = self.config.seed
            ^ (u64::from(self.knowledge.move_number) << 32)
            ^ u64::from(self.knowledge.illegal_this_turn.count());
        let result = match self.config.player {
            PlayerKind::Ismcts => {
                crate::search::ismcts::search(&input, &self.config.search, &limits, self.config.threads, seed, None)
            }
            _ => crate::search::uct::search_keeping(
                &input,
                &self.config.search,
                &limits,
                self.config.threads,
                seed,
                None,
                &mut self.trees,
            ),
        };
        log::debug!("{}", crate::search::search_summary(&result, &input.probabilities, self.size()));
        stats.simulations = result.simulations;
        stats.win_rate = result.win_rate;
        record_point(stats, result.best);
        if let Some(threshold) = self.config.resign_below {
            if result.simulations >= 1000 && result.win_rate < threshold {
                return Decision::Resign;
            }
        }
        Decision::Move(result.best)
    }

    /// What the main search is given for `color`'s try, from `belief` and what we know (each particle's earlier
    /// positions too when a repetition rule is in force); the same for a genmove and for pondering.
    pub(super) fn mcts_input(&self, belief: &Belief, color: Color) -> SearchInput {
        let probabilities = belief.probabilities();
        let input = SearchInput {
            particles: belief.particles().to_vec(),
            probabilities,
            us: color,
            lose_turn: self.illegal_rule == IllegalRule::LoseTurn,
            komi: self.komi,
            move_number: self.knowledge.move_number,
            tried_this_turn: self.knowledge.illegal_this_turn | self.known_illegal(color),
            known_opponent: self.known_opponent(belief, color),
            // Used only under retry (a refusal there costs only the try).
            retriable: if self.illegal_rule == IllegalRule::Retry { belief.retriable() } else { Bitboard::EMPTY },
            opponent_passed: self.knowledge.opponent_just_passed(color),
            tries_left: self.tries_left(),
            repetition: self.optional_rules.0,
            repeating: Vec::new(),
        };
        let mut input = input;
        if input.repetition != crate::game::Repetition::Allowed {
            // Each particle's own earlier positions, so the search knows which tries would repeat one.
            let positions: Vec<Vec<u64>> = (0..belief.len()).map(|i| belief.positions(i).unwrap_or_default()).collect();
            input.repeating = crate::search::uct::repeating_tries(&input, &positions);
        }
        input
    }

    /// The opponent stones a search of ours (the main one or a baseline's) must never try: those every particle
    /// holds, the points our illegal tries found blocked ([`crate::belief::Belief::blocked`]) and the stones
    /// seen; one function, so that a baseline knows what our engine knows.
    fn known_opponent(&self, belief: &Belief, color: Color) -> Bitboard {
        belief.known_opponent() | belief.blocked() | self.knowledge.board.stones(color.opponent())
    }

    /// The published baselines (`flat`, `pimc`): what we know, handed to the player behind the trait.
    fn choose_baseline(&mut self, color: Color, limits: &SearchLimits, stats: &mut MoveStats) -> Decision {
        self.sync_belief();
        if limits.emergency {
            return Decision::Move(self.choose_random(color));
        }
        let known = &self.knowledge;
        let (particles, probabilities, known_opponent) = match &self.belief {
            Some((belief, _)) => {
                (belief.particles().to_vec(), belief.probabilities(), self.known_opponent(belief, color))
            }
            None => (Vec::new(), vec![0.0; known.board.geometry().area()], known.board.stones(color.opponent())),
        };
        let input = PlayerInput {
            search: SearchInput {
                particles,
                probabilities,
                us: color,
                lose_turn: self.illegal_rule == IllegalRule::LoseTurn,
                komi: self.komi,
                move_number: known.move_number,
                tried_this_turn: known.illegal_this_turn | self.known_illegal(color),
                known_opponent,
                // Offered again only by the main search's end-of-game rule; the published methods have none.
                retriable: Bitboard::EMPTY,
                opponent_passed: known.opponent_just_passed(color),
                tries_left: self.tries_left(),
                repetition: self.optional_rules.0,
                repeating: Vec::new(),
            },
            known: known.board.clone(),
            inferred_opponent: inferred_opponent(&known.events, color) & known.board.empty(),
            unseen_opponent: known.hidden_opponent_moves,
        };
        let mut limits = *limits;
        if let Some(playouts) = self.config.playouts {
            limits.playouts = Some(playouts);
        }
        let seed = self.config.seed ^ (u64::from(known.move_number) << 32) ^ u64::from(known.illegal_this_turn.count());
        let player: Box<dyn Player> = match self.config.player {
            PlayerKind::Pimc => Box::new(Pimc::default()),
            _ => Box::new(Flat::default()),
        };
        let result = player.choose(&input, &limits, self.config.threads, seed);
        log::debug!("{}", crate::search::search_summary(&result, &input.search.probabilities, self.size()));
        stats.simulations = result.simulations;
        stats.win_rate = result.win_rate;
        Decision::Move(result.best)
    }
}
