//! Perft: the number of legal move sequences of exactly `depth` moves from a position,
//! passes included; a sequence that ends the game (Rule 6) before `depth` contributes
//! nothing.

use crate::game::{Game, PassState};

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
    let c = game.to_move;
    let saved: PassState = game.passes;
    let geo = game.position.geometry();
    if depth == 1 {
        // Every legal play, and the pass (always legal while the game goes on).
        let mut plays = 0;
        game.position.for_each_legal(c, |_, _| plays += 1);
        return plays + 1;
    }
    game.passes = saved.pass(c);
    game.to_move = c.opponent();
    let mut total = perft(game, depth - 1);
    game.passes = saved.play();
    for loc in geo.locs() {
        if game.position.check(loc, c).is_err() {
            continue;
        }
        game.position.play_unchecked(loc, c);
        total += perft(game, depth - 1);
        game.position.undo();
    }
    game.passes = saved;
    game.to_move = c;
    total
}
