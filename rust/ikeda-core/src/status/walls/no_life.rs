//! Pockets where the attacker cannot live (docs/status.md 2e): a static proof that the
//! stones inside an area enclosed by never-captured walls are dead, whatever its size,
//! after Müller's "attacker cannot live" test (GPW 1997; Fuego's `MightMakeLife`) and his
//! 1-vital regions (Fuego's `Find2ConnForAllInterior`).
//!
//! For colour D, a pocket is a maximal connected set of points without a D stone. It is
//! *hopeless* for A when it holds an A stone, every D stone next to it is *safe* (frozen:
//! first-class, or a vital wall of 2b, so never captured under D's strategies), and every
//! point of it next to no D stone but at most one (that one with two on-board neighbours or
//! more) is covered by the miai cover of `miai.rs`. Claim: every A chain in a hopeless
//! pocket is in case N.
//!
//! Proof sketch (the full argument, the bridge lemma, is in docs/status.md). D answers A's
//! move on a pair point by the other point of the pair, and otherwise plays a pair point of
//! the first interior point not yet next to a stone joined to the walls, which joins the
//! walls. Invariant: every pair is empty or holds a D stone; so every D stone in the pocket
//! not joined to the walls has the two empty points of a pair as liberties, and A captures
//! nothing there (no ko either). When every covered point is next to a stone joined to the
//! walls, D fills the pocket: a point next to such a stone can always be filled; the last
//! uncovered point, if any, is the last liberty of every A chain left, and D captures there
//! and joins the stone at once. No D stone is ever lost, so the pocket ends full of D stones
//! that are never captured: A's points are never his again (not F, S1 or S2). A vital
//! pocket of 2b is filled by 2b's own strategy instead, with the same end for A's stones.

use super::miai::miai_cover;
use super::pocket_walls;
use crate::geometry::Geometry;
use crate::status::search::grid::{board_neighbours, components};

