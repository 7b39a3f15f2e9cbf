//! The options of a status confirmation: the rules of the hypothetical play (ko, first
//! mover, Art. 8's option), its limits, and what to do beyond them.

use crate::status::limits::{DEFAULT_BUDGET, DEFAULT_MEMORY, DEFAULT_PROOF_WORK};

/// The ko rule of the hypothetical play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatusKo {
    /// Decision 8: the basic ko rule (a pass or any other move lifts the ban).
    Simple,
    /// Decision 8b: Jasiek's ko-ban with ko-pass.
    Koban,
}

/// Who moves first from the start state (Decision 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstMover {
    Attacker,
    /// For comparison only (the Nihon Kiin's convention).
    Defender,
}

/// The options of a status confirmation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusOptions {
    pub ko: StatusKo,
    pub first: FirstMover,
    /// Section 6's strict Art. 8 option: alive chains touching a dame count as in seki.
    pub strict_dame_seki: bool,
    /// Decision 7's pruning (off only to test it).
    pub prune: bool,
    /// Section 7's freezing and region split (needs `prune`; off only to test it).
    pub split: bool,
    /// The most states the whole confirmation may visit, all regions together.
    pub budget: usize,
    /// The most bytes the search may hold at once (its graph and solver, by the sizes in
    /// [`STATE_BYTES`](crate::status::limits::STATE_BYTES) and
    /// [`EDGE_BYTES`](crate::status::limits::EDGE_BYTES)); regions are searched one after
    /// another, so
    /// this bounds the whole confirmation.
    pub memory: usize,
    /// What to do with a region beyond the limits.
    pub unresolved: Unresolved,
    /// The most work of one proof of a pocket of 13 to 20 points (docs/status.md 2c), 1 to
    /// [`MAX_PROOF_WORK`](crate::status::limits::MAX_PROOF_WORK); a colour's pockets share
    /// two and a half times as much. More proves more pockets, for more time.
    pub proof_work: usize,
}

/// What a confirmation does with a region the search cannot settle within the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// Refuse the whole confirmation with [`StatusError::Budget`], at the first such
    /// region: never a guess.
    Refuse,
    /// Decide the chains of such regions by Monte-Carlo ownership over `playouts` native
    /// random playouts seeded with `seed`, and mark them as estimated.
    Estimate { playouts: u32, seed: u64 },
}

impl Default for StatusOptions {
    fn default() -> Self {
        StatusOptions {
            ko: StatusKo::Simple,
            first: FirstMover::Attacker,
            strict_dame_seki: false,
            prune: true,
            split: true,
            budget: DEFAULT_BUDGET,
            memory: DEFAULT_MEMORY,
            unresolved: Unresolved::Refuse,
            proof_work: DEFAULT_PROOF_WORK,
        }
    }
}
