//! The public entry: a whole position confirmed (docs/status.md, steps 1-5). It freezes
//! the first-class chains and the vital walls, proves the credited groups, splits the
//! rest of the board into independent regions (Section 7) and searches them one after
//! another, estimates what no search reached when asked to, classifies every chain
//! (Decision 2) and hands the cases to the allocation.
//!
//! Why regions are exact: a chain that is first-class at the start keeps its eyes for
//! ever (Decision 3, and Decision 7(a) keeps its owner out of them), so its stones and eyes
//! never change. The other points fall into connected regions separated by those frozen
//! walls. Every goal of a chain depends only on its own region, and a move in another
//! region is, seen from this one, a pass (it lifts a simple-ko ban like a pass, and a
//! ko-pass made for bans elsewhere lifts nothing here). So each region is searched alone,
//! with both players free to pass, and gives the same answer as the whole board.

use super::allocate::allocate;
use crate::board::Board;
use crate::color::Color;
use crate::geometry::{Geometry, MAX_CELLS};
use crate::status::estimate::conditional::refine;
use crate::status::estimate::ownership::ownership_counts;
use crate::status::options::{StatusOptions, Unresolved};
use crate::status::report::{Case, ChainStatus, Proof, RegionReport, StatusError, StatusReport};
use crate::status::search::grid::{components, first_class_chains, Grid, PointSet, WideSet};
use crate::status::search::region::{reason, solve_region};
use crate::status::walls::credit::credited_groups;
use crate::status::walls::no_life::dead_in_hopeless_pockets;
use crate::status::walls::vital::vital_walls;

