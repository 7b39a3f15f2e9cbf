//! 128-bit Zobrist keys of stones, built at compile time (no init call to forget).

use crate::color::Color;
use crate::geometry::{Loc, MAX_CELLS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> [[u128; MAX_CELLS]; 2] {
    let mut table = [[0u128; MAX_CELLS]; 2];
    let mut state: u64 = 0x1BED_A5EE_D000_0001;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            let (s1, hi) = splitmix64(state);
            let (s2, lo) = splitmix64(s1);
            state = s2;
            table[c][i] = ((hi as u128) << 64) | lo as u128;
            i += 1;
        }
        c += 1;
    }
    table
}

static KEYS: [[u128; MAX_CELLS]; 2] = build();

/// The key of a stone of colour `c` at `loc`.
#[inline]
#[must_use]
pub fn key(c: Color, loc: Loc) -> u128 {
    KEYS[c.index()][loc as usize]
}
