//! The pocket game decided exactly: the whole graph of its states from the start, solved as
//! a reachability game (D's attractor of the settled states, the loss excluded). Exact, but
//! the graph is held whole, so it is tried only up to [`MAX_POCKET_STATES`] states.

use super::game::{key, unkey, PocketGame, PocketSet, PocketState, StateMap};
use crate::status::limits::MAX_POCKET_STATES;

impl PocketGame {
    /// Whether D, with A to move first from `a` (and no D stone), can force a settled state
    /// with at least `eyes` eyes without losing a wall; `None` beyond the state limit.
    pub(crate) fn solve(
        &self,
        all: PocketSet,
        a: PocketSet,
        eyes: u32,
        join: bool,
        states: &mut usize,
    ) -> Option<bool> {
        // A wall without a liberty here at the start must have one elsewhere.
        if !self.start_ok(all, a) {
            return Some(false);
        }
        self.solve_from(
            all,
            key(a, 0, false, 0),
            eyes,
            join,
            MAX_POCKET_STATES,
            states,
        )
    }

    /// Whether `root` is in D's attractor of the settled states with at least `eyes` eyes,
    /// by the exhaustive game from it; `None` beyond `limit` states.
    pub(crate) fn solve_from(
        &self,
        all: PocketSet,
        root: PocketState,
        eyes: u32,
        join: bool,
        limit: usize,
        states: &mut usize,
    ) -> Option<bool> {
        self.attractor(
            all,
            root,
            limit,
            states,
            |a, d| self.settled(all, a, d, eyes, join),
            |_| true,
        )
    }

    /// Whether `root` is in D's attractor of the states where `goal(a, d)` holds, D's moves
    /// kept to those whose state `d_may` accepts (A's never are); `None` beyond `limit`
    /// states.
    pub(crate) fn attractor(
        &self,
        all: PocketSet,
        root: PocketState,
        limit: usize,
        states: &mut usize,
        goal: impl Fn(PocketSet, PocketSet) -> bool,
        d_may: impl Fn(PocketState) -> bool,
    ) -> Option<bool> {
        let mut index: StateMap<u32> = StateMap::default();
        let mut keys: Vec<PocketState> = vec![root];
        index.insert(root, 0);
        // Successor lists; u32::MAX stands for the loss state.
        let mut succ: Vec<Vec<u32>> = Vec::new();
        let mut win: Vec<bool> = Vec::new();
        let mut out = Vec::new();
        let mut k = 0;
        while k < keys.len() {
            let s = keys[k];
            k += 1;
            let (a, d, dm, ban) = unkey(s);
            if goal(a, d) {
                succ.push(Vec::new());
                win.push(true);
                continue;
            }
            self.moves(all, a, d, dm, ban, &mut out);
            let mut list = Vec::with_capacity(out.len());
            for m in &out {
                match *m {
                    Err(()) => list.push(u32::MAX),
                    Ok(t) if dm && !d_may(t) => {}
                    Ok(t) => {
                        let next = keys.len() as u32;
                        let id = *index.entry(t).or_insert(next);
                        if id == next {
                            keys.push(t);
                            if keys.len() > limit {
                                *states += keys.len();
                                return None;
                            }
                        }
                        list.push(id);
                    }
                }
            }
            succ.push(list);
            win.push(false);
        }
        *states += keys.len();
        // Attractor of the settled states for D: D to move needs one winning successor, A
        // to move needs all of them winning (the loss state never wins).
        let n = keys.len();
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut need: Vec<u32> = vec![0; n];
        for (s, list) in succ.iter().enumerate() {
            let d_to_move = unkey(keys[s]).2;
            need[s] = if d_to_move { 1 } else { list.len() as u32 };
            for &t in list {
                if t != u32::MAX {
                    preds[t as usize].push(s as u32);
                }
            }
        }
        let mut queue: Vec<u32> = (0..n as u32).filter(|&s| win[s as usize]).collect();
        while let Some(t) = queue.pop() {
            for &s in &preds[t as usize] {
                let s = s as usize;
                if win[s] {
                    continue;
                }
                // A successor listed twice counts twice for A (it is one move each time).
                need[s] -= 1;
                if need[s] == 0 {
                    win[s] = true;
                    queue.push(s as u32);
                }
            }
        }
        Some(win[0])
    }
}
