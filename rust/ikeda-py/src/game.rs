//! `ikeda._core.GameCore`: the native half of `ikeda.Game` (its base class). It holds the
//! board, whose turn it is, the core's pass bookkeeping ([`PassLog`]: the game's
//! `PassState`, which decides the end by Rule 6 or the ruleset's variant, and the counts a
//! score reads), the stones at the preliminary end and a resignation, and makes every
//! move: a play, a pass, a take-back and a resignation are each one native call with no
//! Python frame. The rules are the core's (legality in `Position`, the end in
//! `PassState`); this file only reads the arguments and keeps the state together.
//!
//! Thread safety without a lock: a call here releases neither the GIL nor its borrows, so
//! each is atomic with respect to every other call on the game. One gap remains: an
//! allocation inside a call (a list of legal moves, a copy's board) may start Python's
//! garbage collector, whose finalizers run Python code and so let other threads in while
//! the borrows are held. A call that finds the game or its board borrowed therefore waits
//! for the holder (see [`borrow_mut_waiting`]) instead of failing with "Already borrowed".

use std::time::{Duration, Instant};

use ikeda_core::{Color, PassLog, Refusal};
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::False;
use pyo3::types::{PyDict, PyList, PyTuple};
use pyo3::PyClass;

use crate::board::{color_arg, parse_move, PyBoard};
use crate::errors::{illegal_move, no_move_to_undo};
use crate::rules::{ending_name, ending_named};

#[pyclass(name = "GameCore", module = "ikeda._core", subclass)]
pub struct PyGameCore {
    board: Option<Py<PyBoard>>,
    /// The side to move.
    color: Color,
    /// The pass bookkeeping under the game's ending.
    log: PassLog,
    /// The stones on the board at the preliminary end, (Black, White).
    prelim_stones: Option<(u32, u32)>,
    /// Who resigned, if anyone has.
    resigned: Option<Color>,
}

/// Borrows `cell` mutably, waiting with the GIL released while another thread holds it
/// (paused in a finalizer inside its call: see the module's comment). After a second it
/// fails as a plain borrow does: a finalizer that re-enters the same game on the thread
/// that holds it would never let go.
fn borrow_mut_waiting<'py, T: PyClass<Frozen = False>>(
    cell: &Bound<'py, T>,
) -> PyResult<PyRefMut<'py, T>> {
    let mut deadline = None;
    loop {
        match cell.try_borrow_mut() {
            Ok(held) => return Ok(held),
            Err(e) => {
                let until =
                    *deadline.get_or_insert_with(|| Instant::now() + Duration::from_secs(1));
                if Instant::now() >= until {
                    return Err(e.into());
                }
                cell.py().detach(std::thread::yield_now);
            }
        }
    }
}

impl PyGameCore {
    fn board(&self) -> PyResult<&Py<PyBoard>> {
        self.board
            .as_ref()
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the game has no board yet"))
    }

