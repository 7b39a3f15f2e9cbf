//! The compact native game flow of Area Rules III, for loops that run whole games without
//! Python (perft, random games). The Python `ikeda.Game` is the reference flow; a test
//! replays native games through it and requires the same ends and scores.
//!
//! Rule 6: the first pass of the game is special; after it the game ends as soon as two
//! passes follow in succession, neither of them the first pass. Rule 7: stones +
//! territory, and 1/2 point moves from Black to White when White passed first. Scores
//! are kept in half points so they stay exact.

use crate::color::Color;
use crate::geometry::Loc;
use crate::position::{Illegal, Position};
use crate::territory::area;

/// The pass bookkeeping of Rule 6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassState {
    pub first_passer: Option<Color>,
    /// Passes in succession since the last play, not counting the first pass of the game.
    pub run: u8,
    pub over: bool,
}

impl PassState {
    /// The state after `c` passes.
    #[inline]
    #[must_use]
    pub fn pass(self, c: Color) -> PassState {
        match self.first_passer {
            None => PassState { first_passer: Some(c), run: 0, over: false },
            Some(_) => PassState { run: self.run + 1, over: self.run + 1 >= 2, ..self },
        }
    }

    /// The state after a play.
    #[inline]
    #[must_use]
    pub fn play(self) -> PassState {
        PassState { run: 0, ..self }
    }
}

/// Area III score in half points, komi (also in half points) included.
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
/// half point, komi.
#[must_use]
pub fn area3_score<const N: usize>(position: &Position<N>, first_passer: Option<Color>, komi_half: i32) -> HalfPoints {
    let a = area(position.board(), &[]);
    let half = i32::from(first_passer == Some(Color::White));
    HalfPoints {
        black: 2 * a.total(Color::Black) as i32 - half,
        white: 2 * a.total(Color::White) as i32 + half + komi_half,
    }
}

/// A position, the side to move and the pass state.
#[derive(Clone, Debug)]
pub struct Game<const N: usize> {
    pub position: Position<N>,
    pub to_move: Color,
    pub passes: PassState,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    GameOver,
    Illegal(Illegal),
}

impl<const N: usize> Game<N> {
    #[must_use]
    pub fn new(position: Position<N>, to_move: Color) -> Self {
        Game { position, to_move, passes: PassState::default() }
    }

    /// Plays `Some(loc)` or passes (`None`) for the side to move.
    pub fn play(&mut self, mv: Option<Loc>) -> Result<(), Refusal> {
        if self.passes.over {
            return Err(Refusal::GameOver);
        }
        match mv {
            Some(loc) => {
                self.position.play(loc, self.to_move).map_err(Refusal::Illegal)?;
                self.passes = self.passes.play();
            }
            None => self.passes = self.passes.pass(self.to_move),
        }
        self.to_move = self.to_move.opponent();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black as B, White as W};

    fn run(passes: &[Option<Color>]) -> PassState {
        // None = a play by whoever; Some(c) = c passes.
        passes.iter().fold(PassState::default(), |s, m| match m {
            Some(c) => s.pass(*c),
            None => s.play(),
        })
    }

    #[test]
    fn rule6_sequences() {
        assert!(run(&[Some(B), Some(W), Some(B)]).over);
        assert!(!run(&[Some(B), Some(W)]).over);
        assert!(run(&[Some(B), None, Some(B), Some(W)]).over);
        assert!(!run(&[None, Some(W), None, Some(W)]).over);
        assert_eq!(run(&[None, Some(W), Some(B)]).first_passer, Some(W));
    }
}
