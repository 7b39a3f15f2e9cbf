//! Every tuning limit of status confirmation, in one place: what each bounds and why it has
//! its value. The measurements that chose the values are in benches/LOG.md (dated rounds);
//! today's figures with these values are in benches/README.md and docs/real-games.md.
//! Nothing here is a rule of STATUS.md: changing a limit changes what is proven within
//! reach (or how fast), never what a proof means.

// The whole confirmation (the exhaustive search of the regions).

/// The default budget: states visited by the whole confirmation, all regions together
/// (about 1.4 µs a state, and room for the regions of real finished games that any
/// exhaustive search can cover).
pub const DEFAULT_BUDGET: usize = 2_000_000;
/// The default memory bound of the search: 1 GiB, far above what the default budget needs
/// (2,000,000 states at [`STATE_BYTES`]) and below what a small machine has.
pub const DEFAULT_MEMORY: usize = 1 << 30;
/// The most of the budget a region of more than 128 points may take: 1/WIDE_SHARE. On a
/// real board such a region is the open territories and everything joined to them, which
/// no exhaustive search covers; without the cap every game spent its whole budget on it to
/// be refused anyway (on the first 40 Tygem games 3.3 s of CPU a game; 0.66 s with 1/16,
/// 0.55 s with 1/64).
pub(crate) const WIDE_SHARE: usize = 64;
/// The most empty points of a region that may take the whole budget; one with more takes
/// 1/[`WIDE_SHARE`] of it, as a wide region does. On the 37 counted 9x9 games and 20 of the
/// first 400 Tygem games no region with more than 23 empty points was searched to the end
/// (that one took 460,232 states), and the whole-board regions of 9x9 games (22-55 empty
/// points) spent the whole budget, 2-7 s of CPU a game, to be refused.
pub(crate) const MAX_FULL_EMPTY: usize = 24;
/// Bytes charged per state of a search: its key and number in the hash table (with the
/// table's spare room), its predicates, its successor index and the solver's per-state
/// arrays.
pub const STATE_BYTES: usize = 320;
/// Bytes charged per edge of a state graph: the successor and predecessor lists.
pub const EDGE_BYTES: usize = 12;
/// The largest region the search board holds: a whole 25x25 board, the largest the
/// engine plays on.
pub(crate) const MAX_POINTS: usize = 640;
/// The most ko bans one state of the ko-ban mode holds: four 16-bit bans pack into one
/// `u64` of the state; more at once is refused.
pub(crate) const MAX_BANS: usize = 4;
/// The most chains of one region whose goals are tracked: one bit each in a `u64` of
/// predicates per state.
pub(crate) const MAX_CHAINS: usize = 64;

// The pocket game (docs/status.md 2c): its exhaustive game and its proof searches.

