//! A board with its history: legality by Rules 3, 4 and 5 (or a variant's play rules),
//! play, undo and legal masks. No turn order, passes or scoring here.

use crate::board::{Board, PlayEffect, PlayShape, SetupError};
use crate::color::{Cell, Color};
use crate::geometry::{Geometry, Loc};
use crate::history::History;

/// Which repetitions a play may not create.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Ikeda's Rule 4: only a play that removes stones is tested, against every earlier
    /// configuration.
    CapturingSuperko,
    /// Every play is tested against every earlier configuration (Tromp-Taylor).
    PositionalSuperko,
    /// Only the immediate recapture of a single-stone ko is banned, for one move; the
    /// caller applies it with [`Position::ko_ban`], since a pass lifts the ban and the
    /// position knows no passes.
    SimpleKo,
}

/// The play rules a position enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayRules {
    pub ko: KoRule,
    /// Whether a play may remove its own chain (Tromp-Taylor); Rule 5 forbids it.
    pub suicide: bool,
}

impl PlayRules {
    /// Ikeda's Area Rules III (and II, and Territory I): capturing superko, no suicide.
    pub const IKEDA: PlayRules = PlayRules {
        ko: KoRule::CapturingSuperko,
        suicide: false,
    };
}

/// Why a play is illegal, in the order the tests are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    Occupied,
    Suicide,
    /// The play recreates an earlier configuration (capturing or positional superko).
    Superko,
    /// Under simple ko: the immediate retake of a single-stone ko.
    Ko,
}

impl Illegal {
    /// The reason as the Python layer and the replay reports name it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Superko => "superko",
            Illegal::Ko => "ko",
        }
    }
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::error::Error for Illegal {}

/// A board, its history of configurations and its play rules.
#[derive(Clone, Debug)]
pub struct Position<const N: usize> {
    board: Board<N>,
    history: History,
    rules: PlayRules,
}

impl<const N: usize> Position<N> {
    /// An empty board. Precondition: `geo.cells() <= N` ([`crate::AnyPosition`] picks `N`).
    #[must_use]
    pub fn new(geo: Geometry, rules: PlayRules) -> Self {
        Position::from_board(Board::new(geo), rules)
    }

    /// Setup stones given as flat indices form the initial configuration.
    pub fn from_setup(
        geo: Geometry,
        rules: PlayRules,
        black: &[usize],
        white: &[usize],
    ) -> Result<Self, SetupError> {
        Ok(Position::from_board(
            Board::from_setup(geo, black, white)?,
            rules,
        ))
    }

    /// A position whose initial configuration is a diagram ([`Board::from_diagram`]).
    pub fn from_diagram(rows: &[&str], rules: PlayRules) -> Result<Self, SetupError> {
        Ok(Position::from_board(Board::from_diagram(rows)?, rules))
    }

    fn from_board(board: Board<N>, rules: PlayRules) -> Self {
        let history = History::new(board.hash());
        Position {
            board,
            history,
            rules,
        }
    }

    #[inline]
    #[must_use]
    pub fn board(&self) -> &Board<N> {
        &self.board
    }

