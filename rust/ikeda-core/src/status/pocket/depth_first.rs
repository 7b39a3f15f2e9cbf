//! The depth-first proof search for a pocket whose exhaustive game (`exhaustive.rs`) is
//! beyond its state limit (docs/status.md 2c, the proof search), and for the parts of a
//! split (`split.rs`); pockets of more than [`MAX_POCKET`] points are searched by df-pn
//! (`dfpn.rs`), which uses the move orders below.
//!
//! It plays the same local game (`PocketGame`: the same rules, the same settled states, the
//! same loss), but instead of building the whole graph it searches depth first for a
//! strategy of D, with a transposition table, and it restricts D's answers:
//!
//! - A's moves are never restricted: every empty point of the pocket and the pass;
//! - D never passes and never fills an eye of one wall's chain (an empty point all of
//!   whose neighbours are stones of that chain); D plays the liberties of chains short of
//!   liberties and the points next to the walls' chains (a wall or a pocket stone joined
//!   to one) nearest A's last move first, then the other points next to the walls'
//!   chains, then the rest.
//!
//! A state is *won* when it is settled or has two vital parts (`PocketGame::goal`: a state
//! from which D is sure to settle), with A to move when D gets two vital parts by miai
//! (`PocketGame::two_vital_parts_by_miai`, tested once, when the state is first searched),
//! when D is to move and one of the tried answers is
//! won, or when A is to move and every move of A is won (a move of A that captures a strict
//! wall is a loss). A state already on the current line, a line deeper than
//! [`MAX_PROOF_DEPTH`], or a search past its node limit, counts as not won. So every state
//! found won has a finite strategy tree of D moves inside the local game that reaches a
//! settled state (or one with two vital parts, whose own strategy reaches one) against
//! every A move: it is in D's attractor of the settled states of the
//! exhaustive game, which is all the credited groups' proof (`walls/credit.rs`) uses (the
//! rank of a state is the height of its tree). A state found not won may be won in fact;
//! that only costs a credit, never soundness. Memory: the table holds at most one entry per
//! node expanded (the node limit), about 40 bytes each, and the line at most
//! [`MAX_PROOF_DEPTH`].

use std::collections::HashMap;

use super::game::{key, unkey, PocketGame, PocketSet, PocketState, StateMap};
#[cfg(doc)]
use crate::status::limits::MAX_POCKET;
use crate::status::limits::MAX_PROOF_DEPTH;

/// The table's marks: a state proven, refuted, or on the current line.
const WON: u8 = 1;
const LOST: u8 = 0;
const ON_LINE: u8 = 2;

/// The work one proof search may do, shared by the searches it starts for the parts of a
/// split (`split.rs`): states expanded and states of the parts' exhaustive games, and the
/// parts' answers already found.
pub(crate) struct ProofBudget {
    /// Work done so far, and the most allowed.
    pub(crate) nodes: usize,
    pub(crate) limit: usize,
    /// Parts of at most this many points are settled by the small game; 0 turns the split
    /// goal off.
    pub(crate) small: usize,
    /// The answers for parts already solved, by their local game and goal (`split.rs`).
    pub(crate) memo: HashMap<Vec<u64>, bool>,
    /// The parts' games played (not found in the memo).
    pub(crate) parts: usize,
}

impl ProofBudget {
    pub(crate) fn new(limit: usize, small: usize) -> Self {
        ProofBudget {
            nodes: 0,
            limit,
            small,
            memo: HashMap::new(),
            parts: 0,
        }
    }
}

/// One proof search: a pocket's local game with its goal.
pub(crate) struct DepthFirstProver<'a> {
    local: &'a PocketGame,
    all: PocketSet,
    eyes: u32,
    join: bool,
    /// The split goal's test, when a split state is won too.
    split: Option<SplitTest>,
    /// Proven and refuted states (`WON`, `LOST`), and the states of the current line
    /// (`ON_LINE`); a refutation may come from a cut line and is kept anyway (it can only
    /// cost a proof).
    table: StateMap<u8>,
    /// The length of the current line.
    depth: usize,
    budget: &'a mut ProofBudget,
}

/// The search ran past its node limit.
#[derive(Debug)]
pub(crate) struct OutOfNodes;

/// The split goal's test (`split::split_won`), given to a prover by its caller: whether a
/// state is split with the goal's eyes and join. A parameter rather than a call of
/// `split.rs`, whose parts are themselves proven by this search.
pub(crate) type SplitTest = fn(
    &PocketGame,
    PocketSet,
    PocketSet,
    PocketSet,
    u32,
    bool,
    &mut ProofBudget,
) -> Result<bool, OutOfNodes>;

impl<'a> DepthFirstProver<'a> {
    pub(crate) fn new(
        local: &'a PocketGame,
        all: PocketSet,
        eyes: u32,
        join: bool,
        split: Option<SplitTest>,
        budget: &'a mut ProofBudget,
    ) -> Self {
        DepthFirstProver {
            local,
            all,
            eyes,
            join,
            split: split.filter(|_| budget.small > 0),
            table: StateMap::default(),
            depth: 0,
            budget,
        }
    }

