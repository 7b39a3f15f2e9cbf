//! Double connections (docs/status.md 2d): chains of D joined by two shared empty points
//! outside their eye space, for the credited groups of `credit.rs`.
//!
//! A *double connection* of colour D is a set S of two or more chains of D and two empty points
//! p, q such that the chains of D next to p are exactly S, and so are those next to q.
//! A point's chains decide its connection, so each point belongs to at most one; one
//! connection is kept per set S. The credited groups' proof uses it only while neither point
//! lies in the pocket of a candidate that gives eye credit (an eye point or a pocket
//! with a local game).
//!
//! It is a local game of its own: when A plays one of the two points, D plays the other,
//! joining S; when A plays elsewhere or passes, D may fill either point himself. A's
//! stone at p captures nothing (every chain next to p keeps q), so it sets no ko ban for
//! D, and it touches no pocket that gives credit (p's other neighbours lie in p's own
//! pocket); D's answer at q joins the chains of S. So a chain with an unanswered
//! connection has its two points as liberties that no move inside a pocket touches, and
//! once it is answered the chain holds its partners and whatever liberty they keep.
//!
//! A *tiger's mouth* is a single shared point whose cutting stone D captures at once: its
//! only empty neighbour, next to a chain of S, is where D captures, and A's stone there is
//! answered by joining at the cutting point. It is used only while every chain of S keeps a
//! liberty in a credit, so that the cut captures nothing (docs/status.md 2d).

use crate::geometry::Geometry;
use crate::status::search::grid::board_neighbours;

/// One connection: its chains (two or more, ascending) and its two points.
///
/// For a double connection the two points are alike. For a *tiger's mouth* (`mouth`),
/// `points[0]` is the cutting point, whose neighbours are stones of the chains and
/// `points[1]`, its only empty neighbour; every chain of D next to `points[1]` is one of
/// the chains too. A's stone at the cutting point has one liberty and D captures it there;
/// D answers A's stone at the other point by joining at the cutting point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DoubleConnection {
    pub chains: Vec<usize>,
    pub points: [usize; 2],
    pub mouth: bool,
}

