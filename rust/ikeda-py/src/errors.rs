//! The one place where core errors become Python exceptions. The classes are defined in
//! `ikeda/errors.py` and imported here, so Python and Rust raise the same types.

use ikeda_core::{CoordError, Illegal, SetupError};
use pyo3::prelude::*;

pyo3::import_exception!(ikeda.errors, IkedaError);
pyo3::import_exception!(ikeda.errors, InvalidMoveError);
pyo3::import_exception!(ikeda.errors, IllegalMoveError);
pyo3::import_exception!(ikeda.errors, InvalidPositionError);
pyo3::import_exception!(ikeda.errors, SgfError);
pyo3::import_exception!(ikeda.errors, StatusBudgetError);

/// A move that could not be read.
pub fn invalid_move(err: &CoordError, mv: &Bound<'_, PyAny>) -> PyErr {
    let shown = mv.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
    InvalidMoveError::new_err((format!("invalid move {shown}: {err}"), mv.clone().unbind()))
}

/// A move the rules forbid.
pub fn illegal_move(reason: Illegal, vertex: &str) -> PyErr {
    IllegalMoveError::new_err((format!("illegal move {vertex}: {}", reason.as_str()), reason.as_str(), vertex.to_string()))
}

/// A board size or setup that cannot exist.
pub fn invalid_position(err: &SetupError, name: impl Fn(usize) -> String) -> PyErr {
    let msg = match err {
        SetupError::Coord(e) => e.to_string(),
        SetupError::Repeated(i) => format!("setup gives the point {} twice", name(*i)),
        SetupError::NoLiberty(i) => format!("setup chain at {} has no liberty", name(*i)),
    };
    InvalidPositionError::new_err(msg)
}

/// The geometry of a `width` x `height` board, or InvalidPositionError.
pub fn geometry(width: i64, height: i64) -> PyResult<ikeda_core::Geometry> {
    let side = |n: i64| usize::try_from(n).unwrap_or(0);
    ikeda_core::Geometry::new(side(width), side(height))
        .map_err(|_| InvalidPositionError::new_err(format!("board size {width}x{height} is not within 1..=25 each way")))
}

/// Malformed SGF, with its line and column.
pub fn sgf_error(err: &ikeda_core::sgf::SgfError) -> PyErr {
    SgfError::new_err((err.to_string(), err.line, err.column))
}
