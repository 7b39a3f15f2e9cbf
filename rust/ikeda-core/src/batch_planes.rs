//! The stone planes of [`crate::Batch::features`] kept from step to step: each game's
//! last configurations as bit sets over flat indices (Black's and White's), in a ring
//! that a play extends by one copy and a few bits (the played point, the removed stones),
//! so the input planes are written from bits instead of rebuilt by walking the history
//! back on every call.
//!
//! Nothing is kept until features are first asked for (a loop that never reads them pays
//! nothing in its steps); then as many configurations as the deepest history asked for.
//! A game whose ring is out of date (a reset, a playout, a ring too shallow) is rebuilt
//! from its history, the reference the kept rings are tested against.

use std::collections::TryReserveError;

use rayon::prelude::*;

use crate::game::Game;
use crate::geometry::{Geometry, Loc};

/// Each game's ring of recent configurations.
#[derive(Clone, Debug)]
pub(crate) struct Planes {
    /// Configurations kept per game (0: none kept yet).
    depth: usize,
    /// Words of one colour's bit set (one bit per point, by flat index).
    words: usize,
    /// Padded cell to flat index (meaningless off the board).
    index: Vec<u16>,
    /// Per game, `depth` configurations of `2 * words` words (Black's bits, then
    /// White's), a ring whose newest entry is at `newest`.
    bits: Vec<u64>,
    newest: Vec<u8>,
    /// Configurations in the ring (the game's own, at most `depth`).
    held: Vec<u8>,
    /// The ring describes the game as it stands.
    fresh: Vec<bool>,
}

/// One game's ring, for a step's pass over the games.
pub(crate) struct Ring<'a> {
    bits: &'a mut [u64],
    newest: &'a mut u8,
    held: &'a mut u8,
    fresh: &'a mut bool,
}

/// How a ring is read and written: its shape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape<'a> {
    depth: usize,
    words: usize,
    index: &'a [u16],
}

/// Four planes' values for each nibble of a bit set (bit 0 first).
const NIBBLES: [[f32; 4]; 16] = {
    let mut t = [[0.0; 4]; 16];
    let mut k = 0;
    while k < 16 {
        let mut b = 0;
        while b < 4 {
            if k >> b & 1 == 1 {
                t[k][b] = 1.0;
            }
            b += 1;
        }
        k += 1;
    }
    t
};

impl Planes {
    /// No rings yet, for `n` games on `geo`; an error if memory for them is short.
    pub(crate) fn try_new(geo: Geometry, n: usize) -> Result<Self, TryReserveError> {
        let mut index = vec![u16::MAX; geo.cells()];
        for (i, loc) in geo.locs().enumerate() {
            index[loc as usize] = i as u16;
        }
        Ok(Planes {
            depth: 0,
            words: geo.points().div_ceil(64),
            index,
            bits: Vec::new(),
            newest: filled(n, 0)?,
            held: filled(n, 0)?,
            fresh: filled(n, false)?,
        })
    }

    /// Keeps at least `depth` configurations per game from now on (every ring is then
    /// rebuilt once). Returns false, keeping nothing, if memory for them is short.
    pub(crate) fn keep(&mut self, depth: usize) -> bool {
        if depth <= self.depth {
            return true;
        }
        if depth > usize::from(u8::MAX) {
            return false; // ring positions are bytes
        }
        let n = self.fresh.len();
        let size = n
            .checked_mul(depth)
            .and_then(|x| x.checked_mul(2 * self.words));
        let mut bits = Vec::new();
        if size.is_none_or(|s| bits.try_reserve_exact(s).is_err()) {
            return false;
        }
        bits.resize(size.unwrap_or(0), 0);
        self.bits = bits;
        self.depth = depth;
        self.fresh.fill(false);
        true
    }

    /// Marks game `i`'s ring as out of date.
    pub(crate) fn invalidate(&mut self, i: usize) {
        self.fresh[i] = false;
    }

    pub(crate) fn invalidate_all(&mut self) {
        self.fresh.fill(false);
    }

    /// The per-game rings in game order, `None` for each game while nothing is kept.
    pub(crate) fn rings(
        &mut self,
    ) -> (
        impl IndexedParallelIterator<Item = Option<Ring<'_>>>,
        Shape<'_>,
    ) {
        let shape = Shape {
            depth: self.depth,
            words: self.words,
            index: &self.index,
        };
        let n = self.fresh.len();
        let rings = if self.depth == 0 {
            rayon::iter::Either::Left((0..n).into_par_iter().map(|_| None))
        } else {
            let stride = self.depth * 2 * self.words;
            rayon::iter::Either::Right(
                self.bits
                    .par_chunks_mut(stride)
                    .zip(self.newest.par_iter_mut())
                    .zip(self.held.par_iter_mut())
                    .zip(self.fresh.par_iter_mut())
                    .map(|(((bits, newest), held), fresh)| {
                        Some(Ring {
                            bits,
                            newest,
                            held,
                            fresh,
                        })
                    }),
            )
        };
        (rings, shape)
    }
}