/// The most points of a pocket whose exhaustive game (and, beyond its state limit, the
/// depth-first proof search) is tried; a larger pocket goes to df-pn with the split goal,
/// since the settled goal's search proves almost none of them.
pub(crate) const MAX_POCKET: usize = 12;
/// The most states of one pocket's exhaustive game (its graph is held whole); the
/// pockets beyond it go to the depth-first proof search, which needs no graph.
pub(crate) const MAX_POCKET_STATES: usize = 150_000;
/// The most states one depth-first proof search expands, for a pocket whose exhaustive
/// game is beyond [`MAX_POCKET_STATES`] (its table: about 40 bytes a state, under 5 MB).
pub(crate) const MAX_PROOF_NODES: usize = 100_000;
/// The deepest line a proof search (depth-first or df-pn) follows, moves of both players:
/// far more than a pocket of [`MAX_SPLIT_POCKET`] points needs to settle, and it bounds
/// the recursion.
pub(crate) const MAX_PROOF_DEPTH: usize = 160;
/// The most points of a pocket proven by df-pn with the split goal (pockets of more than
/// [`MAX_POCKET`] points): the large eye spaces of real groups, within
/// [`StatusOptions::proof_work`](crate::status::StatusOptions::proof_work).
pub(crate) const MAX_SPLIT_POCKET: usize = 20;
/// The default most work (states expanded and states of the parts' games) of one large
/// pocket's proof (df-pn's table: about 70 bytes a unit, under 28 MB): a confirmation's
/// [`StatusOptions::proof_work`](crate::status::StatusOptions::proof_work).
pub const DEFAULT_PROOF_WORK: usize = 400_000;
/// The largest [`StatusOptions::proof_work`](crate::status::StatusOptions::proof_work)
/// accepted: ten times the default (df-pn's table under 280 MB).
pub const MAX_PROOF_WORK: usize = 4_000_000;
/// The most work of all large pockets' proofs of one colour's groups together, in units of
/// one pocket's most work divided by 2 (so 2.5 pockets' worth), so that the time of a
/// board does not grow with its number of large pockets.
pub(crate) const SPLIT_TOTAL_HALVES: usize = 5;
/// The most points of a part of a split settled by its own small game, so that each part
/// is proven within [`MAX_PART_NODES`].
pub(crate) const SPLIT_PART: usize = 8;
/// The most states one small part's proof search expands inside a split: its exhaustive
/// game costs far more and proved almost nothing more on real pockets.
pub(crate) const MAX_PART_NODES: usize = 5_000;
/// The most parts' answers kept for reuse by one colour's split proofs (each key at most
/// 64 + 2 * 64 + 3 words: under 31 MB).
pub(crate) const MAX_PART_MEMO: usize = 20_000;
/// df-pn's child threshold: the second-best child's number times this (1 + ε with
/// ε = 10, the best of 0, 0.25, 1, 3, 10 and 30 on real pockets: benches/LOG.md,
/// 2026-11-24, "Real games: df-pn for large pockets").
pub(crate) const DFPN_WIDEN: u64 = 11;

// The estimate and the conditional search (docs/status.md, "Unresolved regions").

/// A playout of the estimate stops after `PLAYOUT_MOVES_PER_POINT` moves per point plus
/// [`PLAYOUT_EXTRA_MOVES`]: a random game fills a board in about one move per point, and
/// captures refill it a few times at most.
pub(crate) const PLAYOUT_MOVES_PER_POINT: usize = 3;
/// See [`PLAYOUT_MOVES_PER_POINT`]: room for the captures of a small board.
pub(crate) const PLAYOUT_EXTRA_MOVES: usize = 100;
/// An estimated wall's own colour holds its points in more than this share of the
/// playouts: the chains the estimate calls alive. (A stricter share, 0.9, left most real
/// walls out: random playouts from a finished position capture alive groups often, and
/// their shares are 0.75-0.97.)
pub(crate) const WALL_OWNERSHIP: f64 = 0.5;
/// The fewest liberties of an estimated wall that its colour holds in most playouts:
/// seki stones and chains short of liberties stay inside the parts, where the search
/// decides them.
pub(crate) const WALL_LIBERTIES: usize = 3;
/// The most of the conditional search's budget one part may take: 1/CONDITIONAL_SHARE,
/// so that one hopeless part cannot starve the others.
pub(crate) const CONDITIONAL_SHARE: usize = 8;
/// The most empty points of a part the conditional search is tried on. On the first 400
/// Tygem games no part with more than 11 came out within its share, and the parts with
/// more took most of the search's time (docs/status.md, "Conditional search").
pub(crate) const MAX_CONDITIONAL_EMPTY: usize = 12;
/// The fewest stones whose capture settles the play in the seki reading: no eye space of
/// seven points or more is a killing shape, so the capturer lives.
pub(crate) const SETTLING_CAPTURE: u32 = 7;
/// The fewest stones whose capture settles the play in a part that is all one seki
/// contact, where the rule with [`SETTLING_CAPTURE`] exceeds its limit: captures of one
/// to three stones (ko, snapback, throw-ins, the nakade of three) are still played out
/// exactly. (Tried on every part with a seki candidate, four made false sekis in two of
/// the first 400 Tygem games.)
pub(crate) const CONTACT_SETTLING_CAPTURE: u32 = 4;
