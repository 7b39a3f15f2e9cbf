//! The legal masks a [`crate::Batch`] keeps for its games from one step to the next,
//! updated from each move instead of recomputed from scratch by the rules of
//! [`crate::legal_watch`]: every point outside a game's watch set keeps its entry (legal
//! while empty, not once played). A row is rebuilt from scratch after each move under
//! positional superko, and after a suicide, a playout or a reset.
//!
//! Each watched point keeps its answer for each colour until something near it changes:
//! a move marks the points whose neighbourhood it changes (the removed stones, the last
//! liberties of chains that enter or leave atari, the empty neighbours of the played point
//! left with none, the played point), and only marked points are tested again, once for
//! each colour, as the kept legal plays of `Game` do ([`crate::KeptLegal`]). A capture's
//! answer also depends on the history, so it is probed again at each step, from the hash
//! delta kept with it (one XOR, the captured chains being the same until the point is
//! marked).
//!
//! Each game's row is kept as a bit set by flat index (the pass implied), 16 bytes on
//! 9x9: a step's checks, the native draw and the expansion into a caller's bool rows read
//! these instead of `w*h + 1` bytes per game, and a step sets the answers of its settled
//! points with a few word operations.

use rayon::prelude::*;

use crate::color::Cell;
use crate::game::Game;
use crate::geometry::{Geometry, Loc};
use crate::legal_watch::{self, Local, Turn, Watcher, SEEN_WORDS};
use crate::position::{PlayRules, Position};

/// The rows of legal actions of `n` games and what keeps them current.
#[derive(Clone, Debug)]
pub(crate) struct Masks {
    ctx: Ctx,
    /// Per game, `words` words: the legal plays of the side to move, one bit per flat
    /// index (the pass left out). A finished game's set is empty (only the pass).
    legal: Vec<u64>,
    /// Per game, [`SETS`] sets of `words` words ([`WATCHED`] and the others below): the
    /// watched points, the settled points and their answers ([`crate::legal_watch`]), and
    /// per colour the watched points whose answer must be found again, those refused to
    /// it and those where its play captures; then per colour [`SLOTS`] words, each a
    /// capture point's loc (plus one; 0 for none) and what a capture there XORs into the
    /// hash, as the bits the filter of configurations reads ([`legal_watch::seen_key`]).
    /// The delta is kept with the answer, so that a capture is probed again after each
    /// move by one XOR instead of a walk of the captured chains; a game has few capture
    /// points at a time, so a few slots beside the sets hold them (in the sets' lines,
    /// instead of 4 bytes per point and colour elsewhere), and a capture point that finds
    /// no free slot has its delta found again at each probe.
    watch: Vec<u64>,
    /// Per game: its row and watch set describe the game as it stands.
    fresh: Vec<bool>,
    /// Per game, [`SEEN_WORDS`] words: a Bloom filter of the hashes of every
    /// configuration of its history, so that most captures need no probe of the history
    /// itself (a hit is sent to the exact test).
    seen: Vec<u64>,
    /// Per game: `seen` holds every configuration of the game (false after a playout,
    /// whose plays it did not see, until the game is reset).
    complete: Vec<bool>,
    /// Per game, two sets of `words` words by flat index: the points where Black, then
    /// White, has had a stone in some configuration of the game (kept while `complete`).
    /// A capture at a point where its colour never stood cannot repeat a configuration,
    /// so it needs neither the hash of the configuration after it nor a look in `seen`.
    played: Vec<u64>,
}

/// What every game's update reads: the layout and the rules.
#[derive(Clone, Debug)]
pub(crate) struct Ctx {
    /// Actions per row (`w*h + 1`, the pass last).
    width: usize,
    /// Words of one game's bit set.
    words: usize,
    /// Padded cell to flat index (meaningless off the board).
    index: Vec<u16>,
    /// Which points to watch, and how they are tested.
    watcher: Watcher,
}

/// One game's share of the masks.
pub(crate) struct Slot<'a> {
    legal: &'a mut [u64],
    watch: &'a mut [u64],
    fresh: &'a mut bool,
    seen: &'a mut [u64],
    complete: &'a mut bool,
    played: &'a mut [u64],
}

/// Eight bools per byte value, for the expansion of bit sets into bool rows.
static EXPAND: [[bool; 8]; 256] = {
    let mut t = [[false; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b][j] = (b >> j) & 1 == 1;
            j += 1;
        }
        b += 1;
    }
    t
};

