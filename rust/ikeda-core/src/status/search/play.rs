//! The hypothetical play of STATUS.md Section 3 on one grid, and the graph of every state
//! it can reach.
//!
//! The search board is a value: the stones of each colour as a bit set over the grid's
//! points (a [`PointSet`]: `u128` for a grid of at most 128 points, wider sets up to a
//! whole board, chosen per region so that small regions keep their speed), the player to
//! move and the ko state. A move makes a new value, so
//! taking a move back costs nothing and the value itself is the exact memo key (no hash
//! collision can merge two states). There is no game history (Decision 5); the ko rule is
//! the simple ban of Decision 8 or the ko-ban with ko-pass of Decision 8b.

use super::grid::{FirstClass, Grid, PointSet};
use crate::color::Color;
use crate::status::limits::{EDGE_BYTES, MAX_BANS, MAX_CHAINS, STATE_BYTES};
use crate::status::pocket::table::StateTable;

/// One state of the hypothetical play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State<S> {
    pub black: S,
    pub white: S,
    /// Bit 0: White to move. Bits 1..=10: simple ko, the banned point + 1 (0: no ban).
    pub meta: u16,
    /// Ko-ban mode: up to [`MAX_BANS`] bans `(Q, r, q)`, 16 bits each
    /// (`1 << 15 | Q << 14 | d << 12 | r`, Q = 1 for White, d the rank of q among r's
    /// neighbours, which always holds q), sorted, high first; 0 = none.
    pub bans: u64,
}

impl<S: PointSet> State<S> {
    /// A state with no ko ban and `to_move` to play.
    pub(crate) fn start(black: S, white: S, to_move: Color) -> State<S> {
        State {
            black,
            white,
            meta: u16::from(to_move == Color::White),
            bans: 0,
        }
    }

    #[inline]
    pub(crate) fn mover(&self) -> Color {
        if self.meta & 1 == 1 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub(crate) fn stones(&self, c: Color) -> S {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    fn bans<'g>(&self, grid: &'g Grid<S>) -> impl Iterator<Item = Ban> + 'g {
        let bans = self.bans;
        (0..MAX_BANS)
            .map(move |k| (bans >> (16 * k)) as u16)
            .filter(|&b| b != 0)
            .map(|b| Ban::unpack(b, grid))
    }
}

/// A ko-ban `(Q, r, q)` of Decision 8b: Q may not play at r while that play would capture
/// exactly the stone at q.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ban {
    banned: Color,
    r: usize,
    q: usize,
}

impl Ban {
    fn pack<S: PointSet>(self, grid: &Grid<S>) -> u16 {
        let d = grid.nbr[self.r]
            .points()
            .position(|n| n == self.q)
            .expect("q is next to r") as u16;
        1 << 15 | u16::from(self.banned == Color::White) << 14 | d << 12 | self.r as u16
    }
    fn unpack<S: PointSet>(b: u16, grid: &Grid<S>) -> Ban {
        let banned = if b >> 14 & 1 == 1 {
            Color::White
        } else {
            Color::Black
        };
        let r = usize::from(b & 0xfff);
        let q = grid.nbr[r]
            .points()
            .nth(usize::from(b >> 12 & 3))
            .expect("a packed neighbour");
        Ban { banned, r, q }
    }
}

/// The play rules of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchRules {
    /// Decision 8b's ko-ban with ko-pass instead of Decision 8's simple ko.
    pub koban: bool,
    /// Decision 7's two prunings.
    pub prune: bool,
}

/// Why a grid cannot be searched within the limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Beyond {
    States(usize),
    /// More than the share of the budget a region of more than 128 points (or more than
    /// `MAX_FULL_EMPTY` empty ones) may take.
    Share(usize),
    /// The memory bound, or an allocation the system refused.
    Memory,
    Points(usize),
    Chains(usize),
    Bans,
}

/// The search board: a grid and the rules of play on it.
pub(crate) struct SearchBoard<'a, S: PointSet> {
    grid: &'a Grid<S>,
    rules: SearchRules,
}

/// What the goals of Section 4 need to know about a state, by colour.
pub(crate) type Held<S> = FirstClass<S>;

