//! The board: stones, chains with their liberties, removal, and the Zobrist hash of
//! the configuration. It knows no turn order, no history and no rules beyond Rule 3
//! (removal); legality lives in [`crate::Position`].
//!
//! Chains are circular linked lists (`next`) with a `head` per stone. The head holds the
//! chain's size and its pseudo-liberties: every (stone, empty neighbour) adjacency counts
//! once, so a point next to three stones of a chain counts three times. With the count
//! the head keeps the sum and the sum of squares of those points, which says exactly
//! whether a chain has one distinct liberty (all the points are the same point when
//! `count * squares == sum * sum`). Placing or removing a stone then changes each
//! neighbouring chain by one adjacency, with no test for duplicates, and joining two
//! chains adds their counts: a merge walks only the smaller chain to relabel it. Exact
//! liberty counts, where an API asks for them, are counted on demand. Every array has the
//! fixed size of the tier's padded board, so a copy is one `memcpy` and never allocates.

use crate::color::{Cell, Color};
use crate::geometry::{CoordError, Geometry, Loc, MAX_CELLS, MAX_SIDE};
use crate::zobrist;

/// Words of a bitset over the padded cells of the largest board.
pub const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of locs on the stack, for flood fills.
#[derive(Clone)]
pub(crate) struct Marks([u64; WORDS]);

impl Marks {
    #[inline]
    pub(crate) fn new() -> Marks {
        Marks([0; WORDS])
    }
    /// Marks `loc`; true if it was not marked before.
    #[inline]
    pub(crate) fn insert(&mut self, loc: Loc) -> bool {
        let (w, b) = (loc as usize / 64, loc as usize % 64);
        let fresh = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        fresh
    }
    #[inline]
    pub(crate) fn contains(&self, loc: Loc) -> bool {
        self.0[loc as usize / 64] & (1 << (loc as usize % 64)) != 0
    }
}

/// The place of `loc` in an array of `N` cells. A tier whose capacity is a power of two
/// (9x9 and 19x19, [`crate::tiers`]) masks the loc, so the compiler sees every index in
/// bounds and drops the bounds check (the project forbids `unsafe`); a loc is always
/// below the capacity, so the mask changes nothing. Other capacities index as they are.
#[inline(always)]
fn at<const N: usize>(loc: Loc) -> usize {
    debug_assert!(usize::from(loc) < N, "loc {loc} in a board of {N} cells");
    if N.is_power_of_two() {
        usize::from(loc) & (N - 1)
    } else {
        usize::from(loc)
    }
}

/// The Zobrist key of a stone of `c` at `loc`, with the loc masked as [`at`] masks it.
#[inline(always)]
fn key<const N: usize>(c: Color, loc: Loc) -> u128 {
    zobrist::key(c, at::<N>(loc) as Loc)
}

/// Per-cell values of a board of `N` cells, indexed by loc (see [`at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Grid<T, const N: usize>([T; N]);

impl<T, const N: usize> std::ops::Index<Loc> for Grid<T, N> {
    type Output = T;
    #[inline(always)]
    fn index(&self, loc: Loc) -> &T {
        &self.0[at::<N>(loc)]
    }
}

impl<T, const N: usize> std::ops::IndexMut<Loc> for Grid<T, N> {
    #[inline(always)]
    fn index_mut(&mut self, loc: Loc) -> &mut T {
        &mut self.0[at::<N>(loc)]
    }
}