impl Masks {
    /// Rows for `n` games, none of them current yet.
    pub(crate) fn try_new(
        geo: Geometry,
        rules: PlayRules,
        n: usize,
    ) -> Result<Self, std::collections::TryReserveError> {
        let width = geo.points() + 1;
        let words = geo.cells().div_ceil(64);
        let mut index = vec![u16::MAX; geo.cells()];
        for (i, loc) in geo.locs().enumerate() {
            index[loc as usize] = i as u16;
        }
        let ctx = Ctx {
            width,
            words,
            index,
            watcher: Watcher::new(geo, rules),
        };
        Ok(Masks {
            ctx,
            legal: filled(n.saturating_mul(words), 0)?,
            watch: filled(n.saturating_mul(SETS * words + 2 * SLOTS), 0)?,
            fresh: filled(n, false)?,
            seen: filled(n.saturating_mul(SEEN_WORDS), 0)?,
            complete: filled(n, false)?,
            played: filled(n.saturating_mul(2 * words), 0)?,
        })
    }

    /// Marks game `i`'s row as out of date (its game was replaced or played on elsewhere).
    pub(crate) fn invalidate(&mut self, i: usize) {
        self.fresh[i] = false;
        self.complete[i] = false;
    }

    pub(crate) fn invalidate_all(&mut self) {
        self.fresh.fill(false);
        self.complete.fill(false);
    }

    /// Whether game `i`'s row is current and allows `action` (a play's flat index).
    #[inline]
    pub(crate) fn allows(&self, i: usize, action: usize) -> bool {
        let w = self.ctx.words;
        self.fresh[i] && self.legal[i * w + action / 64] >> (action % 64) & 1 == 1
    }

    /// Rebuilds every row that is out of date.
    pub(crate) fn refresh<const N: usize>(&mut self, games: &[Game<N>]) {
        let (slots, ctx) = self.slots();
        slots
            .zip(games)
            .with_min_len(64)
            .for_each(|(s, g)| ctx.ensure(g, s));
    }

    /// Every game's legal set (`words` words each, one bit per flat index, the pass implied),
    /// with the layout; current only after [`Masks::refresh`].
    pub(crate) fn sets(&self) -> (impl IndexedParallelIterator<Item = &[u64]>, &Ctx) {
        (self.legal.par_chunks(self.ctx.words), &self.ctx)
    }

    /// Writes every row into `out` (`n` rows of `w*h + 1` bools, the pass last and always
    /// true); current only after [`Masks::refresh`].
    pub(crate) fn write_rows(&self, out: &mut [bool]) {
        let ctx = &self.ctx;
        out.par_chunks_mut(ctx.width)
            .zip(self.legal.par_chunks(ctx.words))
            .with_min_len(256)
            .for_each(|(row, set)| ctx.expand(set, row));
    }

    /// The per-game slots, in game order, for a parallel pass, with what updates them.
    pub(crate) fn slots(&mut self) -> (impl IndexedParallelIterator<Item = Slot<'_>>, &Ctx) {
        let ctx = &self.ctx;
        let slots = self
            .legal
            .par_chunks_mut(ctx.words)
            .zip(self.watch.par_chunks_mut(SETS * ctx.words + 2 * SLOTS))
            .zip(self.fresh.par_iter_mut())
            .zip(self.seen.par_chunks_mut(SEEN_WORDS))
            .zip(self.complete.par_iter_mut())
            .zip(self.played.par_chunks_mut(2 * ctx.words))
            .map(
                |(((((legal, watch), fresh), seen), complete), played)| Slot {
                    legal,
                    watch,
                    fresh,
                    seen,
                    complete,
                    played,
                },
            );
        (slots, ctx)
    }
}

impl Slot<'_> {
    #[inline]
    fn remember(&mut self, hash: u128) {
        legal_watch::remember(self.seen, hash);
    }
}

/// The sets of a game's watch, each `words` words: the watched points (by loc), the
/// settled points and Black's and White's answers there (by flat index, the order of a
/// row), then per colour (by loc): the watched points whose answer must be found again,
/// those refused to it, and those where its play captures.
const SETS: usize = 10;
const WATCHED: usize = 0;
const SETTLED: usize = 1;
const ANSWER: usize = 2;
const STALE: usize = 4;
const BANNED: usize = 6;
const CAPTURE: usize = 8;
/// Capture slots per colour after a game's sets.
const SLOTS: usize = 4;

/// Word and bit of index `i` in a bit set.
#[inline]
fn at(i: usize) -> (usize, u64) {
    (i / 64, 1 << (i % 64))
}

