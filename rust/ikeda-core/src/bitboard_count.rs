//! Exact game counts on boards of at most 64 points: the enumeration behind
//! [`crate::count_games`].
//!
//! A node is a configuration as two `u64` masks (one per colour), the pass state and the
//! points still to try; a play is a few shifts and a flood fill on bits, and undoing it
//! is popping the frame. The configurations on the path from the root (the game's
//! history included) are kept in a set that grows and shrinks with the path, so every
//! repetition test is one look-up. The walk is depth first on an explicit stack (no
//! recursion, however long a game), counts a game when a pass ends it, and checks a node
//! budget and a stop flag every few hundred thousand nodes.
//!
//! Parallelism and symmetry: the top of the tree is expanded breadth first into enough
//! subtrees for every thread; while the whole path is invariant under a symmetry of the
//! board, children that are images of each other under it are counted once, with their
//! multiplicity (the subtree of an image is the image of the subtree, so its count is
//! equal). Nothing else is shared between paths: each game is one path of the tree.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::color::{Cell, Color};
use crate::game::{Ending, Game, PassState};
use crate::geometry::Geometry;
use crate::position::KoRule;

/// The largest board (in points) this enumeration takes: one bit per point in a `u64`.
pub const MAX_POINTS: usize = 64;

/// Boards up to this many points keep the path's configurations in a bit set indexed by
/// the base-3 code of the configuration (3^13 bits = 200 KB per thread); larger ones in a
/// hash set.
const DENSE_POINTS: usize = 13;

/// Nodes between two looks at the budget and the stop flag.
const CHECK_EVERY: u64 = 1 << 18;

/// The tree is split into at least this many subtrees per thread, so that the largest
/// one is a small part of the whole.
const SUBTREES_PER_THREAD: usize = 512;

/// The breadth-first split goes no deeper than this many moves.
const MAX_SPLIT_DEPTH: usize = 64;

/// Why a count was not finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountError {
    /// The rules let a game repeat for ever (simple ko, or self-capture without positional
    /// superko), so there are infinitely many games.
    Endless,
    /// The board has more than [`MAX_POINTS`] points.
    TooLarge { points: usize },
    /// The node budget ran out after visiting this many nodes.
    Budget { nodes: u64 },
    /// The stop flag was raised.
    Stopped,
    /// The path's stack or set could not grow.
    NoMemory,
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::Endless => f.write_str("a game can repeat for ever under these rules (simple ko, or self-capture without positional superko): the games cannot be counted"),
            CountError::TooLarge { points } => write!(f, "game counts take boards of at most {MAX_POINTS} points, not {points}"),
            CountError::Budget { nodes } => write!(f, "the count passed its budget of {nodes} positions"),
            CountError::Stopped => f.write_str("the count was stopped"),
            CountError::NoMemory => f.write_str("out of memory for the path of a game"),
        }
    }
}

impl std::error::Error for CountError {}

/// What may end a count early.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountLimits<'a> {
    /// The most nodes (positions reached by a move) to visit; `None`: no limit.
    pub nodes: Option<u64>,
    /// Raised (by another thread) to stop the count.
    pub stop: Option<&'a AtomicBool>,
}

/// Whether every game under these play rules ends: under positional superko every play
/// makes a new configuration; under capturing superko without self-capture stones leave
/// the board only by captures, each to a new configuration, with at most one play per
/// point between two captures. Passes never run on without an end under any ending.
#[must_use]
pub(crate) fn finite(ko: KoRule, suicide: bool) -> bool {
    match ko {
        KoRule::PositionalSuperko => true,
        KoRule::CapturingSuperko => !suicide,
        KoRule::SimpleKo => false,
    }
}

/// A configuration: the stones of Black (`[0]`) and White (`[1]`), bit `x + y * width`.
type Stones = [u64; 2];

/// The board's shape as bit masks.
#[derive(Clone, Debug)]
struct Bits {
    width: usize,
    all: u64,
    /// Points with a neighbour to the left / to the right.
    has_left: u64,
    has_right: u64,
    neighbours: [u64; MAX_POINTS],
}

impl Bits {
    fn new(width: usize, height: usize) -> Bits {
        let points = width * height;
        debug_assert!(points <= MAX_POINTS);
        let all = if points == 64 {
            u64::MAX
        } else {
            (1 << points) - 1
        };
        let (mut has_left, mut has_right) = (0, 0);
        for i in 0..points {
            if i % width > 0 {
                has_left |= 1 << i;
            }
            if i % width + 1 < width {
                has_right |= 1 << i;
            }
        }
        let mut b = Bits {
            width,
            all,
            has_left,
            has_right,
            neighbours: [0; MAX_POINTS],
        };
        for i in 0..points {
            b.neighbours[i] = b.grow(1 << i) & !(1 << i);
        }
        b
    }

