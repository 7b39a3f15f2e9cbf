//! Many games stepped in lockstep, for self-play and search: legal masks, validated steps,
//! native playouts and network input planes, every per-game loop spread over the current
//! rayon pool.
//!
//! Memory per game: the [`Game`] (4.0 KB for boards up to 9x9, 12.1 KB up to 19x19: the
//! board of the tier's capacity and a 1 KB superko filter), its history on the heap (24
//! bytes per play and 2 per removed stone, as hashes with exact verification on a hit,
//! plus one whole configuration every 128 plays and an exact hash table once a game runs
//! long; vectors grow by doubling), a 32-byte random stream, 15 bytes of counters and
//! flags, the kept legal mask of `batch_masks` (0.8 KB on 9x9, 1.3 KB on 19x19), and the
//! moves since the game's start (2 bytes a move, for copying a game out and pickling).
//! Input planes come from each game's last configurations, kept as bit sets once features
//! are asked for (`batch_planes`; 32 bytes per configuration on 9x9).

use std::collections::TryReserveError;

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::batch_masks::Masks;
use crate::batch_planes::Planes;
use crate::batch_sample;
pub use crate::batch_sample::{BadPolicy, Policy};
use crate::color::{Cell, Color};
use crate::game::{Game, Rules};
use crate::geometry::{Geometry, Loc};
use crate::memory::NoMemory;
use crate::playout::{game_seed, try_play_out};
use crate::position::{Illegal, Position};

/// Why a step was refused, for the first game (lowest index) that refused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The action is not a flat index `0..=w*h` (`w*h` is the pass).
    OutOfRange { game: usize, action: i64 },
    Illegal {
        game: usize,
        action: usize,
        reason: Illegal,
    },
    /// Memory for the game's history ran short.
    NoMemory { game: usize },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::OutOfRange { game, action } => {
                write!(f, "game {game}: action {action} is not a flat index")
            }
            StepError::Illegal {
                game,
                action,
                reason,
            } => write!(f, "game {game}: illegal move (action {action}): {reason}"),
            StepError::NoMemory { game } => {
                write!(f, "game {game}: not enough memory for its history")
            }
        }
    }
}

impl std::error::Error for StepError {}

/// Input planes besides the stones: side to move, who made the first pass, and whether a
/// pass now would end the game.
pub const EXTRA_PLANES: usize = 4;

/// `n` games of one size and ruleset.
#[derive(Clone, Debug)]
pub struct Batch<const N: usize> {
    rules: Rules,
    start: Game<N>,
    games: Vec<Game<N>>,
    lengths: Vec<u32>,
    capped: Vec<bool>,
    /// Each game has ended (a compact copy of its pass state's flag: a step's checks
    /// and `is_over` read it without touching the games).
    over: Vec<bool>,
    /// Each game's history has room for one more play (so a step cannot fail half done).
    room: Vec<bool>,
    rngs: Vec<Xoshiro256PlusPlus>,
    resets: Vec<u64>,
    seed: u64,
    /// Flat index to loc.
    locs: Vec<Loc>,
    /// Each game's legal actions, kept current from move to move.
    masks: Masks,
    /// Each game's recent configurations for the input planes, kept once asked for.
    planes: Planes,
    /// Moves (passes included) after which a game is stopped as over and capped.
    move_cap: u32,
    /// The start positions games are reset to or replayed from; 0 is the empty board
    /// with Black first.
    starts: Vec<Game<N>>,
    /// Each game's start for its next reset, and the start of the game it holds.
    start_of: Vec<u32>,
    origin: Vec<u32>,
    /// Each game's moves since its start, flat indices (`w*h` = pass), so that a game
    /// can be copied out as its record ([`Batch::record`]).
    moves: Vec<Vec<u16>>,
}

impl<const N: usize> Batch<N> {
    /// `n` games from the empty board, Black first. Precondition: `geo.cells() <= N`.
    /// Panics if memory for them is short; see [`Batch::try_new`].
    #[must_use]
    pub fn new(geo: Geometry, rules: Rules, n: usize, seed: u64) -> Self {
        Self::try_new(geo, rules, n, seed).expect("memory for the batch")
    }