impl<'a, S: PointSet> SearchBoard<'a, S> {
    pub(crate) fn new(grid: &'a Grid<S>, rules: SearchRules) -> SearchBoard<'a, S> {
        SearchBoard { grid, rules }
    }

    /// A chain can be captured unless it is joined to a frozen (first-class) stone.
    #[inline]
    fn captured(&self, chain: S, c: Color, empty: S) -> bool {
        (chain & self.grid.frozen[c.index()]).is_empty()
            && (self.grid.around(chain) & empty).is_empty()
    }

    /// X* of both colours (Decision 3).
    pub(crate) fn held(&self, s: &State<S>) -> [Held<S>; 2] {
        let empty = self.grid.all & !s.black & !s.white;
        [Color::Black, Color::White].map(|c| self.grid.first_class(c, s.stones(c), empty))
    }

    /// Decision 7(b): the empty areas where `m` may not play because they are bordered
    /// only by the opponent's X* stones and have fewer than two interior points.
    fn futile(&self, s: &State<S>, m: Color, opp_first_class: S) -> S {
        let grid = self.grid;
        let stones = s.black | s.white;
        let outside = grid.frozen[0] | grid.frozen[1];
        let mut empty = grid.all & !stones;
        let mut out = S::EMPTY;
        while let Some(p) = empty.first() {
            let area = grid.flood(grid.all & !stones, p);
            empty = empty & !area;
            let border = grid.around(area) & stones;
            let own_frozen = !(area & grid.frozen[m.index()]).is_empty();
            let walled = (border & !opp_first_class).is_empty()
                && !own_frozen
                && (!border.is_empty() || !(area & outside).is_empty());
            if walled {
                let interior = (area & !outside)
                    .points()
                    .filter(|&p| (grid.nbr[p] & !area).is_empty())
                    .count();
                if interior < 2 {
                    out = out | area;
                }
            }
        }
        out
    }

    /// Every move from `s` (plays, the pass, and in ko-ban mode the ko-pass), as the
    /// states they lead to; the pass first.
    pub(crate) fn successors(
        &self,
        s: &State<S>,
        held: &[Held<S>; 2],
        out: &mut Vec<State<S>>,
    ) -> Result<(), Beyond> {
        let m = s.mover();
        let o = m.opponent();
        let flip = s.meta & 1 ^ 1;
        let grid = self.grid;
        out.push(State { meta: flip, ..*s }); // pass: lifts a simple-ko ban, keeps ko-bans
        if self.rules.koban && s.bans(grid).any(|b| b.banned == m) {
            let kept: Vec<Ban> = s.bans(grid).filter(|b| b.banned != m).collect();
            out.push(State {
                meta: flip,
                bans: pack(&kept, grid)?,
                ..*s
            }); // ko-pass
        }
        let (own, opp) = (s.stones(m), s.stones(o));
        let empty = grid.all & !own & !opp;
        let mut candidates = empty;
        let ko = usize::from(s.meta >> 1);
        if ko > 0 {
            candidates = candidates & !S::single(ko - 1);
        }
        if self.rules.prune {
            // Decision 7(a): never fill an eye of one's own X*; 7(b): futile areas.
            candidates =
                candidates & !held[m.index()].eyes & !self.futile(s, m, held[o.index()].stones);
        }
        for p in candidates.points() {
            let own2 = own | S::single(p);
            let mut free = empty & !S::single(p);
            let mut taken = S::EMPTY;
            for q in (grid.nbr[p] & opp).points() {
                if !taken.has(q) {
                    let ch = grid.flood(opp, q);
                    if self.captured(ch, o, free) {
                        taken = taken | ch;
                    }
                }
            }
            free = free | taken;
            if taken.is_empty() && self.captured(grid.flood(own2, p), m, free) {
                continue; // self-capture (Rule 5)
            }
            if self.rules.koban
                && s.bans(grid)
                    .any(|b| b.banned == m && b.r == p && taken == S::single(b.q))
            {
                continue;
            }
            // A ko capture (Decision 8): one stone taken, the new stone alone with that
            // point as its only liberty.
            let ko_capture = taken.len() == 1
                && (grid.nbr[p] & own2).is_empty()
                && !grid.frozen[m.index()].has(p)
                && grid.nbr[p] & free == taken;
            let (black, white) = match m {
                Color::Black => (own2, opp & !taken),
                Color::White => (opp & !taken, own2),
            };
            let mut next = State {
                black,
                white,
                meta: flip,
                bans: 0,
            };
            let r = taken.first().unwrap_or(0);
            if self.rules.koban {
                let mut bans: Vec<Ban> = s.bans(grid).collect();
                if ko_capture {
                    bans.push(Ban { banned: o, r, q: p });
                }
                // A ban disappears when r is filled or q no longer holds the capturer's stone.
                bans.retain(|b| {
                    !(black | white).has(b.r) && next.stones(b.banned.opponent()).has(b.q)
                });
                next.bans = pack(&bans, grid)?;
            } else if ko_capture {
                next.meta |= (r as u16 + 1) << 1;
            }
            out.push(next);
        }
        Ok(())
    }
}

fn pack<S: PointSet>(bans: &[Ban], grid: &Grid<S>) -> Result<u64, Beyond> {
    if bans.len() > MAX_BANS {
        return Err(Beyond::Bans);
    }
    let mut packed: Vec<u16> = bans.iter().map(|b| b.pack(grid)).collect();
    packed.sort_unstable_by(|a, b| b.cmp(a));
    Ok(packed
        .iter()
        .enumerate()
        .fold(0u64, |acc, (k, &b)| acc | u64::from(b) << (16 * k)))
}

/// The reachable state graph of one grid, with the goal predicates of Section 4 for each
/// tracked chain (bit k of `g`, `t`, `gp` is chain k).
pub(crate) struct StateGraph {
    pub white_to_move: Vec<bool>,
    pub succ_start: Vec<u32>,
    pub succ: Vec<u32>,
    /// G: every point of the chain holds a stone of its colour.
    pub g: Vec<u64>,
    /// T: every point of the chain is held first-class (Decision 4).
    pub t: Vec<u64>,
    /// G': some point of the chain holds a stone of its colour or is an eye of its X*.
    pub gp: Vec<u64>,
}

impl StateGraph {
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.white_to_move.len()
    }

