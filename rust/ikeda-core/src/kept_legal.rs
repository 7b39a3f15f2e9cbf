//! The legal plays of one position, kept from one play to the next instead of found by a
//! scan of the whole board at every request (the Python `Board`'s and `Game`'s legal
//! lists). Which points can be refused, what a play can change, and how a point is tested
//! are [`crate::legal_watch`]'s, shared with a [`crate::Batch`]'s masks.
//!
//! The set is the board's empty points less the watched points refused to the side to
//! move. Each colour keeps its own answers for the watched points: a play marks the points
//! whose neighbourhood it changes as stale for both colours, and a capture's answer also
//! goes stale at every play (it depends on the whole board and history); a request tests
//! only the stale points of the colour asking. A capture is tested against the history
//! only when a filter of the line's configurations cannot rule the repetition out. The
//! simple-ko ban is applied as the list is read, so the answers hold before and after a
//! pass.
//!
//! A capture's probe needs the hash of the position after it, which XORs the captured
//! stones' keys into the board's hash. What it adds to the hash (the played stone and the
//! captured chains) is kept with the capture's answer: while the point is not marked, the
//! chains it captures stay as they were (each is in atari with that point as its only
//! liberty, so a stone can join it, leave it, or another chain come into atari there only
//! by a play at the point or next to the chain, which marks it), and the probe after a
//! play is one XOR instead of a walk over the captured stones.

use crate::board::WORDS;
use crate::color::{Cell, Color};
use crate::geometry::Loc;
use crate::legal_watch::{self, Local, Turn, Watcher, SEEN_WORDS};
use crate::position::Position;

type Bits = [u64; WORDS];

/// The high half of a hash, the half the filter of configurations reads.
#[inline]
fn high(hash: u128) -> u64 {
    (hash >> 64) as u64
}

/// A set of points, one bit per padded cell (bit `loc % 64` of word `loc / 64`).
pub type LocSet = [u64; WORDS];

#[inline]
fn set_bit(bits: &mut Bits, p: Loc, on: bool) {
    let (k, bit) = (p as usize / 64, 1u64 << (p % 64));
    if on {
        bits[k] |= bit;
    } else {
        bits[k] &= !bit;
    }
}

/// A position's legal plays, kept up to date by its owner's calls around each play.
#[derive(Clone, Debug)]
pub struct KeptLegal {
    /// The points that may be refused, one bit per padded cell.
    watch: Bits,
    /// Per colour: the watched points refused to it (bits of occupied points mean
    /// nothing: the set is read through the board's empty points).
    banned: [Bits; 2],
    /// Per colour: the watched points whose answer for it must be found again.
    stale: [Bits; 2],
    /// Per colour: the watched points where its play captures.
    capture: [Bits; 2],
    /// Per colour and padded cell: at a capture point, the high half (what the filter of
    /// configurations reads) of what the capture XORs into the board's hash; `2 * cells`
    /// values, made at the first scan.
    delta: Vec<u64>,
    /// What the play under way marked, between [`KeptLegal::before_play`] and
    /// [`KeptLegal::after_play`].
    marks: Bits,
    /// Whether the above describe the position as it stands; if not, the next request
    /// scans the board from scratch.
    fresh: bool,
    /// A Bloom filter of the configurations of the line ([`legal_watch::remember`]).
    seen: [u64; SEEN_WORDS],
    /// Whether `seen` holds every configuration of the line (it may hold more: a play
    /// taken back stays in it, which only sends some captures to the exact test).
    complete: bool,
}

impl Default for KeptLegal {
    fn default() -> Self {
        KeptLegal::new()
    }
}

impl KeptLegal {
    /// A set to be built at its first request.
    #[must_use]
    pub const fn new() -> Self {
        KeptLegal {
            watch: [0; WORDS],
            banned: [[0; WORDS]; 2],
            stale: [[0; WORDS]; 2],
            capture: [[0; WORDS]; 2],
            delta: Vec::new(),
            marks: [0; WORDS],
            fresh: false,
            seen: [0; SEEN_WORDS],
            complete: false,
        }
    }

    /// Forgets the kept set: the position changed otherwise than by a play seen by
    /// [`KeptLegal::before_play`] and [`KeptLegal::after_play`], but only by taking plays
    /// back (a new position needs a new set).
    pub fn invalidate(&mut self) {
        self.fresh = false;
    }

