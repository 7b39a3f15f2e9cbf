//! Criterion benchmarks of status confirmation (STATUS.md) on the shapes of its Section 8
//! and the straight four. Each bench asserts its answer.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ikeda_core::{confirm_status, Case, Geometry, StatusOptions};

fn cells(rows: &[&str]) -> (Geometry, Vec<u8>) {
    let geo = Geometry::new(rows[0].len(), rows.len()).unwrap();
    let cells = rows.iter().flat_map(|r| r.bytes()).map(|b| match b {
        b'X' => 1,
        b'O' => 2,
        _ => 0,
    });
    (geo, cells.collect())
}

/// `(name, rows, case of the chain at the first stone of Black)`.
const SHAPES: &[(&str, &[&str], Case)] = &[
    // Straight four on 6x4: alive, White moving first cannot stop two eyes (F2).
    (
        "straight_four_6x4",
        &["X....X", "XXXXXX", "OOOOOO", "O.OO.O"],
        Case::F2,
    ),
    // Bulky five: White takes the vital point and Black dies (N).
    (
        "bulky_five",
        &["...XO.", "..XXOO", "XXXOO.", "OOOOOO", "......"],
        Case::N,
    ),
];

/// The bent four in the corner below bands of first-class chains (six wide, 138 points):
/// searched without the split, the whole board is one region of more than 128 points.
const WIDE: &[&str] = &[
    "XXXXXX", "X.XX.X", "XXXXXX", "OOOOOO", "O.OO.O", "OOOOOO", "XXXXXX", "X.XX.X", "XXXXXX",
    "OOOOOO", "O.OO.O", "OOOOOO", "XXXXXX", "X.XX.X", "XXXXXX", "OOOOOO", "O.OO.O", "OOOOOO",
    ".O.O.O", "OOOOOO", "XXOOOO", ".XXXO.", "...XOO",
];

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("status");
    group.sample_size(10);
    for &(name, rows, case) in SHAPES {
        let (geo, cells) = cells(rows);
        let opts = StatusOptions::default();
        let first_black = cells.iter().position(|&c| c == 1).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                let report = confirm_status(geo, black_box(&cells), &opts).unwrap();
                let chain = report
                    .chains
                    .iter()
                    .find(|c| c.stones[0] == first_black)
                    .unwrap();
                assert_eq!(chain.case, case, "{name}");
            });
        });
    }
    // The search alone (no split, so no static proofs): the bent four on its own board
    // (`u128` search board) and below the bands (138 points, a wider board).
    let bent: &[&str] = &[".O.O.O", "OOOOOO", "XXOOOO", ".XXXO.", "...XOO"];
    for (name, rows) in [
        ("search_bent_four", bent),
        ("search_bent_four_138_points", WIDE),
    ] {
        let (geo, cells) = cells(rows);
        let opts = StatusOptions {
            split: false,
            budget: 32_000_000,
            ..StatusOptions::default()
        };
        let first_white = cells.iter().position(|&c| c == 2).unwrap();
        let low_black = cells.iter().rposition(|&c| c == 1).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                let report = confirm_status(geo, black_box(&cells), &opts).unwrap();
                let chain = report
                    .chains
                    .iter()
                    .find(|c| c.stones.contains(&low_black))
                    .unwrap();
                assert_eq!(chain.case, Case::N, "{name}");
                let top = report
                    .chains
                    .iter()
                    .find(|c| c.stones[0] == first_white)
                    .unwrap();
                assert_eq!(top.case.class(), 'F', "{name}");
            });
        });
    }
    group.finish();
}

criterion_group!(status, benches);
criterion_main!(status);
