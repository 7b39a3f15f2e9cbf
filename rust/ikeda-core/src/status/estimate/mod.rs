//! The opt-in estimate of chains that no proof reached (docs/status.md, "Proof kinds,
//! unresolved regions and the estimate"), and the conditional search behind the walls it
//! calls alive. Nothing here is a proof: its chains are marked estimated or conditional.
//!
//! Reading guide:
//! - `ownership`: Monte-Carlo ownership by native random playouts (the playout policy of
//!   `crate::playout_policy`, with its estimate's options);
//! - `conditional`: the conditional search, the exact search of the parts of unresolved
//!   regions walled off by estimated walls;
//! - `seki`: seki recognition in the parts the conditional search cannot finish (the
//!   settling rule).

pub(crate) mod conditional;
pub(crate) mod ownership;
pub(crate) mod seki;
