//! Safe groups: a static proof of F2 for groups whose eye space is split into small
//! pockets, with chains joined through those pockets (docs/status.md, "Safe groups").
//!
//! For colour D a *pocket* is a maximal connected set of points without D stones; its
//! *walls* are the D chains next to it. Every point next to a pocket point is in the pocket
//! or a wall stone, so what happens inside a pocket touches the rest of the board only
//! through the walls' liberties.
//!
//! Two kinds of pocket give *eye credit*:
//! - an **eye point**: a pocket of one empty point (all its neighbours are D stones);
//! - a **settled pocket**: a pocket of at most [`MAX_POCKET`] points for which the *local
//!   game* below proves that D, answering every A move inside the pocket, reaches a
//!   *settled* state: no A stone left, every empty point of the pocket an eye (all its
//!   neighbours D stones), at least one of them, and the walls and every D stone of the
//!   pocket one connected chain; while no wall is captured on the way.
//!
//! The local game is played on the pocket's points with the walls as D stones whose only
//! liberties are the pocket's empty points next to them (their other liberties do not
//! count, so the game is harder for D than the board). A moves first; both may pass; A is
//! never bound by a ko ban (a superset of his moves on the board, where moves elsewhere lift
//! bans); D keeps the simple ko ban of Decision 8. A capture of a chain holding a wall stone
//! is a loss for D. It is solved exhaustively as a reachability game (attractor of the
//! settled states, the capture states excluded).
//!
//! Walls joined through settled pockets, and chains joined through safe connections
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

use std::collections::HashMap;

use super::dfpn::DfpnProver;
use super::grid::board_neighbours;
use super::pockets::{Budget, Prover};
use crate::geometry::Geometry;

/// The most points of a pocket the local game is played on.
pub(crate) const MAX_POCKET: usize = 12;
/// The most states of one pocket's local game.
const MAX_STATES: usize = 150_000;
/// The most states one proof search (`pockets.rs`) expands, for a pocket whose exhaustive
/// game is beyond [`MAX_STATES`].
pub(super) const MAX_NODES: usize = 100_000;
/// The most points of a pocket proven by the split goal (`split.rs`).
pub(crate) const MAX_SPLIT_POCKET: usize = 20;
/// The most work (states expanded and states of the parts' games) of one split proof.
const MAX_SPLIT_WORK: usize = 400_000;
/// The most work of all split proofs of one colour's safe groups together.
const MAX_SPLIT_TOTAL: usize = 1_000_000;
/// What the split proofs of one colour's safe groups share: the work left, and the parts'
/// answers found (`split.rs`; they do not depend on the pocket or the goal).
pub(super) struct SplitPool {
    left: usize,
    memo: HashMap<Vec<u64>, bool>,
}
/// The most points of a part of a split settled by its own small game.
const SPLIT_PART: usize = 8;

/// What the safe-group proof found for one colour.
#[derive(Debug, Default)]
pub(crate) struct SafeGroups {
    /// D chains proven F2 (or F1).
    pub walls: Vec<usize>,
    /// A chains inside the settled pockets of the kept units: proven N.
    pub dead: Vec<usize>,
    /// States of the local games played.
    pub states: usize,
}

/// A pocket's points as a bit set (bit j: the pocket's j-th point, ascending).
pub(super) type Set = u64;

/// A pocket's local game: its points (board indices), their neighbours inside the pocket
/// as bit sets, and for each wall the pocket points next to it.
pub(super) struct Local {
    pub(super) nbr: Vec<Set>,
    pub(super) walls: Vec<Set>,
    /// Walls with another credit next to them: they cannot be captured here, but need a
    /// liberty in the pocket again after each of D's answers.
    pub(super) lenient: Vec<bool>,
    /// Walls first-class at the start (in X*): never captured whatever happens here, and
    /// needing no liberty or eye in the pocket (docs/status.md 2c, "First-class walls").
    pub(super) immortal: Vec<bool>,
    /// Lenient walls with no liberty here at the start and one at the start in two other
    /// credits: while play goes on, a chain of such walls only needs no liberty here (at
    /// every A move it keeps one in a credit where A did not play); it still needs an eye
    /// here once settled (docs/status.md 2c, "Walls with two liberties elsewhere").
    pub(super) exempt: Vec<bool>,
}

/// State: A stones, D stones, and D to move (bit 7) with D's ko ban point + 1 (bits 0..7).
pub(super) type Key = (Set, Set, u8);

/// A hasher for the local games' keys: the words mixed by a multiply and xor-shift (the
/// keys are bit sets, far from uniform, and need no defence against chosen inputs).
#[derive(Clone, Copy, Default)]
pub(super) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ h >> 29
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u8(b);
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    }
}

/// A map keyed by local-game states.
pub(super) type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;

pub(super) fn key(a: Set, d: Set, d_to_move: bool, ban: usize) -> Key {
    debug_assert!(ban < 0x80);
    (a, d, u8::from(d_to_move) << 7 | ban as u8)
}

