//! Replays the 600 reference games (tests/data/rules-*.jsonl, from an independent Go implementation)
//! through the rules engine: every try's legality, every capture and the final score must agree. The playouts'
//! chain board replays each game beside it and must give the same answers and positions.

use phantomgo::{
    parse_vertex, Bitboard, ChainBoard, Color, Game, GameEnd, GameError, IllegalMove, KoRule, Move, Rules,
};
use serde_json::Value;

fn replay_file(name: &str) -> usize {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("vector file");
    let mut games = 0;
    for (line_number, line) in text.lines().enumerate() {
        let record: Value = serde_json::from_str(line).expect("json");
        let size = record["size"].as_u64().unwrap() as usize;
        let komi = record["komi"].as_f64().unwrap() as f32;
        let rules = Rules { size, komi, ko: KoRule::Simple, max_tries: Some(usize::MAX) };
        let mut game = Game::new(rules).unwrap();
        let mut chains = ChainBoard::new(size).unwrap();
        let tries = record["tries"].as_array().unwrap();
        for (i, entry) in tries.iter().enumerate() {
            let at = format!("{name} game {} try {i}: {entry}", line_number + 1);
            let color = Color::parse(entry[0].as_str().unwrap()).unwrap();
            assert_eq!(game.to_move(), color, "{at}: wrong player to move");
            let mv = parse_vertex(entry[1].as_str().unwrap(), size).unwrap();
            let expected = entry[2].as_str().unwrap();
            let before = game.board().clone();
            let result = game.play(mv);
            let chain_result = match mv {
                Move::Pass => {
                    chains.pass();
                    Ok(Bitboard::EMPTY)
                }
                Move::Play(point) => chains.try_play(color, point).map_err(GameError::Illegal),
            };
            assert_eq!(chain_result, result, "{at}: chain board");
            assert_eq!(&chains.to_board(), game.board(), "{at}: chain board position");
            assert!(chains.is_consistent(), "{at}: chain board");
            match expected {
                "pass" => assert_eq!(result, Ok(Bitboard::EMPTY), "{at}"),
                "illegal" => {
                    assert!(matches!(result, Err(GameError::Illegal(_))), "{at}: expected illegal, got {result:?}");
                    assert_eq!(game.board(), &before, "{at}: illegal try changed the board");
                }
                "ok" => {
                    let captured = result.unwrap_or_else(|e| panic!("{at}: expected ok, got {e}"));
                    let expected_captures: Bitboard = entry[3]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| parse_vertex(v.as_str().unwrap(), size).unwrap().point().unwrap())
                        .collect();
                    assert_eq!(captured, expected_captures, "{at}: captures differ");
                }
                other => panic!("{at}: unknown outcome {other}"),
            }
            assert!(game.board().is_consistent(), "{at}");
        }
        match record["end"].as_str().unwrap() {
            "two_passes" => {
                assert_eq!(game.end(), Some(GameEnd::TwoPasses), "{name} game {}", line_number + 1);
                assert_eq!(
                    game.result().to_string(),
                    record["score"].as_str().unwrap(),
                    "{name} game {}",
                    line_number + 1
                );
            }
            "repetition" => {
                assert!(game.last_move_repeated_position(), "{name} game {}: no repetition seen", line_number + 1);
                // Under positional superko the last try is refused.
                let mut superko = Game::new(Rules { ko: KoRule::PositionalSuperko, ..rules }).unwrap();
                let last = tries.len() - 1;
                for entry in &tries[..last] {
                    let mv = parse_vertex(entry[1].as_str().unwrap(), size).unwrap();
                    let _ = superko.play(mv);
                }
                let mv = parse_vertex(tries[last][1].as_str().unwrap(), size).unwrap();
                assert_eq!(superko.play(mv), Err(GameError::Illegal(IllegalMove::Superko)));
            }
            other => panic!("unknown end {other}"),
        }
        games += 1;
    }
    games
}

#[test]
fn reference_games_7x7() {
    assert_eq!(replay_file("rules-7x7.jsonl"), 200);
}

#[test]
fn reference_games_9x9() {
    assert_eq!(replay_file("rules-9x9.jsonl"), 200);
}

#[test]
fn reference_games_11x11() {
    assert_eq!(replay_file("rules-11x11.jsonl"), 200);
}

#[test]
fn pass_is_accepted_and_moves_alternate() {
    let mut game = Game::new(Rules::new(9)).unwrap();
    assert_eq!(game.play(Move::Pass), Ok(Bitboard::EMPTY));
    assert_eq!(game.to_move(), Color::White);
}
