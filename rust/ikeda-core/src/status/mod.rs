//! Status confirmation after Sekiguchi (STATUS.md): which chains are alive, dead or seki
//! stones, decided by hypothetical play, and the Japanese-style count that follows
//! (docs/status.md).
//!
//! Reading guide, by concept; each folder has its own guide in its `mod.rs`, and a folder
//! uses only the folders listed before it (`rust/ikeda-core/tests/status_modules.rs`
//! fails on an import circle):
//! - `limits.rs`: every tuning limit, with what it bounds and why it has its value;
//! - `options.rs`: the options of a confirmation; `report.rs`: what it reports (cases,
//!   statuses, proofs, regions, the count) and its errors;
//! - `pocket/`: the pocket game and its provers (a leaf: it uses only `limits.rs`):
//!   `game.rs` the rules, `exhaustive.rs`, `depth_first.rs`, `dfpn.rs` and `split.rs` the
//!   provers, `settle.rs` the entry that picks one, `table.rs` the compact transposition
//!   table of df-pn and of the region search;
//! - `search/`: the exhaustive hypothetical play of one region: `grid.rs` (points, bit
//!   sets, first-class life, the board's chains), `play.rs` (the play and its state graph),
//!   `goals.rs` (Section 4's goals), `region.rs` (one region under the limits);
//! - `walls/`: static proofs of life without search: `vital.rs` (vital walls, F2 by
//!   Benson's test), `credit.rs` (credited groups, on the pocket game), `connections.rs`
//!   (double connections and tiger's mouths inside credited groups), `no_life.rs`
//!   (pockets where the attacker cannot live: their stones dead) on the miai cover of
//!   `miai.rs`, `partial.rs` (the parts of large pockets that credited groups settle
//!   alone);
//! - `estimate/`: the opt-in estimate and what follows it, not proofs: `ownership.rs`
//!   (Monte-Carlo ownership), `conditional.rs` (the conditional search), `seki.rs` (seki
//!   recognition by the settling rule);
//! - `count/`: `confirm.rs` (the public entry `confirm_status`: freezing, the region split,
//!   the searches, each chain's case) and `allocate.rs` (the final allocation and the
//!   count);
//! - `testing.rs`: the tests' diagram helpers.
//!
//! This file only declares the folders and re-exports the public interface.

mod count;
mod estimate;
mod limits;
mod options;
mod pocket;
mod report;
mod search;
#[cfg(test)]
mod testing;
mod walls;

pub use count::confirm::confirm_status;
pub use limits::{
    DEFAULT_BUDGET, DEFAULT_MEMORY, DEFAULT_PROOF_WORK, EDGE_BYTES, MAX_PROOF_WORK, STATE_BYTES,
};
pub use options::{FirstMover, StatusKo, StatusOptions, Unresolved};
pub use report::{
    Case, ChainStatus, Count, Proof, RegionReport, Status, StatusError, StatusReport,
};