    /// `m` and its neighbours.
    #[inline(always)]
    fn grow(&self, m: u64) -> u64 {
        (m | ((m & self.has_right) << 1)
            | ((m & self.has_left) >> 1)
            | (m << self.width)
            | (m >> self.width))
            & self.all
    }

    /// The stones of `stones` connected to `seeds` (a subset of `stones`).
    #[inline(always)]
    fn fill(&self, mut seeds: u64, stones: u64) -> u64 {
        loop {
            let next = self.grow(seeds) & stones;
            if next == seeds {
                return seeds;
            }
            seeds = next;
        }
    }

    /// The configuration after colour `c` (0 or 1) plays at point `p` (empty), and
    /// whether stones left the board; `None` if the play removes its own chain and
    /// self-capture is not allowed. Rule 3 first (opponent chains without a liberty go),
    /// then the own chain (removed under self-capture, refused otherwise).
    #[inline(always)]
    fn play(&self, s: Stones, c: usize, p: u32, suicide: bool) -> Option<(Stones, bool)> {
        let b = 1u64 << p;
        let own = s[c] | b;
        let opp = s[1 - c];
        let empty = self.all & !(own | opp);
        let near = self.neighbours[p as usize];
        let mut out = s;
        out[c] = own;
        if near & opp != 0 {
            let alive = self.fill(self.grow(empty) & opp, opp);
            if alive != opp {
                out[1 - c] = alive;
                return Some((out, true));
            }
        }
        if near & empty != 0 {
            return Some((out, false));
        }
        let alive = self.fill(self.grow(empty) & own, own);
        if alive & b != 0 {
            return Some((out, false));
        }
        if !suicide {
            return None;
        }
        out[c] = alive;
        Some((out, true))
    }
}

/// The configurations on the path, as a set that the walk grows and shrinks.
trait PathSet: Send {
    type Key: Copy + Send;
    fn key(&self, s: Stones) -> Self::Key;
    fn contains(&self, k: Self::Key) -> bool;
    /// Adds `k`; whether it was new.
    fn insert(&mut self, k: Self::Key) -> Result<bool, CountError>;
    fn remove(&mut self, k: Self::Key);
}

/// A bit per configuration, indexed by its base-3 code (small boards).
struct Dense {
    /// 3^i for each point, per byte of a mask: `code[j][byte]` is the sum of 3^(8j + k)
    /// over the bits k of `byte`.
    code: Vec<[u32; 256]>,
    bits: Vec<u64>,
}

impl Dense {
    fn new(points: usize) -> Dense {
        debug_assert!(points <= DENSE_POINTS);
        let code = (0..points.div_ceil(8))
            .map(|j| {
                let mut t = [0u32; 256];
                for (byte, v) in t.iter_mut().enumerate() {
                    *v = (0..8)
                        .filter(|k| byte >> k & 1 == 1 && 8 * j + k < points)
                        .map(|k| 3u32.pow((8 * j + k) as u32))
                        .sum();
                }
                t
            })
            .collect();
        Dense {
            code,
            bits: vec![0; 3usize.pow(points as u32).div_ceil(64)],
        }
    }

    #[inline(always)]
    fn code_of(&self, m: u64) -> u32 {
        self.code
            .iter()
            .enumerate()
            .map(|(j, t)| t[(m >> (8 * j)) as usize & 0xff])
            .sum()
    }
}

impl PathSet for Dense {
    type Key = u32;
    #[inline(always)]
    fn key(&self, s: Stones) -> u32 {
        self.code_of(s[0]) + 2 * self.code_of(s[1])
    }
    #[inline(always)]
    fn contains(&self, k: u32) -> bool {
        self.bits[(k >> 6) as usize] >> (k & 63) & 1 == 1
    }
    #[inline(always)]
    fn insert(&mut self, k: u32) -> Result<bool, CountError> {
        let w = &mut self.bits[(k >> 6) as usize];
        let new = *w >> (k & 63) & 1 == 0;
        *w |= 1 << (k & 63);
        Ok(new)
    }
    #[inline(always)]
    fn remove(&mut self, k: u32) {
        self.bits[(k >> 6) as usize] &= !(1 << (k & 63));
    }
}

/// The path's configurations in a hash set (boards of more than [`DENSE_POINTS`] points).
#[derive(Default)]
struct Sparse(HashSet<u128>);

