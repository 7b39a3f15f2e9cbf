//! `ikeda._core.GameCore`: the native half of `ikeda.Game` (its base class). It holds the
//! board, whose turn it is, the pass bookkeeping (the passes in succession, per colour, the
//! first pass and the preliminary end) and whether the game is over, so that the hot calls
//! of a game (a play, the legal moves) are each one native call with no Python frame. It
//! decides no end of its own: the flow of the game (Rule 6 and its variants, `ikeda.flow`)
//! stays in Python, in `Game._play_locked`, under the game's lock, where a refused or
//! unusual move, a finished game and a pass that may end the game go. A pass after a play
//! (none in succession before it) ends no game under any ending (each needs two passes in
//! succession) and makes no preliminary end, so it is only counted, here.
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
use pyo3::types::{PyDict, PyInt, PyList, PyString, PyTuple};

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
    /// Passes by Black and White before the preliminary end, then after it.
    passes: [u32; 4],
    /// The number (1-based) of the first pass of the game and its colour (1 or 2).
    #[pyo3(get, set, name = "_first_pass")]
    first_pass: Option<u32>,
    #[pyo3(get, set, name = "_first_passer")]
    first_passer: Option<u8>,
    /// The number of the move that made the preliminary end (the second of the first two
    /// passes in succession).
    #[pyo3(get, set, name = "_prelim")]
    prelim: Option<u32>,
}

/// What the fast path makes of a move: a point, a pass, or nothing it takes.
enum Quick {
    Point(usize),
    Pass,
}

/// A move the fast path can take without running Python code: an exact int or an exact
/// str that names a point of the board or the pass (not an error: those go the long way).
fn quick_move(geo: Geometry, mv: &Bound<'_, PyAny>) -> Option<Quick> {
    let parsed = if mv.is_exact_instance_of::<PyInt>() {
        geo.parse_index(mv.extract::<i64>().ok()?)
    } else if mv.is_exact_instance_of::<PyString>() {
        geo.parse_vertex(mv.cast::<PyString>().ok()?.to_str().ok()?)
    } else {
        return None;
    };
    Some(parsed.ok()?.map_or(Quick::Pass, Quick::Point))
}

impl PyGameCore {
    fn board(&self) -> PyResult<&Py<PyBoard>> {
        self.board
            .as_ref()
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the game has no board yet"))
    }

    /// Plays `mv` for the side to move if it is a legal play the fast path takes; returns
    /// whether it did (nothing changed otherwise).
    fn fast_play(slf: &Bound<'_, Self>, mv: &Bound<'_, PyAny>) -> bool {
        let Ok(mut this) = slf.try_borrow_mut() else {
            return false;
        };
        if this.held || this.over {
            return false;
        }
        let Some(board) = &this.board else {
            return false;
        };
        let Ok(mut board) = board.bind(slf.py()).try_borrow_mut() else {
            return false;
        };
        match quick_move(board.geometry(), mv) {
            Some(Quick::Point(i)) => {
                if board.try_play(i, this.color).is_err() {
                    return false;
                }
                drop(board);
                this.streak = 0;
            }
            // A pass after a play: counted, and the game goes on (see the module's note).
            Some(Quick::Pass) if this.streak == 0 => {
                if board.try_pass().is_err() {
                    return false;
                }
                let n = board.moves_played() as u32;
                drop(board);
                let color = this.color as u8;
                this.count(n, true, color);
            }
            _ => return false,
        }
        this.color = this.color.opponent();
        true
    }

    /// The pass bookkeeping of move `n` by `color` (1 or 2); whether it made the
    /// preliminary end.
    fn count(&mut self, n: u32, is_pass: bool, color: u8) -> bool {
        if !is_pass {
            self.streak = 0;
            return false;
        }
        self.streak += 1;
        let k = if self.prelim.is_some() { 2 } else { 0 } + usize::from(color == 2);
        self.passes[k] += 1;
        if self.first_pass.is_none() {
            (self.first_pass, self.first_passer) = (Some(n), Some(color));
        }
        if self.prelim.is_none() && self.streak >= 2 {
            self.prelim = Some(n);
            return true;
        }
        false
    }
}

#[pymethods]
impl PyGameCore {
    /// A game with no board yet: `Game.__init__` gives it one (the arguments are
    /// `Game`'s, read there).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Self {
        PyGameCore {
            board: None,
            color: Color::Black,
            streak: 0,
            over: false,
            held: false,
            passes: [0; 4],
            first_pass: None,
            first_passer: None,
            prelim: None,
        }
    }

    /// The pass bookkeeping of move `n` (1-based) by `color`: the streak, the passes per
    /// colour, the first pass and the preliminary end (for plays and passes the fast path
    /// leaves, and `undo`'s replay of the record). Returns whether this move made the
    /// preliminary end.
    fn _count(&mut self, n: u32, is_pass: bool, color: u8) -> PyResult<bool> {
        color_arg(color).map_err(|_| bad_color(color))?;
        Ok(self.count(n, is_pass, color))
    }

    /// Passes by Black and White before the preliminary end, then after it.
    #[getter(_passes)]
    fn get_passes(&self) -> (u32, u32, u32, u32) {
        let [a, b, c, d] = self.passes;
        (a, b, c, d)
    }

    #[setter(_passes)]
    fn set_passes(&mut self, passes: (u32, u32, u32, u32)) {
        self.passes = [passes.0, passes.1, passes.2, passes.3];
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
        slf.call_method1(intern!(slf.py(), "_play_locked"), (r#move,))
            .map(drop)
    }

    /// The legal plays as flat indices, without the pass (always legal while the game
    /// goes on); empty once the game is over. The fastest way to drive random play.
    fn legal_indices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.over {
            return Ok(PyList::empty(py));
        }
        self.board()?
            .bind(py)
            .try_borrow_mut()?
            .legal_index_list(py, self.color)
    }

    /// The legal moves as GTP vertices, "pass" last; empty once the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.over {
            return Ok(PyList::empty(py));
        }
        let moves = self
            .board()?
            .bind(py)
            .try_borrow_mut()?
            .legal_vertex_list(py, self.color)?;
        moves.append(intern!(py, "pass"))?;
        Ok(moves)
    }

    /// Legal moves as bool ``(w*h + 1,)``, row-major from the top-left point, pass last;
    /// all false once the game is over.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut board = self.board()?.bind(py).try_borrow_mut()?;
        if self.over {
            return Ok(PyArray1::from_vec(
                py,
                vec![false; board.geometry().points() + 1],
            ));
        }
        Ok(board.legal_mask_array(py, self.color))
    }

    /// Gives `other` a copy of this game's board (sharing its history), turn, pass
    /// bookkeeping and end, in one call that a play cannot split.
    fn _copy_native(&self, other: &Bound<'_, Self>) -> PyResult<()> {
        let py = other.py();
        let board = self.board()?.bind(py).try_borrow_mut()?.fork();
        let mut o = other.try_borrow_mut()?;
        o.board = Some(Py::new(py, board)?);
        (o.color, o.streak, o.over, o.held) = (self.color, self.streak, self.over, false);
        (o.passes, o.first_pass, o.first_passer, o.prelim) =
            (self.passes, self.first_pass, self.first_passer, self.prelim);
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
