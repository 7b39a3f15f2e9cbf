//! Static proofs of life around pockets, without search (docs/status.md 2b-2g): the chains
//! they prove are walls for the region split, and the stones inside their pockets dead.
//!
//! Reading guide:
//! - `vital`: vital walls (2b), Benson's test with pockets every point of which is next to
//!   the chain: F2, and frozen like first-class chains;
//! - `credit`: credited groups (2c), walls joined into units through pockets that give eye
//!   credit (eye points, pockets the pocket game of `pocket/` settles, and territories A
//!   cannot live in whose walls are anchored elsewhere, 2f): F2 walls and N stones inside,
//!   checked again by the search where it reaches;
//! - `connections`: double connections and tiger's mouths (2d), two shared empty points, or a
//!   cutting point whose stone is captured at once, that join chains into one unit of the
//!   credited groups;
//! - `no_life`: pockets where the attacker cannot live (2e), walled by frozen stones, every
//!   point off them but one covered by a miai pair: the stones inside are dead (N),
//!   whatever the pocket's size;
//! - `miai`: the miai cover of a pocket's interior that `no_life` and the territories of
//!   `credit` ask for;
//! - `partial`: the parts of a pocket too large for its own game (2g), which `credit`
//!   plays alone, the rest of the pocket taken as A stones never captured.
//!
//! This file holds what they share: the walls of a pocket.

use crate::geometry::Geometry;
use crate::status::search::grid::board_neighbours;

pub(crate) mod connections;
pub(crate) mod credit;
pub(crate) mod miai;
pub(crate) mod no_life;
pub(crate) mod partial;
pub(crate) mod vital;

/// The walls of `pocket`: the chains of colour `c` next to one of its points, ascending.
pub(crate) fn pocket_walls(
    geo: Geometry,
    cells: &[u8],
    chain_of: &[usize],
    c: u8,
    pocket: &[usize],
) -> Vec<usize> {
    let mut walls: Vec<usize> = pocket
        .iter()
        .flat_map(|&p| board_neighbours(geo, p))
        .filter(|&q| cells[q] == c)
        .map(|q| chain_of[q])
        .collect();
    walls.sort_unstable();
    walls.dedup();
    walls
}
