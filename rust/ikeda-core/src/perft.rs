//! Perft: the number of legal move sequences of exactly `depth` moves from a position,
//! passes included; a sequence that ends the game before `depth` contributes nothing.

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
    if depth == 0 {
        return 1;
    }
    if game.passes.over {
        return 0;
    }
    if depth == 1 {
        // Every legal play, and the pass (always legal while the game goes on).
        let mut plays = 0;
        game.for_each_legal(|_, _| plays += 1);
        return plays + 1;
    }
    let (c, saved) = (game.to_move, game.passes);
    let mut plays: Vec<Loc> = Vec::new();
    game.for_each_legal(|_, l| plays.push(l));
    game.to_move = c.opponent();
    game.passes = saved.pass(c, game.ending);
    let mut total = perft(game, depth - 1);
    game.passes = saved.play(c, game.ending);
    for loc in plays {
        game.position.play_unchecked(loc, c);
        total += perft(game, depth - 1);
        game.position.undo();
    }
    game.passes = saved;
    game.to_move = c;
    total
}
