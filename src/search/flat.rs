//! `flat`: one-ply Monte Carlo after Golois (Cazenave, "A Phantom-Go Program", Advances in Computer Games 11,
//! 2005; Olympiad gold 2007-2009 and 2013): unseen stones placed at random, plain random games, best win rate.
//!
//! What the player knows is its own board: its stones, the opponent stones it has been shown, and a stone
//! at each point where a try of its own was refused (an illegal try is read as an opponent stone, as Golois
//! does). The number of opponent stones it has not seen is known (the opponent's legal moves less the
//! stones captured). Each simulation:
//! 1. takes the next candidate in turn (round robin, so every try gets the same number of games: Golois
//!    plays a fixed number of random games per move);
//! 2. builds a full board: the known board, the stones read from refused tries, and the remaining unseen
//!    stones placed one by one at uniformly random empty points (each placement legal for the opponent and
//!    capturing nothing, the try's own point left free: the game asks what the try is worth when legal,
//!    and with stones placed uniformly every unknown point is equally likely to be refused);
//! 3. plays the try, then a plain uniformly random game to the end on that full board (perfect information
//!    from there: [`random_playout`], which never fills a side's own single-point eye);
//! 4. scores it by area with komi: a win, a loss, or half a point for a draw.
//!
//! The tournament report (Cazenave and Borsboom, "Golois Wins Phantom Go Tournament", ICGA Journal 2007)
//! states the principle: "randomly place unknown opponent stones at the beginning of each playout".
//! Parameters ([`FlatConfig`]): the budget is the engine's (`--playouts` per try, spread over the candidate
//! tries, or the time manager's limits), never less than our engine gets at equal settings; the move cap
//! of a random game is ours (it only stops ko cycles).
//!
//! The try with the best win rate is played. A pass is a candidate only when nothing else is left or the
//! opponent has just passed (then both passes end the game and the full board is scored at once).

use super::player::{forced, ranked, run_workers, Player, PlayerInput};
use super::playout::{below, candidates, random_playout, SideView};
use super::SearchLimits;
use super::{RootChild, SearchResult};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};
use crate::scoring;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Settings of the `flat` player.
#[derive(Clone, Debug, PartialEq)]
pub struct FlatConfig {
    /// Random games per genmove when neither playouts nor time are given (spread evenly over the tries).
    pub default_playouts: u64,
    /// Cap on the moves of one random game, as a multiple of the number of points (ko cycles).
    pub moves_per_point: u32,
}

impl Default for FlatConfig {
    fn default() -> Self {
        FlatConfig { default_playouts: 20_000, moves_per_point: 3 }
    }
}

/// The Golois-style one-ply Monte Carlo player.
#[derive(Clone, Debug, Default)]
pub struct Flat {
    /// Its settings.
    pub config: FlatConfig,
}

/// What every simulation starts from: the known board with the inferred stones, and the tries.
struct Root {
    board: Board,
    us: Color,
    /// Unseen stones still to place at random (the unseen count less the inferred stones).
    to_place: u32,
    moves: Vec<Move>,
    komi: f32,
    cap: u32,
}

/// One worker's statistics per candidate, and its random source.
struct Worker {
    rng: Xoshiro256PlusPlus,
    next: usize,
    visits: Vec<u32>,
    wins: Vec<f64>,
}

impl Root {
    fn new(input: &PlayerInput, config: &FlatConfig) -> Root {
        let us = input.search.us;
        let them = us.opponent();
        let mut board = input.known.clone();
        let ko = board.ko();
        for point in (input.inferred_opponent & board.empty()).iter() {
            // A refused try may have been suicide or ko rather than a stone: a stone that would leave a chain
            // (its own or one of ours) without a liberty cannot stand there, so it is not placed.
            board.put_stone(them, point);
            if board.chains_without_liberty().any() {
                board.remove_stones(Bitboard::from_point(point));
            }
        }
        board.set_ko(ko);
        let view = SideView {
            known_opponent: board.stones(them),
            tried_this_turn: input.search.tried_this_turn | input.inferred_opponent,
        };
        let mut moves: Vec<Move> =
            candidates(&board, us, &view).iter().filter(|&p| board.legality(us, p).is_ok()).map(Move::Play).collect();
        if moves.is_empty() || input.search.opponent_passed {
            moves.push(Move::Pass);
        }
        let placed = (input.inferred_opponent & board.stones(them)).count();
        Root {
            to_place: input.unseen_opponent.saturating_sub(placed),
            moves,
            komi: input.search.komi,
            cap: config.moves_per_point * board.geometry().area() as u32,
            board,
            us,
        }
    }

    /// Places the unseen stones at random: legal for the opponent, capturing nothing, never at `keep`.
    fn determinize(&self, keep: Option<Point>, rng: &mut Xoshiro256PlusPlus) -> Board {
        let them = self.us.opponent();
        let mut board = self.board.clone();
        let ko = board.ko();
        let mut free = board.empty();
        if let Some(point) = keep {
            free.remove(point);
        }
        let mut placed = 0;
        while placed < self.to_place && free.any() {
            let point = free.nth(below(rng, free.count())).expect("below count");
            free.remove(point);
            let before = board.clone();
            match board.try_play(them, point) {
                Ok(captured) if captured.is_empty() => placed += 1,
                Ok(_) => board = before,
                Err(_) => {}
            }
        }
        board.set_ko(ko);
        board
    }

