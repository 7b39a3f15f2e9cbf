//! Every configuration a game has passed through, for Rule 4 (superko).
//!
//! Each play appends one entry: the hash of the configuration after it, the play, and the
//! stones it removed. A hash match is only a candidate: [`History::confirm`] confirms it
//! by walking the current configuration back to the matching entry (O(plays since then))
//! and comparing point by point, so a hash collision can never ban a legal play.
//!
//! Finding the candidate costs O(1) expected at any length of game:
//! - a counting filter (1024 one-byte counters) in front of everything answers most
//!   "never seen" queries of short games without looking further, and forgets undone
//!   plays, so enumerators that play and undo billions of times keep it sharp;
//! - past [`TAIL_SCAN`] private plays, an exact table (hash to oldest index and count)
//!   follows the private tail, so long games do not scan their history;
//! - copies share their past: [`History::fork`] freezes the entries so far into an
//!   `Arc`-shared chunk, so copying a game costs O(plays since the last copy), not
//!   O(game). A frozen chunk longer than [`CHUNK_SCAN`] carries its own exact table, and a
//!   new chunk absorbs its parent while the parent is no longer than it (a binary counter),
//!   so a line of play has O(log plays) chunks however often it was copied.

use std::collections::TryReserveError;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use crate::color::{Cell, Color};
use crate::geometry::Loc;
use crate::word_hash::WordMap;

/// One play in the history.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    hash_hi: u64,
    hash_lo: u64,
    pub loc: Loc,
    pub color: Color,
    pub suicide: bool,
    /// Number of stones the play removed; they are the last `removed` of the chunk's list.
    pub removed: u16,
}

impl Entry {
    #[inline]
    fn hash(&self) -> u128 {
        (u128::from(self.hash_hi) << 64) | u128::from(self.hash_lo)
    }

    /// Turns the configuration after this play into the one before it.
    #[inline]
    fn undo_on<const N: usize>(&self, cells: &mut [Cell; N], removed: &[Loc]) {
        let back = if self.suicide {
            self.color
        } else {
            self.color.opponent()
        };
        for &s in removed {
            cells[s as usize] = Cell::stone(back);
        }
        cells[self.loc as usize] = Cell::Empty;
    }
}

/// The exact tables, keyed by Zobrist hash.
type Keyed<V> = WordMap<u128, V>;

/// Private plays scanned linearly before the tail gets its exact table.
pub const TAIL_SCAN: usize = 512;
/// Frozen chunks up to this length are scanned; longer ones carry an exact table.
pub const CHUNK_SCAN: usize = 64;
/// Every this many plays the configuration is kept whole, so confirming a hash match walks
/// back at most this many plays from the next one kept, however old the match is.
pub const CHECKPOINT_EVERY: usize = 128;

/// The configuration after play `index`, and where that play's removed stones end in its
/// container's list.
#[derive(Clone, Debug)]
struct Checkpoint {
    index: u32,
    removed_end: u32,
    cells: Box<[Cell]>,
}

/// A run of consecutive plays (the private tail or a chunk), for walks.
struct Span<'a> {
    start: usize,
    entries: &'a [Entry],
    removed: &'a [Loc],
    checkpoints: &'a [Checkpoint],
}

#[derive(Debug)]
struct Chunk {
    parent: Option<Arc<Chunk>>,
    /// Plays before this chunk's first entry.
    start: usize,
    entries: Vec<Entry>,
    removed: Vec<Loc>,
    checkpoints: Vec<Checkpoint>,
    /// For chunks longer than [`CHUNK_SCAN`]: hash to the oldest index (`start + i + 1`)
    /// holding it in this chunk.
    table: Option<Keyed<u32>>,
}

