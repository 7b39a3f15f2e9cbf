//! Monte-Carlo tree search for the built-in bot: UCT with RAVE (all-moves-as-first
//! statistics) over the native random playouts, under the game's own ruleset.
//!
//! - The tree's moves are the legal plays that do not fill one of the mover's own eyes
//!   (the playout policy's [`is_eye`] test) and the pass, so the bot never fills its own
//!   eyes and always considers passing.
//! - A game that ends inside the tree is scored exactly ([`Game::score`], the board as it
//!   stands: Area III counts every stone on the board as alive), so the bot passes to end
//!   the game only when the count wins, and captures dead stones before it does.
//! - The pass is chosen when the search likes it best, and also, when the bot is not
//!   behind, when it is as good as the best play both in win rate (within
//!   [`PASS_MARGIN`]) and in the mean final margin (within [`PASS_POINTS`]): then no play
//!   gains anything and the game is settled, and under Area III passing first costs at
//!   most the half point of Rule 7, so the bot passes first rather than fill its own area
//!   with pointless plays. (Behind, a pass that is merely as bad as every play would hand
//!   the opponent a quiet end.)
//! - The bot resigns when its best value stays below [`SearchLimits::resign_below`].

use std::time::{Duration, Instant};

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::color::Color;
use crate::game::{Game, Rules};
use crate::geometry::Loc;
use crate::memory::NoMemory;
use crate::playout::is_eye;
use crate::playout_policy::PlayoutPolicy;

/// RAVE equivalence parameter: the number of visits at which a node's own statistics and
/// its all-moves-as-first statistics weigh the same.
const RAVE_EQUIVALENCE: f64 = 1000.0;
/// UCT exploration constant (small: RAVE does most of the exploring).
const EXPLORATION: f64 = 0.25;
/// How much lower than the best play's a pass's win rate may be and still be chosen.
pub const PASS_MARGIN: f64 = 0.02;
/// How much lower (in points) than the best play's a pass's mean margin may be and still
/// be chosen.
pub const PASS_POINTS: f64 = 1.0;
/// Visits a pass needs before it can be chosen, as the most visited move or over a more
/// visited play (then also at least a quarter of that play's).
const PASS_VISITS: u32 = 20;

/// How long to search and when to give up.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    /// Playouts to run (at least one).
    pub playouts: u32,
    /// Wall-clock budget in seconds; 0 for none (then `playouts` alone decides).
    pub seconds: f64,
    pub seed: u64,
    /// Resign when the best move's win rate is below this (after at least 200 playouts);
    /// 0 never resigns.
    pub resign_below: f64,
}

/// What the search chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    /// A play, by flat index.
    Play(usize),
    Pass,
    Resign,
}

/// The chosen move and what the search saw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult {
    pub choice: Choice,
    /// The chosen move's (or, on resigning, the best move's) estimated win rate for the
    /// side to move, draws counting half.
    pub win_rate: f64,
    pub playouts: u32,
}

#[derive(Clone, Debug)]
struct Node {
    /// The move that led here (`None` for a pass; the root's is meaningless).
    mv: Option<Loc>,
    /// Children are `first_child..first_child + n_children` in the arena.
    first_child: u32,
    n_children: u32,
    expanded: bool,
    visits: u32,
    /// Wins for the player who made `mv`.
    wins: f64,
    /// Sum of the final margins for the player who made `mv`, in half points.
    margins: f64,
    amaf_visits: u32,
    amaf_wins: f64,
}

impl Node {
    fn new(mv: Option<Loc>) -> Node {
        Node {
            mv,
            first_child: 0,
            n_children: 0,
            expanded: false,
            visits: 0,
            wins: 0.0,
            margins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }

    fn value(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / f64::from(self.visits)
        }
    }

    /// Mean final margin for the player who made `mv`, in points.
    fn mean_margin(&self) -> f64 {
        self.margins / 2.0 / f64::from(self.visits.max(1))
    }

    /// The selection value seen by the parent, `log_parent` the log of its visits. A pass
    /// has no all-moves-as-first statistics (playouts pass only when they must), so its
    /// value is its own mean alone, the parent's view of the position before it is tried.
    fn score(&self, log_parent: f64, parent_value: f64) -> f64 {
        let n = f64::from(self.visits);
        let explore = EXPLORATION * (log_parent / (n + 1.0)).sqrt();
        let mean = if self.visits == 0 {
            None
        } else {
            Some(self.wins / n)
        };
        if self.mv.is_none() {
            return mean.unwrap_or(parent_value) + explore;
        }
        let amaf = (self.amaf_wins + 0.5) / (f64::from(self.amaf_visits) + 1.0);
        let beta = (RAVE_EQUIVALENCE / (3.0 * n + RAVE_EQUIVALENCE)).sqrt();
        (1.0 - beta) * mean.unwrap_or(amaf) + beta * amaf + explore
    }
}

