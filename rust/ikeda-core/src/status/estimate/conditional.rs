//! The conditional search of unresolved regions (docs/status.md, "Conditional search"):
//! after the estimate, the chains it calls alive with a wide margin are taken as walls, the
//! unresolved regions are split along them, and the small parts are searched exactly.
//!
//! This is not a proof. A wall is an estimate, and every answer found behind it is only as
//! good as the walls around it, so its chains carry [`Proof::Conditional`]. What it buys is
//! that the chains *inside* a territory or a shared area (dead stones, semeai, seki) are
//! decided by the exact hypothetical play of Sections 3-4 rather than by random playouts,
//! which break many sekis (a random player fills a shared liberty or throws in) and
//! misjudge groups with dead stones in their eyes. Given walls that are really
//! uncapturable, the answers are exactly those of the whole-board search, by the region
//! argument of Section 7: the search treats the walls as frozen stones, which is what they
//! are then.
//!
//! A chain is a wall when the estimate gives it to its own colour (in more than
//! [`WALL_OWNERSHIP`] of the playouts) and it has at least [`WALL_LIBERTIES`] liberties
//! that its colour holds in most playouts: seki stones (whose shared liberties the
//! playouts leave to nobody) and chains short of liberties stay inside the regions, where
//! the search decides them. The conditional pass has a budget of its own, as large as the
//! confirmation's (`budget` states), and no region may take more than 1/[`CONDITIONAL_SHARE`]
//! of it; regions are searched one after another, fewest empty points first, under the
//! same memory bound; one of more than [`MAX_CONDITIONAL_EMPTY`] empty points is not searched.
//! A region that does not fit keeps the estimate, unless it holds chains of both colours
//! sharing a liberty: then `seki.rs` reads it again under the settling rule, and the
//! chains it finds in seki with each other take that answer.

use super::seki;
use crate::geometry::Geometry;
use crate::status::limits::{
    CONDITIONAL_SHARE, MAX_CONDITIONAL_EMPTY, WALL_LIBERTIES, WALL_OWNERSHIP,
};
use crate::status::options::StatusOptions;
use crate::status::report::{Case, Proof};
use crate::status::search::grid::{board_neighbours, components};
use crate::status::search::region::solve_region;

/// Liberties of the chain `ch` on `cells` that its own colour `c` holds at the end of most
/// playouts: its eyes and territory, not the shared liberties of a seki, which the
/// playouts leave to nobody.
fn held_liberties(
    geo: Geometry,
    cells: &[u8],
    ch: &[usize],
    owned: &[[u32; 2]],
    c: usize,
    playouts: u32,
) -> usize {
    let mut libs: Vec<usize> = ch
        .iter()
        .flat_map(|&p| board_neighbours(geo, p))
        .filter(|&q| cells[q] == 0 && 2 * owned[q][c] > playouts)
        .collect();
    libs.sort_unstable();
    libs.dedup();
    libs.len()
}

/// Decides again the `unresolved` chains (already estimated in `case`) whose regions,
/// split along the walls, can be searched within `budget` states: their cases become the
/// searched ones, with [`Proof::Conditional`]. `owned[p][c]`: playouts in which colour c
/// (0 Black, 1 White) held point p; `frozen`: the points frozen before the search.
#[allow(clippy::too_many_arguments)]
pub(crate) fn refine(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    frozen: &[bool],
    unresolved: &[usize],
    owned: &[[u32; 2]],
    playouts: u32,
    case: &mut [Option<(Case, Proof)>],
    opts: &StatusOptions,
) {
    let mut open = vec![false; chains.len()];
    for &k in unresolved {
        open[k] = true;
    }
    let mut wall = frozen.to_vec();
    // Chains proven first-class without being frozen (the credited groups of
    // `walls/credit.rs`, in a region the search could not finish) are walls for good.
    for (k, ch) in chains.iter().enumerate() {
        if !open[k]
            && !frozen[ch[0]]
            && matches!(case[k], Some((c, Proof::Static)) if c.class() == 'F')
        {
            for &p in ch {
                wall[p] = true;
            }
        }
    }
    for &k in unresolved {
        let c = usize::from(cells[chains[k][0]] - 1);
        let own: u64 = chains[k].iter().map(|&p| u64::from(owned[p][c])).sum();
        let share = own as f64 / (f64::from(playouts) * chains[k].len() as f64);
        if share > WALL_OWNERSHIP
            && held_liberties(geo, cells, &chains[k], owned, c, playouts) >= WALL_LIBERTIES
        {
            open[k] = false;
            for &p in &chains[k] {
                wall[p] = true;
            }
        }
    }
    let regions = components(geo, |p| !wall[p], |_, _| true);
    let mut work: Vec<(Vec<usize>, Vec<usize>)> = regions
        .into_iter()
        .filter_map(|points| {
            let mut tracked: Vec<usize> = points
                .iter()
                .filter(|&&p| cells[p] != 0)
                .map(|&p| chain_of[p])
                .collect();
            tracked.sort_unstable();
            tracked.dedup();
            // Only the parts of unresolved regions: chains still open, and perhaps chains
            // proven there already (dead stones of a credited group), whose proof stands.
            let inside = |k: usize| open[k] || matches!(case[k], Some((_, Proof::Static)));
            (tracked.iter().any(|&k| open[k]) && tracked.iter().all(|&k| inside(k)))
                .then_some((points, tracked))
        })
        .collect();
    // The search grows with the empty points, not the stones: fewest empty points first,
    // and no region may take more than a share of the budget, so that one hopeless
    // region does not starve the others.
    let empty_points = |points: &[usize]| points.iter().filter(|&&p| cells[p] == 0).count();
    work.sort_by_cached_key(|(points, _)| (empty_points(points), points.len(), points[0]));
    let mut left = opts.budget;
    let mut seki_left = opts.budget;
    for (points, tracked) in work {
        let cap = (opts.budget / CONDITIONAL_SHARE).min(left);
        let mut allowed = cap;
        let result = if empty_points(&points) > MAX_CONDITIONAL_EMPTY {
            Err(())
        } else {
            solve_region(geo, cells, chains, &tracked, &points, opts, &mut allowed).map_err(|_| ())
        };
        left -= cap - allowed;
        match result {
            Ok((found, _)) => {
                for (&k, found) in tracked.iter().zip(found) {
                    if open[k] {
                        case[k] = Some((found, Proof::Conditional));
                    }
                }
            }
            // Beyond the exact search: a seki in the part is recognised by the settling
            // rule (`seki.rs`), under a budget of its own of the same size.
            Err(_) if !seki::candidates(geo, cells, chain_of, &tracked).is_empty() => {
                let found = seki::seki_cases(
                    geo,
                    cells,
                    chains,
                    chain_of,
                    &tracked,
                    &points,
                    opts,
                    opts.budget / CONDITIONAL_SHARE,
                    &mut seki_left,
                );
                for (k, found) in found.unwrap_or_default() {
                    if open[k] {
                        case[k] = Some((found, Proof::Conditional));
                    }
                }
            }
            Err(_) => {}
        }
    }
}
