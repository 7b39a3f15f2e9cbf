//! The points a status search plays on, and first-class life on them (STATUS.md
//! Decision 3).
//!
//! A [`Grid`] is a set of board points with their neighbours inside the set. Points
//! outside it are *frozen*: stones of chains that are first-class at the start and stay
//! so (Section 7), or the eyes of those chains. A grid point may touch frozen stones; it
//! never touches a frozen eye, because every neighbour of such an eye is a frozen stone.
//! The whole board is a grid with nothing frozen.
//!
//! Sets of grid points are bit sets ([`PointSet`]): `u128` for the search of a region of
//! at most 128 points (the common case, kept fast), [`Bits`] of 6 words for one of up to
//! 384 points (a whole 19x19 board) and [`WideSet`] for the whole board of up to 25x25.
//!
//! Also the whole board's helpers every part of status/ uses: a point's neighbours
//! ([`board_neighbours`]), connected components ([`components`]: chains, pockets,
//! regions) and the chains first-class at the start ([`first_class_chains`]).

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitOr, Not};

use crate::color::Color;
use crate::geometry::Geometry;

/// A set of grid points.
pub(crate) trait PointSet:
    Copy + Eq + Hash + Debug + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    const EMPTY: Self;
    /// The most points a set holds.
    const CAPACITY: usize;
    fn single(p: usize) -> Self;
    fn len(&self) -> u32;
    /// The lowest point, or `None` for the empty set.
    fn first(&self) -> Option<usize>;
    #[inline]
    fn is_empty(&self) -> bool {
        *self == Self::EMPTY
    }
    #[inline]
    fn has(&self, p: usize) -> bool {
        !(*self & Self::single(p)).is_empty()
    }
    /// The points, lowest first.
    fn points(self) -> impl Iterator<Item = usize> {
        let mut rest = self;
        std::iter::from_fn(move || {
            let p = rest.first()?;
            rest = rest & !Self::single(p);
            Some(p)
        })
    }
}

impl PointSet for u128 {
    const EMPTY: u128 = 0;
    const CAPACITY: usize = 128;
    #[inline]
    fn single(p: usize) -> u128 {
        1 << p
    }
    #[inline]
    fn len(&self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        (*self != 0).then(|| self.trailing_zeros() as usize)
    }
    #[inline]
    fn has(&self, p: usize) -> bool {
        *self >> p & 1 == 1
    }
}

/// A set of up to `64 * N` points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits<const N: usize>([u64; N]);

/// A set of up to 640 points (a whole 25x25 board).
pub(crate) type WideSet = Bits<10>;