/// The chains of the colour other than `c` (1 Black, 2 White) that are dead in the hopeless
/// pockets of `c`, `safe[p]` telling the stones of `c` never captured; and those pockets'
/// points: `(chain indices, pockets)`.
pub(crate) fn dead_in_hopeless_pockets(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    c: u8,
    safe: &[bool],
) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut dead = Vec::new();
    let mut hopeless = Vec::new();
    for pocket in components(geo, |p| cells[p] != c, |_, _| true) {
        if !pocket.iter().any(|&p| cells[p] == 3 - c) {
            continue;
        }
        let walls = pocket_walls(geo, cells, chain_of, c, &pocket);
        if !walls.iter().all(|&k| safe[chains[k][0]]) {
            continue;
        }
        // The interior (points next to no D stone) covered by miai pairs (`miai.rs`).
        let near = |p: usize| board_neighbours(geo, p).any(|q| cells[q] == c);
        if !miai_cover(geo, &pocket, near, |p| cells[p] == 0).hopeless(geo) {
            continue;
        }
        let mut ks: Vec<usize> = pocket
            .iter()
            .filter(|&&p| cells[p] == 3 - c)
            .map(|&p| chain_of[p])
            .collect();
        ks.sort_unstable();
        ks.dedup();
        dead.extend(ks);
        hopeless.push(pocket);
    }
    (dead, hopeless)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::count::confirm::confirm_status;
    use crate::status::options::{FirstMover, StatusKo, StatusOptions};
    use crate::status::report::{Case, Proof, StatusError, StatusReport};
    use crate::status::search::grid::first_class_chains;
    use crate::status::testing::{chains_of, diagram, legal_rows, random_row};
    use crate::status::walls::vital::vital_walls;

    /// The A chains the rule proves dead, for both colours, with the walls `confirm_status`
    /// freezes (first-class chains and vital walls) as the safe stones; and how many
    /// interior points (next to no stone of the walls' colour) the pockets proven hold.
    fn hopeless(rows: &[&str]) -> (Vec<Vec<usize>>, usize) {
        let (geo, cells) = diagram(rows);
        let (chains, chain_of) = chains_of(geo, &cells);
        let mut safe = vec![false; cells.len()];
        for (k, first) in first_class_chains(geo, &cells, &chains)
            .into_iter()
            .enumerate()
        {
            for &p in &chains[k] {
                safe[p] |= first;
            }
        }
        for c in [1u8, 2] {
            for k in vital_walls(geo, &cells, &chains, &chain_of, c).0 {
                for &p in &chains[k] {
                    safe[p] = true;
                }
            }
        }
        let (mut dead, mut interior) = (Vec::new(), 0);
        for c in [1u8, 2] {
            let (ks, pockets) = dead_in_hopeless_pockets(geo, &cells, &chains, &chain_of, c, &safe);
            dead.extend(ks.into_iter().map(|k| chains[k].clone()));
            interior += pockets
                .iter()
                .flatten()
                .filter(|&&p| board_neighbours(geo, p).all(|q| cells[q] != c))
                .count();
        }
        dead.sort();
        (dead, interior)
    }

    fn run(rows: &[&str], opts: &StatusOptions) -> Result<StatusReport, StatusError> {
        let (geo, cells) = diagram(rows);
        confirm_status(geo, &cells, opts)
    }

    /// Every chain's class with the rule (the default split) against the exhaustive
    /// whole-board search (`split: false`, which freezes nothing), under both ko rules and
    /// both first movers; `None` when either is beyond `budget`.
    fn agree(rows: &[&str], budget: usize) -> Option<bool> {
        let mut all = true;
        for ko in [StatusKo::Simple, StatusKo::Koban] {
            for first in [FirstMover::Attacker, FirstMover::Defender] {
                let opts = StatusOptions {
                    ko,
                    first,
                    budget,
                    ..StatusOptions::default()
                };
                let whole = StatusOptions {
                    split: false,
                    ..opts
                };
                let (Ok(a), Ok(b)) = (run(rows, &opts), run(rows, &whole)) else {
                    return None;
                };
                all &= a
                    .chains
                    .iter()
                    .zip(&b.chains)
                    .all(|(x, y)| x.case.class() == y.case.class());
            }
        }
        Some(all)
    }

    fn dead_static(rows: &[&str]) -> usize {
        run(rows, &StatusOptions::default())
            .unwrap()
            .chains
            .iter()
            .filter(|ch| ch.case == Case::N && ch.proof == Proof::Static)
            .count()
    }

    #[test]
    fn stones_in_a_strip_next_to_a_living_wall_are_dead_without_search() {
        // Every point of White's top strip is next to White's two-eyed group: Black's three
        // chains there are dead by the rule, their region never searched, as the search
        // agrees.
        let rows = ["X.XX.X", "OOOOOO", "O.OO.O"];
        assert_eq!(hopeless(&rows).0.len(), 3);
        assert_eq!(dead_static(&rows), 3);
        let report = run(&rows, &StatusOptions::default()).unwrap();
        assert!(report.regions.is_empty(), "{:?}", report.regions);
        assert_eq!(agree(&rows, 2_000_000), Some(true));
    }

    #[test]
    fn points_off_the_wall_covered_by_miai_pairs_are_no_eyes() {
        // A4, B4 and C4 are next to no White stone, but each is covered by a pair back to
        // the wall (C4 by D4 and C3, B4 by C4 and B3, A4 by B4 and A3): Black's stone is dead
        // without search, as the whole-board search agrees. The rule as first written (at
        // most one point off the wall) refused this pocket.
        let rows = ["X...O", "....O", "OOOOO", "O.O.O"];
        let (dead, interior) = hopeless(&rows);
        assert_eq!((dead.len(), interior), (1, 3));
        assert_eq!(dead_static(&rows), 1);
        assert_eq!(agree(&rows, 2_000_000), Some(true));
    }

    #[test]
    fn two_points_off_the_wall_prove_nothing() {
        // A4 and C4 are next to no White stone: Black could make two eyes there (here he
        // has them: Black lives), so the rule refuses the pocket.
        let rows = [".X.XO", "XXXXO", "OOOOO", "O.O.O"];
        assert!(hopeless(&rows).0.is_empty());
        let (_, class, _) = crate::status::testing::confirm(&rows, &StatusOptions::default());
        assert_eq!(&class[..2], [".F.FF", "FFFFF"]);
    }

    #[test]
    fn a_wall_that_can_be_captured_proves_nothing() {
        // White's chain around Black's corner has one eye (E4): it is not first-class and
        // no vital wall, so it is no safe wall and the rule leaves Black's stones to the
        // search, although they have one liberty.
        let rows = ["XX.O.O", "XXOOOO", "OOO...", "......"];
        assert!(hopeless(&rows).0.is_empty());
    }

    #[test]
    fn hopeless_pockets_agree_with_the_search_on_random_boards() {
        // Random rows above a White group with two eyes (and below a Black one): every chain
        // keeps the class the exhaustive whole-board search gives it, under both ko rules and
        // first movers, and the rule proves stones dead on many of them, some of them with
        // a point off the wall.
        let mut seed: u64 = 29;
        let (mut checked, mut fired, mut interior) = (0, 0, 0);
        for n in 0..400 {
            let high = 1 + n % 2;
            let mut rows: Vec<String> = if n % 4 == 3 {
                vec!["X.XX.".into(), "XXXXX".into()]
            } else {
                Vec::new()
            };
            rows.extend(
                (0..high)
                    .map(|_| random_row(&mut seed, 5, &['.', '.', '.', 'X', 'X', 'X', 'O', 'O'])),
            );
            rows.extend(["OOOOO".to_string(), "O.O.O".to_string()]);
            let Some((dead, off)) = random_trial(rows) else {
                continue;
            };
            checked += 1;
            fired += usize::from(dead);
            interior += usize::from(off > 0);
        }
        assert!(
            checked >= 200 && fired >= 60 && interior >= 5,
            "{checked} boards, {fired} with dead stones by the rule, {interior} with a point off"
        );
    }

    /// One random board of the tests below, made legal: None when the search cannot decide
    /// it; otherwise, after checking that the rule agrees with the search, whether the rule
    /// proved stones dead and how many points off the walls its pockets had.
    fn random_trial(rows: Vec<String>) -> Option<(bool, usize)> {
        let rows = legal_rows(rows);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let same = agree(&rows, 400_000)?;
        assert!(same, "{rows:?}");
        let (dead, off) = hopeless(&rows);
        Some((!dead.is_empty(), off))
    }

    #[test]
    fn miai_covered_pockets_agree_with_the_search_on_random_boards() {
        // Random stones in a corner area (2x3, 3x2, 3x3, 4x2) walled by White's two-eyed group
        // on two sides, so that the area has several points off the wall, which only the
        // miai cover can take: every chain keeps the class the exhaustive whole-board search gives it, and
        // the rule proves stones dead in pockets with two interior points or more.
        let mut seed: u64 = 97;
        let (mut checked, mut fired, mut covered) = (0, 0, 0);
        for n in 0..400 {
            let (wide, high) = [(3, 2), (2, 3), (3, 3), (4, 2)][n % 4];
            let mut rows: Vec<String> = (0..high)
                .map(|_| {
                    random_row(&mut seed, wide, &['.', '.', '.', '.', '.', 'X', 'X', 'O']) + "O"
                })
                .collect();
            rows.push("O".repeat(wide + 1));
            rows.push([".O.", "O.O.", "O.O.O"][wide - 2].to_string());
            let Some((dead, off)) = random_trial(rows) else {
                continue;
            };
            checked += 1;
            fired += usize::from(dead);
            covered += usize::from(off >= 2);
        }
        assert!(
            checked >= 350 && fired >= 90 && covered >= 50,
            "{checked} boards, {fired} with dead stones by the rule, {covered} with two points off or more"
        );
    }
}
