//! PyO3 glue for `ikeda._core`: wraps `ikeda-core` and holds no rules of its own.
//! Every error is converted in `errors.rs`; no panic crosses into Python because every
//! input is validated before it reaches the core.

mod batch;
mod board;
mod errors;
mod game;
mod native;
mod pool;
mod rules;
mod sgf;
mod status;
mod wait;

use pyo3::prelude::*;

/// A rayon pool of `threads` threads (0: one per core), at most `pool::MAX_THREADS`, built
/// once per size and reused (see `pool.rs`), or the reason it cannot start.
pub(crate) fn thread_pool(threads: usize) -> PyResult<std::sync::Arc<rayon::ThreadPool>> {
    pool::pool(threads)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "build_profile",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<game::PyGameCore>()?;
    m.add_class::<batch::PyBatch>()?;
    m.add("MAX_GAMES", batch::MAX_GAMES)?;
    native::register(m)?;
    pool::register(m)?;
    sgf::register(m)?;
    status::register(m)?;
    Ok(())
}
