//! Which points' legality a play can change: the one rule behind every legal set kept
//! from one move to the next (a [`crate::Batch`]'s masks, [`crate::KeptLegal`]).
//!
//! Under capturing superko (Rule 4) and simple ko, a play on an empty point can be
//! refused only if it could capture or be suicide, and that needs the point to have no
//! empty neighbour or to be the last liberty of a neighbouring chain. Any other empty
//! point is legal for either colour whatever the history. A kept set therefore watches a
//! superset of the points that may be refused: after a play it marks everything the play
//! can have made so (the empty neighbours of the played point, the last liberty of each
//! chain through or next to it left in atari, the removed stones), and before each use it
//! tests the watched points exactly with [`Position::check_move`] (their answer depends
//! on the colour to move and, for captures, on the whole history) and stops watching those
//! that no longer need it. Every other point is legal exactly while it is empty.
//!
//! A watched point with no empty neighbour and no neighbouring chain in atari ("settled":
//! most are the eyes that random lines leave and fill) is decided for both colours by its
//! neighbours' colours alone, and stays so until it is played or a neighbouring chain is
//! left in atari (which marks it again: it is that chain's last liberty). None of its
//! neighbours can be removed before that: a removed chain was in atari, its last liberty
//! the play, so a settled point next to it would have been a second liberty. A batch's
//! masks (`batch_masks`) therefore take settled points out of the watched ones with their
//! answer for each colour, and only copy the side to move's answer for them instead of
//! testing them again (reading the neighbours' chains is most of a test's cost, their
//! cache lines long gone at a step of thousands of games).
//!
//! Positional superko tests every play against the history, so under it nothing can be
//! kept (`incremental` is false) and the owners scan from scratch; so they do after a
//! suicide, which may empty a whole region at once.

use crate::color::{Cell, Color};
use crate::geometry::{Geometry, Loc};
use crate::position::{KoRule, PlayRules, Position};

/// What the watch rules read: the layout and the play rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watcher {
    stride: usize,
    /// Whether a kept set may be updated from moves (not under positional superko).
    pub(crate) incremental: bool,
    /// Whether a play may remove its own chain (then that play gives the kept set up).
    suicide: bool,
    /// Whether a capture is tested against the history (capturing superko).
    pub(crate) probes: bool,
}

/// What the neighbours of an empty point say of a play there ([`Watcher::classify`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Local {
    /// It has an empty neighbour and is the last liberty of no neighbouring chain: no
    /// play there can be refused, for either colour, as long as that stays so.
    Open,
    /// The play captures: legal unless it repeats a configuration (or retakes a ko).
    Capture,
    /// The play captures nothing: legal or not (suicide) whatever the history.
    Decided(bool),
    /// No empty neighbour and no neighbouring chain in atari: a play there captures
    /// nothing and is legal for a colour if it has a neighbour of that colour (or if
    /// suicide is allowed), as long as that stays so. Black's and White's answers.
    Settled([bool; 2]),
}

/// The turn a kept set answers for: the colour to move and whether the last move was a
/// pass (which lifts a simple-ko ban).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    pub(crate) color: Color,
    pub(crate) last_pass: bool,
}

/// Words of a filter of configurations ([`remember`], [`may_have_seen`]): 4,096 bits,
/// two per configuration in one word, so a capture's probe is answered without the history
/// about 97% of the time in a game of 324 plays.
pub(crate) const SEEN_WORDS: usize = 64;

/// The filter's word and two bits in it for a configuration hash (bits of the hash that
/// the history's own filter does not use). Both bits in one word: one cache line per
/// lookup or insertion.
#[inline]
fn seen_bits(hash: u128) -> (usize, u64) {
    let h = (hash >> 64) as u64;
    (
        (h % SEEN_WORDS as u64) as usize,
        (1 << ((h >> 32) % 64)) | (1 << ((h >> 48) % 64)),
    )
}

/// The bits of a hash's high half that [`seen_bits`] reads (0-5, 32-37, 48-53), packed
/// into 18 bits: a filter lookup of `hash ^ d` needs only `seen_key(d)` of a delta `d`
/// ([`may_have_seen_key`]), so that an owner can keep 4 bytes per delta instead of 16.
#[inline]
pub(crate) fn seen_key(hash: u128) -> u32 {
    let h = (hash >> 64) as u64;
    (h & 0x3f) as u32 | (((h >> 32) & 0x3f) as u32) << 6 | (((h >> 48) & 0x3f) as u32) << 12
}

/// The high half's bits that [`seen_key`] packed, back in place (the others zero).
#[inline]
fn unpack_key(key: u32) -> u128 {
    let k = u64::from(key);
    u128::from((k & 0x3f) | ((k >> 6) & 0x3f) << 32 | ((k >> 12) & 0x3f) << 48) << 64
}

/// [`may_have_seen`] for the configuration of hash `hash ^ d`, given `seen_key(d)`.
#[inline]
pub(crate) fn may_have_seen_key(seen: &[u64], complete: bool, hash: u128, key: u32) -> bool {
    may_have_seen(seen, complete, hash ^ unpack_key(key))
}

