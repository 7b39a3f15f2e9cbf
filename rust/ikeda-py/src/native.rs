//! Native loops that run whole games without Python: perft, random games, legal-position
//! counts. Inputs are extracted first, then the GIL is released for the work.

use ikeda_core::{count_legal_positions, perft, random_game, with_position, with_tier, Color, Game, PassState, PlayRules, Position};
use pyo3::prelude::*;

use crate::board::{color_arg, PyBoard};
use crate::errors::{geometry, IkedaError};

fn passer(p: Option<u8>) -> PyResult<Option<Color>> {
    p.map(color_arg).transpose()
}

/// The number of legal move sequences of exactly `depth` moves from the given state.
#[pyfunction]
#[pyo3(name = "perft", signature = (board, to_move, depth, first_passer=None, run=0, over=false))]
fn perft_py(py: Python<'_>, board: &Bound<'_, PyBoard>, to_move: u8, depth: u32, first_passer: Option<u8>, run: u8, over: bool) -> PyResult<u64> {
    let (c, passes) = (color_arg(to_move)?, PassState { first_passer: passer(first_passer)?, run, over });
    let pos = board.borrow_mut().pos.fork();
    Ok(py.detach(move || {
        with_position!(pos, p => {
            let mut game = Game::new(*p, c);
            game.passes = passes;
            perft(&mut game, depth)
        })
    }))
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
    m.add_function(wrap_pyfunction!(random_game_py, m)?)?;
    m.add_function(wrap_pyfunction!(count_legal_positions_py, m)?)?;
    Ok(())
}
