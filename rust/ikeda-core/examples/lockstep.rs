//! A lockstep loop of `n` 9x9 games on one thread, uniform random legal actions, for
//! profiling `Batch::step_into` (kept masks) against a step followed by the scan from
//! scratch: `lockstep kept|scan|native [n] [steps]` (`native`: the actions drawn by
//! `Batch::sample`, timed apart, instead of by this loop). Prints CPU time per game and
//! step (this thread's, from /proc, so other load on the machine does not count).
use ikeda_core::{Batch, Geometry, Policy, Rules, CELLS_9};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn cpu_ns() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace()
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("kept", |s| s.as_str()).to_string();
    let n: usize = args.get(2).map_or(4096, |s| s.parse().unwrap());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        let mut b = Batch::<CELLS_9>::new(Geometry::new(9, 9).unwrap(), Rules::area3(13), n, 1);
        let width = 82;
        let mut mask = vec![false; n * width];
        let mut actions = vec![0i64; n];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let (mut tm, mut ts) = (0.0, 0.0);
        b.legal_mask(&mut mask);
        let steps: usize = std::env::args().nth(3).map_or(325, |s| s.parse().unwrap());
        let mut td = 0.0;
        for _ in 0..steps {
            if mode == "native" {
                let t = cpu_ns();
                b.sample(Policy::Uniform, &mut actions).unwrap();
                td += cpu_ns() - t;
            }
            for (a, row) in actions.iter_mut().zip(mask.chunks(width)).filter(|_| mode != "native") {
                let k = row[..81].iter().filter(|&&x| x).count();
                *a = 81;
                if k > 0 {
                    let mut j = rng.next_u64() % k as u64;
                    for (i, &x) in row[..81].iter().enumerate() {
                        if x {
                            if j == 0 {
                                *a = i as i64;
                                break;
                            }
                            j -= 1;
                        }
                    }
                }
            }
            let t0 = cpu_ns();
            if mode != "scan" {
                b.step_into(&actions, Some(&mut mask)).unwrap();
            } else {
                b.step(&actions).unwrap();
            }
            let t1 = cpu_ns();
            if mode == "scan" {
                b.legal_mask_from_scratch(&mut mask);
            }
            let t2 = cpu_ns();
            ts += t1 - t0;
            tm += t2 - t1;
        }
        let moves: u64 = b.lengths().iter().map(|&l| u64::from(l)).sum();
        let per = steps as f64 * n as f64;
        println!("{mode} {n}: {moves} moves; CPU per game and step: step {:.0} ns, scan {:.0} ns, sample {:.0} ns", ts / per, tm / per, td / per);
    });
}
