//! `ikeda._core.Board`: a board with its superko history and no turn order, pass rules or
//! scoring. Colours are 1 (Black) and 2 (White); moves are GTP vertices, "pass", or flat
//! indices (row-major from the top left, `w*h` = pass). It keeps the record of the moves
//! applied to it, passes included (a pass leaves the stones as they are), so the game
//! layer above needs no list of its own.

use ikeda_core::{
    area, ownership, room_for_one, with_position, AnyPosition, Color, Geometry, KeptLegal, Loc,
    LocSet, PlayRules, Refusal, MAX_SIDE,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyList, PyString};

use crate::errors::{
    bad_color, dead_on_empty, geometry, illegal_move, index_off_board, invalid_move,
    invalid_position, move_type, no_memory, not_a_move_list, setup_pass, unencodable_move,
};
use crate::rules::RulesArg;
use crate::wait::Wait;

#[pyclass(name = "Board", module = "ikeda._core")]
pub struct PyBoard {
    pub(crate) pos: AnyPosition,
    /// Flat indices of the moves applied, `w*h` for a pass.
    record: Vec<u16>,
    /// Moves taken back so far. The record only grows at its end or loses its last move,
    /// so this count and the record's length name its state: a caller that kept the
    /// record at the same count has a prefix of it (`Game.moves` extends its copy).
    takebacks: u64,
    /// Stones of each colour removed from the board so far (Black, White).
    pub(crate) lost: [u32; 2],
    /// The legal plays, kept up to date by this board's plays from the first time they
    /// are asked for (made then: a new board or a replay that never asks carries and pays
    /// nothing for it).
    kept: Option<Box<KeptLegal>>,
    /// Per colour, the list of flat indices `legal_index_list` last made and the set of
    /// points it holds. Never handed out (callers get copies, which they may change): the
    /// next list is this one edited where the set changed (a few points in two moves)
    /// and copied, instead of a list of every legal play built one item at a time.
    listed: [Option<(Py<PyList>, LocSet)>; 2],
}

/// Beyond this many changed points, a list is built anew rather than edited.
const LIST_EDITS: u32 = 12;

/// Lists up to this long are made at once; longer ones (a record of any length) by
/// appends, which fail as MemoryError rather than a panic.
const LIST_AT_ONCE: usize = 4096;

/// Python ints 0..=625, made once: legal-move lists then cost a reference each, not an
/// allocation each.
static INTS: PyOnceLock<Vec<Py<PyInt>>> = PyOnceLock::new();

/// GTP names "A1".."Z25" as Python strings, made once, by `x * MAX_SIDE + row - 1`.
static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

fn name_list<'py>(
    py: Python<'py>,
    geo: Geometry,
    items: impl Iterator<Item = usize>,
) -> PyResult<Bound<'py, PyList>> {
    let names = NAMES.get_or_init(py, || {
        let g = Geometry::new(MAX_SIDE, MAX_SIDE).expect("the largest board");
        let index = |x: usize, row: usize| (MAX_SIDE - row) * MAX_SIDE + x;
        (0..MAX_SIDE)
            .flat_map(|x| (1..=MAX_SIDE).map(move |row| (x, row)))
            .map(|(x, row)| PyString::new(py, &g.vertex_name(index(x, row))).unbind())
            .collect()
    });
    let (w, h) = (usize::from(geo.width), usize::from(geo.height));
    PyList::new(
        py,
        items.map(|i| names[(i % w) * MAX_SIDE + (h - i / w) - 1].bind(py)),
    )
}

fn small_ints(py: Python<'_>) -> &Vec<Py<PyInt>> {
    INTS.get_or_init(py, || {
        (0..=MAX_SIDE * MAX_SIDE)
            .map(|i| {
                i.into_pyobject(py)
                    .map_or_else(|e| match e {}, |b| b.unbind())
            })
            .collect()
    })
}

fn int_list<'py>(
    py: Python<'py>,
    items: impl Iterator<Item = usize>,
) -> PyResult<Bound<'py, PyList>> {
    let ints = small_ints(py);
    PyList::new(py, items.map(|i| ints[i].bind(py)))
}