/// Sets or clears bit `i` of set `set` of a game's watch.
#[inline]
fn put(watch: &mut [u64], words: usize, set: usize, i: usize, on: bool) {
    let (k, bit) = at(i);
    if on {
        watch[set * words + k] |= bit;
    } else {
        watch[set * words + k] &= !bit;
    }
}

impl Ctx {
    #[inline]
    fn turn<const N: usize>(g: &Game<N>) -> Turn {
        Turn {
            color: g.to_move,
            last_pass: g.passes.last_pass,
        }
    }

    /// The flat index of the on-board point `loc`.
    #[inline]
    pub(crate) fn index(&self, loc: Loc) -> usize {
        usize::from(self.index[loc as usize])
    }

    /// Writes the bit set `set` as a bool row (`w*h + 1`, the pass last and true), eight
    /// bools per table entry.
    #[inline]
    fn expand(&self, set: &[u64], row: &mut [bool]) {
        let done = row.len() / 8 * 8;
        let mut chunks = row.chunks_exact_mut(8);
        for (c, chunk) in (&mut chunks).enumerate() {
            chunk.copy_from_slice(&EXPAND[(set[c / 8] >> (8 * (c % 8))) as usize & 0xff]);
        }
        for (j, b) in chunks.into_remainder().iter_mut().enumerate() {
            let i = done + j;
            *b = set[i / 64] >> (i % 64) & 1 == 1;
        }
        row[self.width - 1] = true;
    }

    /// Whether `turn`'s capture at the empty point `p` (flat index `f`), whose XOR into
    /// the hash has the filter's key `delta` ([`legal_watch::seen_key`]), is legal: refused only as a repetition (or a
    /// simple-ko retake). Under capturing superko it is legal without looking further
    /// where its colour never stood at `p` (the configuration after it has that stone) or
    /// where the filter of configurations rules the configuration out.
    #[inline]
    fn probe<const N: usize>(
        &self,
        pos: &Position<N>,
        turn: Turn,
        p: Loc,
        f: usize,
        delta: u32,
        s: &Slot<'_>,
    ) -> bool {
        let c = turn.color;
        let new = self.watcher.probes && *s.complete && {
            let (k, bit) = at(f);
            s.played[c.index() * self.words + k] & bit == 0
                || !legal_watch::may_have_seen_key(s.seen, true, pos.board().hash(), delta)
        };
        new || pos.check_move(p, c, turn.last_pass).is_ok()
    }

    /// The answer of `turn` at the watched empty point `p` (flat index `f`) classified as
    /// `local` (a capture or decided), kept in the sets of its colour.
    #[inline]
    fn answer<const N: usize>(
        &self,
        pos: &Position<N>,
        turn: Turn,
        p: Loc,
        f: usize,
        local: Local,
        s: &mut Slot<'_>,
    ) -> bool {
        let (k, w) = (turn.color.index(), self.words);
        let legal = match local {
            Local::Capture => {
                let delta = self.delta(pos, turn, p);
                self.keep_delta(s.watch, k, p, delta);
                self.probe(pos, turn, p, f, delta, s)
            }
            Local::Decided(legal) => legal,
            Local::Open | Local::Settled(_) => true,
        };
        put(s.watch, w, CAPTURE + k, p as usize, local == Local::Capture);
        put(s.watch, w, BANNED + k, p as usize, !legal);
        legal
    }

    /// What `turn`'s capture at `p` XORs into the hash, as the filter's key (0 where
    /// captures are not probed).
    #[inline]
    fn delta<const N: usize>(&self, pos: &Position<N>, turn: Turn, p: Loc) -> u32 {
        let board = pos.board();
        if self.watcher.probes {
            legal_watch::seen_key(board.hash_after(p, turn.color) ^ board.hash())
        } else {
            0
        }
    }

    /// Where the capture slots of colour `k` are in a game's watch.
    #[inline]
    fn slots(&self, k: usize) -> std::ops::Range<usize> {
        let start = SETS * self.words + k * SLOTS;
        start..start + SLOTS
    }