impl<const N: usize> BitAnd for Bits<N> {
    type Output = Bits<N>;
    #[inline]
    fn bitand(self, o: Bits<N>) -> Bits<N> {
        Bits(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
}

impl<const N: usize> BitOr for Bits<N> {
    type Output = Bits<N>;
    #[inline]
    fn bitor(self, o: Bits<N>) -> Bits<N> {
        Bits(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }
}

impl<const N: usize> Not for Bits<N> {
    type Output = Bits<N>;
    #[inline]
    fn not(self) -> Bits<N> {
        Bits(self.0.map(|w| !w))
    }
}

/// Word by word: the derived hash of an array would write a length and then go through
/// the hasher's byte path.
impl<const N: usize> Hash for Bits<N> {
    #[inline]
    fn hash<H: Hasher>(&self, h: &mut H) {
        for &w in &self.0 {
            h.write_u64(w);
        }
    }
}

impl<const N: usize> PointSet for Bits<N> {
    const EMPTY: Bits<N> = Bits([0; N]);
    const CAPACITY: usize = 64 * N;
    #[inline]
    fn single(p: usize) -> Bits<N> {
        let mut s = Bits::EMPTY;
        s.0[p / 64] = 1 << (p % 64);
        s
    }
    #[inline]
    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|k| k * 64 + self.0[k].trailing_zeros() as usize)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn has(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 == 1
    }
}

/// A set of board points with their adjacency.
#[derive(Clone, Debug)]
pub(crate) struct Grid<S: PointSet> {
    /// Board flat index of each grid point, ascending.
    pub points: Vec<usize>,
    /// Grid neighbours of each grid point.
    pub nbr: Vec<S>,
    /// Grid points touching a frozen stone of each colour ([`Color::index`]).
    pub frozen: [S; 2],
    /// All grid points.
    pub all: S,
}

impl<S: PointSet> Grid<S> {
    /// The grid of `points` (board flat indices, ascending) on a board whose cells are
    /// `cells` (flat, 0 empty, 1 Black, 2 White): neighbours outside the set are frozen
    /// stones. Precondition: `points` fit in `S`.
    pub(crate) fn new(geo: Geometry, cells: &[u8], points: Vec<usize>) -> Grid<S> {
        let mut index = vec![usize::MAX; geo.points()];
        for (k, &p) in points.iter().enumerate() {
            index[p] = k;
        }
        let mut grid = Grid {
            nbr: vec![S::EMPTY; points.len()],
            frozen: [S::EMPTY; 2],
            all: S::EMPTY,
            points: Vec::new(),
        };
        for (k, &p) in points.iter().enumerate() {
            grid.all = grid.all | S::single(k);
            for q in board_neighbours(geo, p) {
                match (index[q], cells[q]) {
                    (usize::MAX, 1) => grid.frozen[0] = grid.frozen[0] | S::single(k),
                    (usize::MAX, 2) => grid.frozen[1] = grid.frozen[1] | S::single(k),
                    (usize::MAX, _) => {}
                    (j, _) => grid.nbr[k] = grid.nbr[k] | S::single(j),
                }
            }
        }
        grid.points = points;
        grid
    }

    /// The points next to `set`.
    #[inline]
    pub(crate) fn around(&self, set: S) -> S {
        set.points().fold(S::EMPTY, |acc, q| acc | self.nbr[q])
    }

    /// The connected part of `within` through `p`.
    #[inline]
    pub(crate) fn flood(&self, within: S, p: usize) -> S {
        let (mut done, mut frontier) = (S::single(p), S::single(p));
        while !frontier.is_empty() {
            let next = self.around(frontier) & within & !done;
            done = done | next;
            frontier = next;
        }
        done
    }

    /// X*(c) of Decision 3 when `stones` are c's stones and `empty` the empty points,
    /// computed like Benson's algorithm restricted to one-point eyes: start with every
    /// chain of c and every eye of c (an empty point all of whose neighbours are c
    /// stones), then repeatedly drop the chains that touch fewer than two remaining eyes
    /// and the eyes that touch a dropped chain. A chain joined to a frozen stone of c is
    /// first-class for good (its frozen eyes never go), so it is never dropped.
    pub(crate) fn first_class(&self, c: Color, stones: S, empty: S) -> FirstClass<S> {
        let mut eyes = S::EMPTY;
        for p in (empty & !self.frozen[c.opponent().index()]).points() {
            if (self.nbr[p] & !stones).is_empty() {
                eyes = eyes | S::single(p);
            }
        }
        // (chain, its neighbours, anchored); chains dropped so far are left out.
        let mut chains: Vec<(S, S, bool)> = Vec::new();
        let mut rest = stones;
        while let Some(p) = rest.first() {
            let chain = self.flood(stones, p);
            rest = rest & !chain;
            chains.push((
                chain,
                self.around(chain),
                !(chain & self.frozen[c.index()]).is_empty(),
            ));
        }
        loop {
            let before = chains.len();
            let mut lost = S::EMPTY;
            chains.retain(|&(_, around, anchored)| {
                let keep = anchored || (around & eyes).len() >= 2;
                if !keep {
                    lost = lost | around;
                }
                keep
            });
            eyes = eyes & !lost;
            if chains.len() == before {
                break;
            }
        }
        let stones = chains
            .iter()
            .fold(S::EMPTY, |acc, &(chain, _, _)| acc | chain);
        FirstClass { stones, eyes }
    }
}

/// The on-board neighbours of flat index `p`.
pub(crate) fn board_neighbours(geo: Geometry, p: usize) -> impl Iterator<Item = usize> {
    let (w, h) = (usize::from(geo.width), usize::from(geo.height));
    let (x, y) = (p % w, p / w);
    [
        (y > 0).then(|| p - w),
        (x > 0).then(|| p - 1),
        (x + 1 < w).then(|| p + 1),
        (y + 1 < h).then(|| p + w),
    ]
    .into_iter()
    .flatten()
}

/// What is first-class for one colour in one configuration of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FirstClass<S> {
    /// Stones of chains in X* (Decision 3), frozen ones' grid stones included.
    pub stones: S,
    /// The eyes E of X*.
    pub eyes: S,
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
pub(crate) fn components(
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