impl Shape<'_> {
    /// The words of configuration `j` back from the newest (`j < held`).
    #[inline]
    fn slot(&self, newest: u8, j: usize) -> usize {
        (usize::from(newest) + self.depth - j) % self.depth * 2 * self.words
    }

    /// After `g` made the move `mv` (`None`: a pass, which makes no new configuration):
    /// extends the ring by the new configuration, from the last play's record.
    #[inline]
    pub(crate) fn after_move<const N: usize>(&self, g: &Game<N>, mv: Option<Loc>, r: Ring<'_>) {
        if mv.is_none() || !*r.fresh {
            return;
        }
        let Some((loc, color, suicide, removed)) = g.position.last_play() else {
            *r.fresh = false;
            return;
        };
        let w = self.words;
        let from = self.slot(*r.newest, 0);
        let next = (usize::from(*r.newest) + 1) % self.depth;
        let to = next * 2 * w;
        r.bits.copy_within(from..from + 2 * w, to);
        let set = &mut r.bits[to..to + 2 * w];
        let i = usize::from(self.index[loc as usize]);
        set[color.index() * w + i / 64] |= 1 << (i % 64);
        // Rule 3 removed the opponent's stones, or on a suicide the player's own chain
        // (the played stone included).
        let gone = if suicide { color } else { color.opponent() };
        for &s in removed {
            let i = usize::from(self.index[s as usize]);
            set[gone.index() * w + i / 64] &= !(1 << (i % 64));
        }
        *r.newest = next as u8;
        *r.held = (*r.held + 1).min(self.depth as u8);
    }

    /// The ring of `g` from its history, if it is out of date.
    pub(crate) fn ensure<const N: usize>(&self, g: &Game<N>, r: &mut Ring<'_>) {
        if *r.fresh {
            return;
        }
        let w = self.words;
        let mut held = 0;
        g.position.recent_configurations(self.depth, |j, cells| {
            let to = (self.depth - 1 - j) * 2 * w;
            let set = &mut r.bits[to..to + 2 * w];
            set.fill(0);
            for (loc, &cell) in cells.iter().enumerate() {
                if let Some(c) = cell.color() {
                    let i = usize::from(self.index[loc]);
                    set[c.index() * w + i / 64] |= 1 << (i % 64);
                }
            }
            held = j + 1;
        });
        *r.newest = (self.depth - 1) as u8;
        *r.held = held as u8;
        *r.fresh = true;
    }

    /// Writes the `2 * history` stone planes of `g` (side to move first, newest first,
    /// zero where the game is younger) into `block`, `points` values each, from its ring
    /// (current). Precondition: `history <= depth`.
    pub(crate) fn write<const N: usize>(
        &self,
        g: &Game<N>,
        r: &Ring<'_>,
        history: usize,
        points: usize,
        block: &mut [f32],
    ) {
        let w = self.words;
        let own = g.to_move.index();
        for j in 0..history {
            let planes = [j, history + j];
            if j < usize::from(*r.held) {
                let from = self.slot(*r.newest, j);
                for (k, colour) in [own, 1 - own].into_iter().enumerate() {
                    let set = &r.bits[from + colour * w..from + (colour + 1) * w];
                    expand(
                        set,
                        &mut block[planes[k] * points..(planes[k] + 1) * points],
                    );
                }
            } else {
                for p in planes {
                    block[p * points..(p + 1) * points].fill(0.0);
                }
            }
        }
    }
}

/// A vector of `n` copies of `value`, or an error if memory for it is short.
fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.resize(n, value);
    Ok(v)
}

/// One plane from a bit set: 1.0 where the bit is set, 0.0 elsewhere.
#[inline]
fn expand(set: &[u64], out: &mut [f32]) {
    let base = out.len() / 4 * 4;
    let mut chunks = out.chunks_exact_mut(4);
    for (k, chunk) in chunks.by_ref().enumerate() {
        let nibble = (set[k / 16] >> (k % 16 * 4)) & 15;
        chunk.copy_from_slice(&NIBBLES[nibble as usize]);
    }
    for (i, v) in chunks.into_remainder().iter_mut().enumerate() {
        let b = base + i;
        *v = (set[b / 64] >> (b % 64) & 1) as f32;
    }
}

