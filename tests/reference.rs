//! Property test: the bitboard rules agree with a plain array implementation (flood fill by hand) on random games:
//! legality of every point, captures, ko and the final area score. The playouts' chain board plays the same
//! games beside them and must agree with the mask board move by move (liberty counts, capture points and a reused
//! board's rebuild included), and its area count must be the scoring's.

use phantomgo::{Bitboard, Board, ChainBoard, Color, GameResult, IllegalMove, Point};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plain array board: 0 empty, 1 black, 2 white; ko as a point index forbidden to a colour.
#[derive(Clone)]
struct ArrayBoard {
    size: usize,
    cells: Vec<u8>,
    ko: Option<(usize, u8)>,
}

impl ArrayBoard {
    fn new(size: usize) -> Self {
        ArrayBoard { size, cells: vec![0; size * size], ko: None }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c) = (i / self.size, i % self.size);
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push(i - self.size);
        }
        if r + 1 < self.size {
            out.push(i + self.size);
        }
        if c > 0 {
            out.push(i - 1);
        }
        if c + 1 < self.size {
            out.push(i + 1);
        }
        out
    }

    /// The chain through `i` and whether it has a liberty.
    fn chain(&self, i: usize) -> (Vec<usize>, bool) {
        let colour = self.cells[i];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![i];
        let mut chain = Vec::new();
        let mut liberty = false;
        seen[i] = true;
        while let Some(j) = stack.pop() {
            chain.push(j);
            for n in self.neighbours(j) {
                if self.cells[n] == 0 {
                    liberty = true;
                } else if self.cells[n] == colour && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (chain, liberty)
    }

    fn play(&mut self, colour: u8, i: usize) -> Result<Vec<usize>, IllegalMove> {
        if self.cells[i] != 0 {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some((i, colour)) {
            return Err(IllegalMove::Ko);
        }
        let other = 3 - colour;
        let mut next = self.clone();
        next.cells[i] = colour;
        let mut captured = Vec::new();
        for n in self.neighbours(i) {
            if next.cells[n] == other {
                let (chain, liberty) = next.chain(n);
                if !liberty {
                    for j in chain {
                        next.cells[j] = 0;
                        captured.push(j);
                    }
                }
            }
        }
        if !next.chain(i).1 {
            return Err(IllegalMove::Suicide);
        }
        next.ko = None;
        if captured.len() == 1 {
            let (chain, _) = next.chain(i);
            let liberties: Vec<usize> = self.neighbours(i).into_iter().filter(|&n| next.cells[n] == 0).collect();
            if chain.len() == 1 && liberties == vec![captured[0]] {
                next.ko = Some((captured[0], other));
            }
        }
        *self = next;
        captured.sort_unstable();
        Ok(captured)
    }

    fn score(&self, komi: f32) -> f32 {
        let mut black = 0i32;
        let mut white = 0i32;
        let mut seen = vec![false; self.cells.len()];
        for i in 0..self.cells.len() {
            match self.cells[i] {
                1 => black += 1,
                2 => white += 1,
                _ if !seen[i] => {
                    let mut stack = vec![i];
                    seen[i] = true;
                    let (mut region, mut reaches_black, mut reaches_white) = (0, false, false);
                    while let Some(j) = stack.pop() {
                        region += 1;
                        for n in self.neighbours(j) {
                            match self.cells[n] {
                                0 if !seen[n] => {
                                    seen[n] = true;
                                    stack.push(n);
                                }
                                1 => reaches_black = true,
                                2 => reaches_white = true,
                                _ => {}
                            }
                        }
                    }
                    if reaches_black && !reaches_white {
                        black += region;
                    } else if reaches_white && !reaches_black {
                        white += region;
                    }
                }
                _ => {}
            }
        }
        (black - white) as f32 - komi
    }
}

fn colour_code(color: Color) -> u8 {
    match color {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// Plays one random game on both boards, checking agreement at every step.
fn compare_random_game(size: usize, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut board = Board::new(size).unwrap();
    let mut chains = ChainBoard::new(size).unwrap();
    let mut reference = ArrayBoard::new(size);
    let mut color = Color::Black;
    let mut passes = 0;
    let area = size * size;
    for _ in 0..3 * area {
        // Legality of every point for the player to move.
        let mut legal = Vec::new();
        for i in 0..area {
            let p = Point::new(i).unwrap();
            let ours = board.legality(color, p);
            let theirs = reference.clone().play(colour_code(color), i).map(|_| ());
            prop_assert_eq!(ours, theirs, "size {} seed {} point {}", size, seed, i);
            prop_assert_eq!(chains.legality(color, p), ours, "chain board: size {} seed {} point {}", size, seed, i);
            if ours.is_ok() {
                legal.push(p);
            }
        }
        prop_assert_eq!(chains.legal_points(color), legal.iter().copied().collect::<Bitboard>());
        // Liberty counts, and the capture points: where a stone would capture (ko points included).
        let mut captures = Bitboard::EMPTY;
        for i in 0..area {
            let p = Point::new(i).unwrap();
            prop_assert_eq!(chains.liberty_count(p), board.group_and_liberties(p).1.count());
            let takes = match board.clone().try_play(color, p) {
                Ok(captured) => captured.any(),
                Err(IllegalMove::Ko) => true,
                Err(_) => false,
            };
            if takes {
                captures.insert(p);
            }
        }
        prop_assert_eq!(chains.capture_points(color), captures);
        if legal.is_empty() || rng.gen_bool(0.03) {
            board.pass();
            chains.pass();
            reference.ko = None;
            passes += 1;
            if passes == 2 {
                break;
            }
        } else {
            passes = 0;
            // Mostly legal moves; sometimes an arbitrary point, whose refusal must also agree.
            let i =
                if rng.gen_bool(0.2) { rng.gen_range(0..area) } else { legal[rng.gen_range(0..legal.len())].index() };
            let p = Point::new(i).unwrap();
            let ours = board.try_play(color, p);
            prop_assert_eq!(chains.try_play(color, p), ours, "chain board: size {} seed {} point {}", size, seed, i);
            let theirs = reference.play(colour_code(color), i);
            match (ours, theirs) {
                (Ok(captured), Ok(expected)) => {
                    let expected: Bitboard = expected.into_iter().map(|j| Point::new(j).unwrap()).collect();
                    prop_assert_eq!(captured, expected);
                }
                (Err(a), Err(b)) => {
                    prop_assert_eq!(a, b);
                    continue;
                }
                (a, b) => prop_assert!(false, "disagree at {}: {:?} vs {:?}", i, a, b),
            }
        }
        prop_assert_eq!(board.ko().map(|(p, c)| (p.index(), colour_code(c))), reference.ko);
        prop_assert!(board.is_consistent());
        prop_assert_eq!(&chains.to_board(), &board);
        prop_assert!(chains.is_consistent());
        // The search's area count on the chain board is the scoring's on the mask board.
        prop_assert_eq!(chains.area(), phantomgo::scoring::area(&board));
        prop_assert_eq!(chains.area_margin(7.5), GameResult::of(&board, 7.5).margin);
        // A chain board reused for this position (its tables stale from another game) finds the same chains.
        let mut reused = ChainBoard::new(11).unwrap();
        reused.try_play(Color::White, Point::new(60).unwrap()).unwrap();
        reused.set_from_board(&board);
        prop_assert_eq!(&reused, &chains);
        prop_assert!(reused.is_consistent());
        prop_assert_eq!(reused.stones_in_atari(color), chains.stones_in_atari(color));
        color = color.opponent();
    }
    for i in 0..area {
        let p = Point::new(i).unwrap();
        let code = board.color_at(p).map_or(0, colour_code);
        prop_assert_eq!(code, reference.cells[i]);
    }
    prop_assert_eq!(GameResult::of(&board, 7.5).margin, reference.score(7.5));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// 10,000 random games over sizes 2..=11 (7, 9 and 11 weighted up).
    #[test]
    fn bitboard_rules_match_array_reference(size_choice in 0usize..13, seed in any::<u64>()) {
        let size = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 7, 9, 11][size_choice];
        compare_random_game(size, seed)?;
    }
}
