//! Tactical reading before the playouts (docs/status.md, "Races read before the
//! playouts"): the unresolved chains short of liberties that are captured by force
//! *whoever moves first* are taken off the board the playouts start from.
//!
//! Random playouts decide a capturing race between large chains by chance: a chain in
//! atari survives every playout in which its owner happens to extend first, and a group
//! whose only neighbour in a race is such a chain is read as dead with it. A short reading
//! of the chain's liberties settles these races, so the playouts start from the position
//! after the capture, and the vote (unchanged) decides the captured points and everything
//! around them. This is an estimate, not a proof: the reading restricts the defender's
//! moves (the chain's liberties, the liberties of the neighbouring chains short of
//! liberties, which covers capturing them, and a pass), treats a chain with more than
//! [`READ_LIBERTIES`] liberties as escaped, and stops at [`READ_NODES`] nodes a chain, so
//! a chain it takes off may still live by a move it did not read; its chains keep
//! `Proof::Estimated`. The Rust tests check the reading against the exhaustive search of
//! small positions: a chain it takes off is never kept whole there (no F1, F2 or S1).

use crate::geometry::Geometry;
use crate::status::limits::{READ_LIBERTIES, READ_NODES};
use crate::status::search::grid::board_neighbours;

/// A plain board for reading: stones, the simple-ko point, and the nodes spent.
struct Reader {
    geo: Geometry,
    cells: Vec<u8>,
    ko: Option<usize>,
    nodes: usize,
}

/// What a play changed, to take it back.
struct Undo {
    at: usize,
    captured: Vec<usize>,
    ko: Option<usize>,
}

impl Reader {
    /// The chain through `p` and its liberties, each sorted.
    fn chain(&self, p: usize) -> (Vec<usize>, Vec<usize>) {
        let c = self.cells[p];
        let (mut stones, mut libs, mut stack) = (vec![p], Vec::new(), vec![p]);
        let mut seen = vec![false; self.cells.len()];
        seen[p] = true;
        while let Some(q) = stack.pop() {
            for n in board_neighbours(self.geo, q) {
                if seen[n] {
                    continue;
                }
                if self.cells[n] == c {
                    seen[n] = true;
                    stones.push(n);
                    stack.push(n);
                } else if self.cells[n] == 0 {
                    seen[n] = true;
                    libs.push(n);
                }
            }
        }
        stones.sort_unstable();
        libs.sort_unstable();
        (stones, libs)
    }

    fn liberties(&self, p: usize) -> usize {
        self.chain(p).1.len()
    }

    /// Plays `c` at `p` if legal (empty, not the ko point, not suicide): captures, and the
    /// new ko point after a single-stone capture by a single stone left in atari.
    fn play(&mut self, p: usize, c: u8) -> Option<Undo> {
        if self.cells[p] != 0 || self.ko == Some(p) {
            return None;
        }
        self.cells[p] = c;
        let mut captured = Vec::new();
        for n in board_neighbours(self.geo, p) {
            if self.cells[n] == 3 - c {
                let (stones, libs) = self.chain(n);
                if libs.is_empty() {
                    for &s in &stones {
                        self.cells[s] = 0;
                    }
                    captured.extend(stones);
                }
            }
        }
        let (own, libs) = self.chain(p);
        if libs.is_empty() {
            self.cells[p] = 0; // suicide (nothing was captured)
            return None;
        }
        let ko = std::mem::replace(
            &mut self.ko,
            (captured.len() == 1 && own.len() == 1 && libs.len() == 1).then(|| captured[0]),
        );
        Some(Undo {
            at: p,
            captured,
            ko,
        })
    }

    fn undo(&mut self, u: Undo) {
        let c = self.cells[u.at];
        self.cells[u.at] = 0;
        for s in u.captured {
            self.cells[s] = 3 - c;
        }
        self.ko = u.ko;
    }