/// The parts of a key: (A stones, D stones, D to move, D's ban point + 1).
pub(super) fn unkey(k: Key) -> (Set, Set, bool, usize) {
    (k.0, k.1, k.2 >> 7 == 1, usize::from(k.2 & 0x7f))
}

impl Local {
    pub(super) fn flood(&self, within: Set, from: Set) -> Set {
        let mut done = from & within;
        let mut frontier = done;
        while frontier != 0 {
            let next = self.around(frontier) & within & !done;
            done |= next;
            frontier = next;
        }
        done
    }

    pub(super) fn around(&self, set: Set) -> Set {
        let mut out = 0;
        let mut f = set;
        while f != 0 {
            let p = f.trailing_zeros() as usize;
            f &= f - 1;
            out |= self.nbr[p];
        }
        out
    }

    /// The D stones of the pocket joined to some wall (through D stones of the pocket).
    pub(super) fn anchored(&self, d: Set) -> Set {
        let touching = self.walls.iter().fold(0, |acc, &w| acc | w) & d;
        self.flood(d, touching)
    }

    /// The chain of wall `w` in the pocket: the D stones joined to it (through D stones
    /// and other walls), the walls in it (a bit set) and the points next to it.
    pub(super) fn wall_chain(&self, w: usize, d: Set) -> (Set, u64, Set) {
        let mut walls: u64 = 1 << w;
        let mut stones = self.flood(d, self.walls[w] & d);
        loop {
            let mut grew = false;
            for (v, &adj) in self.walls.iter().enumerate() {
                if walls >> v & 1 == 0 && adj & stones != 0 {
                    walls |= 1 << v;
                    stones |= self.flood(d, adj & d);
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let mut next = self.around(stones);
        for (v, &adj) in self.walls.iter().enumerate() {
            if walls >> v & 1 == 1 {
                next |= adj;
            }
        }
        (stones, walls, next)
    }

    /// Whether `f` holds for every wall's chain `(stones, walls, next)` (as `wall_chain`
    /// gives it), each chain taken once however many walls it holds.
    pub(super) fn all_chains(&self, d: Set, mut f: impl FnMut(Set, u64, Set) -> bool) -> bool {
        let mut seen: u64 = 0;
        for w in 0..self.walls.len() {
            if seen >> w & 1 == 1 {
                continue;
            }
            let (stones, walls, next) = self.wall_chain(w, d);
            seen |= walls;
            if !f(stones, walls, next) {
                return false;
            }
        }
        true
    }

    /// True when every wall is joined into one chain through the D stones of the pocket.
    fn walls_joined(&self, d: Set) -> bool {
        self.wall_chain(0, d).1.count_ones() as usize == self.walls.len()
    }

    /// Whether a chain holding the walls `joined` (a bit set) holds a first-class one.
    pub(super) fn holds_immortal(&self, joined: u64) -> bool {
        (0..self.walls.len()).any(|v| joined >> v & 1 == 1 && self.immortal[v])
    }

    /// True when every wall's chain has a liberty in the pocket, as play goes on: a chain
    /// holding a first-class wall needs none, nor one of exempt walls only.
    pub(super) fn walls_breathe(&self, all: Set, a: Set, d: Set) -> bool {
        self.chains_breathe(all, a, d, true)
    }

    /// True when every wall's chain has a liberty in the pocket (a chain holding a
    /// first-class wall needs none; with `excuse`, nor one of exempt walls only).
    fn chains_breathe(&self, all: Set, a: Set, d: Set, excuse: bool) -> bool {
        let empty = all & !a & !d;
        let spared = |v: usize| self.immortal[v] || (excuse && self.exempt[v]);
        // Every chain holds a wall, and a wall's pocket neighbours are next to its chain:
        // when each wall has an empty one (or is spared), no chain need be traced.
        if (0..self.walls.len()).all(|v| self.walls[v] & empty != 0 || spared(v)) {
            return true;
        }
        self.all_chains(d, |_, joined, next| {
            next & empty != 0
                || self.holds_immortal(joined)
                || (excuse && (0..self.walls.len()).all(|v| joined >> v & 1 == 0 || self.exempt[v]))
        })
    }

    /// The settled states with at least `eyes` eyes.
    pub(super) fn settled(&self, all: Set, a: Set, d: Set, eyes: u32, join: bool) -> bool {
        if a != 0 {
            return false;
        }
        let empty = all & !d;
        if empty.count_ones() < eyes {
            return false;
        }
        let mut f = empty;
        while f != 0 {
            let p = f.trailing_zeros() as usize;
            f &= f - 1;
            if self.nbr[p] & !d != 0 {
                return false;
            }
        }
        // Every wall's chain touches an eye; with `join`, all walls are one chain.
        self.anchored(d) == d
            && self.chains_breathe(all, a, d, false)
            && (!join || self.walls_joined(d))
    }

    /// D's play at `p` (empty), or `None` when it is not allowed: the ko ban, self-capture,
    /// or a wall's chain left without a liberty in the pocket.
    pub(super) fn play_d(&self, all: Set, a: Set, d: Set, ban: usize, p: usize) -> Option<Key> {
        if ban == p + 1 {
            return None;
        }
        let s: Set = 1 << p;
        let d2 = d | s;
        // A chains left without liberties are captured.
        let mut a2 = a;
        let mut rest = a & self.nbr[p];
        while rest != 0 {
            let q = rest.trailing_zeros() as usize;
            let chain = self.flood(a2, 1 << q);
            rest &= !chain;
            if self.around(chain) & all & !a2 & !d2 == 0 {
                a2 &= !chain;
            }
        }
        let empty2 = all & !a2 & !d2;
        // Self-capture is not allowed: D's new chain needs a liberty.
        let own = self.flood(d2, s);
        // (A chain joined to a wall: the wall's liberties are checked below.)
        let walls_in = self.walls.iter().any(|&adj| adj & own != 0);
        if (!walls_in && self.around(own) & empty2 == 0) || !self.walls_breathe(all, a2, d2) {
            return None;
        }
        Some(key(a2, d2, false, 0))
    }

    /// The empty points where A's play captures a chain of strict walls (a loss for D):
    /// the last liberty of each such chain in atari (every point if one has none). A chain
    /// holding a lenient wall has a liberty elsewhere and is not captured; one of strict
    /// walls only is. It depends on the state only, so it is found once for all of A's
    /// plays there.
    pub(super) fn strict_ataris(&self, all: Set, a: Set, d: Set) -> Set {
        let empty = all & !a & !d;
        // As in `walls_breathe`: a chain holding a wall with two empty pocket neighbours
        // (or a lenient or first-class one) is in no atari.
        if (0..self.walls.len()).all(|v| {
            (self.walls[v] & empty).count_ones() >= 2 || self.lenient[v] || self.immortal[v]
        }) {
            return 0;
        }
        let mut out: Set = 0;
        self.all_chains(d, |_, joined, next| {
            let strict = (0..self.walls.len())
                .all(|v| joined >> v & 1 == 0 || !(self.lenient[v] || self.immortal[v]));
            let libs = next & empty;
            if strict && libs.count_ones() <= 1 {
                out |= if libs == 0 { empty } else { libs };
            }
            true
        });
        out
    }

    /// A's play at `p` (empty; A is never bound by a ko ban): `None` for self-capture,
    /// `Some(Err(()))` when it captures a chain of strict walls (a loss for D), that is when
    /// `p` is in `ataris`, the state's [`Local::strict_ataris`].
    pub(super) fn play_a(
        &self,
        all: Set,
        a: Set,
        d: Set,
        ataris: Set,
        p: usize,
    ) -> Option<Result<Key, ()>> {
        let s: Set = 1 << p;
        let a2 = a | s;
        if ataris & s != 0 {
            return Some(Err(()));
        }
        // D chains of the pocket left without liberties are captured (a chain holding a
        // wall never is here: its last liberty is in `ataris`, or it has one elsewhere).
        let empty2 = all & !a2 & !d;
        let mut d2 = d;
        let mut captured: Set = 0;
        let mut rest = d & self.nbr[p];
        while rest != 0 {
            let q = rest.trailing_zeros() as usize;
            let chain = self.flood(d, 1 << q);
            rest &= !chain;
            let walls_in = self.walls.iter().any(|&adj| adj & chain != 0);
            if !walls_in && self.around(chain) & empty2 == 0 {
                d2 &= !chain;
                captured |= chain;
            }
        }
        let empty3 = all & !a2 & !d2;
        let own = self.flood(a2, s);
        if self.around(own) & empty3 == 0 {
            return None; // self-capture
        }
        // D is banned from retaking a ko at once.
        let ko = captured.count_ones() == 1 && own == s && self.around(s) & empty3 == captured;
        let ban = if ko {
            captured.trailing_zeros() as usize + 1
        } else {
            0
        };
        Some(Ok(key(a2, d2, true, ban)))
    }

    /// The successors of a state; a move of A that captures a chain of strict walls (a
    /// loss for D) is reported as `Err(())`.
    fn moves(
        &self,
        all: Set,
        a: Set,
        d: Set,
        d_to_move: bool,
        ban: usize,
        out: &mut Vec<Result<Key, ()>>,
    ) {
        out.clear();
        // A pass lifts every ban; D may pass only when every wall has a liberty here.
        if !d_to_move || self.walls_breathe(all, a, d) {
            out.push(Ok(key(a, d, !d_to_move, 0)));
        }
        let empty = all & !a & !d;
        let ataris = if d_to_move {
            0
        } else {
            self.strict_ataris(all, a, d)
        };
        let mut f = empty;
        while f != 0 {
            let p = f.trailing_zeros() as usize;
            f &= f - 1;
            let m = if d_to_move {
                self.play_d(all, a, d, ban, p).map(Ok)
            } else {
                self.play_a(all, a, d, ataris, p)
            };
            if let Some(m) = m {
                out.push(m);
            }
        }
    }

    /// Whether every wall's chain has a liberty at the start (a strict wall must; a
    /// lenient one has one elsewhere).
    pub(super) fn start_ok(&self, all: Set, a: Set) -> bool {
        (0..self.walls.len())
            .all(|w| self.lenient[w] || self.immortal[w] || self.wall_chain(w, 0).2 & all & !a != 0)
    }

    /// Whether D, with A to move first from `a` (and no D stone), can force a settled state
    /// with at least `eyes` eyes without losing a wall: by the exhaustive game, and where
    /// that is beyond [`MAX_STATES`], by the proof search of `pockets.rs` (whose `false`
    /// may only mean "not proven"); `None` when both are beyond their limits.
    ///
    /// A pocket of more than [`MAX_POCKET`] points is proven by df-pn (`dfpn.rs`) only,
    /// with the settled goal and then the split goal of `split.rs` (its exhaustive game
    /// is out of reach).
    fn settles(
        &self,
        all: Set,
        a: Set,
        eyes: u32,
        join: bool,
        states: &mut usize,
        pool: &mut SplitPool,
    ) -> Option<bool> {
        let large = all.count_ones() as usize > MAX_POCKET;
        if !large {
            let exhaustive = self.solve(all, a, eyes, join, states);
            if exhaustive.is_some() {
                return exhaustive;
            }
        }
        let mut budget = if large {
            if pool.left == 0 {
                return None;
            }
            let mut budget = Budget::new(MAX_SPLIT_WORK.min(pool.left), SPLIT_PART);
            budget.memo = std::mem::take(&mut pool.memo);
            budget
        } else {
            Budget::new(MAX_NODES, 0)
        };
        let found = if large {
            // A large pocket is searched by df-pn (`dfpn.rs`), which proves more of the
            // real pockets than the depth-first search within the same work
            // (benches/README.md). The settled goal alone first, with all of the work: on
            // the real pockets it proves more than the split goal, which is searched only
            // with the work a refutation of the settled goal leaves.
            let mut plain = Budget::new(budget.limit, 0);
            let mut found = DfpnProver::new(self, all, eyes, join, false, &mut plain).prove(a);
            budget.nodes += plain.nodes;
            if !matches!(found, Ok(true)) && budget.nodes < budget.limit {
                found = DfpnProver::new(self, all, eyes, join, true, &mut budget).prove(a);
            }
            found
        } else {
            Prover::new(self, all, eyes, join, false, &mut budget).prove(a)
        };
        if large {
            pool.left = pool.left.saturating_sub(budget.nodes);
            pool.memo = std::mem::take(&mut budget.memo);
        }
        *states += budget.nodes;
        found.ok()
    }

    /// Whether D, with A to move first from `a` (and no D stone), can force a settled state
    /// with at least `eyes` eyes without losing a wall; `None` beyond the state limit.
    fn solve(&self, all: Set, a: Set, eyes: u32, join: bool, states: &mut usize) -> Option<bool> {
        // A wall without a liberty here at the start must have one elsewhere.
        if !self.start_ok(all, a) {
            return Some(false);
        }
        self.solve_from(all, key(a, 0, false, 0), eyes, join, MAX_STATES, states)
    }

    /// Whether `root` is in D's attractor of the settled states with at least `eyes` eyes,
    /// by the exhaustive game from it; `None` beyond `limit` states.
    pub(super) fn solve_from(
        &self,
        all: Set,
        root: Key,
        eyes: u32,
        join: bool,
        limit: usize,
        states: &mut usize,
    ) -> Option<bool> {
        let mut index: KeyMap<u32> = KeyMap::default();
        let mut keys: Vec<Key> = vec![root];
        index.insert(root, 0);
        // Successor lists; u32::MAX stands for the loss state.
        let mut succ: Vec<Vec<u32>> = Vec::new();
        let mut win: Vec<bool> = Vec::new();
        let mut out = Vec::new();
        let mut k = 0;
        while k < keys.len() {
            let s = keys[k];
            k += 1;
            let (a, d, dm, ban) = unkey(s);
            if self.settled(all, a, d, eyes, join) {
                succ.push(Vec::new());
                win.push(true);
                continue;
            }
            self.moves(all, a, d, dm, ban, &mut out);
            let mut list = Vec::with_capacity(out.len());
            for m in &out {
                match *m {
                    Err(()) => list.push(u32::MAX),
                    Ok(t) => {
                        let next = keys.len() as u32;
                        let id = *index.entry(t).or_insert(next);
                        if id == next {
                            keys.push(t);
                            if keys.len() > limit {
                                *states += keys.len();
                                return None;
                            }
                        }
                        list.push(id);
                    }
                }
            }
            succ.push(list);
            win.push(false);
        }
        *states += keys.len();
        // Attractor of the settled states for D: D to move needs one winning successor, A
        // to move needs all of them winning (the loss state never wins).
        let n = keys.len();
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut need: Vec<u32> = vec![0; n];
        for (s, list) in succ.iter().enumerate() {
            let d_to_move = unkey(keys[s]).2;
            need[s] = if d_to_move { 1 } else { list.len() as u32 };
            for &t in list {
                if t != u32::MAX {
                    preds[t as usize].push(s as u32);
                }
            }
        }
        let mut queue: Vec<u32> = (0..n as u32).filter(|&s| win[s as usize]).collect();
        while let Some(t) = queue.pop() {
            for &s in &preds[t as usize] {
                let s = s as usize;
                if win[s] {
                    continue;
                }
                // A successor listed twice counts twice for A (it is one move each time).
                need[s] -= 1;
                if need[s] == 0 {
                    win[s] = true;
                    queue.push(s as u32);
                }
            }
        }
        Some(win[0])
    }
}

/// The safe groups of colour `c` (1 Black, 2 White).
pub(crate) fn safe_groups(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    chain_of: &[usize],
    c: u8,
    first_class: &[bool],
) -> SafeGroups {
    let pockets = super::components(geo, |p| cells[p] != c, |_, _| true);
    let mut out = SafeGroups::default();
    let mut pool = SplitPool {
        left: MAX_SPLIT_TOTAL,
        memo: std::collections::HashMap::new(),
    };
    // The candidates: eye points and pockets small enough for the local game.
    struct Candidate {
        pocket: usize,
        walls: Vec<usize>,
        /// The local game, for a pocket of two points or more.
        local: Option<(Local, Set, Set)>,
        /// Eye credit under the current `lenient` flags: 0 (unproven), 1 or 2.
        credit: u32,
        /// Whether the settled state joins all the walls into one chain.
        joins: bool,
        active: bool,
        solved_for: Option<Vec<bool>>,
        /// For each wall: whether it has a liberty here at the start.
        breathes: Vec<bool>,
    }
    let mut cands: Vec<Candidate> = Vec::new();
    for (r, pocket) in pockets.iter().enumerate() {
        let mut walls: Vec<usize> = pocket
            .iter()
            .flat_map(|&p| board_neighbours(geo, p))
            .filter(|&q| cells[q] == c)
            .map(|q| chain_of[q])
            .collect();
        walls.sort_unstable();
        walls.dedup();
        if walls.is_empty() || walls.len() > 64 || pocket.len() > MAX_SPLIT_POCKET {
            continue;
        }
        if pocket.len() == 1 {
            if cells[pocket[0]] == 0 {
                let breathes = vec![true; walls.len()];
                cands.push(Candidate {
                    pocket: r,
                    walls,
                    local: None,
                    credit: 1,
                    joins: false,
                    active: true,
                    solved_for: None,
                    breathes,
                });
            }
            continue;
        }
        let local_of = |p: usize| pocket.binary_search(&p).ok();
        let nbr: Vec<Set> = pocket
            .iter()
            .map(|&p| {
                board_neighbours(geo, p)
                    .filter_map(local_of)
                    .fold(0, |acc: Set, j| acc | 1 << j)
            })
            .collect();
        let wall_adj: Vec<Set> = walls
            .iter()
            .map(|&k| {
                pocket
                    .iter()
                    .enumerate()
                    .filter(|&(_, &p)| {
                        board_neighbours(geo, p).any(|q| cells[q] == c && chain_of[q] == k)
                    })
                    .fold(0, |acc: Set, (j, _)| acc | 1 << j)
            })
            .collect();
        let lenient = vec![false; walls.len()];
        let immortal = walls.iter().map(|&k| first_class[k]).collect();
        let exempt = vec![false; walls.len()];
        let all: Set = (1 << pocket.len()) - 1;
        let a = pocket
            .iter()
            .enumerate()
            .filter(|&(_, &p)| cells[p] != 0)
            .fold(0, |acc: Set, (j, _)| acc | 1 << j);
        let breathes = wall_adj.iter().map(|&adj| adj & !a != 0).collect();
        cands.push(Candidate {
            pocket: r,
            walls,
            local: Some((
                Local {
                    nbr,
                    walls: wall_adj,
                    lenient,
                    immortal,
                    exempt,
                },
                all,
                a,
            )),
            credit: 0,
            joins: false,
            active: true,
            solved_for: None,
            breathes,
        });
    }
    // Smallest pockets first: the split proofs of large ones share one pool of work.
    cands.sort_by_key(|cand| pockets[cand.pocket].len());
    // Safe connections (`connections.rs`) join chains into units as joining pockets do;
    // one is used only while no active candidate's pocket holds one of its points.
    let mut cand_at: Vec<Option<usize>> = vec![None; geo.points()];
    for (i, cand) in cands.iter().enumerate() {
        for &p in &pockets[cand.pocket] {
            cand_at[p] = Some(i);
        }
    }
    let conns = super::connections::connections(geo, cells, chain_of, c);
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
        let usable: Vec<bool> = conns
            .iter()
            .map(|conn| {
                conn.chains.iter().all(|&k| alive[k])
                    && conn
                        .points
                        .iter()
                        .all(|&p| cand_at[p].is_none_or(|i| !cands[i].active))
            })
            .collect();
        // How many active candidates give each chain a liberty at the start.
        let mut touching = vec![0u32; chains.len()];
        for cand in cands.iter().filter(|cand| cand.active) {
            for (&k, &b) in cand.walls.iter().zip(&cand.breathes) {
                touching[k] += u32::from(b);
            }
        }
        // Whether wall `i` of a candidate has a liberty at the start in another one.
        // A wall also has one when a chain it reaches through safe connections has a
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
                cand.walls
                    .iter()
                    .position(|&w| w == j)
                    .map_or(0, |m| u32::from(cand.breathes[m]))
            };
            super::connections::reaches(&conns, &usable, cand.walls[i], |j| touching[j] > here(j))
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
                cand.active = false;
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
    for cand in cands
        .iter()
        .filter(|cand| cand.active && cand.local.is_some())
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::status::tests::{confirm, diagram};
    use crate::status::StatusOptions;

    /// The local games of every pocket of 2 to 12 points of a diagram, for both colours,
    /// with one strict wall per stone next to the pocket (chains need not be found here:
    /// any partition of the walls is a local game): `(local, all, a)`.
    pub(crate) fn locals(rows: &[&str]) -> Vec<(Local, Set, Set)> {
        let (geo, cells) = diagram(rows);
        let mut out = Vec::new();
        for c in [1u8, 2] {
            let pockets = crate::status::components(geo, |p| cells[p] != c, |_, _| true);
            for pocket in pockets
                .iter()
                .filter(|pk| (2..=MAX_POCKET).contains(&pk.len()))
            {
                let local_of = |p: usize| pocket.binary_search(&p).ok();
                let nbr: Vec<Set> = pocket
                    .iter()
                    .map(|&p| {
                        board_neighbours(geo, p)
                            .filter_map(local_of)
                            .fold(0, |acc: Set, j| acc | 1 << j)
                    })
                    .collect();
                let walls: Vec<Set> = (0..cells.len())
                    .filter(|&q| cells[q] == c)
                    .map(|q| {
                        pocket
                            .iter()
                            .enumerate()
                            .filter(|&(_, &p)| board_neighbours(geo, p).any(|r| r == q))
                            .fold(0, |acc: Set, (j, _)| acc | 1 << j)
                    })
                    .filter(|&adj| adj != 0)
                    .collect();
                if walls.is_empty() {
                    continue;
                }
                let a = pocket
                    .iter()
                    .enumerate()
                    .filter(|&(_, &p)| cells[p] != 0)
                    .fold(0, |acc: Set, (j, _)| acc | 1 << j);
                out.push((
                    Local {
                        nbr,
                        lenient: vec![false; walls.len()],
                        immortal: vec![false; walls.len()],
                        exempt: vec![false; walls.len()],
                        walls,
                    },
                    (1 << pocket.len()) - 1,
                    a,
                ));
            }
        }
        out
    }

    /// Random boards of `h` rows of `w` points above a Black wall.
    pub(crate) fn random_boards(n: usize, h: usize, w: usize, seed: &mut u64) -> Vec<Vec<String>> {
        (0..n)
            .map(|_| {
                let mut rows: Vec<String> = (0..h)
                    .map(|_| {
                        (0..w)
                            .map(|_| {
                                *seed = seed
                                    .wrapping_mul(6364136223846793005)
                                    .wrapping_add(1442695040888963407);
                                ['.', '.', '.', '.', '.', 'X', 'X', 'O'][(*seed >> 61) as usize]
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
        mut prove: impl FnMut(&ExactCase, usize, &mut Budget) -> Option<bool>,
    ) -> (usize, usize, usize) {
        let (mut checked, mut proven, mut split_proofs) = (0, 0, 0);
        for_each_exact_case(boards, 200_000, |c| {
            for &small in smalls {
                let mut budget = Budget::new(20_000, small);
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
        pub(crate) local: &'r Local,
        pub(crate) all: Set,
        pub(crate) a: Set,
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
                    let local = Local {
                        lenient: vec![lenient; strict.walls.len()],
                        immortal: vec![false; strict.walls.len()],
                        exempt: vec![false; strict.walls.len()],
                        nbr: strict.nbr.clone(),
                        walls: strict.walls.clone(),
                    };
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

    /// The safe groups of both colours of a diagram: (walls, dead) as sets of stones.
    fn groups(rows: &[&str]) -> (Vec<usize>, Vec<usize>) {
        let (geo, cells) = diagram(rows);
        let chains = crate::status::components(geo, |p| cells[p] != 0, |p, q| cells[p] == cells[q]);
        let mut chain_of = vec![usize::MAX; cells.len()];
        for (k, ch) in chains.iter().enumerate() {
            for &p in ch {
                chain_of[p] = k;
            }
        }
        let (mut walls, mut dead) = (Vec::new(), Vec::new());
        for c in [1, 2] {
            let first = crate::status::first_class_chains(geo, &cells, &chains);
            let found = safe_groups(geo, &cells, &chains, &chain_of, c, &first);
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
    fn wall_tests_without_tracing_agree_with_the_traced_chains() {
        // `strict_ataris` and `walls_breathe` skip the chain tracing when every wall has
        // free pocket neighbours: on random stones of both colours in the pockets of
        // random boards, with random lenient and first-class walls, both answer what the
        // traced chains give, play by play.
        let mut seed: u64 = 11;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let (mut states, mut ataris_found) = (0, 0);
        for rows in random_boards(80, 3, 5, &mut 3) {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            for (mut local, all, _) in locals(&rows) {
                for _ in 0..20 {
                    for v in 0..local.walls.len() {
                        local.lenient[v] = next() % 4 == 0;
                        local.immortal[v] = next() % 6 == 0;
                        local.exempt[v] = next() % 3 == 0;
                    }
                    let (mut a, mut d): (Set, Set) = (0, 0);
                    for j in 0..all.count_ones() {
                        match next() % 3 {
                            0 => a |= 1 << j,
                            1 => d |= 1 << j,
                            _ => {}
                        }
                    }
                    let empty = all & !a & !d;
                    let breathes = local.all_chains(d, |_, joined, next| {
                        next & empty != 0 || local.holds_immortal(joined)
                    });
                    assert_eq!(local.chains_breathe(all, a, d, false), breathes);
                    let breathes_in_play = local.all_chains(d, |_, joined, next| {
                        next & empty != 0
                            || local.holds_immortal(joined)
                            || (0..local.walls.len())
                                .all(|v| joined >> v & 1 == 0 || local.exempt[v])
                    });
                    assert_eq!(local.walls_breathe(all, a, d), breathes_in_play);
                    let captures = |p: usize| {
                        !local.all_chains(d, |_, joined, libs| {
                            libs & empty & !(1 << p) != 0
                                || (0..local.walls.len()).any(|v| {
                                    joined >> v & 1 == 1 && (local.lenient[v] || local.immortal[v])
                                })
                        })
                    };
                    let traced = (0..all.count_ones() as usize)
                        .filter(|&p| empty >> p & 1 == 1 && captures(p))
                        .fold(0, |acc: Set, p| acc | 1 << p);
                    assert_eq!(local.strict_ataris(all, a, d), traced, "{rows:?}");
                    states += 1;
                    ataris_found += usize::from(traced != 0);
                }
            }
        }
        assert!(
            states >= 1000 && ataris_found >= 100,
            "{states} states, {ataris_found} with ataris"
        );
    }

    #[test]
    fn safe_groups_two_straight_threes() {
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
    fn safe_groups_dead_stones_in_settled_pockets() {
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
    fn safe_groups_chains_joined_through_a_pocket() {
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
    fn safe_groups_refuse_one_eye_space() {
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
    fn safe_groups_bulky_five_and_an_eye() {
        // The same bulky five gives one eye, the eye point a second: alive.
        let rows = ["...X.XO", "..XXXXO", "XXXOOOO", "OOOO.O.", "O.O.O.O"];
        let (walls, _) = groups(&rows);
        assert!(
            stones(&rows, 1).iter().all(|p| walls.contains(p)),
            "{walls:?}"
        );
    }

    #[test]
    fn safe_groups_false_eye_is_no_second_eye() {
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
    fn proof_search_settles_a_pocket_beyond_the_exhaustive_game() {
        // A twelve-point pocket of a real game (Tygem, December 2016) with four White
        // stones, bounded by three strict Black walls: its exhaustive game is beyond
        // MAX_STATES, and the proof search finds D's strategy to one eye and to two.
        let local = Local {
            nbr: vec![18, 37, 10, 4, 97, 18, 144, 1344, 640, 2304, 128, 512],
            walls: vec![15, 2924, 3328],
            lenient: vec![false; 3],
            immortal: vec![false; 3],
            exempt: vec![false; 3],
        };
        let (all, a) = ((1 << 12) - 1, 360);
        let mut states = 0;
        assert_eq!(local.solve(all, a, 1, true, &mut states), None);
        let mut pool = SplitPool {
            left: 0,
            memo: HashMap::new(),
        };
        assert_eq!(
            local.settles(all, a, 2, true, &mut states, &mut pool),
            Some(true)
        );
        assert_eq!(
            local.settles(all, a, 1, true, &mut states, &mut pool),
            Some(true)
        );
    }

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
        for_each_exact_case(&boards, MAX_STATES, |c| {
            let mut budget = Budget::new(20_000, 0);
            let found = Prover::new(c.local, c.all, c.eyes, c.join, false, &mut budget)
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

    #[test]
    fn split_goal_proves_a_two_row_edge_territory() {
        // A 14-point corner territory two rows deep (rows of 7 points, the wall above it
        // and to its right, lenient: the group has an eye elsewhere), beyond the exhaustive
        // game: a large pocket is proven settled (settled goal first, then split goal).
        let nbr: Vec<Set> = (0..14)
            .map(|j: usize| {
                let (r, c) = (j / 7, j % 7);
                let mut m: Set = 1 << (j + 7 - 14 * r); // the point above or below
                if c > 0 {
                    m |= 1 << (j - 1);
                }
                if c < 6 {
                    m |= 1 << (j + 1);
                }
                m
            })
            .collect();
        let local = Local {
            nbr,
            walls: vec![0b111_1111 | 1 << 13],
            lenient: vec![true],
            immortal: vec![false],
            exempt: vec![false],
        };
        let all: Set = (1 << 14) - 1;
        let (mut states, mut pool) = (
            0,
            SplitPool {
                left: MAX_SPLIT_TOTAL,
                memo: HashMap::new(),
            },
        );
        assert_eq!(
            local.settles(all, 0, 1, true, &mut states, &mut pool),
            Some(true)
        );
    }

    #[test]
    fn dfpn_proves_a_real_sixteen_point_pocket_beyond_the_depth_first_search() {
        // A 16-point territory of a real game (Tygem 916039306, December 2016) with four
        // White stones, bounded by three strict Black walls: the depth-first search runs
        // out of one large pocket's work with the settled goal, df-pn proves it with one
        // eye and with two.
        let local = Local {
            nbr: vec![
                2, 5, 18, 64, 1060, 80, 40, 2304, 4736, 9472, 16912, 4224, 10496, 20992, 41984,
                16384,
            ],
            walls: vec![45, 33896, 2963],
            lenient: vec![false; 3],
            immortal: vec![false; 3],
            exempt: vec![false; 3],
        };
        let (all, a): (Set, Set) = ((1 << 16) - 1, 360);
        let mut budget = Budget::new(MAX_SPLIT_WORK, 0);
        assert!(Prover::new(&local, all, 1, true, false, &mut budget)
            .prove(a)
            .is_err());
        for eyes in [1, 2] {
            let (mut states, mut pool) = (
                0,
                SplitPool {
                    left: MAX_SPLIT_TOTAL,
                    memo: HashMap::new(),
                },
            );
            assert_eq!(
                local.settles(all, a, eyes, true, &mut states, &mut pool),
                Some(true)
            );
            assert!(states <= MAX_SPLIT_WORK, "{states}");
        }
    }

    /// A real pocket's local game with every wall lenient (none first-class or exempt).
    fn lenient_local(nbr: Vec<Set>, walls: Vec<Set>) -> Local {
        let n = walls.len();
        Local {
            nbr,
            walls,
            lenient: vec![true; n],
            immortal: vec![false; n],
            exempt: vec![false; n],
        }
    }

    /// Whether D settles the pocket with one eye, A first: by the exhaustive game and by
    /// the proof search (20,000 states).
    fn settles_both_ways(local: &Local, all: Set, a: Set) -> (Option<bool>, Option<bool>) {
        let mut states = 0;
        let exhaustive = local.solve(all, a, 1, false, &mut states);
        let mut budget = Budget::new(20_000, 0);
        let proof = Prover::new(local, all, 1, false, false, &mut budget)
            .prove(a)
            .ok();
        (exhaustive, proof)
    }

    #[test]
    fn first_class_wall_needs_no_liberty_in_the_pocket() {
        // A five-point pocket of a real game (Tygem 915971489, White's G19-K19 and the dead
        // Black H18): the wall H17 (bit 4's only neighbour) touches the pocket only at the
        // dead stone. Every D answer must give a lenient wall a liberty in the pocket, so
        // A's K19 or H19 refutes the game: D cannot both capture H18 and answer. H17 is
        // first-class (two one-point eyes of its own), so it needs none, and D settles.
        let mut local = lenient_local(vec![2, 21, 10, 4, 2], vec![1, 8, 17, 28, 16]);
        let (all, a) = (31, 16);
        assert_eq!(
            settles_both_ways(&local, all, a),
            (Some(false), Some(false))
        );
        local.immortal[4] = true;
        assert_eq!(settles_both_ways(&local, all, a), (Some(true), Some(true)));
    }

    #[test]
    fn wall_with_two_liberties_elsewhere_need_not_breathe_in_the_pocket() {
        // A five-point pocket of the same game (White's left side: B8, A7, B7, the dead
        // Black C7 and A6; walls A10-A8, C8, D7-F8, B6-C2 and A5). The wall D7 (bit 3's
        // only neighbour) touches the pocket only at the dead stone, so after A's B7 no D
        // answer gives it a liberty here (A7 and B8 leave B7-C7 a liberty) and the game is
        // refuted. D7 has liberties at the start in two other credits (the eye point D6 and
        // the pocket D8-E8), so it is exempt while play goes on, and D settles: it still
        // touches the eye C7 at the end.
        let mut local = lenient_local(vec![4, 20, 11, 4, 2], vec![3, 9, 8, 28, 16]);
        let (all, a) = (31, 8);
        for exempt in [false, true] {
            local.exempt[2] = exempt;
            assert_eq!(
                settles_both_ways(&local, all, a),
                (Some(exempt), Some(exempt))
            );
        }
        // After A's B7 and D's A7, D7 alone has no liberty here: excused while play goes
        // on, not for a settled state (`wall_tests_without_tracing_agree_with_the_traced_chains`
        // checks both on random states).
        let (a2, d2) = (0b01100, 0b00010);
        assert!(local.walls_breathe(all, a2, d2));
        assert!(!local.chains_breathe(all, a2, d2, false));
        assert!(local.settled(all, 0, 0b10100, 1, false));
    }

    #[test]
    fn safe_groups_stay_exact_on_the_constructed_positions() {
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
