//! Borrowing a game or a board that another thread may hold.
//!
//! A native call on a game or a board releases neither the GIL nor its borrows, so each
//! is atomic with respect to every other call. One gap remains: Python code can run
//! inside a call that holds a borrow (an argument's `__index__`, or a finalizer started by
//! an allocation there: a list of legal moves, a copy's board) and let other threads in.
//! Every method of `GameCore` and `Board` therefore borrows through [`Wait`], which waits
//! for the holder with the GIL released instead of failing with "Already borrowed". After
//! a second it fails as a plain borrow does: Python code that re-enters the same object
//! on the thread that holds it would never let go.

use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::False;
use pyo3::PyClass;

/// How long a borrow waits for another thread's call before it fails.
const PATIENCE: Duration = Duration::from_secs(1);

/// Borrows that wait for another thread's call to finish (see the module's comment).
pub(crate) trait Wait<'py, T: PyClass<Frozen = False>> {
    /// A shared borrow.
    fn read(&self) -> PyResult<PyRef<'py, T>>;
    /// An exclusive borrow.
    fn write(&self) -> PyResult<PyRefMut<'py, T>>;
}

impl<'py, T: PyClass<Frozen = False>> Wait<'py, T> for Bound<'py, T> {
    fn read(&self) -> PyResult<PyRef<'py, T>> {
        waiting(self, |cell| cell.try_borrow().map_err(PyErr::from))
    }

    fn write(&self) -> PyResult<PyRefMut<'py, T>> {
        waiting(self, |cell| cell.try_borrow_mut().map_err(PyErr::from))
    }
}

/// `borrow(cell)`, retried with the GIL released (letting the holder finish) until it
/// succeeds or [`PATIENCE`] runs out.
fn waiting<'py, T: PyClass, R>(
    cell: &Bound<'py, T>,
    borrow: impl Fn(&Bound<'py, T>) -> PyResult<R>,
) -> PyResult<R> {
    let mut deadline = None;
    loop {
        match borrow(cell) {
            Ok(held) => return Ok(held),
            Err(e) => {
                let until = *deadline.get_or_insert_with(|| Instant::now() + PATIENCE);
                if Instant::now() >= until {
                    return Err(e);
                }
                cell.py().detach(std::thread::yield_now);
            }
        }
    }
}