/// A part of a record as a list of flat indices.
fn record_list<'py>(py: Python<'py>, record: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let moves = record.iter().map(|&i| usize::from(i));
    if record.len() <= LIST_AT_ONCE {
        return int_list(py, moves);
    }
    // A record's length is the caller's: its list grows by appends, which raise
    // MemoryError when Python cannot grow it (`PyList::new` would panic instead).
    let ints = small_ints(py);
    let list = PyList::empty(py);
    for i in moves {
        list.append(ints[i].bind(py))?;
    }
    Ok(list)
}

pub fn color_arg(color: u8) -> PyResult<Color> {
    match color {
        1 => Ok(Color::Black),
        2 => Ok(Color::White),
        _ => Err(bad_color(color)),
    }
}

/// Reads a move into a flat index (`w*h` = pass).
pub fn parse_move(geo: Geometry, mv: &Bound<'_, PyAny>) -> PyResult<usize> {
    read_move(geo, mv, None)
}

/// [`parse_move`] for the move that would be number `number` of a record (named in the
/// error).
fn read_move(geo: Geometry, mv: &Bound<'_, PyAny>, number: Option<usize>) -> PyResult<usize> {
    // Exact ints first: the fast drivers pass flat indices.
    let parsed = if mv.is_exact_instance_of::<PyInt>() {
        geo.parse_index(mv.extract().unwrap_or(-1))
    } else if let Ok(s) = mv.cast::<PyString>() {
        // A string Python cannot encode (a lone surrogate) names no vertex.
        let Ok(text) = s.to_str() else {
            return Err(unencodable_move(mv, number));
        };
        geo.parse_vertex(text)
    } else if !mv.is_instance_of::<PyBool>()
        && (mv.is_instance_of::<PyInt>() || mv.hasattr("__index__")?)
    {
        // Other integers (numpy's, from argmax or flatnonzero) through `__index__`.
        let i: i64 = mv.extract().unwrap_or(-1);
        geo.parse_index(i)
    } else {
        return Err(move_type(mv, number));
    };
    parsed
        .map(|o| o.unwrap_or(geo.pass_index()))
        .map_err(|e| invalid_move(&e, mv, number))
}

fn indices(geo: Geometry, moves: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
    let mut out = Vec::new();
    if let Some(moves) = moves {
        let listed = if moves.is_instance_of::<PyString>() {
            None
        } else {
            moves.try_iter().ok()
        };
        let Some(listed) = listed else {
            return Err(not_a_move_list(moves));
        };
        for mv in listed {
            let mv = mv?;
            let i = parse_move(geo, &mv)?;
            if i == geo.pass_index() {
                return Err(setup_pass());
            }
            out.push(i);
        }
    }
    Ok(out)
}

/// Why [`PyBoard::try_play`] did not play.
pub(crate) enum NotPlayed {
    /// The rules forbid the play.
    Illegal(ikeda_core::Illegal),
    /// Memory for it (named) is short.
    NoMemory(&'static str),
}

impl PyBoard {
    /// Adds (`sign` 1) or takes back (-1) the stones a play of `c` removed.
    fn count_removed(&mut self, c: Color, effect: ikeda_core::PlayEffect, sign: i32) {
        let victim = if effect.suicide { c } else { c.opponent() };
        let n = &mut self.lost[victim.index()];
        *n = n.wrapping_add_signed(sign * i32::from(effect.removed));
    }

    fn geo(&self) -> Geometry {
        self.pos.geometry()
    }

    fn loc(&self, i: usize) -> Loc {
        self.geo().loc_of_index(i)
    }

    /// Whether the last move applied was a pass (it lifts a simple-ko ban).
    fn last_pass(&self) -> bool {
        self.record
            .last()
            .is_some_and(|&i| usize::from(i) == self.geo().pass_index())
    }

    /// Calls `f(flat index)` for each legal play of `c` (the simple-ko ban applied), in
    /// flat-index order, from the kept set.
    fn for_each_legal(&mut self, c: Color, mut f: impl FnMut(usize)) {
        let last_pass = self.last_pass();
        let kept = self.kept.get_or_insert_with(Box::default);
        with_position!(&self.pos, p => kept.for_each_legal(p, c, last_pass, |i, _| f(i)));
    }

