//! Tests of the optional rules as the engine keeps them: the tries counted for `max-tries`, and the repetition
//! rule handed to the belief.

use super::tests::{engine, genmove_point};
use super::*;

/// Plays a game of two random engines under `rule`, refereed by the judge, the mover passing every seventh
/// turn; at every try both engines' [`Engine::tries_made`] must equal the judge's count of tries.
fn count_tries_against_the_judge(rule: IllegalRule, cap: u32) -> (u32, u32) {
    use crate::game::{Repetition, Rules};
    use crate::judge::{Judge, TryOutcome};
    let mut rules = Rules::new(5);
    rules.max_tries = Some(cap as usize);
    let mut judge = Judge::new(rules, rule).unwrap();
    let mut engines = [engine(PlayerKind::Random), engine(PlayerKind::Random)];
    let mut illegal = 0;
    let mut passes = 0;
    for (i, engine) in engines.iter_mut().enumerate() {
        engine.set_illegal_rule(rule);
        engine.set_optional_rules(Repetition::Allowed, Some(cap));
        engine.config.seed = 11 + i as u64;
        engine.clear_board();
    }
    let mut turn = 0;
    while !judge.game().is_over() {
        for engine in &engines {
            assert_eq!(engine.tries_made() as usize, judge.game().tries(), "{rule}: the count drifted");
            assert_eq!(engine.tries_left(), Some(cap - judge.game().tries() as u32));
        }
        let color = judge.to_move();
        let mover = &mut engines[color.index()];
        let mv = if turn % 7 == 6 {
            mover.play(color, Move::Pass).unwrap();
            Move::Pass
        } else {
            match mover.genmove(color, &SearchLimits::default()) {
                Decision::Move(mv) => mv,
                Decision::Resign => panic!("a random engine never resigns"),
            }
        };
        let ruling = judge.submit(color, mv).unwrap();
        match ruling.outcome {
            TryOutcome::Illegal => {
                illegal += 1;
                mover.phantom_result_illegal().unwrap();
            }
            TryOutcome::Ok { captured } => mover.phantom_result_ok(&captured.iter().collect::<Vec<_>>()).unwrap(),
            TryOutcome::Pass => passes += 1,
        }
        for observation in ruling.observations_for(color.opponent()) {
            engines[color.opponent().index()].phantom_opponent(&observation).unwrap();
        }
        if ruling.next_to_move != color {
            turn += 1;
        }
    }
    for engine in &engines {
        assert_eq!(engine.tries_made() as usize, judge.game().tries());
    }
    assert_eq!(engines[0].tries_left(), Some(cap.saturating_sub(judge.game().tries() as u32)));
    (illegal, passes)
}

#[test]
fn tries_are_counted_as_the_referee_counts_them() {
    for rule in [IllegalRule::Retry, IllegalRule::LoseTurn] {
        let (illegal, passes) = count_tries_against_the_judge(rule, 60);
        // The game exercised what is counted: illegal tries of both sides and passes.
        assert!(illegal >= 2 && passes >= 2, "{rule}: {illegal} illegal tries, {passes} passes");
    }
}

#[test]
fn no_cap_leaves_no_tries_count_for_the_search() {
    let mut engine = engine(PlayerKind::Random);
    assert_eq!(engine.tries_left(), None);
    genmove_point(&mut engine, Color::Black);
    engine.phantom_result_illegal().unwrap();
    genmove_point(&mut engine, Color::Black);
    engine.phantom_result_ok(&[]).unwrap();
    engine.phantom_opponent(&Observation::OpponentIllegal).unwrap();
    engine.phantom_opponent(&Observation::OpponentPass).unwrap();
    assert_eq!(engine.tries_made(), 4);
    assert_eq!(engine.tries_left(), None);
    engine.set_optional_rules(crate::game::Repetition::Draw, Some(3));
    assert_eq!(engine.tries_left(), Some(0), "past the cap: none left, no underflow");
}

#[test]
fn the_belief_reads_illegal_tries_under_the_announced_repetition_rule() {
    use crate::game::Repetition;
    let mut engine = engine(PlayerKind::Mcts);
    engine.set_optional_rules(Repetition::Superko, None);
    genmove_point(&mut engine, Color::Black);
    engine.phantom_result_ok(&[]).unwrap();
    assert_eq!(engine.belief().map(Belief::repetition), Some(Repetition::Superko));
    // Told mid-game, the belief is rebuilt under the new rule.
    engine.set_optional_rules(Repetition::Draw, Some(100));
    assert_eq!(engine.belief().map(Belief::repetition), Some(Repetition::Draw));
    assert_eq!(engine.belief().map(|b| b.history_len()), Some(1), "the history is read again");
}