impl Chunk {
    fn new(
        parent: Option<Arc<Chunk>>,
        start: usize,
        entries: Vec<Entry>,
        removed: Vec<Loc>,
        checkpoints: Vec<Checkpoint>,
    ) -> Chunk {
        let table = (entries.len() > CHUNK_SCAN).then(|| {
            let mut t =
                Keyed::with_capacity_and_hasher(entries.len(), BuildHasherDefault::default());
            for (i, e) in entries.iter().enumerate() {
                t.entry(e.hash()).or_insert((start + i + 1) as u32);
            }
            t
        });
        Chunk {
            parent,
            start,
            entries,
            removed,
            checkpoints,
            table,
        }
    }

    /// The oldest index in this chunk whose configuration has hash `hash`.
    #[inline]
    fn oldest(&self, hash: u128) -> Option<usize> {
        match &self.table {
            Some(t) => t.get(&hash).map(|&k| k as usize),
            None => self
                .entries
                .iter()
                .position(|e| e.hash() == hash)
                .map(|i| self.start + i + 1),
        }
    }
}

impl Drop for Chunk {
    /// Frees a line of chunks iteratively, not one stack frame per chunk.
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(c) = next {
            next = match Arc::try_unwrap(c) {
                Ok(mut c) => c.parent.take(),
                Err(_) => None,
            };
        }
    }
}

/// What a long private tail carries besides its entries.
#[derive(Clone, Debug, Default)]
struct LongTail {
    checkpoints: Vec<Checkpoint>,
    /// Once the private tail is longer than [`TAIL_SCAN`] (or room was reserved past it):
    /// hash to (oldest index, number of entries) over the tail's entries.
    table: Option<Keyed<(u32, u32)>>,
    /// Boards for the checkpoints of plays reserved ahead ([`History::try_reserve`]).
    spare: Vec<Box<[Cell]>>,
}

/// The long tail's extras, made if missing.
fn long_tail(long: &mut Option<Box<[LongTail; 1]>>) -> &mut LongTail {
    let [l] = &mut **long.get_or_insert_with(Box::default);
    l
}

/// A board of `n` cells, allocated fallibly.
fn try_cells(n: usize) -> Result<Box<[Cell]>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.resize(n, Cell::Empty);
    Ok(v.into_boxed_slice())
}

/// The exact table of a tail of `entries` (the first one play `frozen_len + 1`), with
/// room for `more` entries besides, allocated fallibly.
fn try_tail_table(
    entries: &[Entry],
    frozen_len: usize,
    more: usize,
) -> Result<Keyed<(u32, u32)>, TryReserveError> {
    let mut t = Keyed::default();
    t.try_reserve((2 * entries.len()).max(entries.len().saturating_add(more)))?;
    for (i, e) in entries.iter().enumerate() {
        t.entry(e.hash())
            .and_modify(|(_, n): &mut (u32, u32)| *n += 1)
            .or_insert(((frozen_len + i + 1) as u32, 1));
    }
    Ok(t)
}

const FILTER_SLOTS: usize = 1024;

/// The configurations of one line of play, initial one included.
#[derive(Clone, Debug)]
pub struct History {
    initial: u128,
    frozen: Option<Arc<Chunk>>,
    frozen_len: usize,
    entries: Vec<Entry>,
    /// Removed stones of the entries in `entries`, in play order.
    pub(crate) removed: Vec<Loc>,
    /// Checkpoints and exact table of the private tail, once it has them (boxed: most
    /// games in a batch never need them; an array of one, so that
    /// [`History::try_reserve`] can make the box fallibly, through a vector).
    long: Option<Box<[LongTail; 1]>>,
    /// Per slot: how many recorded configurations hash there (saturating: a counter that
    /// reaches 255 stays there, which only costs lookups).
    filter: [u8; FILTER_SLOTS],
}

#[inline]
fn slot(hash: u128) -> usize {
    (hash as usize) % FILTER_SLOTS
}