/// Why a set of stones cannot form a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Coord(CoordError),
    /// The same point was given twice (flat index).
    Repeated(usize),
    /// A chain with no liberty (flat index of one of its stones).
    NoLiberty(usize),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Coord(e) => e.fmt(f),
            SetupError::Repeated(i) => write!(f, "point {i} is given twice"),
            SetupError::NoLiberty(i) => write!(f, "the chain at point {i} has no liberty"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Stones on a w x h board with chains, liberties and the configuration hash.
///
/// `N` is the capacity in padded cells (see [`crate::tiers`]): small boards get small
/// arrays, so copying a 9x9 board moves 1 KB, not the 6 KB of a 25x25 one.
///
/// The fields are laid out in this order from a cache line's start: the per-point arrays
/// first (whole lines on the power-of-two tiers), then what every play reads or writes,
/// the geometry, the stone and empty counts, the hash and the empty set, in one line
/// (the empty set's first four words included, all of it up to 9x9) instead of three.
/// When many boards are played in turn (a batch's lockstep step), each play begins
/// with its board out of the caches and each line it touches is a miss: on 4,096 9x9
/// games in lockstep this layout cut the modelled misses per step by 4.5%.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Board<const N: usize> {
    cells: Grid<Cell, N>,
    head: Grid<Loc, N>,
    next: Grid<Loc, N>,
    /// At a chain's head: its pseudo-liberties.
    libs: Grid<Libs, N>,
    /// At a chain's head: its number of stones.
    size: Grid<u16, N>,
    /// The empty points again as an unordered list (`empties[..empty_count]`), with each
    /// empty point's place in it: a uniform draw among them is one index.
    empties: Grid<Loc, N>,
    empty_at: Grid<Loc, N>,
    /// Per point: how many of its neighbours hold each kind of cell, one nibble per
    /// [`Cell`] value (empty, Black, White, wall), see [`Around`]. Exact for every point
    /// of the board (wall cells keep meaningless counts, never read): a stone placed or
    /// removed changes each neighbour's word by one add.
    around: Grid<u16, N>,
    geo: Geometry,
    stones: [u16; 2],
    empty_count: u16,
    hash: u128,
    /// The empty points, one bit per loc: legal-move scans visit only these, in order.
    empty: [u64; WORDS],
}

/// The neighbour counts of one point: nibble `k` counts the neighbours whose cell is
/// `k` as a [`Cell`] value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Around(u16);

impl Around {
    /// How many neighbours hold `cell`.
    #[inline(always)]
    #[must_use]
    pub fn count(self, cell: Cell) -> u8 {
        (self.0 >> (4 * cell as u16) & 0xF) as u8
    }

    /// Whether no neighbour holds `a` or `b`.
    #[inline(always)]
    #[must_use]
    pub fn none_of(self, a: Cell, b: Cell) -> bool {
        self.0 & (0xF << (4 * a as u16) | 0xF << (4 * b as u16)) == 0
    }

    /// What a cell turning from empty to `cell` adds to each neighbour's word (the
    /// reverse is its negation, in wrapping arithmetic).
    #[inline(always)]
    fn filled(cell: Cell) -> u16 {
        (1u16 << (4 * cell as u16)).wrapping_sub(1)
    }
}

/// A chain's pseudo-liberties in one word: the count (bits 0..12), the sum of their locs
/// (bits 12..33) and the sum of their squares (bits 33..64). No field can overflow into
/// the next (at most 4 * 625 adjacencies, locs below 703: counts below 2^12, sums below
/// 2^21, squares below 2^31) or go below zero (only adjacencies counted in are taken
/// out), so adding or taking one adjacency, or joining two chains, is one integer add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Libs(u64);

const _: () = {
    let (adjacencies, top) = (4 * (MAX_SIDE * MAX_SIDE) as u64, MAX_CELLS as u64 - 1);
    assert!(
        adjacencies < 1 << 12 && adjacencies * top < 1 << 21 && adjacencies * top * top < 1 << 31
    );
};

impl Libs {
    /// One adjacency to the point `p`.
    #[inline]
    fn one(p: Loc) -> u64 {
        let p = u64::from(p);
        1 | p << 12 | (p * p) << 33
    }

    #[inline]
    fn count(self) -> u64 {
        self.0 & 0xFFF
    }

    /// Exactly one distinct liberty, and it is `p`: the word is `n` adjacencies to `p`
    /// (then the sum is `n * p` and the squares `n * p^2`, and the sum of `(x - p)^2`
    /// over the pseudo-liberties, `squares - 2p * sum + n * p^2`, is zero).
    #[inline]
    fn only_at(self, p: Loc) -> bool {
        self.0 == self.count() * Libs::one(p) && self.count() != 0
    }

    /// Exactly one distinct liberty: all the pseudo-liberties are one point (equality in
    /// Cauchy-Schwarz, `n * sum(x^2) == sum(x)^2`, holds only then).
    #[inline]
    fn in_atari(self) -> bool {
        let (n, sum, squares) = (self.0 & 0xFFF, self.0 >> 12 & 0x1F_FFFF, self.0 >> 33);
        n != 0 && n * squares == sum * sum
    }

    /// The one distinct liberty, if there is exactly one: then all `n` pseudo-liberties
    /// are that point, and their sum is `n` times it.
    #[inline]
    fn last(self) -> Option<Loc> {
        let (n, sum) = (self.0 & 0xFFF, self.0 >> 12 & 0x1F_FFFF);
        self.in_atari().then(|| (sum as u32 / n as u32) as Loc)
    }
}

