//! Seki recognition for the conditional search (docs/status.md, "Seki in the conditional
//! search"): a part that the exact search cannot finish is searched again with captures of
//! large chains taken as settled, and the chains that come out in seki with each other are
//! kept.
//!
//! Why the exact search does not finish: in a seki each side's only way to break it is to
//! fill a shared liberty, which puts his own chain in atari; the other side captures it and
//! the captured points are empty, so the search goes on in an open area as large as the
//! captured chain (3^n states for n points). In a real game the seki chains hold ten or
//! twenty stones, far beyond any budget.
//!
//! The settling rule: a move that captures at least [`SETTLING_CAPTURE`] stones ends the
//! hypothetical play there. From then on the captured chains never come back (G, T and G'
//! fail for them for ever), the capturer's chains next to the captured points are taken as
//! first-class (G and T hold for them for ever: no eye space of seven points or more is a
//! killing shape), and every other chain keeps what it has (G if it is whole, never T).
//! This is an assumption, like the estimated walls around the part, so nothing found with
//! it is proven: the chains keep
//! [`Proof::Conditional`](crate::status::report::Proof::Conditional). Only the chains of a
//! seki take the answer: S chains that share an empty point with an S or N chain of the
//! other colour, and N chains that share one with such an S chain (killable, but only by a
//! chain in seki: Section 5 makes them seki stones too). Every other chain of the part
//! keeps its estimate, since the settling rule does not decide capture races exactly.
//!
//! What the rule changes against the exact search: only plays that capture a large chain.
//! A seki is recognised when neither side can force such a capture (each would have to put
//! his own chain in atari first) and neither can make two eyes without it; chains short
//! of that (one side can capture the other outright) come out F and N and are not taken.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::color::Color;
use crate::geometry::Geometry;
use crate::status::limits::{
    CONTACT_SETTLING_CAPTURE, EDGE_BYTES, MAX_CHAINS, SETTLING_CAPTURE, STATE_BYTES,
};
use crate::status::options::{FirstMover, StatusKo, StatusOptions};
use crate::status::report::Case;
use crate::status::search::goals::Solver;
use crate::status::search::grid::{board_neighbours, Grid, PointSet};
use crate::status::search::play::{SearchBoard, SearchRules, State, StateGraph};
use crate::word_hash::WordMap;

/// The flag of a settled state in [`State::meta`] (bits 0-8 are the mover and the ko).
const SETTLED: u16 = 1 << 15;

