//! Counting legal positions: colourings of a board in which every chain has a liberty.
//! A check of the chain and liberty bookkeeping against published counts (Tromp &
//! Farnebäck): 1x1..1x10 = 1, 5, 15, 41, 113, 313, 867, 2401, 6649, 18413; 2x2 = 57,
//! 3x3 = 12,675, 4x4 = 24,318,165.

use crate::board::Board;
use crate::color::{Cell, Color};
use crate::geometry::{Geometry, Loc};

/// The number of colourings of the board with every chain having a liberty.
///
/// Points are coloured in flat order with `add_stone`/`remove_stone`; undecided points
/// are empty, so a chain that has no liberty now never gets one and the branch is cut.
#[must_use]
pub fn count_legal_positions(geo: Geometry) -> u64 {
    let locs: Vec<Loc> = geo.locs().collect();
    crate::with_tier!(geo, N => count_from(&mut Board::<N>::new(geo), &locs))
}

fn count_from<const N: usize>(board: &mut Board<N>, rest: &[Loc]) -> u64 {
    let Some((&p, rest)) = rest.split_first() else {
        return 1;
    };
    let mut total = count_from(board, rest);
    for c in [Color::Black, Color::White] {
        board.add_stone(p, c);
        if still_breathing(board, p) {
            total += count_from(board, rest);
        }
        board.remove_stone(p);
    }
    total
}

/// Whether the chain at `p` and the chains next to it all have a liberty.
fn still_breathing<const N: usize>(board: &Board<N>, p: Loc) -> bool {
    let s = board.geometry().stride;
    [p, p - s, p - 1, p + 1, p + s]
        .into_iter()
        .all(|q| !matches!(board.cell(q), Cell::Black | Cell::White) || board.has_liberty(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_counts() {
        let row = [1, 5, 15, 41, 113, 313, 867, 2401, 6649, 18413];
        for (n, &want) in row.iter().enumerate() {
            assert_eq!(
                count_legal_positions(Geometry::new(n + 1, 1).unwrap()),
                want
            );
            assert_eq!(
                count_legal_positions(Geometry::new(1, n + 1).unwrap()),
                want
            );
        }
        assert_eq!(count_legal_positions(Geometry::new(2, 2).unwrap()), 57);
        assert_eq!(count_legal_positions(Geometry::new(3, 3).unwrap()), 12_675);
    }
}
