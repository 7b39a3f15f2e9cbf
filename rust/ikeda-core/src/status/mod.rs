//! Status confirmation after Sekiguchi (STATUS.md): which chains are alive, dead or seki
//! stones, decided by hypothetical play, and the Japanese-style count that follows.
//!
//! Reading guide:
//! - `grid`: the points a search plays on and first-class life (Decision 3);
//! - `search`: the hypothetical play (Decisions 5, 7, 8, 8b) and its state graph;
//! - `solve`: the goals of Section 4 (Decision 9) as fixpoints on that graph;
//! - `safe`: safe walls, a static proof of F2 (docs/status.md 2b); `regions` and
//!   `pockets`: safe groups (2c); `connections`: safe connections between their chains (2d);
//! - `estimate`, `conditional`: the opt-in estimate of regions beyond the search, and the
//!   exact search inside the walls it calls alive (not proofs);
//! - `allocate`: the final allocation (Section 5, Decision 11) and the count (Section 6,
//!   Decision 12);
//! - this file: freezing first-class chains and splitting the rest of the board into
//!   independent regions (Section 7), then classifying every chain (Decision 2).
//!
//! Why regions are exact: a chain that is first-class at the start keeps its eyes for
//! ever (Decision 3, and Decision 7(a) keeps its owner out of them), so its stones and eyes
//! never change. The other points fall into connected regions separated by those frozen
//! walls. Every goal of a chain depends only on its own region, and a move in another
//! region is, seen from this one, a pass (it lifts a simple-ko ban like a pass, and a
//! ko-pass made for bans elsewhere lifts nothing here). So each region is searched alone,
//! with both players free to pass, and gives the same answer as the whole board.

mod allocate;
mod conditional;
mod connections;
mod dfpn;
mod estimate;
mod grid;
mod pockets;
mod regions;
mod safe;
mod search;
mod seki;
mod solve;
mod split;

use crate::board::{Board, SetupError};
use crate::color::Color;
use crate::geometry::{Geometry, MAX_CELLS};
use grid::{board_neighbours, Bits, Grid, PointSet, WideSet};
use search::{Beyond, Explorer, Limits, SearchRules, State};
use solve::Solver;

pub use allocate::Count;

/// The ko rule of the hypothetical play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatusKo {
    /// Decision 8: the basic ko rule (a pass or any other move lifts the ban).
    Simple,
    /// Decision 8b: Jasiek's ko-ban with ko-pass.
    Koban,
}

/// Who moves first from the start state (Decision 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstMover {
    Attacker,
    /// For comparison only (the Nihon Kiin's convention).
    Defender,
}

/// The options of a status confirmation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusOptions {
    pub ko: StatusKo,
    pub first: FirstMover,
    /// Section 6's strict Art. 8 option: alive chains touching a dame count as in seki.
    pub strict_dame_seki: bool,
    /// Decision 7's pruning (off only to test it).
    pub prune: bool,
    /// Section 7's freezing and region split (needs `prune`; off only to test it).
    pub split: bool,
    /// The most states the whole confirmation may visit, all regions together.
    pub budget: usize,
    /// The most bytes the search may hold at once (its graph and solver, by the sizes in
    /// [`STATE_BYTES`] and [`EDGE_BYTES`]); regions are searched one after another, so
    /// this bounds the whole confirmation.
    pub memory: usize,
    /// What to do with a region beyond the limits.
    pub unresolved: Unresolved,
}

/// The default budget: states of the whole confirmation.
pub const DEFAULT_BUDGET: usize = 2_000_000;
/// The default memory bound of the search: 1 GiB.
pub const DEFAULT_MEMORY: usize = 1 << 30;
/// The most of the budget a region of more than 128 points may take: 1/WIDE_SHARE.
pub(crate) const WIDE_SHARE: usize = 64;
/// Bytes charged per state of a search: its key and number in the hash table (with the
/// table's spare room), its predicates, its successor index and the solver's per-state
/// arrays.
pub const STATE_BYTES: usize = 320;
/// Bytes charged per edge of a state graph: the successor and predecessor lists.
pub const EDGE_BYTES: usize = 12;

/// What a confirmation does with a region the search cannot settle within the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// Refuse the whole confirmation with [`StatusError::Budget`], at the first such
    /// region: never a guess.
    Refuse,
    /// Decide the chains of such regions by Monte-Carlo ownership over `playouts` native
    /// random playouts seeded with `seed`, and mark them as estimated.
    Estimate { playouts: u32, seed: u64 },
}

impl Default for StatusOptions {
    fn default() -> Self {
        StatusOptions {
            ko: StatusKo::Simple,
            first: FirstMover::Attacker,
            strict_dame_seki: false,
            prune: true,
            split: true,
            budget: DEFAULT_BUDGET,
            memory: DEFAULT_MEMORY,
            unresolved: Unresolved::Refuse,
        }
    }
}

/// The case of Section 4 that holds first, or `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Case {
    F1,
    F2,
    F3,
    S1,
    S2,
    N,
    /// Not proven: the class (`'F'`, `'S'` or `'N'`) estimated for a chain of a region
    /// beyond the search ([`Unresolved::Estimate`]).
    Estimated(char),
}

