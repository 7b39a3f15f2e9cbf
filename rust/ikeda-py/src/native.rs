//! Native loops that run whole games without Python: perft, random games, legal-position
//! counts. Inputs are extracted first, then the GIL is released for the work.

use ikeda_core::{
    analyze, count_games, count_legal_positions, move_cap, perft_until, random_game, search,
    with_tier, AnyPosition, Choice, Color, CountError, CountLimits, Ending, Game, NoMemory,
    PassState, Position, Rules, SearchLimits,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use numpy::PyArray1;
use pyo3::prelude::*;

use crate::errors::{bad_argument, count_error, geometry, no_memory};
use crate::game::PyGameCore;
use crate::rules::RulesArg;
use crate::wait::Wait;

/// Work a native loop does on a game of any capacity.
trait OnGame: Send {
    type Out: Send;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> Self::Out;
}

/// Perft to a depth, given up (None) once the flag is raised.
struct Perft<'a>(u32, &'a AtomicBool);

impl OnGame for Perft<'_> {
    type Out = Option<u64>;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> Option<u64> {
        perft_until(game, self.0, self.1)
    }
}

fn with_state<const N: usize>(mut game: Game<N>, passes: PassState, lost: [u32; 2]) -> Game<N> {
    game.passes = passes;
    game.lost = lost;
    game
}

/// A native game as `game` stands: its board (forked), the side to move, its ending and
/// its pass state, and the stones lost.
fn native_game(
    game: &Bound<'_, PyGameCore>,
) -> PyResult<(AnyPosition, Color, Ending, PassState, [u32; 2])> {
    let (board, c, ending, passes) = game.read()?.native_state(game.py())?;
    let mut b = board.bind(game.py()).write()?;
    Ok((b.pos.fork(), c, ending, passes, b.lost))
}

/// Runs `op` on a native game made from a native state (see [`native_game`]).
fn run_native<T: OnGame>(
    (pos, c, ending, passes, lost): (AnyPosition, Color, Ending, PassState, [u32; 2]),
    op: &T,
) -> T::Out {
    match pos {
        AnyPosition::Small(p) => op.run(&mut with_state(
            Game::with_ending(*p, c, ending),
            passes,
            lost,
        )),
        AnyPosition::Medium(p) => op.run(&mut with_state(
            Game::with_ending(*p, c, ending),
            passes,
            lost,
        )),
        AnyPosition::Large(p) => op.run(&mut with_state(
            Game::with_ending(*p, c, ending),
            passes,
            lost,
        )),
    }
}

/// Runs `op` without the GIL on a native game made from `game` as it stands.
fn with_game<T: OnGame>(py: Python<'_>, game: &Bound<'_, PyGameCore>, op: T) -> PyResult<T::Out> {
    let state = native_game(game)?;
    Ok(py.detach(move || run_native(state, &op)))
}

/// The number of legal move sequences of exactly `depth` moves from `game` as it stands.
#[pyfunction]
#[pyo3(name = "perft")]
fn perft_py(py: Python<'_>, game: &Bound<'_, PyGameCore>, depth: u32) -> PyResult<u64> {
    let stop = AtomicBool::new(false);
    let state = native_game(game)?;
    let op = Perft(depth, &stop);
    let counted = interruptible(py, &stop, move || run_native(state, &op))?;
    // None only once the flag was raised, which `interruptible` answers with the signal.
    counted.ok_or_else(|| count_error(CountError::Stopped))
}

/// The stack of the thread `interruptible` starts: room for deep recursions (perft's
/// depth is bounded in Python, `ikeda.game.MAX_PERFT_DEPTH`).
const WORK_STACK: usize = 64 << 20;

/// Runs `work` on a thread of its own while the caller waits without the GIL, looking
/// at pending signals every [`SIGNAL_POLL`] (the mechanism of `count_games`): on one
/// (Ctrl-C) it raises `stop`, waits until the work sees it and returns the signal's
/// exception. The work must look at `stop` often (perft: at every inner node).
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|s| {
        let (tx, mut rx) = mpsc::channel();
        std::thread::Builder::new()
            .stack_size(WORK_STACK)
            .spawn_scoped(s, move || {
                let _ = tx.send(work());
            })
            .map_err(|e| no_memory(&format!("a thread for the work ({e})")))?;
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(SIGNAL_POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(r) => return Ok(r),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(count_error(CountError::Stopped))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = py.detach(move || rx.recv());
                return Err(e);
            }
        }
    })
}

/// The count runs on a thread of its own; the caller waits this long without the GIL
/// between two looks at pending signals (Ctrl-C stops a count within about this).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The number of complete games from `game` as it stands, visiting at most `budget`
/// positions (none: no limit). A pending signal (Ctrl-C) stops the count and raises its
/// exception.
#[pyfunction]
#[pyo3(name = "count_games", signature = (game, budget=None))]
fn count_games_py(
    py: Python<'_>,
    game: &Bound<'_, PyGameCore>,
    budget: Option<u64>,
) -> PyResult<u64> {
    let state = native_game(game)?;
    let stop = AtomicBool::new(false);
    let op = CountAll(CountLimits {
        nodes: budget,
        stop: Some(&stop),
    });
    // The count sees the flag within a few hundred thousand positions.
    interruptible(py, &stop, move || run_native(state, &op))?.map_err(count_error)
}

