//! Rule 4 checks in long games: legal masks of 19x19 positions after about 1,000, 10,000
//! and 70,000 random plays (eye-filling allowed, so stones are captured and the board
//! refills for ever), once as a single line of play and once copied after every play (the
//! search pattern). Each iteration computes the masks of the 16 consecutive positions
//! ending at that length, so one lucky position does not decide the figure. The cost must
//! not grow with the length of the game. Every mask is checked against one computed from a
//! plain set of the line's configuration hashes.

use std::collections::HashSet;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ikeda_core::{Cell, Color, Geometry, PlayRules, Position, CELLS_19};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

type P = Position<CELLS_19>;

const SAMPLES: usize = 16;

/// The legal mask from the rules' definition: empty, not suicide, and a capture must make
/// a configuration the line has not seen.
fn expected_mask(p: &P, seen: &HashSet<u128>, c: Color) -> Vec<bool> {
    let geo = p.geometry();
    let mut out = vec![false; geo.points() + 1];
    for (i, o) in out.iter_mut().enumerate().take(geo.points()) {
        let loc = geo.loc_of_index(i);
        if p.board().cell(loc) == Cell::Empty {
            let shape = p.board().shape(loc, c);
            let repeats = shape.captures && seen.contains(&p.board().hash_after(loc, c));
            *o = !shape.suicide && !repeats;
        }
    }
    out[geo.points()] = true;
    out
}

/// A line of uniform random legal plays (passing only when there is none) up to `plays`
/// plays; the last [`SAMPLES`] positions with the side to move and their expected masks.
fn long_game(plays: usize, copy_every_play: bool) -> Vec<(P, Color, Vec<bool>)> {
    let geo = Geometry::new(19, 19).unwrap();
    let mut p = P::new(geo, PlayRules::IKEDA);
    let mut line = vec![p.board().hash()];
    let mut seen: HashSet<u128> = line.iter().copied().collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut c = Color::Black;
    let mut copies = Vec::new();
    let mut samples = Vec::new();
    while p.plays() < plays {
        let legal = p.legal_plays(c);
        if legal.is_empty() {
            if p.legal_plays(c.opponent()).is_empty() {
                // Stuck (a full board whose one capture is banned): take back a few plays
                // and go on another way.
                for _ in 0..10 {
                    p.undo();
                    line.pop();
                }
                seen = line.iter().copied().collect();
            }
            c = c.opponent(); // a pass
            continue;
        }
        let (_, loc) = legal[(rng.next_u64() % legal.len() as u64) as usize];
        p.play_unchecked(loc, c);
        line.push(p.board().hash());
        seen.insert(p.board().hash());
        c = c.opponent();
        if copy_every_play {
            copies.push(p.fork());
            if copies.len() > 64 {
                copies.remove(0);
            }
        }
        if p.plays() + SAMPLES >= plays {
            let mask = expected_mask(&p, &seen, c);
            samples.push((if copy_every_play { p.fork() } else { p.clone() }, c, mask));
        }
    }
    samples.truncate(SAMPLES);
    samples
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("long_game_legal_mask_x16/19x19");
    group.sample_size(20);
    for (plays, copies) in [
        (1_000, false),
        (10_000, false),
        (70_000, false),
        (10_000, true),
    ] {
        let samples = long_game(plays, copies);
        assert_eq!(samples.len(), SAMPLES);
        let name = if copies {
            format!("{plays}_plays_copied_every_play")
        } else {
            format!("{plays}_plays")
        };
        group.bench_function(name, |b| {
            let mut out = vec![false; 362];
            b.iter(|| {
                for (p, color, _) in &samples {
                    p.legal_mask(black_box(*color), &mut out);
                }
            });
            for (p, color, expected) in &samples {
                p.legal_mask(*color, &mut out);
                assert_eq!(&out, expected);
            }
        });
    }
    group.finish();
}

criterion_group!(history, benches);
criterion_main!(history);