/// What one play did, enough to undo it given the removed stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayEffect {
    /// Stones removed by the play (opponent stones, or the player's own on suicide).
    pub removed: u16,
    /// The play's own chain was removed (only where suicide is allowed).
    pub suicide: bool,
}

/// How a play on an empty point would go, read without playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayShape {
    /// It removes at least one opponent chain.
    pub captures: bool,
    /// It removes nothing and leaves its own chain without a liberty.
    pub suicide: bool,
}

impl<const N: usize> Board<N> {
    /// An empty board. Precondition: `geo.cells() <= N`.
    #[must_use]
    pub fn new(geo: Geometry) -> Self {
        debug_assert!(geo.cells() <= N);
        let mut cells = Grid([Cell::Wall; N]);
        let mut empty = [0; WORDS];
        let (mut empties, mut empty_at, mut empty_count) = (Grid([0; N]), Grid([0; N]), 0);
        for loc in geo.locs() {
            cells[loc] = Cell::Empty;
            empty[loc as usize / 64] |= 1 << (loc % 64);
            empties[empty_count] = loc;
            empty_at[loc] = empty_count;
            empty_count += 1;
        }
        let mut around = Grid([0; N]);
        for loc in geo.locs() {
            let s = geo.stride;
            around[loc] = [loc - s, loc - 1, loc + 1, loc + s]
                .iter()
                .map(|&q| 1 << (4 * cells[q] as u16))
                .sum();
        }
        Board {
            geo,
            cells,
            head: Grid([0; N]),
            next: Grid([0; N]),
            libs: Grid([Libs::default(); N]),
            size: Grid([0; N]),
            hash: 0,
            stones: [0; 2],
            empty,
            empties,
            empty_at,
            empty_count,
            around,
        }
    }

    /// A board with setup stones (flat indices). Any arrangement is accepted in which no
    /// point is given twice and every chain has a liberty.
    pub fn from_setup(geo: Geometry, black: &[usize], white: &[usize]) -> Result<Self, SetupError> {
        let mut b = Board::new(geo);
        for (color, points) in [(Color::Black, black), (Color::White, white)] {
            for &i in points {
                if i >= geo.points() {
                    return Err(SetupError::Coord(CoordError::BadIndex(i as i64)));
                }
                let loc = geo.loc_of_index(i);
                if b.cells[loc] != Cell::Empty {
                    return Err(SetupError::Repeated(i));
                }
                b.add_stone(loc, color);
            }
        }
        for loc in geo.locs() {
            if b.cells[loc].color().is_some() && !b.has_liberty(loc) {
                return Err(SetupError::NoLiberty(geo.index_of_loc(loc)));
            }
        }
        Ok(b)
    }

