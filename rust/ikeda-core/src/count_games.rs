//! Counting complete games: every legal sequence of moves from a position to the end of
//! the game, enumerated with play and undo.
//!
//! Published anchors (Tromp & Farnebäck, "Combinatorics of Go"), Tromp-Taylor rules from
//! the empty board, Black first: 1x1 = 1, 1x2 = 9, 1x3 = 907, 1x4 = 2,098,407,841,
//! 2x2 = 386,356,909,593.

use crate::game::Game;
use crate::geometry::Loc;

/// The number of complete games from `game` (left unchanged). A game already over counts
/// as one.
pub fn count_games<const N: usize>(game: &mut Game<N>) -> u64 {
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
    let mut total = count_games(game);
    game.undo(undo);
    for &loc in &plays[..n] {
        let undo = game.make(Some(loc));
        total += count_games(game);
        game.undo(undo);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Ending;
    use crate::{Color, Geometry, KoRule, PlayRules, Position, CELLS_9};

    const TROMP_TAYLOR: PlayRules = PlayRules { ko: KoRule::PositionalSuperko, suicide: true };

    fn count(w: usize, h: usize, rules: PlayRules, ending: Ending) -> u64 {
        let geo = Geometry::new(w, h).unwrap();
        count_games(&mut Game::with_ending(Position::<CELLS_9>::new(geo, rules), Color::Black, ending))
    }

    #[test]
    fn tromp_taylor_published_counts() {
        assert_eq!(count(1, 1, TROMP_TAYLOR, Ending::TwoPasses), 1);
        assert_eq!(count(2, 1, TROMP_TAYLOR, Ending::TwoPasses), 9);
        assert_eq!(count(1, 2, TROMP_TAYLOR, Ending::TwoPasses), 9);
        assert_eq!(count(3, 1, TROMP_TAYLOR, Ending::TwoPasses), 907);
    }
}