impl Case {
    /// The class: `'F'`, `'S'` or `'N'`.
    #[must_use]
    pub const fn class(self) -> char {
        match self {
            Case::F1 | Case::F2 | Case::F3 => 'F',
            Case::S1 | Case::S2 => 'S',
            Case::N => 'N',
            Case::Estimated(class) => class,
        }
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Case::F1 => "F1",
            Case::F2 => "F2",
            Case::F3 => "F3",
            Case::S1 => "S1",
            Case::S2 => "S2",
            Case::N => "N",
            Case::Estimated(_) => "estimated",
        }
    }
}

/// The final status of a chain (Section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Alive,
    Seki,
    Dead,
}

impl Status {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Seki => "seki",
            Status::Dead => "dead",
        }
    }
}

/// How a chain's case was established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// Without search: first-class at the start (F1) or a safe wall (F2, `safe.rs`).
    Static,
    /// By the exhaustive search of its region.
    Searched,
    /// Not proven: its region was beyond the search and it was estimated.
    Estimated,
    /// Not proven: searched exactly in a part of a region beyond the search, walled off by
    /// chains the estimate calls alive (`conditional.rs`).
    Conditional,
}

impl Proof {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Proof::Static => "static",
            Proof::Searched => "searched",
            Proof::Estimated => "estimated",
            Proof::Conditional => "conditional",
        }
    }
}

/// One chain's confirmation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStatus {
    pub color: Color,
    /// Flat indices, ascending.
    pub stones: Vec<usize>,
    pub case: Case,
    pub status: Status,
    pub proof: Proof,
}

/// One region that was searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionReport {
    /// Flat indices, ascending.
    pub points: Vec<usize>,
    /// States in its graph (the states visited before it was refused, for an unresolved
    /// region).
    pub states: usize,
    /// Why the search could not settle it, for a region left unresolved.
    pub unresolved: Option<String>,
}

/// The confirmation of a whole position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusReport {
    /// Black's chains, then White's, each by their first stone.
    pub chains: Vec<ChainStatus>,
    pub regions: Vec<RegionReport>,
    pub count: Count,
}

/// Why a position could not be confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatusError {
    /// The cells do not form a position.
    Setup(SetupError),
    /// A cell that is not 0, 1 or 2, or the wrong number of cells.
    Cells(String),
    /// A region is beyond the search's limits: its points (flat indices) and why.
    Budget { region: Vec<usize>, reason: String },
}

impl std::fmt::Display for StatusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatusError::Setup(e) => e.fmt(f),
            StatusError::Cells(why) => f.write_str(why),
            StatusError::Budget { region, reason } => write!(
                f,
                "region of {} points is beyond the status search: {reason}",
                region.len()
            ),
        }
    }
}

impl std::error::Error for StatusError {}

fn reason(why: &Beyond, opts: &StatusOptions) -> String {
    match why {
        Beyond::States(_) => format!("more than the {} states of the confirmation's budget", opts.budget),
        Beyond::Share(n) => format!("more than the {n} states a region of more than 128 points may take (1/{WIDE_SHARE} of the budget)"),
        Beyond::Memory => format!("more than the {} bytes of the confirmation's memory bound", opts.memory),
        Beyond::Points(n) => format!("{n} points, more than the {} a search board holds", search::MAX_POINTS),
        Beyond::Chains(n) => format!("{n} chains, more than the {} a search tracks", search::MAX_CHAINS),
        Beyond::Bans => format!("more than {} ko bans at once", search::MAX_BANS),
    }
}

/// For each chain, whether it is first-class at the start (in X* of its colour, by the
/// whole board's one-point eyes: Decision 3). Such a chain is never captured: A may never
/// play its eyes, and no strategy here fills them.
pub(crate) fn first_class_chains(geo: Geometry, cells: &[u8], chains: &[Vec<usize>]) -> Vec<bool> {
    let whole: Grid<WideSet> = Grid::new(geo, cells, (0..geo.points()).collect());
    let set = |c: u8| {
        (0..geo.points())
            .filter(|&p| cells[p] == c)
            .fold(WideSet::EMPTY, |acc, p| acc | WideSet::single(p))
    };
    let mut first = vec![false; chains.len()];
    for c in [Color::Black, Color::White] {
        let fc = whole.first_class(c, set(c as u8), set(0));
        for (k, ch) in chains.iter().enumerate() {
            if cells[ch[0]] == c as u8 && fc.stones.has(ch[0]) {
                first[k] = true;
            }
        }
    }
    first
}

