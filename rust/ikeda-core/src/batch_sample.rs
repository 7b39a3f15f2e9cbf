//! One action per game of a batch, drawn from the game's kept legal set (bits over the
//! flat actions, the pass implied): uniformly, or by a caller's policy over the actions
//! (weights or logits, the pass last). This is the sampling half of a lockstep loop:
//! the policy is masked here, so the caller passes no bool masks and runs no numpy pass
//! over them.
//!
//! A draw reads only the game's legal bits and the row of the policy: one pass over the
//! legal actions sums their weights, a second stops at the first running sum past a
//! uniform point of that total (one draw from the game's stream per game with a choice;
//! a game with no legal play gets the pass without one).

use rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// How [`crate::Batch::sample`] weighs each game's legal actions: row `i` of a policy
/// holds game `i`'s `w*h + 1` values, the pass last.
#[derive(Clone, Copy, Debug)]
pub enum Policy<'a> {
    /// Uniform among the legal plays; the pass only when there is none.
    Uniform,
    /// In proportion to the weights of the legal actions (the pass included). Weights
    /// must be finite and not negative.
    Weights(&'a [f32]),
    /// In proportion to `exp(logit)` of the legal actions (the pass included): a softmax
    /// over them. Logits must not be NaN or `+inf`; `-inf` is a weight of 0.
    Logits(&'a [f32]),
}

/// Why a policy was refused, for the first game (lowest index) with a reason.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BadPolicy {
    /// A weight negative, NaN or infinite; a logit NaN or `+inf` (any action's, legal or
    /// not: a broken network shows everywhere).
    Value {
        game: usize,
        action: usize,
        value: f32,
    },
    /// A live game with legal plays gives all its legal actions weight 0 (logits all
    /// `-inf`): nothing to draw from. (A game whose only legal action is the pass gets
    /// it whatever its weight: there is no choice to make.)
    NoLegalMass { game: usize },
}

impl std::fmt::Display for BadPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            BadPolicy::Value {
                game,
                action,
                value,
            } => write!(
                f,
                "game {game}: policy value {value} for action {action} is not allowed"
            ),
            BadPolicy::NoLegalMass { game } => write!(
                f,
                "game {game}: the policy gives no weight to any legal action"
            ),
        }
    }
}

impl std::error::Error for BadPolicy {}

/// Whether `x` is refused as a logit (`LOGITS`) or a weight. Written without branches
/// so that the check of a whole row vectorizes.
#[inline]
fn refused<const LOGITS: bool>(x: f32) -> bool {
    if LOGITS {
        x.is_nan() | (x == f32::INFINITY)
    } else {
        x.is_nan() | (x < 0.0) | (x == f32::INFINITY)
    }
}

/// Whether `x` gives its action a share of the draw.
#[inline]
fn counts<const LOGITS: bool>(x: f32) -> bool {
    if LOGITS {
        x > f32::NEG_INFINITY
    } else {
        x > 0.0
    }
}

/// Calls `f(flat index)` for each legal play of `set`, in flat-index order.
#[inline]
fn each_play(set: &[u64], mut f: impl FnMut(usize)) {
    for (k, &word) in set.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(k * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// The first legal play of `set` (in flat-index order) for which `f` holds.
#[inline]
fn first_play(set: &[u64], mut f: impl FnMut(usize) -> bool) -> Option<usize> {
    for (k, &word) in set.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let a = k * 64 + bits.trailing_zeros() as usize;
            if f(a) {
                return Some(a);
            }
            bits &= bits - 1;
        }
    }
    None
}

/// Checks every row of `values` (`width` actions each) against the live games' legal
/// sets: the first game (lowest index) with a refused value or no legal weight.
pub(crate) fn check<'a>(
    values: &[f32],
    logits: bool,
    width: usize,
    sets: impl IndexedParallelIterator<Item = &'a [u64]>,
    over: &[bool],
) -> Result<(), BadPolicy> {
    if logits {
        check_rows::<true>(values, width, sets, over)
    } else {
        check_rows::<false>(values, width, sets, over)
    }
}

