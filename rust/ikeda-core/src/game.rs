//! The game flow: the one place of Rule 6 and its variants ([`PassState`]), used by the
//! native loops that run whole games without Python (perft, random games, game counts,
//! batches, search) and, through [`PassLog`], by the Python `ikeda.Game` (its native base
//! holds a log). The tests hold it to an independent reference (`tests/reference.py`) and
//! replay native games through `ikeda.Game`, requiring the same ends and scores.
//!
//! Endings: Area III's Rule 6 (the first pass of the game is special; afterwards two
//! passes in succession, neither of them the first pass, end the game), two passes in
//! succession (Area II, Tromp-Taylor), and Territory I's (a preliminary end at the first
//! two passes in succession; then the first pair of successive passes after it at which
//! both players have made equally many moves since it). Scores are kept in half points so
//! they stay exact.

use crate::color::Color;
use crate::geometry::Loc;
use crate::position::{Illegal, Position};
use crate::territory::{area, Area};

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Area III, Rule 6.
    FirstPass,
    /// Area II, Tromp-Taylor.
    TwoPasses,
    /// Territory I: preliminary end, then equal numbers of moves.
    EqualMoves,
}

/// The pass bookkeeping of every ending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassState {
    pub first_passer: Option<Color>,
    /// Passes in succession up to now (for `FirstPass`, not counting the first pass of
    /// the game; for `EqualMoves` after the preliminary end, only passes after it).
    pub run: u8,
    /// `EqualMoves`: the preliminary end has happened.
    pub prelim: bool,
    /// `EqualMoves`: Black's moves minus White's since the preliminary end.
    pub balance: i32,
    /// The last move was a pass (it lifts a simple-ko ban).
    pub last_pass: bool,
    pub over: bool,
}

impl PassState {
    /// The state after `c` passes.
    #[inline]
    #[must_use]
    pub fn pass(self, c: Color, ending: Ending) -> PassState {
        let mut s = PassState {
            last_pass: true,
            ..self
        };
        match ending {
            Ending::FirstPass => {
                if s.first_passer.is_none() {
                    s.first_passer = Some(c);
                } else {
                    s.run += 1;
                    s.over = s.run >= 2;
                }
            }
            Ending::TwoPasses => {
                s.first_passer.get_or_insert(c);
                s.run += 1;
                s.over = s.run >= 2;
            }
            Ending::EqualMoves => {
                s.first_passer.get_or_insert(c);
                s.run += 1;
                if s.prelim {
                    s.balance += if c == Color::Black { 1 } else { -1 };
                    s.over = s.run >= 2 && s.balance == 0;
                } else if s.run >= 2 {
                    s.prelim = true;
                    s.run = 0;
                }
            }
        }
        s
    }

    /// The state after `c` plays.
    #[inline]
    #[must_use]
    pub fn play(self, c: Color, ending: Ending) -> PassState {
        let mut s = PassState {
            run: 0,
            last_pass: false,
            ..self
        };
        if ending == Ending::EqualMoves && s.prelim {
            s.balance += if c == Color::Black { 1 } else { -1 };
        }
        s
    }
}

/// The pass bookkeeping of a game played move by move (the Python `ikeda.Game`'s, held by
/// the glue): the game's [`PassState`] under its ending, which decides the end; the same
/// moves' state under Territory I's ending, whose preliminary end every ruleset reports and
/// whose end a count under Territory I completes; and the counts a score's table reads.
/// The rules are [`PassState`]'s; this only counts moves and passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassLog {
    pub ending: Ending,
    /// The state under the game's ending.
    pub state: PassState,
    /// The state of the same moves under Territory I's ending (the same as `state` under
    /// that ending).
    pub territory: PassState,
    /// Moves so far, passes included.
    pub moves: u32,
    /// Passes in succession ending with the last move.
    pub streak: u32,
    /// The number (1-based) of the first pass of the game.
    pub first_pass: Option<u32>,
    /// The number of the move that made the preliminary end (the second of the first two
    /// passes in succession), under any ending.
    pub prelim: Option<u32>,
    /// Passes by Black and White up to the preliminary end, then after it.
    pub passes: [u32; 4],
}

