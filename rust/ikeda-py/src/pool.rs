//! The rayon pools the native loops run on. A thread count is checked against
//! [`MAX_THREADS`] before any thread starts, and a pool of one size is built once and
//! reused: a run that calls in chunk after chunk (simulate, replay) pays for its threads
//! once, not once per chunk.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use crate::errors::bad_argument;

/// The most threads one native call may use (docs/security.md).
pub const MAX_THREADS: usize = 1024;

/// The last pool built, by its requested thread count (0 = every core).
static LAST: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// A pool of `threads` threads (0 = every core), the cached one when the count matches.
pub fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    if threads > MAX_THREADS {
        return Err(bad_argument(format!("threads must be 0 (every core) to {MAX_THREADS}, not {threads}")));
    }
    let mut last = LAST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((n, p)) = last.as_ref() {
        if *n == threads {
            return Ok(Arc::clone(p));
        }
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| bad_argument(format!("cannot start {threads} threads: {e}")))?,
    );
    *last = Some((threads, Arc::clone(&p)));
    Ok(p)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_THREADS", MAX_THREADS)?;
    Ok(())
}
