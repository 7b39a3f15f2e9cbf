//! The rayon pools the native loops run on. A thread count is checked against
//! [`MAX_THREADS`] before any thread starts, and a pool of one size is built once and
//! reused: a run that calls in chunk after chunk (simulate, replay) pays for its threads
//! once, not once per chunk.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use crate::errors::bad_argument;

/// The most threads one native call may use (docs/security.md).
pub const MAX_THREADS: usize = 1024;

/// Pools by requested thread count (0 = every core), the most recently used last; a few
/// sizes are kept, so runs that alternate between sizes do not rebuild them.
static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
const KEPT: usize = 4;

/// A pool of `threads` threads (0 = every core), a cached one when there is one.
pub fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    if threads > MAX_THREADS {
        return Err(bad_argument(format!(
            "threads must be 0 (every core) to {MAX_THREADS}, not {threads}"
        )));
    }
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(k) = pools.iter().position(|(n, _)| *n == threads) {
        let hit = pools.remove(k);
        let p = Arc::clone(&hit.1);
        pools.push(hit);
        return Ok(p);
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| bad_argument(format!("cannot start {threads} threads: {e}")))?,
    );
    if pools.len() == KEPT {
        pools.remove(0);
    }
    pools.push((threads, Arc::clone(&p)));
    Ok(p)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_THREADS", MAX_THREADS)?;
    Ok(())
}
