//! The transposition tables of the large searches: the region search's state numbers
//! (`search/play.rs`) and df-pn's proof numbers (`dfpn.rs`). A key gets a number, the
//! order it was met in; the keys (and whatever goes with them) stay in the caller's lists,
//! indexed by that number. Here because the pocket game is a leaf that the region search
//! may use, not the other way round.
//!
//! Why not a `HashMap<State, u32>`: its buckets hold the whole key (48 bytes on the `u128`
//! board) beside the value, so the table of a search near its share of the budget
//! (250,000 states) spans tens of megabytes, each lookup misses the cache twice (control
//! bytes, then the bucket whose key is compared), and each growth moves every key. Here a
//! slot is one word, the key's number and 32 bits of its hash. A lookup reads the slots of
//! one probe run and compares a key only where those 32 bits match: a new key (most
//! lookups of a growing search) costs one slot read, growth moves words, and a number once
//! found stays the key's, so a caller may keep it instead of looking the key up again.

use std::collections::TryReserveError;
use std::hash::{BuildHasher, BuildHasherDefault, Hash};

use crate::word_hash::WordHasher;

/// A free slot found for a key not in the table: where it goes and its hash bits.
pub(crate) struct Vacant {
    slot: usize,
    tag: u32,
}

/// Key → number, open addressing with linear probing, at most half full. A slot is 0
/// when free, else `tag << 32 | (number + 1)`; the tag (the hash's high 32 bits) also
/// gives the slot a probe starts at, so growth needs no state.
#[derive(Default)]
pub(crate) struct StateTable {
    slots: Vec<u64>,
    len: usize,
}

impl StateTable {
    /// The hash bits of `key` that its slot keeps.
    #[inline]
    pub(crate) fn tag<K: Hash>(key: &K) -> u32 {
        (BuildHasherDefault::<WordHasher>::default().hash_one(key) >> 32) as u32
    }

    /// Reads the first slot of each tag's probe, all at once: the reads are independent,
    /// so their cache misses overlap, and the lookups that follow find the slots in the
    /// cache (one miss at a time was most of a large search's lookups).
    #[inline]
    pub(crate) fn touch(&self, tags: impl IntoIterator<Item = u32>) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let seen = tags
            .into_iter()
            .fold(0u64, |acc, t| acc ^ self.slots[t as usize & mask]);
        std::hint::black_box(seen);
    }

    /// Room for one more number (the table grows here, never on insertion), or the error
    /// of an allocation the system refused.
    pub(crate) fn reserve_one(&mut self) -> Result<(), TryReserveError> {
        if 2 * (self.len + 1) <= self.slots.len() {
            return Ok(());
        }
        let size = (2 * self.slots.len()).max(64);
        let mut slots: Vec<u64> = Vec::new();
        slots.try_reserve_exact(size)?;
        slots.resize(size, 0);
        let mask = size - 1;
        for &w in self.slots.iter().filter(|&&w| w != 0) {
            let mut i = (w >> 32) as usize & mask;
            while slots[i] != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = w;
        }
        self.slots = slots;
        Ok(())
    }

    /// The number of `key` (the element of `keys` it equals), or where it would go;
    /// `tag` is [`StateTable::tag`] of `key`.
    #[inline]
    pub(crate) fn find<K: Eq>(&self, key: &K, tag: u32, keys: &[K]) -> Result<u32, Vacant> {
        if self.slots.is_empty() {
            // Nothing numbered yet (a lookup before the first `reserve_one`).
            return Err(Vacant { slot: 0, tag });
        }
        let mask = self.slots.len() - 1;
        let mut i = tag as usize & mask;
        loop {
            let w = self.slots[i];
            if w == 0 {
                return Err(Vacant { slot: i, tag });
            }
            if (w >> 32) as u32 == tag {
                let id = (w as u32) - 1;
                if keys[id as usize] == *key {
                    return Ok(id);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Numbers the key that `find` did not find (after [`StateTable::reserve_one`],
    /// with nothing inserted in between).
    #[inline]
    pub(crate) fn insert(&mut self, at: Vacant, id: u32) {
        debug_assert!(self.slots[at.slot] == 0 && id < u32::MAX);
        self.slots[at.slot] = u64::from(at.tag) << 32 | u64::from(id + 1);
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_found_again_after_growth() {
        // Keys numbered in the order met are found again with their numbers after many
        // growths (the slots moved by their tags alone), and a key never met is not, in
        // an empty table too.
        let keys: Vec<(u64, u64)> = (0..5000u64).map(|k| (k * 7919 % 10007, k / 3)).collect();
        let mut table = StateTable::default();
        let mut met: Vec<(u64, u64)> = Vec::new();
        assert!(table
            .find(&keys[0], StateTable::tag(&keys[0]), &met)
            .is_err());
        for k in &keys {
            table.reserve_one().unwrap();
            match table.find(k, StateTable::tag(k), &met) {
                Ok(_) => panic!("{k:?} is new"),
                Err(v) => {
                    table.insert(v, met.len() as u32);
                    met.push(*k);
                }
            }
        }
        for (n, k) in keys.iter().enumerate() {
            assert_eq!(table.find(k, StateTable::tag(k), &met).ok(), Some(n as u32));
        }
        let never = (1, 1 << 40);
        assert!(table.find(&never, StateTable::tag(&never), &met).is_err());
        assert!(table.slots.len() >= 2 * keys.len());
    }
}
