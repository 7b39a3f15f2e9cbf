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
    ("straight_four_6x4", &["X....X", "XXXXXX", "OOOOOO", "O.OO.O"], Case::F2),
    // Bulky five: White takes the vital point and Black dies (N).
    ("bulky_five", &["...XO.", "..XXOO", "XXXOO.", "OOOOOO", "......"], Case::N),
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
                let chain = report.chains.iter().find(|c| c.stones[0] == first_black).unwrap();
                assert_eq!(chain.case, case, "{name}");
            });
        });
    }
    group.finish();
}

criterion_group!(status, benches);
criterion_main!(status);
