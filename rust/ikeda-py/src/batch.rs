//! `ikeda._core.Batch`: ikeda-core's lockstep games behind numpy arrays. Every call that
//! loops over the games releases the GIL and runs on the batch's own rayon pool; the
//! Python `ikeda.Batch` validates shapes and types before calling in.

use ikeda_core::{Batch, Color, Geometry, Policy, CELLS_19, CELLS_9, EXTRA_PLANES, MAX_CELLS};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyReadwriteArray1, PyReadwriteArray2, PyReadwriteArray4, PyUntypedArrayMethods,
};
use pyo3::prelude::*;

use crate::errors::{
    action_count, bad_argument, filled, geometry, invalid_position, no_memory, step_error,
};
use crate::rules::RulesArg;

/// Bounds that keep every allocation sane (docs/security.md).
pub const MAX_GAMES: usize = 1 << 24;
const MAX_HISTORY: usize = 64;

enum AnyBatch {
    Small(Box<Batch<CELLS_9>>),
    Medium(Box<Batch<CELLS_19>>),
    Large(Box<Batch<MAX_CELLS>>),
}

macro_rules! with_batch {
    ($any:expr, $b:ident => $body:expr) => {
        match $any {
            AnyBatch::Small($b) => $body,
            AnyBatch::Medium($b) => $body,
            AnyBatch::Large($b) => $body,
        }
    };
}

#[pyclass(name = "Batch", module = "ikeda._core")]
pub struct PyBatch {
    games: AnyBatch,
    geo: Geometry,
    pool: std::sync::Arc<rayon::ThreadPool>,
}

impl PyBatch {
    /// Runs `f` on the batch's pool without the GIL.
    fn run<T: Send>(&mut self, py: Python<'_>, f: impl FnOnce(&mut AnyBatch) -> T + Send) -> T {
        let (games, pool) = (&mut self.games, &self.pool);
        py.detach(move || pool.install(move || f(games)))
    }

    fn n(&self) -> usize {
        with_batch!(&self.games, b => b.len())
    }

    /// Refuses a game index out of range.
    fn index(&self, i: usize) -> PyResult<()> {
        if i >= self.n() {
            return Err(bad_argument(format!("game {i} is not in 0..{}", self.n())));
        }
        Ok(())
    }

    /// Refuses a start that was not added.
    fn start_index(&self, start: u32) -> PyResult<()> {
        let count = with_batch!(&self.games, b => b.start_count());
        if start as usize >= count {
            return Err(bad_argument(format!("start {start} is not in 0..{count}")));
        }
        Ok(())
    }

    /// The `(n,)` flags of a caller's bool array, if given.
    fn flags<'a>(
        &self,
        which: &'a Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<Option<&'a [bool]>> {
        let Some(w) = which else { return Ok(None) };
        let w = w
            .as_slice()
            .map_err(|_| bad_argument("which must be C-contiguous"))?;
        if w.len() != self.n() {
            return Err(bad_argument(format!(
                "expected {} flags, got {}",
                self.n(),
                w.len()
            )));
        }
        Ok(Some(w))
    }

    fn shape2(&self, cols: usize) -> [usize; 2] {
        [self.n(), cols]
    }
}