    /// [`Batch::new`], or an error instead of an abort when memory for `n` games is short.
    pub fn try_new(
        geo: Geometry,
        rules: Rules,
        n: usize,
        seed: u64,
    ) -> Result<Self, TryReserveError> {
        let start = Game::with_ending(Position::new(geo, rules.play), Color::Black, rules.ending);
        Ok(Batch {
            rules,
            games: filled(n, |_| start.clone())?,
            start: start.clone(),
            lengths: filled(n, |_| 0)?,
            capped: filled(n, |_| false)?,
            over: filled(n, |_| false)?,
            room: filled(n, |_| false)?,
            rngs: filled(n, |i| {
                Xoshiro256PlusPlus::seed_from_u64(stream_seed(seed, i, 0))
            })?,
            resets: filled(n, |_| 0)?,
            seed,
            locs: (0..geo.points()).map(|i| geo.loc_of_index(i)).collect(),
            masks: Masks::try_new(geo, rules.play, n)?,
            planes: Planes::try_new(geo, n)?,
            move_cap: u32::MAX,
            starts: vec![start],
            start_of: filled(n, |_| 0)?,
            origin: filled(n, |_| 0)?,
            moves: filled(n, |_| Vec::new())?,
        })
    }

    /// Stops every game at `cap` moves since its reset (passes included): a step or
    /// playout that reaches it ends the game there (over, and [`Batch::capped`]), as a
    /// game under simple ko may otherwise cycle for ever. Games already past it are
    /// stopped by their next move.
    pub fn set_move_cap(&mut self, cap: u32) {
        self.move_cap = cap;
    }

    /// Adds a start position (setup stones as flat indices, and who moves first) that
    /// games can be reset to ([`Batch::set_start`]) or replayed from
    /// ([`Batch::set_game`]); returns its number.
    pub fn add_start(
        &mut self,
        black: &[usize],
        white: &[usize],
        to_move: Color,
    ) -> Result<u32, crate::board::SetupError> {
        let position = Position::from_setup(self.geometry(), self.rules.play, black, white)?;
        self.starts
            .push(Game::with_ending(position, to_move, self.rules.ending));
        Ok((self.starts.len() - 1) as u32)
    }

    /// Game `i` starts from start `start` ([`Batch::add_start`]) at its next reset.
    /// Precondition: both exist.
    pub fn set_start(&mut self, i: usize, start: u32) {
        assert!((start as usize) < self.starts.len(), "no such start");
        self.start_of[i] = start;
    }

    /// Game `i`'s start and its moves since it (flat indices, `w*h` = pass).
    #[must_use]
    pub fn record(&self, i: usize) -> (u32, &[u16]) {
        (self.origin[i], &self.moves[i])
    }

    /// How many starts there are (0 is the empty board).
    #[must_use]
    pub fn start_count(&self) -> usize {
        self.starts.len()
    }

    /// Game `i`'s start for its next reset.
    #[must_use]
    pub fn start_of(&self, i: usize) -> u32 {
        self.start_of[i]
    }

    /// Replaces game `i` by start `start` and `moves` (flat indices, `w*h` = pass) played
    /// from it, every move checked: the game it holds is then the one those moves make,
    /// superko history included. A refused move is returned with its position in
    /// `moves`, and game `i` is left as it was. Its random stream is kept.
    pub fn set_game(
        &mut self,
        i: usize,
        start: u32,
        moves: &[usize],
    ) -> Result<(), (usize, crate::game::Refusal)> {
        let mut g = self.starts[start as usize].clone();
        let pass = self.geometry().points();
        let mut capped = false;
        for (k, &m) in moves.iter().enumerate() {
            if capped || m > pass {
                return Err((k, crate::game::Refusal::GameOver));
            }
            let mv = (m < pass).then(|| self.locs[m]);
            g.play(mv).map_err(|r| (k, r))?;
            if k + 1 >= self.move_cap as usize && !g.passes.over {
                g.passes.over = true;
                capped = true;
            }
        }
        self.games[i] = g;
        self.origin[i] = start;
        self.moves[i] = moves.iter().map(|&m| m as u16).collect();
        self.lengths[i] = moves.len() as u32;
        self.capped[i] = capped;
        self.over[i] = self.games[i].passes.over;
        self.room[i] = false;
        self.masks.invalidate(i);
        self.planes.invalidate(i);
        Ok(())
    }

    /// Marks game `i` as stopped by a playout's own cap ([`Batch::capped`]) without
    /// ending it, as such a playout leaves a game: how a copy of one is made
    /// ([`Batch::set_game`] knows only the batch's cap).
    pub fn mark_capped(&mut self, i: usize) {
        self.capped[i] = true;
    }

