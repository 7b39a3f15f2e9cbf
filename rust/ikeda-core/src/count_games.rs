//! Counting complete games: every legal sequence of moves from a position to the end of
//! the game.
//!
//! Published anchors (Tromp & Farnebäck, "Combinatorics of Go"), Tromp-Taylor rules from
//! the empty board, Black first: 1x1 = 1, 1x2 = 9, 1x3 = 907, 1x4 = 2,098,407,841,
//! 2x2 = 386,356,909,593.
//!
//! [`count_games`] is the bitboard enumeration of `bitboard_count`; [`count_games_by_play`]
//! walks the same tree through [`Game`]'s own play and undo, the rules' definition at
//! full cost, and is the cross-check of the fast one in tests and benchmarks.

use crate::game::Game;
use crate::geometry::Loc;

pub use crate::bitboard_count::{
    count_games_bits as count_games, estimate_count, CountError, CountLimits, Estimate, MAX_POINTS,
};

/// The number of complete games from `game` (left unchanged) by play and undo through
/// the game, on one thread. A game already over counts as one. Precondition: every game
/// under the rules ends ([`crate::bitboard_count::finite`]); the walk recurses once per move.
pub fn count_games_by_play<const N: usize>(game: &mut Game<N>) -> u64 {
    if game.passes.over {
        return 1;
    }
    let mut plays = [0 as Loc; N];
    let mut n = 0;
    game.for_each_legal(|_, l| {
        plays[n] = l;
        n += 1;
    });
    let undo = game.make(None);
    let mut total = count_games_by_play(game);
    game.undo(undo);
    for &loc in &plays[..n] {
        let undo = game.make(Some(loc));
        total += count_games_by_play(game);
        game.undo(undo);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Ending;
    use crate::{Color, Geometry, KoRule, PlayRules, Position, CELLS_9};

    const TROMP_TAYLOR: PlayRules = PlayRules {
        ko: KoRule::PositionalSuperko,
        suicide: true,
    };

    #[test]
    fn tromp_taylor_published_counts_by_play() {
        for (w, h, n) in [(1, 1, 1), (2, 1, 9), (1, 2, 9), (3, 1, 907)] {
            let geo = Geometry::new(w, h).unwrap();
            let mut g = Game::with_ending(
                Position::<CELLS_9>::new(geo, TROMP_TAYLOR),
                Color::Black,
                Ending::TwoPasses,
            );
            assert_eq!(count_games_by_play(&mut g), n);
            assert_eq!(count_games(&g, CountLimits::default()), Ok(n));
        }
    }
}