    /// The legal plays of `c` by flat index (the simple-ko ban applied).
    fn legal_plays(&mut self, c: Color) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.geo().points());
        self.for_each_legal(c, |i| out.push(i));
        out
    }

    /// A copy sharing this board's history. Its legal plays are kept anew from its first
    /// request (copying 1.3 KB of kept state would cost a copy about a tenth of its time).
    pub(crate) fn fork(&mut self) -> PyBoard {
        PyBoard {
            pos: self.pos.fork(),
            record: self.record.clone(),
            takebacks: self.takebacks,
            lost: self.lost,
            kept: None,
            listed: [None, None],
        }
    }

    pub(crate) fn geometry(&self) -> Geometry {
        self.geo()
    }

    /// Plays `c` at the point `i` (not a pass) if the rules allow it, recording it;
    /// changes nothing otherwise.
    pub(crate) fn try_play(&mut self, i: usize, c: Color) -> Result<(), NotPlayed> {
        // Room for the move first (a game's record and history grow with every call), so
        // that a play memory cannot hold changes nothing.
        room_for_one(&mut self.record).map_err(|_| NotPlayed::NoMemory("the game's record"))?;
        let (loc, last_pass) = (self.loc(i), self.last_pass());
        // The kept legal plays answer most plays (an empty point not watched) untested.
        let known = self
            .kept
            .as_deref()
            .is_some_and(|kept| with_position!(&self.pos, p => kept.surely_legal(p, loc)));
        if !known {
            with_position!(&self.pos, p => p.check_move(loc, c, last_pass))
                .map_err(NotPlayed::Illegal)?;
        }
        with_position!(&mut self.pos, p => p.try_reserve(1))
            .map_err(|_| NotPlayed::NoMemory("the game's history"))?;
        let effect = match self.kept.as_deref_mut() {
            Some(kept) => with_position!(&mut self.pos, p => {
                kept.before_play(p, loc, c);
                let effect = p.play_unchecked(loc, c);
                kept.after_play(p, loc, c);
                effect
            }),
            None => with_position!(&mut self.pos, p => p.play_unchecked(loc, c)),
        };
        self.count_removed(c, effect, 1);
        self.record.push(i as u16);
        Ok(())
    }

    /// Records a pass (the stones stay as they are; the kept legal plays hold after it).
    pub(crate) fn try_pass(&mut self) -> Result<(), NotPlayed> {
        room_for_one(&mut self.record).map_err(|_| NotPlayed::NoMemory("the game's record"))?;
        self.record.push(self.geo().pass_index() as u16);
        Ok(())
    }

    /// How many moves (passes included) have been applied.
    pub(crate) fn moves_played(&self) -> usize {
        self.record.len()
    }

    /// For each move applied, in order, whether it was a pass.
    pub(crate) fn passes(&self) -> impl Iterator<Item = bool> + '_ {
        let pass = self.geo().pass_index();
        self.record.iter().map(move |&i| usize::from(i) == pass)
    }

    /// The stones on the board, (Black, White).
    pub(crate) fn stones(&self) -> (u32, u32) {
        let count = |c| with_position!(&self.pos, p => p.board().stone_count(c)) as u32;
        (count(Color::Black), count(Color::White))
    }

    /// The legal plays of `c` as a list of flat indices (no pass).
    pub(crate) fn legal_index_list<'py>(
        &mut self,
        py: Python<'py>,
        c: Color,
    ) -> PyResult<Bound<'py, PyList>> {
        let last_pass = self.last_pass();
        let kept = self.kept.get_or_insert_with(Box::default);
        let Some(set) = with_position!(&self.pos, p => kept.legal_set(p, c, last_pass)) else {
            return int_list(py, self.legal_plays(c).into_iter());
        };
        let geo = self.geo();
        let words = geo.cells().div_ceil(64);
        let ints = small_ints(py);
        let listed = &mut self.listed[c.index()];
        let changed: u32 = match listed {
            Some((_, old)) => old[..words]
                .iter()
                .zip(&set)
                .map(|(a, b)| (a ^ b).count_ones())
                .sum(),
            None => u32::MAX,
        };
        if changed > LIST_EDITS {
            let mut items = Vec::with_capacity(geo.points());
            geo.for_each_set_index(&set, |i, _| items.push(i));
            let list = int_list(py, items.into_iter())?;
            *listed = Some((list.clone().unbind(), set));
            return Ok(list.get_slice(0, list.len()));
        }
        let (list, old) = listed.as_mut().expect("a list to edit");
        let list = list.bind(py);
        // Ascending, so that each point's rank among the points before it is final.
        for k in 0..words {
            let mut diff = old[k] ^ set[k];
            while diff != 0 {
                let bit = diff & diff.wrapping_neg();
                diff &= diff - 1;
                let below = old[..k].iter().map(|w| w.count_ones()).sum::<u32>()
                    + (old[k] & (bit - 1)).count_ones();
                let loc = (k * 64) as Loc + bit.trailing_zeros() as Loc;
                if set[k] & bit != 0 {
                    list.insert(below as usize, ints[geo.index_of_loc(loc)].bind(py))?;
                } else {
                    list.del_item(below as usize)?;
                }
                old[k] ^= bit;
            }
        }
        Ok(list.get_slice(0, list.len()))
    }

    /// The legal plays of `c` as a list of GTP names (no pass).
    pub(crate) fn legal_vertex_list<'py>(
        &mut self,
        py: Python<'py>,
        c: Color,
    ) -> PyResult<Bound<'py, PyList>> {
        name_list(py, self.geo(), self.legal_plays(c).into_iter())
    }

    /// The legal moves of `c` as a bool array of `w*h + 1`, pass last.
    pub(crate) fn legal_mask_array<'py>(
        &mut self,
        py: Python<'py>,
        c: Color,
    ) -> Bound<'py, PyArray1<bool>> {
        let mut out = vec![false; self.geo().points() + 1];
        self.for_each_legal(c, |i| out[i] = true);
        *out.last_mut().expect("the pass") = true;
        PyArray1::from_vec(py, out)
    }

    /// The play of `Board.play` (below) and `Game.play`.
    pub(crate) fn play(&mut self, mv: &Bound<'_, PyAny>, color: u8) -> PyResult<bool> {
        let number = self.record.len() + 1;
        let (i, c) = (read_move(self.geo(), mv, Some(number))?, color_arg(color)?);
        if i == self.geo().pass_index() {
            // Room for the move first (a record grows with every call): MemoryError, the
            // board unchanged, instead of an abort.
            self.try_pass()
                .map_err(|_| no_memory("the game's record"))?;
            return Ok(true);
        }
        self.try_play(i, c).map_err(|e| match e {
            NotPlayed::Illegal(r) => illegal_move(
                Refusal::Illegal(r),
                mv,
                &self.geo().vertex_name(i),
                c,
                number,
            ),
            NotPlayed::NoMemory(what) => no_memory(what),
        })?;
        Ok(false)
    }

    /// The take-back of `Board.undo` (below) and `Game.undo`.
    pub(crate) fn undo(&mut self) -> Option<usize> {
        let i = usize::from(self.record.pop()?);
        self.takebacks += 1;
        if i != self.geo().pass_index() {
            if let Some(kept) = &mut self.kept {
                kept.invalidate();
            }
            if let Some((_, c, effect)) = with_position!(&mut self.pos, p => p.undo()) {
                self.count_removed(c, effect, -1);
            }
        }
        Some(i)
    }

    /// Number of plays made on this board (passes are not the board's business).
    fn play_count(&self) -> usize {
        with_position!(&self.pos, p => p.plays())
    }
}

