//! The split goal of the proof search: a large pocket is won once D's stones cut it into
//! small parts that are each settled by their own pocket game (docs/status.md 2c, large
//! pockets).
//!
//! A state of a pocket's game (`game.rs`) is *split* when
//! - every D stone of the pocket is joined to a wall;
//! - the points of the pocket without a D stone fall apart into *parts* (connected sets),
//!   each an *eye point* (one empty point) or a *small part* of 2 to `small` points;
//! - every *chain* (a wall with the pocket's D stones and the walls joined to it) touches a
//!   part and has an empty point in every part it touches;
//! - a chain is *lenient in a part* when it holds a lenient wall of the pocket or touches
//!   another part; every chain next to an eye point is lenient, and every small part with a
//!   chain that is not lenient is settled with two eyes and all its walls joined;
//! - every small part is settled, A to move, by its own local game: its walls are the
//!   chains next to it (their points next to the part), lenient as above;
//! - the parts' eyes (one per eye point, one or two per small part) are at least the goal's,
//!   and with the goal's join every chain is joined to the others through parts settled
//!   with their walls joined (or there is one chain).
//!
//! Claim: a split state is in D's attractor of the pocket's settled states. D answers an A
//! move in a part by that part's local strategy, and a pass by the next move of some part
//! not settled (or a pass). At every moment A is to move, every chain has an empty point in
//! every part it touches (the parts' games keep one after each D move, a settled part keeps
//! an eye next to each of its walls, eye points stay empty), so an A move in one part never
//! captures a chain that touches another part or holds a lenient wall, and the pocket's game
//! and the part's game agree on that move; an A move at an eye point, or at an eye of a
//! settled part, captures nothing (a chain that is not lenient there touches two eyes of
//! its part) and is self-capture. D's answers are legal in the pocket's game: the ko ban is
//! the part's, and every chain keeps a liberty. Each round lowers the sum of the parts'
//! ranks, so all parts settle, and then the pocket is settled: no A stone, every empty point
//! an eye, every chain next to an eye, with the parts' eyes and joins. The full argument is
//! in docs/status.md.

use super::depth_first::{DepthFirstProver, OutOfNodes, ProofBudget};
use super::game::{PocketGame, PocketSet};
use crate::status::limits::{MAX_PART_MEMO, MAX_PART_NODES};

/// Bit `j` of `from` moved to bit `i` for the `i`-th point of `part`.
pub(crate) fn squeeze(part: PocketSet, from: PocketSet) -> PocketSet {
    let (mut out, mut i, mut f) = (0, 0, part);
    while f != 0 {
        let p = f.trailing_zeros();
        f &= f - 1;
        out |= (from >> p & 1) << i;
        i += 1;
    }
    out
}

