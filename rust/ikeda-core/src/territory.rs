//! Area counting: stones, territory (Definition 5) and ownership per point.
//!
//! A territory is a maximal connected set of empty points whose every path reaches only
//! stones of one colour. A region that reaches no stone at all (the empty board) belongs
//! to nobody (Decision, RULES.md Rule 7).

use crate::board::{Board, Marks};
use crate::color::{Cell, Color};
use crate::geometry::Loc;

/// Stones and territory per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    pub stones: [u32; 2],
    pub territory: [u32; 2],
}

impl Area {
    /// Stones + territory of `c` (Rule 7).
    #[must_use]
    pub fn total(&self, c: Color) -> u32 {
        self.stones[c.index()] + self.territory[c.index()]
    }
}

/// The cells with the chains through `dead` removed (agreed dead stones; empty locs in
/// `dead` are ignored here, callers validate).
fn without_dead<const N: usize>(board: &Board<N>, dead: &[Loc]) -> [Cell; N] {
    let mut cells = *board.cells();
    for &d in dead {
        if board.cell(d).color().is_some() {
            for s in board.chain(d) {
                cells[s as usize] = Cell::Empty;
            }
        }
    }
    cells
}

/// Calls `f(region, borders)` for every maximal empty region, where `borders` has bit 1
/// if the region touches a Black stone and bit 2 if it touches a White one. `seeds` are
/// locs that include every empty point of `cells` (all of the board's locs, or only its
/// empty points when `cells` are the board's own).
fn regions<const N: usize>(
    board: &Board<N>,
    cells: &[Cell; N],
    seeds: impl IntoIterator<Item = Loc>,
    mut f: impl FnMut(&[Loc], u8),
) {
    let s = board.geometry().stride;
    let mut seen = Marks::new();
    let mut region = [0 as Loc; N];
    for loc in seeds {
        if cells[loc as usize] != Cell::Empty || !seen.insert(loc) {
            continue;
        }
        region[0] = loc;
        let (mut len, mut k, mut borders) = (1, 0, 0u8);
        while k < len {
            let p = region[k];
            k += 1;
            for q in [p - s, p - 1, p + 1, p + s] {
                match cells[q as usize] {
                    Cell::Empty => {
                        if seen.insert(q) {
                            region[len] = q;
                            len += 1;
                        }
                    }
                    Cell::Black => borders |= 1,
                    Cell::White => borders |= 2,
                    Cell::Wall => {}
                }
            }
        }
        f(&region[..len], borders);
    }
}

/// Counts the board as it stands after removing the chains through `dead`.
#[must_use]
pub fn area<const N: usize>(board: &Board<N>, dead: &[Loc]) -> Area {
    let cells = if dead.is_empty() {
        *board.cells()
    } else {
        without_dead(board, dead)
    };
    let mut stones = [
        board.stone_count(Color::Black) as u32,
        board.stone_count(Color::White) as u32,
    ];
    if !dead.is_empty() {
        stones = [0, 0];
        for loc in board.geometry().locs() {
            if let Some(c) = cells[loc as usize].color() {
                stones[c.index()] += 1;
            }
        }
    }
    let mut territory = [0u32; 2];
    let count = |region: &[Loc], borders: u8| {
        if borders == 1 || borders == 2 {
            territory[borders as usize - 1] += region.len() as u32;
        }
    };
    if dead.is_empty() {
        regions(board, &cells, board.empty_points().iter().copied(), count);
    } else {
        regions(board, &cells, board.geometry().locs(), count);
    }
    Area { stones, territory }
}

/// Who owns each point after removing the chains through `dead`, by flat index: 0
/// nobody, 1 Black, 2 White (stones and territory).
#[must_use]
pub fn ownership<const N: usize>(board: &Board<N>, dead: &[Loc]) -> Vec<u8> {
    let mut by_loc = without_dead(board, dead).map(|c| if c == Cell::Wall { 0 } else { c as u8 });
    let cells = without_dead(board, dead);
    regions(board, &cells, board.geometry().locs(), |region, borders| {
        if borders == 1 || borders == 2 {
            for &p in region {
                by_loc[p as usize] = borders;
            }
        }
    });
    board
        .geometry()
        .locs()
        .map(|l| by_loc[l as usize])
        .collect()
}
