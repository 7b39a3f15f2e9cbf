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
    /// "out_of_turn", "game_over", "occupied", "suicide", "superko", "ko", or "setup"
    /// (setup or a `PL` disagreeing with the turn in the middle of the game; `vertex` is
    /// then "setup").
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
    /// The record's `RE` as written (to compare with the count).
    pub recorded: Option<String>,
    /// Its `RU` as [`rules_key`] normalises it (which ruleset it was replayed under).
    pub rules_key: Option<String>,
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
        let mut changes = record.changes.iter().peekable();
        for (k, m) in record.moves.iter().enumerate() {
            // Setup before this move: after the end it is markup (a record marking dead
            // stones with AE), a PL agreeing with the turn is harmless, anything else
            // stops the replay like an illegal move.
            let mut refused_setup = false;
            while let Some(c) = changes.next_if(|c| c.before <= k) {
                let agrees = c.black.is_empty() && c.white.is_empty() && c.empty.is_empty() && c.player.is_none_or(|p| p == game.to_move);
                refused_setup |= !game.passes.over && !agrees;
            }
            if refused_setup {
                illegal = Some(IllegalMove { number: k + 1, color: m.color, vertex: "setup".into(), reason: "setup" });
                break;
            }
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
        Ok(Replayed { moves, illegal, over: game.passes.over, score: game.score(&rules), recorded: record.result.clone(), rules_key: record.rules.as_deref().map(rules_key) })
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
    /// `RU` keys whose ruleset cannot be replayed natively (Japanese counting confirms
    /// status): such records come back [`FileOutcome::Deferred`].
    pub deferred: Vec<String>,
}

impl RulesChoice {
    #[must_use]
    pub fn for_record(&self, record: &Record) -> Rules {
        if let Some(r) = self.forced {
            return r;
        }
        // (deferred keys are checked by the caller first)
        let key = record.rules.as_deref().map(rules_key);
        key.and_then(|k| {
            self.by_key
                .iter()
                .find(|(name, _)| *name == k)
                .map(|(_, r)| *r)
        })
        .unwrap_or(self.default)
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
    /// The file could not be read (or is not a regular file, or is too large).
    Unreadable(String),
    /// Its ruleset is one of [`RulesChoice::deferred`]: to be replayed by the caller.
    Deferred,
}

/// Files larger than this (16 MiB) are not read, by [`read_file`] and so by every reader
/// of SGF files (`ikeda.sgf.read`, the native replay, GTP `loadsgf`): no game record comes
/// near it, and the tree of a hostile file takes up to 40 bytes per byte of text.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The first game of a record's bytes: each decoding [`charset::candidates`] offers, in
/// order, until one parses; else the error of the first.
pub fn read_record(bytes: &[u8]) -> Result<Record, SgfError> {
    let mut first_error = None;
    for d in charset::candidates(bytes, None) {
        match syntax::parse(&d.text).and_then(|tree| interpret(&tree, &d.text)) {
            Ok(record) => return Ok(record),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| syntax::position("", 0, "empty record".into())))
}

/// Reads, decodes, parses and replays the first game of one file.
#[must_use]
pub fn replay_bytes(bytes: &[u8], choice: &RulesChoice) -> FileOutcome {
    let record = read_record(bytes);
    match record {
        Err(e) => FileOutcome::Malformed(e),
        Ok(record) => {
            if choice.forced.is_none()
                && record
                    .rules
                    .as_deref()
                    .map(rules_key)
                    .is_some_and(|k| choice.deferred.contains(&k))
            {
                return FileOutcome::Deferred;
            }
            match replay(&record, &choice.for_record(&record)) {
                Ok(replayed) => FileOutcome::Replayed(replayed),
                Err(e) => FileOutcome::BadSetup(e.to_string()),
            }
        }
    }
}

/// Why [`read_file`] gave no bytes.
#[derive(Debug)]
pub enum ReadError {
    /// The system refused to open or read the file.
    Os(std::io::Error),
    /// Not a regular file (a FIFO, a device, a folder), or larger than [`MAX_FILE_BYTES`].
    Refused(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Os(e) => write!(f, "{e}"),
            Self::Refused(m) => f.write_str(m),
        }
    }
}

/// The bytes of the regular file `path`, at most [`MAX_FILE_BYTES`]: the one reader of
/// SGF files. The file is opened non-blocking (opening a FIFO for reading would wait for
/// a writer for ever) and checked on the open descriptor (`fstat`), so a name swapped
/// after a check cannot slip a FIFO or a device in; nothing is read from anything but a
/// regular file.
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(ReadError::Os)?;
    let meta = file.metadata().map_err(ReadError::Os)?;
    if !meta.is_file() {
        return Err(ReadError::Refused("not a regular file".into()));
    }
    let limit = MAX_FILE_BYTES;
    if meta.len() > limit {
        return Err(ReadError::Refused(format!(
            "{} bytes is over the limit of {limit} bytes for an SGF file",
            meta.len()
        )));
    }
    // (O_NONBLOCK does not change how a regular file reads.)
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Os)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::Refused(format!(
            "over the limit of {limit} bytes for an SGF file (it grew while read)"
        )));
    }
    Ok(bytes)
}