/// Whether the state (A stones `a`, D stones `d`) of the pocket `local` is split with at
/// least `eyes` eyes (and all walls joined with `join`): the claim above.
pub(crate) fn split_won(
    local: &PocketGame,
    all: PocketSet,
    a: PocketSet,
    d: PocketSet,
    eyes: u32,
    join: bool,
    budget: &mut ProofBudget,
) -> Result<bool, OutOfNodes> {
    // A part of a pocket (docs/status.md 2g) is not split: its parts next to the rest of
    // the pocket hold A chains that are never captured.
    if d == 0 || local.anchored(d) != d || local.a_free != 0 {
        return Ok(false);
    }
    let open = all & !d;
    let mut parts: Vec<PocketSet> = Vec::new();
    let mut rest = open;
    while rest != 0 {
        let part = local.flood(open, rest & rest.wrapping_neg());
        rest &= !part;
        if part.count_ones() as usize > budget.small {
            return Ok(false);
        }
        parts.push(part);
    }
    // The chains: (walls in it, points next to it outside D's stones, holds a lenient wall).
    let n = local.walls.len();
    let mut chains: Vec<(u64, PocketSet, bool)> = Vec::new();
    let mut seen: u64 = 0;
    for w in 0..n {
        if seen >> w & 1 == 1 {
            continue;
        }
        let (_, walls, next) = local.wall_chain(w, d);
        seen |= walls;
        chains.push((
            walls,
            next & open,
            (0..n).any(|v| walls >> v & 1 == 1 && local.lenient[v]),
        ));
    }
    // Every chain touches a part and breathes in every part it touches.
    let mut lenient: Vec<bool> = Vec::with_capacity(chains.len());
    for &(_, next, held) in &chains {
        let touched = parts.iter().filter(|&&part| next & part != 0).count();
        if touched == 0
            || parts
                .iter()
                .any(|&part| next & part != 0 && next & part & !a == 0)
        {
            return Ok(false);
        }
        lenient.push(held || touched >= 2);
    }
    let mut total = 0u32;
    // The small parts: (part, chains next to it, needs two eyes).
    let mut small: Vec<(PocketSet, Vec<usize>, bool)> = Vec::new();
    for &part in &parts {
        let next: Vec<usize> = (0..chains.len())
            .filter(|&i| chains[i].1 & part != 0)
            .collect();
        if part.count_ones() == 1 {
            if part & a != 0 || next.iter().any(|&i| !lenient[i]) {
                return Ok(false);
            }
            total += 1;
            continue;
        }
        let strict = next.iter().any(|&i| !lenient[i]);
        if strict && part.count_ones() < 3 {
            return Ok(false);
        }
        small.push((part, next, strict));
    }
    small.sort_by_key(|s| s.0.count_ones());
    let multi = chains.len() > 1;
    let mut joined_parts: Vec<bool> = Vec::with_capacity(small.len());
    let mut two: Vec<bool> = Vec::with_capacity(small.len());
    for (part, next, strict) in &small {
        let part_join = *strict || (join && multi);
        let part_eyes = if *strict { 2 } else { 1 };
        if !part_settles(
            local, *part, a, next, &chains, &lenient, part_eyes, part_join, budget,
        )? {
            return Ok(false);
        }
        total += part_eyes;
        joined_parts.push(part_join);
        two.push(*strict);
    }
    // More eyes where the goal needs them: parts of three points or more settled with two.
    for (k, (part, next, _)) in small.iter().enumerate() {
        if total >= eyes {
            break;
        }
        if !two[k]
            && part.count_ones() >= 3
            && part_settles(local, *part, a, next, &chains, &lenient, 2, true, budget)?
        {
            total += 1;
            two[k] = true;
            joined_parts[k] = true;
        }
    }
    if total < eyes {
        return Ok(false);
    }
    if join && multi {
        // The chains joined through the parts settled with their walls joined.
        let mut reach: u64 = 1;
        loop {
            let before = reach;
            for (k, (_, next, _)) in small.iter().enumerate() {
                if joined_parts[k] && next.iter().any(|&i| reach >> i & 1 == 1) {
                    for &i in next {
                        reach |= 1 << i;
                    }
                }
            }
            if reach == before {
                break;
            }
        }
        if reach.count_ones() as usize != chains.len() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether the small part `part` (A stones `a & part`) with the chains `next` as its walls
/// is settled by its own local game, A to move, with at least `eyes` eyes (and its walls
/// joined with `join`); memoised by the part's game.
#[allow(clippy::too_many_arguments)]
fn part_settles(
    local: &PocketGame,
    part: PocketSet,
    a: PocketSet,
    next: &[usize],
    chains: &[(u64, PocketSet, bool)],
    lenient: &[bool],
    eyes: u32,
    join: bool,
    budget: &mut ProofBudget,
) -> Result<bool, OutOfNodes> {
    let mut nbr = Vec::with_capacity(part.count_ones() as usize);
    let mut f = part;
    while f != 0 {
        let p = f.trailing_zeros() as usize;
        f &= f - 1;
        nbr.push(squeeze(part, local.nbr[p] & part));
    }
    let walls: Vec<PocketSet> = next
        .iter()
        .map(|&i| squeeze(part, chains[i].1 & part))
        .collect();
    let flags: Vec<bool> = next.iter().map(|&i| lenient[i]).collect();
    // A part's game never relies on first-class walls (their chains are lenient here):
    // harder for D than the pocket's game.
    let mut sub = PocketGame::new(nbr, walls);
    sub.lenient = flags;
    let sub_all: PocketSet = (1 << part.count_ones()) - 1;
    let sub_a = squeeze(part, a);
    let mut memo_key: Vec<u64> = Vec::with_capacity(sub.nbr.len() + 2 * sub.walls.len() + 4);
    memo_key.extend(&sub.nbr);
    memo_key.push(u64::MAX);
    memo_key.extend(
        sub.walls
            .iter()
            .zip(&sub.lenient)
            .flat_map(|(&w, &l)| [w, u64::from(l)]),
    );
    memo_key.extend([sub_a, u64::from(eyes), u64::from(join)]);
    if let Some(&known) = budget.memo.get(&memo_key) {
        return Ok(known);
    }
    let found = if !sub.start_ok(sub_all, sub_a) {
        false
    } else if eyes == 1 && sub.walls.len() == 1 && sub.walls[0] == sub_all && sub.lenient[0] {
        // One lenient chain next to every point (the vital walls' argument, docs/status.md
        // 2b): D fills a point while two are empty, and plays the last one when A stones
        // are left, capturing them; every D stone joins the chain, which always has a
        // liberty here after D's move and one elsewhere after A's, so A can never play the
        // last point. This ends with one eye: settled.
        true
    } else {
        // The part's proof search (it stops at the first strategy found), with a cap of its
        // own inside the shared one.
        let outer = budget.limit;
        budget.limit = outer.min(budget.nodes + MAX_PART_NODES);
        let proved =
            DepthFirstProver::new(&sub, sub_all, eyes, join, None, &mut *budget).prove(sub_a);
        budget.limit = outer;
        budget.parts += 1;
        match proved {
            Ok(found) => found,
            Err(OutOfNodes) if budget.nodes > outer => return Err(OutOfNodes),
            Err(OutOfNodes) => false,
        }
    };
    if budget.memo.len() < MAX_PART_MEMO {
        budget.memo.insert(memo_key, found);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::pocket::game::key;
    use crate::status::pocket::testing::{check_proofs, drawn, random_boards};

    #[test]
    fn split_goal_never_proves_what_the_exhaustive_game_refutes() {
        // Pockets whose exhaustive game finishes, proven by the proof search with the split
        // goal where parts may have at most 2 or 4 points (so a proof must split the pocket
        // into parts settled by their own games): every proof is one the exhaustive game of
        // the whole pocket confirms, for strict and lenient walls and every goal.
        let mut seed: u64 = 2024;
        let mut boards = random_boards(60, 2, 6, &mut seed);
        boards.extend(random_boards(40, 3, 4, &mut seed));
        boards.push(
            ["......X", ".......", "XXXXXXX"]
                .iter()
                .map(|r| (*r).to_string())
                .collect(),
        );
        boards.push(
            ["...O.X.", "X......", "XXXXXXX"]
                .iter()
                .map(|r| (*r).to_string())
                .collect(),
        );
        let (checked, _, split_proofs) = check_proofs(&boards, &[3, 5], |c, _, budget| {
            DepthFirstProver::new(c.local, c.all, c.eyes, c.join, Some(split_won), budget)
                .prove(c.a)
                .ok()
        });
        assert!(
            checked >= 1000 && split_proofs >= 10,
            "{checked} checked, {split_proofs} proven through a split"
        );
    }

    #[test]
    fn one_lenient_chain_next_to_every_point_settles_without_search() {
        // A strip along a lenient wall: every point is next to it, so the vital walls'
        // filling argument settles it; the exhaustive game agrees.
        let (mut local, all, a, _) = drawn(&[
            "#aaaa#", //
            "a.O..a", //
            "#aaaa#",
        ]);
        local.lenient[0] = true;
        let mut states = 0;
        assert_eq!(
            local.solve_from(all, key(a, 0, false, 0), 1, true, 200_000, &mut states),
            Some(true)
        );
        let mut budget = ProofBudget::new(1000, 12);
        // The part is the whole strip, with the one chain (wall 0) next to all of it.
        assert!(part_settles(
            &local,
            all,
            a,
            &[0],
            &[(1, all, true)],
            &[true],
            1,
            true,
            &mut budget
        )
        .unwrap());
        assert_eq!(budget.nodes, 0);
    }
}