    /// The move cap ([`Batch::set_move_cap`]; `u32::MAX` when there is none).
    #[must_use]
    pub fn move_cap(&self) -> u32 {
        self.move_cap
    }

    /// Reserves room in every live game's history for `plays` more plays, so that
    /// [`Batch::step`] and [`Batch::playout`] after it allocate nothing for that many.
    pub fn try_reserve(&mut self, plays: usize) -> Result<(), TryReserveError> {
        self.games
            .iter_mut()
            .filter(|g| !g.passes.over)
            .try_for_each(|g| g.position.try_reserve(plays))
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.start.position.geometry()
    }

    #[must_use]
    pub fn games(&self) -> &[Game<N>] {
        &self.games
    }

    /// Moves (passes included) of each game since its last reset.
    #[must_use]
    pub fn lengths(&self) -> &[u32] {
        &self.lengths
    }

    /// Whether each game has ended.
    #[must_use]
    pub fn over(&self) -> &[bool] {
        &self.over
    }

    /// Whether a playout's move cap stopped each game (since its last reset).
    #[must_use]
    pub fn capped(&self) -> &[bool] {
        &self.capped
    }

    /// Writes each game's legal actions into its row of `out` (`n` rows of `w*h + 1`, the
    /// pass last and always allowed). A finished game's row allows only the pass, which
    /// [`Batch::step`] ignores like any other action for it. The rows are kept from step
    /// to step (see `batch_masks`): only games changed otherwise are scanned again.
    pub fn legal_mask(&mut self, out: &mut [bool]) {
        self.masks.refresh(&self.games);
        self.masks.write_rows(out);
    }

    /// [`Batch::legal_mask`] computed from scratch for every game, by the position's own
    /// scan (the reference the kept rows are tested against).
    pub fn legal_mask_from_scratch(&self, out: &mut [bool]) {
        let width = self.geometry().points() + 1;
        out.par_chunks_mut(width)
            .zip(&self.games)
            .for_each(|(row, g)| {
                row.fill(false);
                if !g.passes.over {
                    g.for_each_legal(|i, _| row[i] = true);
                }
                row[width - 1] = true;
            });
    }