/// Chains of `tracked` that share an empty point with a tracked chain of the other colour:
/// the seki candidates of a part.
pub(crate) fn candidates(
    geo: Geometry,
    cells: &[u8],
    chain_of: &[usize],
    tracked: &[usize],
) -> Vec<usize> {
    let mut out = Vec::new();
    for p in (0..geo.points()).filter(|&p| cells[p] == 0) {
        let near: Vec<usize> = board_neighbours(geo, p)
            .filter(|&q| cells[q] != 0 && tracked.contains(&chain_of[q]))
            .collect();
        for &a in &near {
            if near.iter().any(|&b| cells[b] != cells[a]) {
                out.push(chain_of[a]);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether the part of the chains `tracked` is all one seki contact: every chain has at
/// most two liberties, both colours are there, and the chains are all linked to each
/// other through shared empty points (a chain shares one with another chain of the part,
/// of either colour, and so on). Then every chain is short of liberties and in the fight:
/// none has room to make eyes of its own beside it.
pub(crate) fn in_contact(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    tracked: &[usize],
) -> bool {
    let Some(&first) = tracked.first() else {
        return false;
    };
    let short = |k: usize| {
        let mut libs: Vec<usize> = chains[k]
            .iter()
            .flat_map(|&p| board_neighbours(geo, p))
            .filter(|&q| cells[q] == 0)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs.len() <= 2
    };
    if !tracked.iter().all(|&k| short(k)) {
        return false;
    }
    let colours: Vec<u8> = tracked.iter().map(|&k| cells[chains[k][0]]).collect();
    if !(colours.contains(&1) && colours.contains(&2)) {
        return false;
    }
    let mut reached = vec![first];
    let mut k = 0;
    while k < reached.len() {
        let c = reached[k];
        k += 1;
        for q in chains[c]
            .iter()
            .flat_map(|&p| board_neighbours(geo, p))
            .filter(|&q| cells[q] == 0)
        {
            for r in board_neighbours(geo, q).filter(|&r| cells[r] != 0) {
                let j = chain_of[r];
                if tracked.contains(&j) && !reached.contains(&j) {
                    reached.push(j);
                }
            }
        }
    }
    reached.len() == tracked.len()
}

/// The chains of the part `points` that are in a seki under the settling rule, with their
/// cases (S1, S2, or N for a chain next to a seki chain); `None` when the settled graph
/// exceeds `limit` states, the states still in `left` (the states visited are charged
/// there) or the memory bound, or the part is beyond the search board. The rule settles
/// captures of [`SETTLING_CAPTURE`] stones; where that exceeds the limit and the part is
/// all one seki contact ([`in_contact`]), it is tried again with
/// [`CONTACT_SETTLING_CAPTURE`], under the same limit. Only the simple
/// ko rule with the attacker first (the defaults) is recognised.
#[allow(clippy::too_many_arguments)]
pub(crate) fn seki_cases(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    tracked: &[usize],
    points: &[usize],
    opts: &StatusOptions,
    limit: usize,
    left: &mut usize,
) -> Option<Vec<(usize, Case)>> {
    seki_cases_at(
        geo,
        cells,
        chains,
        chain_of,
        tracked,
        points,
        opts,
        &[SETTLING_CAPTURE, CONTACT_SETTLING_CAPTURE],
        limit,
        left,
    )
}

/// [`seki_cases`] with the settling thresholds tried in turn: the first, then each next
/// one where the last exceeded the limit and the part is all one seki contact.
#[allow(clippy::too_many_arguments)]
fn seki_cases_at(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    tracked: &[usize],
    points: &[usize],
    opts: &StatusOptions,
    thresholds: &[u32],
    limit: usize,
    left: &mut usize,
) -> Option<Vec<(usize, Case)>> {
    if points.len() > u128::CAPACITY
        || tracked.len() > MAX_CHAINS
        || opts.ko != StatusKo::Simple
        || opts.first != FirstMover::Attacker
        || !opts.prune
    {
        return None;
    }
    let grid: Grid<u128> = Grid::new(geo, cells, points.to_vec());
    let board = SearchBoard::new(
        &grid,
        SearchRules {
            koban: false,
            prune: true,
        },
    );
    let local = |p: usize| grid.points.binary_search(&p).expect("a region point");
    let mut stones = [0u128; 2];
    let mut goals = Vec::new();
    for &k in tracked {
        let c = if cells[chains[k][0]] == 1 {
            Color::Black
        } else {
            Color::White
        };
        let set = chains[k].iter().fold(0u128, |acc, &p| acc | 1 << local(p));
        stones[c.index()] |= set;
        goals.push((c, set));
    }
    let roots = [
        State::start(stones[0], stones[1], Color::White),
        State::start(stones[0], stones[1], Color::Black),
    ];
    let mut settle = |threshold: u32| {
        let cap = limit.min(*left);
        let found = settled_graph(&board, &grid, &roots, &goals, threshold, cap, opts.memory);
        *left -= found.as_ref().map_or(cap, |(graph, _)| graph.g.len());
        found
    };
    let mut found = None;
    for (i, &threshold) in thresholds.iter().enumerate() {
        if i > 0 && !in_contact(geo, cells, chains, chain_of, tracked) {
            break;
        }
        found = settle(threshold);
        if found.is_some() {
            break;
        }
    }
    let (graph, root_ids) = found?;
    let solver = Solver::new(&graph).ok()?;
    // Chain of colour D: the root with the attacker (the other colour) to move.
    let cases: Vec<Case> = goals
        .iter()
        .enumerate()
        .map(|(i, &(d, _))| {
            let root = root_ids[usize::from(d == Color::White)] as usize;
            solver
                .first_class_case(i, d, root)
                .unwrap_or_else(|| solver.other_case(i, d, root))
        })
        .collect();
    let class_of = |k: usize| {
        tracked
            .iter()
            .position(|&t| t == k)
            .map(|i| cases[i].class())
    };
    // Whether chain `k` shares an empty point with a chain of `group` (either colour).
    let touches = |k: usize, group: &[usize]| {
        chains[k]
            .iter()
            .flat_map(|&p| board_neighbours(geo, p))
            .filter(|&q| cells[q] == 0)
            .any(|q| {
                board_neighbours(geo, q).any(|r| cells[r] != 0 && group.contains(&chain_of[r]))
            })
    };
    // Whether chain `k` shares an empty point with a chain of the other colour for which
    // `partner` holds.
    let shares = |k: usize, partner: &dyn Fn(usize) -> bool| {
        let colour = cells[chains[k][0]];
        chains[k]
            .iter()
            .flat_map(|&p| board_neighbours(geo, p))
            .filter(|&q| cells[q] == 0)
            .any(|q| {
                board_neighbours(geo, q)
                    .any(|r| cells[r] != 0 && cells[r] != colour && partner(chain_of[r]))
            })
    };
    // Both sides of a seki: S chains next (through a shared empty point) to an S or N
    // chain of the other colour, then every S chain that shares an empty point with one
    // of those (a chain of the same group, whose liberties are the seki's), and the N
    // chains next to those S chains (their status then comes from the surrounding test
    // of Section 5).
    let mut seki: Vec<usize> = tracked
        .iter()
        .copied()
        .filter(|&k| {
            class_of(k) == Some('S') && shares(k, &|j| matches!(class_of(j), Some('S' | 'N')))
        })
        .collect();
    loop {
        let more: Vec<usize> = tracked
            .iter()
            .copied()
            .filter(|&k| class_of(k) == Some('S') && !seki.contains(&k) && touches(k, &seki))
            .collect();
        if more.is_empty() {
            break;
        }
        seki.extend(more);
    }
    let mut out: Vec<(usize, Case)> = Vec::new();
    for (i, &k) in tracked.iter().enumerate() {
        let take = match cases[i].class() {
            'S' => seki.contains(&k),
            'N' => shares(k, &|j| seki.contains(&j)),
            _ => false,
        };
        if take {
            out.push((k, cases[i]));
        }
    }
    Some(out)
}

/// The state graph of the hypothetical play from `roots` under the settling rule (a capture
/// of `threshold` stones or more settles): every
/// state is expanded, except settled ones, which have themselves as only successor and
/// fixed predicates. `None` beyond `limit` states or `memory` bytes.
fn settled_graph(
    board: &SearchBoard<'_, u128>,
    grid: &Grid<u128>,
    roots: &[State<u128>],
    chains: &[(Color, u128)],
    threshold: u32,
    limit: usize,
    memory: usize,
) -> Option<(StateGraph, Vec<u32>)> {
    let mut ids: WordMap<State<u128>, u32> = WordMap::default();
    let mut states: Vec<State<u128>> = Vec::new();
    // For a settled state: the capturer and the points captured by the move into it (the
    // first move found that leads there).
    let mut settled: HashMap<u32, (Color, u128)> = HashMap::new();
    let mut intern = |s: State<u128>, states: &mut Vec<State<u128>>| -> Option<u32> {
        let next = states.len();
        match ids.entry(s) {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(_) if next >= limit => None,
            Entry::Vacant(e) => {
                states.try_reserve(1).ok()?;
                e.insert(next as u32);
                states.push(s);
                Some(next as u32)
            }
        }
    };
    let root_ids = roots
        .iter()
        .map(|&r| intern(r, &mut states))
        .collect::<Option<Vec<_>>>()?;
    let mut graph = StateGraph {
        white_to_move: Vec::new(),
        succ_start: vec![0],
        succ: Vec::new(),
        g: Vec::new(),
        t: Vec::new(),
        gp: Vec::new(),
    };
    let mut next = Vec::new();
    let mut k = 0;
    while k < states.len() {
        if states
            .len()
            .saturating_mul(STATE_BYTES)
            .saturating_add(graph.succ.len().saturating_mul(EDGE_BYTES))
            > memory
        {
            return None;
        }
        let s = states[k];
        let id = k as u32;
        k += 1;
        let held = board.held(&s);
        let (mut g, mut t, mut gp) = (0u64, 0u64, 0u64);
        let capture = settled.get(&id).copied();
        for (i, &(c, points)) in chains.iter().enumerate() {
            let h = held[c.index()];
            let own = s.stones(c);
            let whole = points & !own == 0;
            match capture {
                None => {
                    g |= u64::from(whole) << i;
                    t |= u64::from(points & !(h.stones | h.eyes) == 0) << i;
                    gp |= u64::from(points & (own | h.eyes) != 0) << i;
                }
                Some((capturer, taken)) => {
                    // Captured chains never come back; the capturer's chains next to the
                    // captured points are first-class; the others keep what they have.
                    let next_to = grid.around(taken) & points != 0;
                    let first = c == capturer && whole && next_to;
                    g |= u64::from(whole) << i;
                    t |= u64::from(first) << i;
                    gp |= u64::from(whole) << i;
                }
            }
        }
        graph.g.push(g);
        graph.t.push(t);
        graph.gp.push(gp);
        graph.white_to_move.push(s.mover() == Color::White);
        next.clear();
        if capture.is_some() {
            graph.succ.push(id);
        } else {
            board.successors(&s, &held, &mut next).ok()?;
            let m = s.mover();
            let first = graph.succ.len();
            for &n in &next {
                let taken = s.stones(m.opponent()) & !n.stones(m.opponent());
                let n = if taken.count_ones() >= threshold {
                    State {
                        meta: n.meta | SETTLED,
                        ..n
                    }
                } else {
                    n
                };
                let nid = intern(n, &mut states)?;
                if n.meta & SETTLED != 0 {
                    settled.entry(nid).or_insert((m, taken));
                }
                graph.succ.push(nid);
            }
            graph.succ[first..].sort_unstable();
            let mut len = first;
            for j in first..graph.succ.len() {
                if j == first || graph.succ[j] != graph.succ[len - 1] {
                    graph.succ[len] = graph.succ[j];
                    len += 1;
                }
            }
            graph.succ.truncate(len);
        }
        graph.succ_start.push(graph.succ.len() as u32);
    }
    Some((graph, root_ids))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::search::grid::components;
    use crate::status::testing::{confirm, diagram};

    /// The settling rule on the whole board of `rows` (no walls): the chains it takes (in
    /// seki, or dead next to a seki), as their first stones, each checked against the
    /// exact search, which must give it the same class.
    fn recognised(rows: &[&str]) -> Vec<usize> {
        recognised_at(
            rows,
            &[SETTLING_CAPTURE, CONTACT_SETTLING_CAPTURE],
            1_000_000,
        )
        .expect("within the limit")
    }

    /// [`recognised`] with the settling thresholds `thresholds` and the limit `limit` per
    /// try; `None` where the settled graph exceeds it.
    fn recognised_at(rows: &[&str], thresholds: &[u32], limit: usize) -> Option<Vec<usize>> {
        let (geo, cells, chains, chain_of) = chains_of(rows);
        let tracked: Vec<usize> = (0..chains.len()).collect();
        let points: Vec<usize> = (0..geo.points()).collect();
        let found = seki_cases_at(
            geo,
            &cells,
            &chains,
            &chain_of,
            &tracked,
            &points,
            &StatusOptions::default(),
            thresholds,
            limit,
            &mut (thresholds.len() * limit),
        )?;
        let (_, class, _) = confirm(
            rows,
            &StatusOptions {
                split: false,
                ..StatusOptions::default()
            },
        );
        let w = usize::from(geo.width);
        for &(k, case) in &found {
            let p = chains[k][0];
            assert_eq!(
                class[p / w].as_bytes()[p % w],
                case.class() as u8,
                "{rows:?}: chain at {p} recognised as {case:?}"
            );
        }
        Some(found.iter().map(|&(k, _)| chains[k][0]).collect())
    }

    /// A diagram with its chains and each point's chain (`usize::MAX` where empty).
    fn chains_of(rows: &[&str]) -> (Geometry, Vec<u8>, Vec<Vec<usize>>, Vec<usize>) {
        let (geo, cells) = diagram(rows);
        let chains = components(geo, |p| cells[p] != 0, |p, q| cells[p] == cells[q]);
        let mut chain_of = vec![usize::MAX; geo.points()];
        for (k, ch) in chains.iter().enumerate() {
            for &p in ch {
                chain_of[p] = k;
            }
        }
        (geo, cells, chains, chain_of)
    }

    /// The part of a whole diagram, as `in_contact` sees it.
    fn contact(rows: &[&str]) -> bool {
        let (geo, cells, chains, chain_of) = chains_of(rows);
        let tracked: Vec<usize> = (0..chains.len()).collect();
        in_contact(geo, &cells, &chains, &chain_of, &tracked)
    }

    #[test]
    fn contact_parts_are_short_of_liberties_linked_and_of_both_colours() {
        // Black's chain and White's share B1; White's other liberty is D1.
        assert!(contact(&["XXOOO", "X.O.O"]));
        // One colour only; a chain with three liberties; two pairs not linked.
        assert!(!contact(&["XX.XX", "X.X.X"]));
        assert!(!contact(&["X.O..", "XXOOO"]));
        assert!(!contact(&["X.OX.O"]));
    }

    #[test]
    fn settling_rule_recognises_a_seki_and_nothing_the_exact_search_calls_otherwise() {
        // Two eyeless chains sharing two liberties, each next to a wall of its own colour
        // that the other cannot take: both are in seki.
        assert_eq!(recognised(&["X.X.XO.XO.O.O", "XXXXXO.XOOOOO"]).len(), 2);
        // The exact search's answers (alive, dead) are never taken for seki.
        for rows in [
            &["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"][..],
            &[".XO.O", "XXOOO", "OOO.O", "O.OOO"],
            &[".X.XO", "XXXOO", "OOOO.", ".O.OO"],
            &["X...X", "XXXXX", "OOOOO", "O.O.O"],
            &[".XOX.", "XXOOO", ".XXXX"],
        ] {
            assert!(recognised(rows).is_empty(), "{rows:?}");
        }
    }

    #[test]
    fn contact_threshold_agrees_with_the_exact_search_on_the_constructed_positions() {
        // Captures of four stones or more settling (the threshold of parts that are all
        // one seki contact): the same chains taken, each with the exhaustive search's
        // class (`recognised_at` checks it).
        for rows in [
            &["X.X.XO.XO.O.O", "XXXXXO.XOOOOO"][..],
            &["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"],
            &[".XO.O", "XXOOO", "OOO.O", "O.OOO"],
            &[".X.XO", "XXXOO", "OOOO.", ".O.OO"],
            &["X...X", "XXXXX", "OOOOO", "O.O.O"],
            &[".XOX.", "XXOOO", ".XXXX"],
        ] {
            assert_eq!(
                recognised_at(rows, &[CONTACT_SETTLING_CAPTURE], 1_000_000),
                Some(recognised(rows)),
                "{rows:?}"
            );
        }
    }
}
