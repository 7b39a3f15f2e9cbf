//! Replaying records natively: each record's main line under a ruleset, to its end or to
//! its first illegal move, and the score of the position reached; many files at once on
//! the current rayon pool.

use std::path::Path;

use rayon::prelude::*;

use super::record::{interpret, rules_key, Record};
use super::{charset, syntax, SgfError};
use crate::board::SetupError;
use crate::color::Color;
use crate::game::{Game, HalfPoints, Refusal, Rules};
use crate::position::Position;

/// The first move of a record that its ruleset refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 1-based number in the main line.
    pub number: usize,
    pub color: Color,
    /// GTP vertex or "pass".
    pub vertex: String,
    /// "out_of_turn", "game_over", "occupied", "suicide", "superko" or "ko".
    pub reason: &'static str,
}

/// A record replayed: how far it went and the count of the board reached (no dead
/// stones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    pub moves: usize,
    pub illegal: Option<IllegalMove>,
    pub over: bool,
    pub score: HalfPoints,
}

/// Replays the main line of `record` under `rules`; the record's komi, when it has one,
/// replaces the ruleset's.
pub fn replay(record: &Record, rules: &Rules) -> Result<Replayed, SetupError> {
    let geo = record.geometry;
    let mut rules = *rules;
    if let Some(k) = record.komi {
        rules.komi_half = (k * 2.0) as i32;
    }
    crate::with_tier!(geo, N => {
        let pos = Position::<N>::from_setup(geo, rules.play, &record.black, &record.white)?;
        let mut game = Game::with_ending(pos, record.to_move, rules.ending);
        let mut illegal = None;
        for (k, m) in record.moves.iter().enumerate() {
            let refused = if m.color == game.to_move {
                game.play(m.point.map(|i| geo.loc_of_index(i))).err().map(Refusal::as_str)
            } else {
                Some("out_of_turn")
            };
            if let Some(reason) = refused {
                let vertex = geo.vertex_name(m.point.unwrap_or(geo.points()));
                illegal = Some(IllegalMove { number: k + 1, color: m.color, vertex, reason });
                break;
            }
        }
        let moves = illegal.as_ref().map_or(record.moves.len(), |i| i.number - 1);
        Ok(Replayed { moves, illegal, over: game.passes.over, score: game.score(&rules) })
    })
}

/// Which ruleset a record is replayed under.
#[derive(Clone, Debug)]
pub struct RulesChoice {
    /// Every record under this one, whatever its `RU`.
    pub forced: Option<Rules>,
    /// Else its `RU` looked up by [`rules_key`] ...
    pub by_key: Vec<(String, Rules)>,
    /// ... or this one when `RU` is missing or unknown.
    pub default: Rules,
}

impl RulesChoice {
    #[must_use]
    pub fn for_record(&self, record: &Record) -> Rules {
        if let Some(r) = self.forced {
            return r;
        }
        let key = record.rules.as_deref().map(rules_key);
        key.and_then(|k| self.by_key.iter().find(|(name, _)| *name == k).map(|(_, r)| *r)).unwrap_or(self.default)
    }
}

/// What became of one file.
#[derive(Clone, Debug, PartialEq)]
pub enum FileOutcome {
    /// Replayed (to its end, or to its first illegal move).
    Replayed(Replayed),
    /// Not SGF, or not a game this library can set up.
    Malformed(SgfError),
    /// The setup stones cannot form a position.
    BadSetup(String),
    /// The file could not be read.
    Unreadable(String),
}

/// Reads, decodes, parses and replays the first game of one file.
#[must_use]
pub fn replay_bytes(bytes: &[u8], choice: &RulesChoice) -> FileOutcome {
    let record = charset::decode(bytes).and_then(|(text, _)| {
        interpret(&syntax::parse(&text)?, &text)
    });
    match record {
        Err(e) => FileOutcome::Malformed(e),
        Ok(record) => match replay(&record, &choice.for_record(&record)) {
            Ok(replayed) => FileOutcome::Replayed(replayed),
            Err(e) => FileOutcome::BadSetup(e.to_string()),
        },
    }
}

/// [`replay_bytes`] on every file, in parallel on the current rayon pool. Inputs are
/// validated before use; should a record still hit a bug, that file reports it instead
/// of the panic ending the whole run.
pub fn replay_files<P: AsRef<Path> + Sync>(paths: &[P], choice: &RulesChoice) -> Vec<FileOutcome> {
    paths
        .par_iter()
        .map(|p| match std::fs::read(p.as_ref()) {
            Ok(bytes) => std::panic::catch_unwind(|| replay_bytes(&bytes, choice))
                .unwrap_or_else(|_| FileOutcome::Unreadable("internal error while replaying this record (a bug: please report it)".into())),
            Err(e) => FileOutcome::Unreadable(e.to_string()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn choice() -> RulesChoice {
        RulesChoice { forced: None, by_key: vec![], default: Rules::area3(13) }
    }

    #[test]
    fn first_illegal_move_is_reported() {
        let out = replay_bytes(b"(;SZ[5];B[aa];W[bb];B[aa])", &choice());
        let FileOutcome::Replayed(replayed) = out else { panic!("{out:?}") };
        assert_eq!(replayed.moves, 2);
        let i = replayed.illegal.unwrap();
        assert_eq!((i.number, i.vertex.as_str(), i.reason), (3, "A5", "occupied"));
        let out = replay_bytes(b"(;SZ[5];B[aa];B[bb])", &choice());
        let FileOutcome::Replayed(replayed) = out else { panic!("{out:?}") };
        assert_eq!(replayed.illegal.unwrap().reason, "out_of_turn");
    }

    #[test]
    fn scores_use_the_record_komi() {
        let out = replay_bytes(b"(;SZ[3]KM[0.5];B[bb];W[];B[];W[])", &choice());
        let FileOutcome::Replayed(replayed) = out else { panic!("{out:?}") };
        assert!(replayed.over);
        // Black 9 points - 1/2 (White passed first); White 1/2 + 1/2 komi.
        assert_eq!(replayed.score, HalfPoints { black: 17, white: 2 });
    }

    #[test]
    fn malformed_and_bad_setup() {
        assert!(matches!(replay_bytes(b"(;SZ[5];B[aa]", &choice()), FileOutcome::Malformed(_)));
        let out = replay_bytes(b"(;SZ[2]AB[aa][ab]AW[ba][bb])", &choice());
        assert!(matches!(out, FileOutcome::BadSetup(_)), "{out:?}");
    }
}