/// Connected components of `points` (flat indices), each ascending, ordered by their
/// first point.
fn components(
    geo: Geometry,
    inside: impl Fn(usize) -> bool,
    same: impl Fn(usize, usize) -> bool,
) -> Vec<Vec<usize>> {
    let mut seen = vec![false; geo.points()];
    let mut out = Vec::new();
    for start in 0..geo.points() {
        if seen[start] || !inside(start) {
            continue;
        }
        seen[start] = true;
        let mut comp = vec![start];
        let mut k = 0;
        while k < comp.len() {
            let p = comp[k];
            k += 1;
            for q in board_neighbours(geo, p) {
                if !seen[q] && inside(q) && same(p, q) {
                    seen[q] = true;
                    comp.push(q);
                }
            }
        }
        comp.sort_unstable();
        out.push(comp);
    }
    out
}

/// The cases of the `tracked` chains, all inside the region `points`, and the number of
/// states searched; `left` is what is left of the budget, and is charged.
/// The search board is the narrowest bit set that holds the region: a region of at most
/// 128 points keeps the fast `u128` board. A wider region may take at most
/// 1/[`WIDE_SHARE`] of the budget: on a real board it is the open territories and
/// everything joined to them, whose state space no exhaustive search covers, and without
/// a cap it would spend the whole budget (about 1.4 µs a state) to be refused anyway.
fn solve_region(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    tracked: &[usize],
    points: &[usize],
    opts: &StatusOptions,
    left: &mut usize,
) -> Result<(Vec<Case>, usize), (Beyond, usize)> {
    let n = points.len();
    if n <= u128::CAPACITY {
        return solve_on::<u128>(geo, cells, chains, tracked, points, opts, left);
    }
    let cap = (*left).min(opts.budget / WIDE_SHARE);
    let mut part = cap;
    let result = if n <= Bits::<6>::CAPACITY {
        solve_on::<Bits<6>>(geo, cells, chains, tracked, points, opts, &mut part)
    } else if n <= search::MAX_POINTS.min(WideSet::CAPACITY) {
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
    let board = search::Board::new(
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
    // safe walls (`safe.rs`, F2 by a static proof) and their pockets.
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
            let (walls, pockets) = safe::safe_walls(geo, cells, &chains, &chain_of, c);
            for k in walls {
                case[k].get_or_insert((Case::F2, Proof::Static));
                for &p in &chains[k] {
                    frozen[p] = true;
                }
            }
            // An empty pocket needs no search; one holding stones of the other colour is
            // searched as a region of its own, walled by the safe chains.
            for pocket in pockets
                .into_iter()
                .filter(|pocket| pocket.iter().all(|&p| cells[p] == 0))
            {
                for p in pocket {
                    frozen[p] = true;
                }
            }
        }
    }
    // Safe groups (`regions.rs`): walls proven F2 and the A chains of their settled
    // pockets proven N. They are not frozen: the search of their region, where it is
    // within reach, decides them again exactly; where it is not, these proofs stand.
    let mut claimed: Vec<Option<Case>> = vec![None; chains.len()];
    if opts.split && opts.prune {
        let first = first_class_chains(geo, cells, &chains);
        for c in [1u8, 2] {
            let found = regions::safe_groups(geo, cells, &chains, &chain_of, c, &first);
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
        match solve_region(geo, cells, &chains, &tracked, &points, opts, &mut left) {
            Ok((found, states)) => {
                for (&k, found) in tracked.iter().zip(found) {
                    debug_assert!(
                        claimed[k].is_none_or(|c| c.class() == found.class()),
                        "safe-group proof {:?} against search {found:?}",
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
                // Chains proven by the safe-group proof keep that proof; only the others
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
        let owned =
            estimate::ownership_counts(geo, cells, playouts, seed).map_err(StatusError::Setup)?;
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
        conditional::refine(
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
    let (statuses, count) =
        allocate::allocate(geo, cells, &chains, &colors, &cases, opts.strict_dame_seki);
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
pub(crate) mod tests {
    use super::*;

    /// Rows top first, `X` `O` `.` → the geometry and the cells (1 black, 2 white, 0 empty).
    pub(crate) fn diagram(rows: &[&str]) -> (Geometry, Vec<u8>) {
        let geo = Geometry::new(rows[0].len(), rows.len()).unwrap();
        let cells = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|b| match b {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect();
        (geo, cells)
    }

    /// Rows top first, `X` `O` `.` → (status rows, class rows).
    pub(crate) fn confirm(
        rows: &[&str],
        opts: &StatusOptions,
    ) -> (Vec<String>, Vec<String>, StatusReport) {
        let (geo, cells) = diagram(rows);
        let report = match confirm_status(geo, &cells, opts) {
            Ok(r) => r,
            Err(e) => panic!("{e:?}"),
        };
        let mut status = vec![b'.'; cells.len()];
        let mut class = vec![b'.'; cells.len()];
        for ch in &report.chains {
            for &p in &ch.stones {
                status[p] = match ch.status {
                    Status::Alive => b'a',
                    Status::Seki => b's',
                    Status::Dead => b'd',
                };
                class[p] = ch.case.class() as u8;
            }
        }
        let w = geo.width as usize;
        let rows = |v: Vec<u8>| {
            v.chunks(w)
                .map(|r| String::from_utf8(r.to_vec()).unwrap())
                .collect()
        };
        (rows(status), rows(class), report)
    }

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
}