impl PathSet for Sparse {
    type Key = u128;
    fn key(&self, s: Stones) -> u128 {
        u128::from(s[0]) << 64 | u128::from(s[1])
    }
    fn contains(&self, k: u128) -> bool {
        self.0.contains(&k)
    }
    fn insert(&mut self, k: u128) -> Result<bool, CountError> {
        self.0.try_reserve(1).map_err(|_| CountError::NoMemory)?;
        Ok(self.0.insert(k))
    }
    fn remove(&mut self, k: u128) {
        self.0.remove(&k);
    }
}

/// A node of the walk: everything a game's future depends on, but the path's set.
#[derive(Clone, Copy, Debug)]
struct Node {
    stones: Stones,
    /// 0 for Black to move, 1 for White.
    to_move: u8,
    passes: PassState,
}

const COLORS: [Color; 2] = [Color::Black, Color::White];

/// One enumeration: the board, the rules and the limits shared by its threads.
struct Counter<'a> {
    bits: Bits,
    points: usize,
    ending: Ending,
    positional: bool,
    suicide: bool,
    limits: CountLimits<'a>,
    /// Nodes visited so far by every thread (updated every [`CHECK_EVERY`] nodes).
    nodes: AtomicU64,
    /// Raised when one thread stops, so that the others stop too.
    failed: AtomicBool,
    /// Why the first thread that stopped did.
    reason: OnceLock<CountError>,
}

/// A frame of the depth-first walk.
#[derive(Clone, Copy)]
struct Frame<K> {
    node: Node,
    key: K,
    /// Empty points not tried yet.
    todo: u64,
    pass_next: bool,
    /// The frame's configuration was new to the path's set (remove it on the way back).
    inserted: bool,
}

impl Counter<'_> {
    /// The configuration after the side to move in `node` plays at `p` and whether stones
    /// left the board (Rules 3 and 5); the repetition test is the caller's.
    #[inline(always)]
    fn child(&self, node: &Node, p: u32) -> Option<(Stones, bool)> {
        self.bits
            .play(node.stones, node.to_move as usize, p, self.suicide)
    }

    /// Counts `nodes` more visited nodes; an error if the budget or the stop flag says so,
    /// or if another thread failed.
    fn tick(&self, nodes: u64) -> Result<(), CountError> {
        let total = self.nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
        if self.failed.load(Ordering::Relaxed) {
            return Err(CountError::Stopped);
        }
        if self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(self.fail(CountError::Stopped));
        }
        match self.limits.nodes {
            Some(budget) if total > budget => Err(self.fail(CountError::Budget { nodes: budget })),
            _ => Ok(()),
        }
    }

    /// Stops every thread; the first reason given is the one reported.
    fn fail(&self, e: CountError) -> CountError {
        let _ = self.reason.set(e);
        self.failed.store(true, Ordering::Relaxed);
        e
    }

    /// The games below `root`, whose path (its own configuration included) is in `set`,
    /// and the nodes visited.
    fn walk<S: PathSet>(
        &self,
        set: &mut S,
        stack: &mut Vec<Frame<S::Key>>,
        root: Node,
    ) -> Result<(u64, u64), CountError> {
        let empty = |s: Stones| self.bits.all & !(s[0] | s[1]);
        stack.clear();
        stack.push(Frame {
            node: root,
            key: set.key(root.stones),
            todo: empty(root.stones),
            pass_next: true,
            inserted: false,
        });
        let mut games = 0u64;
        let mut since_check = 0u64;
        let mut checked = 0u64;
        let result = loop {
            let Some(top) = stack.last_mut() else {
                break Ok(games);
            };
            let node = top.node;
            let c = COLORS[node.to_move as usize];
            let child = if top.pass_next {
                top.pass_next = false;
                let passes = node.passes.pass(c, self.ending);
                if passes.over {
                    games += 1;
                    continue;
                }
                let key = top.key;
                Frame {
                    node: Node {
                        stones: node.stones,
                        to_move: node.to_move ^ 1,
                        passes,
                    },
                    key,
                    todo: empty(node.stones),
                    pass_next: true,
                    inserted: false,
                }
            } else if top.todo != 0 {
                let p = top.todo.trailing_zeros();
                top.todo &= top.todo - 1;
                let Some((stones, removed)) = self.child(&node, p) else {
                    continue;
                };
                let key = set.key(stones);
                if (self.positional || removed) && set.contains(key) {
                    continue;
                }
                let inserted = match set.insert(key) {
                    Ok(i) => i,
                    Err(e) => break Err(e),
                };
                let passes = node.passes.play(c, self.ending);
                Frame {
                    node: Node {
                        stones,
                        to_move: node.to_move ^ 1,
                        passes,
                    },
                    key,
                    todo: empty(stones),
                    pass_next: true,
                    inserted,
                }
            } else {
                let f = stack.pop().expect("the top frame");
                if f.inserted {
                    set.remove(f.key);
                }
                continue;
            };
            if stack.len() == stack.capacity() && stack.try_reserve(stack.len().max(64)).is_err() {
                if child.inserted {
                    set.remove(child.key);
                }
                break Err(CountError::NoMemory);
            }
            stack.push(child);
            since_check += 1;
            if since_check == CHECK_EVERY {
                since_check = 0;
                checked += CHECK_EVERY;
                if let Err(e) = self.tick(CHECK_EVERY) {
                    break Err(e);
                }
            }
        };
        // Leave the set as it was found, whatever happened.
        while let Some(f) = stack.pop() {
            if f.inserted {
                set.remove(f.key);
            }
        }
        self.nodes.fetch_add(since_check, Ordering::Relaxed);
        result.map(|games| (games, checked + since_check))
    }
}