    #[inline]
    pub(crate) fn successors(&self, s: usize) -> &[u32] {
        &self.succ[self.succ_start[s] as usize..self.succ_start[s + 1] as usize]
    }
}

/// Bytes charged per state of a search on sets `S`: [`STATE_BYTES`], measured with the
/// 48-byte state of the `u128` board, plus what a wider state adds three times over (the
/// state list, the hash table's key and its spare room). The table of `pocket/table.rs`
/// keeps no key (a word a slot), so these charges are now above what a search holds; they
/// are kept so that the memory bound refuses the regions it refused.
pub(crate) fn state_bytes<S: PointSet>() -> usize {
    STATE_BYTES
        + 3 * std::mem::size_of::<State<S>>().saturating_sub(std::mem::size_of::<State<u128>>())
}

/// The limits of one exploration: the states it may still visit, and the bytes its graph
/// and solver may take (charged as [`STATE_BYTES`] per state and [`EDGE_BYTES`] per edge).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub states: usize,
    pub memory: usize,
}

/// Room for one more element, or [`Beyond::Memory`] when the system has none: a refusal,
/// never an abort.
#[inline]
fn room<T>(v: &mut Vec<T>) -> Result<(), Beyond> {
    v.try_reserve(1).map_err(|_| Beyond::Memory)
}

/// The exploration of one grid: every state met so far, numbered in the order met (the
/// transposition table: a state met again, by another line of play or by a later pass,
/// keeps its number and is never charged twice).
pub(crate) struct Explorer<'b, 'a, S: PointSet> {
    board: &'b SearchBoard<'a, S>,
    chains: &'b [(Color, S)],
    ids: StateTable,
    states: Vec<State<S>>,
    /// The numbers of the roots.
    pub roots: Vec<u32>,
}

impl<'b, 'a, S: PointSet> Explorer<'b, 'a, S> {
    /// An exploration from `roots` tracking the goals of `chains` (colour and points),
    /// with room for `limit` states.
    pub(crate) fn new(
        board: &'b SearchBoard<'a, S>,
        roots: &[State<S>],
        chains: &'b [(Color, S)],
        limit: usize,
    ) -> Result<Self, (Beyond, usize)> {
        if chains.len() > MAX_CHAINS {
            return Err((Beyond::Chains(chains.len()), 0));
        }
        let mut ex = Explorer {
            board,
            chains,
            ids: StateTable::default(),
            states: Vec::new(),
            roots: Vec::new(),
        };
        for &r in roots {
            let id = ex
                .intern(r, StateTable::tag(&r), limit)
                .map_err(|e| (e, 0))?;
            ex.roots.push(id);
        }
        Ok(ex)
    }

    /// The number of `s`, numbering it if it is new; [`Beyond::States`] when a new state
    /// would make more than `limit`.
    #[inline]
    fn intern(&mut self, s: State<S>, tag: u32, limit: usize) -> Result<u32, Beyond> {
        let next = self.states.len();
        // Room first: the table grows before the lookup, so a new state is numbered in the
        // free slot the lookup found.
        self.ids.reserve_one().map_err(|_| Beyond::Memory)?;
        match self.ids.find(&s, tag, &self.states) {
            Ok(id) => Ok(id),
            Err(_) if next >= limit => Err(Beyond::States(limit)),
            Err(at) => {
                room(&mut self.states)?;
                self.ids.insert(at, next as u32);
                self.states.push(s);
                Ok(next as u32)
            }
        }
    }

