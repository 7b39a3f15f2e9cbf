//! Vital walls (docs/status.md 2b): a static proof of first-class life for chains that
//! Benson's test shows unconditionally alive through small enclosed areas, each *vital* to
//! them.
//!
//! For colour D, a *pocket* is a maximal connected set of points holding no D stone (empty
//! points and A stones); a pocket is *vital* to a D chain c when it holds an empty point
//! and every point of the pocket, stone or empty, is next to c. Benson's iteration keeps the chains with two
//! vital pockets whose bordering chains are all kept. Claim: every kept chain is in case
//! F1 or F2 (STATUS.md Section 4), with A moving first.
//!
//! Proof sketch (the full argument is in docs/status.md). Invariant: every vital pocket of
//! every kept chain holds an empty point. A can never play the last empty point of a
//! pocket (his stone would have no liberty and capture nothing, since each kept chain has
//! a liberty in another vital pocket), so A never captures a kept chain, and every D stone
//! played in a pocket joins a kept chain (all pocket points are next to one), so it is
//! never captured either and never makes a ko capture. D's strategy: in each pocket, while
//! it holds two empty points, fill one; when it holds one empty point and A stones, play
//! there: every A chain of the pocket has that point as its last liberty and is captured,
//! and its points (next to the chain too) are empty again. Each D move adds a D stone to a
//! pocket and none is ever removed, so this ends with one empty point and D stones
//! everywhere else in each pocket; that point is an eye whose neighbours are all kept
//! stones, every kept chain touches the eyes of its two vital pockets, and all of them are
//! in X* (Decision 3): T holds and G held throughout. So the kept chains are F2 (F1 when
//! already in X*), and the A stones in their pockets are dead: D captures them whenever
//! he likes and A can never play in a finished pocket again.
//!
//! The kept chains never lose a stone and their pockets never hold a stone of A that
//! survives D's filling, so for the rest of the board they are walls: the points around
//! them are split into regions exactly as around frozen first-class chains (Section 7).

use super::pocket_walls;
use crate::geometry::Geometry;
use crate::status::search::grid::{board_neighbours, components};

/// The chains of colour `c` (1 Black, 2 White) proven first-class by the test above, and
/// their vital pockets: `(chain indices, pocket points)`. The A chains inside those
/// pockets are left to the caller (their region is the pocket).
pub(crate) fn vital_walls(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    c: u8,
) -> (Vec<usize>, Vec<Vec<usize>>) {
    let pockets = components(geo, |p| cells[p] != c, |_, _| true);
    // For each pocket: all empty, and the chains of c around it; vital to which chains.
    let mut around: Vec<Vec<usize>> = Vec::with_capacity(pockets.len());
    let mut vital_to: Vec<Vec<usize>> = Vec::with_capacity(pockets.len());
    for pocket in &pockets {
        let ks = pocket_walls(geo, cells, chain_of, c, pocket);
        let open = pocket.iter().any(|&p| cells[p] == 0);
        let vital: Vec<usize> = if open {
            ks.iter()
                .copied()
                .filter(|&k| {
                    pocket.iter().all(|&p| {
                        board_neighbours(geo, p).any(|q| cells[q] == c && chain_of[q] == k)
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        around.push(ks);
        vital_to.push(vital);
    }
    let mut kept: Vec<bool> = chains.iter().map(|ch| cells[ch[0]] == c).collect();
    let mut live: Vec<bool> = vital_to.iter().map(|v| !v.is_empty()).collect();
    loop {
        let mut count = vec![0usize; chains.len()];
        for (r, v) in vital_to.iter().enumerate() {
            if live[r] {
                for &k in v {
                    count[k] += 1;
                }
            }
        }
        let mut changed = false;
        for k in 0..chains.len() {
            if kept[k] && count[k] < 2 {
                kept[k] = false;
                changed = true;
            }
        }
        for r in 0..pockets.len() {
            if live[r] && around[r].iter().any(|&k| !kept[k]) {
                live[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let walls: Vec<usize> = (0..chains.len()).filter(|&k| kept[k]).collect();
    let vital = pockets
        .into_iter()
        .zip(live)
        .filter(|&(_, l)| l)
        .map(|(p, _)| p)
        .collect();
    (walls, vital)
}
