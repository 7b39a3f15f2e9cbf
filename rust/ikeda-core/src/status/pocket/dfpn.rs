//! Depth-first proof-number search (df-pn: Nagai 2002) for a large pocket's local game
//! (docs/status.md 2c, the proof search): the same game, the same restriction
//! of D's answers and the same goals as the depth-first search of `depth_first.rs`, but the
//! state searched next is the one whose proof looks cheapest.
//!
//! D to move is an OR node (one answer must be won), A to move an AND node (every move of
//! A, the pass included, must be won). Each state has a proof number `pn` (an estimate of
//! the work left to prove it) and a disproof number `dn`. A settled or split state, one
//! with two vital parts, and one with A to move where D gets them by miai (tested when the
//! state is first expanded) count (0, ∞); a loss (A captures a strict wall), a state
//! where D has no answer among those tried, a state already on the current line and one
//! past [`MAX_PROOF_DEPTH`] count (∞, 0).
//! The numbers of a searched state are kept in a transposition table; a state not yet
//! searched starts at `dn = 1` and `pn` = the size of a proof tree in which each A move is
//! answered by one D move, `n!!` for A to move on `n` empty points and `(n - 1)!!` for D
//! to move, times `1 + i` for D's `i`-th answer in the order of `depth_first.rs` (so the
//! search follows that order until an answer proves clearly more costly than the next).
//! The numbers are *weak* (Ueda, Hashimoto, Hashimoto and Iida 2008, for Go's
//! life-and-death problems): at A to move `pn` is the largest child's plus one for each
//! other undecided child, not their sum, since the children's proofs share most of their
//! states (transpositions); at D to move `dn` likewise. The search descends into the child
//! with the least `pn` (D to move) or `dn` (A to move) while the node's numbers stay under
//! thresholds from its parent, the second-best child's number times [`DFPN_WIDEN`] (the
//! "1 + ε" thresholds of Pawlewicz and Lew 2007: fewer switches between answers).
//!
//! Soundness. A state gets `pn = 0` only when it is settled or split or has two vital
//! parts (plain or by miai: in the attractor, docs/status.md 2c), or when D is to move
//! and one child had `pn = 0`, or A is to move and every child had `pn = 0`, at that
//! moment. By induction on the time a state was proven, each proven state has a finite
//! tree of D's answers that reaches settled or split states against every A move: it is in
//! D's attractor, exactly as a state found won by `depth_first.rs`. Proofs never rest on the
//! path: a state on the current line or past the depth is only ever a disproof, and the
//! disproofs that come from one are stored like the others, which can only cost a proof
//! (a disproof never makes a proof). The estimates only choose the order of the search.
//! Memory: the table holds at most one entry per unit of work (states expanded), about 70
//! bytes each (`table.rs`: the state, its numbers and its slots), and the line at most
//! [`MAX_PROOF_DEPTH`] states.

use super::depth_first::{a_order, d_order, OutOfNodes, ProofBudget, SplitTest};
use super::game::{key, unkey, PocketGame, PocketSet, PocketState, StateMap};
use super::table::StateTable;
use crate::status::limits::{DFPN_WIDEN, MAX_PROOF_DEPTH};

/// An infinite proof or disproof number; finite sums stop just below it.
const INF: u64 = u64::MAX;

/// The largest initial proof number (far below ∞ so that sums stay finite).
const MAX_ESTIMATE: u64 = 1 << 60;

/// Sum of proof (or disproof) numbers: ∞ when one is, else capped below ∞.
fn add(x: u64, y: u64) -> u64 {
    if x == INF || y == INF {
        INF
    } else {
        x.saturating_add(y).min(INF - 1)
    }
}

/// `n!!` (`n (n - 2) (n - 4) ...`), capped at [`MAX_ESTIMATE`].
fn double_factorial(n: u64) -> u64 {
    let (mut m, mut e) = (n, 1u64);
    while m > 1 {
        e = e.saturating_mul(m);
        m -= 2;
    }
    e.min(MAX_ESTIMATE)
}