/// Adds a configuration to the filter `seen` ([`SEEN_WORDS`] words).
#[inline]
pub(crate) fn remember(seen: &mut [u64], hash: u128) {
    let (w, bits) = seen_bits(hash);
    seen[w] |= bits;
}

/// Whether a configuration of this hash may be in the history: always, unless the filter
/// `seen` holds the whole history (`complete`) and says it is not. A capture it rules out
/// needs no probe of the history itself (a hit is sent to the exact test).
#[inline]
pub(crate) fn may_have_seen(seen: &[u64], complete: bool, hash: u128) -> bool {
    let (w, bits) = seen_bits(hash);
    !complete || seen[w] & bits == bits
}

impl Watcher {
    pub(crate) fn new(geo: Geometry, rules: PlayRules) -> Self {
        Watcher {
            stride: usize::from(geo.stride),
            incremental: rules.ko != KoRule::PositionalSuperko,
            suicide: rules.suicide,
            probes: rules.ko == KoRule::CapturingSuperko,
        }
    }

    #[inline]
    fn neighbours(&self, p: Loc) -> [Loc; 4] {
        let s = self.stride as Loc;
        [p - s, p - 1, p + 1, p + s]
    }

    #[inline]
    pub(crate) fn mark(watch: &mut [u64], p: Loc) {
        watch[p as usize / 64] |= 1 << (p % 64);
    }

    /// What the neighbours of the empty point `p` say of a play there by `color`.
    #[inline]
    pub(crate) fn classify<const N: usize>(
        &self,
        pos: &Position<N>,
        color: Color,
        p: Loc,
    ) -> Local {
        let board = pos.board();
        if board.empty_neighbours(p) == 4 {
            return Local::Open;
        }
        let opp = Cell::stone(color.opponent());
        let (mut open, mut atari, mut captures, mut breathes) = (false, false, false, false);
        let mut near = [false; 2];
        for q in self.neighbours(p) {
            match board.cell(q) {
                Cell::Empty => open = true,
                Cell::Wall => {}
                c => {
                    let last = board.in_atari(q);
                    atari |= last;
                    near[usize::from(c == Cell::White)] = true;
                    if c == opp {
                        captures |= last;
                    } else {
                        breathes |= !last;
                    }
                }
            }
        }
        if open && !atari {
            Local::Open
        } else if captures {
            Local::Capture
        } else if !open && !atari {
            Local::Settled([near[0] || self.suicide, near[1] || self.suicide])
        } else {
            Local::Decided(open || breathes || self.suicide)
        }
    }

    /// [`Watcher::classify`] for Black and for White, the neighbours read once (the kept
    /// legal plays answer both colours of a point at once). Kept beside `classify` rather
    /// than replacing it: `classify` as `classify_both(..)[colour]` cost the lockstep loop
    /// 1.3% more instructions. A neighbouring chain is in atari exactly when `p`, one of
    /// its liberties, is its only one.
    #[inline]
    pub(crate) fn classify_both<const N: usize>(&self, pos: &Position<N>, p: Loc) -> [Local; 2] {
        let board = pos.board();
        if board.empty_neighbours(p) == 4 {
            return [Local::Open; 2];
        }
        let mut open = false;
        // Per colour: a neighbour of it, a neighbouring chain of it in atari, one not in atari.
        let (mut near, mut last, mut free) = ([false; 2], [false; 2], [false; 2]);
        for q in self.neighbours(p) {
            match board.cell(q) {
                Cell::Empty => open = true,
                Cell::Wall => {}
                c => {
                    let (k, atari) = (usize::from(c == Cell::White), board.only_liberty_is(q, p));
                    near[k] = true;
                    last[k] |= atari;
                    free[k] |= !atari;
                }
            }
        }
        let atari = last[0] || last[1];
        if open && !atari {
            return [Local::Open; 2];
        }
        let suicide = self.suicide;
        [0, 1].map(|k| {
            if last[1 - k] {
                Local::Capture
            } else if !open && !atari {
                Local::Settled([near[0] || suicide, near[1] || suicide])
            } else {
                Local::Decided(open || free[k] || suicide)
            }
        })
    }

    /// Marks the last liberty of the chain through `q` (a stone) if it has only one.
    #[inline]
    fn mark_if_atari<const N: usize>(pos: &Position<N>, q: Loc, watch: &mut [u64]) {
        if let Some(r) = pos.board().last_liberty(q) {
            Self::mark(watch, r);
        }
    }

    /// Before `c` plays at `loc` (a legal play): watches the stones it will remove.
    /// Returns false if the play is a suicide the rules allow: the kept set must then be
    /// rebuilt after it.
    pub(crate) fn before_play<const N: usize>(
        &self,
        pos: &Position<N>,
        loc: Loc,
        c: Color,
        watch: &mut [u64],
    ) -> bool {
        let board = pos.board();
        if self.suicide && board.shape(loc, c).suicide {
            return false;
        }
        let opp = Cell::stone(c.opponent());
        for q in self.neighbours(loc) {
            if board.cell(q) == opp && board.in_atari(q) {
                for st in board.chain(q) {
                    Self::mark(watch, st);
                }
            }
        }
        true
    }

