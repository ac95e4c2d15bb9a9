//! The referee's judge: every announcement under both illegal-try rules, the per-turn cap, and bad input.

use phantomgo::judge::JudgeError;
use phantomgo::{
    parse_vertex, Bitboard, Color, GameEnd, IllegalRule, Judge, Move, Observation, Point, Rules, TryOutcome,
};

fn mv(v: &str) -> Move {
    parse_vertex(v, 5).unwrap()
}

fn pt(v: &str) -> Point {
    mv(v).point().unwrap()
}

fn judge(rule: IllegalRule) -> Judge {
    Judge::new(Rules { komi: 0.5, ..Rules::new(5) }, rule).unwrap()
}

#[test]
fn legal_try_tells_the_mover_ok_and_the_opponent_a_move() {
    let mut j = judge(IllegalRule::Retry);
    let r = j.submit(Color::Black, mv("C3")).unwrap();
    assert_eq!(r.outcome, TryOutcome::Ok { captured: Bitboard::EMPTY });
    assert_eq!(r.next_to_move, Color::White);
    assert_eq!(
        r.observations_for(Color::Black),
        vec![Observation::OwnOk { point: pt("C3"), captured: Bitboard::EMPTY }]
    );
    assert_eq!(r.observations_for(Color::White), vec![Observation::OpponentMove { captured: Bitboard::EMPTY }]);
}

#[test]
fn illegal_try_under_retry_keeps_the_turn_and_is_announced_to_both() {
    let mut j = judge(IllegalRule::Retry);
    j.submit(Color::Black, mv("C3")).unwrap();
    let r = j.submit(Color::White, mv("C3")).unwrap();
    assert_eq!(r.outcome, TryOutcome::Illegal);
    assert_eq!(r.next_to_move, Color::White);
    assert_eq!(r.observations_for(Color::White), vec![Observation::OwnIllegal { point: pt("C3") }]);
    assert_eq!(r.observations_for(Color::Black), vec![Observation::OpponentIllegal]);
    assert_eq!(j.submit(Color::Black, mv("A1")), Err(JudgeError::NotYourTurn));
    assert!(j.submit(Color::White, mv("D3")).is_ok());
}

#[test]
fn illegal_try_under_lose_turn_passes_the_turn() {
    let mut j = judge(IllegalRule::LoseTurn);
    j.submit(Color::Black, mv("C3")).unwrap();
    let r = j.submit(Color::White, mv("C3")).unwrap();
    assert_eq!(r.outcome, TryOutcome::Illegal);
    assert_eq!(r.next_to_move, Color::Black);
    assert_eq!(r.observations_for(Color::Black), vec![Observation::OpponentIllegal]);
    // A lost turn is not a pass: Black passing now does not end the game.
    j.submit(Color::Black, Move::Pass).unwrap();
    assert_eq!(j.game().end(), None);
}

#[test]
fn captures_are_told_to_both_sides() {
    let mut j = judge(IllegalRule::Retry);
    for (c, v) in [(Color::Black, "A2"), (Color::White, "A1"), (Color::Black, "E5")] {
        j.submit(c, mv(v)).unwrap();
    }
    // White's A1 is in atari; Black... it is White's turn: White plays elsewhere, Black captures with B1.
    j.submit(Color::White, mv("E1")).unwrap();
    let r = j.submit(Color::Black, mv("B1")).unwrap();
    let captured = Bitboard::from_point(pt("A1"));
    assert_eq!(r.outcome, TryOutcome::Ok { captured });
    assert_eq!(r.observations_for(Color::Black), vec![Observation::OwnOk { point: pt("B1"), captured }]);
    assert_eq!(r.observations_for(Color::White), vec![Observation::OpponentMove { captured }]);
}

#[test]
fn passes_are_announced_and_two_end_the_game() {
    let mut j = judge(IllegalRule::Retry);
    j.submit(Color::Black, mv("C3")).unwrap();
    let r = j.submit(Color::White, Move::Pass).unwrap();
    assert_eq!(r.observations_for(Color::Black), vec![Observation::OpponentPass]);
    assert_eq!(r.observations_for(Color::White), vec![Observation::OwnPass]);
    let r = j.submit(Color::Black, Move::Pass).unwrap();
    assert_eq!(r.game_over, Some(GameEnd::TwoPasses));
    assert_eq!(j.game().result().to_string(), "B+24.5");
    assert_eq!(j.submit(Color::White, mv("A1")), Err(JudgeError::GameOver));
}

#[test]
fn the_per_turn_cap_turns_illegal_tries_into_a_pass() {
    for rule in [IllegalRule::Retry, IllegalRule::LoseTurn] {
        let mut j = judge(rule).with_max_illegal_per_turn(1);
        j.submit(Color::Black, mv("C3")).unwrap();
        let r = j.submit(Color::White, mv("C3")).unwrap();
        assert!(r.forced_pass, "{rule}");
        assert_eq!(r.next_to_move, Color::Black);
        assert_eq!(r.observations_for(Color::Black), vec![Observation::OpponentIllegal, Observation::OpponentPass]);
        assert_eq!(
            r.observations_for(Color::White),
            vec![Observation::OwnIllegal { point: pt("C3") }, Observation::OwnPass]
        );
        // The forced pass counts for the game end.
        let r = j.submit(Color::Black, Move::Pass).unwrap();
        assert_eq!(r.game_over, Some(GameEnd::TwoPasses));
    }
    let mut j = judge(IllegalRule::Retry).with_max_illegal_per_turn(3);
    j.submit(Color::Black, mv("C3")).unwrap();
    for expected_forced in [false, false, true] {
        let r = j.submit(Color::White, mv("C3")).unwrap();
        assert_eq!(r.forced_pass, expected_forced);
    }
}

#[test]
fn suicide_and_ko_are_illegal_tries_like_a_hidden_stone() {
    let mut j = judge(IllegalRule::Retry);
    for (c, v) in [(Color::Black, "A2"), (Color::White, "E5"), (Color::Black, "B1")] {
        j.submit(c, mv(v)).unwrap();
    }
    let r = j.submit(Color::White, mv("A1")).unwrap();
    assert_eq!(r.outcome, TryOutcome::Illegal, "suicide");
    assert_eq!(r.observations_for(Color::Black), vec![Observation::OpponentIllegal]);
}

#[test]
fn off_board_and_length_cap() {
    let mut j = Judge::new(Rules { max_tries: Some(2), ..Rules::new(5) }, IllegalRule::Retry).unwrap();
    assert_eq!(j.submit(Color::Black, Move::Play(Point::new(30).unwrap())), Err(JudgeError::OffBoard));
    j.submit(Color::Black, mv("C3")).unwrap();
    let r = j.submit(Color::White, mv("C3")).unwrap();
    assert_eq!(r.game_over, Some(GameEnd::LengthCap));
    assert!(Judge::new(Rules::new(12), IllegalRule::Retry).is_none());
    assert_eq!("lose-turn".parse::<IllegalRule>(), Ok(IllegalRule::LoseTurn));
    assert!("sometimes".parse::<IllegalRule>().is_err());
}