impl PassLog {
    /// A game with no move yet.
    #[must_use]
    pub fn new(ending: Ending) -> PassLog {
        PassLog {
            ending,
            state: PassState::default(),
            territory: PassState::default(),
            moves: 0,
            streak: 0,
            first_pass: None,
            prelim: None,
            passes: [0; 4],
        }
    }

    /// Counts the next move, by `c`: a pass or a play. Returns whether it made the
    /// preliminary end.
    pub fn record(&mut self, c: Color, is_pass: bool) -> bool {
        self.moves += 1;
        if !is_pass {
            self.streak = 0;
            self.state = self.state.play(c, self.ending);
            self.territory = self.territory.play(c, Ending::EqualMoves);
            return false;
        }
        self.streak += 1;
        let before = self.territory.prelim;
        self.passes[2 * usize::from(before) + c.index()] += 1;
        if self.state.first_passer.is_none() {
            self.first_pass = Some(self.moves);
        }
        self.state = self.state.pass(c, self.ending);
        self.territory = self.territory.pass(c, Ending::EqualMoves);
        let made = !before && self.territory.prelim;
        if made {
            self.prelim = Some(self.moves);
        }
        made
    }

    /// The log of `moves` (each a pass or not), the first by `first`.
    #[must_use]
    pub fn replay(ending: Ending, first: Color, moves: impl IntoIterator<Item = bool>) -> PassLog {
        let mut log = PassLog::new(ending);
        let mut c = first;
        for is_pass in moves {
            log.record(c, is_pass);
            c = c.opponent();
        }
        log
    }

    /// The passes Territory I's end still needs after the last move, `to_move` passing
    /// first (0 to 3; a pair of successive passes after the preliminary end with equal
    /// numbers of moves since it); None before the preliminary end.
    #[must_use]
    pub fn extra_passes(&self, to_move: Color) -> Option<u32> {
        if !self.territory.prelim {
            return None;
        }
        let (mut s, mut c, mut extra) = (self.territory, to_move, 0);
        while !s.over {
            s = s.pass(c, Ending::EqualMoves);
            c = c.opponent();
            extra += 1;
        }
        Some(extra)
    }
}

/// A score in half points, komi (also in half points) included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfPoints {
    pub black: i32,
    pub white: i32,
}

impl HalfPoints {
    /// Black's score minus White's, in half points.
    #[must_use]
    pub fn margin(self) -> i32 {
        self.black - self.white
    }
}

/// Rule 7 on the board as it stands (no dead stones): stones + territory, the first-pass
/// half point if `half_point`, komi.
#[must_use]
pub fn area_score<const N: usize>(
    position: &Position<N>,
    first_passer: Option<Color>,
    half_point: bool,
    komi_half: i32,
) -> HalfPoints {
    area_count(
        &area(position.board(), &[]),
        first_passer,
        half_point,
        komi_half,
    )
}

/// [`area_score`] from an area already counted.
fn area_count(
    a: &Area,
    first_passer: Option<Color>,
    half_point: bool,
    komi_half: i32,
) -> HalfPoints {
    let half = i32::from(half_point && first_passer == Some(Color::White));
    HalfPoints {
        black: 2 * a.total(Color::Black) as i32 - half,
        white: 2 * a.total(Color::White) as i32 + half + komi_half,
    }
}

/// Area III's Rule 7 (with the first-pass half point).
#[must_use]
pub fn area3_score<const N: usize>(
    position: &Position<N>,
    first_passer: Option<Color>,
    komi_half: i32,
) -> HalfPoints {
    area_score(position, first_passer, true, komi_half)
}

/// How a finished board is counted natively (the Python `Rules.scoring`; Japanese
/// counting needs status confirmation and is not a native loop's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Stones + territory (Rule 7).
    Area,
    /// Territory - stones lost (Territory I).
    Territory,
}

/// A whole ruleset for the native loops: play rules, ending, counting and komi. The
/// fields are the Python `ikeda.Rules` fields, komi in half points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub play: crate::position::PlayRules,
    pub ending: Ending,
    pub scoring: Scoring,
    /// Area III's first-pass half point.
    pub half_point: bool,
    /// Territory I's pass stones after the preliminary end.
    pub pass_stones: bool,
    pub komi_half: i32,
}