    /// Keeps the delta of colour `k`'s capture at `p` in the slot of `p`, or else in one
    /// that no capture point of that colour holds any more; none free: not kept (found
    /// again at each probe).
    #[inline]
    fn keep_delta(&self, watch: &mut [u64], k: usize, p: Loc, delta: u32) {
        let key = u64::from(p) + 1;
        let (slots, captures) = (self.slots(k), (CAPTURE + k) * self.words);
        let free = |slot: u64| {
            let q = (slot >> 32) as usize;
            q == 0 || watch[captures + (q - 1) / 64] >> ((q - 1) % 64) & 1 == 0
        };
        let at = watch[slots.clone()]
            .iter()
            .position(|&slot| slot >> 32 == key)
            .or_else(|| watch[slots.clone()].iter().position(|&slot| free(slot)));
        if let Some(i) = at {
            watch[slots.start + i] = key << 32 | u64::from(delta);
        }
    }

    /// The kept delta of colour `k`'s capture at `p`, if it has a slot.
    #[inline]
    fn kept_delta(&self, watch: &[u64], k: usize, p: Loc) -> Option<u32> {
        let key = u64::from(p) + 1;
        watch[self.slots(k)]
            .iter()
            .find(|&&slot| slot >> 32 == key)
            .map(|&slot| slot as u32)
    }

    /// Records the point of flat index `f` as settled with `answers` (Black's, White's).
    #[inline]
    fn settle(&self, watch: &mut [u64], f: usize, answers: [bool; 2]) {
        put(watch, self.words, SETTLED, f, true);
        put(watch, self.words, ANSWER, f, answers[0]);
        put(watch, self.words, ANSWER + 1, f, answers[1]);
    }

    /// Stops watching `p` (loc), for both colours.
    #[inline]
    fn unwatch(&self, watch: &mut [u64], p: Loc) {
        for set in [
            WATCHED,
            STALE,
            STALE + 1,
            BANNED,
            BANNED + 1,
            CAPTURE,
            CAPTURE + 1,
        ] {
            put(watch, self.words, set, p as usize, false);
        }
    }

    /// The row of `g` from scratch.
    pub(crate) fn rebuild<const N: usize>(&self, g: &Game<N>, mut s: Slot<'_>) {
        if g.position.plays() == 0 {
            // The history is the initial configuration alone: the filter can hold it all.
            s.seen.fill(0);
            s.remember(g.position.board().hash());
            s.played.fill(0);
            for (loc, &cell) in g
                .position
                .board()
                .cells()
                .iter()
                .enumerate()
                .take(self.index.len())
            {
                if let (Some(c), Some(&f)) = (
                    cell.color(),
                    self.index.get(loc).filter(|&&f| f != u16::MAX),
                ) {
                    let f = usize::from(f);
                    s.played[c.index() * self.words + f / 64] |= 1 << (f % 64);
                }
            }
            *s.complete = true;
        }
        s.legal.fill(0);
        s.watch.fill(0);
        if !g.passes.over {
            if self.watcher.incremental {
                let (pos, turn) = (&g.position, Self::turn(g));
                let other = turn.color.opponent().index();
                pos.board().for_each_empty(|f, p| {
                    let ok = match self.watcher.classify(pos, turn.color, p) {
                        Local::Open => true,
                        Local::Settled(answers) => {
                            self.settle(s.watch, f, answers);
                            answers[turn.color.index()]
                        }
                        local => {
                            put(s.watch, self.words, WATCHED, p as usize, true);
                            put(s.watch, self.words, STALE + other, p as usize, true);
                            self.answer(pos, turn, p, f, local, &mut s)
                        }
                    };
                    if ok {
                        s.legal[f / 64] |= 1 << (f % 64);
                    }
                });
            } else {
                g.for_each_legal(|i, _| s.legal[i / 64] |= 1 << (i % 64));
            }
        }
        *s.fresh = true;
    }

    /// Rebuilds the row of `g` if it is out of date.
    pub(crate) fn ensure<const N: usize>(&self, g: &Game<N>, s: Slot<'_>) {
        if !*s.fresh {
            self.rebuild(g, s);
        }
    }

    /// Before `g`'s side to move plays at `loc` (a legal play): marks in `marks` (one bit
    /// per padded cell) the stones it will remove and the last liberties of its chains
    /// that may leave atari, or gives the row up if the play is a suicide.
    pub(crate) fn before_play<const N: usize>(
        &self,
        g: &Game<N>,
        loc: Loc,
        s: &mut Slot<'_>,
        marks: &mut [u64],
    ) {
        if !self.watcher.incremental || !*s.fresh {
            return;
        }
        if !self
            .watcher
            .before_play_retested(&g.position, loc, g.to_move, marks)
        {
            *s.fresh = false;
        }
    }