    #[inline]
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.board.geometry()
    }

    #[inline]
    #[must_use]
    pub fn rules(&self) -> PlayRules {
        self.rules
    }

    /// Swaps two places of the board's unordered list of empty points
    /// ([`Board::empty_points`]); the position is unchanged. For the playout policy's
    /// draws without replacement.
    #[inline(always)]
    pub(crate) fn swap_empty_points(&mut self, i: usize, j: usize) {
        self.board.swap_empty_points(i, j);
    }

    /// Number of plays since the initial configuration.
    #[inline]
    #[must_use]
    pub fn plays(&self) -> usize {
        self.history.len()
    }

    /// Whether `c` may play at `loc`. Precondition: `loc` is on the board.
    #[inline]
    pub fn check(&self, loc: Loc, c: Color) -> Result<(), Illegal> {
        if self.board.cell(loc) != Cell::Empty {
            return Err(Illegal::Occupied);
        }
        self.check_empty(loc, c)
    }

    /// [`Position::check`] for a point known to be empty.
    #[inline(always)]
    fn check_empty(&self, loc: Loc, c: Color) -> Result<(), Illegal> {
        let shape = self.board.shape(loc, c);
        if shape.suicide && !self.rules.suicide {
            return Err(Illegal::Suicide);
        }
        let probe = match self.rules.ko {
            KoRule::CapturingSuperko => shape.captures,
            KoRule::PositionalSuperko => true,
            KoRule::SimpleKo => false,
        };
        if probe && self.repeats(loc, c, shape) {
            return Err(Illegal::Superko);
        }
        Ok(())
    }

    /// Calls `f` with the hash of every configuration of the history, the current one
    /// included, in no particular order.
    pub fn for_each_configuration_hash(&self, f: impl FnMut(u128)) {
        self.history.for_each_hash(f);
    }

    /// Reserves the history's room for `plays` more plays (a play removes at most the
    /// stones on the board plus the ones played since, so `plays + points` removed stones
    /// suffice); fails instead of aborting when memory is short.
    pub fn try_reserve(&mut self, plays: usize) -> Result<(), std::collections::TryReserveError> {
        let removed = plays.saturating_add(self.board.geometry().points());
        self.history.try_reserve(plays, removed, N)
    }

    /// Whether the play would recreate a configuration of the history.
    fn repeats(&self, loc: Loc, c: Color, shape: PlayShape) -> bool {
        let Some(oldest) = self
            .history
            .oldest_match(self.board.hash_after_shape(loc, c, shape))
        else {
            return false;
        };
        self.history.confirm(
            oldest,
            self.board.cells(),
            &self.board.cells_after_shape(loc, c, shape),
        )
    }

    /// The point the opponent of the last play may not retake at once under simple ko:
    /// the last play removed exactly one stone and stands alone with that point as its
    /// only liberty. `None` otherwise (the ban applies only if no pass came since).
    #[must_use]
    pub fn ko_point(&self) -> Option<Loc> {
        let (e, removed) = self.history.newest()?;
        if e.suicide
            || removed.len() != 1
            || self.board.chain(e.loc).nth(1).is_some()
            || !self.board.in_atari(e.loc)
        {
            return None;
        }
        Some(removed[0])
    }

    /// The point the side to move may not play under the position's ko rule because of
    /// the simple-ko ban: [`Position::ko_point`] under [`KoRule::SimpleKo`] unless the last
    /// move was a pass (`last_pass`), which lifts the ban. `None` under the superko rules.
    #[inline]
    #[must_use]
    pub fn ko_ban(&self, last_pass: bool) -> Option<Loc> {
        if self.rules.ko == KoRule::SimpleKo && !last_pass {
            self.ko_point()
        } else {
            None
        }
    }

    /// [`Position::check`] with the simple-ko ban of [`Position::ko_ban`] applied.
    #[inline]
    pub fn check_move(&self, loc: Loc, c: Color, last_pass: bool) -> Result<(), Illegal> {
        self.check(loc, c)?;
        if self.ko_ban(last_pass) == Some(loc) {
            return Err(Illegal::Ko);
        }
        Ok(())
    }

    /// [`Position::check_move`] for a point known to be empty (the playout policy draws
    /// from the board's empty points).
    #[inline(always)]
    pub fn check_empty_move(&self, loc: Loc, c: Color, last_pass: bool) -> Result<(), Illegal> {
        self.check_empty(loc, c)?;
        if self.ko_ban(last_pass) == Some(loc) {
            return Err(Illegal::Ko);
        }
        Ok(())
    }

    /// The last play: its point, colour, whether it was a suicide, and the stones it
    /// removed; `None` at the initial configuration.
    #[inline]
    #[must_use]
    pub fn last_play(&self) -> Option<(Loc, Color, bool, &[Loc])> {
        self.history
            .newest()
            .map(|(e, removed)| (e.loc, e.color, e.suicide, removed))
    }

    /// Calls `f(j, configuration)` for the current configuration and the `k - 1` before
    /// it (fewer at the start of the game), newest first.
    pub fn recent_configurations(&self, k: usize, f: impl FnMut(usize, &[Cell; N])) {
        self.history.recent(self.board.cells(), k, f);
    }

    /// Plays `c` at `loc` if legal.
    pub fn play(&mut self, loc: Loc, c: Color) -> Result<PlayEffect, Illegal> {
        self.check(loc, c)?;
        Ok(self.play_unchecked(loc, c))
    }

    /// Plays without the legality test. Precondition: [`Position::check`] passed.
    #[inline]
    pub fn play_unchecked(&mut self, loc: Loc, c: Color) -> PlayEffect {
        let effect = self.board.play_unchecked(loc, c, &mut self.history.removed);
        self.history.push(
            self.board.hash(),
            loc,
            c,
            effect.removed,
            effect.suicide,
            self.board.cells(),
        );
        effect
    }

    /// Takes back the last play; returns it with what it did, or `None` at the initial
    /// configuration.
    pub fn undo(&mut self) -> Option<(Loc, Color, PlayEffect)> {
        let e = self.history.last()?;
        let removed = &self.history.removed[self.history.removed.len() - e.removed as usize..];
        self.board
            .undo_unchecked(e.loc, e.color, removed, e.suicide);
        self.history.pop();
        Some((
            e.loc,
            e.color,
            PlayEffect {
                removed: e.removed,
                suicide: e.suicide,
            },
        ))
    }

    /// A copy that shares this position's past.
    pub fn fork(&mut self) -> Self {
        Position {
            board: self.board.clone(),
            history: self.history.fork(),
            rules: self.rules,
        }
    }

    /// Writes the legal plays of `c` into `out` by flat index; `out[w*h]` (pass) is set
    /// true. Precondition: `out.len() == w*h + 1`.
    pub fn legal_mask(&self, c: Color, out: &mut [bool]) {
        let geo = self.geometry();
        out.fill(false);
        self.board
            .for_each_empty(|i, loc| out[i] = self.check_empty(loc, c).is_ok());
        out[geo.points()] = true;
    }

    /// Calls `f(flat index, loc)` for each legal play of `c`, in flat-index order.
    #[inline]
    pub fn for_each_legal(&self, c: Color, mut f: impl FnMut(usize, Loc)) {
        self.board.for_each_empty(|i, loc| {
            if self.check_empty(loc, c).is_ok() {
                f(i, loc);
            }
        });
    }

    /// The legal plays of `c`, as (flat index, loc), in flat-index order.
    #[must_use]
    pub fn legal_plays(&self, c: Color) -> Vec<(usize, Loc)> {
        let mut out = Vec::with_capacity(self.board.geometry().points());
        self.for_each_legal(c, |i, l| out.push((i, l)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn pos(w: usize, h: usize, rules: PlayRules) -> Position<{ crate::geometry::MAX_CELLS }> {
        Position::new(Geometry::new(w, h).unwrap(), rules)
    }

    fn at<const N: usize>(p: &Position<N>, v: &str) -> Loc {
        let geo = p.geometry();
        geo.loc_of_index(geo.parse_vertex(v).unwrap().unwrap())
    }

    fn play_all<const N: usize>(p: &mut Position<N>, moves: &[&str]) {
        let mut c = Color::Black;
        for m in moves {
            p.play(at(p, m), c).unwrap();
            c = c.opponent();
        }
    }

    #[test]
    fn simple_ko_recapture_is_superko() {
        // . X O .      Black captures at C2... set up a ko on 4x3.
        let mut p = pos(4, 3, PlayRules::IKEDA);
        play_all(&mut p, &["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"]);
        // White's B2 captured Black's C2; Black retaking at C2 would repeat.
        assert_eq!(p.check(at(&p, "C2"), Color::Black), Err(Illegal::Superko));
    }

    #[test]
    fn ko_from_a_diagram() {
        // Black takes the ko at C2; White's retake at B2 would recreate the diagram.
        let mut q = Position::<{ crate::geometry::MAX_CELLS }>::from_diagram(
            &[".XO.", "XO.O", ".XO."],
            PlayRules::IKEDA,
        )
        .unwrap();
        q.play(at(&q, "C2"), Color::Black).unwrap();
        assert_eq!(format!("{:?}", q.board()), ".XO.\nX.XO\n.XO.\n");
        assert_eq!(q.check(at(&q, "B2"), Color::White), Err(Illegal::Superko));
        let simple = PlayRules {
            ko: KoRule::SimpleKo,
            suicide: false,
        };
        let mut k = Position::<{ crate::geometry::MAX_CELLS }>::from_diagram(
            &[".XO.", "XO.O", ".XO."],
            simple,
        )
        .unwrap();
        k.play(at(&k, "C2"), Color::Black).unwrap();
        assert_eq!(
            k.check_move(at(&k, "B2"), Color::White, false),
            Err(Illegal::Ko)
        );
        assert_eq!(
            k.check_move(at(&k, "B2"), Color::White, true),
            Ok(()),
            "a pass lifts the ban"
        );
    }

    #[test]
    fn hash_collision_never_bans_a_legal_capture() {
        // Black captures at A1-corner... set up a capture on 3x3 whose result is new.
        let mut p = pos(3, 3, PlayRules::IKEDA);
        play_all(&mut p, &["B1", "A1", "C3"]);
        // White's A1 is in atari; Black A2 captures it and makes a configuration never seen.
        let capture = at(&p, "A2");
        assert!(p.board().shape(capture, Color::Black).captures);
        assert_eq!(p.check(capture, Color::Black), Ok(()));
        // Pretend the configuration after C3 had the same hash as the one after the capture.
        let forged = p.board().hash_after(capture, Color::Black);
        p.history.forge_last_hash(forged);
        assert_eq!(p.history.oldest_match(forged), Some(3));
        assert_eq!(
            p.check(capture, Color::Black),
            Ok(()),
            "a hash match must be confirmed"
        );
        // The same machinery does ban a real repetition.
        let mut q = pos(4, 3, PlayRules::IKEDA);
        play_all(&mut q, &["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"]);
        assert_eq!(q.check(at(&q, "C2"), Color::Black), Err(Illegal::Superko));
    }

    /// Long games on small boards repeat configurations all the time, far back as well as
    /// near: the legal plays must be exactly those the rules' definition gives, checked
    /// against every configuration seen (kept whole, no hashes), through copies and undos.
    #[test]
    fn long_games_ban_exactly_the_repetitions() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let key = |cells: &[Cell]| cells.iter().map(|&x| x as u8).collect::<Vec<u8>>();
        for (w, h) in [(3, 3), (4, 4), (5, 5)] {
            let mut p = pos(w, h, PlayRules::IKEDA);
            let mut line = vec![key(p.board().cells())];
            let mut seen = std::collections::HashMap::from([(line[0].clone(), 1)]);
            let mut c = Color::Black;
            let mut banned = 0;
            for step in 0..6000 {
                let expected: Vec<Loc> = p
                    .geometry()
                    .locs()
                    .filter(|&l| p.board().cell(l) == Cell::Empty)
                    .filter(|&l| {
                        let shape = p.board().shape(l, c);
                        let repeats =
                            shape.captures && seen.contains_key(&key(&p.board().cells_after(l, c)));
                        !shape.suicide && !repeats
                    })
                    .collect();
                let legal: Vec<Loc> = p.legal_plays(c).into_iter().map(|(_, l)| l).collect();
                banned += p
                    .geometry()
                    .locs()
                    .filter(|&l| p.check(l, c) == Err(Illegal::Superko))
                    .count();
                assert_eq!(legal, expected, "{w}x{h}, step {step}");
                match rng.next_u64() % 20 {
                    0 if p.undo().is_some() => {
                        let k = line.pop().unwrap();
                        *seen.get_mut(&k).unwrap() -= 1;
                        if seen[&k] == 0 {
                            seen.remove(&k);
                        }
                    }
                    1 => p = p.fork(),
                    _ if !legal.is_empty() => {
                        p.play_unchecked(legal[(rng.next_u64() % legal.len() as u64) as usize], c);
                        let k = key(p.board().cells());
                        *seen.entry(k.clone()).or_insert(0) += 1;
                        line.push(k);
                    }
                    _ => {}
                }
                c = c.opponent();
            }
            assert!(banned > 100, "{w}x{h}: only {banned} superko bans seen");
        }
    }

    #[test]
    fn random_play_and_undo_keep_invariants() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for &(w, h) in &[(2, 2), (3, 3), (4, 3), (5, 5), (9, 9), (1, 5), (19, 19)] {
            for rules in [
                PlayRules::IKEDA,
                PlayRules {
                    ko: KoRule::PositionalSuperko,
                    suicide: true,
                },
            ] {
                let mut p = pos(w, h, rules);
                let mut snapshots = vec![p.board().clone()];
                let mut c = Color::Black;
                for _ in 0..(3 * w * h) {
                    let legal: Vec<Loc> = p.legal_plays(c).into_iter().map(|(_, l)| l).collect();
                    if !legal.is_empty() {
                        let l = legal[(rng.next_u64() % legal.len() as u64) as usize];
                        p.play_unchecked(l, c);
                        p.board().check_invariants().unwrap();
                        snapshots.push(p.board().clone());
                    }
                    c = c.opponent();
                    if rng.next_u64() % 5 == 0 {
                        // Copies share the past; undo on the copy must not touch the original.
                        let mut q = p.fork();
                        q.undo();
                        q.board().check_invariants().unwrap();
                        assert_eq!(p.board(), snapshots.last().unwrap());
                    }
                }
                while p.undo().is_some() {
                    snapshots.pop();
                    p.board().check_invariants().unwrap();
                    assert_eq!(p.board(), snapshots.last().unwrap());
                    assert_eq!(p.board().hash(), snapshots.last().unwrap().hash());
                }
            }
        }
    }
}
