//! Tests of the chain board: merges, captures and ko, suicide, liberty counts, the policy's masks and the area
//! count, on pictures and random games.

use super::*;

fn at(size: usize, vertex: &str) -> Point {
    crate::point::parse_vertex(vertex, size).unwrap().point().unwrap()
}

#[test]
fn merging_joins_chains_and_their_liberties() {
    let mut board = ChainBoard::from_board(&Board::from_picture(
        5,
        ". . . . .
         . X . X .
         . . . . .
         . . . . .
         . . . . .",
    ));
    assert!(board.is_consistent());
    board.try_play(Color::Black, at(5, "C4")).unwrap();
    let (chain, liberties) = board.group_and_liberties(at(5, "B4"));
    assert_eq!(chain.count(), 3);
    assert_eq!(liberties.count(), 8);
    assert_eq!(board.group_and_liberties(at(5, "D4")).0, chain);
    assert!(board.is_consistent());
}

#[test]
fn capture_gives_liberties_back_and_sets_ko() {
    let mut ko = ChainBoard::from_board(&Board::from_picture(
        4,
        ". X O .
         X O . O
         . X O .
         . . . .",
    ));
    let captured = ko.try_play(Color::Black, at(4, "C3")).expect("captures");
    assert_eq!(captured, Bitboard::from_point(at(4, "B3")));
    assert_eq!(ko.ko(), Some((at(4, "B3"), Color::White)));
    assert_eq!(ko.try_play(Color::White, at(4, "B3")), Err(IllegalMove::Ko));
    // The freed point is a liberty of the black stones around it.
    assert!(ko.group_and_liberties(at(4, "B4")).1.contains(at(4, "B3")));
    assert!(ko.group_and_liberties(at(4, "A3")).1.contains(at(4, "B3")));
    assert_eq!(ko.group_and_liberties(at(4, "C3")).1, captured);
    assert!(ko.is_consistent());
    // Any other move clears the ko.
    ko.try_play(Color::White, at(4, "A1")).expect("legal");
    assert_eq!(ko.ko(), None);
}

#[test]
fn suicide_and_enclosed_points() {
    let board = ChainBoard::from_board(&Board::from_picture(
        5,
        ". X . O .
         X X O O O
         . . . . .
         . . . . .
         . . . . .",
    ));
    // E5 is White's eye: suicide for Black; A5 is Black's own eye: legal for Black, suicide for White.
    assert_eq!(board.legality(Color::Black, at(5, "E5")), Err(IllegalMove::Suicide));
    assert_eq!(board.legality(Color::White, at(5, "E5")), Ok(()));
    assert_eq!(board.legality(Color::White, at(5, "A5")), Err(IllegalMove::Suicide));
    assert_eq!(board.legality(Color::Black, at(5, "A5")), Ok(()));
    // C5 captures nothing for either, but joins a chain with other liberties.
    assert_eq!(board.legality(Color::Black, at(5, "C5")), Ok(()));
    assert_eq!(board.legality(Color::White, at(5, "C5")), Ok(()));
    assert_eq!(board.legality(Color::Black, at(5, "B5")), Err(IllegalMove::Occupied));
    let legal = board.legal_points(Color::Black);
    assert!(!legal.contains(at(5, "E5")) && legal.contains(at(5, "A5")) && legal.contains(at(5, "E1")));
    let truth = board.to_board();
    for point in board.geometry().points() {
        for color in Color::BOTH {
            assert_eq!(board.legality(color, point), truth.legality(color, point));
        }
    }
}

#[test]
fn liberty_counts_and_capture_points() {
    let board = ChainBoard::from_board(&Board::from_picture(
        5,
        ". X O . .
         X O O X .
         . X X . .
         . . . . .
         . . . . .",
    ));
    // The white chain (C5, B4, C4) has one liberty, D5: Black captures there, White has nowhere to.
    assert_eq!(board.liberty_count(at(5, "C5")), 1);
    assert_eq!(board.liberty_count(at(5, "B5")), 1);
    assert_eq!(board.liberty_count(at(5, "A4")), 2);
    assert_eq!(board.liberty_count(at(5, "B3")), 4);
    assert_eq!(board.liberty_count(at(5, "E1")), 0);
    assert_eq!(board.capture_points(Color::Black), Bitboard::from_point(at(5, "D5")));
    // The black stone at B5 has one liberty, A5: White captures there.
    assert_eq!(board.capture_points(Color::White), Bitboard::from_point(at(5, "A5")));
}

