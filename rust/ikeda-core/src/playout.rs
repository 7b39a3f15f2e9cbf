//! Random games played natively under any ruleset, seeded and reproducible: one game, or
//! many spread over threads (each game's seed depends on its index only, so the results
//! are the same whatever the thread count).
//!
//! Policy: with probability `pass_probability` pass; otherwise a uniform choice among the
//! legal plays that do not fill one of the player's own eyes; pass when there is none.
//! An eye here is an empty point whose on-board neighbours are all the player's stones
//! and whose diagonal points hold at most one opponent stone in the middle of the board
//! (none on the edge or in a corner): the usual "true eye" test of playout engines.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use rayon::prelude::*;

use crate::color::{Cell, Color};
use crate::game::{Game, HalfPoints, Rules};
use crate::geometry::{Geometry, Loc};
use crate::memory::{NoMemory, RESERVE_PLAYS};
use crate::position::Position;

/// A finished (or capped) random game.
#[derive(Clone, Debug)]
pub struct RandomGame {
    /// Flat indices, `w*h` for a pass.
    pub moves: Vec<usize>,
    /// The game reached its end (false when the move cap stopped it).
    pub ended: bool,
    pub first_passer: Option<Color>,
    /// Under the game's ruleset.
    pub score: HalfPoints,
    /// The same final board under Area II counting (no half point).
    pub area2: HalfPoints,
}

/// Whether `loc` is an eye of `c` (see the module docs).
#[inline(always)]
#[must_use]
pub fn is_eye<const N: usize>(game: &Game<N>, loc: Loc, c: Color) -> bool {
    let board = game.position.board();
    let opp = Cell::stone(c.opponent());
    // Every neighbour is the player's stone or the wall (one read of the counts).
    if !board.around(loc).none_of(Cell::Empty, opp) {
        return false;
    }
    let s = board.geometry().stride;
    let (mut off_board, mut enemy) = (0, 0);
    for q in [loc - s - 1, loc - s + 1, loc + s - 1, loc + s + 1] {
        let cell = board.cell(q);
        off_board |= usize::from(cell == Cell::Wall);
        enemy += usize::from(cell == opp);
    }
    enemy + off_board < 2
}