    /// Whether the attacker, to move, captures the chain of colour `d` at `t` by force
    /// (false when the reading runs out: the chain is then taken to escape).
    fn attack(&mut self, t: usize, d: u8, depth: usize) -> bool {
        if self.cells[t] != d {
            return true;
        }
        let libs = self.chain(t).1;
        if libs.len() > READ_LIBERTIES || depth == 0 || self.nodes >= READ_NODES {
            return false;
        }
        self.nodes += 1;
        for m in libs {
            if let Some(u) = self.play(m, 3 - d) {
                let captured = self.defend(t, d, depth - 1);
                self.undo(u);
                if captured {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the chain of colour `d` at `t`, its owner to move, is captured whatever he
    /// plays among the moves read (a pass included).
    fn defend(&mut self, t: usize, d: u8, depth: usize) -> bool {
        if self.cells[t] != d {
            return true;
        }
        let (stones, libs) = self.chain(t);
        if libs.len() > READ_LIBERTIES || depth == 0 || self.nodes >= READ_NODES {
            return false;
        }
        self.nodes += 1;
        // The chain's liberties, then those of the neighbouring chains short of liberties
        // (capturing one, or winning a race against it).
        let mut moves = libs.clone();
        let mut seen = Vec::new();
        for &s in &stones {
            for n in board_neighbours(self.geo, s) {
                if self.cells[n] == 3 - d && !seen.contains(&n) {
                    let (theirs, their_libs) = self.chain(n);
                    seen.extend(theirs);
                    if their_libs.len() <= libs.len() + 1 {
                        moves.extend(their_libs);
                    }
                }
            }
        }
        moves.sort_unstable();
        moves.dedup();
        for m in moves {
            if let Some(u) = self.play(m, d) {
                let captured = self.attack(t, d, depth - 1);
                self.undo(u);
                if !captured {
                    return false;
                }
            }
        }
        // A pass (a ko ban lifts with it).
        let ko = self.ko.take();
        let captured = self.attack(t, d, depth - 1);
        self.ko = ko;
        captured
    }
}

/// The chains among `candidates` (chain indices into `chains`) that the reading captures
/// whoever moves first, each read alone on `cells` with at most [`READ_NODES`] nodes.
pub(crate) fn captured_either_way(
    geo: Geometry,
    cells: &[u8],
    chains: &[Vec<usize>],
    candidates: &[usize],
) -> Vec<usize> {
    let mut reader = Reader {
        geo,
        cells: cells.to_vec(),
        ko: None,
        nodes: 0,
    };
    let mut out = Vec::new();
    for &k in candidates {
        let t = chains[k][0];
        let d = cells[t];
        if reader.liberties(t) > READ_LIBERTIES {
            continue;
        }
        // Deep enough for a ladder across the board; the node bound stops the rest.
        let depth = 2 * geo.points();
        reader.nodes = 0;
        let first = reader.attack(t, d, depth);
        reader.nodes = 0;
        if first && reader.defend(t, d, depth) {
            out.push(k);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::count::confirm::confirm_status;
    use crate::status::options::StatusOptions;
    use crate::status::report::Case;
    use crate::status::search::grid::components;
    use crate::status::testing::diagram;

    fn chains_of(geo: Geometry, cells: &[u8]) -> Vec<Vec<usize>> {
        components(geo, |p| cells[p] != 0, |p, q| cells[p] == cells[q])
    }

    /// The stones of the chains the reading takes off, as a diagram of `x`.
    fn taken(rows: &[&str]) -> Vec<String> {
        let (geo, cells) = diagram(rows);
        let chains = chains_of(geo, &cells);
        let all: Vec<usize> = (0..chains.len()).collect();
        let mut marks = vec![b'.'; cells.len()];
        for k in captured_either_way(geo, &cells, &chains, &all) {
            for &p in &chains[k] {
                marks[p] = b'x';
            }
        }
        marks
            .chunks(rows[0].len())
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn a_chain_in_atari_that_cannot_extend_is_taken_whoever_moves() {
        // Black's four stones have one liberty (F4); playing it is suicide.
        let rows = [".OXXX.", "..OXOO", "..OOO.", "......"];
        assert_eq!(taken(&rows), ["..xxx.", "...x..", "......", "......"]);
    }

    #[test]
    fn a_chain_with_two_eyes_is_never_taken() {
        // Black's chain has three liberties, two of them eyes White cannot play.
        let rows = ["X.X.X.", "XXXXXO", "OOOOOO", "......"];
        assert!(taken(&rows).iter().all(|r| !r.contains('x')));
    }

    #[test]
    fn an_extension_to_many_liberties_is_no_capture() {
        // Black's stone in atari (B5) extends at B4 to its friend at B2: five liberties.
        let rows = ["OOO...", "OXO...", "......", ".X....", "......"];
        assert!(taken(&rows).iter().all(|r| !r.contains('x')));
    }

    /// A small xorshift for the cross-check's positions.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn taken_chains_are_never_kept_whole_by_the_exhaustive_search() {
        // Random positions on 4x3 and 5x3 boards, a quarter of the points empty: wherever the whole-board exhaustive
        // search (no split, exact pruning) finishes, a chain the reading takes off is F3, S2 or N there (its stones
        // cannot all stay on the board), never F1, F2 or S1.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let opts = StatusOptions {
            split: false,
            budget: 30_000,
            ..StatusOptions::default()
        };
        let (mut checked, mut taken_total) = (0, 0);
        for n in 0..4000 {
            if checked >= 60 {
                break;
            }
            let (w, h) = if n % 2 == 0 { (4, 3) } else { (5, 3) };
            let geo = Geometry::new(w, h).unwrap();
            let mut cells: Vec<u8> = (0..w * h)
                .map(|_| match next(&mut seed) % 8 {
                    0 | 1 => 0,
                    2..=4 => 1,
                    _ => 2,
                })
                .collect();
            // Chains without a liberty are taken off until every chain has one.
            loop {
                let dead: Vec<usize> = chains_of(geo, &cells)
                    .into_iter()
                    .filter(|ch| {
                        !ch.iter()
                            .any(|&p| board_neighbours(geo, p).any(|q| cells[q] == 0))
                    })
                    .flatten()
                    .collect();
                if dead.is_empty() {
                    break;
                }
                for p in dead {
                    cells[p] = 0;
                }
            }
            let chains = chains_of(geo, &cells);
            let all: Vec<usize> = (0..chains.len()).collect();
            let took = captured_either_way(geo, &cells, &chains, &all);
            if took.is_empty() {
                continue;
            }
            let report = match confirm_status(geo, &cells, &opts) {
                Ok(r) => r,
                Err(_) => continue, // beyond the exhaustive search
            };
            checked += 1;
            for k in took {
                taken_total += 1;
                let found = report
                    .chains
                    .iter()
                    .find(|c| c.stones == chains[k])
                    .expect("every chain reported");
                assert!(
                    !matches!(found.case, Case::F1 | Case::F2 | Case::S1),
                    "{w}x{h} {cells:?}: chain {:?} taken, exhaustive {:?}",
                    chains[k],
                    found.case
                );
            }
        }
        assert!(
            checked >= 60 && taken_total >= 60,
            "{checked} {taken_total}"
        );
        eprintln!("{checked} positions, {taken_total} chains taken");
    }
}
