//! The count: a whole position confirmed and counted (docs/status.md, steps 1-5).
//!
//! Reading guide:
//! - `confirm`: the public entry `confirm_status`: freezing first-class chains and vital
//!   walls, the credited groups, the region split and the region searches one after
//!   another, the estimate where asked, and every chain's case and proof;
//! - `allocate`: the final allocation (Section 5, Decision 11) and the Japanese-style
//!   count (Section 6, Decision 12).

pub(crate) mod allocate;
pub(crate) mod confirm;