    /// Before `c` plays at `loc` on `pos` (a legal play).
    #[inline]
    pub fn before_play<const N: usize>(&mut self, pos: &Position<N>, loc: Loc, c: Color) {
        if self.fresh {
            let w = Watcher::new(pos.geometry(), pos.rules());
            if w.incremental && w.before_play(pos, loc, c, &mut self.marks) {
                w.mark_leaving_atari(pos, loc, c, &mut self.marks);
            } else {
                self.fresh = false;
                self.marks = [0; WORDS];
            }
        }
    }

    /// After `c` played at `loc` on `pos` (the play [`KeptLegal::before_play`] saw).
    #[inline]
    pub fn after_play<const N: usize>(&mut self, pos: &Position<N>, loc: Loc, c: Color) {
        if self.complete {
            legal_watch::remember(&mut self.seen, pos.board().hash());
        }
        if !self.fresh {
            return;
        }
        // An empty neighbour of the played point that keeps an empty neighbour is not
        // marked: a play there can be no suicide, so its kept answer (open, legal, or a
        // capture) changes only if a chain next to it enters or leaves atari, which marks
        // it ([`Watcher::after_play_retested`], [`Watcher::mark_leaving_atari`]).
        Watcher::new(pos.geometry(), pos.rules()).after_play_retested(pos, loc, c, &mut self.marks);
        // The played point too, so that its answers (a capture's among them) are dropped.
        set_bit(&mut self.marks, loc, true);
        for k in 0..pos.geometry().cells().div_ceil(64) {
            let m = std::mem::take(&mut self.marks[k]);
            self.watch[k] |= m;
            self.stale[0][k] |= m;
            self.stale[1][k] |= m;
        }
    }

    /// Whether a play on `loc` is legal for either colour on `pos` as the set knows it
    /// without a test: an empty point that is not watched can be refused to neither (a
    /// simple-ko retake's point is watched, being a removed stone). False where the set
    /// does not know (a watched point, or nothing kept): then the play must be tested.
    #[inline]
    #[must_use]
    pub fn surely_legal<const N: usize>(&self, pos: &Position<N>, loc: Loc) -> bool {
        self.fresh
            && self.watch[loc as usize / 64] >> (loc % 64) & 1 == 0
            && pos.board().cell(loc) == Cell::Empty
    }

    /// Calls `f(flat index, loc)` for every legal play of `color` on `pos`, in flat-index
    /// order, the simple-ko ban applied unless `last_pass`; the same plays as
    /// [`Position::for_each_legal`] less [`Position::ko_ban`].
    pub fn for_each_legal<const N: usize>(
        &mut self,
        pos: &Position<N>,
        color: Color,
        last_pass: bool,
        mut f: impl FnMut(usize, Loc),
    ) {
        match self.legal_set(pos, color, last_pass) {
            Some(set) => pos.geometry().for_each_set_index(&set, f),
            None => {
                // Positional superko: every play is tested against the history each time.
                let ko = pos.ko_ban(last_pass);
                pos.for_each_legal(color, |i, l| {
                    if Some(l) != ko {
                        f(i, l);
                    }
                });
            }
        }
    }

    /// The legal plays of `color` on `pos` as a set of locs, the simple-ko ban applied
    /// unless `last_pass`, or `None` where nothing is kept (positional superko: then
    /// [`Position::for_each_legal`] is the answer).
    pub fn legal_set<const N: usize>(
        &mut self,
        pos: &Position<N>,
        color: Color,
        last_pass: bool,
    ) -> Option<LocSet> {
        let w = Watcher::new(pos.geometry(), pos.rules());
        if !w.incremental {
            return None;
        }
        if !self.complete && w.probes {
            self.seen = [0; SEEN_WORDS];
            pos.for_each_configuration_hash(|h| legal_watch::remember(&mut self.seen, h));
            self.complete = true;
        }
        if self.fresh {
            self.retest(&w, pos, color);
        } else {
            self.scan(&w, pos, color);
        }
        let mut set = pos.board().empty_set();
        let banned = &self.banned[color.index()];
        for (s, b) in set
            .iter_mut()
            .zip(banned)
            .take(pos.geometry().cells().div_ceil(64))
        {
            *s &= !b;
        }
        // The simple-ko ban, for whichever colour asks (the answers above leave it out).
        if let Some(ko) = pos.ko_ban(last_pass) {
            set_bit(&mut set, ko, false);
        }
        Some(set)
    }