    /// The states met so far.
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }

    /// Explores the states reachable from the roots (breadth first), refusing when the
    /// states met, all passes together, would be more than `limits.states`, or the graph
    /// beyond `limits.memory` (the error carries the number of states met). With `whole`
    /// false, only states where some tracked chain is whole (G) are expanded; the others
    /// are left without moves, which the goals F1, F2 and S1 never look past. `before`,
    /// the graph of an earlier pass of this exploration, lends its predicates and the
    /// moves of the states it expanded, so a later pass computes only what is new.
    pub(crate) fn explore(
        &mut self,
        limits: Limits,
        whole: bool,
        before: Option<StateGraph>,
    ) -> Result<StateGraph, (Beyond, usize)> {
        let state_bytes = state_bytes::<S>();
        let lent = before.as_ref().map_or(0, StateGraph::len);
        let lent_edges = before.as_ref().map_or(0, |b| b.succ.len());
        let mut graph = StateGraph {
            white_to_move: Vec::new(),
            succ_start: vec![0],
            succ: Vec::new(),
            g: Vec::new(),
            t: Vec::new(),
            gp: Vec::new(),
        };
        let mut next = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        let mut tags: Vec<u32> = Vec::new();
        let mut k = 0;
        while k < self.states.len() {
            let visited = self.states.len();
            let edges = graph.succ.len() + lent_edges;
            if visited
                .saturating_mul(state_bytes)
                .saturating_add(edges.saturating_mul(EDGE_BYTES))
                > limits.memory
            {
                return Err((Beyond::Memory, visited));
            }
            let s = self.states[k];
            (|| {
                room(&mut graph.g)?;
                room(&mut graph.t)?;
                room(&mut graph.gp)?;
                room(&mut graph.white_to_move)?;
                room(&mut graph.succ_start)
            })()
            .map_err(|e| (e, visited))?;
            ids.clear();
            // None: nothing to expand; Some(held): expand, with X* if already known.
            let expand = match &before {
                Some(b) if k < lent => {
                    graph.g.push(b.g[k]);
                    graph.t.push(b.t[k]);
                    graph.gp.push(b.gp[k]);
                    graph.white_to_move.push(b.white_to_move[k]);
                    if b.successors(k).is_empty() {
                        (whole || b.g[k] != 0).then_some(None)
                    } else {
                        // Expanded before (every expanded state has the pass): its moves
                        // are known, by number.
                        ids.extend_from_slice(b.successors(k));
                        None
                    }
                }
                _ => {
                    let held = self.board.held(&s);
                    let (mut g, mut t, mut gp) = (0u64, 0u64, 0u64);
                    for (i, &(c, points)) in self.chains.iter().enumerate() {
                        let h = held[c.index()];
                        let stones = s.stones(c);
                        g |= u64::from((points & !stones).is_empty()) << i;
                        t |= u64::from((points & !(h.stones | h.eyes)).is_empty()) << i;
                        gp |= u64::from(!(points & (stones | h.eyes)).is_empty()) << i;
                    }
                    graph.g.push(g);
                    graph.t.push(t);
                    graph.gp.push(gp);
                    graph.white_to_move.push(s.mover() == Color::White);
                    (whole || g != 0).then_some(Some(held))
                }
            };
            k += 1;
            if let Some(held) = expand {
                let held = held.unwrap_or_else(|| self.board.held(&s));
                next.clear();
                self.board
                    .successors(&s, &held, &mut next)
                    .map_err(|e| (e, visited))?;
                ids.try_reserve(next.len())
                    .map_err(|_| (Beyond::Memory, visited))?;
                tags.clear();
                tags.extend(next.iter().map(StateTable::tag));
                self.ids.touch(tags.iter().copied());
                for (&n, &tag) in next.iter().zip(&tags) {
                    let id = self
                        .intern(n, tag, limits.states)
                        .map_err(|e| (e, self.states.len()))?;
                    ids.push(id);
                }
            }
            ids.sort_unstable();
            ids.dedup();
            graph
                .succ
                .try_reserve(ids.len())
                .map_err(|_| (Beyond::Memory, visited))?;
            graph.succ.extend_from_slice(&ids);
            graph.succ_start.push(graph.succ.len() as u32);
        }
        Ok(graph)
    }
}
