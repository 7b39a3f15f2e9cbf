//! Criterion benchmarks of the core on 9x9 and 19x19. Each bench asserts its answer, so
//! a fast but wrong kernel cannot pass unnoticed.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use ikeda_core::{
    area, area3_score, count_games, count_games_by_play, perft, random_game, search, Batch, Color,
    CountLimits, Ending, Game, Geometry, KoRule, PlayRules, Position, Rules, SearchLimits,
    CELLS_19, CELLS_9,
};

/// The position after the first `moves` moves of a seeded random game.
fn midgame<const N: usize>(size: usize, moves: usize) -> Game<N> {
    let geo = Geometry::new(size, size).unwrap();
    let fresh = || Game::new(Position::new(geo, PlayRules::IKEDA), Color::Black);
    let record =
        random_game(fresh(), &Rules::area3(13), 42, 0.0, moves).expect("memory for one game");
    let mut g = fresh();
    for &m in &record.moves {
        g.play((m < geo.points()).then(|| geo.loc_of_index(m)))
            .unwrap();
    }
    g
}

fn benches(c: &mut Criterion) {
    bench_size::<CELLS_9>(c, 9);
    bench_size::<CELLS_19>(c, 19);
    bench_perft(c);
    bench_count_games(c);
    bench_batch::<CELLS_9>(c, 9, 512);
    bench_batch::<CELLS_19>(c, 19, 64);
    bench_mcts(c);
}

/// `Batch::playout` of `games` fresh games on 1, 2 and 4 threads: playouts per second and
/// the scaling over threads (throughput is in games).
fn bench_batch<const N: usize>(c: &mut Criterion, size: usize, games: usize) {
    let geo = Geometry::new(size, size).unwrap();
    let mut group = c.benchmark_group(format!("batch_playout/{size}x{size}"));
    group.throughput(Throughput::Elements(games as u64));
    group.sample_size(10);
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut seed = 0;
        group.bench_function(format!("threads={threads}"), |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    Batch::<N>::new(geo, Rules::area3(13), games, seed)
                },
                |mut batch| {
                    assert_eq!(pool.install(|| batch.playout(0.0, 4 * geo.points())), Ok(0));
                    assert!(batch.games().iter().all(|g| g.passes.over));
                    batch
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

fn bench_mcts(c: &mut Criterion) {
    // One move of the built-in bot: 1,000 playouts from the 9x9 mid-game position.
    let mut game = midgame::<CELLS_9>(9, 40);
    let limits = SearchLimits {
        playouts: 1000,
        seconds: 0.0,
        seed: 1,
        resign_below: 0.0,
    };
    c.bench_function("mcts/9x9/1000_playouts", |b| {
        b.iter(|| {
            assert_eq!(
                search(&mut game, &Rules::area3(13), &limits)
                    .expect("memory for the tree")
                    .playouts,
                1000
            )
        })
    });
}

fn bench_size<const N: usize>(c: &mut Criterion, size: usize) {
    {
        let mid = if size == 9 { 40 } else { 150 };
        let game = midgame::<N>(size, mid);
        let geo = game.position.geometry();
        let color = game.to_move;
        let legal: Vec<_> = game
            .position
            .legal_plays(color)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert!(!legal.is_empty());

        c.bench_function(&format!("play_undo/{size}x{size}"), |b| {
            let mut p = game.position.clone();
            let plays = p.plays();
            b.iter(|| {
                for &l in &legal {
                    p.play_unchecked(black_box(l), color);
                    p.undo();
                }
            });
            assert_eq!(p.plays(), plays);
            assert_eq!(p.board(), game.position.board());
        });

        c.bench_function(&format!("fork/{size}x{size}"), |b| {
            let mut p = game.position.clone();
            b.iter(|| black_box(p.fork()));
            assert_eq!(p.fork().board(), game.position.board());
        });

        c.bench_function(&format!("legal_mask/{size}x{size}"), |b| {
            let mut out = vec![false; geo.points() + 1];
            b.iter(|| game.position.legal_mask(black_box(color), &mut out));
            assert_eq!(out.iter().filter(|&&x| x).count(), legal.len() + 1);
        });

        c.bench_function(&format!("score/{size}x{size}"), |b| {
            let a = area(game.position.board(), &[]);
            let s = area3_score(&game.position, None, 13);
            b.iter(|| area3_score(black_box(&game.position), None, 13));
            assert_eq!(s.black, 2 * (a.stones[0] + a.territory[0]) as i32);
        });

        c.bench_function(&format!("random_game/{size}x{size}"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let fresh = Game::new(Position::<N>::new(geo, PlayRules::IKEDA), Color::Black);
                let g = random_game(fresh, &Rules::area3(13), seed, 0.0, 4 * geo.points())
                    .expect("memory for one game");
                assert!(g.ended && g.moves.len() > geo.points() / 2);
                g
            });
        });
    }
}

fn bench_perft(c: &mut Criterion) {
    // perft from the empty board; 3x3 is checked against the pure-Python reference in
    // tests/test_perft.py, and its value here against a fresh run.
    let geo = Geometry::new(3, 3).unwrap();
    let mut g3 = Game::new(
        Position::<CELLS_9>::new(geo, PlayRules::IKEDA),
        Color::Black,
    );
    let p3 = perft(&mut g3, 5);
    c.bench_function("perft/3x3/depth5", |b| {
        b.iter(|| assert_eq!(perft(&mut g3, 5), p3))
    });
    for size in [9usize, 19] {
        let geo = Geometry::new(size, size).unwrap();
        let mut g = Game::new(
            Position::<CELLS_19>::new(geo, PlayRules::IKEDA),
            Color::Black,
        );
        // Three moves on an open board can neither commit suicide nor be banned, so every
        // empty point is legal and every sequence counts (pass pass pass ends the game at
        // move 3, which still counts): sum over k plays of C(3, k) * n!/(n-k)!.
        let n = (size * size) as u64;
        let expected = 1 + 3 * n + 3 * n * (n - 1) + n * (n - 1) * (n - 2);
        assert_eq!(perft(&mut g, 3), expected);
        c.bench_function(&format!("perft/{size}x{size}/depth3"), |b| {
            b.iter(|| assert_eq!(perft(&mut g, 3), expected))
        });
    }
}

/// The game count of 1x3 under Territory I (48,265 games, the reference's brute force in
/// tests/test_count_games.py) and Tromp-Taylor (907, published), by the bitboard
/// enumeration on one thread beside the play-and-undo walk through `Game` (the ratio is
/// the node's cost, split and symmetry included).
fn bench_count_games(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let tromp_taylor = PlayRules {
        ko: KoRule::PositionalSuperko,
        suicide: true,
    };
    for (name, rules, ending, expected) in [
        ("territory1", PlayRules::IKEDA, Ending::EqualMoves, 48_265),
        ("tromp-taylor", tromp_taylor, Ending::TwoPasses, 907),
    ] {
        let geo = Geometry::new(3, 1).unwrap();
        let mut g = Game::with_ending(Position::<CELLS_9>::new(geo, rules), Color::Black, ending);
        c.bench_function(&format!("count_games/1x3/{name}/bitboard"), |b| {
            b.iter(|| {
                assert_eq!(
                    pool.install(|| count_games(&g, CountLimits::default())),
                    Ok(expected)
                )
            });
        });
        c.bench_function(&format!("count_games/1x3/{name}/play_undo"), |b| {
            b.iter(|| assert_eq!(count_games_by_play(&mut g), expected))
        });
    }
}

criterion_group!(core, benches);
criterion_main!(core);
