//! The engine's checks of capture reports are sound: in random Phantom Go games refereed by the judge, no
//! report the judge makes is ever refused (tries from the seeded random player, small boards, both rules).

use phantomgo::config::Settings;
use phantomgo::engine::{EngineConfig, PlayerKind};
use phantomgo::gtp::{parse, Handler as Session};
use phantomgo::referee::player::announcement;
use phantomgo::{parse_vertex, ByColor, Color, IllegalRule, Judge, Rules};
use proptest::prelude::*;
use std::time::Instant;

fn session(seed: u64) -> Session {
    Session::new(&Settings {
        engine: EngineConfig { player: PlayerKind::Random, threads: 1, seed, ..EngineConfig::default() },
        ..Settings::default()
    })
}

fn send(session: &mut Session, line: &str) -> Result<String, String> {
    let command = parse(line).map_err(|e| e.to_string())?;
    session.execute(command, Instant::now())
}

/// Plays one judge-refereed game; returns the number of captures reported, or the first refused report.
fn play(size: usize, rule: IllegalRule, seed: u64) -> Result<u32, String> {
    let mut judge = Judge::new(Rules::new(size), rule).ok_or("size")?;
    let mut players = ByColor::new(session(seed), session(seed ^ 0x5EED));
    for color in Color::BOTH {
        for line in [format!("boardsize {size}"), "clear_board".into(), format!("phantom-rules illegal={rule}")] {
            send(&mut players[color], &line)?;
        }
    }
    let mut captures = 0;
    while !judge.game().is_over() {
        let color = judge.to_move();
        let reply = send(&mut players[color], &format!("genmove {}", color.letter()))?;
        let mv = parse_vertex(&reply, size).map_err(|_| format!("genmove answered {reply}"))?;
        let ruling = judge.submit(color, mv).map_err(|e| e.to_string())?;
        for listener in [color, color.opponent()] {
            for observation in ruling.observations_for(listener) {
                let line = announcement(&observation, size);
                if line.is_empty() {
                    continue;
                }
                captures += line.split_whitespace().count().saturating_sub(2) as u32;
                if let Err(message) = send(&mut players[listener], &line) {
                    let board = judge.game().board().picture();
                    return Err(format!("{listener} refused '{line}': {message}\n{board}"));
                }
            }
        }
    }
    Ok(captures)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn judge_made_reports_are_never_refused(size in 3usize..=7, lose_turn in any::<bool>(), seed in any::<u64>()) {
        let rule = if lose_turn { IllegalRule::LoseTurn } else { IllegalRule::Retry };
        let outcome = play(size, rule, seed);
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }
}

#[test]
fn the_random_games_do_report_captures() {
    // The property above means something only if captures are reported; these seeds have plenty.
    let captures: u32 = (0..6).map(|seed| play(5, IllegalRule::Retry, seed).expect("no refusal")).sum();
    assert!(captures >= 10, "{captures} captures");
}
