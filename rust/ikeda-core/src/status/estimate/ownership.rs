//! The opt-in estimate for chains that no proof reached (docs/status.md, "Unresolved
//! regions"): Monte-Carlo ownership by native random playouts from the final position.
//!
//! This is not status confirmation. It decides only the chains of regions the search
//! refused, each result is marked as estimated, and it never overrides a proven status.
//! The playouts use the native policy (uniform among legal plays that do not fill one's
//! own true eye) with two additions, [`answer_atari`] and no [`self_atari`]; two passes in
//! succession end them, half start with Black to move and half with White, and playout k
//! is seeded with `game_seed(seed, k)`: the estimate is the same whatever the thread count.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::board::{Board, SetupError};
use crate::color::{Cell, Color};
use crate::game::{Ending, Game};
use crate::geometry::{Geometry, Loc};
use crate::playout::{game_seed, policy_play_where};
use crate::position::{PlayRules, Position};
use crate::status::limits::{PLAYOUT_EXTRA_MOVES, PLAYOUT_MOVES_PER_POINT};
use crate::territory::ownership;

/// For each point (flat index), in how many of `playouts` random playouts from `cells`
/// Black owned it at the end, and in how many White did (stones or territory).
pub(crate) fn ownership_counts(
    geo: Geometry,
    cells: &[u8],
    playouts: u32,
    seed: u64,
) -> Result<Vec<[u32; 2]>, SetupError> {
    let pick = |c: u8| {
        (0..geo.points())
            .filter(|&p| cells[p] == c)
            .collect::<Vec<_>>()
    };
    let (black, white) = (pick(1), pick(2));
    let points = geo.points();
    let cap = PLAYOUT_MOVES_PER_POINT * points + PLAYOUT_EXTRA_MOVES;
    crate::with_tier!(geo, N => {
        let start = Position::<N>::from_setup(geo, PlayRules::IKEDA, &black, &white)?;
        Ok((0..u64::from(playouts))
            .into_par_iter()
            .fold(
                || vec![[0u32; 2]; points],
                |mut acc, k| {
                    let first = if k % 2 == 0 { Color::Black } else { Color::White };
                    let mut game = Game::with_ending(start.clone(), first, Ending::TwoPasses);
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(seed, k));
                    let mut played = 0;
                    while !game.passes.over && played < cap {
                        let mv = answer_atari(&game).or_else(|| {
                            policy_play_where(&mut game, &mut rng, |g, p| {
                                !self_atari(g.position.board(), p, g.to_move)
                            })
                        });
                        // Both choose among legal plays only.
                        game.play_unchecked(mv);
                        played += 1;
                    }
                    for (p, o) in ownership(game.position.board(), &[]).into_iter().enumerate() {
                        if o == 1 || o == 2 {
                            acc[p][usize::from(o - 1)] += 1;
                        }
                    }
                    acc
                },
            )
            .reduce(
                || vec![[0u32; 2]; points],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        x[0] += y[0];
                        x[1] += y[1];
                    }
                    a
                },
            ))
    })
}

/// The reply to a play that made an atari, before the uniform draw: capture the chain of
/// the play itself when it is in atari, else extend a chain of the side to move that it
/// put in atari, where the extension leaves that chain at least two liberties. Uniform
/// playouts let a large group die of one unanswered atari, which called living groups
/// dead in real final positions; this reply is what a player does there.
fn answer_atari<const N: usize>(game: &Game<N>) -> Option<Loc> {
    if game.passes.last_pass {
        return None;
    }
    let (last, ..) = game.position.last_play()?;
    let board = game.position.board();
    // `last_liberty` is the one liberty of a chain in atari, `None` otherwise.
    if let Some(lib) = board.last_liberty(last) {
        if game.check_empty(lib).is_ok() {
            return Some(lib);
        }
    }
    let own = Cell::stone(game.to_move);
    board.neighbours(last).into_iter().find_map(|q| {
        let lib = (board.cell(q) == own)
            .then(|| board.last_liberty(q))
            .flatten()?;
        (game.check_empty(lib).is_ok() && liberties_after(board, lib, game.to_move).0 >= 2)
            .then_some(lib)
    })
}

/// Whether a play of `c` at the empty point `p` captures nothing and leaves a chain of two
/// or more stones in atari: the move by which random playouts kill their own large
/// groups. A single stone's self-atari (a throw-in) stays allowed.
fn self_atari<const N: usize>(board: &Board<N>, p: Loc, c: Color) -> bool {
    if board.empty_neighbours(p) >= 2 || board.shape(p, c).captures {
        return false;
    }
    let (libs, stones) = liberties_after(board, p, c);
    libs < 2 && stones >= 2
}