/// Every complete game, within the limits.
struct CountAll<'a>(CountLimits<'a>);

impl OnGame for CountAll<'_> {
    type Out = Result<u64, CountError>;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> Self::Out {
        count_games(game, self.0)
    }
}

struct Search(Rules, SearchLimits);

impl OnGame for Search {
    type Out = Result<(i64, f64, u32), NoMemory>;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> Self::Out {
        let r = search(game, &self.0, &self.1)?;
        let index = choice_index(r.choice, game.position.geometry().pass_index());
        Ok((index, r.win_rate, r.playouts))
    }
}

/// The search's choice as Python sees it: a flat index, `pass` for the pass, -1 to resign.
fn choice_index(choice: Choice, pass: usize) -> i64 {
    match choice {
        Choice::Play(i) => i as i64,
        Choice::Pass => pass as i64,
        Choice::Resign => -1,
    }
}

/// One search of `game` by `op` (`Search` or `Analyze`) under `rules` (a native ruleset)
/// and `limits`; a tree that cannot be allocated is a MemoryError naming the playouts.
fn run_search<T, O: OnGame<Out = Result<T, NoMemory>>>(
    py: Python<'_>,
    game: &Bound<'_, PyGameCore>,
    rules: RulesArg,
    limits: SearchLimits,
    op: fn(Rules, SearchLimits) -> O,
) -> PyResult<T> {
    let playouts = limits.playouts;
    with_game(py, game, op(rules.native()?, limits))?
        .map_err(|NoMemory| no_memory(&format!("the search tree of {playouts} playouts")))
}

/// Monte-Carlo tree search from `game` as it stands, counted under `rules` (see
/// ikeda-core's `mcts` module): `(move, win_rate, playouts)`, the move a flat index
/// (`w*h` = pass, -1 = resign).
#[pyfunction]
#[pyo3(name = "mcts", signature = (game, rules, playouts, seconds=0.0, seed=1, resign_below=0.0))]
fn mcts_py(
    py: Python<'_>,
    game: &Bound<'_, PyGameCore>,
    rules: RulesArg,
    playouts: u32,
    seconds: f64,
    seed: u64,
    resign_below: f64,
) -> PyResult<(i64, f64, u32)> {
    let limits = search_limits(playouts, seconds, seed, resign_below)?;
    run_search(py, game, rules, limits, Search)
}

/// The limits of one search, its time bounded to a day (the clock's share of a long game is
/// capped to the same bound in Python).
fn search_limits(
    playouts: u32,
    seconds: f64,
    seed: u64,
    resign_below: f64,
) -> PyResult<SearchLimits> {
    if !seconds.is_finite() || !(0.0..=86_400.0).contains(&seconds) {
        return Err(bad_argument(format!(
            "seconds must be within 0..=86400, not {seconds}"
        )));
    }
    Ok(SearchLimits {
        playouts,
        seconds,
        seed,
        resign_below,
    })
}

/// One root move of an analysis: `(flat index, visits, wins, margin sum, pv)`.
type MoveTuple = (usize, u32, f64, f64, Vec<usize>);
/// `(move, win_rate, playouts, root moves most visited first, ownership, candidates)`.
type AnalysisTuple = (i64, f64, u32, Vec<MoveTuple>, Vec<f64>, usize);

struct Analyze(Rules, SearchLimits);

impl OnGame for Analyze {
    type Out = Result<AnalysisTuple, NoMemory>;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> Self::Out {
        let a = analyze(game, &self.0, &self.1)?;
        let pass = game.position.geometry().pass_index();
        let index = choice_index(a.result.choice, pass);
        let moves = a
            .moves
            .into_iter()
            .map(|m| {
                let pv = m.pv.into_iter().map(|p| p.unwrap_or(pass)).collect();
                (m.mv.unwrap_or(pass), m.visits, m.wins, m.margin_sum, pv)
            })
            .collect();
        Ok((
            index,
            a.result.win_rate,
            a.result.playouts,
            moves,
            a.ownership,
            a.candidates,
        ))
    }
}

/// [`mcts_py`] and what the search saw, for GUIs' analysis commands: `(move, win_rate,
/// playouts, [(move, visits, wins, margin sum, pv)] most visited first, ownership
/// (+1 Black .. -1 White per point), candidate moves)`; moves are flat indices.
#[pyfunction]
#[pyo3(name = "mcts_analyze", signature = (game, rules, playouts, seconds=0.0, seed=1))]
fn mcts_analyze_py(
    py: Python<'_>,
    game: &Bound<'_, PyGameCore>,
    rules: RulesArg,
    playouts: u32,
    seconds: f64,
    seed: u64,
) -> PyResult<AnalysisTuple> {
    let limits = search_limits(playouts, seconds, seed, 0.0)?;
    run_search(py, game, rules, limits, Analyze)
}