#[pymethods]
impl PyBoard {
    /// An empty `width` x `height` board, or one with setup stones (vertices or indices).
    #[new]
    #[pyo3(signature = (width, height, black=None, white=None, *, rules=None))]
    fn new(
        width: i64,
        height: i64,
        black: Option<&Bound<'_, PyAny>>,
        white: Option<&Bound<'_, PyAny>>,
        rules: Option<RulesArg>,
    ) -> PyResult<Self> {
        let geo = geometry(width, height)?;
        let rules = rules.map_or(Ok(PlayRules::IKEDA), |r| r.play())?;
        let (b, w) = (indices(geo, black)?, indices(geo, white)?);
        let pos = AnyPosition::from_setup(geo, rules, &b, &w)
            .map_err(|e| invalid_position(&e, |i| geo.vertex_name(i)))?;
        Ok(PyBoard {
            pos,
            record: Vec::new(),
            takebacks: 0,
            lost: [0, 0],
            kept: None,
            listed: [None, None],
        })
    }

    #[getter]
    fn width(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(slf.read()?.geo().width as usize)
    }

    #[getter]
    fn height(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(slf.read()?.geo().height as usize)
    }

    /// Number of plays made on this board (passes are not the board's business).
    #[getter]
    fn plays(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(slf.read()?.play_count())
    }