/// The outcome of a finished game for `c`: 1 win, 0.5 draw, 0 loss.
fn outcome(margin: i32, c: Color) -> f64 {
    let black = match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    if c == Color::Black {
        black
    } else {
        1.0 - black
    }
}

struct Tree<'a, const N: usize> {
    nodes: Vec<Node>,
    root: Game<N>,
    rules: &'a Rules,
    max_moves: usize,
    /// Per point, the playouts' final owner summed (+1 Black, -1 White), when analysing.
    ownership: Option<Vec<f64>>,
}

impl<const N: usize> Tree<'_, N> {
    /// Gives node `id` its children. The tree grows with the playout budget (by up to a
    /// board's worth of nodes per playout), so room is reserved fallibly and the node
    /// count is kept within what `u32` indices address: a tree memory cannot hold stops
    /// the search with [`NoMemory`] instead of aborting the process.
    fn expand(&mut self, id: usize, game: &Game<N>) -> Result<(), NoMemory> {
        let most = game.position.geometry().points() + 1;
        if self.nodes.len() + most > u32::MAX as usize {
            return Err(NoMemory);
        }
        if self.nodes.capacity() - self.nodes.len() < most {
            self.nodes.try_reserve(most.max(self.nodes.len()))?;
        }
        let first = self.nodes.len() as u32;
        let c = game.to_move;
        let nodes = &mut self.nodes;
        game.for_each_legal(|_, l| {
            if !is_eye(game, l, c) {
                nodes.push(Node::new(Some(l)));
            }
        });
        self.nodes.push(Node::new(None));
        let n_children = self.nodes.len() as u32 - first;
        let node = &mut self.nodes[id];
        node.first_child = first;
        node.n_children = n_children;
        node.expanded = true;
        Ok(())
    }

    fn select(&self, id: usize) -> usize {
        let node = &self.nodes[id];
        let log_parent = f64::from(node.visits.max(1)).ln();
        // The parent's value for the side to move there.
        let parent_value = if node.visits == 0 {
            0.5
        } else {
            1.0 - node.wins / f64::from(node.visits)
        };
        let children = node.first_child as usize..(node.first_child + node.n_children) as usize;
        let mut best = children.start;
        let mut best_score = f64::NEG_INFINITY;
        for k in children {
            let s = self.nodes[k].score(log_parent, parent_value);
            if s > best_score {
                best_score = s;
                best = k;
            }
        }
        best
    }

    /// One simulation: down the tree, one expansion, a random playout, and the update.
    fn simulate(&mut self, seed: u64, seen: &mut [u8]) -> Result<(), NoMemory> {
        let mut game = self.root.clone();
        let mut path = vec![0usize];
        let mut movers = vec![game.to_move]; // the side to move at each node of the path
        let geo = game.position.geometry();
        let mut id = 0;
        while !game.passes.over {
            if !self.nodes[id].expanded {
                if id != 0 && self.nodes[id].visits == 0 {
                    break; // a new leaf: play out from here first
                }
                self.expand(id, &game)?;
            }
            id = self.select(id);
            // Every child was legal when it was made, and the tree's game is the same.
            let _ = game.play(self.nodes[id].mv);
            path.push(id);
            movers.push(game.to_move);
        }
        let mut sequence: Vec<(usize, Color)> = path[1..]
            .iter()
            .zip(&movers[..])
            .map(|(&k, &c)| {
                (
                    self.nodes[k]
                        .mv
                        .map_or(geo.pass_index(), |l| geo.index_of_loc(l)),
                    c,
                )
            })
            .collect();
        let last = path
            .last()
            .and_then(|&k| if k == 0 { None } else { self.nodes[k].mv });
        playout(&mut game, last, seed, self.max_moves, &mut sequence);
        let margin = game.score(self.rules).margin();
        if let Some(sum) = self.ownership.as_mut() {
            let owners = crate::territory::ownership(game.position.board(), &[]);
            for (s, o) in sum.iter_mut().zip(owners) {
                *s += match o {
                    1 => 1.0,
                    2 => -1.0,
                    _ => 0.0,
                };
            }
        }
        // Back up: each node's own result, and its children's AMAF statistics from the
        // first play at each point after it by the player to move there.
        seen.fill(0);
        let mut j = sequence.len();
        for depth in (0..path.len()).rev() {
            while j > depth {
                j -= 1;
                let (m, mc) = sequence[j];
                if m != geo.pass_index() {
                    seen[m] = mc as u8 + 1;
                }
            }
            let k = path[depth];
            let node = &mut self.nodes[k];
            node.visits += 1;
            // The player who moved into this node (for the root, the opponent of its mover).
            let c = if depth > 0 {
                movers[depth - 1]
            } else {
                movers[0].opponent()
            };
            node.wins += outcome(margin, c);
            node.margins += f64::from(if c == Color::Black { margin } else { -margin });
            if self.nodes[k].expanded {
                let mover = movers[depth];
                let win = outcome(margin, mover);
                let (first, n) = (
                    self.nodes[k].first_child as usize,
                    self.nodes[k].n_children as usize,
                );
                for child in &mut self.nodes[first..first + n] {
                    if let Some(l) = child.mv {
                        if seen[geo.index_of_loc(l)] == mover as u8 + 1 {
                            child.amaf_visits += 1;
                            child.amaf_wins += win;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Plays `game` out by the playout policy with its [`PlayoutPolicy::TREE_SEARCH`] options
/// (an answer to an atari made by the last play if there is one, else the uniform choice
/// among the legal plays that fill none of the mover's own eyes, else a pass); to the end
/// or `max_moves` moves. Appends the moves (flat index, mover).
fn playout<const N: usize>(
    game: &mut Game<N>,
    mut last: Option<Loc>,
    seed: u64,
    max_moves: usize,
    moves: &mut Vec<(usize, Color)>,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let geo = game.position.geometry();
    let mut answers: Vec<Loc> = Vec::with_capacity(5);
    let start = moves.len();
    while !game.passes.over && moves.len() - start < max_moves {
        let c = game.to_move;
        let mv = PlayoutPolicy::TREE_SEARCH.choose(game, last, &mut rng, &mut answers);
        moves.push((mv.map_or(geo.pass_index(), |l| geo.index_of_loc(l)), c));
        // The move was chosen among legal ones and the game is not over.
        game.play_unchecked(mv);
        last = mv;
    }
}

/// Searches `game` (its side to move) under `rules` and chooses a move. The game is left
/// unchanged; an ended game gives a pass. [`NoMemory`] when the tree the playout budget
/// asks for does not fit in memory (see `Tree::expand`).
pub fn search<const N: usize>(
    game: &mut Game<N>,
    rules: &Rules,
    limits: &SearchLimits,
) -> Result<SearchResult, NoMemory> {
    run(game, rules, limits, false).map(|(r, _)| r)
}

/// One root move as the analysis reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    /// Flat index; `None` for the pass.
    pub mv: Option<usize>,
    pub visits: u32,
    /// Wins (draws half) for the side to move over `visits`.
    pub wins: f64,
    /// Sum of the final margins for the side to move, in points.
    pub margin_sum: f64,
    /// The principal variation from this move: the most visited child at each level
    /// (flat indices, `None` for a pass), this move first.
    pub pv: Vec<Option<usize>>,
}

/// What an analysis saw: the search's choice, every root move with at least one visit
/// (most visited first), and each point's mean final owner over the playouts (+1 Black,
/// -1 White), row by row from the top left.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub result: SearchResult,
    pub moves: Vec<MoveInfo>,
    pub ownership: Vec<f64>,
    /// Candidate moves at the root (the uniform prior is one over this).
    pub candidates: usize,
}

/// [`search`], and what it saw (see [`Analysis`]), for GUIs' analysis commands.
pub fn analyze<const N: usize>(
    game: &mut Game<N>,
    rules: &Rules,
    limits: &SearchLimits,
) -> Result<Analysis, NoMemory> {
    let (result, tree) = run(game, rules, limits, true)?;
    let geo = game.position.geometry();
    let Some(tree) = tree else {
        return Ok(Analysis {
            result,
            moves: vec![],
            ownership: vec![0.0; geo.points()],
            candidates: 0,
        });
    };
    let index = |n: &Node| n.mv.map(|l| geo.index_of_loc(l));
    let root = &tree.nodes[0];
    let first = root.first_child as usize;
    let mut moves: Vec<MoveInfo> = tree.nodes[first..first + root.n_children as usize]
        .iter()
        .enumerate()
        .filter(|(_, n)| n.visits > 0)
        .map(|(k, n)| {
            let mut pv = vec![index(n)];
            let mut id = first + k;
            while tree.nodes[id].expanded && pv.len() < 32 {
                let node = &tree.nodes[id];
                let children =
                    node.first_child as usize..(node.first_child + node.n_children) as usize;
                let Some(best) = children.max_by_key(|&c| tree.nodes[c].visits) else {
                    break;
                };
                if tree.nodes[best].visits == 0 {
                    break;
                }
                pv.push(index(&tree.nodes[best]));
                id = best;
            }
            MoveInfo {
                mv: index(n),
                visits: n.visits,
                wins: n.wins,
                margin_sum: n.margins / 2.0,
                pv,
            }
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
    let playouts = f64::from(result.playouts.max(1));
    let ownership = tree
        .ownership
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|s| s / playouts)
        .collect();
    Ok(Analysis {
        result,
        moves,
        ownership,
        candidates: root.n_children as usize,
    })
}

/// The search itself; with `analysing`, the tree too (None for an ended game), its
/// playouts' final ownership summed.
#[allow(clippy::type_complexity)]
fn run<'r, const N: usize>(
    game: &mut Game<N>,
    rules: &'r Rules,
    limits: &SearchLimits,
    analysing: bool,
) -> Result<(SearchResult, Option<Tree<'r, N>>), NoMemory> {
    if game.passes.over {
        return Ok((
            SearchResult {
                choice: Choice::Pass,
                win_rate: 0.5,
                playouts: 0,
            },
            None,
        ));
    }
    let mut root = game.clone();
    root.position = game.position.fork(); // copies now share the past: cheap clones
    let geo = root.position.geometry();
    let mut tree = Tree {
        nodes: vec![Node::new(None)],
        root,
        rules,
        max_moves: 3 * geo.points() + 16,
        ownership: analysing.then(|| vec![0.0; geo.points()]),
    };
    let root_game = tree.root.clone();
    tree.expand(0, &root_game)?;
    let deadline =
        (limits.seconds > 0.0).then(|| Instant::now() + Duration::from_secs_f64(limits.seconds));
    let mut seen = vec![0u8; geo.points()];
    let mut done = 0u32;
    let budget = limits.playouts.max(1);
    while done < budget {
        tree.simulate(
            crate::playout::game_seed(limits.seed, u64::from(done)),
            &mut seen,
        )?;
        done += 1;
        if deadline.is_some_and(|d| done % 16 == 0 && Instant::now() >= d) {
            break;
        }
    }
    let root = &tree.nodes[0];
    let children =
        &tree.nodes[root.first_child as usize..(root.first_child + root.n_children) as usize];
    let pass = children.last().expect("the pass is the last child");
    // A pass is chosen for being the most visited only once it has the visits a pass needs
    // anyway: with few playouts spread over many plays, visit counts are noise.
    let most = children
        .iter()
        .max_by_key(|n| n.visits)
        .expect("the pass is always a child");
    let plays = &children[..children.len() - 1];
    let best = if most.mv.is_none() && most.visits < PASS_VISITS {
        plays.iter().max_by_key(|n| n.visits).unwrap_or(most)
    } else {
        most
    };
    let settled = pass.visits >= PASS_VISITS.max(best.visits / 4)
        && best.value() >= 0.5
        && pass.value() >= best.value() - PASS_MARGIN
        && pass.mean_margin() >= best.mean_margin() - PASS_POINTS;
    let chosen = if settled { pass } else { best };
    let win_rate = chosen.value();
    if limits.resign_below > 0.0 && done >= 200 && best.value() < limits.resign_below {
        let result = SearchResult {
            choice: Choice::Resign,
            win_rate: best.value(),
            playouts: done,
        };
        return Ok((result, analysing.then_some(tree)));
    }
    let choice = chosen
        .mv
        .map_or(Choice::Pass, |l| Choice::Play(geo.index_of_loc(l)));
    let result = SearchResult {
        choice,
        win_rate,
        playouts: done,
    };
    Ok((result, analysing.then_some(tree)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::position::Position;
    use crate::tiers::CELLS_9;

    fn game(rows: &[&str], to_move: Color) -> Game<CELLS_9> {
        Game::new(
            Position::from_diagram(rows, crate::position::PlayRules::IKEDA).unwrap(),
            to_move,
        )
    }

    fn limits(playouts: u32) -> SearchLimits {
        SearchLimits {
            playouts,
            seconds: 0.0,
            seed: 1,
            resign_below: 0.1,
        }
    }

    fn name(g: &Game<CELLS_9>, c: Choice) -> String {
        match c {
            Choice::Play(i) => g.position.geometry().vertex_name(i),
            Choice::Pass => "pass".into(),
            Choice::Resign => "resign".into(),
        }
    }

    #[test]
    fn captures_a_stone_in_atari() {
        // White C3 in atari on 5x5 with Black to move: capturing at D3 wins the board.
        let mut g = game(&[".....", "..XO.", ".XO.O", "..XO.", "....."], Color::Black);
        let r = search(&mut g, &Rules::area3(0), &limits(3000)).unwrap();
        assert_eq!(name(&g, r.choice), "D3", "{r:?}");
    }

    #[test]
    fn passes_in_a_settled_won_game_and_never_fills_its_eyes() {
        // Black owns a 5x5 board with three eyes (every empty point is an eye).
        let mut g = game(&[".XXXX", "XXXXX", "XX.XX", "XXXXX", "XXXX."], Color::Black);
        let r = search(&mut g, &Rules::area3(13), &limits(500)).unwrap();
        assert_eq!(r.choice, Choice::Pass, "{r:?}");
        assert!(r.win_rate > 0.9);
    }

    #[test]
    fn resigns_a_hopeless_game_and_respects_the_budget() {
        // White owns nearly all of a 5x5 board; Black to move with huge komi against it.
        let mut g = game(&[".OOOO", "OOOOO", "OO.OO", "OOOOO", "OOOO."], Color::Black);
        let r = search(&mut g, &Rules::area3(13), &limits(400)).unwrap();
        assert_eq!(r.choice, Choice::Resign, "{r:?}");
        assert_eq!(r.playouts, 400);
        let r = search(
            &mut g,
            &Rules::area3(13),
            &SearchLimits {
                resign_below: 0.0,
                ..limits(50)
            },
        )
        .unwrap();
        assert_eq!(
            r.choice,
            Choice::Pass,
            "no play is legal but the eyes, which are White's: {r:?}"
        );
    }

    #[test]
    fn does_not_pass_in_an_open_game() {
        for (seed, c) in [(1, Color::Black), (2, Color::White), (3, Color::White)] {
            let geo = Geometry::new(9, 9).unwrap();
            let mut g: Game<CELLS_9> =
                Game::new(Position::new(geo, crate::position::PlayRules::IKEDA), c);
            let r = search(
                &mut g,
                &Rules::area3(13),
                &SearchLimits {
                    seed,
                    ..limits(500)
                },
            )
            .unwrap();
            assert!(matches!(r.choice, Choice::Play(_)), "{r:?}");
        }
    }

    #[test]
    fn analysis_accounts_for_every_playout_and_agrees_with_the_search() {
        // Black to move can capture C3 at D3: the most visited move, owning the board.
        let mut g = game(&[".....", "..XO.", ".XO.O", "..XO.", "....."], Color::Black);
        let rules = Rules::area3(0);
        let a = analyze(&mut g, &rules, &limits(2000)).unwrap();
        assert_eq!(a.result, search(&mut g, &rules, &limits(2000)).unwrap());
        let visits: u32 = a.moves.iter().map(|m| m.visits).sum();
        assert_eq!(
            visits, a.result.playouts,
            "the root is expanded first: each playout visits one move"
        );
        assert!(a.moves.windows(2).all(|w| w[0].visits >= w[1].visits));
        assert_eq!(name(&g, Choice::Play(a.moves[0].mv.unwrap())), "D3");
        assert_eq!(a.moves[0].pv[0], a.moves[0].mv);
        assert_eq!(a.ownership.len(), 25);
        assert!(a.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        assert!(
            a.ownership[13] > 0.0 && a.ownership.iter().sum::<f64>() > 0.0,
            "Black, who captures, owns D3 and more of the board"
        );
    }

    #[test]
    fn ended_game_and_determinism() {
        let mut g = game(&["....."; 5], Color::Black);
        let a = search(&mut g, &Rules::area3(13), &limits(300)).unwrap();
        let b = search(&mut g, &Rules::area3(13), &limits(300)).unwrap();
        assert_eq!(
            a, b,
            "a seeded search with a playout budget is reproducible"
        );
        for _ in 0..3 {
            g.play(None).unwrap();
        }
        assert!(g.passes.over);
        assert_eq!(
            search(&mut g, &Rules::area3(13), &limits(10))
                .unwrap()
                .choice,
            Choice::Pass
        );
    }
}