/// `(moves, ended, first_passer, black_half_points, white_half_points)`.
type RandomGameTuple = (Vec<usize>, bool, Option<u8>, i32, i32);

/// A random game from the empty board, Black first (see ikeda-core's `playout` module for
/// the policy), scored under its ruleset.
#[pyfunction]
#[pyo3(name = "random_game", signature = (width, height, rules, seed, pass_probability=0.0, max_moves=None))]
fn random_game_py(
    py: Python<'_>,
    width: i64,
    height: i64,
    rules: RulesArg,
    seed: u64,
    pass_probability: f64,
    max_moves: Option<usize>,
) -> PyResult<RandomGameTuple> {
    let geo = geometry(width, height)?;
    let rules = rules.native()?;
    let cap = max_moves.unwrap_or_else(|| move_cap(geo));
    let g = py
        .detach(move || with_tier!(geo, N => random_game(Game::with_ending(Position::<N>::new(geo, rules.play), Color::Black, rules.ending), &rules, seed, pass_probability, cap)))
        .map_err(|NoMemory| no_memory(&format!("a random game capped at {cap} moves")))?;
    Ok((
        g.moves,
        g.ended,
        g.first_passer.map(|c| c as u8),
        g.score.black,
        g.score.white,
    ))
}

/// Games `first..first + count` of a seeded run, on `threads` threads (0 = all cores),
/// without the GIL: `(margin, margin_area2, first_passer, length, capped)` as numpy arrays.
#[pyfunction]
#[pyo3(signature = (width, height, rules, seed, first, count, threads=0, pass_probability=0.0, max_moves=None))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    width: i64,
    height: i64,
    rules: RulesArg,
    seed: u64,
    first: u64,
    count: usize,
    threads: usize,
    pass_probability: f64,
    max_moves: Option<usize>,
) -> PyResult<SimulateArrays<'py>> {
    let geo = geometry(width, height)?;
    let rules = rules.native()?;
    let cap = max_moves.unwrap_or_else(|| move_cap(geo));
    if !(0.0..=1.0).contains(&pass_probability) {
        return Err(bad_argument(format!(
            "pass_probability must be in [0, 1], not {pass_probability}"
        )));
    }
    let pool = if threads == 1 {
        None
    } else {
        Some(crate::thread_pool(threads)?)
    };
    let mut games = Vec::new();
    games
        .try_reserve_exact(count)
        .map_err(|_| crate::errors::no_memory(&format!("{count} games")))?;
    // One thread plays on this one: no hand-off to a pool thread, which would be woken
    // for each call and spin idle after it.
    py.detach(|| match &pool {
        None => ikeda_core::simulate_serial_into(
            &mut games,
            geo,
            &rules,
            seed,
            first,
            count,
            pass_probability,
            cap,
        ),
        Some(pool) => pool.install(|| {
            ikeda_core::simulate_into(
                &mut games,
                geo,
                &rules,
                seed,
                first,
                count,
                pass_probability,
                cap,
            )
        }),
    })
    .map_err(|NoMemory| no_memory(&format!("games capped at {cap} moves")))?;
    Ok((
        PyArray1::from_iter(py, games.iter().map(|g| f64::from(g.margin) / 2.0)),
        PyArray1::from_iter(py, games.iter().map(|g| f64::from(g.margin_area2) / 2.0)),
        PyArray1::from_iter(py, games.iter().map(|g| g.first_passer as i8)),
        PyArray1::from_iter(py, games.iter().map(|g| g.length as i32)),
        PyArray1::from_iter(py, games.iter().map(|g| g.capped)),
    ))
}

type SimulateArrays<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<bool>>,
);

/// The number of colourings of a `width` x `height` board in which every chain has a
/// liberty.
#[pyfunction]
#[pyo3(name = "count_legal_positions")]
fn count_legal_positions_py(py: Python<'_>, width: i64, height: i64) -> PyResult<u64> {
    let geo = geometry(width, height)?;
    Ok(py.detach(move || count_legal_positions(geo)))
}

/// The default move cap of random games and matches on a `width` x `height` board.
#[pyfunction]
#[pyo3(name = "move_cap")]
fn move_cap_py(width: i64, height: i64) -> PyResult<usize> {
    Ok(move_cap(geometry(width, height)?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(move_cap_py, m)?)?;
    m.add_function(wrap_pyfunction!(perft_py, m)?)?;
    m.add_function(wrap_pyfunction!(count_games_py, m)?)?;
    m.add("COUNT_GAMES_MAX_POINTS", ikeda_core::COUNT_GAMES_MAX_POINTS)?;
    m.add_function(wrap_pyfunction!(mcts_py, m)?)?;
    m.add_function(wrap_pyfunction!(mcts_analyze_py, m)?)?;
    m.add_function(wrap_pyfunction!(random_game_py, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(count_legal_positions_py, m)?)?;
    Ok(())
}