/// The writable contiguous buffer of a caller's array of the given shape.
fn buffer<'a, T: numpy::Element>(
    shape: &[usize],
    want: &[usize],
    array: &'a mut numpy::PyReadwriteArray<'_, T, impl numpy::ndarray::Dimension>,
) -> PyResult<&'a mut [T]> {
    if shape != want {
        return Err(bad_argument(format!(
            "out must have shape {want:?}, not {shape:?}"
        )));
    }
    array
        .as_slice_mut()
        .map_err(|_| bad_argument("out must be C-contiguous"))
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (width, height, rules, n, seed, threads=0))]
    fn new(
        width: i64,
        height: i64,
        rules: RulesArg,
        n: usize,
        seed: u64,
        threads: usize,
    ) -> PyResult<Self> {
        let geo = geometry(width, height)?;
        let rules = rules.native()?;
        if n > MAX_GAMES {
            return Err(bad_argument(format!(
                "a batch holds at most {MAX_GAMES} games, not {n}"
            )));
        }
        let pool = crate::thread_pool(threads)?;
        let cells = geo.cells();
        let games = if cells <= CELLS_9 {
            Batch::try_new(geo, rules, n, seed).map(|b| AnyBatch::Small(Box::new(b)))
        } else if cells <= CELLS_19 {
            Batch::try_new(geo, rules, n, seed).map(|b| AnyBatch::Medium(Box::new(b)))
        } else {
            Batch::try_new(geo, rules, n, seed).map(|b| AnyBatch::Large(Box::new(b)))
        }
        .map_err(|_| no_memory(&format!("{n} games")))?;
        Ok(PyBatch { games, geo, pool })
    }

    fn __len__(&self) -> usize {
        self.n()
    }

    /// Threads of the batch's pool.
    #[getter]
    fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// `(n, w*h + 1)` bools: each game's legal actions, the pass last.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let shape = self.shape2(self.geo.points() + 1);
        let mut out = filled(shape[0].checked_mul(shape[1]), false, "the legal masks")?;
        self.run(py, |g| with_batch!(g, b => b.legal_mask(&mut out)));
        PyArray1::from_vec(py, out).reshape(shape)
    }

    /// [`PyBatch::legal_mask`] written into a caller's `(n, w*h + 1)` bool array.
    fn legal_mask_into(
        &mut self,
        py: Python<'_>,
        mut out: PyReadwriteArray2<'_, bool>,
    ) -> PyResult<()> {
        let want = self.shape2(self.geo.points() + 1);
        let shape = out.shape().to_vec();
        let out = buffer(&shape, &want, &mut out)?;
        self.run(py, move |g| with_batch!(g, b => b.legal_mask(out)));
        Ok(())
    }

    /// [`PyBatch::step`], then the new legal masks into `mask` in the same call (each
    /// game's row updated from its move); the masks are left as they were if the step is
    /// refused.
    fn step_into(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut mask: PyReadwriteArray2<'_, bool>,
    ) -> PyResult<()> {
        let actions = actions.as_slice()?.to_vec();
        if actions.len() != self.n() {
            return Err(action_count(py, self.n(), actions.len()));
        }
        let want = self.shape2(self.geo.points() + 1);
        let shape = mask.shape().to_vec();
        let out = buffer(&shape, &want, &mut mask)?;
        let geo = self.geo;
        self.run(
            py,
            move |g| with_batch!(g, b => b.step_into(&actions, Some(out))),
        )
        .map_err(|e| step_error(py, e, geo))
    }

    /// One action per game into `out` (`(n,)` int64), drawn among its legal actions from
    /// its own random stream: uniform among the plays (the pass only when there is none)
    /// without `policy`, else in proportion to the `(n, w*h + 1)` float32 weights, or to
    /// `exp` of them if `logits`.
    #[pyo3(signature = (policy, logits, out))]
    fn sample(
        &mut self,
        py: Python<'_>,
        policy: Option<PyReadonlyArray2<'_, f32>>,
        logits: bool,
        mut out: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        let n = self.n();
        let shape = out.shape().to_vec();
        let out = buffer(&shape, &[n], &mut out)?;
        let values = match &policy {
            Some(p) => {
                let want = self.shape2(self.geo.points() + 1);
                if p.shape() != want {
                    return Err(bad_argument(format!(
                        "policy must have shape {want:?}, not {:?}",
                        p.shape()
                    )));
                }
                Some(
                    p.as_slice()
                        .map_err(|_| bad_argument("policy must be C-contiguous"))?,
                )
            }
            None => None,
        };
        let policy = match values {
            None => Policy::Uniform,
            Some(v) if logits => Policy::Logits(v),
            Some(v) => Policy::Weights(v),
        };
        self.run(py, move |g| with_batch!(g, b => b.sample(policy, out)))
            .map_err(|e| bad_argument(e.to_string()))
    }

    /// [`PyBatch::features`] written into a caller's `(n, 2*history + 4, h, w)` float32 array.
    fn features_into(
        &mut self,
        py: Python<'_>,
        history: usize,
        mut out: PyReadwriteArray4<'_, f32>,
    ) -> PyResult<()> {
        if !(1..=MAX_HISTORY).contains(&history) {
            return Err(bad_argument(format!(
                "history must be in 1..={MAX_HISTORY}, not {history}"
            )));
        }
        let geo = self.geo;
        let want = [
            self.n(),
            2 * history + EXTRA_PLANES,
            usize::from(geo.height),
            usize::from(geo.width),
        ];
        let shape = out.shape().to_vec();
        let out = buffer(&shape, &want, &mut out)?;
        self.run(py, move |g| with_batch!(g, b => b.features(history, out)));
        Ok(())
    }

    /// Plays one action per game (flat indices, `w*h` = pass); all or nothing.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let actions = actions.as_slice()?.to_vec();
        if actions.len() != self.n() {
            return Err(action_count(py, self.n(), actions.len()));
        }
        let geo = self.geo;
        self.run(py, move |g| with_batch!(g, b => b.step(&actions)))
            .map_err(|e| step_error(py, e, geo))
    }

    /// `(n,)` bools: the game has ended under its ruleset.
    fn is_over<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        with_batch!(&self.games, b => PyArray1::from_slice(py, b.over()))
    }

    /// `(n,)` int8: 1 Black or 2 White to move.
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        with_batch!(&self.games, b => PyArray1::from_iter(py, b.games().iter().map(|g| g.to_move as i8)))
    }

    /// `(n,)` int8: who made the first pass (0 nobody).
    fn first_passer<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        with_batch!(&self.games, b => PyArray1::from_iter(py, b.games().iter().map(|g| g.passes.first_passer.map_or(0, |c| c as i8))))
    }

    /// `(n,)` int32: moves since the last reset, passes included.
    fn lengths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        with_batch!(&self.games, b => PyArray1::from_iter(py, b.lengths().iter().map(|&l| l as i32)))
    }

    /// `(n,)` bools: a playout's move cap stopped the game.
    fn capped<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        with_batch!(&self.games, b => PyArray1::from_slice(py, b.capped()))
    }

    /// `(n,)` float64: Black minus White under the ruleset, komi included.
    fn margins<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let mut half = filled(Some(self.n()), 0, "the margins")?;
        self.run(py, |g| with_batch!(g, b => b.margins(&mut half)));
        Ok(PyArray1::from_iter(
            py,
            half.into_iter().map(|m| f64::from(m) / 2.0),
        ))
    }

    /// [`PyBatch::margins`] of the games marked in `which` (`(n,)` bools), 0 elsewhere.
    fn margins_of<'py>(
        &mut self,
        py: Python<'py>,
        which: PyReadonlyArray1<'_, bool>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let which = Some(which);
        let which = self.flags(&which)?.unwrap_or(&[]);
        let mut half = filled(Some(self.n()), 0, "the margins")?;
        self.run(py, |g| with_batch!(g, b => b.margins_of(which, &mut half)));
        Ok(PyArray1::from_iter(
            py,
            half.into_iter().map(|m| f64::from(m) / 2.0),
        ))
    }

    /// `(n, h, w)` int8: 0 empty, 1 Black, 2 White.
    fn boards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i8>>> {
        let geo = self.geo;
        let mut cells = filled(self.n().checked_mul(geo.points()), 0i8, "the boards")?;
        with_batch!(&self.games, b => {
            for (row, g) in cells.chunks_mut(geo.points().max(1)).zip(b.games()) {
                for (c, l) in row.iter_mut().zip(geo.locs()) {
                    *c = g.position.board().cell(l) as i8;
                }
            }
        });
        PyArray1::from_vec(py, cells).reshape([
            self.n(),
            usize::from(geo.height),
            usize::from(geo.width),
        ])
    }

    /// `(n, h, w)` int8: who owns each point as the boards stand (0 nobody, 1 Black, 2
    /// White; stones and surrounded points, every stone alive); with `which` (`(n,)`
    /// bools), only the rows of the games it marks, the others zero.
    #[pyo3(signature = (which=None))]
    fn ownership<'py>(
        &mut self,
        py: Python<'py>,
        which: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<Bound<'py, PyArray3<i8>>> {
        let geo = self.geo;
        let which = self.flags(&which)?;
        let mut out = filled(self.n().checked_mul(geo.points()), 0i8, "the ownership")?;
        self.run(py, |g| with_batch!(g, b => b.ownership(which, &mut out)));
        PyArray1::from_vec(py, out).reshape([
            self.n(),
            usize::from(geo.height),
            usize::from(geo.width),
        ])
    }

    /// Adds a start position (setup stones as flat indices, `to_move` 1 Black or 2
    /// White); returns its number.
    fn add_start(&mut self, black: Vec<usize>, white: Vec<usize>, to_move: u8) -> PyResult<u32> {
        let color = match to_move {
            1 => Color::Black,
            2 => Color::White,
            _ => return Err(crate::errors::bad_color(to_move)),
        };
        let geo = self.geo;
        with_batch!(&mut self.games, b => b.add_start(&black, &white, color))
            .map_err(|e| invalid_position(&e, |i| geo.vertex_name(i)))
    }

    /// Game `i` is reset to start `start` from now on.
    fn set_start(&mut self, i: usize, start: u32) -> PyResult<()> {
        self.index(i)?;
        self.start_index(start)?;
        with_batch!(&mut self.games, b => b.set_start(i, start));
        Ok(())
    }

    /// `(start, moves)` of game `i`: its start's number and its moves since it.
    fn record(&self, i: usize) -> PyResult<(u32, Vec<u16>, u32)> {
        self.index(i)?;
        Ok(with_batch!(&self.games, b => {
            let (s, m) = b.record(i);
            (s, m.to_vec(), b.start_of(i))
        }))
    }

    /// Marks game `i` as stopped by a playout's cap, without ending it.
    fn mark_capped(&mut self, i: usize) -> PyResult<()> {
        self.index(i)?;
        with_batch!(&mut self.games, b => b.mark_capped(i));
        Ok(())
    }

    /// Seeds every game's random stream anew from `seed`.
    fn reseed(&mut self, seed: u64) {
        with_batch!(&mut self.games, b => b.reseed(seed));
    }

    /// Game `i`'s random stream: `(resets, state)`, the count of its resets and the four
    /// words of its generator (for pickling).
    fn stream(&self, i: usize) -> PyResult<(u64, [u64; 4])> {
        self.index(i)?;
        Ok(with_batch!(&self.games, b => b.stream(i)))
    }

    /// Sets game `i`'s random stream as [`PyBatch::stream`] gave it.
    fn set_stream(&mut self, i: usize, resets: u64, state: [u64; 4]) -> PyResult<()> {
        self.index(i)?;
        with_batch!(&mut self.games, b => b.set_stream(i, resets, state));
        Ok(())
    }

    /// Replaces game `i` by `moves` played from start `start`; a refused move raises
    /// `IllegalMoveError` naming its position in `moves`, and the game is left as it was.
    fn set_game(&mut self, i: usize, start: u32, moves: Vec<usize>) -> PyResult<()> {
        self.index(i)?;
        self.start_index(start)?;
        let geo = self.geo;
        let (k, refusal) = match with_batch!(&mut self.games, b => b.set_game(i, start, &moves)) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let vertex = if moves[k] <= geo.points() {
            geo.vertex_name(moves[k])
        } else {
            moves[k].to_string()
        };
        Err(crate::errors::IllegalMoveError::new_err((
            format!(
                "game {i}: move {} ({vertex}) of the record: {refusal}",
                k + 1
            ),
            refusal.as_str(),
            vertex,
            k + 1,
            i,
        )))
    }

    /// Moves since a reset after which a game is stopped as over (`u32::MAX`: none).
    #[getter]
    fn get_move_cap(&self) -> u32 {
        with_batch!(&self.games, b => b.move_cap())
    }

    #[setter]
    fn set_move_cap(&mut self, cap: u32) {
        with_batch!(&mut self.games, b => b.set_move_cap(cap));
    }

    /// Returns the games marked in `which` (`(n,)` bools) to the empty board.
    fn reset(&mut self, which: PyReadonlyArray1<'_, bool>) -> PyResult<()> {
        let which = which.as_slice()?;
        if which.len() != self.n() {
            return Err(bad_argument(format!(
                "expected {} flags, got {}",
                self.n(),
                which.len()
            )));
        }
        with_batch!(&mut self.games, b => b.reset(which));
        Ok(())
    }

    /// Plays every live game to its end natively; returns how many hit `max_moves`.
    #[pyo3(signature = (pass_probability=0.0, max_moves=None))]
    fn playout(
        &mut self,
        py: Python<'_>,
        pass_probability: f64,
        max_moves: Option<usize>,
    ) -> PyResult<usize> {
        if !(0.0..=1.0).contains(&pass_probability) {
            return Err(bad_argument(format!(
                "pass_probability must be in [0, 1], not {pass_probability}"
            )));
        }
        let cap = max_moves.unwrap_or_else(|| ikeda_core::move_cap(self.geo));
        // The histories grow fallibly as the games go (ikeda-core's `try_play_out`).
        self.run(
            py,
            move |g| with_batch!(g, b => b.playout(pass_probability, cap)),
        )
        .map_err(|_| {
            no_memory(&format!(
                "the games' histories (playouts capped at {cap} moves)"
            ))
        })
    }

    /// `(n, 2*history + 4, h, w)` float32 input planes (see ikeda-core's `Batch::features`).
    fn features<'py>(
        &mut self,
        py: Python<'py>,
        history: usize,
    ) -> PyResult<Bound<'py, PyArray4<f32>>> {
        if !(1..=MAX_HISTORY).contains(&history) {
            return Err(bad_argument(format!(
                "history must be in 1..={MAX_HISTORY}, not {history}"
            )));
        }
        let planes = 2 * history + EXTRA_PLANES;
        let geo = self.geo;
        let n = self.n();
        let size = n
            .checked_mul(planes)
            .and_then(|x| x.checked_mul(geo.points()));
        let mut out = filled(size, 0.0f32, "the input planes")?;
        self.run(py, |g| with_batch!(g, b => b.features(history, &mut out)));
        PyArray1::from_vec(py, out).reshape([
            n,
            planes,
            usize::from(geo.height),
            usize::from(geo.width),
        ])
    }
}