    /// Keeps `local` (not open), what the neighbours of `p` say of a play there by
    /// `color`, and its answer. A capture is probed now if `probe`; if not, the colour's
    /// next request probes it (a capture not stale is probed at every request).
    #[inline]
    fn keep<const N: usize>(
        &mut self,
        w: &Watcher,
        pos: &Position<N>,
        color: Color,
        p: Loc,
        local: Local,
        probe: bool,
    ) {
        let k = color.index();
        let legal = match local {
            Local::Capture => {
                let board = pos.board();
                let delta = if w.probes {
                    high(board.hash_after(p, color) ^ board.hash())
                } else {
                    0
                };
                self.delta[k * pos.geometry().cells() + p as usize] = delta;
                !probe
                    || self.probe(
                        w,
                        pos,
                        Turn {
                            color,
                            last_pass: true,
                        },
                        p,
                        delta,
                    )
            }
            Local::Decided(legal) => legal,
            Local::Settled(answers) => answers[k],
            Local::Open => true, // (not kept: an open point is not watched)
        };
        set_bit(&mut self.capture[k], p, local == Local::Capture);
        set_bit(&mut self.banned[k], p, !legal);
    }

    /// Whether the capture at `p` is legal for `turn`, given what it XORs into the hash
    /// (`delta`, the high half): refused only as a repetition (or a simple-ko retake),
    /// tested against the history unless the filter rules the configuration out.
    #[inline]
    fn probe<const N: usize>(
        &self,
        w: &Watcher,
        pos: &Position<N>,
        turn: Turn,
        p: Loc,
        delta: u64,
    ) -> bool {
        let after = u128::from(high(pos.board().hash()) ^ delta) << 64;
        let new = w.probes && !legal_watch::may_have_seen(&self.seen, self.complete, after);
        new || pos.check_move(p, turn.color, turn.last_pass).is_ok()
    }

    /// Builds the set from scratch: every empty point tested for both colours (the
    /// captures probed for `color`), and those that may be refused watched.
    fn scan<const N: usize>(&mut self, w: &Watcher, pos: &Position<N>, color: Color) {
        self.delta.resize(2 * pos.geometry().cells(), 0);
        self.watch = [0; WORDS];
        self.banned = [[0; WORDS]; 2];
        self.capture = [[0; WORDS]; 2];
        self.marks = [0; WORDS];
        let board = pos.board();
        let k = color.index();
        for &p in board.empty_points() {
            let locals = w.classify_both(pos, p);
            if locals[k] != Local::Open {
                self.keep(w, pos, color, p, locals[k], true);
                self.keep(w, pos, color.opponent(), p, locals[1 - k], false);
                set_bit(&mut self.watch, p, true);
            }
        }
        self.stale = [[0; WORDS]; 2];
        self.fresh = true;
    }

