//! Native loops that run whole games without Python: perft, random games, legal-position
//! counts. Inputs are extracted first, then the GIL is released for the work.

use ikeda_core::{
    count_games, count_legal_positions, perft, random_game, with_tier, AnyPosition, Color, Ending, Game, PassState, PlayRules, Position,
};
use pyo3::prelude::*;

use crate::board::{color_arg, PyBoard};
use crate::errors::{geometry, IkedaError};

fn passer(p: Option<u8>) -> PyResult<Option<Color>> {
    p.map(color_arg).transpose()
}

fn ending_arg(ending: &str) -> PyResult<Ending> {
    match ending {
        "first-pass" => Ok(Ending::FirstPass),
        "two-passes" => Ok(Ending::TwoPasses),
        "equal-moves" => Ok(Ending::EqualMoves),
        _ => Err(IkedaError::new_err(format!("unknown ending {ending:?}"))),
    }
}

/// The native pass state of a game, as the Python layer keeps it.
#[derive(FromPyObject)]
struct State {
    first_passer: Option<u8>,
    run: u8,
    prelim: bool,
    balance: i32,
    last_pass: bool,
    over: bool,
}

impl State {
    fn native(&self) -> PyResult<PassState> {
        Ok(PassState {
            first_passer: passer(self.first_passer)?,
            run: self.run,
            prelim: self.prelim,
            balance: self.balance,
            last_pass: self.last_pass,
            over: self.over,
        })
    }
}

/// Work a native loop does on a game of any capacity.
trait OnGame: Send {
    type Out: Send;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> Self::Out;
}

struct Perft(u32);

impl OnGame for Perft {
    type Out = u64;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> u64 {
        perft(game, self.0)
    }
}

struct CountGames;

impl OnGame for CountGames {
    type Out = u64;
    fn run<const N: usize>(&self, game: &mut Game<N>) -> u64 {
        count_games(game)
    }
}

/// Runs `op` without the GIL on a native game made from a board (forked), the side to
/// move, the ending and the pass state.
fn with_game<T: OnGame>(py: Python<'_>, board: &Bound<'_, PyBoard>, to_move: u8, ending: &str, state: &State, op: T) -> PyResult<T::Out> {
    let (c, ending, passes) = (color_arg(to_move)?, ending_arg(ending)?, state.native()?);
    let pos = board.borrow_mut().pos.fork();
    Ok(py.detach(move || match pos {
        AnyPosition::Small(p) => op.run(&mut Game { position: *p, to_move: c, ending, passes }),
        AnyPosition::Medium(p) => op.run(&mut Game { position: *p, to_move: c, ending, passes }),
        AnyPosition::Large(p) => op.run(&mut Game { position: *p, to_move: c, ending, passes }),
    }))
}

/// The number of legal move sequences of exactly `depth` moves from the given state.
#[pyfunction]
#[pyo3(name = "perft")]
fn perft_py(py: Python<'_>, board: &Bound<'_, PyBoard>, to_move: u8, ending: &str, state: State, depth: u32) -> PyResult<u64> {
    with_game(py, board, to_move, ending, &state, Perft(depth))
}

/// The number of complete games from the given state.
#[pyfunction]
#[pyo3(name = "count_games")]
fn count_games_py(py: Python<'_>, board: &Bound<'_, PyBoard>, to_move: u8, ending: &str, state: State) -> PyResult<u64> {
    with_game(py, board, to_move, ending, &state, CountGames)
}

/// `(moves, ended, first_passer, black_half_points, white_half_points)`.
type RandomGameTuple = (Vec<usize>, bool, Option<u8>, i32, i32);

/// A random game from the empty board (see ikeda-core's `playout` module for the policy):
/// `(moves, ended, first_passer, black_half_points, white_half_points)`.
#[pyfunction]
#[pyo3(name = "random_game", signature = (width, height, komi, seed, pass_probability=0.0, max_moves=None))]
fn random_game_py(
    py: Python<'_>,
    width: i64,
    height: i64,
    komi: f64,
    seed: u64,
    pass_probability: f64,
    max_moves: Option<usize>,
) -> PyResult<RandomGameTuple> {
    let geo = geometry(width, height)?;
    let komi_half = (komi * 2.0).round();
    if !komi_half.is_finite() || komi_half.abs() > 1e6 || (komi_half - komi * 2.0).abs() > 1e-9 {
        return Err(IkedaError::new_err(format!("komi {komi} is not a multiple of 1/2")));
    }
    let cap = max_moves.unwrap_or(4 * geo.points() + 16);
    let g = py.detach(move || {
        with_tier!(geo, N => random_game(Game::new(Position::<N>::new(geo, PlayRules::IKEDA), Color::Black), komi_half as i32, seed, pass_probability, cap))
    });
    Ok((g.moves, g.ended, g.first_passer.map(|c| c as u8), g.score.black, g.score.white))
}

/// The number of colourings of a `width` x `height` board in which every chain has a
/// liberty.
#[pyfunction]
#[pyo3(name = "count_legal_positions")]
fn count_legal_positions_py(py: Python<'_>, width: i64, height: i64) -> PyResult<u64> {
    let geo = geometry(width, height)?;
    Ok(py.detach(move || count_legal_positions(geo)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(perft_py, m)?)?;
    m.add_function(wrap_pyfunction!(count_games_py, m)?)?;
    m.add_function(wrap_pyfunction!(random_game_py, m)?)?;
    m.add_function(wrap_pyfunction!(count_legal_positions_py, m)?)?;
    Ok(())
}
