//! Rules positions drawn as pictures: captures, suicide, ko, superko, passes, length cap, scoring, sizes.

use phantomgo::{
    parse_vertex, Bitboard, Board, Color, Game, GameEnd, GameError, IllegalMove, KoRule, Move, Point, Rules,
};

fn point(vertex: &str, size: usize) -> Point {
    parse_vertex(vertex, size).unwrap().point().unwrap()
}

fn points(vertices: &[&str], size: usize) -> Bitboard {
    vertices.iter().map(|v| point(v, size)).collect()
}

/// Plays `vertex` for `color` on `board`, returning the captured vertices sorted.
fn play(board: &mut Board, color: Color, vertex: &str) -> Result<Bitboard, IllegalMove> {
    let size = board.size();
    board.try_play(color, point(vertex, size))
}

#[test]
fn corner_capture() {
    let mut board = Board::from_picture(
        5,
        ". . . . .
         . . . . .
         . . . . .
         . . . . .
         O X . . .",
    );
    assert_eq!(play(&mut board, Color::Black, "A2"), Ok(points(&["A1"], 5)));
    assert_eq!(board.color_at(point("A1", 5)), None);
    assert!(board.is_consistent());
}

#[test]
fn edge_capture_of_a_chain() {
    let mut board = Board::from_picture(
        7,
        ". . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . X X X . . .
         X O O O . . .",
    );
    assert_eq!(play(&mut board, Color::Black, "E1"), Ok(points(&["B1", "C1", "D1"], 7)));
    assert_eq!(board.stones(Color::White), Bitboard::EMPTY);
}