    /// Plays `actions[i]` (a flat index, `w*h` = pass) in every live game. Precondition:
    /// `actions.len() == self.len()`. Every action
    /// is checked first; if any is refused, no game changes and the error names the
    /// lowest refusing game. Actions of finished games are ignored.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), StepError> {
        self.step_into(actions, None)
    }

    /// [`Batch::step`], then, if `out` is given, the new legal masks into it as
    /// [`Batch::legal_mask`] writes them (left as it was if the step is refused). Each
    /// game's move and the update of its row are made in one pass over the games.
    pub fn step_into(
        &mut self,
        actions: &[i64],
        out: Option<&mut [bool]>,
    ) -> Result<(), StepError> {
        let pass = self.geometry().points();
        let (locs, masks) = (&self.locs, &self.masks);
        // Every action is checked before any is played, so that a refusal leaves every
        // game as it was. A current row answers for its game without touching it; the
        // full test runs for the others and names the reason of a refusal. A game whose
        // history has no room reserved for one more play gets it here.
        let refused = self
            .games
            .par_iter_mut()
            .zip(&mut self.room)
            .zip(&self.over)
            .zip(actions)
            .enumerate()
            .with_min_len(256)
            .filter_map(|(i, (((g, room), &over), &a))| {
                if over {
                    return None;
                }
                let Some(action) = usize::try_from(a).ok().filter(|&a| a <= pass) else {
                    return Some(StepError::OutOfRange { game: i, action: a });
                };
                if action < pass && !masks.allows(i, action) {
                    if let Err(reason) = g.check(locs[action]) {
                        return Some(StepError::Illegal {
                            game: i,
                            action,
                            reason,
                        });
                    }
                }
                if !*room {
                    *room = g.position.try_reserve(1).is_ok();
                }
                (!*room).then_some(StepError::NoMemory { game: i })
            })
            .min_by_key(|e| match *e {
                StepError::OutOfRange { game, .. }
                | StepError::Illegal { game, .. }
                | StepError::NoMemory { game } => game,
            });
        if let Some(e) = refused {
            return Err(e);
        }
        let (slots, ctx) = self.masks.slots();
        let (rings, shape) = self.planes.rings();
        let cap = self.move_cap;
        self.games
            .par_iter_mut()
            .zip(&mut self.lengths)
            .zip(&mut self.over)
            .zip(&mut self.room)
            .zip(actions)
            .zip(slots)
            .zip(rings)
            .zip(&mut self.capped)
            .zip(&mut self.moves)
            .with_min_len(64)
            .for_each(
                |((((((((g, len), over), room), &a), mut slot), ring), capped), record)| {
                    if *over {
                        ctx.ensure(g, slot);
                        return;
                    }
                    let a = a as usize; // checked above
                    let mv = (a < pass).then(|| locs[a]);
                    let mut marks = [0; crate::board::WORDS];
                    if let Some(loc) = mv {
                        // The row said legal: a play on a stone would mean a wrong row.
                        assert_eq!(
                            g.position.board().cell(loc),
                            Cell::Empty,
                            "legal mask out of step with the board"
                        );
                        ctx.before_play(g, loc, &mut slot, &mut marks);
                    }
                    g.play_unchecked(mv);
                    record.push(a as u16);
                    *len += 1;
                    if *len >= cap && !g.passes.over {
                        // The move cap ends the game here (the row below becomes pass-only).
                        g.passes.over = true;
                        *capped = true;
                    }
                    *over = g.passes.over;
                    // Room for the next step's play, while the history is at hand.
                    *room = g.position.try_reserve(1).is_ok();
                    ctx.after_move(g, mv, slot, &mut marks);
                    if let Some(ring) = ring {
                        shape.after_move(g, mv, ring);
                    }
                },
            );
        if let Some(out) = out {
            self.masks.write_rows(out);
        }
        Ok(())
    }

    /// Draws one action per game among its legal actions (the kept masks) by `policy`
    /// (see `batch_sample`), from the game's own random stream (the one its playouts
    /// use, so the draws depend only on the batch seed, the game and what it was asked
    /// before, not on the threads). A finished game gets the pass. Every policy row is
    /// checked first: if one is refused, no stream moves and the error names the lowest
    /// game.
    pub fn sample(&mut self, policy: Policy<'_>, out: &mut [i64]) -> Result<(), BadPolicy> {
        let width = self.geometry().points() + 1;
        let values = match policy {
            Policy::Uniform => None,
            Policy::Weights(v) => Some((v, false)),
            Policy::Logits(v) => Some((v, true)),
        };
        self.masks.refresh(&self.games);
        if let Some((v, logits)) = values {
            batch_sample::check(v, logits, width, self.masks.sets().0, &self.over)?;
        }
        let (sets, _) = self.masks.sets();
        out.par_iter_mut()
            .zip(sets)
            .zip(&mut self.rngs)
            .zip(&self.over)
            .enumerate()
            .with_min_len(64)
            .for_each_init(
                batch_sample::Scratch::default,
                |scratch, (i, (((a, set), rng), &over))| {
                    *a = if over {
                        (width - 1) as i64
                    } else {
                        let row =
                            values.map(|(v, logits)| (&v[i * width..(i + 1) * width], logits));
                        batch_sample::draw(set, width - 1, row, rng, scratch) as i64
                    };
                },
            );
        Ok(())
    }

    /// Seeds every game's random stream anew from `seed`, its count of resets back to 0:
    /// from then on, through later resets too, each game draws what it would in a new
    /// batch made with `seed`, whatever came before.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        for (i, (rng, resets)) in self.rngs.iter_mut().zip(&mut self.resets).enumerate() {
            *resets = 0;
            *rng = Xoshiro256PlusPlus::seed_from_u64(stream_seed(seed, i, 0));
        }
    }

    /// Game `i`'s random stream (the one [`Batch::sample`] and [`Batch::playout`] draw
    /// from): how many times the game was reset (which seeds its next stream) and the
    /// generator's state, so that a copy of the batch draws what this one would.
    #[must_use]
    pub fn stream(&self, i: usize) -> (u64, [u64; 4]) {
        (self.resets[i], stream_state(&self.rngs[i]))
    }

    /// Sets game `i`'s random stream as [`Batch::stream`] gave it.
    pub fn set_stream(&mut self, i: usize, resets: u64, state: [u64; 4]) {
        let mut bytes = [0u8; 32];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(state) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        self.resets[i] = resets;
        // xoshiro256++ takes its seed bytes as its state, four little-endian words.
        self.rngs[i] = Xoshiro256PlusPlus::from_seed(bytes);
    }

    /// Each game's score under the ruleset, Black minus White in half points, komi
    /// included (the board as it stands: every stone counts as alive).
    pub fn margins(&self, out: &mut [i32]) {
        let rules = &self.rules;
        out.par_iter_mut()
            .zip(&self.games)
            .for_each(|(m, g)| *m = g.score(rules).margin());
    }

    /// [`Batch::margins`] of the games `which` marks only (the others are left alone):
    /// the final counts of the games a step just ended, without counting the rest.
    pub fn margins_of(&self, which: &[bool], out: &mut [i32]) {
        let rules = &self.rules;
        out.par_iter_mut()
            .zip(&self.games)
            .zip(which)
            .with_min_len(64)
            .filter(|(_, &w)| w)
            .for_each(|((m, g), _)| *m = g.score(rules).margin());
    }

    /// Who owns each point of each game's board as it stands (stones and the territory
    /// they surround, every stone alive): `n` rows of `w*h`, 0 nobody, 1 Black, 2 White;
    /// with `which`, only the rows of the games it marks (the others are left alone).
    pub fn ownership(&self, which: Option<&[bool]>, out: &mut [i8]) {
        let points = self.geometry().points();
        out.par_chunks_mut(points.max(1))
            .zip(&self.games)
            .enumerate()
            .with_min_len(16)
            .filter(|(i, _)| which.is_none_or(|w| w[*i]))
            .for_each(|(_, (row, g))| {
                for (o, v) in row
                    .iter_mut()
                    .zip(crate::territory::ownership(g.position.board(), &[]))
                {
                    *o = v as i8;
                }
            });
    }

    /// Returns the games where `which[i]` holds to the empty board. Each reset game gets a
    /// new random stream, which depends only on the batch seed, the game's index and how
    /// often it was reset.
    pub fn reset(&mut self, which: &[bool]) {
        for (i, _) in which.iter().enumerate().filter(|(_, &r)| r) {
            let start = self.start_of[i];
            self.games[i] = self.starts[start as usize].clone();
            self.origin[i] = start;
            self.moves[i].clear();
            self.lengths[i] = 0;
            self.capped[i] = false;
            self.over[i] = false;
            self.room[i] = false;
            self.resets[i] += 1;
            self.rngs[i] =
                Xoshiro256PlusPlus::seed_from_u64(stream_seed(self.seed, i, self.resets[i]));
            self.masks.invalidate(i);
            self.planes.invalidate(i);
        }
    }

    /// Plays every live game to its end by the playout policy (see [`crate::playout`]),
    /// at most `max_moves` more moves each. Returns the number of games the cap stopped,
    /// or [`NoMemory`] when a game's history cannot grow (each game then stands where its
    /// playout stopped, a consistent game).
    pub fn playout(&mut self, pass_probability: f64, max_moves: usize) -> Result<usize, NoMemory> {
        let cap = self.move_cap;
        self.masks.invalidate_all();
        self.planes.invalidate_all();
        self.games
            .par_iter_mut()
            .zip(&mut self.rngs)
            .zip(&mut self.lengths)
            .zip(&mut self.capped)
            .zip(&mut self.over)
            .zip(&mut self.room)
            .zip(&mut self.moves)
            .map(|((((((g, rng), len), capped), over), room), record)| {
                if g.passes.over {
                    return Ok(0);
                }
                let left = cap.saturating_sub(*len) as usize;
                let played = try_play_out(g, rng, pass_probability, max_moves.min(left), |m| {
                    record.push(m as u16);
                    *len += 1;
                });
                if matches!(played, Ok(false)) && *len >= cap {
                    g.passes.over = true; // the batch's move cap ends the game
                }
                *over = g.passes.over;
                *room = false;
                let ended = played?;
                *capped |= !ended;
                Ok(usize::from(!ended))
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// Network input planes, `n` blocks of `(2 * history + EXTRA_PLANES)` planes of `h*w`
    /// values (row-major from the top-left), from the side to move's point of view:
    /// - `0..history`: its stones in the current configuration and the ones before each of
    ///   the last `history - 1` plays (all zero where the game is younger);
    /// - `history..2*history`: the opponent's stones, likewise;
    /// - then all ones if Black is to move; if the side to move made the first pass; if the
    ///   opponent made it; if a pass now would end the game.
    ///
    /// The stone planes come from each game's last `history` configurations, kept as bit
    /// sets from step to step once features were asked for (`batch_planes`); where memory
    /// for them is short (or `history` is 0 or over 255), from the history as
    /// [`Batch::features_from_history`] does.
    pub fn features(&mut self, history: usize, out: &mut [f32]) {
        if history == 0 || !self.planes.keep(history) {
            return self.features_from_history(history, out);
        }
        let points = self.geometry().points();
        let planes = 2 * history + EXTRA_PLANES;
        let ending = self.start.ending;
        let (rings, shape) = self.planes.rings();
        out.par_chunks_mut(planes * points)
            .zip(&self.games)
            .zip(rings)
            .with_min_len(16)
            .for_each(|((block, g), ring)| {
                let mut ring = ring.expect("rings kept");
                shape.ensure(g, &mut ring);
                shape.write(g, &ring, history, points, block);
                extra_planes(g, ending, history, points, block);
            });
    }

    /// [`Batch::features`] rebuilt for every game by walking its history back (the
    /// reference the kept configurations are tested against).
    pub fn features_from_history(&self, history: usize, out: &mut [f32]) {
        let points = self.geometry().points();
        let planes = 2 * history + EXTRA_PLANES;
        let (locs, ending) = (&self.locs, self.start.ending);
        out.par_chunks_mut(planes * points)
            .zip(&self.games)
            .for_each(|(block, g)| {
                block[..2 * history * points].fill(0.0);
                let c = g.to_move;
                let (own, theirs) = (Cell::stone(c), Cell::stone(c.opponent()));
                g.position.recent_configurations(history, |j, cells| {
                    for (i, &loc) in locs.iter().enumerate() {
                        let cell = cells[loc as usize];
                        if cell == own {
                            block[j * points + i] = 1.0;
                        } else if cell == theirs {
                            block[(history + j) * points + i] = 1.0;
                        }
                    }
                });
                extra_planes(g, ending, history, points, block);
            });
    }
}

/// The planes after the stones: all ones if Black is to move, if the side to move made
/// the first pass, if the opponent made it, if a pass now would end the game; else zeros.
fn extra_planes<const N: usize>(
    g: &Game<N>,
    ending: crate::game::Ending,
    history: usize,
    points: usize,
    block: &mut [f32],
) {
    let c = g.to_move;
    let flags = [
        c == Color::Black,
        g.passes.first_passer == Some(c),
        g.passes.first_passer == Some(c.opponent()),
        !g.passes.over && g.passes.pass(c, ending).over,
    ];
    for (k, flag) in flags.into_iter().enumerate() {
        let p = 2 * history + k;
        block[p * points..(p + 1) * points].fill(if flag { 1.0 } else { 0.0 });
    }
}

/// The four state words of a xoshiro256++ generator. rand_xoshiro gives its state out
/// only through serde, as `{"s": [w0, w1, w2, w3]}`.
fn stream_state(rng: &Xoshiro256PlusPlus) -> [u64; 4] {
    let value = serde_json::to_value(rng).unwrap_or_default();
    let mut state = [0u64; 4];
    if let Some(words) = value.get("s").and_then(|s| s.as_array()) {
        for (w, v) in state.iter_mut().zip(words) {
            *w = v.as_u64().unwrap_or(0);
        }
    }
    state
}

/// A vector of `n` values made by `f`, or an error if memory for it is short.
fn filled<T>(n: usize, f: impl FnMut(usize) -> T) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.extend((0..n).map(f));
    Ok(v)
}

/// The seed of game `index`'s random stream after `resets` resets.
fn stream_seed(seed: u64, index: usize, resets: u64) -> u64 {
    game_seed(game_seed(seed, index as u64), resets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiers::CELLS_9;

    fn batch(n: usize) -> Batch<CELLS_9> {
        Batch::new(Geometry::new(5, 5).unwrap(), Rules::area3(13), n, 3)
    }

    #[test]
    fn a_refused_step_changes_no_game() {
        let mut b = batch(3);
        b.step(&[12, 12, 25]).unwrap();
        let before: Vec<u128> = b
            .games()
            .iter()
            .map(|g| g.position.board().hash())
            .collect();
        // White to move everywhere; 12 is occupied in game 1.
        assert_eq!(
            b.step(&[0, 12, 1]),
            Err(StepError::Illegal {
                game: 1,
                action: 12,
                reason: Illegal::Occupied
            })
        );
        assert_eq!(
            b.step(&[0, 1, 26]),
            Err(StepError::OutOfRange {
                game: 2,
                action: 26
            })
        );
        assert_eq!(
            b.step(&[-1, 1, 2]),
            Err(StepError::OutOfRange {
                game: 0,
                action: -1
            })
        );
        let after: Vec<u128> = b
            .games()
            .iter()
            .map(|g| g.position.board().hash())
            .collect();
        assert_eq!(before, after);
        assert_eq!(b.lengths(), &[1, 1, 1]);
    }

    /// A copy of a batch whose streams were lost and set again from the original's
    /// draws what the original draws, then and after resets (whose new streams depend on
    /// the count of resets, which is part of a stream).
    #[test]
    fn streams_copied_out_and_in_draw_the_same() {
        let mut a = batch(8);
        let mut out = vec![0i64; 8];
        a.sample(Policy::Uniform, &mut out).unwrap();
        a.step(&out).unwrap();
        a.reset(&[true, false, false, true, false, false, false, false]);
        a.playout(0.0, 5).unwrap();
        let streams: Vec<_> = (0..8).map(|i| a.stream(i)).collect();
        let mut b = a.clone();
        for i in 0..8 {
            b.set_stream(i, 0, [i as u64 + 1, 2, 3, 4]); // lost
        }
        let (mut x, mut y) = (vec![0i64; 8], vec![0i64; 8]);
        b.clone().sample(Policy::Uniform, &mut y).unwrap();
        a.clone().sample(Policy::Uniform, &mut x).unwrap();
        assert_ne!(x, y, "the lost streams draw otherwise");
        for (i, &(resets, state)) in streams.iter().enumerate() {
            b.set_stream(i, resets, state);
        }
        assert_eq!((0..8).map(|i| b.stream(i)).collect::<Vec<_>>(), streams);
        for round in 0..3 {
            a.sample(Policy::Uniform, &mut x).unwrap();
            b.sample(Policy::Uniform, &mut y).unwrap();
            assert_eq!(x, y, "round {round}");
            a.reset(&[true; 8]);
            b.reset(&[true; 8]);
        }
    }

    #[test]
    fn a_reseeded_batch_draws_as_a_new_batch_of_that_seed() {
        let mut a = batch(6);
        let mut b = Batch::<CELLS_9>::new(Geometry::new(5, 5).unwrap(), Rules::area3(13), 6, 99);
        let (mut x, mut y) = (vec![0i64; 6], vec![0i64; 6]);
        a.sample(Policy::Uniform, &mut x).unwrap();
        a.reset(&[true; 6]);
        a.reseed(99);
        for _ in 0..2 {
            a.sample(Policy::Uniform, &mut x).unwrap();
            b.sample(Policy::Uniform, &mut y).unwrap();
            assert_eq!(x, y);
            a.reset(&[true; 6]);
            b.reset(&[true; 6]);
        }
    }

    #[test]
    fn the_move_cap_ends_steps_and_playouts_there() {
        let mut b = batch(2);
        b.set_move_cap(3);
        b.step(&[0, 0]).unwrap();
        b.step(&[1, 25]).unwrap();
        assert_eq!(b.over(), &[false, false]);
        b.step(&[2, 2]).unwrap();
        assert_eq!(b.over(), &[true, true]);
        assert_eq!(b.capped(), &[true, true]);
        let mut row = vec![false; 2 * 26];
        b.legal_mask(&mut row);
        assert_eq!(row.iter().filter(|&&x| x).count(), 2, "only the passes");
        b.reset(&[true, true]);
        b.set_move_cap(10);
        assert_eq!(b.playout(0.0, 1000), Ok(2));
        assert_eq!(b.lengths(), &[10, 10]);
        assert_eq!(b.over(), &[true, true]);
    }

    #[test]
    fn a_record_copied_into_another_game_makes_the_same_game() {
        let mut b = batch(2);
        b.step(&[12, 0]).unwrap();
        b.playout(0.0, 1000).unwrap();
        let (start, moves) = b.record(0);
        let moves: Vec<usize> = moves.iter().map(|&m| usize::from(m)).collect();
        assert_eq!(moves.len(), b.lengths()[0] as usize);
        b.set_game(1, start, &moves).unwrap();
        let (g0, g1) = (&b.games()[0], &b.games()[1]);
        assert_eq!(g0.position.board().hash(), g1.position.board().hash());
        assert_eq!(g0.position.plays(), g1.position.plays());
        assert_eq!((g0.passes, g0.to_move), (g1.passes, g1.to_move));
        // A refused move leaves the game as it was.
        let before = b.games()[1].position.board().hash();
        assert!(b.set_game(1, 0, &[12, 12]).is_err());
        assert_eq!(b.games()[1].position.board().hash(), before);
        // A start with setup stones and White first, for the next reset.
        let s = b.add_start(&[6, 8], &[], Color::White).unwrap();
        b.set_start(0, s);
        b.reset(&[true, false]);
        assert_eq!(b.games()[0].to_move, Color::White);
        assert_eq!(b.record(0), (s, &[][..]));
        let mut row = vec![false; 2 * 26];
        b.legal_mask(&mut row);
        assert!(!row[6] && !row[8] && row[7]);
    }

    #[test]
    fn ownership_counts_stones_and_surrounded_points() {
        let mut b = batch(1);
        b.step(&[6]).unwrap(); // Black B4, alone: the whole board is Black's
        let mut own = vec![0i8; 25];
        b.ownership(None, &mut own);
        assert!(own.iter().all(|&o| o == 1));
        b.step(&[18]).unwrap(); // White D2: the empty points border both
        b.ownership(None, &mut own);
        assert_eq!((own[6], own[18], own[0]), (1, 2, 0));
    }

    #[test]
    fn playout_is_the_same_whatever_the_thread_count() {
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut b = batch(64);
                assert_eq!(b.playout(0.0, 1000), Ok(0));
                let mut m = vec![0; 64];
                b.margins(&mut m);
                (m, b.lengths().to_vec())
            })
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn features_see_the_past_from_the_side_to_move() {
        let mut b = batch(1);
        b.step(&[0]).unwrap(); // Black A5
        b.step(&[24]).unwrap(); // White E1
        let mut f = vec![0.0; 2 * 2 * 25 + 4 * 25];
        b.features(2, &mut f);
        let plane = |p: usize| f[p * 25..(p + 1) * 25].to_vec();
        // Black to move: own = Black's A5 now and before White's play.
        assert_eq!(plane(0)[0], 1.0);
        assert_eq!(plane(1)[0], 1.0);
        assert_eq!(plane(2)[24], 1.0);
        assert_eq!(
            plane(3).iter().sum::<f32>(),
            0.0,
            "no White stone before White's play"
        );
        assert!(plane(4).iter().all(|&v| v == 1.0), "Black to move");
        assert!(plane(5)
            .iter()
            .chain(&plane(6))
            .chain(&plane(7))
            .all(|&v| v == 0.0));
        b.step(&[25]).unwrap(); // Black passes first
        b.features(2, &mut f);
        let plane = |p: usize| f[p * 25..(p + 1) * 25].to_vec();
        assert!(plane(4).iter().all(|&v| v == 0.0), "White to move");
        assert!(
            plane(6).iter().all(|&v| v == 1.0),
            "the opponent passed first"
        );
        assert!(
            plane(7).iter().all(|&v| v == 0.0),
            "a pass now does not end the game"
        );
        b.step(&[25]).unwrap();
        b.features(2, &mut f);
        let plane = |p: usize| f[p * 25..(p + 1) * 25].to_vec();
        assert!(plane(5).iter().all(|&v| v == 1.0) && plane(7).iter().all(|&v| v == 1.0));
    }
}

#[cfg(test)]
mod memory {
    use super::*;
    use crate::tiers::{CELLS_19, CELLS_9};

    /// The figures the module docs (and docs/batch.md) give.
    #[test]
    fn fixed_state_per_game_is_as_documented() {
        // Whole cache lines: the board is aligned to one (`board.rs`).
        assert!(std::mem::size_of::<Game<CELLS_9>>() <= 4032);
        assert!(std::mem::size_of::<Game<CELLS_19>>() <= 12096);
        assert!(std::mem::size_of::<Game<{ crate::geometry::MAX_CELLS }>>() <= 16128);
        assert_eq!(std::mem::size_of::<crate::history::Entry>(), 24);
        assert_eq!(std::mem::size_of::<Xoshiro256PlusPlus>(), 32);
    }
}
