//! Tests of the engine facade: tries, reports, undo and the belief it keeps.

use super::*;
use crate::point::parse_vertex;

pub(super) fn engine(player: PlayerKind) -> Engine {
    let config = EngineConfig { player, threads: 1, playouts: Some(200), seed: 3, ..EngineConfig::default() };
    let mut engine = Engine::new(config);
    engine.set_board_size(5).unwrap();
    engine
}

fn pt(vertex: &str) -> Point {
    parse_vertex(vertex, 5).unwrap().point().unwrap()
}

pub(super) fn genmove_point(engine: &mut Engine, color: Color) -> Point {
    match engine.genmove(color, &SearchLimits::default()) {
        Decision::Move(Move::Play(p)) => p,
        other => panic!("expected a stone, got {other:?}"),
    }
}

#[test]
fn an_unseen_opponent_move_puts_one_expected_stone_in_the_belief() {
    let mut engine = engine(PlayerKind::Mcts);
    let first = genmove_point(&mut engine, Color::Black);
    engine.phantom_result_ok(&[]).unwrap();
    engine.phantom_opponent(&Observation::OpponentMove { captured: Bitboard::EMPTY }).unwrap();
    let p = engine.opponent_stone_probabilities();
    let total: f32 = p.iter().sum();
    assert!((total - 1.0).abs() < 1e-3, "one hidden stone in expectation, got {total}");
    assert_eq!(p[first.index()], 0.0, "our own stone's point holds no opponent stone");
    assert_eq!(engine.belief().map(|b| b.opponent_stone_count()), Some(1));
}

#[test]
fn an_illegal_try_is_undone_and_not_tried_again_this_turn() {
    let mut engine = engine(PlayerKind::Mcts);
    genmove_point(&mut engine, Color::Black);
    engine.phantom_result_ok(&[]).unwrap();
    engine.phantom_opponent(&Observation::OpponentMove { captured: Bitboard::EMPTY }).unwrap();
    let tried = genmove_point(&mut engine, Color::Black);
    engine.phantom_result_illegal().unwrap();
    assert_eq!(engine.known_board().color_at(tried), None, "the try was undone");
    let again = genmove_point(&mut engine, Color::Black);
    assert_ne!(again, tried);
    assert_eq!(engine.phantom_result_illegal(), Ok(()));
    assert_eq!(engine.phantom_result_illegal(), Err(EngineError::NoPendingTry));
}

#[test]
fn bad_reports_change_nothing() {
    let mut engine = engine(PlayerKind::Random);
    let first = genmove_point(&mut engine, Color::Black);
    // A capture of a point that holds our own new stone is refused and the try stays pending.
    assert_eq!(
        engine.phantom_result_ok(&[first]),
        Err(EngineError::InconsistentAt { point: first, size: 5, why: "holds our stone" })
    );
    assert_eq!(engine.phantom_result_ok(&[]), Ok(()));
    // The opponent cannot capture a stone we do not have.
    let empty = engine.known_board().empty().first().unwrap();
    let before = engine.known_board().clone();
    assert!(matches!(
        engine.phantom_opponent(&Observation::OpponentMove { captured: Bitboard::from_point(empty) }),
        Err(EngineError::InconsistentAt { why: "is not our stone", .. })
    ));
    assert_eq!(engine.known_board(), &before);
}

#[test]
fn a_try_without_result_stands_with_the_known_captures_and_undo_takes_it_back() {
    let mut engine = engine(PlayerKind::Random);
    engine.play(Color::White, Move::Play(pt("A1"))).unwrap();
    engine.play(Color::Black, Move::Play(pt("A2"))).unwrap();
    engine.play(Color::White, Move::Play(pt("E5"))).unwrap();
    // Black's only capture of A1 is B1; play it as a full-information move.
    engine.play(Color::Black, Move::Play(pt("B1"))).unwrap();
    assert_eq!(engine.known_board().color_at(pt("A1")), None);
    engine.undo().unwrap();
    assert_eq!(engine.known_board().color_at(pt("A1")), Some(Color::White));
    assert_eq!(engine.play(Color::Black, Move::Play(pt("A2"))), Err(EngineError::IllegalMove));
    engine.clear_board();
    assert_eq!(engine.undo(), Err(EngineError::CannotUndo));
    // A genmove that gets no phantom-result stands once the next command comes.
    let tried = genmove_point(&mut engine, Color::Black);
    let elsewhere = (engine.known_board().empty() - Bitboard::from_point(tried)).first().unwrap();
    engine.play(Color::White, Move::Play(elsewhere)).unwrap();
    assert_eq!(engine.known_board().color_at(tried), Some(Color::Black));
    assert_eq!(engine.phantom_result_illegal(), Err(EngineError::NoPendingTry));
    assert_eq!(engine.set_board_size(12), Err(EngineError::UnacceptableSize));
    assert_eq!(engine.set_komi(f32::NAN), Err(EngineError::BadKomi));
}