/// The symmetries of a board as permutations of its points (the identity first), each
/// listed once.
fn symmetries(width: usize, height: usize) -> Vec<Vec<u8>> {
    let (w, h) = (width, height);
    // The four of every rectangle, then the four more of a square (the transposes).
    let map = |k: usize, x: usize, y: usize| match k {
        0 => (x, y),
        1 => (w - 1 - x, y),
        2 => (x, h - 1 - y),
        3 => (w - 1 - x, h - 1 - y),
        4 => (y, x),
        5 => (w - 1 - y, x),
        6 => (y, h - 1 - x),
        _ => (w - 1 - y, h - 1 - x),
    };
    let mut perms: Vec<Vec<u8>> = Vec::new();
    for k in 0..if w == h { 8 } else { 4 } {
        let perm: Vec<u8> = (0..w * h)
            .map(|i| {
                let (x, y) = map(k, i % w, i / w);
                (x + y * w) as u8
            })
            .collect();
        if !perms.contains(&perm) {
            perms.push(perm);
        }
    }
    perms
}

/// The image of a mask under a permutation of the points.
fn image(perm: &[u8], mut m: u64) -> u64 {
    let mut out = 0;
    while m != 0 {
        out |= 1 << perm[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    out
}

/// A subtree to count: its root, the configurations of its path and how many subtrees
/// equal to it (images under the board's symmetries) it stands for.
#[derive(Clone, Debug)]
struct Subtree {
    node: Node,
    path: Vec<Stones>,
    weight: u64,
    /// The symmetries (bits into the symmetry list) that map the path's set of
    /// configurations onto itself and fix the subtree's root configuration.
    fixed: u8,
}

/// The number of complete games from `game` (a game already over counts as one), on the
/// current rayon pool. Works on boards of at most [`MAX_POINTS`] points under rules whose
/// games all end ([`finite`]).
pub fn count_games_bits<const N: usize>(
    game: &Game<N>,
    limits: CountLimits<'_>,
) -> Result<u64, CountError> {
    if game.passes.over {
        return Ok(1);
    }
    let (counter, history, root) = setup(game, limits)?;
    let subtrees = SUBTREES_PER_THREAD * rayon::current_num_threads();
    if counter.points <= DENSE_POINTS {
        counter.count(&history, root, || Dense::new(counter.points), subtrees)
    } else {
        counter.count(&history, root, Sparse::default, subtrees)
    }
}

/// The counter for `game`, its history (oldest first) and the root node; the refusals of
/// [`count_games_bits`].
fn setup<'a, const N: usize>(
    game: &Game<N>,
    limits: CountLimits<'a>,
) -> Result<(Counter<'a>, Vec<Stones>, Node), CountError> {
    let rules = game.position.rules();
    if !finite(rules.ko, rules.suicide) {
        return Err(CountError::Endless);
    }
    let geo = game.position.geometry();
    let points = geo.points();
    if points > MAX_POINTS {
        return Err(CountError::TooLarge { points });
    }
    let counter = Counter::new(geo, game.ending, rules.ko, rules.suicide, limits);
    let mut history = Vec::new();
    game.position
        .recent_configurations(usize::MAX, |_, cells| history.push(stones_of(geo, cells)));
    history.reverse();
    let root = Node {
        stones: history[history.len() - 1],
        to_move: game.to_move.index() as u8,
        passes: game.passes,
    };
    Ok((counter, history, root))
}

/// An estimate of a count and of its work, from a sample of the subtrees of the split.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Subtrees in the split, and how many were counted (drawn uniformly, with repeats).
    pub subtrees: usize,
    pub sampled: usize,
    /// Estimated games and nodes of the whole count, each with its standard error.
    pub games: f64,
    pub games_error: f64,
    pub nodes: f64,
    pub nodes_error: f64,
    /// Nodes actually visited by the sample (for the time per node of this machine).
    pub sampled_nodes: u64,
}

