//! Whether D settles a pocket: the entry of the pocket game, which chooses the prover by
//! the pocket's size and shares the split proofs' work among one colour's pockets.

use std::collections::HashMap;

use super::depth_first::{DepthFirstProver, ProofBudget};
use super::dfpn::DfpnProver;
use super::game::{PocketGame, PocketSet};
use super::split::split_won;
#[cfg(doc)]
use crate::status::limits::MAX_POCKET_STATES;
use crate::status::limits::{MAX_POCKET, MAX_PROOF_NODES, SPLIT_PART, SPLIT_TOTAL_HALVES};

/// What the split proofs of one colour's credited groups share: the work left, and the
/// parts' answers found (`split.rs`; they do not depend on the pocket or the goal).
pub(crate) struct SplitPool {
    /// The most work of one pocket's proof.
    work: usize,
    left: usize,
    memo: HashMap<Vec<u64>, bool>,
}

impl SplitPool {
    /// A pool for proofs of at most `work` each, with [`SPLIT_TOTAL_HALVES`] half-proofs'
    /// worth left.
    pub(crate) fn new(work: usize) -> Self {
        SplitPool {
            work,
            left: work / 2 * SPLIT_TOTAL_HALVES,
            memo: HashMap::new(),
        }
    }
}

impl PocketGame {
    /// Whether D, with A to move first from `a` (and no D stone), can force a settled state
    /// with at least `eyes` eyes without losing a wall: by the exhaustive game, and where
    /// that is beyond [`MAX_POCKET_STATES`], by the proof search of `depth_first.rs`
    /// (whose `false` may only mean "not proven"); `None` when both are beyond their
    /// limits.
    ///
    /// A pocket of more than [`MAX_POCKET`] points is proven by df-pn (`dfpn.rs`) only,
    /// with the settled goal and then the split goal of `split.rs` (its exhaustive game
    /// is out of reach).
    pub(crate) fn settles(
        &self,
        all: PocketSet,
        a: PocketSet,
        eyes: u32,
        join: bool,
        states: &mut usize,
        pool: &mut SplitPool,
    ) -> Option<bool> {
        let large = all.count_ones() as usize > MAX_POCKET;
        if !large {
            let exhaustive = self.solve(all, a, eyes, join, states);
            if exhaustive.is_some() {
                return exhaustive;
            }
        }
        let mut budget = if large {
            if pool.left == 0 {
                return None;
            }
            let mut budget = ProofBudget::new(pool.work.min(pool.left), SPLIT_PART);
            budget.memo = std::mem::take(&mut pool.memo);
            budget
        } else {
            ProofBudget::new(MAX_PROOF_NODES, 0)
        };
        let found = if large {
            // A large pocket is searched by df-pn (`dfpn.rs`), which proves more of the
            // real pockets than the depth-first search within the same work
            // (benches/LOG.md, 2026-11-24, "Real games: df-pn for large pockets"). The
            // settled goal alone first, with all of the work: on the real pockets it proves
            // more than the split goal, which is searched only with the work a refutation
            // of the settled goal leaves. Both with D's answers next to the walls only;
            // between them, when the first search refutes the pocket, the settled goal
            // again with D's answers away from the walls too, on half of the work left.
            // Given the whole work first, that wider search starved the split goal of the
            // pockets the narrow searches prove (benches/LOG.md, 2026-11-28).
            let mut plain = ProofBudget::new(budget.limit, 0);
            let mut found =
                DfpnProver::new(self, all, eyes, join, None, false, &mut plain).prove(a);
            budget.nodes += plain.nodes;
            if matches!(found, Ok(false)) && budget.nodes < budget.limit {
                let left = budget.limit - budget.nodes;
                let mut wide = ProofBudget::new(left / 2, 0);
                found = DfpnProver::new(self, all, eyes, join, None, true, &mut wide).prove(a);
                budget.nodes += wide.nodes;
            }
            if !matches!(found, Ok(true)) && budget.nodes < budget.limit {
                found = DfpnProver::new(self, all, eyes, join, Some(split_won), false, &mut budget)
                    .prove(a);
            }
            found
        } else {
            DepthFirstProver::new(self, all, eyes, join, None, &mut budget).prove(a)
        };
        if large {
            pool.left = pool.left.saturating_sub(budget.nodes);
            pool.memo = std::mem::take(&mut budget.memo);
        }
        *states += budget.nodes;
        found.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::limits::DEFAULT_PROOF_WORK;
    use crate::status::pocket::testing::drawn;

    #[test]
    fn proof_search_settles_a_pocket_beyond_the_exhaustive_game() {
        // A twelve-point pocket of a real game (Tygem, December 2016) with four White
        // stones, bounded by three strict Black walls: its exhaustive game is beyond
        // MAX_POCKET_STATES, and the proof search finds D's strategy to one eye and to two.
        let (local, all, a, _) = drawn(&[
            "#aaaa#", //
            "a...Oa", //
            "#.Obb#", //
            "bObb##", //
            "#.O.b#", //
            "c.c.b#", //
            "#c#b##",
        ]);
        let mut states = 0;
        assert_eq!(local.solve(all, a, 1, true, &mut states), None);
        let mut pool = SplitPool {
            left: 0,
            ..SplitPool::new(DEFAULT_PROOF_WORK)
        };
        assert_eq!(
            local.settles(all, a, 2, true, &mut states, &mut pool),
            Some(true)
        );
        assert_eq!(
            local.settles(all, a, 1, true, &mut states, &mut pool),
            Some(true)
        );
    }

    #[test]
    fn proof_search_plays_points_away_from_the_walls() {
        // The empty eleven-point corner of White's group in GNU Go's regression game
        // 9x9-1, one strict wall with no liberty outside: its exhaustive game is beyond
        // MAX_POCKET_STATES (214,675 states, where D wins), and the proof search finds D's
        // strategy only with the points next to no wall stone (A1, B1, C1, A2 and B2)
        // among D's answers: without them it refutes the pocket.
        let (local, all, a, _) = drawn(&[
            "##a##", //
            "aa.a#", //
            "...a#", //
            "...a#", //
            "....a",
        ]);
        let mut states = 0;
        assert_eq!(local.solve(all, a, 1, true, &mut states), None);
        let mut pool = SplitPool::new(DEFAULT_PROOF_WORK);
        for eyes in [1, 2] {
            assert_eq!(
                local.settles(all, a, eyes, true, &mut states, &mut pool),
                Some(true)
            );
        }
    }

    #[test]
    fn split_goal_proves_a_two_row_edge_territory() {
        // A 14-point corner territory two rows deep (rows of 7 points, the wall above it
        // and to its right, lenient: the group has an eye elsewhere), beyond the exhaustive
        // game: a large pocket is proven settled (settled goal first, then split goal).
        let (mut local, all, _, _) = drawn(&[
            "#aaaaaaa#", //
            "#.......a", //
            "#.......a", //
            "#########",
        ]);
        local.lenient[0] = true;
        let (mut states, mut pool) = (0, SplitPool::new(DEFAULT_PROOF_WORK));
        assert_eq!(
            local.settles(all, 0, 1, true, &mut states, &mut pool),
            Some(true)
        );
    }

    #[test]
    fn a_real_sixteen_point_pocket_is_proven_with_one_eye_and_with_two() {
        // A 16-point territory of a real game (Tygem 916039306, December 2016) with four
        // White stones, bounded by three strict Black walls. With the settled states alone
        // as its goal the depth-first search ran out of one large pocket's work here, and
        // df-pn was needed; with two vital parts as a goal too (`PocketGame::goal`) it
        // proves the pocket within that work, and the pocket is settled with one eye and
        // with two.
        let (local, all, a, _) = drawn(&[
            "##aca#a#", //
            "#a...aOb", //
            "#ccc.OOb", //
            "c.O..bb#", //
            "c.....b#", //
            "#c###b##",
        ]);
        let mut budget = ProofBudget::new(DEFAULT_PROOF_WORK, 0);
        assert!(matches!(
            DepthFirstProver::new(&local, all, 1, true, None, &mut budget).prove(a),
            Ok(true)
        ));
        for eyes in [1, 2] {
            let (mut states, mut pool) = (0, SplitPool::new(DEFAULT_PROOF_WORK));
            assert_eq!(
                local.settles(all, a, eyes, true, &mut states, &mut pool),
                Some(true)
            );
            assert!(states <= DEFAULT_PROOF_WORK, "{states}");
        }
    }
}