#[test]
fn centre_capture() {
    let mut board = Board::from_picture(
        9,
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . X . . . .
         . . . X O X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    assert_eq!(play(&mut board, Color::Black, "E4"), Ok(points(&["E5"], 9)));
}

#[test]
fn one_stone_captures_several_groups() {
    let mut board = Board::from_picture(
        7,
        ". . . . . . .
         . . . X . . .
         . . X O X . .
         . X O . O X .
         . . X O X . .
         . . . X . . .
         . . . . . . .",
    );
    let captured = play(&mut board, Color::Black, "D4").unwrap();
    assert_eq!(captured, points(&["D5", "C4", "E4", "D3"], 7));
    assert!(board.is_consistent());
}

#[test]
fn suicide_that_captures_is_legal() {
    // White at B1 is in atari; Black at A1 has no liberty of its own but captures B1 first.
    let mut board = Board::from_picture(
        5,
        ". . . . .
         . . . . .
         . . . . .
         O X . . .
         . O X . .",
    );
    assert_eq!(play(&mut board, Color::Black, "A1"), Ok(points(&["B1"], 5)));
}

#[test]
fn single_and_multi_stone_suicide_are_illegal() {
    let board = Board::from_picture(
        5,
        ". . . . .
         . . . . .
         . . . . .
         X . . . .
         . X . . .",
    );
    let mut single = board.clone();
    assert_eq!(play(&mut single, Color::White, "A1"), Err(IllegalMove::Suicide));
    assert_eq!(single, board, "a refused move leaves the board unchanged");
    // White's four stones would fill their own last liberty at A1: suicide of the whole chain.
    let board = Board::from_picture(
        5,
        ". . . . .
         . . . . .
         X X X . .
         O O X . .
         . O X . .",
    );
    let mut multi = board.clone();
    assert_eq!(play(&mut multi, Color::White, "A1"), Err(IllegalMove::Suicide));
    assert_eq!(multi, board);
    assert_eq!(play(&mut multi, Color::Black, "C3"), Err(IllegalMove::Occupied));
    // The same point is a capture for Black.
    assert_eq!(play(&mut multi, Color::Black, "A1"), Ok(points(&["A2", "B2", "B1"], 5)));
}

#[test]
fn ko_cannot_be_retaken_at_once_but_can_after_one_move() {
    let mut board = Board::from_picture(
        6,
        ". . . . . .
         . . . . . .
         . . . . . .
         . X O . . .
         X O . O . .
         . X O . . .",
    );
    // Black takes the ko at C2.
    assert_eq!(play(&mut board, Color::Black, "C2"), Ok(points(&["B2"], 6)));
    assert_eq!(board.ko(), Some((point("B2", 6), Color::White)));
    assert_eq!(play(&mut board, Color::White, "B2"), Err(IllegalMove::Ko));
    // White plays elsewhere (a ko threat), Black answers elsewhere, then White may retake.
    assert!(play(&mut board, Color::White, "F6").is_ok());
    assert!(play(&mut board, Color::Black, "F1").is_ok());
    assert_eq!(play(&mut board, Color::White, "B2"), Ok(points(&["C2"], 6)));
}

#[test]
fn snapback() {
    let mut board = Board::from_picture(
        6,
        ". . . . . .
         . . . . . .
         . . . . . .
         X X X . . .
         O O O X . .
         O . . X . .",
    );
    // Black throws in at B1; White takes it with C1; Black plays B1 again and takes five.
    assert_eq!(play(&mut board, Color::Black, "B1"), Ok(Bitboard::EMPTY));
    assert_eq!(play(&mut board, Color::White, "C1"), Ok(points(&["B1"], 6)));
    assert_eq!(board.ko(), None, "C1 joined a chain: no ko");
    assert_eq!(play(&mut board, Color::Black, "B1"), Ok(points(&["A1", "A2", "B2", "C2", "C1"], 6)));
    assert!(board.is_consistent());
}

#[test]
fn superko_refuses_a_repeated_position_when_enabled() {
    // Found by search on 4x4: the last B1 recreates the position after White's B2 (Black passed in between).
    let moves = ["A2", "C2", "B1", "B2", "pass", "D1", "C1", "A1"];
    let replay = |ko: KoRule| {
        let mut game = Game::new(Rules { ko, ..Rules::new(4) }).unwrap();
        for v in moves {
            game.play(parse_vertex(v, 4).unwrap()).unwrap();
        }
        assert_eq!(
            game.board().picture(),
            "....\n\
             ....\n\
             XOO.\n\
             O..O\n"
        );
        game
    };
    let mut simple = replay(KoRule::Simple);
    assert_eq!(simple.play(parse_vertex("B1", 4).unwrap()), Ok(points(&["A1"], 4)));
    assert!(simple.last_move_repeated_position());
    let mut superko = replay(KoRule::PositionalSuperko);
    assert_eq!(superko.play(parse_vertex("B1", 4).unwrap()), Err(GameError::Illegal(IllegalMove::Superko)));
    assert_eq!(superko.legality(Color::Black, point("B1", 4)), Err(IllegalMove::Superko));
}

#[test]
fn two_passes_end_the_game() {
    let mut game = Game::new(Rules::new(9)).unwrap();
    game.play(parse_vertex("E5", 9).unwrap()).unwrap();
    game.play(Move::Pass).unwrap();
    assert!(!game.is_over());
    game.play(parse_vertex("D5", 9).unwrap()).unwrap();
    game.play(Move::Pass).unwrap();
    game.play(Move::Pass).unwrap();
    assert_eq!(game.end(), Some(GameEnd::TwoPasses));
    assert_eq!(game.play(Move::Pass), Err(GameError::GameOver));
    // Black has every point: 81 - 7.5.
    assert_eq!(game.result().to_string(), "B+73.5");
}

#[test]
fn length_cap_counts_illegal_tries() {
    let mut game = Game::new(Rules { max_tries: Some(5), ..Rules::new(7) }).unwrap();
    game.play(parse_vertex("D4", 7).unwrap()).unwrap();
    for _ in 0..3 {
        assert!(matches!(game.play(parse_vertex("D4", 7).unwrap()), Err(GameError::Illegal(IllegalMove::Occupied))));
    }
    assert!(!game.is_over());
    game.play(parse_vertex("C4", 7).unwrap()).unwrap();
    assert_eq!(game.end(), Some(GameEnd::LengthCap));
    assert_eq!(Rules::new(9).length_cap(), 324);
}

#[test]
fn sizes_seven_nine_eleven() {
    for size in [7, 9, 11] {
        let mut board = Board::new(size).unwrap();
        let corner = Point::from_coords(size - 1, size - 1, size).unwrap();
        board.try_play(Color::White, corner).unwrap();
        let left = Point::from_coords(size - 2, size - 1, size).unwrap();
        let below = Point::from_coords(size - 1, size - 2, size).unwrap();
        board.try_play(Color::Black, left).unwrap();
        assert_eq!(board.try_play(Color::Black, below), Ok(Bitboard::from_point(corner)), "size {size}");
        assert_eq!(board.geometry().mask().count() as usize, size * size);
    }
    assert!(Board::new(12).is_none());
    assert!(Board::new(1).is_none());
    assert!(Game::new(Rules::new(0)).is_none());
}

#[test]
fn off_board_point_is_an_error() {
    let mut game = Game::new(Rules::new(7)).unwrap();
    let far = Point::new(100).unwrap();
    assert_eq!(game.play(Move::Play(far)), Err(GameError::OffBoard));
}