fn check_rows<'a, const LOGITS: bool>(
    values: &[f32],
    width: usize,
    sets: impl IndexedParallelIterator<Item = &'a [u64]>,
    over: &[bool],
) -> Result<(), BadPolicy> {
    let first = values
        .par_chunks(width)
        .zip(sets)
        .zip(over)
        .enumerate()
        .with_min_len(64)
        .map(|(game, ((row, set), &over))| {
            if row.iter().fold(false, |bad, &x| bad | refused::<LOGITS>(x)) {
                let action = row.iter().position(|&x| refused::<LOGITS>(x)).unwrap_or(0);
                return Some(BadPolicy::Value {
                    game,
                    action,
                    value: row[action],
                });
            }
            let plays = set.iter().any(|&w| w != 0);
            if over || !plays || counts::<LOGITS>(row[width - 1]) {
                return None;
            }
            let mut mass = false;
            each_play(set, |a| mass |= counts::<LOGITS>(row[a]));
            (!mass).then_some(BadPolicy::NoLegalMass { game })
        })
        .find_first(Option::is_some);
    match first {
        Some(Some(bad)) => Err(bad),
        _ => Ok(()),
    }
}

/// The legal actions' weights of one draw by logits (`exp` is the costly part, so each is
/// taken once), kept per thread so that a draw allocates nothing.
#[derive(Default)]
pub(crate) struct Scratch {
    weights: Vec<f32>,
}

/// A uniform draw in `0..k` (`k > 0`; the bias is below `k / 2^64`).
pub(crate) fn below(rng: &mut Xoshiro256PlusPlus, k: usize) -> usize {
    ((u128::from(rng.next_u64()) * k as u128) >> 64) as usize
}

