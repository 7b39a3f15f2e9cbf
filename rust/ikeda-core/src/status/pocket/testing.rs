//! Test helpers of the pocket game: the pocket games of diagrams and the exact cases the
//! proof searches are checked against.

use super::depth_first::ProofBudget;
use super::game::{key, pocket_bits, PocketGame, PocketSet};
use crate::status::limits::MAX_POCKET;
use crate::status::search::grid::{board_neighbours, components};
use crate::status::testing::diagram;

/// The local games of every pocket of 2 to 12 points of a diagram, for both colours,
/// with one strict wall per stone next to the pocket (chains need not be found here:
/// any partition of the walls is a local game): `(local, all, a)`.
pub(crate) fn locals(rows: &[&str]) -> Vec<(PocketGame, PocketSet, PocketSet)> {
    let (geo, cells) = diagram(rows);
    let mut out = Vec::new();
    for c in [1u8, 2] {
        let pockets = components(geo, |p| cells[p] != c, |_, _| true);
        for pocket in pockets
            .iter()
            .filter(|pk| (2..=MAX_POCKET).contains(&pk.len()))
        {
            let walls: Vec<PocketSet> = (0..cells.len())
                .filter(|&q| cells[q] == c)
                .map(|q| {
                    pocket
                        .iter()
                        .enumerate()
                        .filter(|&(_, &p)| board_neighbours(geo, p).any(|r| r == q))
                        .fold(0, |acc: PocketSet, (j, _)| acc | 1 << j)
                })
                .filter(|&adj| adj != 0)
                .collect();
            if walls.is_empty() {
                continue;
            }
            let a = pocket_bits(pocket, |p| cells[p] != 0);
            out.push((
                PocketGame::of_points(pocket, |p| board_neighbours(geo, p), walls),
                (1 << pocket.len()) - 1,
                a,
            ));
        }
    }
    out
}

/// The next draw of the tests' linear congruential generator: `seed` steps on, and its
/// high bits come back.
pub(crate) fn draw(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

/// Random boards of `h` rows of `w` points above a Black wall.
pub(crate) fn random_boards(n: usize, h: usize, w: usize, seed: &mut u64) -> Vec<Vec<String>> {
    (0..n)
        .map(|_| {
            let mut rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| {
                            ['.', '.', '.', '.', '.', 'X', 'X', 'O'][(draw(seed) >> 28) as usize]
                        })
                        .collect()
                })
                .collect();
            rows.push("X".repeat(w));
            rows
        })
        .collect()
}

/// A proof search checked against every exact case of the boards, once for each
/// limit on the parts of a split in `smalls`: every proof must be one the exhaustive
/// game confirms. `prove` runs the search on a case with a budget; the answer is the
/// cases checked, the proofs and the proofs through a split.
pub(crate) fn check_proofs(
    boards: &[Vec<String>],
    smalls: &[usize],
    mut prove: impl FnMut(&ExactCase, usize, &mut ProofBudget) -> Option<bool>,
) -> (usize, usize, usize) {
    let (mut checked, mut proven, mut split_proofs) = (0, 0, 0);
    for_each_exact_case(boards, 200_000, |c| {
        for &small in smalls {
            let mut budget = ProofBudget::new(20_000, small);
            let found = prove(c, small, &mut budget);
            assert!(
                found != Some(true) || c.exact,
                "{} small {small}",
                c.describe()
            );
            checked += 1;
            proven += usize::from(found == Some(true));
            split_proofs += usize::from(found == Some(true) && budget.parts > 0);
        }
    });
    (checked, proven, split_proofs)
}

/// One pocket's local game of a walled test board, with strict or lenient walls and
/// one goal, and its answer by the exhaustive game.
pub(crate) struct ExactCase<'r> {
    pub(crate) rows: &'r [&'r str],
    pub(crate) local: &'r PocketGame,
    pub(crate) all: PocketSet,
    pub(crate) a: PocketSet,
    pub(crate) eyes: u32,
    pub(crate) join: bool,
    pub(crate) lenient: bool,
    pub(crate) exact: bool,
}

impl ExactCase<'_> {
    /// The case, for an assertion's message.
    pub(crate) fn describe(&self) -> String {
        format!(
            "{:?} all {:b} a {:b} walls {:?} eyes {} join {} lenient {}",
            self.rows, self.all, self.a, self.local.walls, self.eyes, self.join, self.lenient
        )
    }
}

/// Every local game of the boards' pockets, with strict and with lenient walls, for
/// every goal, whose exhaustive game finishes within `limit` states: the cases the
/// proof searches' soundness tests check their proofs against.
pub(crate) fn for_each_exact_case(
    boards: &[Vec<String>],
    limit: usize,
    mut check: impl FnMut(&ExactCase),
) {
    for rows in boards {
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        for (strict, all, a) in locals(&rows) {
            for lenient in [false, true] {
                let mut local = strict.clone();
                local.lenient.fill(lenient);
                for (eyes, join) in [(1, false), (1, true), (2, true)] {
                    let mut states = 0;
                    let exact = if local.start_ok(all, a) {
                        let root = key(a, 0, false, 0);
                        local.solve_from(all, root, eyes, join, limit, &mut states)
                    } else {
                        Some(false)
                    };
                    let Some(exact) = exact else { continue };
                    check(&ExactCase {
                        rows: &rows,
                        local: &local,
                        all,
                        a,
                        eyes,
                        join,
                        lenient,
                        exact,
                    });
                }
            }
        }
    }
}

/// A pocket game drawn, rows top first: `.` an empty point of the pocket, `O` an A stone
/// in it, `X` a D stone in it, a lower-case letter a D stone of the wall of that letter
/// (`a` the first wall), `#` no point of the game (the board's edge, or stones next to
/// no pocket point). The pocket's points are numbered row by row, as a board numbers them;
/// every wall is strict. `(game, all, a, d)`.
pub(crate) fn drawn(rows: &[&str]) -> (PocketGame, PocketSet, PocketSet, PocketSet) {
    let at = |r: usize, c: usize| rows[r].as_bytes()[c];
    let mut points: Vec<(usize, usize)> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, b) in row.bytes().enumerate() {
            if matches!(b, b'.' | b'O' | b'X') {
                points.push((r, c));
            }
        }
    }
    let around = |(r, c): (usize, usize)| {
        [
            (r.wrapping_sub(1), c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
            (r + 1, c),
        ]
        .into_iter()
        .filter(|&(r, c)| r < rows.len() && c < rows[r].len())
    };
    let bits = |keep: &dyn Fn((usize, usize)) -> bool| {
        (0..points.len())
            .filter(|&j| keep(points[j]))
            .fold(0, |acc: PocketSet, j| acc | 1 << j)
    };
    let nbr = points
        .iter()
        .map(|&p| bits(&|q| around(p).any(|n| n == q)))
        .collect();
    let last = rows
        .iter()
        .flat_map(|r| r.bytes())
        .filter(u8::is_ascii_lowercase)
        .max()
        .expect("a wall");
    let walls: Vec<PocketSet> = (b'a'..=last)
        .map(|w| bits(&|p| around(p).any(|(r, c)| at(r, c) == w)))
        .collect();
    let all = bits(&|_| true);
    let a = bits(&|(r, c)| at(r, c) == b'O');
    let d = bits(&|(r, c)| at(r, c) == b'X');
    (PocketGame::new(nbr, walls), all, a, d)
}