/// Confirms the status of every chain of a position (`cells`: flat, row-major from the
/// top left, 0 empty, 1 Black, 2 White) and counts it.
pub fn confirm_status(
    geo: Geometry,
    cells: &[u8],
    opts: &StatusOptions,
) -> Result<StatusReport, StatusError> {
    let pick = |c: u8| {
        (0..geo.points())
            .filter(|&p| cells[p] == c)
            .collect::<Vec<_>>()
    };
    if cells.len() != geo.points() {
        return Err(StatusError::Cells(format!(
            "{} cells for a board of {} points",
            cells.len(),
            geo.points()
        )));
    }
    if let Some(p) = cells.iter().position(|&c| c > 2) {
        return Err(StatusError::Cells(format!(
            "cell {p} holds {}, not 0, 1 or 2",
            cells[p]
        )));
    }
    Board::<MAX_CELLS>::from_setup(geo, &pick(1), &pick(2)).map_err(StatusError::Setup)?;

    let chains = components(geo, |p| cells[p] != 0, |p, q| cells[p] == cells[q]);
    let mut case: Vec<Option<(Case, Proof)>> = vec![None; chains.len()];
    let mut chain_of = vec![usize::MAX; geo.points()];
    for (k, ch) in chains.iter().enumerate() {
        for &p in ch {
            chain_of[p] = k;
        }
    }

    // Freeze what is first-class at the start (Section 7): its stones and eyes; then the
    // vital walls (`walls/vital.rs`, F2 by a static proof) and their pockets.
    let mut frozen = vec![false; geo.points()];
    if opts.split && opts.prune {
        let whole: Grid<WideSet> = Grid::new(geo, cells, (0..geo.points()).collect());
        let set = |c: u8| {
            (0..geo.points())
                .filter(|&p| cells[p] == c)
                .fold(WideSet::EMPTY, |acc, p| acc | WideSet::single(p))
        };
        for c in [Color::Black, Color::White] {
            let fc = whole.first_class(c, set(c as u8), set(0));
            for p in (fc.stones | fc.eyes).points() {
                frozen[p] = true;
            }
        }
        for (k, ch) in chains.iter().enumerate() {
            if frozen[ch[0]] {
                case[k] = Some((Case::F1, Proof::Static));
            }
        }
        for c in [1u8, 2] {
            let (walls, pockets) = vital_walls(geo, cells, &chains, &chain_of, c);
            for k in walls {
                case[k].get_or_insert((Case::F2, Proof::Static));
                for &p in &chains[k] {
                    frozen[p] = true;
                }
            }
            // An empty pocket needs no search; one holding stones of the other colour is
            // searched as a region of its own, walled by the vital walls.
            for pocket in pockets
                .into_iter()
                .filter(|pocket| pocket.iter().all(|&p| cells[p] == 0))
            {
                for p in pocket {
                    frozen[p] = true;
                }
            }
        }
        // Pockets where the attacker cannot live (`walls/no_life.rs`): walled by frozen
        // stones only, at most one point off them. Their A chains are N by a static proof,
        // so the pocket is frozen and needs no search.
        let safe = frozen.clone();
        for c in [1u8, 2] {
            let (dead, pockets) =
                dead_in_hopeless_pockets(geo, cells, &chains, &chain_of, c, &safe);
            for k in dead {
                case[k].get_or_insert((Case::N, Proof::Static));
            }
            for p in pockets.into_iter().flatten() {
                frozen[p] = true;
            }
        }
    }
    // Credited groups (`walls/credit.rs`): walls proven F2 and the A chains of their settled
    // pockets proven N. They are not frozen: the search of their region, where it is
    // within reach, decides them again exactly; where it is not, these proofs stand.
    let mut claimed: Vec<Option<Case>> = vec![None; chains.len()];
    if opts.split && opts.prune {
        let first = first_class_chains(geo, cells, &chains);
        for c in [1u8, 2] {
            let found = credited_groups(geo, cells, &chains, &chain_of, c, &first, opts.proof_work);
            for k in found.walls {
                claimed[k] = Some(Case::F2);
            }
            for k in found.dead {
                claimed[k] = Some(Case::N);
            }
        }
    }
    let regions = components(geo, |p| !frozen[p], |_, _| true);

    // Regions are independent. They are searched one after another, smallest first, so
    // that one budget and one memory bound hold for the whole confirmation and the answer
    // does not depend on the thread count; a refusal stops the confirmation at once.
    let mut work: Vec<(Vec<usize>, Vec<usize>)> = regions
        .into_iter()
        .map(|points| {
            let mut tracked: Vec<usize> = points
                .iter()
                .filter(|&&p| cells[p] != 0)
                .map(|&p| chain_of[p])
                .collect();
            tracked.sort_unstable();
            tracked.dedup();
            (points, tracked)
        })
        .filter(|(_, tracked)| !tracked.is_empty()) // nothing to confirm in an empty region
        .collect();
    work.sort_by_key(|(points, _)| (points.len(), points[0]));
    let mut left = opts.budget;
    let mut reports = Vec::new();
    let mut unresolved: Vec<usize> = Vec::new();
    for (points, tracked) in work {
        if tracked.iter().all(|&k| claimed[k].is_some()) {
            // Every chain of the region is proven by the credited groups' proof: a search
            // could only prove the same again, and one that runs out of its budget spends
            // seconds for nothing. Debug builds still search it, on a budget of their own
            // (the answer must not depend on the build), to check the claims.
            if cfg!(debug_assertions) {
                let mut own = opts.budget;
                if let Ok((found, _)) =
                    solve_region(geo, cells, &chains, &tracked, &points, opts, &mut own)
                {
                    for (&k, found) in tracked.iter().zip(found) {
                        assert!(
                            claimed[k].is_some_and(|c| c.class() == found.class()),
                            "credited-group proof {:?} against search {found:?}",
                            claimed[k]
                        );
                    }
                }
            }
            for &k in &tracked {
                case[k] = claimed[k].map(|found| (found, Proof::Static));
            }
            reports.push(RegionReport {
                points,
                states: 0,
                unresolved: None,
            });
            continue;
        }
        match solve_region(geo, cells, &chains, &tracked, &points, opts, &mut left) {
            Ok((found, states)) => {
                for (&k, found) in tracked.iter().zip(found) {
                    debug_assert!(
                        claimed[k].is_none_or(|c| c.class() == found.class()),
                        "credited-group proof {:?} against search {found:?}",
                        claimed[k]
                    );
                    case[k] = Some((found, Proof::Searched));
                }
                reports.push(RegionReport {
                    points,
                    states,
                    unresolved: None,
                });
            }
            Err((why, states)) => {
                // Chains proven by the credited groups' proof keep that proof; only the others
                // are unresolved.
                let open: Vec<usize> = tracked
                    .iter()
                    .copied()
                    .filter(|&k| claimed[k].is_none())
                    .collect();
                if opts.unresolved == Unresolved::Refuse && !open.is_empty() {
                    return Err(StatusError::Budget {
                        region: points,
                        reason: reason(&why, opts),
                    });
                }
                for &k in &tracked {
                    if let Some(found) = claimed[k] {
                        case[k] = Some((found, Proof::Static));
                    }
                }
                if open.is_empty() {
                    reports.push(RegionReport {
                        points,
                        states,
                        unresolved: None,
                    });
                    continue;
                }
                unresolved.extend(open);
                reports.push(RegionReport {
                    points,
                    states,
                    unresolved: Some(reason(&why, opts)),
                });
            }
        }
    }
    reports.sort_by_key(|r| r.points[0]);

    if let (Unresolved::Estimate { playouts, seed }, false) =
        (opts.unresolved, unresolved.is_empty())
    {
        let owned = ownership_counts(geo, cells, playouts, seed).map_err(StatusError::Setup)?;
        for &k in &unresolved {
            let c = usize::from(cells[chains[k][0]] - 1);
            let own: u64 = chains[k].iter().map(|&p| u64::from(owned[p][c])).sum();
            // Alive when its own colour holds its points in most playouts, dead otherwise.
            let class = if 2 * own > u64::from(playouts) * chains[k].len() as u64 {
                'F'
            } else {
                'N'
            };
            case[k] = Some((Case::Estimated(class), Proof::Estimated));
        }
        refine(
            geo,
            cells,
            &chains,
            &chain_of,
            &frozen,
            &unresolved,
            &owned,
            playouts,
            &mut case,
            opts,
        );
    }

    let (cases, proofs): (Vec<Case>, Vec<Proof>) = case
        .into_iter()
        .map(|c| c.expect("every chain classified"))
        .unzip();
    let colors: Vec<Color> = chains
        .iter()
        .map(|ch| {
            if cells[ch[0]] == 1 {
                Color::Black
            } else {
                Color::White
            }
        })
        .collect();
    let (statuses, count) = allocate(geo, cells, &chains, &colors, &cases, opts.strict_dame_seki);
    let mut out: Vec<ChainStatus> = chains
        .into_iter()
        .zip(colors)
        .zip(cases.into_iter().zip(statuses).zip(proofs))
        .map(|((stones, color), ((case, status), proof))| ChainStatus {
            color,
            stones,
            case,
            status,
            proof,
        })
        .collect();
    out.sort_by_key(|c| (c.color.index(), c.stones[0]));
    Ok(StatusReport {
        chains: out,
        regions: reports,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::limits::{DEFAULT_BUDGET, WIDE_SHARE};
    use crate::status::options::StatusKo;
    use crate::status::testing::{confirm, diagram};
    use crate::Status;

    fn check(rows: &[&str], status: &[&str]) {
        for opts in [
            StatusOptions::default(),
            StatusOptions {
                split: false,
                ..StatusOptions::default()
            },
        ] {
            let (got, _, _) = confirm(rows, &opts);
            assert_eq!(got, status, "{rows:?} with {opts:?}");
        }
    }

    #[test]
    fn sample_shapes() {
        check(
            &["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"],
            &["a.aa.a", ".aaaa.", "aaaaaa", "a.aa.a"],
        );
        check(
            &[".XO.O", "XXOOO", "OOO.O", "O.OOO"],
            &[".da.a", "ddaaa", "aaa.a", "a.aaa"],
        );
        check(
            &[".X.XO", "XXXOO", "OOOO.", ".O.OO"],
            &[".d.da", "dddaa", "aaaa.", ".a.aa"],
        );
        check(
            &["X.X.XO.XO.O.O", "XXXXXO.XOOOOO"],
            &["a.a.as.sa.a.a", "aaaaas.saaaaa"],
        );
        check(
            &["X...X", "XXXXX", "OOOOO", "O.O.O"],
            &["d...d", "ddddd", "aaaaa", "a.a.a"],
        );
        check(&[".XOX.", "XXOOO", ".XXXX"], &[".ada.", "aaddd", ".aaaa"]);
    }

    /// `shape` below bands of first-class chains (a White band, then a Black one, each
    /// one chain with two eyes) until the board has more than 128 points, six wide.
    fn under_bands(shape: &[&'static str]) -> Vec<&'static str> {
        let mut rows = Vec::new();
        while (rows.len() + shape.len()) * 6 <= 128 {
            rows.extend(["XXXXXX", "X.XX.X", "XXXXXX", "OOOOOO", "O.OO.O", "OOOOOO"]);
        }
        rows.extend(shape);
        rows
    }

    /// A region of more than 128 points is searched on a wider board: without the split
    /// the whole board is one region, and the answers are those of the split, whose
    /// regions are small.
    #[test]
    fn regions_over_128_points_are_searched() {
        // Two White stones dead in a Black area (the Black chain first-class by its two
        // eyes), and the bent four in the corner, where Black dies.
        let dead_inside = under_bands(&["XXXXXX", "X.XX.X", "XXXXXX", "XO.O.X"]);
        let bent_four = under_bands(&[".O.O.O", "OOOOOO", "XXOOOO", ".XXXO.", "...XOO"]);
        for (rows, black_class, ko) in [
            (dead_inside.clone(), 'F', StatusKo::Simple),
            (dead_inside, 'F', StatusKo::Koban),
            (bent_four, 'N', StatusKo::Simple),
        ] {
            let (geo, cells) = diagram(&rows);
            assert!(geo.points() > 128);
            let (split, split_class, r) = confirm(
                &rows,
                &StatusOptions {
                    ko,
                    ..StatusOptions::default()
                },
            );
            assert!(
                r.regions.iter().all(|g| g.points.len() <= 128),
                "{:?}",
                r.regions
            );
            // The share of a wide region is 1/64 of the budget: room for both colours'
            // start states of the bent four.
            let whole = StatusOptions {
                ko,
                split: false,
                budget: WIDE_SHARE * DEFAULT_BUDGET,
                ..StatusOptions::default()
            };
            let (got, class, r) = confirm(&rows, &whole);
            assert_eq!(r.regions.len(), 1);
            assert_eq!(
                r.regions[0].points.len(),
                geo.points() - cells.iter().filter(|&&c| c == 0).count()
                    + r.regions[0]
                        .points
                        .iter()
                        .filter(|&&p| cells[p] == 0)
                        .count()
            );
            assert!(
                r.regions[0].points.len() > 128,
                "{:?}",
                r.regions[0].points.len()
            );
            assert_eq!((got, class), (split, split_class.clone()), "{rows:?}");
            let low_black = cells.iter().rposition(|&c| c == 1).unwrap();
            assert_eq!(
                split_class.concat().as_bytes()[low_black],
                black_class as u8,
                "{split_class:?}"
            );
        }
    }

    /// The memory bound holds on the wide board too: a refusal, never an abort.
    #[test]
    fn the_memory_bound_refuses_a_wide_region() {
        let rows = under_bands(&[".O.O.O", "OOOOOO", "XXOOOO", ".XXXO.", "...XOO"]);
        let (geo, cells) = diagram(&rows);
        let opts = StatusOptions {
            split: false,
            memory: 1 << 20,
            ..StatusOptions::default()
        };
        match confirm_status(geo, &cells, &opts) {
            Err(StatusError::Budget { region, reason }) => {
                assert!(region.len() > 128);
                assert!(reason.contains("memory bound"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        // A small budget is refused as the wide region's share.
        let opts = StatusOptions {
            split: false,
            budget: WIDE_SHARE * 1000,
            ..StatusOptions::default()
        };
        match confirm_status(geo, &cells, &opts) {
            Err(StatusError::Budget { reason, .. }) => assert!(
                reason.contains("1000 states a region of more than 128 points"),
                "{reason}"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_region_whose_chains_are_all_credited_is_not_searched() {
        // Each wall's only eye is five points along the edge, which no static test but the
        // credited groups' proof shows alive; the whole board is one region of 15 empty
        // points, within the full budget, which a search would spend (seconds) to refuse.
        let (geo, cells) = diagram(&[".X.O."; 5]);
        let report = confirm_status(geo, &cells, &StatusOptions::default()).expect("confirmed");
        assert!(
            report
                .chains
                .iter()
                .all(|c| c.status == Status::Alive && c.proof == Proof::Static),
            "{report:?}"
        );
        assert!(report
            .regions
            .iter()
            .all(|r| r.states == 0 && r.unresolved.is_none()));
    }
}
