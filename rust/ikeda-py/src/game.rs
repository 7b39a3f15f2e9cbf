//! `ikeda._core.GameCore`: the native half of `ikeda.Game` (its base class). It holds the
//! board, whose turn it is, the passes in succession and whether the game is over, so that
//! the hot calls of a game (a play, the legal moves) are each one native call with no
//! Python frame. It knows no rule of its own: a pass, a refused or unusual move and a
//! finished game all go to `Game._play_locked`, where the flow of the game (Rule 6 and its
//! variants) stays in Python, under the game's lock.
//!
//! Thread safety without a lock on the fast path: a play here runs no Python code and
//! releases neither the GIL nor its borrows, so it is atomic with respect to every other
//! call on the game. While `Game._play_locked` (or `undo`, `resign`, `copy`) works under
//! the game's lock it sets `held`, and plays from other threads then take the locked path
//! too, waiting their turn instead of interleaving with its several native calls.

use ikeda_core::{Color, Geometry};
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple, PyDict};

use crate::board::{color_arg, PyBoard};
use crate::errors::bad_color;

#[pyclass(name = "GameCore", module = "ikeda._core", subclass)]
pub struct PyGameCore {
    board: Option<Py<PyBoard>>,
    /// The side to move, 1 (Black) or 2 (White).
    color: Color,
    /// Passes in succession ending with the last move.
    #[pyo3(get, set, name = "_streak")]
    streak: u32,
    /// Whether the game is over (by passes or resignation); only `Game` decides it.
    #[pyo3(get, set, name = "_over")]
    over: bool,
    /// Whether a call holds the game's lock: plays then take the locked path.
    #[pyo3(get, set, name = "_held")]
    held: bool,
}

/// A move the fast path can take without running Python code: an exact int or an exact
/// str that names a point of the board (not a pass, not an error: those go the long way).
fn quick_point(geo: Geometry, mv: &Bound<'_, PyAny>) -> Option<usize> {
    let parsed = if mv.is_exact_instance_of::<PyInt>() {
        geo.parse_index(mv.extract::<i64>().ok()?)
    } else if mv.is_exact_instance_of::<PyString>() {
        geo.parse_vertex(mv.cast::<PyString>().ok()?.to_str().ok()?)
    } else {
        return None;
    };
    parsed.ok().flatten()
}

impl PyGameCore {
    fn board(&self) -> PyResult<&Py<PyBoard>> {
        self.board.as_ref().ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the game has no board yet"))
    }

    /// Plays `mv` for the side to move if it is a legal play the fast path takes; returns
    /// whether it did (nothing changed otherwise).
    fn fast_play(slf: &Bound<'_, Self>, mv: &Bound<'_, PyAny>) -> bool {
        let Ok(mut this) = slf.try_borrow_mut() else { return false };
        if this.held || this.over {
            return false;
        }
        let Some(board) = &this.board else { return false };
        let Ok(mut board) = board.bind(slf.py()).try_borrow_mut() else { return false };
        let Some(i) = quick_point(board.geometry(), mv) else { return false };
        if board.try_play(i, this.color).is_err() {
            return false;
        }
        drop(board);
        this.streak = 0;
        this.color = this.color.opponent();
        true
    }
}

#[pymethods]
impl PyGameCore {
    /// A game with no board yet: `Game.__init__` gives it one (the arguments are
    /// `Game`'s, read there).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Self {
        PyGameCore { board: None, color: Color::Black, streak: 0, over: false, held: false }
    }

    /// Plays `move` for the side to move.
    ///
    /// Raises :class:`InvalidMoveError` for a move that cannot be read and
    /// :class:`IllegalMoveError` (``.reason`` = "game_over", "occupied", "suicide",
    /// "superko", or "ko" under simple ko) for one the rules forbid; both name the move
    /// number. The game is unchanged after either.
    fn play(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        if Self::fast_play(slf, r#move) {
            return Ok(());
        }
        slf.call_method1(intern!(slf.py(), "_play_locked"), (r#move,)).map(drop)
    }

    /// The legal plays as flat indices, without the pass (always legal while the game
    /// goes on); empty once the game is over. The fastest way to drive random play.
    fn legal_indices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.over {
            return Ok(PyList::empty(py));
        }
        self.board()?.bind(py).try_borrow_mut()?.legal_index_list(py, self.color)
    }

    /// The legal moves as GTP vertices, "pass" last; empty once the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.over {
            return Ok(PyList::empty(py));
        }
        let moves = self.board()?.bind(py).try_borrow_mut()?.legal_vertex_list(py, self.color)?;
        moves.append(intern!(py, "pass"))?;
        Ok(moves)
    }

    /// Legal moves as bool ``(w*h + 1,)``, row-major from the top-left point, pass last;
    /// all false once the game is over.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut board = self.board()?.bind(py).try_borrow_mut()?;
        if self.over {
            return Ok(PyArray1::from_vec(py, vec![false; board.geometry().points() + 1]));
        }
        Ok(board.legal_mask_array(py, self.color))
    }

    /// Gives `other` a copy of this game's board (sharing its history), turn, pass streak
    /// and end, in one call that a play cannot split.
    fn _copy_native(&self, other: &Bound<'_, Self>) -> PyResult<()> {
        let py = other.py();
        let board = self.board()?.bind(py).try_borrow_mut()?.fork();
        let mut o = other.try_borrow_mut()?;
        o.board = Some(Py::new(py, board)?);
        (o.color, o.streak, o.over, o.held) = (self.color, self.streak, self.over, false);
        Ok(())
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.over
    }

    #[getter(_board)]
    fn get_board(&self, py: Python<'_>) -> PyResult<Py<PyBoard>> {
        Ok(self.board()?.clone_ref(py))
    }

    #[setter(_board)]
    fn set_board(&mut self, board: Py<PyBoard>) {
        self.board = Some(board);
    }

    #[getter(_color)]
    fn get_color(&self) -> u8 {
        self.color as u8
    }

    #[setter(_color)]
    fn set_color(&mut self, color: u8) -> PyResult<()> {
        self.color = color_arg(color).map_err(|_| bad_color(color))?;
        Ok(())
    }
}
