//! The ladder's players (`flat`, `pimc`) in whole games refereed in-process under both illegal-try rules:
//! every try is legal-looking on the player's board and never repeats a try refused in the same turn, games
//! finish, and a fixed seed, playout count and one thread repeat the same game.

use phantomgo::color::Color;
use phantomgo::engine::{Decision, Engine, EngineConfig, PlayerKind, SearchLimits};
use phantomgo::game::Rules;
use phantomgo::judge::{IllegalRule, Judge};
use phantomgo::observation::Observation;
use phantomgo::point::{Move, Point};

fn engine(player: PlayerKind, seed: u64, size: usize, rule: IllegalRule) -> Engine {
    let config =
        EngineConfig { player, threads: 1, playouts: Some(150), particles: 32, seed, ..EngineConfig::default() };
    let mut engine = Engine::new(config);
    engine.set_board_size(size).unwrap();
    engine.set_illegal_rule(rule);
    engine
}

/// Tells `engine` (playing `color`) what it was told by the judge.
fn tell(engine: &mut Engine, told: &[Observation]) {
    for observation in told {
        match *observation {
            Observation::OwnIllegal { .. } => engine.phantom_result_illegal().unwrap(),
            Observation::OwnOk { captured, .. } => {
                engine.phantom_result_ok(&captured.iter().collect::<Vec<Point>>()).unwrap()
            }
            Observation::OwnPass => {}
            opponent => engine.phantom_opponent(&opponent).unwrap(),
        }
    }
}

/// Plays one game to its end; returns every try made, in order. Checks each try on the way.
fn play(black: PlayerKind, white: PlayerKind, rule: IllegalRule, seed: u64) -> Vec<(Color, Move)> {
    let size = 7;
    let mut judge = Judge::new(Rules::new(size), rule).unwrap().with_max_illegal_per_turn(1000);
    let mut engines = [engine(black, seed, size, rule), engine(white, seed + 1, size, rule)];
    let mut tries = Vec::new();
    let mut refused_this_turn: Vec<Point> = Vec::new();
    while !judge.game().is_over() {
        let color = judge.to_move();
        let side = usize::from(color == Color::White);
        let known_before = engines[side].known_board().clone();
        let mv = match engines[side].genmove(color, &SearchLimits::default()) {
            Decision::Move(mv) => mv,
            Decision::Resign => break,
        };
        if let Move::Play(point) = mv {
            assert_eq!(known_before.color_at(point), None, "{mv:?} on a stone the player knows");
            assert!(!refused_this_turn.contains(&point), "{mv:?} tried again in the turn it was refused");
        }
        tries.push((color, mv));
        let ruling = judge.submit(color, mv).unwrap();
        tell(&mut engines[side], &ruling.observations_for(color));
        tell(&mut engines[1 - side], &ruling.observations_for(color.opponent()));
        match (ruling.next_to_move == color, mv) {
            (true, Move::Play(point)) => refused_this_turn.push(point),
            _ => refused_this_turn.clear(),
        }
        assert!(tries.len() < 2000, "the game does not end");
    }
    tries
}

#[test]
fn flat_and_pimc_play_whole_games_under_both_rules() {
    for rule in [IllegalRule::Retry, IllegalRule::LoseTurn] {
        let tries = play(PlayerKind::Flat, PlayerKind::Pimc, rule, 11);
        assert!(tries.len() > 20, "{rule:?}: only {} tries", tries.len());
        let stones = tries.iter().filter(|(_, mv)| matches!(mv, Move::Play(_))).count();
        assert!(stones > 20, "{rule:?}: {stones} stones tried");
    }
}

#[test]
fn a_fixed_seed_repeats_the_game() {
    for rule in [IllegalRule::Retry, IllegalRule::LoseTurn] {
        let a = play(PlayerKind::Pimc, PlayerKind::Flat, rule, 5);
        let b = play(PlayerKind::Pimc, PlayerKind::Flat, rule, 5);
        assert_eq!(a, b, "{rule:?}");
        let c = play(PlayerKind::Pimc, PlayerKind::Flat, rule, 6);
        assert_ne!(a, c, "{rule:?}: another seed, another game");
    }
}

#[test]
fn the_rungs_are_named_on_the_command_line() {
    use phantomgo::config::parse_player;
    assert_eq!(parse_player("flat"), Ok(PlayerKind::Flat));
    assert_eq!(parse_player("pimc"), Ok(PlayerKind::Pimc));
    assert!(parse_player("golois").unwrap_err().contains("flat or pimc"));
    assert_eq!(parse_player("ismcts"), Ok(PlayerKind::Ismcts));
    // The binary's own option list accepts every player the config does.
    for player in ["mcts", "ismcts", "random", "flat", "pimc"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_phantomgo"))
            .args(["gtp", "--player", player, "--playouts", "50", "--threads", "1"])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs");
        assert!(output.status.success(), "{player}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

/// The main search and the earlier ISMCTS both play whole games against the rungs.
#[test]
fn the_engines_searches_play_whole_games_under_both_rules() {
    for rule in [IllegalRule::Retry, IllegalRule::LoseTurn] {
        for (black, white) in [(PlayerKind::Mcts, PlayerKind::Pimc), (PlayerKind::Flat, PlayerKind::Ismcts)] {
            let tries = play(black, white, rule, 3);
            let stones = tries.iter().filter(|(_, mv)| matches!(mv, Move::Play(_))).count();
            assert!(stones > 20, "{black:?} vs {white:?}, {rule:?}: {stones} stones tried");
        }
    }
}
