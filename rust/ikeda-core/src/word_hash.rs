//! The one hasher of the core's internal hash tables: the superko history's table of
//! Zobrist hashes, the status search's state table and the pocket games' tables.
//!
//! Their keys are fixed-size words (bit sets, packed states, hashes) that the tables hold
//! exactly, so the hash only has to spread them: each word written is mixed in by a
//! multiply and a rotation, and the result is finished by a multiply and an xor-shift.
//! No key comes from an adversary that could choose collisions to slow a table down (the
//! keys are positions reached by play), so the standard library's SipHash, slower
//! on these short keys, buys nothing here.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: see the module's comment.
#[derive(Clone, Copy, Default)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, w: u8) {
        self.write_u64(u64::from(w));
    }
    #[inline]
    fn write_u16(&mut self, w: u16) {
        self.write_u64(u64::from(w));
    }
    #[inline]
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0 ^ w)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    #[inline]
    fn write_u128(&mut self, w: u128) {
        self.write_u64(w as u64);
        self.write_u64((w >> 64) as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (self.0 >> 31)
    }
}

/// A hash map with [`WordHasher`].
pub(crate) type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(t: &T) -> u64 {
        BuildHasherDefault::<WordHasher>::default().hash_one(t)
    }

    #[test]
    fn keys_that_differ_in_one_bit_spread_over_the_buckets() {
        // Bit sets with one bit set (Zobrist words too differ in a few bits), in the high
        // word as well as the low one, and the pocket games' tuples: the low bits a table
        // indexes by take more than three quarters of the values (128 random values take
        // about 126 of 4096; a hasher that ignored one word would put half the keys in one
        // bucket). The tables compare keys, so a collision costs only a probe.
        let words: Vec<u64> = (0..128u32).map(|b| hash(&(1u128 << b))).collect();
        let tuples: Vec<u64> = (0..64u32).map(|b| hash(&(1u64 << b, 0u64, 0u8))).collect();
        for keys in [&words, &tuples] {
            let low: std::collections::HashSet<u64> = keys.iter().map(|h| h & 0xfff).collect();
            assert!(low.len() * 4 > keys.len() * 3, "{} buckets", low.len());
        }
    }
}
