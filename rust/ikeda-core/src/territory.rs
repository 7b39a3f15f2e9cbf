//! Area counting: stones, territory (Definition 5) and ownership per point.
//!
//! A territory is a maximal connected set of empty points whose every path reaches only
//! stones of one colour. A region that reaches no stone at all (the empty board) belongs
//! to nobody (Decision, RULES.md Rule 7).

use crate::board::{Board, Marks};
use crate::color::{Cell, Color};
use crate::geometry::Loc;

/// Stones and territory per colour, and who owns each point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    pub stones: [u32; 2],
    pub territory: [u32; 2],
    /// Per flat index: 0 nobody, 1 Black, 2 White (stones and territory).
    pub owner: Vec<u8>,
}

impl Area {
    /// Stones + territory of `c` (Rule 7).
    #[must_use]
    pub fn total(&self, c: Color) -> u32 {
        self.stones[c.index()] + self.territory[c.index()]
    }
}

/// Counts the board as it stands, after removing the chains through `dead` (agreed dead
/// stones; empty locs in `dead` are ignored by this function, callers validate).
#[must_use]
pub fn area<const N: usize>(board: &Board<N>, dead: &[Loc]) -> Area {
    let geo = board.geometry();
    let mut cells: [Cell; N] = *board.cells();
    for &d in dead {
        if board.cell(d).color().is_some() {
            for s in board.chain(d) {
                cells[s as usize] = Cell::Empty;
            }
        }
    }
    let dirs = geo.dirs();
    let mut owner = vec![0u8; geo.points()];
    let mut stones = [0u32; 2];
    let mut territory = [0u32; 2];
    let mut seen = Marks::new();
    let mut region: Vec<Loc> = Vec::with_capacity(geo.points());
    for (i, loc) in geo.locs().enumerate() {
        match cells[loc as usize] {
            Cell::Black | Cell::White => {
                let c = cells[loc as usize] as u8;
                stones[c as usize - 1] += 1;
                owner[i] = c;
            }
            _ if !seen.insert(loc) => {}
            _ => {
                // Flood the empty region, noting which colours border it.
                region.clear();
                region.push(loc);
                let mut borders = 0u8;
                let mut k = 0;
                while k < region.len() {
                    let p = region[k];
                    k += 1;
                    for d in dirs {
                        let q = (p as isize + d) as Loc;
                        match cells[q as usize] {
                            Cell::Empty => {
                                if seen.insert(q) {
                                    region.push(q);
                                }
                            }
                            Cell::Black => borders |= 1,
                            Cell::White => borders |= 2,
                            Cell::Wall => {}
                        }
                    }
                }
                if borders == 1 || borders == 2 {
                    territory[borders as usize - 1] += region.len() as u32;
                    for &p in &region {
                        owner[geo.index_of_loc(p)] = borders;
                    }
                }
            }
        }
    }
    Area { stones, territory, owner }
}
