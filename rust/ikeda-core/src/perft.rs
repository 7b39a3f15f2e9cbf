//! Perft: the number of legal move sequences of exactly `depth` moves from a position,
//! passes included; a sequence that ends the game before `depth` contributes nothing.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;
use crate::geometry::Loc;

/// Counts the move sequences of length `depth` from `game` (which is left unchanged).
///
/// ```
/// use ikeda_core::{Game, Geometry, PlayRules, Position, Color, perft};
/// let mut g = Game::new(Position::<{ ikeda_core::MAX_CELLS }>::new(Geometry::new(2, 2).unwrap(), PlayRules::IKEDA), Color::Black);
/// assert_eq!(perft(&mut g, 1), 5); // four plays and a pass
/// ```
pub fn perft<const N: usize>(game: &mut Game<N>, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(game, depth, &never).unwrap_or(0)
}

/// [`perft`] that looks at `stop` at every node above the leaves and gives up (None,
/// `game` restored) once another thread raises it: how a caller interrupts a long count.
pub fn perft_until<const N: usize>(
    game: &mut Game<N>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if game.passes.over {
        return Some(0);
    }
    if depth == 1 {
        // Every legal play, and the pass (always legal while the game goes on).
        let mut plays = 0;
        game.for_each_legal(|_, _| plays += 1);
        return Some(plays + 1);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut plays: Vec<Loc> = Vec::new();
    game.for_each_legal(|_, l| plays.push(l));
    let mut total = 0;
    for mv in std::iter::once(None).chain(plays.into_iter().map(Some)) {
        let undo = game.make(mv);
        let below = perft_until(game, depth - 1, stop);
        game.undo(undo);
        total += below?;
    }
    Some(total)
}
