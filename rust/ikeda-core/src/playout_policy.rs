//! The one playout policy with atari answers, used by the bot's tree search (`mcts.rs`)
//! and by the status estimate's ownership playouts (`status/estimate/ownership.rs`).
//!
//! A move is chosen in two steps:
//! 1. an *answer* to the opponent's last play when it made an atari: the capture of a
//!    chain of that play left in atari, or the extension of a chain of the mover that it
//!    put in atari where the extension has room (see [`Extension`]); legal plays only;
//! 2. otherwise the native policy's uniform draw ([`policy_play`]: the legal plays that
//!    fill none of the mover's own eyes), optionally without the self-ataris that make
//!    random playouts kill their own large groups ([`self_atari`]).
//!
//! Uniform playouts let a large group die of one unanswered atari, which called living
//! groups dead in real final positions and makes a bot's playouts blind to captures; the
//! answer is what a player does there. The two users differ only in the options below,
//! and each keeps its seeded sequences: [`PlayoutPolicy::TREE_SEARCH`] and
//! [`PlayoutPolicy::OWNERSHIP`].

use rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::Board;
use crate::color::{Cell, Color};
use crate::game::Game;
use crate::geometry::Loc;
use crate::playout::{policy_play, policy_play_where};

/// What an extension of a chain in atari must gain to be an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extension {
    /// The extension point has two empty neighbours or more (a quick test of room).
    Room,
    /// The chain after the extension has two liberties or more (captures aside).
    Liberties,
}

/// How the answer is picked when there are several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// Uniformly, by one draw of the generator (drawn even for one answer).
    Uniform,
    /// The first, with no draw: the capture first, then the extensions in the order of
    /// the last play's neighbours (above, left, right, below).
    First,
}

/// The options of the playout policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlayoutPolicy {
    pub extension: Extension,
    pub pick: Pick,
    /// Whether the uniform draw leaves out [`self_atari`] plays.
    pub no_self_atari: bool,
}

impl PlayoutPolicy {
    /// The bot's tree search: its playouts' answers are drawn, and any extension with
    /// room is one.
    pub(crate) const TREE_SEARCH: PlayoutPolicy = PlayoutPolicy {
        extension: Extension::Room,
        pick: Pick::Uniform,
        no_self_atari: false,
    };

    /// The status estimate: ownership from a final position, where a group must not die
    /// of its own filling, so no self-atari, and only an extension that frees is one.
    pub(crate) const OWNERSHIP: PlayoutPolicy = PlayoutPolicy {
        extension: Extension::Liberties,
        pick: Pick::First,
        no_self_atari: true,
    };

    /// The policy's move for the side to move of `game`, `last` being the opponent's last
    /// play (`None` after a pass or where the caller has none): an answer to it if there
    /// is one, else the uniform draw, else a pass (`None`). `answers` is scratch space.
    pub(crate) fn choose<const N: usize>(
        &self,
        game: &mut Game<N>,
        last: Option<Loc>,
        rng: &mut Xoshiro256PlusPlus,
        answers: &mut Vec<Loc>,
    ) -> Option<Loc> {
        match last {
            Some(l) => self.answers(game, l, answers),
            None => answers.clear(),
        }
        if answers.is_empty() {
            return if self.no_self_atari {
                policy_play_where(game, rng, |g, p| {
                    !self_atari(g.position.board(), p, g.to_move)
                })
            } else {
                policy_play(game, rng)
            };
        }
        Some(match self.pick {
            Pick::Uniform => {
                answers[((u64::from(rng.next_u32()) * answers.len() as u64) >> 32) as usize]
            }
            Pick::First => answers[0],
        })
    }

    /// The answers to the opponent's play at `last`, into `out`, in the order of `last`
    /// then its neighbours: the capture of a chain in atari of the opponent (the chain of
    /// `last`), and the extensions of the mover's chains in atari that gain what
    /// [`Extension`] asks. Only the first with [`Pick::First`].
    pub(crate) fn answers<const N: usize>(&self, game: &Game<N>, last: Loc, out: &mut Vec<Loc>) {
        out.clear();
        let board = game.position.board();
        let s = board.geometry().stride;
        let c = game.to_move;
        for q in [last, last - s, last - 1, last + 1, last + s] {
            let cell = board.cell(q);
            if !matches!(cell, Cell::Black | Cell::White) {
                continue;
            }
            let Some(lib) = board.last_liberty(q) else {
                continue;
            };
            let capture = cell == Cell::stone(c.opponent());
            let frees = || match self.extension {
                Extension::Room => {
                    [lib - s, lib - 1, lib + 1, lib + s]
                        .iter()
                        .filter(|&&n| board.cell(n) == Cell::Empty)
                        .count()
                        >= 2
                }
                Extension::Liberties => liberties_after(board, lib, c).0 >= 2,
            };
            // A liberty is empty: the legality test of an empty point.
            if (capture || frees()) && !out.contains(&lib) && game.check_empty(lib).is_ok() {
                out.push(lib);
                if self.pick == Pick::First {
                    return;
                }
            }
        }
    }
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
    use crate::position::{PlayRules, Position};
    use crate::tiers::CELLS_9;

    /// The status estimate's answer to the last play of `game` (none after a pass).
    fn answer_atari<const N: usize>(game: &Game<N>) -> Option<Loc> {
        if game.passes.last_pass {
            return None;
        }
        let (last, ..) = game.position.last_play()?;
        let mut out = Vec::new();
        PlayoutPolicy::OWNERSHIP.answers(game, last, &mut out);
        out.first().copied()
    }

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

    #[test]
    fn the_options_differ_only_where_they_say() {
        // Black's (1, 8) is put in atari by White's (2, 8); its liberty (1, 7) has no empty
        // neighbour, but the extension joins (1, 6) and gains its liberties: an answer for
        // the estimate (liberties), none for the tree search (room).
        let mut r = rows(&[]);
        r[6] = ".X.......";
        r[7] = "O.O......";
        r[8] = "OX.......";
        let g = game(&r, Color::Black, Some((2, 8)));
        let geo = g.position.geometry();
        let last = geo.loc(2, 8);
        let mut out = Vec::new();
        PlayoutPolicy::OWNERSHIP.answers(&g, last, &mut out);
        assert_eq!(out, [geo.loc(1, 7)]);
        PlayoutPolicy::TREE_SEARCH.answers(&g, last, &mut out);
        assert!(out.is_empty(), "{out:?}");

        // A capture and an extension with room at once: the tree search keeps both (and
        // draws one), the estimate the capture alone. White's (3, 2) is in atari at (3, 3)
        // and puts Black's (3, 1) in atari at (3, 0), which has room.
        let mut r = rows(&[]);
        r[1] = "..OXO....";
        r[2] = "..X.X....";
        let g = game(&r, Color::Black, Some((3, 2)));
        let geo = g.position.geometry();
        let last = geo.loc(3, 2);
        PlayoutPolicy::TREE_SEARCH.answers(&g, last, &mut out);
        assert_eq!(out, [geo.loc(3, 3), geo.loc(3, 0)]);
        PlayoutPolicy::OWNERSHIP.answers(&g, last, &mut out);
        assert_eq!(out, [geo.loc(3, 3)]);
    }
}
