//! Board capacities. Every board type is generic over its capacity `N` in padded cells;
//! a board lives in the smallest tier that holds it, so copies move only what that size
//! needs. [`AnyPosition`] picks the tier at run time, and [`with_position!`] runs the same
//! generic code on whichever tier it holds.

use crate::board::SetupError;
use crate::geometry::{Geometry, MAX_CELLS};
use crate::position::{PlayRules, Position};

/// Capacity of boards up to 9x9 (111 padded cells) and any other shape with at most
/// 128. The two common tiers are powers of two: the board masks its indices with
/// `N - 1`, so they need no bounds checks.
pub const CELLS_9: usize = ((9 + 2) * (9 + 1) + 1usize).next_power_of_two();
/// Capacity of boards up to 19x19 (421 padded cells) and any other with at most 512.
pub const CELLS_19: usize = ((19 + 2) * (19 + 1) + 1usize).next_power_of_two();

const _: () = assert!(CELLS_9 == 128 && CELLS_19 == 512);

/// A position of any size, in the smallest tier that holds it (boxed, so the handle is
/// small and a copy allocates just the tier's size).
#[derive(Clone, Debug)]
pub enum AnyPosition {
    Small(Box<Position<CELLS_9>>),
    Medium(Box<Position<CELLS_19>>),
    Large(Box<Position<MAX_CELLS>>),
}

/// Runs `$body` with `$p` bound to the position inside an [`AnyPosition`] (by reference
/// or by value, as `$any` is given).
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Small($p) => $body,
            $crate::AnyPosition::Medium($p) => $body,
            $crate::AnyPosition::Large($p) => $body,
        }
    };
}

/// Runs `$body` with `N` set to the capacity of the tier that holds `$geo`.
#[macro_export]
macro_rules! with_tier {
    ($geo:expr, $n:ident => $body:expr) => {{
        let cells = $geo.cells();
        if cells <= $crate::CELLS_9 {
            const $n: usize = $crate::CELLS_9;
            $body
        } else if cells <= $crate::CELLS_19 {
            const $n: usize = $crate::CELLS_19;
            $body
        } else {
            const $n: usize = $crate::MAX_CELLS;
            $body
        }
    }};
}

impl AnyPosition {
    /// An empty board in the tier that fits it.
    #[must_use]
    pub fn new(geo: Geometry, rules: PlayRules) -> AnyPosition {
        AnyPosition::from_setup(geo, rules, &[], &[]).expect("an empty board is a position")
    }

    /// Setup stones (flat indices) in the tier that fits the board.
    pub fn from_setup(
        geo: Geometry,
        rules: PlayRules,
        black: &[usize],
        white: &[usize],
    ) -> Result<AnyPosition, SetupError> {
        let cells = geo.cells();
        Ok(if cells <= CELLS_9 {
            AnyPosition::Small(Box::new(Position::from_setup(geo, rules, black, white)?))
        } else if cells <= CELLS_19 {
            AnyPosition::Medium(Box::new(Position::from_setup(geo, rules, black, white)?))
        } else {
            AnyPosition::Large(Box::new(Position::from_setup(geo, rules, black, white)?))
        })
    }

    #[must_use]
    pub fn geometry(&self) -> Geometry {
        with_position!(self, p => p.geometry())
    }

    /// A copy that shares this position's past.
    pub fn fork(&mut self) -> AnyPosition {
        match self {
            AnyPosition::Small(p) => AnyPosition::Small(Box::new(p.fork())),
            AnyPosition::Medium(p) => AnyPosition::Medium(Box::new(p.fork())),
            AnyPosition::Large(p) => AnyPosition::Large(Box::new(p.fork())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_fit() {
        // (10, 9): 122 padded cells; (12, 9): 144; (20, 20): 463; (22, 21): 530.
        for (w, h, tier) in [
            (9, 9, 0),
            (1, 25, 0),
            (10, 9, 0),
            (12, 9, 1),
            (19, 19, 1),
            (20, 20, 1),
            (22, 21, 2),
            (25, 25, 2),
        ] {
            let p = AnyPosition::new(Geometry::new(w, h).unwrap(), PlayRules::IKEDA);
            let got = match p {
                AnyPosition::Small(_) => 0,
                AnyPosition::Medium(_) => 1,
                AnyPosition::Large(_) => 2,
            };
            assert_eq!(got, tier, "{w}x{h}");
        }
    }
}
