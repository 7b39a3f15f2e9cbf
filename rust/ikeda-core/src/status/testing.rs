//! Test helpers of status/: positions from diagrams, a confirmation read back as
//! diagrams, chains, and random legal positions.

use crate::geometry::Geometry;
use crate::status::count::confirm::confirm_status;
use crate::status::options::StatusOptions;
use crate::status::report::{Status, StatusReport};
use crate::status::search::grid::{board_neighbours, components};

/// Rows top first, `X` `O` `.` → the geometry and the cells (1 black, 2 white, 0 empty).
pub(crate) fn diagram(rows: &[&str]) -> (Geometry, Vec<u8>) {
    let geo = Geometry::new(rows[0].len(), rows.len()).unwrap();
    let cells = rows
        .iter()
        .flat_map(|r| r.bytes())
        .map(|b| match b {
            b'X' => 1,
            b'O' => 2,
            _ => 0,
        })
        .collect();
    (geo, cells)
}

/// Rows top first, `X` `O` `.` → (status rows, class rows).
pub(crate) fn confirm(
    rows: &[&str],
    opts: &StatusOptions,
) -> (Vec<String>, Vec<String>, StatusReport) {
    let (geo, cells) = diagram(rows);
    let report = match confirm_status(geo, &cells, opts) {
        Ok(r) => r,
        Err(e) => panic!("{e:?}"),
    };
    let mut status = vec![b'.'; cells.len()];
    let mut class = vec![b'.'; cells.len()];
    for ch in &report.chains {
        for &p in &ch.stones {
            status[p] = match ch.status {
                Status::Alive => b'a',
                Status::Seki => b's',
                Status::Dead => b'd',
            };
            class[p] = ch.case.class() as u8;
        }
    }
    let w = geo.width as usize;
    let rows = |v: Vec<u8>| {
        v.chunks(w)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect()
    };
    (rows(status), rows(class), report)
}

/// The chains of a position (`search::grid::components`) and each point's chain index
/// (`usize::MAX` on an empty point).
pub(crate) fn chains_of(geo: Geometry, cells: &[u8]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let chains = components(geo, |p| cells[p] != 0, |p, q| cells[p] == cells[q]);
    let mut chain_of = vec![usize::MAX; cells.len()];
    for (k, ch) in chains.iter().enumerate() {
        for &p in ch {
            chain_of[p] = k;
        }
    }
    (chains, chain_of)
}

/// A random row of `width` cells drawn uniformly from `alphabet` (8 symbols) by a linear
/// congruential generator advancing `seed`.
pub(crate) fn random_row(seed: &mut u64, width: usize, alphabet: &[char; 8]) -> String {
    (0..width)
        .map(|_| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            alphabet[(*seed >> 61) as usize]
        })
        .collect()
}

/// `rows` with the chains that have no liberty taken off, until the position can exist.
pub(crate) fn legal_rows(mut rows: Vec<String>) -> Vec<String> {
    loop {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let (geo, cells) = diagram(&refs);
        let (chains, _) = chains_of(geo, &cells);
        let Some(dead) = chains.iter().find(|ch| {
            ch.iter()
                .all(|&p| board_neighbours(geo, p).all(|q| cells[q] != 0))
        }) else {
            return rows;
        };
        let w = usize::from(geo.width);
        for &p in dead {
            let (y, x) = (p / w, p % w);
            rows[y].replace_range(x..=x, ".");
        }
    }
}
