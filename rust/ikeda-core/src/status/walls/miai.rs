//! The miai cover of a pocket's interior (docs/status.md 2e): pairs of empty points that
//! let D reach every point of a pocket from its safe walls, whatever A does, after Müller's
//! 1-vital regions (GPW 1997) and Fuego's `GoRegion::Find2ConnForAllInterior` (the pairs
//! found recursively, one layer of the pocket after another).
//!
//! A point of the pocket is *near* when it is next to a safe D stone, *interior* otherwise.
//! A cover is an order z1, z2, ... of interior points, each with a pair of its empty
//! neighbours, every pair point near or an empty interior point earlier in the order, no
//! point in two pairs. Whichever point of z's pair A takes, D takes the other: then z is
//! next to a D stone joined to the walls (by induction along the order), so z can never be
//! A's eye, and a D stone on it is joined to the walls too. How `no_life.rs` turns a
//! cover into a proof is in docs/status.md.

use crate::geometry::Geometry;
use crate::status::search::grid::board_neighbours;

/// A miai cover of `pocket`'s interior: the pairs in their order, and the interior points
/// left without one.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Cover {
    /// `(z, [a, b])`: interior point z, covered by its empty neighbours a and b.
    pub pairs: Vec<(usize, [usize; 2])>,
    /// Interior points that no pair covers.
    pub uncovered: Vec<usize>,
}

impl Cover {
    /// Whether A cannot live where this cover lies (docs/status.md 2e): every interior point
    /// covered but at most one, and that one with two on-board neighbours or more. One point
    /// left over is captured at once when it is the last liberty; two could be two eyes (or
    /// one eye and a capture).
    pub(crate) fn hopeless(&self, geo: Geometry) -> bool {
        match self.uncovered[..] {
            [] => true,
            [z] => board_neighbours(geo, z).count() >= 2,
            _ => false,
        }
    }
}

/// Covers the interior of `pocket` (points of the board, ascending) greedily: `near(p)`
/// tells the points next to a safe D stone, `empty(p)` the empty ones. A point that is
/// covered and empty becomes a pair point for the interior points after it. Of an interior
/// point's candidates, the ones fewest other uncovered interior points could use are taken
/// first. Linear in the pocket's size per layer.
pub(crate) fn miai_cover(
    geo: Geometry,
    pocket: &[usize],
    near: impl Fn(usize) -> bool,
    empty: impl Fn(usize) -> bool,
) -> Cover {
    let inside = |p: usize| pocket.binary_search(&p).is_ok();
    let mut free = vec![false; geo.points()];
    for &p in pocket {
        free[p] = near(p) && empty(p);
    }
    let mut uncovered: Vec<usize> = pocket.iter().copied().filter(|&p| !near(p)).collect();
    let mut open = vec![false; geo.points()];
    for &z in &uncovered {
        open[z] = true;
    }
    let mut pairs = Vec::new();
    loop {
        let before = uncovered.len();
        let mut i = 0;
        while i < uncovered.len() {
            let z = uncovered[i];
            // How many uncovered interior points other than z could use a point.
            let demand = |q: usize| {
                board_neighbours(geo, q)
                    .filter(|&r| r != z && open[r])
                    .count()
            };
            let mut cands: Vec<usize> = board_neighbours(geo, z)
                .filter(|&q| inside(q) && free[q])
                .collect();
            if cands.len() < 2 {
                i += 1;
                continue;
            }
            cands.sort_by_key(|&q| (demand(q), q));
            let pair = [cands[0], cands[1]];
            for q in pair {
                free[q] = false;
            }
            if empty(z) {
                free[z] = true;
            }
            pairs.push((z, pair));
            open[z] = false;
            uncovered.remove(i);
        }
        if uncovered.len() == before {
            break;
        }
    }
    Cover { pairs, uncovered }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::testing::diagram;

    /// The cover of White's pocket holding the top-left point of a diagram, White's stones
    /// taken as safe.
    fn cover(rows: &[&str]) -> Cover {
        let (geo, cells) = diagram(rows);
        let pocket = crate::status::search::grid::components(geo, |p| cells[p] != 2, |_, _| true)
            .into_iter()
            .find(|pocket| pocket.contains(&0))
            .unwrap();
        miai_cover(
            geo,
            &pocket,
            |p| board_neighbours(geo, p).any(|q| cells[q] == 2),
            |p| cells[p] == 0,
        )
    }

    #[test]
    fn interior_points_are_covered_layer_by_layer() {
        // A 4x2 strip inside White's wall: C4 is covered by D4 and C3 (near), then B4 by
        // B3 and C4, then A4 by A3 and B4: every pair point used once.
        let c = cover(&["....O", "....O", "OOOOO"]);
        assert!(c.uncovered.is_empty(), "{c:?}");
        assert_eq!(c.pairs, [(2, [3, 7]), (1, [2, 6]), (0, [1, 5])]);
    }

    #[test]
    fn a_stone_on_a_pair_point_leaves_the_points_behind_it_uncovered() {
        // A Black stone on B3 takes B4's second candidate, and A4 then has none.
        let c = cover(&["....O", ".X..O", "OOOOO"]);
        assert_eq!(c.uncovered, [0, 1], "{c:?}");
    }

    #[test]
    fn a_long_strip_has_no_cover() {
        // The second line of a 1x6 strip along the edge, walled on one side only: the
        // interior points each have a single near neighbour.
        let c = cover(&["......", "......", "OOOOOO"]);
        assert_eq!(c.uncovered.len(), 6, "{c:?}");
    }
}
