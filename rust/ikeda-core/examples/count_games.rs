//! Counts the Tromp-Taylor games of a small board from the empty board and prints the
//! count and the wall time: the run behind the figures in benches/README.md (run it under
//! `/usr/bin/time -v` for the CPU time).
//!
//! Usage: `count_games WIDTH HEIGHT [THREADS] [BUDGET]` (threads 0 = every core; budget
//! in nodes, none by default), or `count_games WIDTH HEIGHT THREADS estimate SUBTREES
//! SAMPLES [SEED]`: split the tree into at least SUBTREES subtrees, count SAMPLES of them
//! drawn uniformly and scale up (games and nodes of the whole count, with standard
//! errors, and the time per node of the sample).

use std::time::Instant;

use ikeda_core::{
    count_games, estimate_count, Color, CountLimits, Ending, Game, Geometry, KoRule, PlayRules,
    Position, CELLS_9,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse::<u64>().expect("a number"))
    };
    let (w, h) = (num(0, 4) as usize, num(1, 1) as usize);
    let threads = num(2, 0) as usize;
    let geo = Geometry::new(w, h).expect("a board size in 1..=25");
    let rules = PlayRules {
        ko: KoRule::PositionalSuperko,
        suicide: true,
    };
    let game = Game::with_ending(
        Position::<CELLS_9>::new(geo, rules),
        Color::Black,
        Ending::TwoPasses,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads");
    let start = Instant::now();
    if args.get(3).map(String::as_str) == Some("estimate") {
        let (subtrees, samples, seed) =
            (num(4, 100_000) as usize, num(5, 1000) as usize, num(6, 1));
        let e = pool
            .install(|| estimate_count(&game, subtrees, samples, seed))
            .expect("an estimate");
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{w}x{h} Tromp-Taylor, {} subtrees, {} sampled: games {:.4e} ± {:.2e}, nodes {:.4e} ± {:.2e}; sample {} nodes in {seconds:.2} s wall on {} threads",
            e.subtrees,
            e.sampled,
            e.games,
            e.games_error,
            e.nodes,
            e.nodes_error,
            e.sampled_nodes,
            pool.current_num_threads()
        );
        return;
    }
    let r = pool.install(|| {
        count_games(
            &game,
            CountLimits {
                nodes: args.get(3).map(|_| num(3, 0)),
                stop: None,
            },
        )
    });
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{w}x{h} Tromp-Taylor on {} threads: {r:?} in {seconds:.2} s wall",
        pool.current_num_threads()
    );
}
