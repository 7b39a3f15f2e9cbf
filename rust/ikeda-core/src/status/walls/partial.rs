//! Parts of a large pocket (docs/status.md 2g): the corners of a territory too large for
//! its own pocket game, each played alone with the rest of the pocket taken as A's.
//!
//! A pocket of more than [`MAX_SPLIT_POCKET`] points has no local game. A *part* of it is
//! a connected set Q of [`MIN_PART`] to [`MAX_PART`] of its points; its *frontier* is the
//! pocket's points next to Q and not in it. The part's game is the pocket game on Q with
//! the frontier taken as A stones that are never captured (`PocketGame::a_free` holds Q's
//! points next to it, and a settled part may keep A's chains through them), and A's
//! capture of a D chain holding no wall a loss for D, so that no D chain there is ever
//! captured. No two parts touch
//! (neither holds a point of the other or of its frontier), and no part holds or touches a
//! point of D's connections, so no D stone is ever played on a frontier: it only ever holds
//! empty points and A stones. The proof that D's strategy in the part's game holds on the
//! board is in docs/status.md 2g.
//!
//! Which parts: a territory's corners, where a few points cut a part from the rest. From
//! every free point of the pocket a part is grown one point at a time, each time the point
//! that lengthens the frontier least; of the parts met on the way the one with the shortest
//! frontier is kept (the largest on a tie). The best of them all (shortest frontier, then
//! most points, then fewest A stones) is taken, and again among the points no taken part
//! touches, up to [`MAX_PARTS`] parts with a frontier of at most [`MAX_FRONTIER`] points.
//! This is a heuristic: it only chooses which games are played, and every part's credit is
//! proven by its own game.

use crate::geometry::Geometry;
use crate::status::limits::MAX_POCKET;
#[cfg(doc)]
use crate::status::limits::MAX_SPLIT_POCKET;
use crate::status::search::grid::board_neighbours;

/// The most points of a part: its game is the exhaustive one (larger parts, searched by
/// df-pn, proved fewer points of Fuego's suite at nearly twice the CPU, benches/LOG.md).
pub(crate) const MAX_PART: usize = MAX_POCKET;

/// The fewest points of a part.
pub(crate) const MIN_PART: usize = 4;

/// The most parts taken from one pocket.
pub(crate) const MAX_PARTS: usize = 3;

/// The longest frontier a part may have: a longer one leaves D too little of the part to
/// make an eye in, by the game's assumption that its points are A's.
pub(crate) const MAX_FRONTIER: usize = 5;

/// One part: its points and its frontier, both ascending.
pub(crate) struct Part {
    pub points: Vec<usize>,
    pub frontier: Vec<usize>,
}

/// The parts of `pocket` (ascending board points) on the board `cells`, the colour of the
/// pocket's walls being `c`. No part holds or touches a point of `reserved` (the points of
/// D's connections, which a part would keep from use while it is credited).
pub(crate) fn parts(
    geo: Geometry,
    cells: &[u8],
    c: u8,
    pocket: &[usize],
    reserved: &[bool],
) -> Vec<Part> {
    let n = geo.points();
    let mut in_pocket = vec![false; n];
    for &p in pocket {
        in_pocket[p] = true;
    }
    // Points a new part may take: in the pocket, in no kept part, on no kept frontier, and
    // neither a connection's point nor next to one.
    let mut free = in_pocket.clone();
    for &p in pocket {
        if reserved[p] || board_neighbours(geo, p).any(|q| reserved[q]) {
            free[p] = false;
        }
    }
    let mut out = Vec::new();
    while out.len() < MAX_PARTS {
        let mut best: Option<(usize, usize, Part)> = None;
        for &start in pocket {
            if !free[start] {
                continue;
            }
            let Some(part) = grow(geo, &in_pocket, &free, start) else {
                continue;
            };
            let stones = part.points.iter().filter(|&&p| cells[p] != 0).count();
            debug_assert!(part.points.iter().all(|&p| cells[p] != c));
            // The shortest frontier, then the most points, then the fewest A stones.
            let rank = |f: usize, size: usize, stones: usize| (f, usize::MAX - size, stones);
            if best.as_ref().is_none_or(|(f, s, b)| {
                rank(part.frontier.len(), part.points.len(), stones) < rank(*f, b.points.len(), *s)
            }) {
                best = Some((part.frontier.len(), stones, part));
            }
        }
        let Some((_, _, part)) = best else {
            break;
        };
        // A later part may not touch this one: its frontier (the pocket's points next to
        // it) is out too.
        for &p in part.points.iter().chain(&part.frontier) {
            free[p] = false;
        }
        out.push(part);
    }
    out
}

