//! `ikeda._core.GameCore`: the native half of `ikeda.Game` (its base class). It holds the
//! board, whose turn it is, the core's pass bookkeeping ([`PassLog`]: the game's
//! `PassState`, which decides the end by Rule 6 or the ruleset's variant, and the counts a
//! score reads), the stones at the preliminary end and a resignation, and makes every
//! move: a play, a pass, a take-back and a resignation are each one native call with no
//! Python frame. The rules are the core's (legality in `Position`, the end in
//! `PassState`); this file only reads the arguments and keeps the state together.
//!
//! Thread safety without a lock: a call here releases neither the GIL nor its borrows, so
//! each is atomic with respect to every other call on the game; every borrow waits for
//! another thread's call paused inside (see `wait.rs`).

use ikeda_core::{Color, PassLog, Refusal};
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::board::{color_arg, parse_move, PyBoard};
use crate::errors::{illegal_move, no_move_to_undo};
use crate::rules::{ending_name, ending_named};
use crate::wait::Wait;

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
        let (py, mut this) = (slf.py(), slf.write()?);
        let c = this.color;
        let over = this.over();
        let mut board = this.board()?.bind(py).write()?;
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
        let (py, mut this) = (slf.py(), slf.write()?);
        if this.over() {
            let number = this.board()?.bind(py).write()?.moves_played() + 1;
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
        let (py, mut this) = (slf.py(), slf.write()?);
        if this.resigned.take().is_some() {
            return Ok("resign".to_string());
        }
        let mut board = this.board()?.bind(py).write()?;
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
    fn legal_indices<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyList>> {
        let (py, this) = (slf.py(), slf.read()?);
        if this.over() {
            return Ok(PyList::empty(py));
        }
        let mut board = this.board()?.bind(py).write()?;
        board.legal_index_list(py, this.color)
    }

    /// The legal moves as GTP vertices, "pass" last; empty once the game is over.
    fn legal_moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyList>> {
        let (py, this) = (slf.py(), slf.read()?);
        if this.over() {
            return Ok(PyList::empty(py));
        }
        let moves = this
            .board()?
            .bind(py)
            .write()?
            .legal_vertex_list(py, this.color)?;
        moves.append(intern!(py, "pass"))?;
        Ok(moves)
    }

    /// Legal moves as bool ``(w*h + 1,)``, row-major from the top-left point, pass last;
    /// all false once the game is over.
    fn legal_mask<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let (py, this) = (slf.py(), slf.read()?);
        let mut board = this.board()?.bind(py).write()?;
        if this.over() {
            return Ok(PyArray1::from_vec(
                py,
                vec![false; board.geometry().points() + 1],
            ));
        }
        Ok(board.legal_mask_array(py, this.color))
    }

    /// Gives `other` a copy of this game's board (sharing its history), turn, pass
    /// bookkeeping and end, in one call that a play cannot split.
    fn _copy_native(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<()> {
        let (py, this) = (slf.py(), slf.read()?);
        let board = this.board()?.bind(py).write()?.fork();
        let mut o = other.write()?;
        o.board = Some(Py::new(py, board)?);
        (o.color, o.log, o.prelim_stones, o.resigned) =
            (this.color, this.log, this.prelim_stones, this.resigned);
        Ok(())
    }

    #[getter]
    fn is_over(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(slf.read()?.over())
    }

    #[getter(_over)]
    fn get_over(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(slf.read()?.over())
    }

    #[getter(_board)]
    fn get_board(slf: &Bound<'_, Self>) -> PyResult<Py<PyBoard>> {
        Ok(slf.read()?.board()?.clone_ref(slf.py()))
    }

    #[setter(_board)]
    fn set_board(slf: &Bound<'_, Self>, board: Py<PyBoard>) -> PyResult<()> {
        slf.write()?.board = Some(board);
        Ok(())
    }

    #[getter(_color)]
    fn get_color(slf: &Bound<'_, Self>) -> PyResult<u8> {
        Ok(slf.read()?.color as u8)
    }

    #[setter(_color)]
    fn set_color(slf: &Bound<'_, Self>, color: u8) -> PyResult<()> {
        slf.write()?.color = color_arg(color)?;
        Ok(())
    }

    /// The ruleset's ending (a `Rules.ending` value). Set by `Game.__init__` before the
    /// first move: setting it starts the pass bookkeeping afresh.
    #[getter(_ending)]
    fn get_ending(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        Ok(ending_name(slf.read()?.log.ending))
    }

    #[setter(_ending)]
    fn set_ending(slf: &Bound<'_, Self>, ending: &str) -> PyResult<()> {
        let log = PassLog::new(ending_named(ending)?);
        let mut this = slf.write()?;
        (this.log, this.prelim_stones) = (log, None);
        Ok(())
    }

    /// Passes in succession ending with the last move.
    #[getter(_streak)]
    fn get_streak(slf: &Bound<'_, Self>) -> PyResult<u32> {
        Ok(slf.read()?.log.streak)
    }

    /// Passes by Black and White up to the preliminary end, then after it.
    #[getter(_passes)]
    fn get_passes(slf: &Bound<'_, Self>) -> PyResult<(u32, u32, u32, u32)> {
        let [a, b, c, d] = slf.read()?.log.passes;
        Ok((a, b, c, d))
    }

    /// The number (1-based) of the first pass of the game.
    #[getter(_first_pass)]
    fn get_first_pass(slf: &Bound<'_, Self>) -> PyResult<Option<u32>> {
        Ok(slf.read()?.log.first_pass)
    }

    /// The colour (1 or 2) of the first pass of the game.
    #[getter(_first_passer)]
    fn get_first_passer(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        Ok(slf.read()?.log.state.first_passer.map(|c| c as u8))
    }

    /// The number of the move that made the preliminary end, under any ruleset.
    #[getter(_prelim)]
    fn get_prelim(slf: &Bound<'_, Self>) -> PyResult<Option<u32>> {
        Ok(slf.read()?.log.prelim)
    }

    /// The stones on the board at the preliminary end, (Black, White).
    #[getter(_prelim_stones)]
    fn get_prelim_stones(slf: &Bound<'_, Self>) -> PyResult<Option<(u32, u32)>> {
        Ok(slf.read()?.prelim_stones)
    }

    /// The passes Territory I's end still needs after the last move (0 to 3), the side to
    /// move passing first; None before the preliminary end.
    #[getter(_extra_passes)]
    fn get_extra_passes(slf: &Bound<'_, Self>) -> PyResult<Option<u32>> {
        let this = slf.read()?;
        Ok(this.log.extra_passes(this.color))
    }

    /// The colour (1 or 2) that resigned.
    #[getter(_resigned)]
    fn get_resigned(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        Ok(slf.read()?.resigned.map(|c| c as u8))
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