    /// Whether D, with A to move first from `a` (and no D stone), is proven to force a
    /// settled state; `Err` past the node limit.
    pub(crate) fn prove(&mut self, a: PocketSet) -> Result<bool, OutOfNodes> {
        if !self.local.start_ok(self.all, a) {
            return Ok(false);
        }
        self.won(key(a, 0, false, 0), None)
    }

    fn won(&mut self, state: PocketState, last: Option<usize>) -> Result<bool, OutOfNodes> {
        let (a, d, d_to_move, ban) = unkey(state);
        match self.table.get(&state) {
            Some(&WON) => return Ok(true),
            // A state refuted, or already on the current line.
            Some(_) => return Ok(false),
            None => {}
        }
        if self
            .local
            .goal(self.all, a, d, d_to_move, self.eyes, self.join)
        {
            return Ok(true);
        }
        if self.depth >= MAX_PROOF_DEPTH {
            return Ok(false);
        }
        self.budget.nodes += 1;
        if self.budget.nodes > self.budget.limit {
            return Err(OutOfNodes);
        }
        if let Some(split_won) = self.split {
            if split_won(
                self.local,
                self.all,
                a,
                d,
                self.eyes,
                self.join,
                self.budget,
            )? {
                self.table.insert(state, WON);
                return Ok(true);
            }
        }
        if !d_to_move
            && self
                .local
                .two_vital_parts_by_miai(self.all, a, d, self.join)
        {
            self.table.insert(state, WON);
            return Ok(true);
        }
        self.table.insert(state, ON_LINE);
        self.depth += 1;
        let result = if d_to_move {
            self.d_answers(a, d, ban, last)
        } else {
            self.a_moves(a, d)
        };
        self.depth -= 1;
        match result {
            Ok(won) => {
                self.table.insert(state, if won { WON } else { LOST });
                Ok(won)
            }
            Err(e) => {
                self.table.remove(&state);
                Err(e)
            }
        }
    }

    /// A to move: every move must be won, the pass included.
    fn a_moves(&mut self, a: PocketSet, d: PocketSet) -> Result<bool, OutOfNodes> {
        let ataris = self.local.strict_ataris(self.all, a, d);
        for p in a_order(self.local, self.all, a, d) {
            match self.local.play_a(self.all, a, d, ataris, p) {
                None => {}
                Some(Err(())) => return Ok(false),
                Some(Ok(next)) if !self.won(next, Some(p))? => return Ok(false),
                Some(Ok(_)) => {}
            }
        }
        self.won(key(a, d, true, 0), None)
    }