/// One df-pn search: a pocket's local game with its goal.
pub(crate) struct DfpnProver<'a> {
    local: &'a PocketGame,
    all: PocketSet,
    eyes: u32,
    join: bool,
    /// The split goal's test, when a split state is won too.
    split: Option<SplitTest>,
    /// Whether D also tries the points away from the walls (`d_order`).
    far: bool,
    /// Each searched state's number in `states` and `numbers` (a child keeps its number
    /// once found, so the loop over the children looks each up in the table only once).
    table: StateTable,
    states: Vec<PocketState>,
    /// Each searched state's (pn, dn).
    numbers: Vec<(u64, u64)>,
    /// The states of the current line.
    line: StateMap<()>,
    budget: &'a mut ProofBudget,
}

/// A child of a state: its state, the A move that led to it (D orders its answers by it),
/// its numbers when they are fixed for this visit (settled, on the line, too deep), and
/// its numbers before it is searched.
struct Child {
    state: PocketState,
    /// Its number in the table, once it has one, and its hash bits there.
    id: Option<u32>,
    tag: u32,
    last: Option<usize>,
    fixed: Option<(u64, u64)>,
    init: (u64, u64),
}

impl<'a> DfpnProver<'a> {
    pub(crate) fn new(
        local: &'a PocketGame,
        all: PocketSet,
        eyes: u32,
        join: bool,
        split: Option<SplitTest>,
        far: bool,
        budget: &'a mut ProofBudget,
    ) -> Self {
        DfpnProver {
            local,
            all,
            eyes,
            join,
            split: split.filter(|_| budget.small > 0),
            far,
            table: StateTable::default(),
            states: Vec::new(),
            numbers: Vec::new(),
            line: StateMap::default(),
            budget,
        }
    }

    /// Whether D, with A to move first from `a` (and no D stone), is proven to force a
    /// settled state; `Err` past the work limit.
    pub(crate) fn prove(&mut self, a: PocketSet) -> Result<bool, OutOfNodes> {
        if !self.local.start_ok(self.all, a) {
            return Ok(false);
        }
        if self.local.settled(self.all, a, 0, self.eyes, self.join) {
            return Ok(true);
        }
        let (pn, _) = self.mid(key(a, 0, false, 0), None, INF, INF)?;
        Ok(pn == 0)
    }

    /// The numbers of a searched state.
    fn get(&self, state: &PocketState) -> Option<(u64, u64)> {
        let id = self
            .table
            .find(state, StateTable::tag(state), &self.states)
            .ok()?;
        Some(self.numbers[id as usize])
    }

    /// Stores the numbers of a state; an allocation the system refuses ends the search
    /// like its work limit (not proven).
    fn set(&mut self, state: PocketState, numbers: (u64, u64)) -> Result<(), OutOfNodes> {
        self.table.reserve_one().map_err(|_| OutOfNodes)?;
        match self
            .table
            .find(&state, StateTable::tag(&state), &self.states)
        {
            Ok(id) => self.numbers[id as usize] = numbers,
            Err(at) => {
                self.states.try_reserve(1).map_err(|_| OutOfNodes)?;
                self.numbers.try_reserve(1).map_err(|_| OutOfNodes)?;
                self.table.insert(at, self.states.len() as u32);
                self.states.push(state);
                self.numbers.push(numbers);
            }
        }
        Ok(())
    }

    /// The numbers of a child now.
    fn numbers(&self, child: &mut Child) -> (u64, u64) {
        if let Some(n) = child.fixed {
            return n;
        }
        if let Some(id) = child.id {
            return self.numbers[id as usize];
        }
        match self.table.find(&child.state, child.tag, &self.states) {
            Ok(id) => {
                child.id = Some(id);
                self.numbers[id as usize]
            }
            Err(_) => child.init,
        }
    }