/// Splits the tree of games from `game` into at least `subtrees` subtrees (as
/// [`count_games_bits`] does, symmetry included), counts `samples` of them drawn
/// uniformly (seeded), and scales up: the games (each sampled subtree's count times its
/// multiplicity) and the nodes of the whole count, with standard errors. For a count too
/// large to run: its size, checked against a known total where there is one.
pub fn estimate_count<const N: usize>(
    game: &Game<N>,
    subtrees: usize,
    samples: usize,
    seed: u64,
) -> Result<Estimate, CountError> {
    use rand_core::{RngCore, SeedableRng};
    let (counter, history, root) = setup(game, CountLimits::default())?;
    let (ended, frontier) = counter.split(&history, root, subtrees)?;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let picks: Vec<usize> = if frontier.is_empty() {
        Vec::new()
    } else {
        (0..samples)
            .map(|_| (rng.next_u64() % frontier.len() as u64) as usize)
            .collect()
    };
    let counted: Vec<(u64, u64)> = if counter.points <= DENSE_POINTS {
        counter.sample(&frontier, &picks, || Dense::new(counter.points))?
    } else {
        counter.sample(&frontier, &picks, Sparse::default)?
    };
    let scale = |xs: &mut dyn Iterator<Item = f64>| -> (f64, f64) {
        let xs: Vec<f64> = xs.collect();
        let n = xs.len() as f64;
        if xs.is_empty() {
            return (0.0, 0.0);
        }
        let mean = xs.iter().sum::<f64>() / n;
        let var = if xs.len() > 1 {
            xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let f = frontier.len() as f64;
        (f * mean, f * (var / n).sqrt())
    };
    let (games, games_error) = scale(&mut counted.iter().map(|&(g, _)| g as f64));
    let (nodes, nodes_error) = scale(&mut counted.iter().map(|&(_, n)| n as f64));
    Ok(Estimate {
        subtrees: frontier.len(),
        sampled: counted.len(),
        games: ended as f64 + games,
        games_error,
        nodes,
        nodes_error,
        sampled_nodes: counted.iter().map(|&(_, n)| n).sum(),
    })
}

/// The masks of a board's cells.
fn stones_of<const N: usize>(geo: Geometry, cells: &[Cell; N]) -> Stones {
    let mut s = [0u64; 2];
    for (i, loc) in geo.locs().enumerate() {
        if let Some(c) = cells[loc as usize].color() {
            s[c.index()] |= 1 << i;
        }
    }
    s
}

impl<'a> Counter<'a> {
    fn new(
        geo: Geometry,
        ending: Ending,
        ko: KoRule,
        suicide: bool,
        limits: CountLimits<'a>,
    ) -> Self {
        Counter {
            bits: Bits::new(geo.width as usize, geo.height as usize),
            points: geo.points(),
            ending,
            positional: ko == KoRule::PositionalSuperko,
            suicide,
            limits,
            nodes: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            reason: OnceLock::new(),
        }
    }

    /// Splits the tree below `root` (whose history is `history`, oldest first, `root`'s
    /// configuration last) into at least `subtrees` subtrees where it can and counts them
    /// in parallel.
    fn count<S: PathSet>(
        &self,
        history: &[Stones],
        root: Node,
        new_set: impl Fn() -> S + Sync,
        subtrees: usize,
    ) -> Result<u64, CountError> {
        let (ended, frontier) = self.split(history, root, subtrees)?;
        let counted = frontier
            .into_par_iter()
            .map_init(
                || (new_set(), Vec::new()),
                |(set, stack), t| {
                    self.subtree(set, stack, &t)
                        .map(|(games, _)| games)
                        .map_err(|e| self.fail(e))
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b));
        match (counted, self.reason.get()) {
            (Ok(n), None) => Ok(ended + n),
            (_, Some(&e)) | (Err(e), None) => Err(e),
        }
    }

    /// The games that end within the first moves below `root` (weighted) and the subtrees
    /// still going after them: at least `subtrees` of them where the tree has that many
    /// within [`MAX_SPLIT_DEPTH`] moves.
    fn split(
        &self,
        history: &[Stones],
        root: Node,
        subtrees: usize,
    ) -> Result<(u64, Vec<Subtree>), CountError> {
        let perms = symmetries(self.bits.width, self.points / self.bits.width);
        // The symmetries that map the history's set onto itself and fix the configuration
        // now: the root's state is its own image under each.
        let now = root.stones;
        let fixed = (0..perms.len())
            .filter(|&g| {
                let map = |s: Stones| [image(&perms[g], s[0]), image(&perms[g], s[1])];
                map(now) == now && history.iter().all(|&s| history.contains(&map(s)))
            })
            .fold(0u8, |m, g| m | 1 << g);
        let mut ended = 0u64;
        let mut frontier = vec![Subtree {
            node: root,
            path: history.to_vec(),
            weight: 1,
            fixed,
        }];
        for _ in 0..MAX_SPLIT_DEPTH {
            if frontier.is_empty() || frontier.len() >= subtrees {
                break;
            }
            let mut next = Vec::new();
            for t in &frontier {
                ended += self.expand(t, &perms, &mut next);
            }
            self.tick(next.len() as u64)?;
            frontier = next;
        }
        Ok((ended, frontier))
    }

    /// The games (weighted) and nodes of the subtrees `picks` of `frontier`.
    fn sample<S: PathSet>(
        &self,
        frontier: &[Subtree],
        picks: &[usize],
        new_set: impl Fn() -> S + Sync + Send,
    ) -> Result<Vec<(u64, u64)>, CountError> {
        picks
            .par_iter()
            .map_init(
                || (new_set(), Vec::new()),
                |(set, stack), &i| self.subtree(set, stack, &frontier[i]),
            )
            .collect()
    }

    /// The games of subtree `t` (weighted) and the nodes visited, the path's set left as
    /// it was found.
    fn subtree<S: PathSet>(
        &self,
        set: &mut S,
        stack: &mut Vec<Frame<S::Key>>,
        t: &Subtree,
    ) -> Result<(u64, u64), CountError> {
        let mut added = Vec::new();
        let mut n = Ok((0, 0));
        for &s in &t.path {
            let k = set.key(s);
            match set.insert(k) {
                Ok(true) => added.push(k),
                Ok(false) => {}
                Err(e) => n = Err(e),
            }
        }
        if n.is_ok() {
            n = self.walk(set, stack, t.node);
        }
        for k in added {
            set.remove(k);
        }
        let (games, nodes) = n?;
        Ok((games * t.weight, nodes))
    }

    /// Pushes the children of `t` that are still going to `out`, one per class of
    /// children equal under the symmetries fixing the path (weighted by the class's
    /// size); returns the games that end at its children (weighted).
    fn expand(&self, t: &Subtree, perms: &[Vec<u8>], out: &mut Vec<Subtree>) -> u64 {
        let node = t.node;
        let c = COLORS[node.to_move as usize];
        let passes = node.passes.pass(c, self.ending);
        let mut ended = 0;
        if passes.over {
            ended += t.weight;
        } else {
            out.push(Subtree {
                node: Node {
                    passes,
                    to_move: node.to_move ^ 1,
                    ..node
                },
                ..t.clone()
            });
        }
        let fixing: Vec<usize> = (0..perms.len())
            .filter(|&g| t.fixed >> g & 1 == 1)
            .collect();
        let mut todo = self.bits.all & !(node.stones[0] | node.stones[1]);
        while todo != 0 {
            let p = todo.trailing_zeros();
            todo &= todo - 1;
            let orbit = fixing
                .iter()
                .fold(1u64 << p, |m, &g| m | 1 << perms[g][p as usize]);
            if orbit.trailing_zeros() != p {
                continue; // counted with the smallest point of its class
            }
            let Some((stones, removed)) = self.child(&node, p) else {
                continue;
            };
            if (self.positional || removed) && t.path.contains(&stones) {
                continue;
            }
            let mut path = t.path.clone();
            path.push(stones);
            let fixed = fixing
                .iter()
                .filter(|&&g| {
                    image(&perms[g], stones[0]) == stones[0]
                        && image(&perms[g], stones[1]) == stones[1]
                })
                .fold(0u8, |m, &g| m | 1 << g);
            out.push(Subtree {
                node: Node {
                    stones,
                    to_move: node.to_move ^ 1,
                    passes: node.passes.play(c, self.ending),
                },
                path,
                weight: t.weight * u64::from(orbit.count_ones()),
                fixed,
            });
        }
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count_games::count_games_by_play;
    use crate::position::{PlayRules, Position};
    use crate::{Geometry, CELLS_9};

    const TROMP_TAYLOR: PlayRules = PlayRules {
        ko: KoRule::PositionalSuperko,
        suicide: true,
    };

    fn game(w: usize, h: usize, rules: PlayRules, ending: Ending) -> Game<CELLS_9> {
        Game::with_ending(
            Position::<CELLS_9>::new(Geometry::new(w, h).unwrap(), rules),
            Color::Black,
            ending,
        )
    }

    fn count(w: usize, h: usize, rules: PlayRules, ending: Ending) -> u64 {
        count_games_bits(&game(w, h, rules, ending), CountLimits::default()).unwrap()
    }

    #[test]
    fn tromp_taylor_published_counts() {
        assert_eq!(count(1, 1, TROMP_TAYLOR, Ending::TwoPasses), 1);
        assert_eq!(count(2, 1, TROMP_TAYLOR, Ending::TwoPasses), 9);
        assert_eq!(count(1, 2, TROMP_TAYLOR, Ending::TwoPasses), 9);
        assert_eq!(count(3, 1, TROMP_TAYLOR, Ending::TwoPasses), 907);
        assert_eq!(count(1, 3, TROMP_TAYLOR, Ending::TwoPasses), 907);
    }

    /// Every finite ruleset and ending, on every board the play-and-undo enumeration
    /// finishes quickly, from the empty board and from games already under way (a
    /// history to respect, White to move, passes made).
    #[test]
    fn equal_to_the_play_and_undo_count() {
        let rulesets = [
            PlayRules::IKEDA,
            TROMP_TAYLOR,
            PlayRules {
                ko: KoRule::PositionalSuperko,
                suicide: false,
            },
        ];
        for (w, h) in [(1, 1), (2, 1), (3, 1), (1, 3)] {
            for rules in rulesets {
                for ending in [Ending::FirstPass, Ending::TwoPasses, Ending::EqualMoves] {
                    let mut g = game(w, h, rules, ending);
                    assert_eq!(
                        count(w, h, rules, ending),
                        count_games_by_play(&mut g),
                        "{w}x{h} {rules:?} {ending:?}"
                    );
                    // Under way: every line of up to three moves.
                    check_lines(&mut g, 3);
                }
            }
        }
    }

    fn check_lines(g: &mut Game<CELLS_9>, depth: usize) {
        let expected = count_games_by_play(g);
        assert_eq!(
            count_games_bits(g, CountLimits::default()),
            Ok(expected),
            "{:?} after {} plays",
            g.passes,
            g.position.plays()
        );
        if depth == 0 || g.passes.over {
            return;
        }
        let mut plays = Vec::new();
        g.for_each_legal(|_, l| plays.push(l));
        for mv in std::iter::once(None).chain(plays.into_iter().map(Some)) {
            let undo = g.make(mv);
            check_lines(g, depth - 1);
            g.undo(undo);
        }
    }

    /// The plain walk from `root` with `history` in the path's set.
    fn plain(c: &Counter<'_>, history: &[Stones], root: Node) -> u64 {
        let mut set = Dense::new(c.points);
        for &s in history {
            let k = set.key(s);
            set.insert(k).unwrap();
        }
        c.walk(&mut set, &mut Vec::new(), root).unwrap().0
    }

    /// Every 2x2 configuration outside `allowed` (a set closed under the symmetries
    /// wanted), then the empty board: under positional superko the games can only visit
    /// the allowed configurations, few enough to count 2x2 in a test.
    fn restricted_history(allowed: impl Fn(Stones) -> bool) -> Vec<Stones> {
        let mut h: Vec<Stones> = (0..16u64)
            .flat_map(|b| (0..16u64).filter(move |w| b & w == 0).map(move |w| [b, w]))
            .filter(|&s| !allowed(s))
            .collect();
        h.push([0, 0]);
        h
    }

    /// The split with symmetry equals the plain walk, whatever the number of subtrees and
    /// threads, on boards with symmetries (1xn, 2x2) and without (a history that breaks
    /// them).
    #[test]
    fn split_and_symmetry_equal_the_plain_walk() {
        let empty_root = Node {
            stones: [0, 0],
            to_move: 0,
            passes: PassState::default(),
        };
        let cases: Vec<(usize, usize, PlayRules, Vec<Stones>)> = vec![
            (3, 1, PlayRules::IKEDA, vec![[0, 0]]),
            (1, 3, TROMP_TAYLOR, vec![[0, 0]]),
            (3, 1, TROMP_TAYLOR, vec![[0b001, 0], [0, 0]]), // asymmetric history
            // at most one stone of each colour: every symmetry of the square fixes the set
            (
                2,
                2,
                TROMP_TAYLOR,
                restricted_history(|s| s[0].count_ones() <= 1 && s[1].count_ones() <= 1),
            ),
            // and a set only the reflection in the diagonal through points 0 and 3 fixes
            (
                2,
                2,
                TROMP_TAYLOR,
                restricted_history(|s| {
                    s[0].count_ones() <= 1 && s[1].count_ones() <= 1
                        || s == [0b1001, 0]
                        || s == [0b0001, 0b0110]
                }),
            ),
        ];
        for (w, h, rules, history) in cases {
            for ending in [Ending::FirstPass, Ending::TwoPasses, Ending::EqualMoves] {
                let geo = Geometry::new(w, h).unwrap();
                let c = Counter::new(geo, ending, rules.ko, rules.suicide, CountLimits::default());
                let expected = plain(&c, &history, empty_root);
                for threads in [1, 3] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    for subtrees in [1, 7, 100_000] {
                        let n = pool.install(|| {
                            c.count(&history, empty_root, || Dense::new(w * h), subtrees)
                        });
                        assert_eq!(n, Ok(expected), "{w}x{h} {rules:?} {ending:?} on {threads} threads, {subtrees} subtrees");
                    }
                }
            }
        }
    }

    /// The first split of the empty board counts each class of first plays once: on 2x2
    /// one corner for four, on 1x4 an end and a middle point for two each.
    #[test]
    fn first_plays_by_symmetry() {
        for (w, h, weights) in [
            (2, 2, vec![1, 4]),
            (4, 1, vec![1, 2, 2]),
            (3, 1, vec![1, 2, 1]),
        ] {
            let geo = Geometry::new(w, h).unwrap();
            let c = Counter::new(
                geo,
                Ending::TwoPasses,
                KoRule::PositionalSuperko,
                true,
                CountLimits::default(),
            );
            let perms = symmetries(w, h);
            let root = Subtree {
                node: Node {
                    stones: [0, 0],
                    to_move: 0,
                    passes: PassState::default(),
                },
                path: vec![[0, 0]],
                weight: 1,
                fixed: u8::MAX >> (8 - perms.len()),
            };
            let mut out = Vec::new();
            assert_eq!(c.expand(&root, &perms, &mut out), 0);
            assert_eq!(
                out.iter().map(|t| t.weight).collect::<Vec<_>>(),
                weights,
                "{w}x{h}"
            );
        }
    }

    #[test]
    fn symmetries_of_boards() {
        assert_eq!(symmetries(1, 1).len(), 1);
        assert_eq!(symmetries(4, 1).len(), 2);
        assert_eq!(symmetries(3, 2).len(), 4);
        assert_eq!(symmetries(2, 2).len(), 8);
        assert_eq!(symmetries(3, 3).len(), 8);
        for perm in symmetries(3, 3) {
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..9).collect::<Vec<u8>>());
        }
    }

    #[test]
    fn an_estimate_with_every_subtree_drawn_is_near_the_count() {
        // 1x3 under Territory I: 48,265 games; a large sample of a small split.
        let g = game(3, 1, PlayRules::IKEDA, Ending::EqualMoves);
        let e = estimate_count(&g, 8, 4000, 1).unwrap();
        assert!(e.subtrees >= 8 && e.sampled == 4000);
        assert!(
            (e.games - 48_265.0).abs() < 4.0 * e.games_error.max(1.0),
            "{e:?}"
        );
        let full = estimate_count(&g, 1, 10, 1).unwrap(); // one subtree: the whole tree
        assert_eq!(
            (full.subtrees, full.games, full.games_error),
            (1, 48_265.0, 0.0),
            "{full:?}"
        );
    }

    #[test]
    fn endless_rules_and_large_boards_are_refused() {
        let simple = PlayRules {
            ko: KoRule::SimpleKo,
            suicide: false,
        };
        let csk_suicide = PlayRules {
            ko: KoRule::CapturingSuperko,
            suicide: true,
        };
        for rules in [simple, csk_suicide] {
            assert_eq!(
                count_games_bits(
                    &game(1, 1, rules, Ending::TwoPasses),
                    CountLimits::default()
                ),
                Err(CountError::Endless)
            );
        }
        let nine = game(9, 9, PlayRules::IKEDA, Ending::TwoPasses);
        assert_eq!(
            count_games_bits(&nine, CountLimits::default()),
            Err(CountError::TooLarge { points: 81 })
        );
    }

    #[test]
    fn budget_and_stop_end_a_count() {
        let g = game(2, 2, PlayRules::IKEDA, Ending::FirstPass);
        let r = count_games_bits(
            &g,
            CountLimits {
                nodes: Some(1_000_000),
                stop: None,
            },
        );
        assert_eq!(r, Err(CountError::Budget { nodes: 1_000_000 }));
        let stop = AtomicBool::new(true);
        assert_eq!(
            count_games_bits(
                &g,
                CountLimits {
                    nodes: None,
                    stop: Some(&stop)
                }
            ),
            Err(CountError::Stopped)
        );
        // A board larger than the dense set's, stopped: the hash set's path.
        let big = game(4, 4, PlayRules::IKEDA, Ending::FirstPass);
        assert_eq!(
            count_games_bits(
                &big,
                CountLimits {
                    nodes: Some(1_000_000),
                    stop: None
                }
            ),
            Err(CountError::Budget { nodes: 1_000_000 })
        );
    }
}