    /// Whether the game is over, by passes or resignation.
    fn over(&self) -> bool {
        self.log.state.over || self.resigned.is_some()
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
            log: PassLog::new(ikeda_core::Ending::FirstPass),
            prelim_stones: None,
            resigned: None,
        }
    }

    /// Plays `move` for the side to move.
    ///
    /// Raises :class:`InvalidMoveError` for a move that cannot be read and
    /// :class:`IllegalMoveError` (``.reason`` = "game_over", "occupied", "suicide",
    /// "superko", or "ko" under simple ko) for one the rules forbid; both name the move
    /// number. The game is unchanged after either.
    fn play(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let (py, mut this) = (slf.py(), borrow_mut_waiting(slf)?);
        let c = this.color;
        let over = this.over();
        let mut board = borrow_mut_waiting(this.board()?.bind(py))?;
        if over {
            let geo = board.geometry();
            let i = parse_move(geo, r#move)?; // a malformed move is reported as such first
            let number = board.moves_played() + 1;
            return Err(illegal_move(
                Refusal::GameOver,
                r#move,
                &geo.vertex_name(i),
                c,
                number,
            ));
        }
        let is_pass = board.play(r#move, c as u8)?;
        let stones = board.stones();
        drop(board);
        if this.log.record(c, is_pass) {
            this.prelim_stones = Some(stones);
        }
        this.color = c.opponent();
        Ok(())
    }

    /// `color` (1 or 2; the side to move if None) resigns; IllegalMoveError "game_over"
    /// if the game is over.
    fn _resign(slf: &Bound<'_, Self>, color: Option<u8>) -> PyResult<()> {
        let (py, mut this) = (slf.py(), borrow_mut_waiting(slf)?);
        if this.over() {
            let number = borrow_mut_waiting(this.board()?.bind(py))?.moves_played() + 1;
            let resign = intern!(py, "resign").as_any();
            return Err(illegal_move(
                Refusal::GameOver,
                resign,
                "resign",
                this.color,
                number,
            ));
        }
        this.resigned = Some(color.map_or(Ok(this.color), color_arg)?);
        Ok(())
    }

    /// Takes back a resignation, or else the last move (the pass bookkeeping found again
    /// from the record); returns "resign" or the move's GTP name.
    fn _undo(slf: &Bound<'_, Self>) -> PyResult<String> {
        let (py, mut this) = (slf.py(), borrow_mut_waiting(slf)?);
        if this.resigned.take().is_some() {
            return Ok("resign".to_string());
        }
        let mut board = borrow_mut_waiting(this.board()?.bind(py))?;
        let index = board.undo().ok_or_else(no_move_to_undo)?;
        this.color = this.color.opponent();
        let first = if board.moves_played() % 2 == 0 {
            this.color
        } else {
            this.color.opponent()
        };
        this.log = PassLog::replay(this.log.ending, first, board.passes());
        if this.log.prelim.is_none() {
            this.prelim_stones = None;
        }
        Ok(board.geometry().vertex_name(index))
    }

    /// The legal plays as flat indices, without the pass (always legal while the game
    /// goes on); empty once the game is over. The fastest way to drive random play.
    fn legal_indices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.over() {
            return Ok(PyList::empty(py));
        }
        borrow_mut_waiting(self.board()?.bind(py))?.legal_index_list(py, self.color)
    }

    /// The legal moves as GTP vertices, "pass" last; empty once the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.over() {
            return Ok(PyList::empty(py));
        }
        let moves =
            borrow_mut_waiting(self.board()?.bind(py))?.legal_vertex_list(py, self.color)?;
        moves.append(intern!(py, "pass"))?;
        Ok(moves)
    }

    /// Legal moves as bool ``(w*h + 1,)``, row-major from the top-left point, pass last;
    /// all false once the game is over.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut board = borrow_mut_waiting(self.board()?.bind(py))?;
        if self.over() {
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
        let board = borrow_mut_waiting(self.board()?.bind(py))?.fork();
        let mut o = other.try_borrow_mut()?;
        o.board = Some(Py::new(py, board)?);
        (o.color, o.log, o.prelim_stones, o.resigned) =
            (self.color, self.log, self.prelim_stones, self.resigned);
        Ok(())
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.over()
    }

    #[getter(_over)]
    fn get_over(&self) -> bool {
        self.over()
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
        self.color = color_arg(color)?;
        Ok(())
    }

    /// The ruleset's ending (a `Rules.ending` value). Set by `Game.__init__` before the
    /// first move: setting it starts the pass bookkeeping afresh.
    #[getter(_ending)]
    fn get_ending(&self) -> &'static str {
        ending_name(self.log.ending)
    }

    #[setter(_ending)]
    fn set_ending(&mut self, ending: &str) -> PyResult<()> {
        self.log = PassLog::new(ending_named(ending)?);
        self.prelim_stones = None;
        Ok(())
    }

    /// Passes in succession ending with the last move.
    #[getter(_streak)]
    fn get_streak(&self) -> u32 {
        self.log.streak
    }

    /// Passes by Black and White up to the preliminary end, then after it.
    #[getter(_passes)]
    fn get_passes(&self) -> (u32, u32, u32, u32) {
        let [a, b, c, d] = self.log.passes;
        (a, b, c, d)
    }

    /// The number (1-based) of the first pass of the game.
    #[getter(_first_pass)]
    fn get_first_pass(&self) -> Option<u32> {
        self.log.first_pass
    }

    /// The colour (1 or 2) of the first pass of the game.
    #[getter(_first_passer)]
    fn get_first_passer(&self) -> Option<u8> {
        self.log.state.first_passer.map(|c| c as u8)
    }

    /// The number of the move that made the preliminary end, under any ruleset.
    #[getter(_prelim)]
    fn get_prelim(&self) -> Option<u32> {
        self.log.prelim
    }

    /// The stones on the board at the preliminary end, (Black, White).
    #[getter(_prelim_stones)]
    fn get_prelim_stones(&self) -> Option<(u32, u32)> {
        self.prelim_stones
    }

    /// The passes Territory I's end still needs after the last move (0 to 3), the side to
    /// move passing first; None before the preliminary end.
    #[getter(_extra_passes)]
    fn get_extra_passes(&self) -> Option<u32> {
        self.log.extra_passes(self.color)
    }

    /// The colour (1 or 2) that resigned.
    #[getter(_resigned)]
    fn get_resigned(&self) -> Option<u8> {
        self.resigned.map(|c| c as u8)
    }
}

impl PyGameCore {
    /// The board, the side to move and the pass state, for the native loops (perft, game
    /// counts, search), which take the game as it stands.
    pub(crate) fn native_state(
        &self,
        py: Python<'_>,
    ) -> PyResult<(
        Py<PyBoard>,
        Color,
        ikeda_core::Ending,
        ikeda_core::PassState,
    )> {
        // A resignation ends the game too.
        let state = ikeda_core::PassState {
            over: self.over(),
            ..self.log.state
        };
        Ok((
            self.board()?.clone_ref(py),
            self.color,
            self.log.ending,
            state,
        ))
    }
}