    /// Searches `state` until it is decided or its numbers reach the thresholds; stores
    /// and returns its numbers. Each call that expands the state is one unit of work.
    fn mid(
        &mut self,
        state: PocketState,
        last: Option<usize>,
        thpn: u64,
        thdn: u64,
    ) -> Result<(u64, u64), OutOfNodes> {
        let known = self.get(&state);
        if let Some((pn, dn)) = known {
            if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn {
                return Ok((pn, dn));
            }
        }
        self.budget.nodes += 1;
        if self.budget.nodes > self.budget.limit {
            return Err(OutOfNodes);
        }
        let (a, d, d_to_move, ban) = unkey(state);
        // The split test is made once, at the first visit.
        if let (None, Some(split_won)) = (known, self.split) {
            if split_won(
                self.local,
                self.all,
                a,
                d,
                self.eyes,
                self.join,
                self.budget,
            )? {
                self.set(state, (0, INF))?;
                return Ok((0, INF));
            }
        }
        if known.is_none()
            && !d_to_move
            && self
                .local
                .two_vital_parts_by_miai(self.all, a, d, self.join)
        {
            self.set(state, (0, INF))?;
            return Ok((0, INF));
        }
        let Some(mut children) = self.children(a, d, d_to_move, ban, last) else {
            // A move of A captures a strict wall: a loss.
            self.set(state, (INF, 0))?;
            return Ok((INF, 0));
        };
        self.line.insert(state, ());
        let result = self.search(d_to_move, &mut children, thpn, thdn);
        self.line.remove(&state);
        let numbers = result?;
        self.set(state, numbers)?;
        Ok(numbers)
    }

    /// The children of a state, in the order of `depth_first.rs`; `None` when a move of A
    /// captures a strict wall.
    fn children(
        &self,
        a: PocketSet,
        d: PocketSet,
        d_to_move: bool,
        ban: usize,
        last: Option<usize>,
    ) -> Option<Vec<Child>> {
        let local = self.local;
        let mut out: Vec<(PocketState, Option<usize>)> =
            Vec::with_capacity((self.all & !a & !d).count_ones() as usize + 1);
        if d_to_move {
            for p in d_order(local, self.all, a, d, last, self.far) {
                if let Some(next) = local.play_d(self.all, a, d, ban, p) {
                    out.push((next, None));
                }
            }
        } else {
            let ataris = local.strict_ataris(self.all, a, d);
            for p in a_order(local, self.all, a, d) {
                match local.play_a(self.all, a, d, ataris, p) {
                    None => {}
                    Some(Err(())) => return None,
                    Some(Ok(next)) => out.push((next, Some(p))),
                }
            }
            out.push((key(a, d, true, 0), None));
        }
        let deep = self.line.len() + 1 >= MAX_PROOF_DEPTH;
        let children = out
            .into_iter()
            .zip(1u64..)
            .map(|((state, last), rank)| {
                let (ca, cd, c_d_to_move, _) = unkey(state);
                let fixed = if deep || self.line.contains_key(&state) {
                    Some((INF, 0))
                } else if self
                    .local
                    .goal(self.all, ca, cd, c_d_to_move, self.eyes, self.join)
                {
                    Some((0, INF))
                } else {
                    None
                };
                let n = u64::from((self.all & !ca & !cd).count_ones().max(1));
                let init = if d_to_move {
                    // A to move after D's `rank`-th answer.
                    double_factorial(n).saturating_mul(rank).min(MAX_ESTIMATE)
                } else {
                    double_factorial(n - 1)
                };
                Child {
                    state,
                    id: None,
                    tag: StateTable::tag(&state),
                    last,
                    fixed,
                    init: (init.max(1), 1),
                }
            })
            .collect();
        Some(children)
    }