/// The part grown from `start` through the `free` points of the pocket (`in_pocket`): each
/// step adds the point of the frontier that lengthens it least (the one with most
/// neighbours in the part on a tie), up to [`MAX_SPLIT_POCKET`] points; of the parts met on
/// the way with at least [`MIN_PART`] points, the one with the shortest frontier (the
/// largest on a tie), if that frontier is at most [`MAX_FRONTIER`] points.
fn grow(geo: Geometry, in_pocket: &[bool], free: &[bool], start: usize) -> Option<Part> {
    let n = geo.points();
    let mut inside = vec![false; n];
    let mut edge = vec![false; n];
    inside[start] = true;
    let mut points = vec![start];
    let mut frontier: Vec<usize> = Vec::new();
    let add_edges = |p: usize, inside: &[bool], edge: &mut [bool], frontier: &mut Vec<usize>| {
        for q in board_neighbours(geo, p) {
            if in_pocket[q] && !inside[q] && !edge[q] {
                edge[q] = true;
                frontier.push(q);
            }
        }
    };
    add_edges(start, &inside, &mut edge, &mut frontier);
    let mut best: Option<(usize, usize)> = None;
    while points.len() < MAX_PART {
        let pick = frontier
            .iter()
            .copied()
            .filter(|&q| free[q])
            .min_by_key(|&q| {
                let new = board_neighbours(geo, q)
                    .filter(|&r| in_pocket[r] && !inside[r] && !edge[r])
                    .count();
                let held = board_neighbours(geo, q).filter(|&r| inside[r]).count();
                (new, usize::MAX - held, q)
            });
        let Some(q) = pick else {
            break;
        };
        frontier.retain(|&r| r != q);
        edge[q] = false;
        inside[q] = true;
        points.push(q);
        add_edges(q, &inside, &mut edge, &mut frontier);
        if points.len() >= MIN_PART && best.is_none_or(|(f, _)| frontier.len() <= f) {
            best = Some((frontier.len(), points.len()));
        }
    }
    let (f, size) = best?;
    if f > MAX_FRONTIER || f == 0 {
        return None;
    }
    // Grow again to the chosen size (the steps are the same).
    let mut part = points[..size].to_vec();
    part.sort_unstable();
    let mut front: Vec<usize> = part
        .iter()
        .flat_map(|&p| board_neighbours(geo, p))
        .filter(|&q| in_pocket[q] && part.binary_search(&q).is_err())
        .collect();
    front.sort_unstable();
    front.dedup();
    Some(Part {
        points: part,
        frontier: front,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::pocket::game::{key, pocket_bits, unkey, PocketGame, PocketSet};
    use crate::status::pocket::split::squeeze;
    use crate::status::pocket::testing::{draw, random_boards};
    use crate::status::search::grid::components;
    use crate::status::testing::{chains_of, diagram};

    /// The local games of the pockets of 5 to 12 points of a diagram, for both colours, its
    /// walls the chains next to each: `(local, all, a)`.
    fn chain_locals(rows: &[&str]) -> Vec<(PocketGame, PocketSet, PocketSet)> {
        let (geo, cells) = diagram(rows);
        let (chains, chain_of) = chains_of(geo, &cells);
        let mut out = Vec::new();
        for c in [1u8, 2] {
            for pocket in components(geo, |p| cells[p] != c, |_, _| true) {
                if !(5..=12).contains(&pocket.len()) {
                    continue;
                }
                let bits = |f: &dyn Fn(usize) -> bool| pocket_bits(&pocket, f);
                let walls: Vec<PocketSet> = (0..chains.len())
                    .filter(|&k| cells[chains[k][0]] == c)
                    .map(|k| {
                        bits(&|p| {
                            board_neighbours(geo, p).any(|r| cells[r] == c && chain_of[r] == k)
                        })
                    })
                    .filter(|&adj| adj != 0)
                    .collect();
                out.push((
                    PocketGame::of_points(&pocket, |p| board_neighbours(geo, p), walls),
                    (1 << pocket.len()) - 1,
                    bits(&|p| cells[p] != 0),
                ));
            }
        }
        out
    }

    /// The game of the part `q` (a set of `local`'s points): its points squeezed, the walls
    /// next to it with their flags, and its points next to the rest of the pocket `a_free`.
    fn part_game(local: &PocketGame, all: PocketSet, q: PocketSet) -> PocketGame {
        let mut nbr = Vec::new();
        let mut f = q;
        while f != 0 {
            let p = f.trailing_zeros() as usize;
            f &= f - 1;
            nbr.push(squeeze(q, local.nbr[p] & q));
        }
        let next: Vec<usize> = (0..local.walls.len())
            .filter(|&w| local.walls[w] & q != 0)
            .collect();
        let mut part = PocketGame::new(
            nbr,
            next.iter().map(|&w| squeeze(q, local.walls[w])).collect(),
        );
        part.lenient = next.iter().map(|&w| local.lenient[w]).collect();
        part.immortal = next.iter().map(|&w| local.immortal[w]).collect();
        part.a_free = squeeze(q, q & local.around(all & !q));
        part
    }

    /// Whether D, playing only on `q` (or passing) in the whole pocket's game `local`, A
    /// first from `a`, forces a state where `q` is *sealed*: every point of `q` that the
    /// rest of the pocket does not reach through points without D stones is an eye (empty,
    /// all its neighbours D stones), one at least; every D stone joined to a wall; and every wall next to `q` that is
    /// not first-class in a chain next to an eye. The walls not next to `q` are taken as
    /// first-class: they are another credit's. `None` beyond the state limit.
    fn sealed_by_play(
        local: &PocketGame,
        all: PocketSet,
        a: PocketSet,
        q: PocketSet,
    ) -> Option<bool> {
        let mut whole = local.clone();
        whole.a_free = 0;
        for w in 0..whole.walls.len() {
            whole.immortal[w] |= whole.walls[w] & q == 0;
        }
        let local = &whole;
        // The part's points next to the rest of the pocket.
        let edge = q & local.around(all & !q);
        let sealed = |a: PocketSet, d: PocketSet| {
            // The points of the part that the rest of the pocket reaches through points
            // without D stones: A's side, whatever is on them.
            let open = local.flood(q & !d, edge & !d);
            let eyes = q & !a & !d & !open;
            let mut f = eyes;
            while f != 0 {
                let p = f.trailing_zeros() as usize;
                f &= f - 1;
                if local.nbr[p] & !d != 0 {
                    return false;
                }
            }
            a & q & !open == 0
                && eyes != 0
                && local.anchored(d) == d
                && (0..local.walls.len())
                    .all(|w| local.immortal[w] || local.wall_chain(w, d).2 & eyes != 0)
        };
        // D plays on the part only.
        local.attractor(all, key(a, 0, false, 0), 50_000, &mut 0, sealed, |t| {
            unkey(t).1 & !q == 0
        })
    }

    #[test]
    fn a_part_settled_alone_is_sealed_in_its_pocket() {
        // The part's game takes the rest of its pocket as A stones never captured (docs/
        // status.md 2g). On the parts of the pockets of random boards, with random lenient
        // walls: wherever D settles the part alone (one eye, the exhaustive game), D also
        // seals it in the whole pocket's game, playing on the part only, against every A
        // move anywhere in the pocket (200 parts, where that game is within its limit).
        let mut seed: u64 = 23;
        let (mut tried, mut settled, mut checked) = (0, 0, 0);
        let boards = [(4, 5), (3, 6), (4, 4)]
            .iter()
            .flat_map(|&(h, w)| random_boards(150, h, w, &mut 5));
        'boards: for rows in boards {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            for (mut local, all, a) in chain_locals(&rows) {
                let n = all.count_ones() as usize;
                if n < 5 {
                    continue;
                }
                for w in 0..local.walls.len() {
                    local.lenient[w] = draw(&mut seed) % 3 != 0;
                }
                // Every part: connected, of 3 points or more, with a frontier of one or two
                // points, next to a wall.
                let frontier = |q: PocketSet| local.around(q) & all & !q;
                let cands: Vec<PocketSet> = (1..all)
                    .filter(|&q| {
                        q.count_ones() >= 3
                            && (1..=2).contains(&frontier(q).count_ones())
                            && local.flood(q, q & q.wrapping_neg()) == q
                            && local.walls.iter().any(|&w| w & q != 0)
                    })
                    .collect();
                for q in cands {
                    tried += 1;
                    let part = part_game(&local, all, q);
                    let part_all: PocketSet = (1 << q.count_ones()) - 1;
                    let mut states = 0;
                    if part.solve(part_all, squeeze(q, a), 1, false, &mut states) != Some(true) {
                        continue;
                    }
                    settled += 1;
                    let Some(found) = sealed_by_play(&local, all, a, q) else {
                        continue;
                    };
                    checked += 1;
                    assert!(found, "{rows:?}: part {q:b} of {all:b}, A {a:b}");
                    if checked == 200 {
                        break 'boards;
                    }
                }
            }
        }
        assert!(
            checked == 200,
            "{tried} parts tried, {settled} settled alone, {checked} checked"
        );
    }

    #[test]
    fn in_a_part_d_may_stand_alone_but_never_loses_a_stone() {
        // White's pocket above its wall, and the part of its first two columns, cut from
        // the rest at C3 and C2. White's stone at A3 touches no wall: the part's game
        // allows it, and counts Black's capture of it a loss for White, as that of a
        // strict wall (docs/status.md 2g); the whole pocket's game counts it a capture.
        let rows = ["....O", "....O", "OOOOO"];
        let found = chain_locals(&rows);
        let (local, all, a) = found
            .iter()
            .find(|(_, all, _)| all.count_ones() == 8)
            .expect("White's pocket");
        assert_eq!(*a, 0);
        let q: PocketSet = 0b11_0011; // A3 B3 A2 B2
        let part = part_game(local, *all, q);
        let (part_all, corner, b3, a2) = (0b1111, 0b1, 0b10, 2);
        assert_eq!(part.a_free, 0b1010);
        assert!(part.play_d(part_all, 0, 0, 0, 0).is_some());
        let ataris = part.strict_ataris(part_all, b3, corner);
        assert_eq!(ataris, 1 << a2);
        assert_eq!(part.play_a(part_all, b3, corner, ataris, a2), Some(Err(())));
        assert_eq!(local.strict_ataris(*all, 0b10, 0b1), 0);
    }

    #[test]
    fn parts_are_corners_that_touch_no_other_part() {
        // White's territory along the top edge of a 9x9 board, three rows deep: the parts
        // are its corners, and none touches another.
        let rows = [
            ".........",
            ".........",
            ".........",
            "OOOOOOOOO",
            "XXXXXXXXX",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        let (geo, cells) = diagram(&rows);
        let pockets = components(geo, |p| cells[p] != 2, |_, _| true);
        let top = pockets
            .iter()
            .find(|p| p.contains(&0))
            .expect("the top pocket");
        let found = parts(geo, &cells, 2, top, &vec![false; cells.len()]);
        assert!(found.len() >= 2, "{}", found.len());
        for (i, part) in found.iter().enumerate() {
            assert!(part.points.len() <= MAX_PART && part.frontier.len() <= MAX_FRONTIER);
            for other in &found[i + 1..] {
                for &p in &part.points {
                    assert!(!other.points.contains(&p) && !other.frontier.contains(&p));
                    assert!(board_neighbours(geo, p).all(|q| !other.points.contains(&q)));
                }
            }
        }
    }
}
