//! The opt-in estimate for chains that no proof reached (docs/status.md, "Unresolved
//! regions"): Monte-Carlo ownership by native random playouts from the final position.
//!
//! This is not status confirmation. It decides only the chains of regions the search
//! refused, each result is marked as estimated, and it never overrides a proven status.
//! The playouts use the playout policy with its [`PlayoutPolicy::OWNERSHIP`] options (the
//! native uniform draw, atari answered first, no self-atari of a chain); two passes in
//! succession end them, half start with Black to move and half with White, and playout k
//! is seeded with `game_seed(seed, k)`: the estimate is the same whatever the thread count.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::board::SetupError;
use crate::color::Color;
use crate::game::{Ending, Game};
use crate::geometry::Geometry;
use crate::playout::game_seed;
use crate::playout_policy::PlayoutPolicy;
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
                    let mut answers = Vec::with_capacity(5);
                    while !game.passes.over && played < cap {
                        // The opponent's last play, none after a pass.
                        let last = if game.passes.last_pass {
                            None
                        } else {
                            game.position.last_play().map(|(l, ..)| l)
                        };
                        let mv = PlayoutPolicy::OWNERSHIP.choose(
                            &mut game,
                            last,
                            &mut rng,
                            &mut answers,
                        );
                        // The policy chooses among legal plays only.
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