    /// After `g` made the move `mv` (`None`: a pass): brings the row up to date, with the
    /// points [`Ctx::before_play`] marked in `marks` (left clear).
    pub(crate) fn after_move<const N: usize>(
        &self,
        g: &Game<N>,
        mv: Option<Loc>,
        mut s: Slot<'_>,
        marks: &mut [u64],
    ) {
        if let Some(loc) = mv.filter(|_| *s.complete) {
            s.remember(g.position.board().hash());
            let (c, f) = (g.to_move.opponent(), self.index(loc));
            s.played[c.index() * self.words + f / 64] |= 1 << (f % 64);
        }
        if !self.watcher.incremental || !*s.fresh || g.passes.over {
            marks.fill(0);
            self.rebuild(g, s);
            return;
        }
        let w = self.words;
        if let Some(loc) = mv {
            let f = self.index(loc);
            s.legal[f / 64] &= !(1 << (f % 64));
            put(s.watch, w, SETTLED, f, false);
            self.watcher
                .after_play_retested(&g.position, loc, g.to_move.opponent(), marks);
            // The played point holds a stone now (a suicide gave the row up before the
            // play): it leaves the watch with its answers here, not as a marked point
            // visited by the next retest (the marks may name it: a liberty it filled).
            marks[loc as usize / 64] &= !(1 << (loc % 64));
            self.unwatch(s.watch, loc);
        }
        // A marked point is watched, and found again for both colours.
        for (k, m) in marks.iter_mut().enumerate().take(w) {
            let m = std::mem::take(m);
            s.watch[WATCHED * w + k] |= m;
            s.watch[STALE * w + k] |= m;
            s.watch[(STALE + 1) * w + k] |= m;
        }
        self.retest(g, &mut s);
    }

    /// Brings the answers of the side to move up to date: the watched points stale for
    /// it are tested again (those no longer empty, open or settled leave the watch), its
    /// captures are probed again (the history has changed, not what they capture: a
    /// point whose captured chains change is marked), and the other watched points keep
    /// their answer. Then the settled points' answers are copied by whole words.
    fn retest<const N: usize>(&self, g: &Game<N>, s: &mut Slot<'_>) {
        let (pos, turn) = (&g.position, Self::turn(g));
        let board = pos.board();
        let (k, w) = (turn.color.index(), self.words);
        for word in 0..w {
            let stale = std::mem::take(&mut s.watch[(STALE + k) * w + word]);
            let mut bits = s.watch[WATCHED * w + word];
            while bits != 0 {
                let bit = bits & bits.wrapping_neg();
                let p = (word * 64) as Loc + bits.trailing_zeros() as Loc;
                bits &= bits - 1;
                let f = self.index(p);
                let legal = if stale & bit != 0 {
                    // Marked: a settled point is tested again too.
                    put(s.watch, w, SETTLED, f, false);
                    if board.cell(p) == Cell::Empty {
                        match self.watcher.classify(pos, turn.color, p) {
                            Local::Open => {
                                self.unwatch(s.watch, p);
                                true
                            }
                            Local::Settled(answers) => {
                                self.unwatch(s.watch, p);
                                self.settle(s.watch, f, answers);
                                answers[k]
                            }
                            local => self.answer(pos, turn, p, f, local, s),
                        }
                    } else {
                        self.unwatch(s.watch, p);
                        false
                    }
                } else if s.watch[(CAPTURE + k) * w + word] & bit != 0 {
                    let delta = self
                        .kept_delta(s.watch, k, p)
                        .unwrap_or_else(|| self.delta(pos, turn, p));
                    let legal = self.probe(pos, turn, p, f, delta, s);
                    put(s.watch, w, BANNED + k, p as usize, !legal);
                    legal
                } else {
                    s.watch[(BANNED + k) * w + word] & bit == 0
                };
                let (fk, fbit) = at(f);
                if legal {
                    s.legal[fk] |= fbit;
                } else {
                    s.legal[fk] &= !fbit;
                }
            }
        }
        for word in 0..w {
            let settled = s.watch[SETTLED * w + word];
            s.legal[word] =
                (s.legal[word] & !settled) | (s.watch[(ANSWER + k) * w + word] & settled);
        }
    }
}