/// The policy's masks from one pass are the sets the public queries give, on random games of each size.
#[test]
fn policy_masks_agree_with_the_queries() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
    for size in [5, 7, 9, 11] {
        for _ in 0..20 {
            let mut board = ChainBoard::new(size).unwrap();
            let mut color = Color::Black;
            for _ in 0..3 * size * size {
                for mover in Color::BOTH {
                    let masks = with_shape!(board.geometry(), shape => board.policy_masks_in(shape, mover));
                    let atari_liberties = |c: Color| {
                        board.stones_in_atari(c).iter().fold(Bitboard::EMPTY, |all, p| all | board.chain_at(p).1)
                    };
                    assert_eq!(masks.playable, board.legal_points(mover) - board.single_point_eyes(mover));
                    assert_eq!(with_shape!(board.geometry(), shape => board.playable_in(shape, mover)), masks.playable);
                    assert_eq!(masks.captures, board.capture_points(mover));
                    assert_eq!(masks.captures, atari_liberties(mover.opponent()));
                    assert_eq!(masks.escapes, atari_liberties(mover));
                }
                let legal = board.legal_points(color);
                match legal.nth(rng.gen_range(0..legal.count().max(1))) {
                    Some(point) if !rng.gen_bool(0.02) => {
                        board.try_play(color, point).unwrap();
                    }
                    _ => board.pass(),
                }
                color = color.opponent();
            }
        }
    }
}

#[test]
fn area_counts_stones_and_surrounded_points() {
    let board = ChainBoard::from_board(&Board::from_picture(
        5,
        ". X O . .
         X X O . .
         . X O O O
         X X O . O
         . X O O .",
    ));
    // Black: 7 stones and A5, A3, A1; White: 9 stones and the 6 empty points on the right.
    assert_eq!(board.area(), ByColor::new(10, 15));
    assert_eq!(board.area_margin(0.5), -5.5);
    assert_eq!(board.area(), crate::scoring::area(&board.to_board()));
    assert_eq!(ChainBoard::new(9).unwrap().area_margin(7.5), -7.5);
}

#[test]
fn big_capture_frees_every_point() {
    let mut board = ChainBoard::from_board(&Board::from_picture(
        5,
        "X X X X X
         X O O O X
         X O . O X
         X O O O X
         X X X X .",
    ));
    let captured = board.try_play(Color::Black, at(5, "C3")).expect("captures");
    assert_eq!(captured.count(), 8);
    let (chain, liberties) = board.group_and_liberties(at(5, "A1"));
    assert_eq!(chain.count(), 15);
    assert_eq!(liberties.count(), 9);
    assert_eq!(board.group_and_liberties(at(5, "C3")).1.count(), 4);
    assert!(board.is_consistent());
}

#[test]
fn copy_from_gives_the_same_position_over_any_earlier_one() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(23);
    // A scratch board reused across random positions of every size, as the search's workers reuse theirs: after
    // each copy it equals the source, is consistent, and plays on as the source does.
    let mut scratch = ChainBoard::new(11).unwrap();
    for size in [5, 7, 9, 11, 9, 7] {
        for _ in 0..10 {
            let mut source = ChainBoard::new(size).unwrap();
            let mut color = Color::Black;
            for _ in 0..rng.gen_range(0..3 * size * size) {
                let legal = source.legal_points(color);
                match legal.nth(rng.gen_range(0..legal.count().max(1))) {
                    Some(point) => {
                        source.try_play(color, point).unwrap();
                    }
                    None => source.pass(),
                }
                color = color.opponent();
            }
            scratch.copy_from(&source);
            assert_eq!(scratch, source);
            assert!(scratch.is_consistent());
            let mut original = source.clone();
            for _ in 0..size * size {
                let legal = original.legal_points(color);
                let Some(point) = legal.nth(rng.gen_range(0..legal.count().max(1))) else { break };
                assert_eq!(scratch.try_play(color, point), original.try_play(color, point));
                assert!(scratch.is_consistent());
                color = color.opponent();
            }
            assert_eq!(scratch, original);
        }
    }
}
