//! Allocations whose size depends on the input (a cap, a playout budget, the length of a
//! text) are made fallibly: a loop reserves room before it needs it and stops with
//! [`NoMemory`] when the room cannot be had, instead of the allocator aborting the
//! process (docs/security.md).

use std::collections::TryReserveError;

/// An allocation sized by input that could not be made (memory or address space short),
/// or a size past what the structure can index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoMemory;

impl std::fmt::Display for NoMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not enough memory")
    }
}

impl std::error::Error for NoMemory {}

impl From<TryReserveError> for NoMemory {
    fn from(_: TryReserveError) -> NoMemory {
        NoMemory
    }
}

/// Makes room for one more element of `v` (amortised doubling, as `push` would grow it),
/// fallibly; then `push` allocates nothing.
#[inline]
pub fn room_for_one<T>(v: &mut Vec<T>) -> Result<(), NoMemory> {
    if v.len() == v.capacity() {
        v.try_reserve(1)?;
    }
    Ok(())
}

/// How many plays a loop whose length is set by input reserves at a time: small enough
/// that a long cap costs nothing up front, large enough that the check is rare.
pub const RESERVE_PLAYS: usize = 256;
