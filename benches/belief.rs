//! Criterion benches of the belief: one observation update of 128 particles, and a full resampling.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use phantomgo::{Belief, BeliefConfig, Bitboard, Color, IllegalRule, Judge, Move, Observation, Rules, TryOutcome};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Black's belief after `tries` tries of a seeded random 9x9 game, taken when Black is to move.
fn mid_game_belief(tries: usize) -> Belief {
    mid_game_belief_with(tries, &BeliefConfig::default())
}

/// [`mid_game_belief`] with the belief's settings given.
fn mid_game_belief_with(tries: usize, config: &BeliefConfig) -> Belief {
    let mut judge = Judge::new(Rules::new(9), IllegalRule::Retry).expect("9x9");
    let mut belief = Belief::new(9, Color::Black, IllegalRule::Retry, config, 7);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut tried = Bitboard::EMPTY;
    while judge.game().tries() < tries || judge.to_move() != Color::Black {
        let color = judge.to_move();
        let board = judge.game().board();
        let choices = board.geometry().mask() - board.stones(color) - tried;
        let mv = match choices.nth(rng.gen_range(0..choices.count().max(1))) {
            Some(point) => Move::Play(point),
            None => Move::Pass,
        };
        let ruling = judge.submit(color, mv).expect("a valid submission");
        match (ruling.outcome, mv) {
            (TryOutcome::Illegal, Move::Play(point)) if ruling.next_to_move == color => tried.insert(point),
            _ => tried = Bitboard::EMPTY,
        }
        for observation in ruling.observations_for(Color::Black) {
            belief.observe(&observation);
        }
    }
    assert_eq!(belief.stats().contradictions, 0);
    belief
}

fn bench_belief(c: &mut Criterion) {
    let belief = mid_game_belief(60);
    let particles = belief.len();
    assert_eq!(particles, 128);

    c.bench_function("belief/observe_opponent_move_128", |b| {
        b.iter_batched(
            || belief.clone(),
            |mut belief| {
                belief.observe(&Observation::OpponentMove { captured: Bitboard::EMPTY });
                assert_eq!(belief.stats().survivors_last, particles);
                belief
            },
            BatchSize::SmallInput,
        )
    });

    // A point empty and legal without captures in every particle: an ok try there kills nobody.
    let safe = belief
        .particles()
        .iter()
        .fold(belief.particles()[0].empty(), |acc, board| acc & board.empty())
        .iter()
        .find(|&point| {
            belief.particles().iter().all(|board| {
                let mut copy = board.clone();
                matches!(copy.try_play(Color::Black, point), Ok(captured) if captured.is_empty())
            })
        })
        .expect("a safe point mid-game");
    c.bench_function("belief/observe_own_ok_128", |b| {
        b.iter_batched(
            || belief.clone(),
            |mut belief| {
                belief.observe(&Observation::OwnOk { point: safe, captured: Bitboard::EMPTY });
                assert_eq!(belief.stats().survivors_last, particles);
                belief
            },
            BatchSize::SmallInput,
        )
    });

    // An illegal try at a point few particles hold a stone on: most die and are repaired against the history.
    let probabilities = belief.probabilities();
    let unlikely = (0..probabilities.len())
        .filter(|&i| probabilities[i] > 0.0 && probabilities[i] < 0.25)
        .min_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]))
        .and_then(phantomgo::Point::new)
        .expect("an unlikely stone mid-game");
    c.bench_function("belief/observe_own_illegal_resampling_128", |b| {
        b.iter_batched(
            || belief.clone(),
            |mut belief| {
                belief.observe(&Observation::OwnIllegal { point: unlikely });
                assert!(belief.stats().survivors_last < particles / 4);
                assert_eq!(belief.stats().contradictions, 0);
                belief
            },
            BatchSize::SmallInput,
        )
    });

    c.bench_function("belief/full_resampling_128", |b| {
        b.iter_batched(
            || belief.clone(),
            |mut belief| {
                let before = belief.stats().resamplings;
                belief.resample();
                assert_eq!(belief.stats().resamplings, before + 1);
                assert_eq!(belief.len(), particles);
                belief
            },
            BatchSize::SmallInput,
        )
    });
    // The same late in a long game: updates stay cheap, a resampling grows with the history it replays.
    let late = mid_game_belief(200);
    c.bench_function("belief/late_observe_opponent_move_128", |b| {
        b.iter_batched(
            || late.clone(),
            |mut belief| {
                belief.observe(&Observation::OpponentMove { captured: Bitboard::EMPTY });
                assert_eq!(belief.len(), particles);
                belief
            },
            BatchSize::SmallInput,
        )
    });
    // The earlier hand-set opponent model (`belief.opponent_model = "hand"`), for the fitted model's cost.
    let hand = BeliefConfig { model: None, ..BeliefConfig::default() };
    for (name, tries) in
        [("belief/observe_opponent_move_128_hand", 60), ("belief/late_observe_opponent_move_128_hand", 200)]
    {
        let start = mid_game_belief_with(tries, &hand);
        c.bench_function(name, |b| {
            b.iter_batched(
                || start.clone(),
                |mut belief| {
                    belief.observe(&Observation::OpponentMove { captured: Bitboard::EMPTY });
                    assert_eq!(belief.len(), particles);
                    belief
                },
                BatchSize::SmallInput,
            )
        });
    }
    c.bench_function("belief/late_full_resampling_128", |b| {
        b.iter_batched(
            || late.clone(),
            |mut belief| {
                belief.resample();
                assert_eq!(belief.len(), particles);
                belief
            },
            BatchSize::SmallInput,
        )
    });
    eprintln!(
        "late belief: {} announcements, {} opponent stones, {} bytes of particles",
        late.history_len(),
        late.opponent_stone_count(),
        late.particle_bytes()
    );
    eprintln!(
        "mid-game belief: {} announcements, {} opponent stones, {} bytes of particles",
        belief.history_len(),
        belief.opponent_stone_count(),
        belief.particle_bytes()
    );
}

criterion_group!(benches, bench_belief);
criterion_main!(benches);