    /// One random game for candidate `index`: 1 for a win, 0 for a loss, 0.5 for a draw.
    fn simulate(&self, index: usize, rng: &mut Xoshiro256PlusPlus) -> f64 {
        let mv = self.moves[index];
        let mut board = self.determinize(mv.point(), rng);
        match mv {
            Move::Play(point) => {
                if board.try_play(self.us, point).is_err() {
                    // Suicide among the placed stones: this try loses the turn in that world.
                    board.pass();
                }
                random_playout(&mut board, self.us.opponent(), rng, self.cap);
            }
            // The opponent has just passed: our pass ends the game.
            Move::Pass => {}
        }
        let margin = scoring::score(&board, self.komi) * if self.us == Color::Black { 1.0 } else { -1.0 };
        if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

impl Player for Flat {
    fn choose(&self, input: &PlayerInput, limits: &SearchLimits, threads: usize, seed: u64) -> SearchResult {
        let start = Instant::now();
        let root = Root::new(input, &self.config);
        let n = root.moves.len();
        if n == 1 {
            return forced(root.moves[0], start);
        }
        let make = |seed: u64| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            // Workers start at different candidates so that short budgets still cover them all.
            let next = below(&mut rng, n as u32) as usize;
            Worker { rng, next, visits: vec![0; n], wins: vec![0.0; n] }
        };
        let step = |w: &mut Worker| {
            let index = w.next;
            w.next = (w.next + 1) % n;
            let reward = root.simulate(index, &mut w.rng);
            w.visits[index] += 1;
            w.wins[index] += reward;
        };
        let (workers, simulations, stop) =
            run_workers(limits, self.config.default_playouts, threads, seed, None, make, step);
        let mut children: Vec<RootChild> = root
            .moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let visits: u32 = workers.iter().map(|w| w.visits[i]).sum();
                let wins: f64 = workers.iter().map(|w| w.wins[i]).sum();
                let win_rate = if visits == 0 { 0.0 } else { (wins / f64::from(visits)) as f32 };
                RootChild { mv, visits, win_rate, illegal_rate: 0.0, margin: 0.0 }
            })
            .collect();
        // Best win rate; ties to the more played try, then to the order of the candidates (stable sort).
        children.sort_by(|a, b| b.win_rate.total_cmp(&a.win_rate).then(b.visits.cmp(&a.visits)));
        ranked(children, simulations, start, stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::search::player::{ring_with_group_in_atari, seen_input};

    /// White's eight stones with one liberty, at D4, inside a Black ring.
    fn ring() -> Board {
        ring_with_group_in_atari()
    }

    fn d4() -> Point {
        Point::from_coords(3, 3, 7).unwrap()
    }

    fn playouts(n: u64) -> SearchLimits {
        SearchLimits { playouts: Some(n), ..SearchLimits::default() }
    }

    #[test]
    fn prefers_the_capture_of_a_big_group_seen_or_unseen() {
        let input = seen_input(ring(), Color::Black, 7.5);
        let result = Flat::default().choose(&input, &playouts(4000), 1, 7);
        assert_eq!(result.best, Move::Play(d4()), "{:?}", &result.children[..3]);
        // The white group seen, three more white stones somewhere unseen: still the capture.
        let mut hidden = input.clone();
        hidden.unseen_opponent = 3;
        let result = Flat::default().choose(&hidden, &playouts(4000), 1, 7);
        assert_eq!(result.best, Move::Play(d4()), "{:?}", &result.children[..3]);
    }

    #[test]
    fn unseen_stones_are_placed_legally_and_refused_tries_read_as_stones() {
        let mut input = seen_input(ring(), Color::Black, 7.5);
        let a1 = Point::from_coords(0, 0, 7).unwrap();
        input.inferred_opponent = Bitboard::from_point(a1);
        input.unseen_opponent = 6; // the stone at A1 and five more
        let root = Root::new(&input, &FlatConfig::default());
        assert!(!root.moves.contains(&Move::Play(a1)), "a refused point is not offered again");
        assert_eq!(root.to_place, 5);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let g7 = Point::from_coords(6, 6, 7).unwrap();
        for _ in 0..200 {
            let board = root.determinize(Some(g7), &mut rng);
            assert!(board.is_consistent());
            assert_eq!(board.stones(Color::Black), ring().stones(Color::Black), "our stones stay");
            assert_eq!(board.stones(Color::White).count(), 8 + 1 + 5);
            assert!(board.stones(Color::White).contains(a1));
            assert_eq!(board.color_at(g7), None, "the try's point stays free");
        }
    }

    #[test]
    fn a_fixed_seed_repeats_the_statistics_and_tries_refused_are_not_offered() {
        let mut input = seen_input(Board::new(7).unwrap(), Color::White, 7.5);
        input.search.tried_this_turn = Bitboard::from_point(d4());
        input.unseen_opponent = 4;
        let a = Flat::default().choose(&input, &playouts(1500), 1, 3);
        let b = Flat::default().choose(&input, &playouts(1500), 1, 3);
        assert_eq!(a, SearchResult { elapsed: a.elapsed, ..b.clone() });
        assert_eq!(a.simulations, 1500);
        assert!(a.children.iter().all(|c| c.mv != Move::Play(d4())));
        // Round robin: every try gets the same number of games, give or take one.
        let (lo, hi) = a.children.iter().fold((u32::MAX, 0), |(lo, hi), c| (lo.min(c.visits), hi.max(c.visits)));
        assert!(hi - lo <= 1, "{lo}..{hi}");
        let threads = Flat::default().choose(&input, &playouts(1500), 2, 3);
        assert_eq!(threads.simulations, 1500);
    }
}
