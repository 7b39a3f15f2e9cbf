//! Plays random games natively on this thread (the path of `simulate(threads=1)`) and
//! prints moves per second: the loop to profile
//! (`valgrind --tool=callgrind target/release/examples/playouts 9 2000`).
//!
//! Usage: `playouts [SIZE] [GAMES]` (defaults 9 and 10000).

use std::time::Instant;

use ikeda_core::{simulate_serial_into, Geometry, Rules};

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<usize>().expect("a number"));
    let size = args.next().unwrap_or(9);
    let games = args.next().unwrap_or(10_000);
    let geo = Geometry::new(size, size).expect("a board size in 1..=25");
    let start = Instant::now();
    let mut out = Vec::with_capacity(games);
    simulate_serial_into(
        &mut out,
        geo,
        &Rules::area3(13),
        1,
        0,
        games,
        0.0,
        ikeda_core::move_cap(geo),
    )
    .expect("memory for the summaries");
    let seconds = start.elapsed().as_secs_f64();
    let moves: u64 = out.iter().map(|g| u64::from(g.length)).sum();
    assert!(out.iter().all(|g| !g.capped));
    println!(
        "{games} games, {moves} moves in {seconds:.3} s: {:.0} games/s, {:.2} M moves/s",
        games as f64 / seconds,
        moves as f64 / seconds / 1e6
    );
}
