//! One region searched: the exhaustive hypothetical play of its points (`play.rs`) and the
//! goals of its chains (`goals.rs`), on the narrowest search board that holds it, under
//! the confirmation's budget and memory bound.

use super::goals::Solver;
use super::grid::{Bits, Grid, PointSet, WideSet};
use super::play::{Beyond, Explorer, Limits, SearchBoard, SearchRules, State};
use crate::color::Color;
use crate::geometry::Geometry;
use crate::status::limits::{MAX_BANS, MAX_CHAINS, MAX_FULL_EMPTY, MAX_POINTS, WIDE_SHARE};
use crate::status::options::{FirstMover, StatusKo, StatusOptions};
use crate::status::report::Case;
#[cfg(doc)]
use crate::status::report::StatusError;

/// The cases of the `tracked` chains, all inside the region `points` (chains and points as
/// the whole board numbers them), and the number of states searched; `left` is what is
/// left of the budget, and is charged.
/// The search board is the narrowest bit set that holds the region: a region of at most
/// 128 points keeps the fast `u128` board. A wider region may take at most
/// 1/[`WIDE_SHARE`] of the budget: on a real board it is the open territories and
/// everything joined to them, whose state space no exhaustive search covers, and without
/// a cap it would spend the whole budget (about 1.4 µs a state) to be refused anyway. So
/// may a region of more than [`MAX_FULL_EMPTY`] empty points, whatever its width: the
/// whole board of a finished 9x9 game, which spent 2-7 s of CPU to be refused.
pub(crate) fn solve_region(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    tracked: &[usize],
    points: &[usize],
    opts: &StatusOptions,
    left: &mut usize,
) -> Result<(Vec<Case>, usize), (Beyond, usize)> {
    let n = points.len();
    let open = points.iter().filter(|&&p| cells[p] == 0).count() > MAX_FULL_EMPTY;
    if n <= u128::CAPACITY && !open {
        return solve_on::<u128>(geo, cells, chains, tracked, points, opts, left);
    }
    let cap = (*left).min(opts.budget / WIDE_SHARE);
    let mut part = cap;
    let result = if n <= u128::CAPACITY {
        solve_on::<u128>(geo, cells, chains, tracked, points, opts, &mut part)
    } else if n <= Bits::<6>::CAPACITY {
        solve_on::<Bits<6>>(geo, cells, chains, tracked, points, opts, &mut part)
    } else if n <= MAX_POINTS.min(WideSet::CAPACITY) {
        solve_on::<WideSet>(geo, cells, chains, tracked, points, opts, &mut part)
    } else {
        Err((Beyond::Points(n), 0))
    };
    *left -= cap - part;
    let share = opts.budget / WIDE_SHARE;
    result.map_err(|(e, n)| {
        (
            if matches!(e, Beyond::States(_)) && cap == share {
                Beyond::Share(share)
            } else {
                e
            },
            n,
        )
    })
}

fn solve_on<S: PointSet>(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    tracked: &[usize],
    points: &[usize],
    opts: &StatusOptions,
    left: &mut usize,
) -> Result<(Vec<Case>, usize), (Beyond, usize)> {
    let grid: Grid<S> = Grid::new(geo, cells, points.to_vec());
    let board = SearchBoard::new(
        &grid,
        SearchRules {
            koban: opts.ko == StatusKo::Koban,
            prune: opts.prune,
        },
    );
    let local = |p: usize| grid.points.binary_search(&p).expect("a region point");
    let mut stones = [S::EMPTY; 2];
    let mut goals = Vec::new();
    for &k in tracked {
        let c = if cells[chains[k][0]] == 1 {
            Color::Black
        } else {
            Color::White
        };
        let set = chains[k]
            .iter()
            .fold(S::EMPTY, |acc, &p| acc | S::single(local(p)));
        stones[c.index()] = stones[c.index()] | set;
        goals.push((c, set));
    }
    // The start state of a chain of colour D: the attacker (or D) to move, no ko ban.
    let mover = |d: Color| {
        if opts.first == FirstMover::Attacker {
            d.opponent()
        } else {
            d
        }
    };
    let roots: Vec<State<S>> = [Color::Black, Color::White]
        .into_iter()
        .filter(|&d| goals.iter().any(|&(c, _)| c == d))
        .map(|d| State::start(stones[0], stones[1], mover(d)))
        .collect();
    let root_of = |d: Color| {
        roots
            .iter()
            .position(|r| r.mover() == mover(d))
            .expect("a root per colour")
    };
    // F1 and F2 first, on the states where some chain is whole; then, for the chains
    // left, F3, S1 and S2 on the whole graph. Both passes share one table of states: the
    // second is charged only the states the first did not meet, and takes over the first
    // one's moves and predicates (the first graph is freed as the second is built).
    let limits = |states: usize| Limits {
        states,
        memory: opts.memory,
    };
    let budget = *left;
    let mut explorer = Explorer::new(&board, &roots, &goals, budget)?;
    let charge = |left: &mut usize, n: usize| *left = budget - n.min(budget);
    let graph = explorer
        .explore(limits(budget), false, None)
        .map_err(|(e, n)| {
            charge(left, n);
            (e, n)
        })?;
    charge(left, explorer.len());
    let root_ids = explorer.roots.clone();
    let found: Vec<Option<Case>> = {
        let solver = Solver::new(&graph).map_err(|e| (e, explorer.len()))?;
        goals
            .iter()
            .enumerate()
            .map(|(i, &(d, _))| solver.first_class_case(i, d, root_ids[root_of(d)] as usize))
            .collect()
    };
    if found.iter().all(Option::is_some) {
        return Ok((found.into_iter().flatten().collect(), explorer.len()));
    }
    let graph = explorer
        .explore(limits(budget), true, Some(graph))
        .map_err(|(e, n)| {
            charge(left, n);
            (e, n)
        })?;
    charge(left, explorer.len());
    let solver = Solver::new(&graph).map_err(|e| (e, explorer.len()))?;
    let cases = goals
        .iter()
        .enumerate()
        .map(|(i, &(d, _))| {
            found[i].unwrap_or_else(|| solver.other_case(i, d, root_ids[root_of(d)] as usize))
        })
        .collect();
    Ok((cases, explorer.len()))
}

/// Why a region was refused, in words, for [`StatusError::Budget`] and the report.
pub(crate) fn reason(why: &Beyond, opts: &StatusOptions) -> String {
    match why {
        Beyond::States(_) => format!("more than the {} states of the confirmation's budget", opts.budget),
        Beyond::Share(n) => format!("more than the {n} states a region of more than 128 points or {MAX_FULL_EMPTY} empty ones may take (1/{WIDE_SHARE} of the budget)"),
        Beyond::Memory => format!("more than the {} bytes of the confirmation's memory bound", opts.memory),
        Beyond::Points(n) => format!("{n} points, more than the {} a search board holds", MAX_POINTS),
        Beyond::Chains(n) => format!("{n} chains, more than the {} a search tracks", MAX_CHAINS),
        Beyond::Bans => format!("more than {} ko bans at once", MAX_BANS),
    }
}