/// A uniform draw from `0..n` (`n > 0`), by the multiply-shift method.
#[inline]
fn below(rng: &mut Xoshiro256PlusPlus, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

/// The policy's play for the side to move: uniform among the legal plays that do not fill
/// the player's own eye, or `None` (pass) when there is none. Empty points are drawn from
/// the board's list of them without replacement: a refused point is swapped to the end of
/// the part still to draw from (the list is unordered; only its order changes, as in a
/// Fisher-Yates shuffle), so a typical move costs one or two tests and no copy, and the
/// first acceptable point of a uniformly random order is uniform among the acceptable.
#[inline]
pub fn policy_play<const N: usize>(
    game: &mut Game<N>,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Loc> {
    policy_play_where(game, rng, |_, _| true)
}

/// [`policy_play`] among the plays that `accept` also allows (tested after the eye and
/// legality tests).
#[inline(always)]
pub fn policy_play_where<const N: usize>(
    game: &mut Game<N>,
    rng: &mut Xoshiro256PlusPlus,
    accept: impl Fn(&Game<N>, Loc) -> bool,
) -> Option<Loc> {
    let mut k = game.position.board().empty_count();
    while k > 0 {
        let i = below(rng, k as u32) as usize;
        let loc = game.position.board().empty_point(i);
        if !is_eye(game, loc, game.to_move) && game.check_empty(loc).is_ok() && accept(game, loc) {
            return Some(loc);
        }
        k -= 1;
        game.position.swap_empty_points(i, k);
    }
    None
}

/// The default move cap of random games and refereed matches on `geo`: four moves per
/// point plus 16. A random game almost never reaches it (hits are counted and reported);
/// it bounds every run whatever the ruleset.
#[must_use]
pub fn move_cap(geo: Geometry) -> usize {
    4 * geo.points() + 16
}

/// Plays `game` on by the policy (passing first with probability `pass_probability`)
/// until it ends or `max_moves` moves have been played; calls `record(flat index)` for
/// each move (`w*h` for a pass). Returns whether the game is over. For caps bounded by
/// the board (such as [`move_cap`]); a cap set by input goes through [`try_play_out`].
pub fn play_out<const N: usize>(
    game: &mut Game<N>,
    rng: &mut Xoshiro256PlusPlus,
    pass_probability: f64,
    max_moves: usize,
    record: impl FnMut(usize),
) -> bool {
    match run::<N, false>(game, rng, pass_probability, max_moves, record) {
        Ok(over) => over,
        Err(NoMemory) => unreachable!("play_out reserves nothing"),
    }
}

/// [`play_out`] for a cap set by input: the game's history is reserved
/// [`RESERVE_PLAYS`] plays at a time, fallibly, so a cap far past the default costs
/// nothing up front and a game that outgrows memory stops with [`NoMemory`] (a
/// consistent game, every move so far recorded) instead of aborting the process.
pub fn try_play_out<const N: usize>(
    game: &mut Game<N>,
    rng: &mut Xoshiro256PlusPlus,
    pass_probability: f64,
    max_moves: usize,
    record: impl FnMut(usize),
) -> Result<bool, NoMemory> {
    run::<N, true>(game, rng, pass_probability, max_moves, record)
}

#[inline]
fn run<const N: usize, const RESERVE: bool>(
    game: &mut Game<N>,
    rng: &mut Xoshiro256PlusPlus,
    pass_probability: f64,
    max_moves: usize,
    mut record: impl FnMut(usize),
) -> Result<bool, NoMemory> {
    let geo = game.position.geometry();
    let pass_threshold = (pass_probability.clamp(0.0, 1.0) * (u64::MAX as f64)) as u64;
    let mut played = 0;
    let mut reserved = 0;
    while !game.passes.over && played < max_moves {
        if RESERVE {
            if reserved == 0 {
                reserved = RESERVE_PLAYS.min(max_moves - played);
                game.position.try_reserve(reserved)?;
            }
            reserved -= 1;
        }
        let mv = if pass_probability > 0.0 && rng.next_u64() < pass_threshold {
            None
        } else {
            policy_play(game, rng)
        };
        record(mv.map_or(geo.pass_index(), |l| geo.index_of_loc(l)));
        // The play was chosen among legal ones and the game is not over.
        game.play_unchecked(mv);
        played += 1;
    }
    Ok(game.passes.over)
}

/// Plays one random game from `game` to its end or to `max_moves` moves. The list of
/// moves grows with the game, reserved fallibly a piece at a time like the history
/// ([`try_play_out`]): any cap is accepted, and a game longer than memory allows is
/// [`NoMemory`].
pub fn random_game<const N: usize>(
    mut game: Game<N>,
    rules: &Rules,
    seed: u64,
    pass_probability: f64,
    max_moves: usize,
) -> Result<RandomGame, NoMemory> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut left = max_moves;
    // Pieces of play_out continue one another exactly (the same game and generator).
    let ended = loop {
        let piece = left.min(RESERVE_PLAYS.max(2 * game.position.geometry().points()));
        moves.try_reserve(piece)?;
        let ended = try_play_out(&mut game, &mut rng, pass_probability, piece, |m| {
            moves.push(m)
        })?;
        left -= piece;
        if ended || left == 0 {
            break ended;
        }
    };
    let (score, area2) = game.scores(rules);
    Ok(RandomGame {
        moves,
        ended,
        first_passer: game.passes.first_passer,
        score,
        area2,
    })
}

/// The seed of game `index` of a run seeded with `seed`.
#[must_use]
pub fn game_seed(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// What a simulation keeps of each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Black's score minus White's under the ruleset, in half points.
    pub margin: i32,
    /// The same under Area II counting.
    pub margin_area2: i32,
    /// 0 nobody, 1 Black, 2 White.
    pub first_passer: u8,
    /// Moves, passes included.
    pub length: u32,
    /// The move cap stopped the game before its end.
    pub capped: bool,
}

/// Plays games `first..first + count` of a run from the empty board, Black first, on the
/// current rayon pool.
pub fn simulate(
    geo: Geometry,
    rules: &Rules,
    seed: u64,
    first: u64,
    count: usize,
    pass_probability: f64,
    max_moves: usize,
) -> Result<Vec<Summary>, NoMemory> {
    let mut out = Vec::new();
    out.try_reserve_exact(count)?;
    simulate_into(
        &mut out,
        geo,
        rules,
        seed,
        first,
        count,
        pass_probability,
        max_moves,
    )?;
    Ok(out)
}

/// [`simulate`], appending to `out`: a caller that reserved room for `count` summaries
/// first (fallibly) makes the run allocate nothing for them. A game whose history cannot
/// grow ([`try_play_out`]) makes the whole run [`NoMemory`]. On a pool of one thread the
/// games are played in order with no work splitting.
#[allow(clippy::too_many_arguments)]
pub fn simulate_into(
    out: &mut Vec<Summary>,
    geo: Geometry,
    rules: &Rules,
    seed: u64,
    first: u64,
    count: usize,
    pass_probability: f64,
    max_moves: usize,
) -> Result<(), NoMemory> {
    if rayon::current_num_threads() == 1 {
        return simulate_serial_into(
            out,
            geo,
            rules,
            seed,
            first,
            count,
            pass_probability,
            max_moves,
        );
    }
    let short = std::sync::atomic::AtomicBool::new(false);
    // Every game starts as a copy of one empty game (a copy is a memcpy; a new board is
    // built point by point).
    crate::with_tier!(geo, N => {
        let start = Game::with_ending(Position::<N>::new(geo, rules.play), Color::Black, rules.ending);
        out.par_extend((0..count as u64).into_par_iter().map(|k| {
            summary(&start, rules, game_seed(seed, first + k), pass_probability, max_moves).unwrap_or_else(|(NoMemory, s)| {
                short.store(true, std::sync::atomic::Ordering::Relaxed);
                s
            })
        }));
    });
    if short.into_inner() {
        return Err(NoMemory);
    }
    Ok(())
}

/// [`simulate_into`] on the calling thread, whatever pool it is in: the same games, with
/// no hand-off to a worker thread (a one-thread run from Python calls this directly, so a
/// call costs no wake-up of a pool thread and no idle spinning after it).
#[allow(clippy::too_many_arguments)]
pub fn simulate_serial_into(
    out: &mut Vec<Summary>,
    geo: Geometry,
    rules: &Rules,
    seed: u64,
    first: u64,
    count: usize,
    pass_probability: f64,
    max_moves: usize,
) -> Result<(), NoMemory> {
    crate::with_tier!(geo, N => {
        let start = Game::with_ending(Position::<N>::new(geo, rules.play), Color::Black, rules.ending);
        for k in 0..count as u64 {
            out.push(summary(&start, rules, game_seed(seed, first + k), pass_probability, max_moves).map_err(|(e, _)| e)?);
        }
    });
    Ok(())
}

/// Plays one game of a run from a copy of `start` (a copy is a memcpy; a new board is
/// built point by point) and summarises it; on [`NoMemory`] the summary of the game as
/// far as it went comes with the error.
#[inline]
fn summary<const N: usize>(
    start: &Game<N>,
    rules: &Rules,
    seed: u64,
    pass_probability: f64,
    max_moves: usize,
) -> Result<Summary, (NoMemory, Summary)> {
    let mut game = start.clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut length = 0;
    let played = try_play_out(&mut game, &mut rng, pass_probability, max_moves, |_| {
        length += 1
    });
    let (score, area2) = game.scores(rules);
    let s = Summary {
        margin: score.margin(),
        margin_area2: area2.margin(),
        first_passer: game.passes.first_passer.map_or(0, |c| c as u8),
        length,
        capped: !played.unwrap_or(false),
    };
    played.map(|_| s).map_err(|e| (e, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiers::CELLS_9;

    /// Drawing and rejecting is exactly uniform over the acceptable plays: every such play
    /// is drawn, nothing else is, and the counts pass a chi-square test.
    #[test]
    fn policy_is_uniform_over_the_acceptable_plays() {
        let geo = Geometry::new(5, 5).unwrap();
        let rules = Rules::area3(0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for prefix in [4, 10, 16, 22, 28] {
            let mut game = Game::new(Position::<CELLS_9>::new(geo, rules.play), Color::Black);
            play_out(&mut game, &mut rng, 0.0, prefix, |_| {});
            if game.passes.over {
                continue;
            }
            let mut acceptable = Vec::new();
            game.for_each_legal(|_, l| {
                if !is_eye(&game, l, game.to_move) {
                    acceptable.push(l);
                }
            });
            let draws = 20_000 * acceptable.len().max(1);
            let mut counts = vec![0usize; CELLS_9];
            for _ in 0..draws {
                match policy_play(&mut game, &mut rng) {
                    Some(l) => counts[l as usize] += 1,
                    None => assert!(acceptable.is_empty()),
                }
            }
            let drawn: Vec<Loc> = (0..CELLS_9)
                .filter(|&l| counts[l] > 0)
                .map(|l| l as Loc)
                .collect();
            assert_eq!(drawn, acceptable, "after {prefix} moves");
            if acceptable.len() < 2 {
                continue; // nothing to compare: drawn == acceptable said it all
            }
            let k = acceptable.len() as f64;
            let expected = draws as f64 / k;
            let chi2: f64 = acceptable
                .iter()
                .map(|&l| (counts[l as usize] as f64 - expected).powi(2) / expected)
                .sum();
            // Mean k - 1, spread sqrt(2(k - 1)): six spreads above is never reached by chance.
            assert!(
                chi2 <= k - 1.0 + 6.0 * (2.0 * (k - 1.0)).sqrt(),
                "chi2 {chi2} over {k} plays"
            );
        }
    }
}