impl Rules {
    /// Ikeda's Area Rules III with the given komi (in half points).
    #[must_use]
    pub const fn area3(komi_half: i32) -> Rules {
        Rules {
            play: crate::position::PlayRules::IKEDA,
            ending: Ending::FirstPass,
            scoring: Scoring::Area,
            half_point: true,
            pass_stones: false,
            komi_half,
        }
    }
}

/// A position, the side to move, the ending and its pass state.
#[derive(Clone, Debug)]
pub struct Game<const N: usize> {
    pub position: Position<N>,
    pub to_move: Color,
    pub ending: Ending,
    pub passes: PassState,
    /// Stones of each colour removed from the board (by `play`).
    pub lost: [u32; 2],
    /// Passes of each colour after the preliminary end (by `play`).
    pub pass_stones: [u32; 2],
}

/// What [`Game::undo`] needs to take a move back: the game's state before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "the move can be taken back only with it"]
pub struct Undo {
    passes: PassState,
    lost: [u32; 2],
    pass_stones: [u32; 2],
    played: bool,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    GameOver,
    Illegal(Illegal),
}

impl Refusal {
    /// The reason as the Python layer and the replay reports name it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Refusal::GameOver => "game_over",
            Refusal::Illegal(i) => i.as_str(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::error::Error for Refusal {}

impl<const N: usize> Game<N> {
    /// An Area III game.
    #[must_use]
    pub fn new(position: Position<N>, to_move: Color) -> Self {
        Game::with_ending(position, to_move, Ending::FirstPass)
    }

    #[must_use]
    pub fn with_ending(position: Position<N>, to_move: Color, ending: Ending) -> Self {
        Game {
            position,
            to_move,
            ending,
            passes: PassState::default(),
            lost: [0; 2],
            pass_stones: [0; 2],
        }
    }

    /// The score of the board as it stands under `rules` (no dead stones), in half points.
    #[must_use]
    pub fn score(&self, rules: &Rules) -> HalfPoints {
        self.scores(rules).0
    }

    /// The score under `rules` and the same board under Area II counting (no half point),
    /// from one count of the area.
    #[must_use]
    pub fn scores(&self, rules: &Rules) -> (HalfPoints, HalfPoints) {
        let a = area(self.position.board(), &[]);
        let fp = self.passes.first_passer;
        let area2 = area_count(&a, fp, false, rules.komi_half);
        if rules.scoring == Scoring::Area {
            return (area_count(&a, fp, rules.half_point, rules.komi_half), area2);
        }
        let given = |i: usize| {
            if rules.pass_stones {
                self.pass_stones[i]
            } else {
                0
            }
        };
        let net = |i: usize| 2 * (a.territory[i] as i32 - self.lost[i] as i32 - given(i) as i32);
        (
            HalfPoints {
                black: net(0),
                white: net(1) + rules.komi_half,
            },
            area2,
        )
    }

    /// Whether the side to move may play at `loc` (simple-ko ban included).
    #[inline]
    pub fn check(&self, loc: Loc) -> Result<(), Illegal> {
        self.position
            .check_move(loc, self.to_move, self.passes.last_pass)
    }

    /// [`Game::check`] for a point known to be empty.
    #[inline(always)]
    pub fn check_empty(&self, loc: Loc) -> Result<(), Illegal> {
        self.position
            .check_empty_move(loc, self.to_move, self.passes.last_pass)
    }

    /// Calls `f(loc)` for every legal play of the side to move.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(usize, Loc)) {
        let ko = self.position.ko_ban(self.passes.last_pass);
        self.position.for_each_legal(self.to_move, |i, l| {
            if Some(l) != ko {
                f(i, l);
            }
        });
    }

    /// Plays `Some(loc)` or passes (`None`) for the side to move.
    pub fn play(&mut self, mv: Option<Loc>) -> Result<(), Refusal> {
        if self.passes.over {
            return Err(Refusal::GameOver);
        }
        if let Some(loc) = mv {
            self.check(loc).map_err(Refusal::Illegal)?;
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// [`Game::play_unchecked`], returning what [`Game::undo`] needs to take the move
    /// back (make and unmake, for the native enumerations). Same precondition.
    pub fn make(&mut self, mv: Option<Loc>) -> Undo {
        let undo = Undo {
            passes: self.passes,
            lost: self.lost,
            pass_stones: self.pass_stones,
            played: mv.is_some(),
        };
        self.play_unchecked(mv);
        undo
    }

    /// Takes back the last move, made by [`Game::make`], which returned `undo`.
    pub fn undo(&mut self, undo: Undo) {
        if undo.played {
            self.position.undo();
        }
        self.passes = undo.passes;
        self.lost = undo.lost;
        self.pass_stones = undo.pass_stones;
        self.to_move = self.to_move.opponent();
    }

    /// [`Game::play`] without the tests. Precondition: the game is not over and
    /// [`Game::check`] passed for a play.
    pub fn play_unchecked(&mut self, mv: Option<Loc>) {
        let c = self.to_move;
        match mv {
            Some(loc) => {
                let effect = self.position.play_unchecked(loc, c);
                let victim = if effect.suicide { c } else { c.opponent() };
                self.lost[victim.index()] += u32::from(effect.removed);
                self.passes = self.passes.play(c, self.ending);
            }
            None => {
                if self.passes.prelim {
                    self.pass_stones[c.index()] += 1;
                }
                self.passes = self.passes.pass(c, self.ending);
            }
        }
        self.to_move = c.opponent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black as B, White as W};

    fn run(ending: Ending, moves: &[(Color, bool)]) -> PassState {
        // (colour, is_pass)
        moves.iter().fold(PassState::default(), |s, &(c, pass)| {
            if pass {
                s.pass(c, ending)
            } else {
                s.play(c, ending)
            }
        })
    }

    #[test]
    fn rule6_sequences() {
        let f = Ending::FirstPass;
        assert!(run(f, &[(B, true), (W, true), (B, true)]).over);
        assert!(!run(f, &[(B, true), (W, true)]).over);
        assert!(run(f, &[(B, true), (W, false), (B, true), (W, true)]).over);
        assert!(!run(f, &[(B, false), (W, true), (B, false), (W, true)]).over);
        assert_eq!(
            run(f, &[(B, false), (W, true), (B, true)]).first_passer,
            Some(W)
        );
    }

    #[test]
    fn simple_ko_retake_is_refused_as_ko_until_a_pass() {
        use crate::geometry::Geometry;
        use crate::position::{KoRule, PlayRules};
        let geo = Geometry::new(4, 3).unwrap();
        let at = |v: &str| geo.loc_of_index(geo.parse_vertex(v).unwrap().unwrap());
        for (ko, reason) in [
            (KoRule::SimpleKo, Illegal::Ko),
            (KoRule::CapturingSuperko, Illegal::Superko),
        ] {
            let rules = PlayRules { ko, suicide: false };
            let mut g = Game::<{ crate::geometry::MAX_CELLS }>::new(Position::new(geo, rules), B);
            for v in ["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"] {
                g.play(Some(at(v))).unwrap();
            }
            assert_eq!(g.play(Some(at("C2"))), Err(Refusal::Illegal(reason)));
            let mut legal = Vec::new();
            g.for_each_legal(|_, l| legal.push(l));
            assert!(!legal.contains(&at("C2")));
            g.play(None).unwrap();
            g.play(None).unwrap(); // White's pass after Black's: the ban is lifted
            assert_eq!(g.check(at("C2")).is_ok(), ko == KoRule::SimpleKo);
        }
    }

    #[test]
    fn make_and_undo_restore_the_game() {
        use crate::geometry::Geometry;
        use crate::position::PlayRules;
        let geo = Geometry::new(4, 3).unwrap();
        let at = |v: &str| Some(geo.loc_of_index(geo.parse_vertex(v).unwrap().unwrap()));
        let pos = Position::<{ crate::geometry::MAX_CELLS }>::from_diagram(
            &[".XO.", "XO.O", ".XO."],
            PlayRules::IKEDA,
        )
        .unwrap();
        let mut g = Game::with_ending(pos, B, Ending::EqualMoves);
        let mut stack = Vec::new();
        let mut seen = Vec::new();
        // Black takes at C2, two passes make the preliminary end, White plays, both pass.
        for mv in [at("C2"), None, None, at("D1"), None, None] {
            seen.push((
                format!("{:?}", g.position.board()),
                g.passes,
                g.lost,
                g.pass_stones,
                g.to_move,
            ));
            stack.push(g.make(mv));
        }
        assert_eq!(
            (g.lost, g.pass_stones),
            ([0, 1], [1, 1]),
            "the capture at C2, and a pass each after the preliminary end"
        );
        assert!(g.passes.prelim && !g.passes.over);
        while let Some(u) = stack.pop() {
            g.undo(u);
            assert_eq!(
                seen.pop().unwrap(),
                (
                    format!("{:?}", g.position.board()),
                    g.passes,
                    g.lost,
                    g.pass_stones,
                    g.to_move
                )
            );
        }
    }

    #[test]
    fn two_passes_end() {
        assert!(run(Ending::TwoPasses, &[(B, true), (W, true)]).over);
        assert!(!run(Ending::TwoPasses, &[(B, true), (W, false), (B, true)]).over);
    }

    #[test]
    fn territory1_gobase_sequence() {
        // Black 79, White pass, Black pass (preliminary end), White 80, Black 81, White 82,
        // Black 83, White pass (a prisoner), Black pass (a prisoner; the end).
        let e = Ending::EqualMoves;
        let mut s = run(e, &[(B, false), (W, true), (B, true)]);
        assert!(s.prelim && !s.over);
        for (c, p) in [(W, false), (B, false), (W, false), (B, false), (W, true)] {
            s = s.pass_or_play(c, p, e);
            assert!(!s.over);
        }
        assert!(s.pass(B, e).over);
        // Unequal numbers of moves: the pair of passes does not end it.
        let s = run(e, &[(B, true), (W, true), (B, false), (W, true), (B, true)]);
        assert!(!s.over);
    }

    #[test]
    fn pass_log_counts_what_the_score_reads() {
        // Area III: Black plays, White passes first, Black passes, White passes (the
        // preliminary end at move 4, the game not over: the first pass is not counted),
        // Black passes (the end).
        let mut log = PassLog::new(Ending::FirstPass);
        let made: Vec<bool> = [
            (B, false),
            (W, true),
            (B, true),
            (W, false),
            (B, true),
            (W, true),
        ]
        .iter()
        .map(|&(c, p)| log.record(c, p))
        .collect();
        assert_eq!(made, [false, false, true, false, false, false]);
        assert_eq!(
            (log.first_pass, log.prelim, log.streak),
            (Some(2), Some(3), 2)
        );
        assert_eq!(log.passes, [1, 1, 1, 1]);
        assert!(log.state.over && log.state.first_passer == Some(W));
        // Under Territory I: 3 moves since the preliminary end, the last two passes: one
        // more pass makes the numbers equal.
        assert_eq!(log.extra_passes(B), Some(1));
        assert_eq!(PassLog::new(Ending::EqualMoves).extra_passes(B), None);
        let replayed =
            PassLog::replay(Ending::FirstPass, B, [false, true, true, false, true, true]);
        assert_eq!(replayed, log);
    }

    #[test]
    fn a_play_after_the_preliminary_end_needs_three_passes() {
        let log = PassLog::replay(Ending::TwoPasses, B, [true, true]);
        assert!(log.state.over && log.prelim == Some(2));
        assert_eq!(log.extra_passes(B), Some(2));
        let log = PassLog::replay(Ending::EqualMoves, B, [true, true, false]);
        assert!(!log.state.over);
        assert_eq!(log.extra_passes(W), Some(3));
    }

    impl PassState {
        fn pass_or_play(self, c: Color, pass: bool, e: Ending) -> PassState {
            if pass {
                self.pass(c, e)
            } else {
                self.play(c, e)
            }
        }
    }
}
