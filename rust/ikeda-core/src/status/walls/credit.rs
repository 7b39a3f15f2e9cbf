//! Credited groups (docs/status.md 2c): a static proof of F2 for groups whose eye space is
//! split into small pockets, with chains joined through those pockets.
//!
//! For colour D a *pocket* is a maximal connected set of points without D stones; its
//! *walls* are the D chains next to it. Every point next to a pocket point is in the pocket
//! or a wall stone, so what happens inside a pocket touches the rest of the board only
//! through the walls' liberties.
//!
//! Two kinds of pocket give *eye credit*:
//! - an **eye point**: a pocket of one empty point (all its neighbours are D stones);
//! - a **settled pocket**: a pocket of at most [`MAX_SPLIT_POCKET`] points for which the
//!   *pocket game* (`pocket/game.rs`) proves that D, answering every A move inside the
//!   pocket, reaches a *settled* state: no A stone left, every empty point of the pocket an
//!   eye (all its neighbours D stones), at least one of them, and every wall's chain next
//!   to one; while no strict wall is captured on the way.
//! - a **territory** (docs/status.md 2f): a pocket no local game credits, where A cannot
//!   live (2e's miai cover, no pair on a connection's point) and every wall reaches, through
//!   connections, a chain that another credit (not a territory) or its X* eyes keep alive.
//!   D fills it down to one eye next to every wall; it joins nothing, and since its walls may
//!   have no liberty in it on the way, it gives no wall a liberty elsewhere.
//! - a **part** (docs/status.md 2g, `partial.rs`): a corner of a pocket too large for its
//!   own game and no territory, settled alone by the pocket game with the rest of the
//!   pocket taken as A stones never captured and every D stone joined to a wall; counted
//!   as a settled pocket, its A stones not claimed dead.
//!
//! Walls joined through settled pockets, and chains joined through double connections
//! (`connections.rs`, docs/status.md 2d), form *units* (union-find). A unit's credit is the
//! number of its settled pockets (two for one that D can settle with two eyes) plus the
//! eye points next to it; the eye points next to two units count for each. Units with less
//! than two credits are dropped, with the pockets and eye points next to them, until none
//! is left to drop. Claim: every wall of a kept unit is F2 (F1 if already first-class),
//! and every A chain inside a settled pocket of a kept unit is N. The proof is in
//! docs/status.md; in short, D answers each A move in a settled pocket by that pocket's
//! local strategy and otherwise settles pockets one by one; by induction no wall ever has
//! no liberty (the local games keep a liberty in every unsettled pocket, eye points are
//! never filled, and a settled pocket's eye is never the only liberty of its chain because
//! the unit has a second credit next to it), so the local games describe the board
//! exactly; every settled state is final, and when all are settled each unit is one chain
//! touching two eyes whose neighbours are all its stones: X*, T holds, and G held all the
//! way. A never plays in a settled pocket again, so its chains there were captured for good.

use super::connections::{double_connections, reaches};
use super::miai::miai_cover;
use super::partial::parts;
use super::pocket_walls;
use crate::geometry::Geometry;
use crate::status::limits::{MAX_POCKET, MAX_SPLIT_POCKET};
use crate::status::pocket::game::{pocket_bits, PocketGame, PocketSet};
use crate::status::pocket::settle::SplitPool;
use crate::status::search::grid::{board_neighbours, components};

/// What the credited groups' proof found for one colour.
#[derive(Debug, Default)]
pub(crate) struct CreditedGroups {
    /// D chains proven F2 (or F1).
    pub walls: Vec<usize>,
    /// A chains inside the settled pockets of the kept units: proven N.
    pub dead: Vec<usize>,
    /// States of the pocket games played.
    pub states: usize,
    /// Territories credited (docs/status.md 2f).
    pub territories: usize,
}

/// A candidate credit: an eye point, a pocket small enough for the local game, a territory,
/// or a part of a large pocket (docs/status.md 2g).
struct Candidate {
    pocket: usize,
    walls: Vec<usize>,
    /// The local game, for a pocket of two points or more.
    local: Option<(PocketGame, PocketSet, PocketSet)>,
    /// Eye credit under the current `lenient` flags: 0 (unproven), 1 or 2.
    credit: u32,
    /// Whether the settled state joins all the walls into one chain.
    joins: bool,
    active: bool,
    solved_for: Option<Vec<bool>>,
    /// For each wall: whether it has a liberty here at the start.
    breathes: Vec<bool>,
    /// Credited as a territory (docs/status.md 2f): one eye touching every wall, by a
    /// static strategy that keeps no wall a liberty here on the way, so it gives no
    /// wall a liberty elsewhere for the other candidates.
    territory: bool,
    /// A part of a large pocket (docs/status.md 2g), played with the rest of the pocket
    /// taken as A's: its A stones are not proven dead.
    part: bool,
}

