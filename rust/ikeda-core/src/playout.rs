//! Random games played natively under Area Rules III, seeded and reproducible.
//!
//! Policy: with probability `pass_probability` pass; otherwise a uniform choice among the
//! legal plays that do not fill one of the player's own eyes; pass when there is none.
//! An eye here is an empty point whose on-board neighbours are all the player's stones
//! and whose diagonal points hold at most one opponent stone in the middle of the board
//! (none on the edge or in a corner): the usual "true eye" test of playout engines.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::color::{Cell, Color};
use crate::game::{area3_score, Game, HalfPoints};
use crate::geometry::Loc;

/// A finished (or capped) random game.
#[derive(Clone, Debug)]
pub struct RandomGame {
    /// Flat indices, `w*h` for a pass.
    pub moves: Vec<usize>,
    /// The game reached its Rule 6 end (false when the move cap stopped it).
    pub ended: bool,
    pub first_passer: Option<Color>,
    pub score: HalfPoints,
}

/// Whether `loc` is an eye of `c` (see the module docs).
#[must_use]
pub fn is_eye<const N: usize>(game: &Game<N>, loc: Loc, c: Color) -> bool {
    let board = game.position.board();
    let s = board.geometry().stride;
    let own = Cell::stone(c);
    if [loc - s, loc - 1, loc + 1, loc + s].iter().any(|&q| !matches!(board.cell(q), Cell::Wall) && board.cell(q) != own) {
        return false;
    }
    let diagonals = [loc - s - 1, loc - s + 1, loc + s - 1, loc + s + 1];
    let mut off_board = 0;
    let mut enemy = 0;
    for q in diagonals {
        match board.cell(q) {
            Cell::Wall => off_board += 1,
            cell if cell == Cell::stone(c.opponent()) => enemy += 1,
            _ => {}
        }
    }
    enemy + usize::from(off_board > 0) < 2
}

/// Plays one random game from `game` to its end or to `max_moves` moves.
pub fn random_game<const N: usize>(mut game: Game<N>, komi_half: i32, seed: u64, pass_probability: f64, max_moves: usize) -> RandomGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let geo = game.position.geometry();
    let mut moves = Vec::new();
    let mut candidates: Vec<Loc> = Vec::with_capacity(geo.points());
    let pass_threshold = (pass_probability.clamp(0.0, 1.0) * (u64::MAX as f64)) as u64;
    while !game.passes.over && moves.len() < max_moves {
        let c = game.to_move;
        let mut mv = None;
        if pass_probability <= 0.0 || rng.next_u64() >= pass_threshold {
            candidates.clear();
            game.for_each_legal(|_, l| {
                if !is_eye(&game, l, c) {
                    candidates.push(l);
                }
            });
            if !candidates.is_empty() {
                let k = ((u128::from(rng.next_u64()) * candidates.len() as u128) >> 64) as usize;
                mv = Some(candidates[k]);
            }
        }
        moves.push(mv.map_or(geo.pass_index(), |l| geo.index_of_loc(l)));
        // The move was chosen among legal ones; a refusal here would be a kernel bug.
        let _ = game.play(mv);
    }
    RandomGame {
        moves,
        ended: game.passes.over,
        first_passer: game.passes.first_passer,
        score: area3_score(&game.position, game.passes.first_passer, komi_half),
    }
}