impl History {
    /// A history holding only the initial configuration.
    #[must_use]
    pub fn new(initial: u128) -> History {
        let mut h = History {
            initial,
            frozen: None,
            frozen_len: 0,
            entries: Vec::new(),
            removed: Vec::new(),
            long: None,
            filter: [0; FILTER_SLOTS],
        };
        h.remember(initial);
        h
    }

    fn remember(&mut self, hash: u128) {
        let n = &mut self.filter[slot(hash)];
        *n = n.saturating_add(1);
    }

    /// Calls `f` with the hash of every configuration of the line, the initial one
    /// included, in no particular order.
    pub fn for_each_hash(&self, mut f: impl FnMut(u128)) {
        f(self.initial);
        let mut chunk = self.frozen.as_deref();
        while let Some(c) = chunk {
            c.entries.iter().for_each(|e| f(e.hash()));
            chunk = c.parent.as_deref();
        }
        self.entries.iter().for_each(|e| f(e.hash()));
    }

    /// Number of plays recorded.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.frozen_len + self.entries.len()
    }

    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records a play whose removed stones were already appended to `self.removed`; the
    /// game now stands at `cells`.
    #[inline]
    pub(crate) fn push<const N: usize>(
        &mut self,
        hash: u128,
        loc: Loc,
        color: Color,
        removed: u16,
        suicide: bool,
        cells: &[Cell; N],
    ) {
        self.remember(hash);
        self.entries.push(Entry {
            hash_hi: (hash >> 64) as u64,
            hash_lo: hash as u64,
            loc,
            color,
            suicide,
            removed,
        });
        let k = self.len() as u32;
        if self.len() % CHECKPOINT_EVERY == 0 {
            let removed_end = self.removed.len() as u32;
            let long = long_tail(&mut self.long);
            let board = match long.spare.pop() {
                Some(mut b) if b.len() == N => {
                    b.copy_from_slice(cells);
                    b
                }
                _ => Box::from(&cells[..]),
            };
            long.checkpoints.push(Checkpoint {
                index: k,
                removed_end,
                cells: board,
            });
        }
        if let Some(t) = self
            .long
            .as_deref_mut()
            .map(|[l]| l)
            .and_then(|l| l.table.as_mut())
        {
            t.entry(hash).and_modify(|(_, n)| *n += 1).or_insert((k, 1));
        } else if self.entries.len() > TAIL_SCAN {
            self.index_tail();
        }
    }

    /// Builds the exact table of the private tail.
    fn index_tail(&mut self) {
        let mut t =
            Keyed::with_capacity_and_hasher(2 * self.entries.len(), BuildHasherDefault::default());
        for (i, e) in self.entries.iter().enumerate() {
            t.entry(e.hash())
                .and_modify(|(_, n): &mut (u32, u32)| *n += 1)
                .or_insert(((self.frozen_len + i + 1) as u32, 1));
        }
        long_tail(&mut self.long).table = Some(t);
    }

    /// The last play; its removed stones are the last `removed` of `self.removed`. Brings
    /// a shared chunk back into the private tail when needed (a copy of that chunk if
    /// another game still shares it).
    pub(crate) fn last(&mut self) -> Option<Entry> {
        if self.entries.is_empty() {
            let chunk = self.frozen.take()?;
            let (parent, entries, removed, checkpoints) = match Arc::try_unwrap(chunk) {
                Ok(mut c) => (
                    c.parent.take(),
                    std::mem::take(&mut c.entries),
                    std::mem::take(&mut c.removed),
                    std::mem::take(&mut c.checkpoints),
                ),
                Err(shared) => (
                    shared.parent.clone(),
                    shared.entries.clone(),
                    shared.removed.clone(),
                    shared.checkpoints.clone(),
                ),
            };
            self.frozen_len -= entries.len();
            self.frozen = parent;
            self.entries = entries;
            self.removed = removed;
            self.long = (!checkpoints.is_empty()).then(|| {
                Box::new([LongTail {
                    checkpoints,
                    ..LongTail::default()
                }])
            });
            if self.entries.len() > TAIL_SCAN {
                self.index_tail();
            }
        }
        self.entries.last().copied()
    }

    /// Drops the last play (after [`History::last`]).
    pub(crate) fn pop(&mut self) {
        let len = self.len();
        if let Some(l) = self.long.as_deref_mut().map(|[l]| l) {
            if l.checkpoints
                .last()
                .is_some_and(|c| c.index as usize == len)
            {
                l.checkpoints.pop();
            }
        }
        if let Some(e) = self.entries.pop() {
            let n = &mut self.filter[slot(e.hash())];
            if *n < u8::MAX {
                *n -= 1;
            }
            self.removed
                .truncate(self.removed.len() - e.removed as usize);
            if let Some(t) = self
                .long
                .as_deref_mut()
                .map(|[l]| l)
                .and_then(|l| l.table.as_mut())
            {
                if let std::collections::hash_map::Entry::Occupied(mut o) = t.entry(e.hash()) {
                    // The newest entry goes; the oldest index stays while others remain.
                    if o.get().1 == 1 {
                        o.remove();
                    } else {
                        o.get_mut().1 -= 1;
                    }
                }
            }
        }
    }

    /// Reserves room for `plays` more plays removing `removed` stones in all on a board
    /// of `cells` cells, so that recording them allocates nothing sized by the game's
    /// length: the entries, the removed stones, the exact table of the tail (built now if
    /// the plays take the tail past [`TAIL_SCAN`]) and the boards of the checkpoints they
    /// reach. Fails instead of
    /// aborting when memory is short, and then leaves the history as it was (a larger
    /// capacity aside).
    pub fn try_reserve(
        &mut self,
        plays: usize,
        removed: usize,
        cells: usize,
    ) -> Result<(), TryReserveError> {
        self.entries.try_reserve(plays)?;
        self.removed.try_reserve(removed)?;
        let len = self.len();
        let checkpoints = len.saturating_add(plays) / CHECKPOINT_EVERY - len / CHECKPOINT_EVERY;
        let after = self.entries.len().saturating_add(plays);
        let past_scan = after > TAIL_SCAN;
        if checkpoints == 0 && !past_scan {
            return Ok(());
        }
        if self.long.is_none() {
            let mut v = Vec::new();
            v.try_reserve_exact(1)?;
            v.push(LongTail::default());
            self.long = v.into_boxed_slice().try_into().ok();
        }
        let long = long_tail(&mut self.long);
        if checkpoints > 0 {
            long.checkpoints.try_reserve(checkpoints)?;
            let want = checkpoints.saturating_sub(long.spare.len());
            long.spare.try_reserve(want)?;
            for _ in 0..want {
                long.spare.push(try_cells(cells)?);
            }
        }
        if past_scan {
            match &mut long.table {
                Some(t) => t.try_reserve(plays)?,
                None => long.table = Some(try_tail_table(&self.entries, self.frozen_len, plays)?),
            }
        }
        Ok(())
    }

    /// A history for a copy of the game: the past is shared from now on.
    pub fn fork(&mut self) -> History {
        if !self.entries.is_empty() {
            let mut entries = std::mem::take(&mut self.entries);
            let mut removed = std::mem::take(&mut self.removed);
            let mut checkpoints = self
                .long
                .take()
                .map(|l| {
                    let [l] = *l;
                    l.checkpoints
                })
                .unwrap_or_default();
            let mut parent = self.frozen.take();
            // A binary counter: absorb the parent while it is no longer than the new
            // chunk, so a line of play keeps O(log plays) chunks.
            while let Some(p) = parent.take_if(|p| p.entries.len() <= entries.len()) {
                let mut e = Vec::with_capacity(p.entries.len() + entries.len());
                e.extend_from_slice(&p.entries);
                e.append(&mut entries);
                let mut r = Vec::with_capacity(p.removed.len() + removed.len());
                r.extend_from_slice(&p.removed);
                r.append(&mut removed);
                let mut c = p.checkpoints.clone();
                c.extend(checkpoints.into_iter().map(|k| Checkpoint {
                    removed_end: k.removed_end + p.removed.len() as u32,
                    ..k
                }));
                (entries, removed, checkpoints) = (e, r, c);
                parent = p.parent.clone();
            }
            let start = parent.as_ref().map_or(0, |p| p.start + p.entries.len());
            self.frozen_len = start + entries.len();
            self.frozen = Some(Arc::new(Chunk::new(
                parent,
                start,
                entries,
                removed,
                checkpoints,
            )));
        }
        self.clone()
    }

    /// Overwrites the hash recorded for the last play, to stage a hash collision in tests.
    #[cfg(test)]
    pub(crate) fn forge_last_hash(&mut self, hash: u128) {
        self.remember(hash);
        let k = self.len() as u32;
        let e = self.entries.last_mut().expect("a play to forge");
        e.hash_hi = (hash >> 64) as u64;
        e.hash_lo = hash as u64;
        if let Some(t) = self
            .long
            .as_deref_mut()
            .map(|[l]| l)
            .and_then(|l| l.table.as_mut())
        {
            t.entry(hash).or_insert((k, 1));
        }
    }

    /// The last play and the stones it removed, if it is in the private tail or the
    /// newest shared chunk.
    #[must_use]
    pub fn newest(&self) -> Option<(Entry, &[Loc])> {
        let (entries, removed) = match self.entries.last() {
            Some(_) => (&self.entries, &self.removed),
            None => {
                let c = self.frozen.as_deref()?;
                (&c.entries, &c.removed)
            }
        };
        let e = *entries.last()?;
        Some((e, &removed[removed.len() - e.removed as usize..]))
    }

    /// Visits the plays newest first with their removed stones; stops when `f` says so.
    fn walk_back(&self, mut f: impl FnMut(&Entry, &[Loc]) -> bool) {
        let mut visit = |entries: &[Entry], removed: &[Loc]| -> bool {
            let mut end = removed.len();
            for e in entries.iter().rev() {
                let start = end - e.removed as usize;
                if !f(e, &removed[start..end]) {
                    return false;
                }
                end = start;
            }
            true
        };
        if !visit(&self.entries, &self.removed) {
            return;
        }
        let mut chunk = self.frozen.as_deref();
        while let Some(c) = chunk {
            if !visit(&c.entries, &c.removed) {
                return;
            }
            chunk = c.parent.as_deref();
        }
    }

    /// Calls `f(j, configuration)` for the current configuration (`j = 0`) and the ones
    /// before each of the last plays, newest first, `j < k`, as far back as the history
    /// goes; the game now stands at `current`.
    pub fn recent<const N: usize>(
        &self,
        current: &[Cell; N],
        k: usize,
        mut f: impl FnMut(usize, &[Cell; N]),
    ) {
        if k == 0 {
            return;
        }
        let mut cells = *current;
        f(0, &cells);
        let mut j = 1;
        self.walk_back(|e, removed| {
            if j >= k {
                return false;
            }
            e.undo_on(&mut cells, removed);
            f(j, &cells);
            j += 1;
            true
        });
    }

    /// The oldest index whose configuration has hash `hash` (0 = the initial one, k = after
    /// the k-th play), if any: a candidate for [`History::confirm`]. O(1) expected: the
    /// filter, then the exact tables (or short scans) of the tail and of the O(log plays)
    /// frozen chunks.
    #[must_use]
    pub fn oldest_match(&self, hash: u128) -> Option<usize> {
        if self.filter[slot(hash)] == 0 {
            return None;
        }
        if self.initial == hash {
            return Some(0);
        }
        let mut chunk = self.frozen.as_deref();
        let mut oldest = None;
        // Oldest first would need a walk to the root; the chunks are few, so take the
        // last (oldest) hit on the way back.
        while let Some(c) = chunk {
            if let Some(k) = c.oldest(hash) {
                oldest = Some(k);
            }
            chunk = c.parent.as_deref();
        }
        if oldest.is_some() {
            return oldest;
        }
        match self
            .long
            .as_deref()
            .map(|[l]| l)
            .and_then(|l| l.table.as_ref())
        {
            Some(t) => t.get(&hash).map(|&(k, _)| k as usize),
            None => self
                .entries
                .iter()
                .position(|e| e.hash() == hash)
                .map(|i| self.frozen_len + i + 1),
        }
    }

    /// Number of frozen chunks behind this history (for tests of the bound).
    #[cfg(test)]
    fn chunks(&self) -> usize {
        std::iter::successors(self.frozen.as_deref(), |c| c.parent.as_deref()).count()
    }

    /// The tail and the chunks, newest first.
    fn spans(&self) -> Vec<Span<'_>> {
        let tail = Span {
            start: self.frozen_len,
            entries: &self.entries,
            removed: &self.removed,
            checkpoints: self
                .long
                .as_deref()
                .map(|[l]| l)
                .map_or(&[], |l| &l.checkpoints),
        };
        let chunks =
            std::iter::successors(self.frozen.as_deref(), |c| c.parent.as_deref()).map(|c| Span {
                start: c.start,
                entries: &c.entries,
                removed: &c.removed,
                checkpoints: &c.checkpoints,
            });
        std::iter::once(tail).chain(chunks).collect()
    }

    /// Whether `candidate`, whose hash matched the one recorded at index `oldest`, equals
    /// one of the configurations from index `oldest` on, the game now standing at
    /// `current`. The configuration at `oldest` is rebuilt from the next checkpoint after
    /// it (at most [`CHECKPOINT_EVERY`] plays back) and compared point by point; only if
    /// that differs (a genuine hash collision) is the whole way back walked and compared.
    #[must_use]
    pub fn confirm<const N: usize>(
        &self,
        oldest: usize,
        current: &[Cell; N],
        candidate: &[Cell; N],
    ) -> bool {
        if current == candidate {
            return true;
        }
        let spans = self.spans();
        let mut from: Option<(usize, &Checkpoint)> = None;
        for (si, s) in spans.iter().enumerate() {
            let i = s
                .checkpoints
                .partition_point(|c| (c.index as usize) < oldest);
            if let Some(c) = s.checkpoints.get(i) {
                if from.is_none_or(|(_, b)| c.index < b.index) {
                    from = Some((si, c));
                }
            }
        }
        let (mut cells, mut k, mut si, mut pos, mut end) = match from {
            Some((si, c)) => {
                let cells: &[Cell; N] = c.cells[..]
                    .try_into()
                    .expect("checkpoints hold the board's cells");
                (
                    *cells,
                    c.index as usize,
                    si,
                    c.index as usize - spans[si].start,
                    c.removed_end as usize,
                )
            }
            None => (
                *current,
                self.len(),
                0,
                self.entries.len(),
                self.removed.len(),
            ),
        };
        while k > oldest {
            if pos == 0 {
                si += 1;
                (pos, end) = (spans[si].entries.len(), spans[si].removed.len());
                continue;
            }
            let e = &spans[si].entries[pos - 1];
            let start = end - e.removed as usize;
            e.undo_on(&mut cells, &spans[si].removed[start..end]);
            (pos, end, k) = (pos - 1, start, k - 1);
        }
        cells == *candidate || self.confirm_by_walking(oldest, current, candidate)
    }

    /// [`History::confirm`] by walking back from `current` to `oldest` and comparing after
    /// every play.
    fn confirm_by_walking<const N: usize>(
        &self,
        oldest: usize,
        current: &[Cell; N],
        candidate: &[Cell; N],
    ) -> bool {
        let mut cells = *current;
        let mut k = self.len();
        let mut found = false;
        self.walk_back(|e, removed| {
            if k <= oldest {
                return false;
            }
            e.undo_on(&mut cells, removed);
            k -= 1;
            found = cells == *candidate;
            !found
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// One line of play as the plain list of its hashes, initial one first.
    #[derive(Clone)]
    struct Model(Vec<u128>);

    impl Model {
        fn oldest(&self, hash: u128) -> Option<usize> {
            self.0.iter().position(|&h| h == hash)
        }
    }

    fn push(h: &mut History, m: &mut Model, hash: u128) {
        h.push(hash, 0, Color::Black, 0, false, &[Cell::Empty; 1]);
        m.0.push(hash);
    }

    /// Random plays, undos and copies over a small space of hashes (so configurations
    /// repeat), long enough to cross every threshold: the exact tables answer exactly what
    /// a scan of the whole line answers, for every line.
    #[test]
    fn tables_agree_with_a_scan_of_the_whole_line() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        // (hash space, per mille: plays, undos before copies and drops)
        for (space, play, undo) in [
            (50u64, 800, 920),
            (5_000, 800, 920),
            (1 << 40, 800, 920),
            (50, 800, 999),
            (1 << 40, 700, 998),
        ] {
            // A hash from the small space, spread over 128 bits (wrapping: only the
            // spread matters, and debug builds check overflow).
            let spread = |r: u64| {
                u128::from(r % space).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
            };
            let mut lines = vec![(History::new(7), Model(vec![7]))];
            let mut longest = 0;
            for step in 0..20_000 {
                let i = (rng.next_u64() % lines.len() as u64) as usize;
                let r = rng.next_u64() % 1000;
                let room = lines.len() < 8;
                let (h, m) = &mut lines[i];
                if r < play {
                    let hash = spread(rng.next_u64());
                    push(h, m, hash);
                } else if r < undo {
                    if h.last().is_some() {
                        h.pop();
                        m.0.pop();
                    }
                } else if room {
                    let copy = h.fork();
                    let model = m.clone();
                    lines.push((copy, model));
                } else {
                    lines.swap_remove(i);
                }
                if step % 7 == 0 {
                    longest = longest.max(
                        lines
                            .iter()
                            .map(|(h, _)| h.entries.len())
                            .max()
                            .unwrap_or(0),
                    );
                    for (h, m) in &lines {
                        assert_eq!(h.len() + 1, m.0.len());
                        for _ in 0..4 {
                            let probe = if rng.next_u64() % 2 == 0 {
                                m.0[(rng.next_u64() % m.0.len() as u64) as usize]
                            } else {
                                spread(rng.next_u64())
                            };
                            assert_eq!(h.oldest_match(probe), m.oldest(probe), "step {step}");
                        }
                    }
                }
            }
            if undo - play > 190 {
                assert!(longest > TAIL_SCAN, "the tail table was exercised");
            }
        }
    }

    /// Copied after every play (the search pattern), a line keeps a logarithmic number of
    /// chunks, and dropping it takes no deep recursion.
    #[test]
    fn copies_after_every_play_keep_few_chunks() {
        let mut h = History::new(0);
        let mut keep = Vec::new();
        for k in 1..=50_000u128 {
            h.push(k, 0, Color::Black, 0, false, &[Cell::Empty; 1]);
            let copy = h.fork();
            if k % 1000 == 0 {
                keep.push(copy);
            }
            assert!(h.chunks() <= 17, "{} chunks after {k} plays", h.chunks());
        }
        assert_eq!(h.oldest_match(12_345), Some(12_345));
        assert_eq!(keep[3].oldest_match(4_000), Some(4_000));
        assert_eq!(keep[3].oldest_match(4_001), None);
        std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || drop((h, keep)))
            .unwrap()
            .join()
            .unwrap();
    }
}
