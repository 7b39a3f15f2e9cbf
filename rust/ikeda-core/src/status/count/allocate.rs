//! The final allocation of STATUS.md Section 5 (Decision 11) and the Japanese-style count
//! of Section 6 (Decision 12).

use crate::color::Color;
use crate::geometry::Geometry;
use crate::status::report::{Case, Count, Status};
use crate::status::search::grid::{board_neighbours, components};

/// Section 5's surrounding test: flood from the chain through empty points and stones of
/// its colour of class N; it is dead when every stone met at the border of that area is an
/// opponent stone of class F (the board edge is no border).
fn surrounded(
    geo: Geometry,
    cells: &[u8],
    chain_of: &[usize],
    cases: &[Case],
    start: &[usize],
) -> bool {
    let own = cells[start[0]];
    let mut seen = vec![false; geo.points()];
    let mut area: Vec<usize> = start.to_vec();
    for &p in start {
        seen[p] = true;
    }
    let mut k = 0;
    while k < area.len() {
        let p = area[k];
        k += 1;
        for q in board_neighbours(geo, p) {
            if seen[q] {
                continue;
            }
            let class = (cells[q] != 0).then(|| cases[chain_of[q]].class());
            if cells[q] == 0 || (cells[q] == own && class == Some('N')) {
                seen[q] = true;
                area.push(q);
            } else if cells[q] == own || class != Some('F') {
                return false; // own S/F stones, or opponent stones that are not F
            }
        }
    }
    true
}

/// Statuses of the chains (Decision 11) and the count (Decision 12).
pub(crate) fn allocate(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    colors: &[Color],
    cases: &[Case],
    strict: bool,
) -> (Vec<Status>, Count) {
    let mut chain_of = vec![usize::MAX; geo.points()];
    for (k, ch) in chains.iter().enumerate() {
        for &p in ch {
            chain_of[p] = k;
        }
    }
    let mut status: Vec<Status> = chains
        .iter()
        .zip(cases)
        .map(|(ch, case)| match (case, case.class()) {
            // An estimate says alive or dead outright: the surrounding test reads the
            // classes of the neighbours, which are estimates too, and would turn a chain
            // next to another estimated-dead chain into seki stones.
            (Case::Estimated(_), 'N') => Status::Dead,
            (_, 'F') => Status::Alive,
            (_, 'S') => Status::Seki,
            _ if surrounded(geo, cells, &chain_of, cases, ch) => Status::Dead,
            _ => Status::Seki,
        })
        .collect();

    // Remove the dead stones, then find the empty regions of the cleaned board and the
    // chains each one touches.
    let mut dead = [0u32; 2];
    let mut clean = cells.to_vec();
    for (k, ch) in chains.iter().enumerate() {
        if status[k] == Status::Dead {
            dead[colors[k].index()] += ch.len() as u32;
            for &p in ch {
                clean[p] = 0;
            }
        }
    }
    let regions = components(geo, |p| clean[p] == 0, |_, _| true);
    let touching: Vec<Vec<usize>> = regions
        .iter()
        .map(|region| {
            let mut ks: Vec<usize> = region
                .iter()
                .flat_map(|&p| board_neighbours(geo, p))
                .filter(|&q| clean[q] != 0)
                .map(|q| chain_of[q])
                .collect();
            ks.sort_unstable();
            ks.dedup();
            ks
        })
        .collect();
    let one_colour =
        |ks: &[usize]| !ks.is_empty() && ks.iter().all(|&k| colors[k] == colors[ks[0]]);
    if strict {
        // Art. 8 literally: a dame is an empty point not surrounded by the stones of one
        // player only; alive chains that touch a dame are in seki.
        for ks in &touching {
            if !one_colour(ks) {
                for &k in ks {
                    if status[k] == Status::Alive {
                        status[k] = Status::Seki;
                    }
                }
            }
        }
    }
    let mut territory = [0u32; 2];
    let mut owner = vec![0u8; geo.points()];
    for (region, ks) in regions.iter().zip(&touching) {
        if one_colour(ks) && ks.iter().all(|&k| status[k] == Status::Alive) {
            let c = colors[ks[0]];
            territory[c.index()] += region.len() as u32;
            for &p in region {
                owner[p] = c as u8;
            }
        }
    }
    (
        status,
        Count {
            territory,
            dead,
            owner,
        },
    )
}