    /// Tests again the points stale for `color`, and stops watching those that cannot be
    /// refused; probes its other captures again (the board and the history have changed
    /// since, but not what surrounds them).
    fn retest<const N: usize>(&mut self, w: &Watcher, pos: &Position<N>, color: Color) {
        let board = pos.board();
        let k = color.index();
        let turn = Turn {
            color,
            last_pass: true,
        };
        let deltas = k * pos.geometry().cells();
        for word in 0..pos.geometry().cells().div_ceil(64) {
            let stale = std::mem::take(&mut self.stale[k][word]) & self.watch[word];
            let mut captures = self.capture[k][word] & self.watch[word] & !stale;
            while captures != 0 {
                let p = (word * 64) as Loc + captures.trailing_zeros() as Loc;
                captures &= captures - 1;
                // Still empty, capturing the same chains: a point played on, or next to
                // a chain it captures, is marked, so it is stale.
                let legal = self.probe(w, pos, turn, p, self.delta[deltas + p as usize]);
                set_bit(&mut self.banned[k], p, !legal);
            }
            // A point stale for both colours is answered for both at once (the neighbours
            // read once); the other colour's answer holds until the point is marked again,
            // as any kept answer does.
            let mut bits = stale;
            while bits != 0 {
                let p = (word * 64) as Loc + bits.trailing_zeros() as Loc;
                let bit = bits & bits.wrapping_neg();
                bits &= bits - 1;
                let locals = if board.cell(p) == Cell::Empty {
                    w.classify_both(pos, p)
                } else {
                    [Local::Open; 2]
                };
                if locals[k] == Local::Open {
                    // Open for one colour is open for both (and so is a point played on).
                    self.watch[word] &= !bit;
                    for c in 0..2 {
                        self.banned[c][word] &= !bit;
                        self.capture[c][word] &= !bit;
                        self.stale[c][word] &= !bit;
                    }
                    continue;
                }
                self.keep(w, pos, color, p, locals[k], true);
                if self.stale[1 - k][word] & bit != 0 {
                    self.stale[1 - k][word] &= !bit;
                    self.keep(w, pos, color.opponent(), p, locals[1 - k], false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::KeptLegal;
    use crate::color::Color;
    use crate::geometry::{Geometry, Loc, MAX_CELLS};
    use crate::position::{Illegal, KoRule, PlayRules, Position};

    fn scratch<const N: usize>(pos: &Position<N>, c: Color, last_pass: bool) -> Vec<usize> {
        let ko = pos.ko_ban(last_pass);
        let mut out = Vec::new();
        pos.for_each_legal(c, |i, l| {
            if Some(l) != ko {
                out.push(i);
            }
        });
        out
    }

    /// Random lines with eye filling (captures, ko and superko all the time), passes and
    /// undos: after every move the kept set, asked for either colour, equals the scan from
    /// scratch under every play rule.
    #[test]
    fn kept_legal_equals_the_scan_from_scratch() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut banned = 0;
        for (w, h) in [(2, 3), (3, 3), (4, 4), (5, 5), (9, 9), (7, 2), (19, 19)] {
            for ko in [
                KoRule::CapturingSuperko,
                KoRule::SimpleKo,
                KoRule::PositionalSuperko,
            ] {
                for suicide in [false, true] {
                    let geo = Geometry::new(w, h).unwrap();
                    let mut pos = Position::<MAX_CELLS>::new(geo, PlayRules { ko, suicide });
                    let mut kept = KeptLegal::new();
                    let (mut c, mut last_pass) = (Color::Black, false);
                    for step in 0..600 {
                        // Asked for both colours, for the side to move only, or not at all
                        // for a while (the answers of a colour not asked go stale).
                        let asked = match rng.next_u64() % 4 {
                            0 => vec![],
                            1 => vec![c],
                            _ => vec![c, c.opponent()],
                        };
                        for colour in asked {
                            let mut got = Vec::new();
                            kept.for_each_legal(&pos, colour, last_pass, |i, _| got.push(i));
                            assert_eq!(
                                got,
                                scratch(&pos, colour, last_pass),
                                "{w}x{h} {ko:?} suicide={suicide}, step {step}"
                            );
                        }
                        for loc in geo.locs() {
                            banned += usize::from(matches!(
                                pos.check_move(loc, c, last_pass),
                                Err(Illegal::Superko | Illegal::Ko)
                            ));
                            if kept.surely_legal(&pos, loc) {
                                for colour in [c, c.opponent()] {
                                    assert_eq!(
                                        pos.check_move(loc, colour, last_pass),
                                        Ok(()),
                                        "{w}x{h} {ko:?} step {step}: {loc} kept as surely legal"
                                    );
                                }
                            }
                        }
                        let mut legal: Vec<Loc> = Vec::new();
                        kept.for_each_legal(&pos, c, last_pass, |_, l| legal.push(l));
                        let r = rng.next_u64();
                        if r % 50 == 0 && pos.plays() > 0 {
                            let _ = pos.undo();
                            kept.invalidate();
                            last_pass = false;
                        } else if legal.is_empty() || r % 30 == 1 {
                            last_pass = true;
                        } else {
                            let loc = legal[(r >> 8) as usize % legal.len()];
                            kept.before_play(&pos, loc, c);
                            pos.play_unchecked(loc, c);
                            kept.after_play(&pos, loc, c);
                            last_pass = false;
                        }
                        c = c.opponent();
                        if r % 97 == 3 {
                            pos = Position::new(geo, PlayRules { ko, suicide });
                            kept = KeptLegal::new();
                        }
                    }
                }
            }
        }
        assert!(banned > 1000, "only {banned} ko and superko bans seen");
    }
}