    /// A board from a diagram, top row first: `X` Black, `O` White, `.` empty (KataGo's
    /// `parseBoard`), so that tests read as pictures; `{:?}` prints the same diagram.
    /// Rows of unequal length or another character are a malformed coordinate.
    /// Precondition: the board fits `N` cells.
    pub fn from_diagram(rows: &[&str]) -> Result<Self, SetupError> {
        let malformed = || SetupError::Coord(CoordError::Malformed(rows.join("/")));
        let width = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != width) {
            return Err(malformed());
        }
        let geo = Geometry::new(width, rows.len()).map_err(|_| malformed())?;
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (i, ch) in rows.iter().flat_map(|r| r.bytes()).enumerate() {
            match ch {
                b'X' => black.push(i),
                b'O' => white.push(i),
                b'.' => {}
                _ => return Err(malformed()),
            }
        }
        Board::from_setup(geo, &black, &white)
    }

    #[inline]
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    #[inline]
    #[must_use]
    pub fn cell(&self, loc: Loc) -> Cell {
        self.cells[loc]
    }

    /// The padded cells (walls included), for hashing-free comparisons and flood fills.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[Cell; N] {
        &self.cells.0
    }

    /// The Zobrist hash of the configuration (stones only).
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u128 {
        self.hash
    }

    #[inline]
    #[must_use]
    pub fn stone_count(&self, c: Color) -> usize {
        self.stones[c.index()] as usize
    }

    /// Liberties (distinct empty neighbours) of the chain through `loc`, counted by a walk
    /// over the chain. Precondition: `loc` holds a stone.
    #[must_use]
    pub fn liberties(&self, loc: Loc) -> usize {
        usize::from(self.count_liberties(self.head[loc]))
    }

    /// Whether the chain through `loc` has a liberty. Precondition: `loc` holds a stone.
    #[inline]
    #[must_use]
    pub fn has_liberty(&self, loc: Loc) -> bool {
        self.libs[self.head[loc]].count() != 0
    }

    /// Whether the chain through `q` has `p` as its only liberty. Precondition: `q` holds
    /// a stone.
    #[inline]
    #[must_use]
    pub fn only_liberty_is(&self, q: Loc, p: Loc) -> bool {
        self.libs[self.head[q]].only_at(p)
    }

    /// Whether the chain through `loc` has exactly one liberty. Precondition: `loc`
    /// holds a stone.
    #[inline]
    #[must_use]
    pub fn in_atari(&self, loc: Loc) -> bool {
        self.libs[self.head[loc]].in_atari()
    }

    /// The liberty of the chain through `loc` if it has exactly one (read from the chain's
    /// pseudo-liberties, no walk). Precondition: `loc` holds a stone.
    #[inline]
    #[must_use]
    pub fn last_liberty(&self, loc: Loc) -> Option<Loc> {
        self.libs[self.head[loc]].last()
    }

    /// Stones of the chain through `loc`. Precondition: `loc` holds a stone.
    pub fn chain(&self, loc: Loc) -> impl Iterator<Item = Loc> + '_ {
        let start = loc;
        let mut cur = Some(loc);
        std::iter::from_fn(move || {
            let l = cur?;
            let n = self.next[l];
            cur = (n != start).then_some(n);
            Some(l)
        })
    }

    /// The four neighbours of `p` (wall cells included).
    #[inline]
    pub(crate) fn neighbours(&self, p: Loc) -> [Loc; 4] {
        let s = self.geo.stride;
        [p - s, p - 1, p + 1, p + s]
    }

    /// How a play of `c` at the empty point `p` would go. Precondition: `p` is empty.
    #[inline(always)]
    #[must_use]
    pub fn shape(&self, p: Loc, c: Color) -> PlayShape {
        let own = Cell::stone(c);
        let opp = Cell::stone(c.opponent());
        let around = Around(self.around[p]);
        let mut breathes = around.count(Cell::Empty) != 0;
        if breathes && around.count(opp) == 0 {
            return PlayShape {
                captures: false,
                suicide: false,
            };
        }
        let mut captures = false;
        for q in self.neighbours(p) {
            let cell = self.cells[q];
            if cell == opp {
                captures |= self.only_liberty_is(q, p);
            } else if cell == own && !breathes {
                breathes = !self.only_liberty_is(q, p);
            }
        }
        PlayShape {
            captures,
            suicide: !captures && !breathes,
        }
    }

    /// The configuration after a play of `c` at the empty point `p`, removal included,
    /// without playing it. Precondition: `p` is empty.
    #[must_use]
    pub fn cells_after(&self, p: Loc, c: Color) -> [Cell; N] {
        self.cells_after_shape(p, c, self.shape(p, c))
    }

    /// [`Board::cells_after`] given the play's [`Board::shape`].
    #[must_use]
    pub fn cells_after_shape(&self, p: Loc, c: Color, shape: PlayShape) -> [Cell; N] {
        let mut cells = self.cells;
        cells[p] = Cell::stone(c);
        let (own, opp) = (Cell::stone(c), Cell::stone(c.opponent()));
        for q in self.neighbours(p) {
            let cell = self.cells[q];
            let gone = if cell == opp {
                self.only_liberty_is(q, p)
            } else {
                cell == own && shape.suicide
            };
            if gone && cells[q] != Cell::Empty {
                for s in self.chain(q) {
                    cells[s] = Cell::Empty;
                }
            }
        }
        if shape.suicide {
            cells[p] = Cell::Empty;
        }
        cells.0
    }

    /// The hash after a play of `c` at the empty point `p`, removal included. Precondition:
    /// `p` is empty.
    #[must_use]
    #[inline]
    pub fn hash_after(&self, p: Loc, c: Color) -> u128 {
        self.hash_after_shape(p, c, self.shape(p, c))
    }

    /// [`Board::hash_after`] given the play's [`Board::shape`] (a legality test has it
    /// already).
    #[must_use]
    #[inline]
    pub fn hash_after_shape(&self, p: Loc, c: Color, shape: PlayShape) -> u128 {
        let own = Cell::stone(c);
        let opp = Cell::stone(c.opponent());
        let mut h = self.hash ^ key::<N>(c, p);
        let mut seen = [0 as Loc; 4];
        let mut n = 0;
        for q in self.neighbours(p) {
            let cell = self.cells[q];
            let hd = self.head[q];
            let gone = if cell == opp {
                self.libs[hd].only_at(p)
            } else {
                cell == own && shape.suicide
            };
            if gone && !seen[..n].contains(&hd) {
                seen[n] = hd;
                n += 1;
                let color = cell.color().unwrap_or(c);
                for s in self.chain(hd) {
                    h ^= key::<N>(color, s);
                }
            }
        }
        if shape.suicide {
            h ^= key::<N>(c, p);
        }
        h
    }

    /// Plays `c` at `p` and removes what Rule 3 removes: every opponent chain left without
    /// a liberty, then, if none was removed and its own chain has no liberty, that chain
    /// (suicide; callers that forbid it check first). Removed stones are appended to
    /// `removed`. Precondition: `p` is an empty point of the board.
    #[inline(always)]
    pub fn play_unchecked(&mut self, p: Loc, c: Color, removed: &mut Vec<Loc>) -> PlayEffect {
        self.add_stone(p, c);
        let opp = Cell::stone(c.opponent());
        let start = removed.len();
        for q in self.neighbours(p) {
            if self.cells[q] == opp && !self.has_liberty(q) {
                self.remove_chain(self.head[q], removed);
            }
        }
        let mut suicide = false;
        if removed.len() == start && !self.has_liberty(p) {
            self.remove_chain(self.head[p], removed);
            suicide = true;
        }
        PlayEffect {
            removed: (removed.len() - start) as u16,
            suicide,
        }
    }

    /// Reverses [`Board::play_unchecked`]: `removed` are exactly the stones it removed.
    pub fn undo_unchecked(&mut self, p: Loc, c: Color, removed: &[Loc], suicide: bool) {
        if suicide {
            self.restore_stones(removed, c);
        } else if !removed.is_empty() {
            self.restore_stones(removed, c.opponent());
        }
        self.remove_stone(p);
    }

    /// Puts a stone on an empty point without removing anything: takes the point from
    /// the neighbouring chains' pseudo-liberties (once per adjacency), gives the stone its
    /// empty neighbours, and merges it with its own neighbouring chains.
    // Always inlined, as are the stone and liberty updates below: in the extension
    // module, with more callers, LLVM otherwise keeps them out of line, and a playout
    // from Python costs 34 instructions a move more than the same loop in Rust.
    #[inline(always)]
    pub(crate) fn add_stone(&mut self, p: Loc, c: Color) {
        self.set_stone(p, c);
        self.head[p] = p;
        self.next[p] = p;
        let own = Cell::stone(c);
        let mut libs = 0;
        let taken = Libs::one(p);
        for q in self.neighbours(p) {
            match self.cells[q] {
                Cell::Empty => libs += Libs::one(q),
                Cell::Wall => {}
                _ => self.libs[self.head[q]].0 -= taken,
            }
        }
        self.libs[p] = Libs(libs);
        self.size[p] = 1;
        for q in self.neighbours(p) {
            if self.cells[q] == own {
                let (a, b) = (self.head[p], self.head[q]);
                if a != b {
                    self.merge(a, b);
                }
            }
        }
    }

    /// Puts a stone of `c` on the empty point `p`: cell, hash, counts; no chains.
    #[inline(always)]
    fn set_stone(&mut self, p: Loc, c: Color) {
        self.cells[p] = Cell::stone(c);
        self.hash ^= key::<N>(c, p);
        self.stones[c.index()] += 1;
        self.empty[p as usize / 64] &= !(1 << (p % 64));
        self.empty_count -= 1;
        let (i, last) = (self.empty_at[p], self.empties[self.empty_count]);
        self.empties[i] = last;
        self.empty_at[last] = i;
        let filled = Around::filled(Cell::stone(c));
        for q in self.neighbours(p) {
            self.around[q] = self.around[q].wrapping_add(filled);
        }
    }

    /// Takes the stone of `c` off `p`: cell, hash, counts; no chains.
    #[inline(always)]
    fn clear_stone(&mut self, p: Loc, c: Color) {
        self.cells[p] = Cell::Empty;
        self.hash ^= key::<N>(c, p);
        self.stones[c.index()] -= 1;
        self.empty[p as usize / 64] |= 1 << (p % 64);
        self.empties[self.empty_count] = p;
        self.empty_at[p] = self.empty_count;
        self.empty_count += 1;
        let filled = Around::filled(Cell::stone(c));
        for q in self.neighbours(p) {
            self.around[q] = self.around[q].wrapping_sub(filled);
        }
    }

    /// The empty points as a bitset over locs (bit `loc % 64` of word `loc / 64`).
    #[inline]
    #[must_use]
    pub fn empty_set(&self) -> [u64; WORDS] {
        self.empty
    }

    /// The empty points, in no particular order.
    #[inline]
    #[must_use]
    pub fn empty_points(&self) -> &[Loc] {
        &self.empties.0[..usize::from(self.empty_count)]
    }

    /// How many points are empty.
    #[inline]
    #[must_use]
    pub fn empty_count(&self) -> usize {
        usize::from(self.empty_count)
    }

    /// The empty point at place `i` of [`Board::empty_points`] (unchecked against the
    /// count, but in bounds). Precondition: `i < self.empty_count()`.
    #[inline(always)]
    #[must_use]
    pub fn empty_point(&self, i: usize) -> Loc {
        debug_assert!(i < self.empty_count());
        self.empties[i as Loc]
    }

    /// Swaps places `i` and `j` of [`Board::empty_points`] (an unordered list: nothing
    /// else changes). Precondition: both are below [`Board::empty_count`].
    #[inline(always)]
    pub(crate) fn swap_empty_points(&mut self, i: usize, j: usize) {
        let (i, j) = (i as Loc, j as Loc);
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_at[a] = j;
        self.empty_at[b] = i;
    }

    /// Calls `f(flat index, loc)` for every empty point, in flat-index order.
    #[inline]
    pub fn for_each_empty(&self, f: impl FnMut(usize, Loc)) {
        self.geo.for_each_set_index(&self.empty, f);
    }

    /// Whether every neighbour of the empty point `p` is empty: then a play there can
    /// neither capture nor be suicide.
    #[inline]
    #[must_use]
    pub fn is_open(&self, p: Loc) -> bool {
        self.empty_neighbours(p) == 4
    }

    /// How many neighbours of `p` are empty.
    #[inline]
    #[must_use]
    pub fn empty_neighbours(&self, p: Loc) -> u8 {
        self.around(p).count(Cell::Empty)
    }

    /// How many neighbours of the point `p` hold each kind of cell.
    #[inline(always)]
    #[must_use]
    pub fn around(&self, p: Loc) -> Around {
        Around(self.around[p])
    }

    /// Joins two chains: the smaller one is relabelled, and the pseudo-liberties add up
    /// (an adjacency belongs to one stone, so none is counted twice).
    fn merge(&mut self, a: Loc, b: Loc) {
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big;
            s = self.next[s];
            if s == small {
                break;
            }
        }
        (self.next[big], self.next[small]) = (self.next[small], self.next[big]);
        self.size[big] += self.size[small];
        self.libs[big].0 += self.libs[small].0;
    }

    /// Distinct liberties of the chain with head `h`.
    fn count_liberties(&self, h: Loc) -> u16 {
        let mut marks = Marks::new();
        let mut n = 0;
        for s in self.chain(h) {
            for q in self.neighbours(s) {
                if self.cells[q] == Cell::Empty && marks.insert(q) {
                    n += 1;
                }
            }
        }
        n
    }

    /// Removes the chain with head `h`, giving its points as liberties to the chains
    /// around it (once per adjacency); appends its stones to `out`.
    pub(crate) fn remove_chain(&mut self, h: Loc, out: &mut Vec<Loc>) {
        let color = self.cells[h].color().expect("remove_chain on a stone");
        let other = Cell::stone(color.opponent());
        let mut s = h;
        loop {
            out.push(s);
            self.clear_stone(s, color);
            self.give_liberty(s, other);
            s = self.next[s];
            if s == h {
                break;
            }
        }
    }

    /// `p` has become empty: each neighbouring stone of colour `cell` gives its chain one
    /// more pseudo-liberty.
    #[inline(always)]
    fn give_liberty(&mut self, p: Loc, cell: Cell) {
        let one = Libs::one(p);
        for q in self.neighbours(p) {
            if self.cells[q] == cell {
                self.libs[self.head[q]].0 += one;
            }
        }
    }

    /// `p` has been filled: each neighbouring stone of colour `cell` takes one
    /// pseudo-liberty from its chain.
    #[inline]
    fn take_liberty(&mut self, p: Loc, cell: Cell) {
        let one = Libs::one(p);
        for q in self.neighbours(p) {
            if self.cells[q] == cell {
                self.libs[self.head[q]].0 -= one;
            }
        }
    }

    /// Takes away the stone at `p` (the reverse of [`Board::add_stone`]); a chain it held
    /// together is split again.
    pub(crate) fn remove_stone(&mut self, p: Loc) {
        let color = self.cells[p].color().expect("remove_stone on a stone");
        self.clear_stone(p, color);
        self.give_liberty(p, Cell::stone(color.opponent()));
        let own = Cell::stone(color);
        let mut done = Marks::new();
        for q in self.neighbours(p) {
            if self.cells[q] == own && !done.contains(q) {
                self.rebuild_chain(q, &mut done);
            }
        }
    }

    /// Puts back stones removed by [`Board::remove_chain`] (the reverse of it).
    pub(crate) fn restore_stones(&mut self, stones: &[Loc], color: Color) {
        for &s in stones {
            self.set_stone(s, color);
        }
        let other = Cell::stone(color.opponent());
        for &s in stones {
            self.take_liberty(s, other);
        }
        let mut done = Marks::new();
        for &s in stones {
            if !done.contains(s) {
                self.rebuild_chain(s, &mut done);
            }
        }
    }

    /// Relinks the chain through `start` by flood fill, with `start` as head, and counts
    /// its liberties. Marks its stones in `done`.
    fn rebuild_chain(&mut self, start: Loc, done: &mut Marks) {
        let cell = self.cells[start];
        let mut stack = [0 as Loc; N];
        let mut top = 0;
        let mut prev = start;
        let mut size = 0u16;
        done.insert(start);
        stack[top] = start;
        top += 1;
        while top > 0 {
            top -= 1;
            let s = stack[top];
            self.head[s] = start;
            if s != start {
                self.next[prev] = s;
                prev = s;
            }
            size += 1;
            for q in self.neighbours(s) {
                if self.cells[q] == cell && done.insert(q) {
                    stack[top] = q;
                    top += 1;
                }
            }
        }
        self.next[prev] = start;
        let mut libs = 0;
        let mut s = start;
        loop {
            for q in self.neighbours(s) {
                if self.cells[q] == Cell::Empty {
                    libs += Libs::one(q);
                }
            }
            s = self.next[s];
            if s == start {
                break;
            }
        }
        self.libs[start] = Libs(libs);
        self.size[start] = size;
    }

    /// Recomputes every derived field from the cells and compares; for tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut hash = 0u128;
        let mut stones = [0u16; 2];
        for loc in self.geo.locs() {
            let Some(c) = self.cells[loc].color() else {
                continue;
            };
            hash ^= key::<N>(c, loc);
            stones[c.index()] += 1;
            let h = self.head[loc];
            let mut fresh = self.clone();
            let mut done = Marks::new();
            fresh.rebuild_chain(loc, &mut done);
            let members: Vec<Loc> = self.chain(h).collect();
            let mut expected: Vec<Loc> = fresh.chain(loc).collect();
            let mut got = members.clone();
            expected.sort_unstable();
            got.sort_unstable();
            if got != expected {
                return Err(format!("chain at {loc}: {got:?} != {expected:?}"));
            }
            if members.iter().any(|&m| self.head[m] != h) {
                return Err(format!("chain at {loc}: heads disagree"));
            }
            if self.size[h] as usize != members.len() {
                return Err(format!(
                    "chain at {loc}: size {} != {}",
                    self.size[h],
                    members.len()
                ));
            }
            if self.libs[h] != fresh.libs[loc] {
                return Err(format!(
                    "chain at {loc}: pseudo-liberties {:?} != {:?}",
                    self.libs[h], fresh.libs[loc]
                ));
            }
            let exact = self.count_liberties(h);
            let only = self
                .geo
                .locs()
                .filter(|&p| self.only_liberty_is(loc, p))
                .count();
            if self.in_atari(loc) != (exact == 1)
                || only != usize::from(exact == 1)
                || self.has_liberty(loc) != (exact > 0)
            {
                return Err(format!(
                    "chain at {loc}: atari or liberty test disagrees with {exact} liberties"
                ));
            }
            let walked = (exact == 1)
                .then(|| {
                    members
                        .iter()
                        .flat_map(|&m| self.neighbours(m))
                        .find(|&q| self.cells[q] == Cell::Empty)
                })
                .flatten();
            if self.last_liberty(loc) != walked {
                return Err(format!(
                    "chain at {loc}: last liberty {:?} != {walked:?}",
                    self.last_liberty(loc)
                ));
            }
        }
        if hash != self.hash {
            return Err("hash".into());
        }
        for loc in self.geo.locs() {
            let l = loc as usize;
            let empty = self.cells[loc] == Cell::Empty;
            if (self.empty[l / 64] >> (l % 64) & 1 == 1) != empty {
                return Err(format!("empty set at {loc}"));
            }
            for cell in [Cell::Empty, Cell::Black, Cell::White, Cell::Wall] {
                let n = self
                    .neighbours(loc)
                    .iter()
                    .filter(|&&q| self.cells[q] == cell)
                    .count();
                if usize::from(self.around(loc).count(cell)) != n {
                    return Err(format!(
                        "{cell:?} neighbours at {loc}: {} != {n}",
                        self.around(loc).count(cell)
                    ));
                }
            }
        }
        let listed = self.empty_points();
        let mut sorted = listed.to_vec();
        sorted.sort_unstable();
        let expected: Vec<Loc> = self
            .geo
            .locs()
            .filter(|&l| self.cells[l] == Cell::Empty)
            .collect();
        if sorted != expected
            || listed
                .iter()
                .enumerate()
                .any(|(i, &l)| usize::from(self.empty_at[l]) != i)
        {
            return Err("empty list".into());
        }
        if stones != self.stones {
            return Err(format!("stone counts {:?} != {stones:?}", self.stones));
        }
        Ok(())
    }
}