    /// [`Watcher::before_play`] and [`Watcher::mark_leaving_atari`] in one pass, for an
    /// owner that marks the played point itself: marks the stones the play will remove
    /// and the last liberty of each chain of `c` next to them that is in atari (it gains
    /// liberties). A chain of `c` next to `loc` in atari has `loc` as its last liberty,
    /// so it needs no mark of its own. Returns false if the play is a suicide the rules
    /// allow (the owner then rebuilds its set after it).
    pub(crate) fn before_play_retested<const N: usize>(
        &self,
        pos: &Position<N>,
        loc: Loc,
        c: Color,
        marks: &mut [u64],
    ) -> bool {
        let board = pos.board();
        if self.suicide && board.shape(loc, c).suicide {
            return false;
        }
        let (own, opp) = (Cell::stone(c), Cell::stone(c.opponent()));
        for q in self.neighbours(loc) {
            if board.cell(q) == opp && board.in_atari(q) {
                for st in board.chain(q) {
                    Self::mark(marks, st);
                    for t in self.neighbours(st) {
                        if board.cell(t) == own {
                            Self::mark_if_atari(pos, t, marks);
                        }
                    }
                }
            }
        }
        true
    }

    /// Before `c` plays at `loc` (a legal play that is no suicide): marks the last
    /// liberty of each chain of `c` that is in atari and may leave it (those next to `loc`,
    /// which join the played stone, and those next to the stones the play removes, which
    /// gain liberties). [`Watcher::before_play`] and [`Watcher::after_play_retested`] mark the
    /// points whose answer may change from may-be-refused; these are the rest of the
    /// points whose neighbourhood (cells, chains in atari) the play changes, so that a kept
    /// answer elsewhere stays true until its history is (captures, re-probed each move).
    pub(crate) fn mark_leaving_atari<const N: usize>(
        &self,
        pos: &Position<N>,
        loc: Loc,
        c: Color,
        marks: &mut [u64],
    ) {
        let board = pos.board();
        let (own, opp) = (Cell::stone(c), Cell::stone(c.opponent()));
        for q in self.neighbours(loc) {
            let cell = board.cell(q);
            if cell == own {
                Self::mark_if_atari(pos, q, marks);
            } else if cell == opp && board.in_atari(q) {
                for s in board.chain(q) {
                    for t in self.neighbours(s) {
                        if board.cell(t) == own {
                            Self::mark_if_atari(pos, t, marks);
                        }
                    }
                }
            }
        }
    }

    /// After `played` played at `loc`: watches the points around it whose answer can have
    /// changed (the caller marks `loc` itself as no longer empty). An empty neighbour of
    /// `loc` that keeps an empty neighbour is not watched for the play's sake: a play
    /// there is no suicide, and its answer can change only through a neighbouring chain
    /// left in atari, and such a chain's last liberty is that point, marked with the chain:
    /// the played chain, or an opponent chain next to `loc` (the others' liberties did not
    /// shrink, and one already in atari had it watched). So it stays open if it was, and
    /// an answer kept for it (a batch's masks retest every watched point at each use
    /// anyway) stays true.
    pub(crate) fn after_play_retested<const N: usize>(
        &self,
        pos: &Position<N>,
        loc: Loc,
        played: Color,
        watch: &mut [u64],
    ) {
        let board = pos.board();
        let played = Cell::stone(played);
        for q in self.neighbours(loc) {
            match board.cell(q) {
                Cell::Empty if board.empty_neighbours(q) == 0 => Self::mark(watch, q),
                Cell::Empty | Cell::Wall => {}
                c if c != played => Self::mark_if_atari(pos, q, watch),
                _ => {} // part of the played chain, looked at below
            }
        }
        Self::mark_if_atari(pos, loc, watch);
    }
}

#[cfg(test)]
mod tests {
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::{may_have_seen, may_have_seen_key, remember, seen_key, SEEN_WORDS};

    /// A filter lookup of `hash ^ d` from the packed key of `d` answers as the lookup of
    /// the whole hash, for filters holding random configurations.
    #[test]
    fn a_packed_delta_looks_up_as_the_whole_hash() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut wide = || u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
        for _ in 0..200 {
            let mut seen = [0u64; SEEN_WORDS];
            let hashes: Vec<u128> = (0..300).map(|_| wide()).collect();
            for &h in &hashes[..150] {
                remember(&mut seen, h);
            }
            for &after in &hashes {
                let base = wide();
                let delta = after ^ base;
                let whole = may_have_seen(&seen, true, after);
                assert_eq!(may_have_seen_key(&seen, true, base, seen_key(delta)), whole);
            }
        }
    }
}