/// A uniform draw in `[0, 1)` with 53 random bits.
fn unit(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// One action of a live game whose legal plays are `set` (the pass, `pass`, always
/// legal): uniform among the plays (the pass only when there is none) without a policy,
/// else by `policy`'s row (weights, or logits if the flag is set), which [`check`] has
/// passed. A game with no legal play gets the pass without a draw.
pub(crate) fn draw(
    set: &[u64],
    pass: usize,
    policy: Option<(&[f32], bool)>,
    rng: &mut Xoshiro256PlusPlus,
    scratch: &mut Scratch,
) -> usize {
    let k: u32 = set.iter().map(|w| w.count_ones()).sum();
    if k == 0 {
        return pass;
    }
    match policy {
        None => nth_play(set, below(rng, k as usize) as u32),
        Some((row, true)) => weighted::<true>(set, row, rng, scratch),
        Some((row, false)) => weighted::<false>(set, row, rng, scratch),
    }
}

/// The flat index of the `j`-th legal play of `set` (`j` below its count).
fn nth_play(set: &[u64], mut j: u32) -> usize {
    for (k, &word) in set.iter().enumerate() {
        let n = word.count_ones();
        if j < n {
            let mut bits = word;
            for _ in 0..j {
                bits &= bits - 1;
            }
            return k * 64 + bits.trailing_zeros() as usize;
        }
        j -= n;
    }
    unreachable!("j is below the count of plays")
}

/// A draw in proportion to the legal actions' weights (`exp(logit - max)` for logits):
/// their total in one pass, then a second pass to the first running sum past a uniform
/// point of it (the first action whose share holds the point).
fn weighted<const LOGITS: bool>(
    set: &[u64],
    row: &[f32],
    rng: &mut Xoshiro256PlusPlus,
    scratch: &mut Scratch,
) -> usize {
    let pass = row.len() - 1;
    let weights: &[f32] = if LOGITS {
        // Shifted by their legal maximum, so the largest weight is 1 (no overflow).
        let mut top = row[pass];
        each_play(set, |a| top = top.max(row[a]));
        let w = &mut scratch.weights;
        w.clear();
        w.resize(row.len(), 0.0);
        each_play(set, |a| w[a] = (row[a] - top).exp());
        w[pass] = (row[pass] - top).exp();
        w
    } else {
        row
    };
    let mut total = 0.0f64;
    each_play(set, |a| total += f64::from(weights[a]));
    total += f64::from(weights[pass]);
    // `check` leaves a positive total; the pass where rounding made it vanish.
    if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return pass;
    }
    let u = unit(rng) * total;
    // The same sums in the same order as the total: the first past `u`, or (where `u`
    // rounded up to the total) the last action with weight.
    let (mut acc, mut last) = (0.0f64, pass);
    let mut past = |a: usize| {
        let w = weights[a];
        if w > 0.0 {
            acc += f64::from(w);
            last = a;
        }
        u < acc
    };
    first_play(set, &mut past).unwrap_or(if past(pass) { pass } else { last })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    /// A set of `width - 1` plays with the given ones legal.
    fn set_of(plays: &[usize]) -> Vec<u64> {
        let mut set = vec![0u64; 2];
        for &p in plays {
            set[p / 64] |= 1 << (p % 64);
        }
        set
    }

    #[test]
    fn weights_are_followed_over_legal_actions_only() {
        let width = 82;
        let set = set_of(&[3, 70, 75]);
        let mut row = vec![0.0f32; width];
        row[0] = 1e6; // illegal
        row[3] = 1.0;
        row[75] = 3.0; // 70 has no weight, the pass neither
        let (mut rng, mut s) = (Xoshiro256PlusPlus::seed_from_u64(1), Scratch::default());
        let mut hits = [0usize; 82];
        for _ in 0..20_000 {
            hits[draw(&set, 81, Some((&row, false)), &mut rng, &mut s)] += 1;
        }
        assert_eq!(hits[0] + hits[70] + hits[81], 0);
        let share = hits[75] as f64 / 20_000.0;
        assert!((share - 0.75).abs() < 0.02, "{share}");
    }

    #[test]
    fn logits_are_a_softmax_over_legal_actions() {
        let set = set_of(&[1, 2]);
        let mut row = vec![f32::NEG_INFINITY; 10];
        row[0] = 50.0; // illegal: ignored, also by the shift
        row[1] = 100.0;
        row[2] = 100.0 + 3.0f32.ln();
        let (mut rng, mut s) = (Xoshiro256PlusPlus::seed_from_u64(2), Scratch::default());
        let n = 20_000;
        let twos = (0..n)
            .filter(|_| draw(&set, 9, Some((&row, true)), &mut rng, &mut s) == 2)
            .count();
        assert!((twos as f64 / n as f64 - 0.75).abs() < 0.02);
    }

    #[test]
    fn no_play_gets_the_pass_without_a_draw() {
        let (mut rng, mut s) = (Xoshiro256PlusPlus::seed_from_u64(3), Scratch::default());
        let before = rng.clone();
        let row = [0.0f32; 10];
        assert_eq!(
            draw(&set_of(&[]), 9, Some((&row, false)), &mut rng, &mut s),
            9
        );
        assert_eq!(draw(&set_of(&[]), 9, None, &mut rng, &mut s), 9);
        assert_eq!(rng, before);
    }

    #[test]
    fn check_names_the_first_refused_game() {
        let width = 10;
        let sets = [set_of(&[1]), set_of(&[1]), set_of(&[1]), set_of(&[])];
        let run = |values: &[f32], logits: bool, over: &[bool]| {
            check(
                values,
                logits,
                width,
                sets.par_iter().map(Vec::as_slice),
                over,
            )
        };
        let live = [false; 4];
        let mut v = vec![1.0f32; 4 * width];
        assert_eq!(run(&v, false, &live), Ok(()));
        v[2 * width + 5] = f32::NAN;
        v[3 * width] = -1.0;
        assert!(matches!(
            run(&v, false, &live),
            Err(BadPolicy::Value {
                game: 2,
                action: 5,
                ..
            })
        ));
        // Zero weight on game 1's only play and its pass: nothing to draw.
        let mut v = vec![1.0f32; 4 * width];
        v[width + 1] = 0.0;
        v[2 * width - 1] = 0.0;
        assert_eq!(
            run(&v, false, &live),
            Err(BadPolicy::NoLegalMass { game: 1 })
        );
        // ... unless it is over; and a game with no play may give the pass nothing.
        assert_eq!(run(&v, false, &[false, true, false, false]), Ok(()));
        let mut v = vec![0.0f32; 4 * width];
        v[1] = 1.0;
        v[width + 1] = 1.0;
        v[2 * width + 1] = 1.0;
        assert_eq!(run(&v, false, &live), Ok(()));
        // Logits: -inf is a weight of 0, +inf refused, a negative logit ordinary.
        let mut v = vec![-1.0f32; 4 * width];
        assert_eq!(run(&v, true, &live), Ok(()));
        v[width + 1] = f32::NEG_INFINITY;
        v[2 * width - 1] = f32::NEG_INFINITY;
        assert_eq!(
            run(&v, true, &live),
            Err(BadPolicy::NoLegalMass { game: 1 })
        );
        v[3] = f32::INFINITY;
        assert!(matches!(
            run(&v, true, &live),
            Err(BadPolicy::Value {
                game: 0,
                action: 3,
                ..
            })
        ));
    }
    /// The draws from kept bit sets are the draws of the plain definition over a bool row
    /// (the legal actions in flat order, the pass last), for the same random stream:
    /// uniform, weights and logits, on rows of one and of several words; rows that
    /// [`check`] refuses (no legal weight) are left out.
    #[test]
    fn draws_from_bit_sets_equal_draws_from_rows() {
        fn reference(
            row: &[bool],
            policy: Option<(&[f32], bool)>,
            rng: &mut Xoshiro256PlusPlus,
        ) -> Option<usize> {
            let pass = row.len() - 1;
            let legal: Vec<usize> = (0..row.len()).filter(|&a| row[a]).collect();
            let plays: Vec<usize> = legal.iter().copied().filter(|&a| a < pass).collect();
            if plays.is_empty() {
                return Some(pass);
            }
            let Some((v, logits)) = policy else {
                return Some(plays[below(rng, plays.len())]);
            };
            let top = legal
                .iter()
                .map(|&a| v[a])
                .fold(f32::NEG_INFINITY, f32::max);
            let weight = |a: usize| f64::from(if logits { (v[a] - top).exp() } else { v[a] });
            let total: f64 = legal.iter().map(|&a| weight(a)).sum();
            if total == 0.0 || (logits && top == f32::NEG_INFINITY) {
                return None; // refused by the check
            }
            let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
            let (mut acc, mut last) = (0.0, pass);
            for &a in legal.iter().filter(|&&a| weight(a) > 0.0) {
                acc += weight(a);
                last = a;
                if u < acc {
                    return Some(a);
                }
            }
            Some(last)
        }
        let mut r = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut scratch = Scratch::default();
        for size in [3usize, 9, 19] {
            let width = size * size + 1;
            for round in 0..3000 {
                // Sparse, dense and empty rows; some zero weights and -inf logits.
                let density = [0, 1, 8, 50, 100][round % 5];
                let row: Vec<bool> = (0..width)
                    .map(|a| a == width - 1 || (r.next_u64() % 100) < density)
                    .collect();
                let mut set = vec![0u64; width.div_ceil(64)];
                for a in (0..width - 1).filter(|&a| row[a]) {
                    set[a / 64] |= 1 << (a % 64);
                }
                let v: Vec<f32> = (0..width)
                    .map(|_| match r.next_u64() % 6 {
                        0 => 0.0,
                        1 if round % 2 == 1 => f32::NEG_INFINITY,
                        _ => (r.next_u64() % 1000) as f32 / 100.0,
                    })
                    .collect();
                let policy = match round % 3 {
                    0 => None,
                    1 if round % 2 == 0 => Some((&v[..], false)),
                    _ => Some((&v[..], round % 2 == 1)),
                };
                let seed = r.next_u64();
                let (mut a, mut b) = (
                    Xoshiro256PlusPlus::seed_from_u64(seed),
                    Xoshiro256PlusPlus::seed_from_u64(seed),
                );
                if let Some(want) = reference(&row, policy, &mut b) {
                    assert_eq!(
                        draw(&set, width - 1, policy, &mut a, &mut scratch),
                        want,
                        "{size}x{size}, round {round}"
                    );
                }
            }
        }
    }
}
