//! Static proofs of life around pockets, without search (docs/status.md 2b-2d): the chains
//! they prove are walls for the region split, and the stones inside their pockets dead.
//!
//! Reading guide:
//! - `vital`: vital walls (2b), Benson's test with pockets every point of which is next to
//!   the chain: F2, and frozen like first-class chains;
//! - `credit`: credited groups (2c), walls joined into units through pockets that give eye
//!   credit (eye points, and pockets the pocket game of `pocket/` settles): F2 walls and N
//!   stones inside, checked again by the search where it reaches;
//! - `connections`: double connections (2d), two shared empty points that join chains into
//!   one unit of the credited groups;
//! - `no_life`: pockets where the attacker cannot live (2e), walled by frozen stones with at
//!   most one point off them: the stones inside are dead (N), whatever the pocket's size.

pub(crate) mod connections;
pub(crate) mod credit;
pub(crate) mod no_life;
pub(crate) mod vital;