/// [`replay_bytes`] on every file, in parallel on the current rayon pool. Inputs are
/// validated before use; should a record still hit a bug, that file reports it instead
/// of the panic ending the whole run.
pub fn replay_files<P: AsRef<Path> + Sync>(paths: &[P], choice: &RulesChoice) -> Vec<FileOutcome> {
    paths
        .par_iter()
        .map(|p| match read_file(p.as_ref()) {
            Ok(bytes) => {
                std::panic::catch_unwind(|| replay_bytes(&bytes, choice)).unwrap_or_else(|_| {
                    FileOutcome::Unreadable(
                        "internal error while replaying this record (a bug: please report it)"
                            .into(),
                    )
                })
            }
            Err(e) => FileOutcome::Unreadable(e.to_string()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn choice() -> RulesChoice {
        RulesChoice {
            forced: None,
            by_key: vec![],
            default: Rules::area3(13),
            deferred: vec!["japanese".into()],
        }
    }

    #[test]
    fn first_illegal_move_is_reported() {
        let out = replay_bytes(b"(;SZ[5];B[aa];W[bb];B[aa])", &choice());
        let FileOutcome::Replayed(replayed) = out else {
            panic!("{out:?}")
        };
        assert_eq!(replayed.moves, 2);
        let i = replayed.illegal.unwrap();
        assert_eq!(
            (i.number, i.vertex.as_str(), i.reason),
            (3, "A5", "occupied")
        );
        let out = replay_bytes(b"(;SZ[5];B[aa];B[bb])", &choice());
        let FileOutcome::Replayed(replayed) = out else {
            panic!("{out:?}")
        };
        assert_eq!(replayed.illegal.unwrap().reason, "out_of_turn");
    }

    #[test]
    fn scores_use_the_record_komi() {
        let out = replay_bytes(b"(;SZ[3]KM[0.5];B[bb];W[];B[];W[])", &choice());
        let FileOutcome::Replayed(replayed) = out else {
            panic!("{out:?}")
        };
        assert!(replayed.over);
        // Black 9 points - 1/2 (White passed first); White 1/2 + 1/2 komi.
        assert_eq!(
            replayed.score,
            HalfPoints {
                black: 17,
                white: 2
            }
        );
    }

    #[test]
    fn setup_in_the_middle_of_a_game() {
        let stop = |sgf: &[u8]| match replay_bytes(sgf, &choice()) {
            FileOutcome::Replayed(r) => r.illegal.map(|i| (i.number, i.reason)),
            other => panic!("{other:?}"),
        };
        // A PL agreeing with the turn, AE after the game ended: fine.
        assert_eq!(stop(b"(;SZ[5];B[aa];PL[W]W[bb];B[];W[];B[];AE[aa])"), None);
        // A PL disagreeing, or stones set up mid-game: stops there.
        assert_eq!(stop(b"(;SZ[5];B[aa];PL[B];W[bb])"), Some((2, "setup")));
        assert_eq!(stop(b"(;SZ[5];B[aa];AW[cc];W[bb])"), Some((2, "setup")));
        assert_eq!(
            replay_bytes(b"(;RU[Japanese];B[aa])", &choice()),
            FileOutcome::Deferred
        );
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read_and_a_fifo_never_blocks() {
        let dir = std::env::temp_dir().join(format!("ikeda-read-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("game.sgf");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // No writer: a blocking open would wait here for ever.
        for path in [fifo.as_path(), dir.as_path(), Path::new("/dev/zero")] {
            match read_file(path) {
                Err(ReadError::Refused(m)) => assert_eq!(m, "not a regular file"),
                other => panic!("{path:?}: {other:?}"),
            }
        }
        let big = dir.join("big.sgf");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_FILE_BYTES + 1)
            .unwrap();
        assert!(
            matches!(read_file(&big), Err(ReadError::Refused(m)) if m.contains("over the limit"))
        );
        assert!(
            matches!(read_file(&dir.join("none.sgf")), Err(ReadError::Os(e)) if e.kind() == std::io::ErrorKind::NotFound)
        );
        let good = dir.join("good.sgf");
        std::fs::write(&good, b"(;B[aa])").unwrap();
        assert_eq!(read_file(&good).unwrap(), b"(;B[aa])");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_and_bad_setup() {
        assert!(matches!(
            replay_bytes(b"(;SZ[5];B[aa]", &choice()),
            FileOutcome::Malformed(_)
        ));
        let out = replay_bytes(b"(;SZ[2]AB[aa][ab]AW[ba][bb])", &choice());
        assert!(matches!(out, FileOutcome::BadSetup(_)), "{out:?}");
    }
}