#[cfg(test)]
mod tests {
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use crate::batch::{Batch, EXTRA_PLANES};
    use crate::game::{Ending, Rules};
    use crate::geometry::Geometry;
    use crate::position::{KoRule, PlayRules};
    use crate::tiers::{CELLS_19, CELLS_9};

    /// Random lines with eye filling (captures and suicides all the time), passes, resets
    /// and playouts between steps, and a history that changes between calls: after every
    /// step the planes from the kept configurations equal the ones rebuilt from the
    /// history, under every play rule and ending.
    fn kept_planes_equal_the_history<const N: usize>(sizes: &[(usize, usize)]) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut captures = 0;
        for &(w, h) in sizes {
            for (ko, suicide, ending) in [
                (KoRule::CapturingSuperko, false, Ending::FirstPass),
                (KoRule::CapturingSuperko, true, Ending::TwoPasses),
                (KoRule::SimpleKo, false, Ending::EqualMoves),
                (KoRule::PositionalSuperko, true, Ending::TwoPasses),
            ] {
                let rules = Rules {
                    play: PlayRules { ko, suicide },
                    ending,
                    ..Rules::area3(13)
                };
                let geo = Geometry::new(w, h).unwrap();
                let (n, points) = (10, geo.points());
                let mut b = Batch::<N>::new(geo, rules, n, rng.next_u64());
                let mut mask = vec![false; n * (points + 1)];
                let mut history = 1 + (rng.next_u64() % 4) as usize;
                for step in 0..300 {
                    if rng.next_u64() % 50 == 0 {
                        history = 1 + (rng.next_u64() % 12) as usize;
                    }
                    let size = n * (2 * history + EXTRA_PLANES) * points;
                    let (mut kept, mut walked) = (vec![f32::NAN; size], vec![f32::NAN; size]);
                    b.features(history, &mut kept);
                    b.features_from_history(history, &mut walked);
                    assert_eq!(
                        kept, walked,
                        "{w}x{h} {ko:?} suicide={suicide} {ending:?} history={history} step {step}"
                    );
                    b.legal_mask(&mut mask);
                    let stones: usize = b
                        .games()
                        .iter()
                        .map(|g| g.lost.iter().sum::<u32>() as usize)
                        .sum();
                    let actions: Vec<i64> = mask
                        .chunks(points + 1)
                        .map(|row| {
                            let legal: Vec<usize> = (0..points).filter(|&i| row[i]).collect();
                            if legal.is_empty() || rng.next_u64() % 30 == 0 {
                                points as i64
                            } else {
                                legal[(rng.next_u64() % legal.len() as u64) as usize] as i64
                            }
                        })
                        .collect();
                    b.step(&actions).unwrap();
                    captures += b
                        .games()
                        .iter()
                        .map(|g| g.lost.iter().sum::<u32>() as usize)
                        .sum::<usize>()
                        - stones;
                    match rng.next_u64() % 60 {
                        0 => b.reset(&(0..n).map(|_| rng.next_u64() % 3 == 0).collect::<Vec<_>>()),
                        1 => {
                            b.playout(0.0, 3).expect("memory for the playouts");
                        }
                        _ => {}
                    }
                    let over: Vec<bool> = b.over().to_vec();
                    if over.iter().filter(|&&o| o).count() > n / 2 {
                        b.reset(&over);
                    }
                }
            }
        }
        assert!(captures > 1000, "only {captures} stones removed");
    }

    #[test]
    fn kept_planes_equal_the_planes_from_the_history() {
        kept_planes_equal_the_history::<CELLS_9>(&[(2, 3), (4, 4), (5, 5), (9, 9), (7, 2)]);
    }

    /// Depths the rings do not hold fall back to the walk (and do not panic).
    #[test]
    fn histories_of_zero_and_past_a_byte_are_walked() {
        let geo = Geometry::new(3, 3).unwrap();
        let mut b = Batch::<CELLS_9>::new(geo, Rules::area3(13), 2, 1);
        b.step(&[4, 0]).unwrap();
        for history in [0, 300] {
            let size = 2 * (2 * history + EXTRA_PLANES) * 9;
            let (mut kept, mut walked) = (vec![f32::NAN; size], vec![f32::NAN; size]);
            b.features(history, &mut kept);
            b.features_from_history(history, &mut walked);
            assert_eq!(kept, walked, "history={history}");
        }
    }

    #[test]
    fn kept_planes_equal_the_planes_from_the_history_on_19x19() {
        kept_planes_equal_the_history::<CELLS_19>(&[(19, 19), (13, 11)]);
    }
}