    /// df-pn's loop at one state (`or`: D to move) with its children.
    fn search(
        &mut self,
        or: bool,
        children: &mut [Child],
        thpn: u64,
        thdn: u64,
    ) -> Result<(u64, u64), OutOfNodes> {
        loop {
            // The state's numbers (weak: the largest undecided child's number plus one
            // for each other one), the best child and the second-best number.
            let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
            let (mut largest, mut open) = (0u64, 0u64);
            let mut best: Option<(usize, u64, u64)> = None;
            let mut second = INF;
            // The children not yet in the table are looked up on every pass: their slots
            // read at once, so the misses overlap.
            self.table.touch(
                children
                    .iter()
                    .filter(|c| c.id.is_none() && c.fixed.is_none())
                    .map(|c| c.tag),
            );
            for (i, child) in children.iter_mut().enumerate() {
                let (cpn, cdn) = self.numbers(child);
                let (rank, other) = if or { (cpn, cdn) } else { (cdn, cpn) };
                if or {
                    pn = pn.min(cpn);
                } else {
                    dn = dn.min(cdn);
                }
                if other != 0 {
                    largest = largest.max(other);
                    open += 1;
                }
                match best {
                    Some((_, r, _)) if r <= rank => second = second.min(rank),
                    _ => {
                        if let Some((_, r, _)) = best {
                            second = second.min(r);
                        }
                        best = Some((i, rank, other));
                    }
                }
            }
            if open > 0 {
                if or {
                    dn = add(largest, open - 1);
                } else {
                    pn = add(largest, open - 1);
                }
            }
            if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn {
                return Ok((pn, dn));
            }
            let Some((i, _, other)) = best else {
                return Ok((pn, dn));
            };
            let widened = if second == INF {
                INF
            } else {
                second
                    .saturating_mul(DFPN_WIDEN)
                    .max(second + 1)
                    .min(INF - 1)
            };
            let (cthpn, cthdn) = if or {
                (thpn.min(widened), (thdn - dn).saturating_add(other))
            } else {
                ((thpn - pn).saturating_add(other), thdn.min(widened))
            };
            let child = &children[i];
            self.mid(child.state, child.last, cthpn, cthdn)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::pocket::split::split_won;
    use crate::status::pocket::testing::{check_proofs, random_boards};

    /// Random boards of `h` rows of `w` points above a Black wall, and the constructed
    /// shapes of the proof search's own test.
    fn boards(seed: &mut u64) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = [
            &["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"][..],
            &["...XO", "..XXO", "XXXOO", "OOOO.", "O.O.O"],
            &["O..X.O.", "XXXXXXX", "OOOOOOO", "O.O.O.O"],
            &["......X", ".......", "XXXXXXX"],
            &["...O.X.", "X......", "XXXXXXX"],
            // A pocket where a proof would have to come back to a state already on
            // the line (two eyes with lenient walls): counting the line as won proves
            // it, the exhaustive game refutes it.
            &["....", "..X.", "X.OX", "XXXX"],
        ]
        .iter()
        .map(|rows| rows.iter().map(|r| (*r).to_string()).collect())
        .collect();
        out.extend(random_boards(60, 2, 6, seed));
        out.extend(random_boards(40, 3, 4, seed));
        out
    }

    #[test]
    fn dfpn_never_proves_what_the_exhaustive_game_refutes() {
        // Every pocket of constructed and random walled boards whose exhaustive game
        // finishes, for strict and lenient walls and every goal, with the settled goal and
        // with the split goal (parts of at most 3 or 5 points, so that a proof must cut the
        // pocket into parts settled by their own games): every df-pn proof is one the
        // exhaustive game confirms, and df-pn proves pockets through both goals.
        let mut seed: u64 = 7;
        let (checked, proven, split_proofs) =
            check_proofs(&boards(&mut seed), &[0, 3, 5], |c, small, budget| {
                DfpnProver::new(
                    c.local,
                    c.all,
                    c.eyes,
                    c.join,
                    (small > 0).then_some(split_won as SplitTest),
                    true,
                    budget,
                )
                .prove(c.a)
                .ok()
            });
        assert!(
            checked >= 2000 && proven >= 50 && split_proofs >= 20,
            "{checked} checked, {proven} proven, {split_proofs} through a split"
        );
    }
}
