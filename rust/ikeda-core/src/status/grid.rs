//! The points a status search plays on, and first-class life on them (STATUS.md
//! Decision 3).
//!
//! A [`Grid`] is a set of board points with their neighbours inside the set. Points
//! outside it are *frozen*: stones of chains that are first-class at the start and stay
//! so (Section 7), or the eyes of those chains. A grid point may touch frozen stones; it
//! never touches a frozen eye, because every neighbour of such an eye is a frozen stone.
//! The whole board is a grid with nothing frozen.

use crate::color::Color;
use crate::geometry::Geometry;

/// Cell contents by grid point: `EMPTY`, `BLACK` (1) or `WHITE` (2), as [`Color`] codes.
pub(crate) const EMPTY: u8 = 0;

/// The bit of a colour in [`Grid::frozen`]: 1 for Black, 2 for White.
#[inline]
pub(crate) const fn bit(c: Color) -> u8 {
    c as u8
}

/// A set of board points with their adjacency.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    /// Board flat index of each grid point, ascending.
    pub points: Vec<usize>,
    /// Grid neighbours of each grid point.
    pub nbrs: Vec<Vec<u16>>,
    /// Per grid point: which colours of frozen stones it touches ([`bit`]).
    pub frozen: Vec<u8>,
}

impl Grid {
    /// The grid of `points` (board flat indices, ascending) on a board whose cells are
    /// `cells` (flat, `Color` codes): neighbours outside the set are frozen stones.
    pub(crate) fn new(geo: Geometry, cells: &[u8], points: Vec<usize>) -> Grid {
        let mut index = vec![u16::MAX; geo.points()];
        for (k, &p) in points.iter().enumerate() {
            index[p] = k as u16;
        }
        let mut nbrs = Vec::with_capacity(points.len());
        let mut frozen = Vec::with_capacity(points.len());
        for &p in &points {
            let (mut list, mut outside) = (Vec::with_capacity(4), 0u8);
            for q in board_neighbours(geo, p) {
                match index[q] {
                    u16::MAX => outside |= cells[q],
                    k => list.push(k),
                }
            }
            nbrs.push(list);
            frozen.push(outside);
        }
        Grid { points, nbrs, frozen }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.points.len()
    }
}

/// The on-board neighbours of flat index `p`.
pub(crate) fn board_neighbours(geo: Geometry, p: usize) -> impl Iterator<Item = usize> {
    let (w, h) = (usize::from(geo.width), usize::from(geo.height));
    let (x, y) = (p % w, p / w);
    [(y > 0).then(|| p - w), (x > 0).then(|| p - 1), (x + 1 < w).then(|| p + 1), (y + 1 < h).then(|| p + w)]
        .into_iter()
        .flatten()
}

/// What is first-class for one colour in one configuration of a grid.
#[derive(Clone, Debug, Default)]
pub(crate) struct FirstClass {
    /// Stones of chains in X* (Decision 3), frozen ones' grid stones included.
    pub stones: Vec<bool>,
    /// The eyes E of X*.
    pub eyes: Vec<bool>,
}

/// X*(c) of Decision 3 on `grid` with contents `cells`, computed like Benson's algorithm
/// restricted to one-point eyes: start with every chain of `c` and every eye of `c` (an
/// empty point all of whose on-board neighbours are `c` stones), then repeatedly drop the
/// chains that touch fewer than two remaining eyes and the eyes that touch a dropped
/// chain. A chain joined to a frozen stone is first-class for good (its frozen eyes never
/// go), so it is never dropped.
pub(crate) fn first_class(grid: &Grid, cells: &[u8], c: Color) -> FirstClass {
    let n = grid.len();
    let own = c as u8;
    // Chains of `c` inside the grid, by flood fill; `anchored` = joined to a frozen stone.
    let mut chain = vec![u16::MAX; n];
    let mut anchored: Vec<bool> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n {
        if cells[start] != own || chain[start] != u16::MAX {
            continue;
        }
        let id = anchored.len() as u16;
        let mut frozen = false;
        chain[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            frozen |= grid.frozen[p] & bit(c) != 0;
            for &q in &grid.nbrs[p] {
                let q = usize::from(q);
                if cells[q] == own && chain[q] == u16::MAX {
                    chain[q] = id;
                    stack.push(q);
                }
            }
        }
        anchored.push(frozen);
    }
    // Eyes and the chains they touch.
    let mut eyes: Vec<(usize, [u16; 4], usize)> = Vec::new();
    for p in 0..n {
        if cells[p] != EMPTY || grid.frozen[p] & bit(c.opponent()) != 0 {
            continue;
        }
        if grid.nbrs[p].iter().any(|&q| cells[usize::from(q)] != own) {
            continue;
        }
        let (mut ids, mut k) = ([u16::MAX; 4], 0);
        for &q in &grid.nbrs[p] {
            let id = chain[usize::from(q)];
            if !ids[..k].contains(&id) {
                ids[k] = id;
                k += 1;
            }
        }
        eyes.push((p, ids, k));
    }
    let mut alive = vec![true; anchored.len()];
    let mut eye_alive = vec![true; eyes.len()];
    loop {
        let mut count = vec![0u32; anchored.len()];
        for (e, &(_, ids, k)) in eyes.iter().enumerate() {
            if eye_alive[e] {
                for &id in &ids[..k] {
                    count[usize::from(id)] += 1;
                }
            }
        }
        let mut changed = false;
        for id in 0..anchored.len() {
            if alive[id] && !anchored[id] && count[id] < 2 {
                alive[id] = false;
                changed = true;
            }
        }
        for (e, &(_, ids, k)) in eyes.iter().enumerate() {
            if eye_alive[e] && ids[..k].iter().any(|&id| !alive[usize::from(id)]) {
                eye_alive[e] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = FirstClass { stones: vec![false; n], eyes: vec![false; n] };
    for p in 0..n {
        if cells[p] == own {
            out.stones[p] = alive[usize::from(chain[p])];
        }
    }
    for (e, &(p, _, _)) in eyes.iter().enumerate() {
        out.eyes[p] = eye_alive[e];
    }
    out
}
