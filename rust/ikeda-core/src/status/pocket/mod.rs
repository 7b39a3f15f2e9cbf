//! The pocket game and its provers (docs/status.md 2c): whether D, answering every move of
//! A inside one pocket, settles it. The credited groups of `walls/` rest on these answers.
//! A leaf: it uses nothing of status/ but its limits (`limits.rs`).
//!
//! Reading guide:
//! - `game`: the rules of the pocket game (`PocketGame`: moves, captures, settled states,
//!   and the searches' goals, which also take states with two vital parts, plain or by
//!   miai);
//! - `exhaustive`: the game decided exactly, by its whole state graph (small pockets);
//! - `depth_first`: the depth-first proof search with D's answers restricted, and the move
//!   orders; `dfpn`: df-pn for large pockets, with the same orders;
//! - `split`: the split goal, a large pocket won once D cuts it into small parts each
//!   settled by its own game (proven by the depth-first search);
//! - `table`: the compact transposition table of df-pn and of the region search
//!   (`search/play.rs`), one word a slot;
//! - `settle`: the entry, `PocketGame::settles`, which picks the prover by the pocket's
//!   size, and the work the split proofs of one colour share (`SplitPool`).
//!
//! A proof found by any prover is a strategy of D in the exhaustive game (each file says
//! why); a prover's "no" only means "not proven".

pub(crate) mod depth_first;
pub(crate) mod dfpn;
pub(crate) mod exhaustive;
pub(crate) mod game;
pub(crate) mod settle;
pub(crate) mod split;
pub(crate) mod table;
#[cfg(test)]
pub(crate) mod testing;