/// The liberties (counted up to 2) and the stones (counted up to 2) of the chain a play of
/// `c` at the empty point `p` makes, captures aside.
fn liberties_after<const N: usize>(board: &Board<N>, p: Loc, c: Color) -> (usize, usize) {
    let own = Cell::stone(c);
    let mut libs: [Loc; 2] = [p; 2];
    let (mut n, mut stones) = (0, 1);
    let mut add = |q: Loc, n: &mut usize| {
        if *n < 2 && q != p && board.cell(q) == Cell::Empty && !libs[..*n].contains(&q) {
            libs[*n] = q;
            *n += 1;
        }
    };
    for q in board.neighbours(p) {
        add(q, &mut n);
    }
    for q in board.neighbours(p) {
        if board.cell(q) != own {
            continue;
        }
        stones = 2;
        for t in board.chain(q) {
            for r in board.neighbours(t) {
                add(r, &mut n);
            }
            if n >= 2 {
                return (n, stones);
            }
        }
    }
    (n, stones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PlayRules;
    use crate::tiers::CELLS_9;

    fn game(rows: &[&str], to_move: Color, last: Option<(usize, usize)>) -> Game<CELLS_9> {
        let mut game = Game::new(
            Position::from_diagram(rows, PlayRules::IKEDA).unwrap(),
            to_move,
        );
        if let Some((x, r)) = last {
            // The opponent's last play, made on the diagram with that point empty.
            let geo = game.position.geometry();
            game.to_move = to_move.opponent();
            game.play(Some(geo.loc(x, r))).unwrap();
        }
        game
    }

    fn rows<'a>(top: &[&'a str]) -> Vec<&'a str> {
        let mut rows = top.to_vec();
        rows.resize(9, ".........");
        rows
    }

    #[test]
    fn a_throw_in_is_no_self_atari_and_filling_a_groups_second_liberty_is() {
        let g = game(&rows(&["..O......", ".O......."]), Color::Black, None);
        let (b, geo) = (g.position.board(), g.position.geometry());
        // A single stone left with one liberty (a throw-in) stays allowed.
        assert_eq!(liberties_after(b, geo.loc(1, 0), Color::Black), (1, 1));
        assert!(!self_atari(b, geo.loc(1, 0), Color::Black));

        let g = game(
            &rows(&["..XO.....", "XXXO.....", "OOOO....."]),
            Color::Black,
            None,
        );
        let (b, geo) = (g.position.board(), g.position.geometry());
        // Black's group has two liberties, (0, 0) and (1, 0): filling either leaves it in
        // atari.
        assert!(self_atari(b, geo.loc(0, 0), Color::Black));
        assert!(self_atari(b, geo.loc(1, 0), Color::Black));
        assert_eq!(liberties_after(b, geo.loc(1, 0), Color::Black), (1, 2));
        // White's single stone there (a throw-in) stays allowed.
        assert!(!self_atari(b, geo.loc(1, 0), Color::White));
        // An open point is never one.
        assert!(!self_atari(b, geo.loc(5, 5), Color::Black));
        assert_eq!(liberties_after(b, geo.loc(5, 5), Color::Black), (2, 1));
    }

    #[test]
    fn an_atari_is_answered_by_a_capture_or_by_an_extension_that_frees() {
        // White's last play at (3, 2) has one liberty, (2, 2): Black captures there.
        let shape = ["..XX.....", ".X..X....", "..XX....."];
        let g = game(
            &rows(&[".........", shape[0], shape[1], shape[2]]),
            Color::Black,
            Some((3, 2)),
        );
        let geo = g.position.geometry();
        assert_eq!(answer_atari(&g), Some(geo.loc(2, 2)));

        // White's last play at (2, 8) leaves Black's (1, 8) one liberty, (1, 7): the
        // extension there has three.
        let mut r = rows(&[]);
        r[8] = "OX.......";
        let mut g = game(&r, Color::Black, Some((2, 8)));
        let geo = g.position.geometry();
        assert_eq!(answer_atari(&g), Some(geo.loc(1, 7)));
        // After a pass there is nothing to answer.
        g.play(None).unwrap();
        assert_eq!(answer_atari(&g), None);

        // An extension that stays in atari is no answer.
        let mut r = rows(&[]);
        r[7] = ".O.......";
        r[8] = ".X.......";
        let g = game(&r, Color::Black, Some((2, 8)));
        assert_eq!(answer_atari(&g), None);
    }
}