    /// The 128-bit Zobrist hash of the configuration.
    #[getter]
    fn hash(slf: &Bound<'_, Self>) -> PyResult<u128> {
        Ok(with_position!(&slf.read()?.pos, p => p.board().hash()))
    }

    /// The flat index of a move (`w*h` = pass); raises InvalidMoveError.
    fn index(slf: &Bound<'_, Self>, mv: &Bound<'_, PyAny>) -> PyResult<usize> {
        let geo = slf.read()?.geo();
        parse_move(geo, mv)
    }

    /// The GTP name of a flat index (`w*h` gives "pass").
    fn vertex(slf: &Bound<'_, Self>, index: usize) -> PyResult<String> {
        let geo = slf.read()?.geo();
        if index > geo.points() {
            return Err(index_off_board(index));
        }
        Ok(geo.vertex_name(index))
    }

    /// The reason `color` may not play `move` ("occupied", "suicide", "superko", or "ko"
    /// for the simple-ko ban), or None.
    fn illegal_reason(
        slf: &Bound<'_, Self>,
        mv: &Bound<'_, PyAny>,
        color: u8,
    ) -> PyResult<Option<&'static str>> {
        let this = slf.read()?;
        let (i, c) = (parse_move(this.geo(), mv)?, color_arg(color)?);
        if i == this.geo().pass_index() {
            return Ok(None);
        }
        let (loc, last_pass) = (this.loc(i), this.last_pass());
        Ok(
            with_position!(&this.pos, p => p.check_move(loc, c, last_pass))
                .err()
                .map(|r| r.as_str()),
        )
    }

    /// Applies `move` for `color`; returns True if it was a pass (which leaves the stones
    /// as they are). Raises InvalidMoveError or IllegalMoveError, naming the number the
    /// move would have had, and changes nothing if the move cannot be read or is illegal.
    #[pyo3(name = "play")]
    fn play_py(slf: &Bound<'_, Self>, mv: &Bound<'_, PyAny>, color: u8) -> PyResult<bool> {
        slf.write()?.play(mv, color)
    }

    /// Takes back the last move; returns its flat index, or None if there is none.
    #[pyo3(name = "undo")]
    fn undo_py(slf: &Bound<'_, Self>) -> PyResult<Option<usize>> {
        Ok(slf.write()?.undo())
    }

    /// The moves applied, as flat indices (`w*h` = pass).
    #[getter]
    fn moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyList>> {
        record_list(slf.py(), &slf.read()?.record)
    }

    /// The moves applied from number `start + 1` on, as flat indices (`w*h` = pass).
    fn moves_from<'py>(slf: &Bound<'py, Self>, start: usize) -> PyResult<Bound<'py, PyList>> {
        let this = slf.read()?;
        record_list(slf.py(), this.record.get(start..).unwrap_or_default())
    }

    /// How many moves have been taken back (see the field).
    #[getter]
    fn takebacks(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(slf.read()?.takebacks)
    }

    /// Stones removed from the board so far, `(black, white)` (captures, and suicides
    /// where the rules allow them).
    #[getter]
    fn lost(slf: &Bound<'_, Self>) -> PyResult<(u32, u32)> {
        let lost = slf.read()?.lost;
        Ok((lost[0], lost[1]))
    }

    /// Number of moves applied, passes included.
    fn __len__(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(slf.read()?.record.len())
    }

    /// A copy sharing this board's history.
    fn copy(slf: &Bound<'_, Self>) -> PyResult<PyBoard> {
        Ok(slf.write()?.fork())
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<PyBoard> {
        Self::copy(slf)
    }

    /// Legal plays of `color` as a bool array of `w*h + 1` (pass last, always true; the
    /// simple-ko ban applied, as in the two below).
    fn legal_mask<'py>(slf: &Bound<'py, Self>, color: u8) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let c = color_arg(color)?;
        Ok(slf.write()?.legal_mask_array(slf.py(), c))
    }

    /// Flat indices of the legal plays of `color` (no pass).
    fn legal_indices<'py>(slf: &Bound<'py, Self>, color: u8) -> PyResult<Bound<'py, PyList>> {
        let c = color_arg(color)?;
        slf.write()?.legal_index_list(slf.py(), c)
    }

    /// GTP names of the legal plays of `color` (no pass).
    fn legal_vertices<'py>(slf: &Bound<'py, Self>, color: u8) -> PyResult<Bound<'py, PyList>> {
        let c = color_arg(color)?;
        slf.write()?.legal_vertex_list(slf.py(), c)
    }

    /// The stones as int8 `(h, w)`: 0 empty, 1 black, 2 white; row 0 is the top.
    fn to_numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let this = slf.read()?;
        let geo = this.geo();
        let cells: Vec<i8> =
            with_position!(&this.pos, p => geo.locs().map(|l| p.board().cell(l) as i8).collect());
        drop(this);
        PyArray1::from_vec(slf.py(), cells).reshape([geo.height as usize, geo.width as usize])
    }

    /// Stones of `color` on the board.
    fn stone_count(slf: &Bound<'_, Self>, color: u8) -> PyResult<usize> {
        let c = color_arg(color)?;
        Ok(with_position!(&slf.read()?.pos, p => p.board().stone_count(c)))
    }

    /// Rule 7 count after removing the chains through `dead`:
    /// `(black stones, white stones, black territory, white territory)`.
    #[pyo3(signature = (dead=None))]
    fn area(
        slf: &Bound<'_, Self>,
        dead: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u32, u32, u32, u32)> {
        let this = slf.read()?;
        let dead = this.dead_locs(dead)?;
        let a = with_position!(&this.pos, p => area(p.board(), &dead));
        Ok((a.stones[0], a.stones[1], a.territory[0], a.territory[1]))
    }

    /// Who owns each point (stones and territory) as int8 `(h, w)`: 0 nobody, 1, 2.
    #[pyo3(signature = (dead=None))]
    fn ownership<'py>(
        slf: &Bound<'py, Self>,
        dead: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let this = slf.read()?;
        let geo = this.geo();
        let dead = this.dead_locs(dead)?;
        let owner: Vec<i8> = with_position!(&this.pos, p => ownership(p.board(), &dead))
            .into_iter()
            .map(|o| o as i8)
            .collect();
        drop(this);
        PyArray1::from_vec(slf.py(), owner).reshape([geo.height as usize, geo.width as usize])
    }

    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Ok(with_position!(&slf.read()?.pos, p => format!("{:?}", p.board())))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = slf.read()?;
        let geo = this.geo();
        Ok(format!(
            "<ikeda._core.Board {}x{} with {} plays>",
            geo.width,
            geo.height,
            this.play_count()
        ))
    }
}

impl PyBoard {
    fn dead_locs(&self, dead: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Loc>> {
        let geo = self.geo();
        let mut out = Vec::new();
        for i in indices(geo, dead)? {
            let loc = geo.loc_of_index(i);
            if with_position!(&self.pos, p => p.board().cell(loc).color().is_none()) {
                return Err(dead_on_empty(&geo.vertex_name(i)));
            }
            out.push(loc);
        }
        Ok(out)
    }
}