    /// D to move: some answer must be won, tried in the order of [`d_order`].
    fn d_answers(
        &mut self,
        a: PocketSet,
        d: PocketSet,
        ban: usize,
        last: Option<usize>,
    ) -> Result<bool, OutOfNodes> {
        let local = self.local;
        let order = d_order(local, self.all, a, d, last, true);
        for p in order {
            if let Some(next) = local.play_d(self.all, a, d, ban, p) {
                if self.won(next, None)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// A's moves, every empty point of the pocket (the pass is the caller's): those next to
/// his stones and D's pocket stones first, since they fail soonest.
pub(crate) fn a_order(
    local: &PocketGame,
    all: PocketSet,
    a: PocketSet,
    d: PocketSet,
) -> Vec<usize> {
    let empty = all & !a & !d;
    let near = local.around(a | d) & empty;
    let mut order = Vec::with_capacity(empty.count_ones() as usize);
    for f in [near, empty & !near] {
        let mut f = f;
        while f != 0 {
            order.push(f.trailing_zeros() as usize);
            f &= f - 1;
        }
    }
    order
}

/// Whether the empty point `p`, whose pocket neighbours are all D stones, has only
/// stones of one chain holding a wall around it. `traced` keeps the wall chains
/// (`PocketGame::wall_chain`: its walls and stones) already traced for this `d`, since
/// one chain is asked about for each of its eyes.
fn eye_of_one_chain(
    local: &PocketGame,
    d: PocketSet,
    p: usize,
    traced: &mut Vec<(u64, PocketSet)>,
) -> bool {
    let Some(w) = local.walls.iter().position(|&adj| adj >> p & 1 == 1) else {
        return false;
    };
    let (joined, stones) = match traced.iter().find(|&&(joined, _)| joined >> w & 1 == 1) {
        Some(&chain) => chain,
        None => {
            let (stones, joined, _) = local.wall_chain(w, d);
            traced.push((joined, stones));
            (joined, stones)
        }
    };
    let walls_here = local
        .walls
        .iter()
        .enumerate()
        .filter(|&(_, &adj)| adj >> p & 1 == 1)
        .all(|(v, _)| joined >> v & 1 == 1);
    walls_here && local.nbr[p] & d & !stones == 0
}

/// D's answers, in the order tried: captures and the points near A's last move `last`
/// first, then the other points next to the walls' chains, most empty neighbours first,
/// then the points away from them. D never passes and never fills an eye of one wall's
/// chain.
pub(crate) fn d_order(
    local: &PocketGame,
    all: PocketSet,
    a: PocketSet,
    d: PocketSet,
    last: Option<usize>,
    far: bool,
) -> Vec<usize> {
    let empty = all & !a & !d;
    // An eye of one wall's chain (every neighbour a stone of it) is never filled.
    let mut open: PocketSet = 0;
    let mut traced = Vec::with_capacity(local.walls.len());
    let mut f = empty;
    while f != 0 {
        let p = f.trailing_zeros() as usize;
        f &= f - 1;
        if local.nbr[p] & !d != 0 || !eye_of_one_chain(local, d, p, &mut traced) {
            open |= 1 << p;
        }
    }
    // Liberties of A chains short of liberties, and of D's pocket chains in atari.
    let mut urgent: PocketSet = 0;
    let mut rest = a;
    while rest != 0 {
        let chain = local.flood(a, 1 << rest.trailing_zeros());
        rest &= !chain;
        let libs = local.around(chain) & empty;
        if libs.count_ones() <= 2 {
            urgent |= libs;
        }
    }
    let walls = local.wall_points();
    let anchored = local.anchored(d);
    let mut rest = d & !anchored;
    while rest != 0 {
        let chain = local.flood(d, 1 << rest.trailing_zeros());
        rest &= !chain;
        let libs = local.around(chain) & empty;
        if libs.count_ones() == 1 {
            urgent |= libs;
        }
    }
    let near = match last {
        Some(p) => {
            let one = local.nbr[p];
            (one | local.around(one)) & empty
        }
        None => 0,
    };
    // D's other moves extend the walls' chains: next to a wall or to a pocket stone
    // joined to one.
    let grow = (walls | local.around(anchored)) & open;
    let first = (urgent | near & grow) & open;
    let mut order: Vec<usize> = Vec::with_capacity(empty.count_ones() as usize);
    let mut f = first;
    while f != 0 {
        order.push(f.trailing_zeros() as usize);
        f &= f - 1;
    }
    let mut others: Vec<usize> = Vec::with_capacity((grow & !first).count_ones() as usize);
    let mut f = grow & !first;
    while f != 0 {
        others.push(f.trailing_zeros() as usize);
        f &= f - 1;
    }
    others.sort_by_key(|&p| std::cmp::Reverse((local.nbr[p] & empty).count_ones()));
    order.extend(others);
    // Last, the points away from the walls: the vital point of an eye space may be one
    // (a corner of eleven points is proven only with them).
    let mut f = if far { open & !grow & !first } else { 0 };
    while f != 0 {
        order.push(f.trailing_zeros() as usize);
        f &= f - 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::limits::MAX_POCKET_STATES;
    use crate::status::pocket::testing::for_each_exact_case;

    #[test]
    fn proof_search_never_proves_what_the_exhaustive_game_refutes() {
        // Every pocket of the constructed positions and of a few random walled boards:
        // wherever the exhaustive game finishes, a proof found by the proof search is one
        // it finds too (the search may miss some: it restricts D).
        let mut boards: Vec<Vec<String>> = [
            &["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"][..],
            &["...XO", "..XXO", "XXXOO", "OOOO.", "O.O.O"],
            &[".X..XX", "XX.XXX", "XXXOOO", "OOOO.O", "O.O.OO"],
            &["O..X.O.", "XXXXXXX", "OOOOOOO", "O.O.O.O"],
            &["...X.XO", "..XXXXO", "XXXOOOO", "OOOO.O.", "O.O.O.O"],
            // A state already on the line must not count as won here (dfpn.rs).
            &["....", "..X.", "X.OX", "XXXX"],
        ]
        .iter()
        .map(|rows| rows.iter().map(|r| (*r).to_string()).collect())
        .collect();
        let mut seed: u64 = 12345;
        for _ in 0..20 {
            let mut rows: Vec<String> = (0..2)
                .map(|_| {
                    (0..5)
                        .map(|_| {
                            seed = seed
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            ['.', '.', 'X', 'O'][(seed >> 60) as usize % 4]
                        })
                        .collect()
                })
                .collect();
            rows.push("XXXXX".into());
            boards.push(rows);
        }
        let (mut agreed, mut proven) = (0, 0);
        for_each_exact_case(&boards, MAX_POCKET_STATES, |c| {
            let mut budget = ProofBudget::new(20_000, 0);
            let found = DepthFirstProver::new(c.local, c.all, c.eyes, c.join, None, &mut budget)
                .prove(c.a)
                .ok();
            assert!(found != Some(true) || c.exact, "{}", c.describe());
            agreed += usize::from(found == Some(c.exact));
            proven += usize::from(found == Some(true));
        });
        assert!(
            proven >= 10 && agreed >= 100,
            "{proven} proven, {agreed} agreed"
        );
    }
}