/// The chains of colour `c` next to `p`, ascending, each once.
fn chains_next_to(geo: Geometry, cells: &[u8], chain_of: &[usize], c: u8, p: usize) -> Vec<usize> {
    let mut ks: Vec<usize> = board_neighbours(geo, p)
        .filter(|&q| cells[q] == c)
        .map(|q| chain_of[q])
        .collect();
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// The connections of colour `c` (1 Black, 2 White): double connections, then tiger's
/// mouths on points that no double connection uses. No point belongs to two of them.
/// The caller uses one only while no pocket that gives eye credit holds one of its
/// points, and a tiger's mouth only while each of its chains has a liberty elsewhere.
pub(crate) fn double_connections(
    geo: Geometry,
    cells: &[u8],
    chain_of: &[usize],
    c: u8,
) -> Vec<DoubleConnection> {
    let mut found: Vec<(Vec<usize>, usize)> = Vec::new();
    for p in 0..geo.points() {
        if cells[p] != 0 {
            continue;
        }
        let ks = chains_next_to(geo, cells, chain_of, c, p);
        if ks.len() >= 2 {
            found.push((ks, p));
        }
    }
    found.sort_unstable();
    let mut conns: Vec<DoubleConnection> = Vec::new();
    let mut used = vec![false; geo.points()];
    for run in found.chunk_by(|a, b| a.0 == b.0) {
        // Every point next to the same chains is spoken for: a third one would be a
        // cutting point that is neither connection's.
        for (_, p) in run {
            used[*p] = true;
        }
        if run.len() >= 2 {
            conns.push(DoubleConnection {
                chains: run[0].0.clone(),
                points: [run[0].1, run[1].1],
                mouth: false,
            });
        }
    }
    for (ks, p) in found
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() == 1)
        .map(|run| &run[0])
    {
        let p = *p;
        let mut empty = board_neighbours(geo, p).filter(|&q| cells[q] == 0);
        let (Some(x), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let next_to_x = chains_next_to(geo, cells, chain_of, c, x);
        let a_next_to_p = board_neighbours(geo, p).any(|q| cells[q] != 0 && cells[q] != c);
        if a_next_to_p
            || used[x]
            || next_to_x.is_empty()
            || !next_to_x.iter().all(|k| ks.contains(k))
        {
            continue;
        }
        used[x] = true;
        conns.push(DoubleConnection {
            chains: ks.clone(),
            points: [p, x],
            mouth: true,
        });
    }
    conns
}

/// Whether chain `k` is sure of a liberty through its connections: some chain reachable
/// from `k` (itself included) through the `usable` connections satisfies `base`.
/// While a connection on the way is unanswered its two points are liberties of the chains
/// on this side; once answered its chains are one.
pub(crate) fn reaches(
    conns: &[DoubleConnection],
    usable: &[bool],
    k: usize,
    base: impl Fn(usize) -> bool,
) -> bool {
    let mut seen = vec![k];
    let mut i = 0;
    while i < seen.len() {
        let x = seen[i];
        i += 1;
        if base(x) {
            return true;
        }
        for (conn, _) in conns
            .iter()
            .zip(usable)
            .filter(|&(conn, &u)| u && conn.chains.contains(&x))
        {
            for &other in &conn.chains {
                if !seen.contains(&other) {
                    seen.push(other);
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::count::confirm::confirm_status;
    use crate::status::options::StatusOptions;
    use crate::status::report::StatusError;
    use crate::status::search::grid::first_class_chains;
    use crate::status::testing::{chains_of, confirm, diagram, legal_rows, random_row};
    use crate::status::walls::credit::credited_by_default;

    fn find(rows: &[&str], c: u8) -> Vec<[usize; 2]> {
        let (geo, cells) = diagram(rows);
        let (_, chain_of) = chains_of(geo, &cells);
        double_connections(geo, &cells, &chain_of, c)
            .into_iter()
            .map(|conn| conn.points)
            .collect()
    }

    /// The stones of both colours that the credited groups' proof claims F2, and the class the
    /// exhaustive whole-board search (no split, no static claim) gives each of them; `None`
    /// when that search is beyond `budget`.
    fn claims_and_search(rows: &[&str], budget: usize) -> (Vec<usize>, Option<Vec<char>>) {
        let (geo, cells) = diagram(rows);
        let (chains, chain_of) = chains_of(geo, &cells);
        let first = first_class_chains(geo, &cells, &chains);
        let mut walls: Vec<usize> = [1u8, 2]
            .into_iter()
            .flat_map(|c| credited_by_default(geo, &cells, &chains, &chain_of, c, &first).walls)
            .collect();
        walls.sort_unstable();
        let opts = StatusOptions {
            split: false,
            budget,
            ..StatusOptions::default()
        };
        let classes = match confirm_status(geo, &cells, &opts) {
            Ok(report) => Some(
                walls
                    .iter()
                    .map(|&k| {
                        report
                            .chains
                            .iter()
                            .find(|ch| ch.stones == chains[k])
                            .expect("every chain reported")
                            .case
                            .class()
                    })
                    .collect(),
            ),
            Err(StatusError::Budget { .. }) => None,
            Err(e) => panic!("{e:?}"),
        };
        let stones = walls.iter().flat_map(|&k| chains[k].clone()).collect();
        (stones, classes)
    }

    fn stones(rows: &[&str], c: char) -> Vec<usize> {
        rows.iter()
            .flat_map(|r| r.chars())
            .enumerate()
            .filter(|&(_, b)| b == c)
            .map(|(p, _)| p)
            .collect()
    }

    #[test]
    fn connections_are_two_points_next_to_the_same_chains() {
        // A diagonal (B3 and C2 share C3 and B2), a bamboo joint (A-B and C rows 1-2).
        assert_eq!(find(&["....", ".X..", "..X.", "...."], 1), [[6, 9]]);
        assert_eq!(find(&["X.X", "X.X", "..."], 1), [[1, 4]]);
        // One shared point is no connection; two points next to different sets of chains
        // are none either (the middle point touches a third chain, the top one does not).
        assert!(find(&["X.X", "...", "..."], 1).is_empty());
        assert!(find(&["X.X", "X.X", ".X."], 1).is_empty());
    }

    fn claim(rows: &[&str]) -> (Vec<usize>, Vec<char>) {
        let (claimed, classes) = claims_and_search(rows, 2_000_000);
        (claimed, classes.expect("the whole-board search finishes"))
    }

    #[test]
    fn double_connections_join_two_chains_with_one_eye_each() {
        // Black's two chains have one eye each (A4, E4) and a bamboo joint (C4, C3): White
        // plays one point, Black the other, and the joined chain has two eyes. Without
        // the connection neither chain has two credits. The whole-board search agrees.
        for rows in [
            &[".X.X.", "XX.XX", "OOOOO", "O.O.O"][..],
            &[".X.X.", "XX.XX", "OOOOO", "OOOOO", "O.O.O"],
        ] {
            let (claimed, classes) = claim(rows);
            assert!(
                stones(rows, 'X').iter().all(|p| claimed.contains(p)),
                "{rows:?}: {claimed:?}"
            );
            assert!(classes.iter().all(|&c| c == 'F'), "{classes:?}");
        }
    }

    #[test]
    fn double_connections_do_not_make_one_eye_two() {
        // The same joint, but the right-hand chain has no eye of its own: the unit has one
        // credit and is not claimed, and the search finds Black dead.
        let rows = [".X.XO", "XX.XO", "OOOOO", "O.O.O"];
        let (claimed, _) = claim(&rows);
        assert!(
            stones(&rows, 'X').iter().all(|p| !claimed.contains(p)),
            "{claimed:?}"
        );
        let (_, class, _) = confirm(&rows, &StatusOptions::default());
        assert_eq!(&class[..2], [".N.NF", "NN.NF"]);
    }

    #[test]
    fn double_connections_never_use_an_eye() {
        // B4 is an eye point of both Black chains and C3 their other shared liberty: B4
        // cannot be both an eye and a point of the connection. White plays C3; if Black
        // fills B4 his chain has one liberty left (F4), if not White captures A4-A3-B3 at
        // B4. Black is dead, and nothing of Black is claimed.
        let rows = ["X.XXX.", "XX.XXX", "OOOOOO", "OOOOOO", "O.OO.O"];
        let (claimed, _) = claim(&rows);
        assert!(
            stones(&rows, 'X').iter().all(|p| !claimed.contains(p)),
            "{claimed:?}"
        );
        let (_, class, _) = confirm(&rows, &StatusOptions::default());
        assert_eq!(&class[..2], ["N.NNN.", "NN.NNN"]);
    }

    #[test]
    fn tigers_mouths_are_a_cutting_point_captured_at_once() {
        let mouths = |rows: &[&str]| -> Vec<[usize; 2]> {
            let (geo, cells) = diagram(rows);
            let (_, chain_of) = chains_of(geo, &cells);
            double_connections(geo, &cells, &chain_of, 1)
                .into_iter()
                .filter(|conn| conn.mouth)
                .map(|conn| conn.points)
                .collect()
        };
        // C6 cuts A6-B5 from D6: its only empty neighbour is C5, next to B5 alone.
        let rows = [".X.XX.", "XX.OXX", "OOOOOO", "O.OO.O"];
        assert_eq!(mouths(&rows), [[2, 8]]);
        // No mouth: C5 also next to the right-hand chain (a double connection); C5 next to
        // no Black chain (Black's capturing stone would stand alone: a ko).
        assert!(mouths(&[".X.XX.", "XX.XXX", "OOOOOO", "O.OO.O"]).is_empty());
        assert!(mouths(&[".X.XX.", "X..OXX", "OOOOOO", "O.OO.O"]).is_empty());
    }

    #[test]
    fn tigers_mouths_join_two_chains_with_one_eye_each() {
        // Black's chains have one eye each (A6, F6) and touch at C6, whose only other
        // neighbour is C5: if White cuts at C6 Black captures at C5, if White plays C5 Black
        // connects at C6. Without the mouth neither chain has two credits. The whole-board
        // search agrees: every Black stone is F.
        let rows = [".X.XX.", "XX.OXX", "OOOOOO", "O.OO.O"];
        let (claimed, classes) = claim(&rows);
        assert!(
            stones(&rows, 'X').iter().all(|p| claimed.contains(p)),
            "{claimed:?}"
        );
        assert!(classes.iter().all(|&c| c == 'F'), "{classes:?}");
    }

    #[test]
    fn credited_group_claims_agree_with_the_search_on_random_boards() {
        // Random small positions: every chain the credited groups' proof (with its connections)
        // claims has the class the exhaustive whole-board search gives it, wherever that
        // search finishes.
        let mut seed: u64 = 2024;
        let (mut checked, mut claims, mut joined) = (0, 0, 0);
        for _ in 0..200 {
            // Three random rows above a White group with two eyes.
            let mut rows: Vec<String> = (0..3)
                .map(|_| random_row(&mut seed, 6, &['.', '.', 'X', 'X', 'X', 'X', 'O', 'O']))
                .collect();
            rows.extend(["OOOOOO".to_string(), "O.OO.O".to_string()]);
            let rows = legal_rows(rows);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let (claimed, classes) = claims_and_search(&rows, 40_000);
            let Some(classes) = classes else { continue };
            checked += 1;
            claims += classes.len();
            let (geo, cells) = diagram(&rows);
            let (chains, chain_of) = chains_of(geo, &cells);
            joined += usize::from([1, 2].into_iter().any(|c| {
                double_connections(geo, &cells, &chain_of, c)
                    .iter()
                    .any(|conn| conn.chains.iter().all(|&k| claimed.contains(&chains[k][0])))
            }));
            assert!(
                classes.iter().all(|&c| c == 'F'),
                "{rows:?}: {claimed:?} {classes:?}"
            );
        }
        assert!(
            checked >= 15 && claims >= 30 && joined >= 3,
            "{checked} boards, {claims} claims, {joined} through connections"
        );
    }

    #[test]
    fn exempt_walls_claims_agree_with_the_search() {
        // Two random boards (found among 4,000 like the ones above) where walls with two
        // liberties elsewhere (`pocket/game.rs`, `exempt`) add claims: 17 -> 19 and 16 -> 17
        // claimed stones. The whole-board search, given the budget to finish, gives every
        // claimed chain class F.
        for (rows, stones) in [
            (["OO..O.", "O.OOXO", "OO.XX.", "OOOOOO", "O.OO.O"], 19),
            ([".XXO.O", "O.O.O.", "XXOXXO", "OOOOOO", "O.OO.O"], 17),
        ] {
            let (claimed, classes) = claims_and_search(&rows, 6_000_000);
            let classes = classes.expect("the search finishes");
            assert_eq!(claimed.len(), stones, "{rows:?}");
            assert!(classes.iter().all(|&c| c == 'F'), "{rows:?}: {classes:?}");
        }
    }

    #[test]
    fn territory_claims_agree_with_the_search() {
        // Random boards (found among 4,000 like these) where White's pocket holding Black's
        // stones is a territory (docs/status.md 2f): no local game credits it, Black cannot
        // live in it by the miai cover, and every White wall reaches, through connections, the
        // chain with the two eyes at the bottom. The rule proves Black's stones there N, which
        // nothing proved before; the whole-board search agrees, and gives every claimed wall
        // class F.
        for (rows, dead) in [
            (
                &["OX.XO", "O...O", "OOOO.", "OOOOO", "O.O.O"][..],
                &[1, 3][..],
            ),
            (&["XXX.O", "OO.X.", "X.OOO", "OOOOO", "O.O.O"], &[10]),
            (
                &["X.XO.OO", "OO..OO.", "O.XXXOO", "OOOOOOO", "O.OOO.O"],
                &[0, 2, 16, 17, 18],
            ),
        ] {
            let (geo, cells) = diagram(rows);
            let (chains, chain_of) = chains_of(geo, &cells);
            let first = first_class_chains(geo, &cells, &chains);
            let found = credited_by_default(geo, &cells, &chains, &chain_of, 2, &first);
            assert!(found.territories >= 1, "{rows:?}");
            let mut claimed_dead: Vec<usize> =
                found.dead.iter().flat_map(|&k| chains[k].clone()).collect();
            claimed_dead.sort_unstable();
            assert_eq!(claimed_dead, dead, "{rows:?}");
            let (walls, classes) = claims_and_search(rows, 2_000_000);
            assert!(!walls.is_empty(), "{rows:?}");
            assert!(
                classes
                    .expect("the search finishes")
                    .iter()
                    .all(|&c| c == 'F'),
                "{rows:?}"
            );
            let opts = StatusOptions {
                split: false,
                ..StatusOptions::default()
            };
            let report = confirm_status(geo, &cells, &opts).expect("the search finishes");
            for ch in &report.chains {
                if ch.stones.iter().any(|p| dead.contains(p)) {
                    assert_eq!(ch.case.class(), 'N', "{rows:?}: {ch:?}");
                }
            }
        }
    }
}
