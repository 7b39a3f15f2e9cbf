//! The goals of STATUS.md Section 4 solved on a state graph by the standard fixpoints of
//! two-player games: attractors (reachability), their complements (safety) and a nested
//! fixpoint for "eventually always" (co-Büchi).

use super::play::{Beyond, StateGraph};
use crate::color::Color;
use crate::status::report::Case;

/// The graph with its predecessor lists, for linear-time attractors.
pub(crate) struct Solver<'a> {
    graph: &'a StateGraph,
    pred_start: Vec<u32>,
    pred: Vec<u32>,
    outdegree: Vec<u32>,
}

impl<'a> Solver<'a> {
    /// The solver of `graph`, or [`Beyond::Memory`] when the system cannot hold its
    /// predecessor lists.
    pub(crate) fn new(graph: &'a StateGraph) -> Result<Solver<'a>, Beyond> {
        let n = graph.len();
        let zeros = |len: usize| -> Result<Vec<u32>, Beyond> {
            let mut v = Vec::new();
            v.try_reserve_exact(len).map_err(|_| Beyond::Memory)?;
            v.resize(len, 0);
            Ok(v)
        };
        let mut pred_start = zeros(n + 1)?;
        for &v in &graph.succ {
            pred_start[v as usize + 1] += 1;
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = zeros(n + 1)?;
        fill.copy_from_slice(&pred_start);
        let mut pred = zeros(graph.succ.len())?;
        let mut outdegree = zeros(n)?;
        for (u, degree) in outdegree.iter_mut().enumerate() {
            let succ = graph.successors(u);
            *degree = succ.len() as u32;
            for &v in succ {
                pred[fill[v as usize] as usize] = u as u32;
                fill[v as usize] += 1;
            }
        }
        Ok(Solver {
            graph,
            pred_start,
            pred,
            outdegree,
        })
    }

    /// The states from which `player` can force reaching `target`, moving only through
    /// `allowed` states before it: the least fixpoint of "target, or `player` to move
    /// with some successor inside, or the opponent to move with all successors inside".
    pub(crate) fn attractor(
        &self,
        player: Color,
        target: &[bool],
        allowed: Option<&[bool]>,
    ) -> Vec<bool> {
        let n = self.graph.len();
        let mut inside = target.to_vec();
        let mut left = self.outdegree.clone();
        let mut queue: Vec<u32> = (0..n as u32).filter(|&s| target[s as usize]).collect();
        let white = player == Color::White;
        while let Some(v) = queue.pop() {
            for &u in &self.pred
                [self.pred_start[v as usize] as usize..self.pred_start[v as usize + 1] as usize]
            {
                let u = u as usize;
                if inside[u] || allowed.is_some_and(|a| !a[u]) {
                    continue;
                }
                let joins = if self.graph.white_to_move[u] == white {
                    true
                } else {
                    left[u] -= 1;
                    left[u] == 0
                };
                if joins {
                    inside[u] = true;
                    queue.push(u as u32);
                }
            }
        }
        inside
    }

    /// The states from which `player` can keep the play inside `set` for ever.
    pub(crate) fn safe(&self, player: Color, set: &[bool]) -> Vec<bool> {
        let outside: Vec<bool> = set.iter().map(|&b| !b).collect();
        self.attractor(player.opponent(), &outside, None)
            .iter()
            .map(|&b| !b)
            .collect()
    }

    /// The states from which `player` can make `set` hold from some move on for ever:
    /// W = μY. Attr(Safe(set ∪ Y)).
    pub(crate) fn eventually_always(&self, player: Color, set: &[bool]) -> Vec<bool> {
        let mut won = vec![false; self.graph.len()];
        loop {
            let wider: Vec<bool> = set.iter().zip(&won).map(|(&a, &b)| a || b).collect();
            let next = self.attractor(player, &self.safe(player, &wider), None);
            if next == won {
                return won;
            }
            won = next;
        }
    }

    /// Bit `k` of each state's predicate word.
    fn predicate(v: &[u64], k: usize) -> Vec<bool> {
        v.iter().map(|&x| x >> k & 1 == 1).collect()
    }

    /// F1 or F2 for tracked chain `k` of colour `d` from the start state `root`, if either
    /// holds (Section 4's table). Needs only the states where some chain is whole.
    pub(crate) fn first_class_case(&self, k: usize, d: Color, root: usize) -> Option<Case> {
        let t = Self::predicate(&self.graph.t, k);
        if t[root] {
            return Some(Case::F1);
        }
        let g = Self::predicate(&self.graph.g, k);
        self.attractor(d, &t, Some(&g))[root].then_some(Case::F2) // G until T
    }

    /// The first of F3, S1, S2 that holds for a chain that is neither F1 nor F2, or N.
    /// Needs the whole graph.
    pub(crate) fn other_case(&self, k: usize, d: Color, root: usize) -> Case {
        let graph = self.graph;
        if self.attractor(d, &Self::predicate(&graph.t, k), None)[root] {
            return Case::F3; // T again after captures
        }
        if self.safe(d, &Self::predicate(&graph.g, k))[root] {
            return Case::S1;
        }
        if self.eventually_always(d, &Self::predicate(&graph.gp, k))[root] {
            return Case::S2;
        }
        Case::N
    }
}
