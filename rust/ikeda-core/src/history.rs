//! Every configuration a game has passed through, for Rule 4 (superko).
//!
//! Each play appends one entry: the hash of the configuration after it, the play, and the
//! stones it removed. A hash match is only a candidate: [`History::repeats`] confirms it
//! by walking the current configuration back to the matching entry (O(plays since then))
//! and comparing point by point, so a hash collision can never ban a legal play.
//!
//! Copies share their past: [`History::fork`] freezes the entries so far into an
//! `Arc`-shared chunk, so copying a game costs O(plays since the last copy), not
//! O(game). A counting filter (1024 one-byte counters) in front of the entries answers
//! most "never seen" queries without a scan, and forgets undone plays, so enumerators that
//! play and undo billions of times keep it sharp.

use std::sync::Arc;

use crate::color::{Cell, Color};
use crate::geometry::Loc;

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
        let back = if self.suicide { self.color } else { self.color.opponent() };
        for &s in removed {
            cells[s as usize] = Cell::stone(back);
        }
        cells[self.loc as usize] = Cell::Empty;
    }
}

#[derive(Debug)]
struct Chunk {
    parent: Option<Arc<Chunk>>,
    entries: Vec<Entry>,
    removed: Vec<Loc>,
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
    /// Per slot: how many recorded configurations hash there (saturating: a counter that
    /// reaches 255 stays there, which only costs scans).
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
            filter: [0; FILTER_SLOTS],
        };
        h.remember(initial);
        h
    }

    fn remember(&mut self, hash: u128) {
        let n = &mut self.filter[slot(hash)];
        *n = n.saturating_add(1);
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

    /// Records a play whose removed stones were already appended to `self.removed`.
    pub(crate) fn push(&mut self, hash: u128, loc: Loc, color: Color, removed: u16, suicide: bool) {
        self.remember(hash);
        self.entries.push(Entry {
            hash_hi: (hash >> 64) as u64,
            hash_lo: hash as u64,
            loc,
            color,
            suicide,
            removed,
        });
    }

    /// The last play; its removed stones are the last `removed` of `self.removed`. Brings
    /// a shared chunk back into the private tail when needed (a copy of that chunk if
    /// another game still shares it).
    pub(crate) fn last(&mut self) -> Option<Entry> {
        if self.entries.is_empty() {
            let chunk = self.frozen.take()?;
            let chunk = Arc::try_unwrap(chunk).unwrap_or_else(|shared| Chunk {
                parent: shared.parent.clone(),
                entries: shared.entries.clone(),
                removed: shared.removed.clone(),
            });
            self.frozen_len -= chunk.entries.len();
            self.frozen = chunk.parent;
            self.entries = chunk.entries;
            self.removed = chunk.removed;
        }
        self.entries.last().copied()
    }

    /// Drops the last play (after [`History::last`]).
    pub(crate) fn pop(&mut self) {
        if let Some(e) = self.entries.pop() {
            let n = &mut self.filter[slot(e.hash())];
            if *n < u8::MAX {
                *n -= 1;
            }
            self.removed.truncate(self.removed.len() - e.removed as usize);
        }
    }

    /// A history for a copy of the game: the past is shared from now on.
    pub fn fork(&mut self) -> History {
        if !self.entries.is_empty() {
            self.frozen_len += self.entries.len();
            self.frozen = Some(Arc::new(Chunk {
                parent: self.frozen.take(),
                entries: std::mem::take(&mut self.entries),
                removed: std::mem::take(&mut self.removed),
            }));
        }
        self.clone()
    }

    /// Overwrites the hash recorded for the last play, to stage a hash collision in tests.
    #[cfg(test)]
    pub(crate) fn forge_last_hash(&mut self, hash: u128) {
        self.remember(hash);
        let e = self.entries.last_mut().expect("a play to forge");
        e.hash_hi = (hash >> 64) as u64;
        e.hash_lo = hash as u64;
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
    pub fn recent<const N: usize>(&self, current: &[Cell; N], k: usize, mut f: impl FnMut(usize, &[Cell; N])) {
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
    /// the k-th play), if any: a candidate for [`History::confirm`].
    #[must_use]
    pub fn oldest_match(&self, hash: u128) -> Option<usize> {
        if self.filter[slot(hash)] == 0 {
            return None;
        }
        if self.initial == hash {
            return Some(0);
        }
        let mut oldest = None;
        let mut k = self.len();
        self.walk_back(|e, _| {
            if e.hash() == hash {
                oldest = Some(k);
            }
            k -= 1;
            true
        });
        oldest
    }

    /// Whether `candidate` equals one of the configurations from index `oldest` on, the
    /// game now standing at `current`: walks the current configuration back play by play
    /// and compares point by point.
    #[must_use]
    pub fn confirm<const N: usize>(&self, oldest: usize, current: &[Cell; N], candidate: &[Cell; N]) -> bool {
        let mut cells = *current;
        let mut k = self.len();
        if cells == *candidate {
            return true;
        }
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