impl<const N: usize> PartialEq for Board<N> {
    /// Boards are equal when their geometry and configuration are.
    fn eq(&self, other: &Self) -> bool {
        self.geo == other.geo
            && self.cells.0[..self.geo.cells()] == other.cells.0[..other.geo.cells()]
    }
}

impl<const N: usize> std::fmt::Debug for Board<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in 0..self.geo.height as usize {
            for x in 0..self.geo.width as usize {
                let ch = match self.cells[self.geo.loc(x, r)] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The geometry, the counts, the hash and the empty set's first four words (all of
    /// it up to 9x9) lie in one cache line of a board, on both power-of-two tiers.
    #[test]
    fn the_fields_every_play_touches_share_a_line() {
        fn check<const N: usize>() {
            use std::mem::offset_of;
            assert_eq!(std::mem::align_of::<Board<N>>(), 64);
            let line = offset_of!(Board<N>, geo) / 64;
            let ends = [
                offset_of!(Board<N>, stones),
                offset_of!(Board<N>, empty_count),
                offset_of!(Board<N>, hash) + 15,
                offset_of!(Board<N>, empty) + 31,
            ];
            assert!(ends.iter().all(|&o| o / 64 == line), "{ends:?}");
        }
        check::<{ crate::tiers::CELLS_9 }>();
        check::<{ crate::tiers::CELLS_19 }>();
    }

    #[test]
    fn diagrams_round_trip_through_debug() {
        let rows = [".XO.", "X.XO", ".XO."];
        let b = Board::<MAX_CELLS>::from_diagram(&rows).unwrap();
        assert_eq!(format!("{b:?}"), rows.join("\n") + "\n");
        assert_eq!(
            (b.stone_count(Color::Black), b.stone_count(Color::White)),
            (4, 3)
        );
        assert_eq!(b.geometry().width, 4);
    }

    #[test]
    fn malformed_diagrams_are_refused() {
        let bad = |rows: &[&str]| Board::<MAX_CELLS>::from_diagram(rows).unwrap_err();
        assert!(matches!(bad(&["X.", "X"]), SetupError::Coord(_)));
        assert!(matches!(bad(&["XQ"]), SetupError::Coord(_)));
        assert!(matches!(bad(&[]), SetupError::Coord(_)));
        assert_eq!(bad(&["XO", "O."]), SetupError::NoLiberty(0));
    }
}