/// The credited groups of colour `c` (1 Black, 2 White).
pub(crate) fn credited_groups(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    c: u8,
    first_class: &[bool],
    work: usize,
) -> CreditedGroups {
    let mut pockets = components(geo, |p| cells[p] != c, |_, _| true);
    let mut out = CreditedGroups::default();
    let mut pool = SplitPool::new(work);
    let mut cands: Vec<Candidate> = Vec::new();
    let conns = double_connections(geo, cells, chain_of, c);
    let mut reserved = vec![false; geo.points()];
    for conn in &conns {
        for &p in &conn.points {
            reserved[p] = true;
        }
    }
    // A candidate with a local game: pocket `r`'s points (or a part's), its walls, and a
    // part's frontier, whose points the game takes as A's (their neighbours in the part are
    // `a_free`).
    let local_candidate =
        |r: usize, pocket: &[usize], walls: Vec<usize>, frontier: Option<Vec<usize>>| {
            let bits = |f: &dyn Fn(usize) -> bool| pocket_bits(pocket, f);
            let wall_adj: Vec<PocketSet> = walls
                .iter()
                .map(|&k| {
                    bits(&|p| board_neighbours(geo, p).any(|q| cells[q] == c && chain_of[q] == k))
                })
                .collect();
            let all: PocketSet = (1 << pocket.len()) - 1;
            let a = bits(&|p| cells[p] != 0);
            let breathes = wall_adj.iter().map(|&adj| adj & !a != 0).collect();
            let mut local = PocketGame::of_points(pocket, |p| board_neighbours(geo, p), wall_adj);
            local.immortal = walls.iter().map(|&k| first_class[k]).collect();
            if let Some(f) = &frontier {
                local.a_free =
                    bits(&|p| board_neighbours(geo, p).any(|q| f.binary_search(&q).is_ok()));
            }
            Candidate {
                pocket: r,
                local: Some((local, all, a)),
                walls,
                credit: 0,
                joins: false,
                active: true,
                solved_for: None,
                breathes,
                territory: false,
                part: frontier.is_some(),
            }
        };
    for r in 0..pockets.len() {
        let pocket = pockets[r].clone();
        let walls = pocket_walls(geo, cells, chain_of, c, &pocket);
        if walls.is_empty() || walls.len() > 64 {
            continue;
        }
        // A candidate without a local game: an eye point (where every wall breathes), or a
        // territory too large for one.
        let fixed = |walls: Vec<usize>, territory: bool| Candidate {
            pocket: r,
            breathes: vec![!territory; walls.len()],
            walls,
            local: None,
            credit: 1,
            joins: false,
            active: true,
            solved_for: None,
            territory,
            part: false,
        };
        if pocket.len() > MAX_SPLIT_POCKET {
            // A territory, if it is one; else its parts, each played alone (docs/status.md
            // 2g), stand in for it.
            if hopeless_territory(geo, cells, c, &pocket, &reserved) {
                cands.push(fixed(walls, true));
                continue;
            }
            for part in parts(geo, cells, c, &pocket, &reserved) {
                let walls = pocket_walls(geo, cells, chain_of, c, &part.points);
                if walls.is_empty() || walls.len() > 64 {
                    continue;
                }
                let mut cand =
                    local_candidate(pockets.len(), &part.points, walls, Some(part.frontier));
                // A part D cannot settle even with every wall lenient is left out at once:
                // it would make walls lenient in the first proofs of the other candidates,
                // whose second proofs, stricter, would spend the work they share.
                let (local, all, a) = cand.local.as_mut().expect("a part has a game");
                local.lenient.fill(true);
                if local.settles(*all, *a, 1, false, &mut out.states, &mut pool) != Some(true) {
                    continue;
                }
                local.lenient.fill(false);
                cands.push(cand);
                pockets.push(part.points);
            }
            continue;
        }
        if pocket.len() == 1 {
            if cells[pocket[0]] == 0 {
                cands.push(fixed(walls, false));
            }
            continue;
        }
        cands.push(local_candidate(r, &pocket, walls, None));
    }
    // Smallest pockets first: the split proofs of large ones share one pool of work.
    cands.sort_by_key(|cand| pockets[cand.pocket].len());
    // Double connections (`connections.rs`) join chains into units as joining pockets do;
    // one is used only while no active candidate's pocket holds one of its points.
    let mut cand_at: Vec<Option<usize>> = vec![None; geo.points()];
    for (i, cand) in cands.iter().enumerate() {
        for &p in &pockets[cand.pocket] {
            cand_at[p] = Some(i);
        }
    }
    let mut alive: Vec<bool> = chains.iter().map(|ch| cells[ch[0]] == c).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    loop {
        let mut changed = false;
        // Candidates next to a dropped chain are out.
        for cand in cands.iter_mut().filter(|cand| cand.active) {
            if cand.walls.iter().any(|&k| !alive[k]) {
                cand.active = false;
            }
        }
        // How many active candidates give each chain a liberty at the start.
        let mut touching = vec![0u32; chains.len()];
        for cand in cands.iter().filter(|cand| cand.active && !cand.territory) {
            for (&k, &b) in cand.walls.iter().zip(&cand.breathes) {
                touching[k] += u32::from(b);
            }
        }
        let usable: Vec<bool> = conns
            .iter()
            .map(|conn| {
                conn.chains.iter().all(|&k| alive[k])
                    // A's stone at a tiger's cutting point takes that liberty from every
                    // chain of it: each keeps one in a credit (or its X* eyes).
                    && (!conn.mouth
                        || conn
                            .chains
                            .iter()
                            .all(|&k| first_class[k] || touching[k] > 0))
                    && conn
                        .points
                        .iter()
                        // A territory's strategy leaves its connection points alone.
                        .all(|&p| {
                            cand_at[p].is_none_or(|i| !cands[i].active || cands[i].territory)
                        })
            })
            .collect();
        // Whether wall `i` of a candidate has a liberty at the start in another one.
        // A wall also has one when a chain it reaches through double connections has a
        // liberty at the start in a candidate other than this one: until the connection
        // is answered its two points are liberties no move here touches, and once it is
        // answered the chains are one.
        // A first-class wall always has its two eyes (A may never play them, and D does
        // not: they are eye points), so one of them is a liberty elsewhere.
        let elsewhere = |cand: &Candidate, i: usize| {
            if first_class[cand.walls[i]] {
                return true;
            }
            let here = |j: usize| {
                if cand.territory {
                    return 0;
                }
                cand.walls
                    .iter()
                    .position(|&w| w == j)
                    .map_or(0, |m| u32::from(cand.breathes[m]))
            };
            reaches(&conns, &usable, cand.walls[i], |j| touching[j] > here(j))
        };
        // Prove the pockets under the current flags: a wall is lenient when another
        // active candidate touches it. Flags only grow stricter, so a proof is redone
        // only when they change.
        for cand in cands.iter_mut().filter(|cand| cand.active) {
            let n = cand.walls.len();
            let mut flags: Vec<bool> = (0..n).map(|i| elsewhere(cand, i)).collect();
            // Exempt: no liberty here at the start, one in two other credits.
            flags.extend((0..n).map(|i| !cand.breathes[i] && touching[cand.walls[i]] >= 2));
            let Some((local, all, a)) = cand.local.as_mut() else {
                continue;
            };
            if cand.solved_for.as_ref() == Some(&flags) {
                continue;
            }
            local.lenient.clone_from_slice(&flags[..n]);
            local.exempt.clone_from_slice(&flags[n..]);
            // First a settled state joining all walls (two eyes if possible), else one
            // where each wall's chain touches an eye.
            let first = local.settles(*all, *a, 1, true, &mut out.states, &mut pool);
            let joined = first == Some(true);
            // A large pocket whose first proof ran out of work is not tried again.
            let large = pockets[cand.pocket].len() > MAX_POCKET;
            let res = if joined || (large && first.is_none()) {
                first
            } else {
                local.settles(*all, *a, 1, false, &mut out.states, &mut pool)
            };
            cand.joins = joined;
            cand.credit = if res != Some(true) {
                0
            } else if joined
                && pockets[cand.pocket].len() >= 3
                && local.settles(*all, *a, 2, true, &mut out.states, &mut pool) == Some(true)
            {
                2
            } else {
                1
            };
            cand.solved_for = Some(flags);
            if cand.credit == 0 {
                // A pocket D cannot be shown to settle locally may still be a territory A
                // cannot live in.
                if !cand.part && hopeless_territory(geo, cells, c, &pockets[cand.pocket], &reserved)
                {
                    cand.territory = true;
                    cand.credit = 1;
                    cand.local = None;
                } else {
                    cand.active = false;
                }
                changed = true;
            }
        }
        // An eye point, and the eye of a settled pocket, is never the last liberty of a
        // chain next to it: every wall next to an eye point or a pocket that does not join
        // its walls, and some wall of a pocket that joins them into a chain with one eye,
        // has a liberty at the start in another candidate.
        for cand in cands.iter_mut().filter(|cand| cand.active) {
            let n = cand.walls.len();
            let ok = if cand.joins && cand.credit >= 2 {
                true
            } else if cand.joins {
                (0..n).any(|i| elsewhere(cand, i))
            } else {
                (0..n).all(|i| elsewhere(cand, i))
            };
            if !ok {
                cand.active = false;
                changed = true;
            }
        }
        if changed {
            continue;
        }
        // Units: walls joined through settled pockets; their credits.
        let mut parent: Vec<usize> = (0..chains.len()).collect();
        for cand in cands.iter().filter(|cand| cand.active && cand.joins) {
            let r0 = find(&mut parent, cand.walls[0]);
            for &k in &cand.walls[1..] {
                let r = find(&mut parent, k);
                parent[r] = r0;
            }
        }
        for conn in conns
            .iter()
            .zip(&usable)
            .filter(|&(_, &u)| u)
            .map(|(conn, _)| conn)
        {
            let r0 = find(&mut parent, conn.chains[0]);
            for &k in &conn.chains[1..] {
                let r = find(&mut parent, k);
                parent[r] = r0;
            }
        }
        let mut credit = vec![0u32; chains.len()];
        for cand in cands.iter().filter(|cand| cand.active) {
            if cand.joins {
                let r = find(&mut parent, cand.walls[0]);
                credit[r] += cand.credit;
            } else {
                let mut roots: Vec<usize> =
                    cand.walls.iter().map(|&k| find(&mut parent, k)).collect();
                roots.sort_unstable();
                roots.dedup();
                for r in roots {
                    credit[r] += 1;
                }
            }
        }
        for k in 0..chains.len() {
            if alive[k] && credit[find(&mut parent, k)] < 2 {
                alive[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out.territories = cands
        .iter()
        .filter(|cand| cand.active && cand.territory)
        .count();
    for cand in cands
        .iter()
        .filter(|cand| cand.active && !cand.part && (cand.local.is_some() || cand.territory))
    {
        for &p in &pockets[cand.pocket] {
            if cells[p] != 0 {
                out.dead.push(chain_of[p]);
            }
        }
    }
    out.walls = (0..chains.len()).filter(|&k| alive[k]).collect();
    out.dead.sort_unstable();
    out.dead.dedup();
    out
}

/// [`credited_groups`] with the default proof work, for the tests.
#[cfg(test)]
pub(crate) fn credited_by_default(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    c: u8,
    first_class: &[bool],
) -> CreditedGroups {
    use crate::status::limits::DEFAULT_PROOF_WORK;
    credited_groups(
        geo,
        cells,
        chains,
        chain_of,
        c,
        first_class,
        DEFAULT_PROOF_WORK,
    )
}

/// Whether `pocket` (of colour `c`, two points or more) is a territory A cannot live in
/// (docs/status.md 2f): 2e's miai cover of its interior, with no pair on a point of a
/// connection (`reserved`: those are answered by the connection), is hopeless for A, and
/// some point of it is no connection's (to be its last empty point, which a connection's
/// answer would fill).
fn hopeless_territory(
    geo: Geometry,
    cells: &[u8],
    c: u8,
    pocket: &[usize],
    reserved: &[bool],
) -> bool {
    let near = |p: usize| board_neighbours(geo, p).any(|q| cells[q] == c);
    pocket.iter().any(|&p| !reserved[p])
        && miai_cover(geo, pocket, near, |p| cells[p] == 0 && !reserved[p]).hopeless(geo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::options::StatusOptions;
    use crate::status::search::grid::first_class_chains;
    use crate::status::testing::{chains_of, confirm, diagram};

    /// The credited groups of both colours of a diagram: (walls, dead) as sets of stones.
    fn groups(rows: &[&str]) -> (Vec<usize>, Vec<usize>) {
        let (geo, cells) = diagram(rows);
        let (chains, chain_of) = chains_of(geo, &cells);
        let (mut walls, mut dead) = (Vec::new(), Vec::new());
        for c in [1, 2] {
            let first = first_class_chains(geo, &cells, &chains);
            let found = credited_by_default(geo, &cells, &chains, &chain_of, c, &first);
            walls.extend(found.walls.iter().flat_map(|&k| chains[k].clone()));
            dead.extend(found.dead.iter().flat_map(|&k| chains[k].clone()));
        }
        walls.sort_unstable();
        dead.sort_unstable();
        (walls, dead)
    }

    fn stones(rows: &[&str], c: u8) -> Vec<usize> {
        rows.iter()
            .flat_map(|r| r.bytes())
            .enumerate()
            .filter(|&(_, b)| b == if c == 1 { b'X' } else { b'O' })
            .map(|(p, _)| p)
            .collect()
    }

    #[test]
    fn credited_groups_two_straight_threes() {
        // Each of Black's eye spaces is a straight three: the wall is F2 by two settled
        // pockets, and the exhaustive search agrees (debug builds compare them).
        let rows = ["...X...", "XXXXXXX", "OOOOOOO", "O.O.O.O"];
        let (walls, dead) = groups(&rows);
        assert_eq!(walls, [stones(&rows, 1), stones(&rows, 2)].concat());
        assert!(dead.is_empty());
        let (status, _, _) = confirm(&rows, &StatusOptions::default());
        assert_eq!(status, ["...a...", "aaaaaaa", "aaaaaaa", "a.a.a.a"]);
    }

    #[test]
    fn credited_groups_dead_stones_in_settled_pockets() {
        // A White stone in each of Black's eye spaces: Black captures them, so the wall is
        // F2 and the stones are N.
        let rows = ["O..X.O.", "XXXXXXX", "OOOOOOO", "O.O.O.O"];
        let (walls, dead) = groups(&rows);
        assert!(
            stones(&rows, 1).iter().all(|p| walls.contains(p)),
            "{walls:?}"
        );
        assert_eq!(dead, [0, 5]);
        let (status, _, _) = confirm(&rows, &StatusOptions::default());
        assert_eq!(status, ["d..a.d.", "aaaaaaa", "aaaaaaa", "a.a.a.a"]);
    }

    #[test]
    fn credited_groups_chains_joined_through_a_pocket() {
        // The right-hand Black chain has liberties only in the three-point pocket it
        // shares with the left-hand chain; Black settles it with one eye at C3 and B4-C4
        // joining both chains, and the left chain's eye point at A4 is the unit's second
        // credit.
        let rows = [".X..XX", "XX.XXX", "XXXOOO", "OOOO.O", "O.O.OO"];
        let (walls, _) = groups(&rows);
        assert!(
            stones(&rows, 1).iter().all(|p| walls.contains(p)),
            "{walls:?}"
        );
        let (status, _, _) = confirm(&rows, &StatusOptions::default());
        assert_eq!(&status[..2], [".a..aa", "aa.aaa"]);
    }

    #[test]
    fn credited_groups_refuse_one_eye_space() {
        // One eye space (a bulky five, one eye whatever happens) and nothing else: no claim,
        // and the search finds the group dead with White first.
        let rows = ["...XO", "..XXO", "XXXOO", "OOOO.", "O.O.O"];
        let (walls, _) = groups(&rows);
        assert!(
            stones(&rows, 1).iter().all(|p| !walls.contains(p)),
            "{walls:?}"
        );
    }

    #[test]
    fn credited_groups_bulky_five_and_an_eye() {
        // The same bulky five gives one eye, the eye point a second: alive.
        let rows = ["...X.XO", "..XXXXO", "XXXOOOO", "OOOO.O.", "O.O.O.O"];
        let (walls, _) = groups(&rows);
        assert!(
            stones(&rows, 1).iter().all(|p| walls.contains(p)),
            "{walls:?}"
        );
    }

    #[test]
    fn credited_groups_false_eye_is_no_second_eye() {
        // The eye point C4 touches the big Black chain and the lone stone D4, whose
        // only liberty it is. D4 has one credit and is dropped, and C4 with it: the big
        // chain keeps one credit (A4) and is not claimed.
        let rows = [".X.XO", "XXXOO", "OOOO.", ".O.OO"];
        let (walls, _) = groups(&rows);
        assert!(
            stones(&rows, 1).iter().all(|p| !walls.contains(p)),
            "{walls:?}"
        );
    }

    #[test]
    fn credited_groups_stay_exact_on_the_constructed_positions() {
        // Every constructed shape of the status tests goes through the claims, which debug
        // builds compare with the exhaustive search of the same chains.
        for rows in [
            &["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"][..],
            &[".XO.O", "XXOOO", "OOO.O", "O.OOO"],
            &[".X.XO", "XXXOO", "OOOO.", ".O.OO"],
            &["X.X.XO.XO.O.O", "XXXXXO.XOOOOO"],
            &["X...X", "XXXXX", "OOOOO", "O.O.O"],
            &[".XOX.", "XXOOO", ".XXXX"],
        ] {
            let _ = confirm(rows, &StatusOptions::default());
        }
    }
}
