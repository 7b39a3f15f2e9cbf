//! The exhaustive hypothetical play of STATUS.md Sections 3-4 on one region, and the board
//! helpers every part of status/ uses (docs/status.md, steps 1, 3 and 4).
//!
//! Reading guide:
//! - `grid`: the points a search plays on as bit sets, first-class life on them
//!   (Decision 3), and the whole board's chains and components;
//! - `play`: the hypothetical play (Decisions 5, 7, 8, 8b) on the search board and the
//!   graph of every state it reaches (`Explorer`, `StateGraph`), its states numbered by
//!   `pocket/table.rs`;
//! - `goals`: the goals of Section 4 (Decision 9) as fixpoints on that graph;
//! - `region`: one region searched under the budget and memory bound, on the narrowest
//!   search board that holds it, and why a refused one was refused.

pub(crate) mod goals;
pub(crate) mod grid;
pub(crate) mod play;
pub(crate) mod region;
