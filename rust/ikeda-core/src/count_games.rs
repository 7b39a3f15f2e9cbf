//! Counting complete games: every legal sequence of moves from a position to the end of
//! the game, enumerated with play and undo.
//!
//! Published anchors (Tromp & Farnebäck, "Combinatorics of Go"), Tromp-Taylor rules from
//! the empty board, Black first: 1x1 = 1, 1x2 = 9, 1x3 = 907, 1x4 = 2,098,407,841,
//! 2x2 = 386,356,909,593.

use rayon::prelude::*;

use crate::game::Game;
use crate::geometry::Loc;

/// Depth of the prefix tree below which subtrees are counted in parallel: enough subtrees
/// to keep every core busy to the end, few enough that copying their roots costs nothing.
const SPLIT_DEPTH: usize = 5;

/// The number of complete games from `game` (left unchanged). A game already over counts
/// as one. The subtrees below the first [`SPLIT_DEPTH`] moves are counted in parallel on
/// the current rayon pool, each from its own copy of the game.
pub fn count_games<const N: usize>(game: &mut Game<N>) -> u64 {
    let mut roots = Vec::new();
    let ended = split(game, SPLIT_DEPTH, &mut roots);
    ended + roots.into_par_iter().map(|mut g| count_from(&mut g)).sum::<u64>()
}

/// Games that end within `depth` moves, and a copy of every game still going after
/// `depth` moves (pushed to `roots`).
fn split<const N: usize>(game: &mut Game<N>, depth: usize, roots: &mut Vec<Game<N>>) -> u64 {
    if game.passes.over {
        return 1;
    }
    if depth == 0 {
        roots.push(game.clone());
        return 0;
    }
    let mut plays = Vec::new();
    game.for_each_legal(|_, l| plays.push(l));
    let mut total = 0;
    for mv in std::iter::once(None).chain(plays.into_iter().map(Some)) {
        let undo = game.make(mv);
        total += split(game, depth - 1, roots);
        game.undo(undo);
    }
    total
}

/// [`count_games`] on one thread.
fn count_from<const N: usize>(game: &mut Game<N>) -> u64 {
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
    let mut total = count_from(game);
    game.undo(undo);
    for &loc in &plays[..n] {
        let undo = game.make(Some(loc));
        total += count_from(game);
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

    /// The parallel count is the one-thread count, under every ending, on one thread or
    /// three.
    #[test]
    fn split_counts_equal_the_serial_ones() {
        let geo = Geometry::new(3, 1).unwrap();
        for ending in [Ending::FirstPass, Ending::TwoPasses, Ending::EqualMoves] {
            for rules in [PlayRules::IKEDA, TROMP_TAYLOR] {
                let mut g = Game::with_ending(Position::<CELLS_9>::new(geo, rules), Color::Black, ending);
                let serial = count_from(&mut g);
                for threads in [1, 3] {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                    assert_eq!(pool.install(|| count_games(&mut g)), serial, "{ending:?} {rules:?}");
                }
            }
        }
    }
}