/// A vector of `n` copies of `value`, or an error if memory for it is short.
fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, std::collections::TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use crate::batch::Batch;
    use crate::game::{Ending, Rules};
    use crate::geometry::Geometry;
    use crate::position::{Illegal, KoRule, PlayRules};
    use crate::tiers::{CELLS_19, CELLS_9};

    /// Random lines with eye filling (so captures, ko and superko come up all the time),
    /// some passes, resets and playouts between steps: after every step the kept rows
    /// equal the position's own scan from scratch, under every play rule.
    #[test]
    fn kept_masks_equal_the_scan_from_scratch() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut banned = 0;
        for (w, h) in [(2, 3), (3, 3), (4, 4), (5, 5), (9, 9), (7, 2)] {
            banned += lines::<CELLS_9>(&mut rng, w, h, 12, 400);
        }
        assert!(banned > 1000, "only {banned} ko and superko bans seen");
    }

    /// The same on boards whose rows of actions span several words (the flat bit sets
    /// and their expansion into bool rows).
    #[test]
    fn kept_masks_equal_the_scan_from_scratch_on_larger_boards() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        let mut banned = 0;
        for (w, h) in [(19, 19), (13, 11), (25, 3)] {
            banned += lines::<CELLS_19>(&mut rng, w, h, 4, 300);
        }
        assert!(banned > 20, "only {banned} ko and superko bans seen");
    }

    /// The figures docs/batch.md gives for a game's kept mask: 0.8 KB on 9x9, 1.3 KB on 19x19.
    #[test]
    fn kept_mask_per_game_is_as_documented() {
        let bytes = |side: usize| {
            let m =
                super::Masks::try_new(Geometry::new(side, side).unwrap(), Rules::area3(13).play, 1)
                    .unwrap();
            8 * (m.legal.len() + m.watch.len() + m.seen.len() + m.played.len())
                + m.fresh.len()
                + m.complete.len()
        };
        assert!(bytes(9) <= 800, "{}", bytes(9));
        assert!(bytes(19) <= 1310, "{}", bytes(19));
    }

    /// Random lines of `n` games on a `w` x `h` board for `steps` steps under every play
    /// rule, checked after every step; returns the ko and superko bans seen.
    fn lines<const N: usize>(
        rng: &mut Xoshiro256PlusPlus,
        w: usize,
        h: usize,
        n: usize,
        steps: usize,
    ) -> usize {
        let mut banned = 0;
        for (ko, suicide) in [
            (KoRule::CapturingSuperko, false),
            (KoRule::CapturingSuperko, true),
            (KoRule::SimpleKo, false),
            (KoRule::SimpleKo, true),
            (KoRule::PositionalSuperko, true),
        ] {
            let rules = Rules {
                play: PlayRules { ko, suicide },
                ending: Ending::EqualMoves,
                ..Rules::area3(13)
            };
            let geo = Geometry::new(w, h).unwrap();
            let width = geo.points() + 1;
            let mut b = Batch::<N>::new(geo, rules, n, rng.next_u64());
            let (mut kept, mut scratch) = (vec![false; n * width], vec![false; n * width]);
            b.legal_mask(&mut kept);
            for step in 0..steps {
                b.legal_mask_from_scratch(&mut scratch);
                assert_eq!(
                    kept, scratch,
                    "{w}x{h} {ko:?} suicide={suicide}, step {step}"
                );
                for (g, row) in b.games().iter().zip(scratch.chunks(width)) {
                    for (i, loc) in geo.locs().enumerate() {
                        banned += usize::from(
                            !row[i] && matches!(g.check(loc), Err(Illegal::Superko | Illegal::Ko)),
                        );
                    }
                }
                let actions: Vec<i64> = kept
                    .chunks(width)
                    .map(|row| {
                        let legal: Vec<usize> = (0..width - 1).filter(|&i| row[i]).collect();
                        if legal.is_empty() || rng.next_u64() % 40 == 0 {
                            (width - 1) as i64
                        } else {
                            legal[(rng.next_u64() % legal.len() as u64) as usize] as i64
                        }
                    })
                    .collect();
                match rng.next_u64() % 100 {
                    0 => {
                        let which: Vec<bool> = (0..n).map(|_| rng.next_u64() % 3 == 0).collect();
                        b.reset(&which);
                        b.legal_mask(&mut kept);
                    }
                    1 => {
                        b.playout(0.0, 5).expect("memory for the playouts");
                        b.legal_mask(&mut kept);
                    }
                    2 => {
                        b.step(&actions).unwrap();
                        b.legal_mask(&mut kept);
                    }
                    _ => b.step_into(&actions, Some(&mut kept)).unwrap(),
                }
                let over: Vec<bool> = b.games().iter().map(|g| g.passes.over).collect();
                if over.iter().filter(|&&o| o).count() > n / 2 {
                    b.reset(&over);
                    b.legal_mask(&mut kept);
                }
            }
        }
        banned
    }
}
