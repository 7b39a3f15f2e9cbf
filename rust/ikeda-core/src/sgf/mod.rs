//! SGF game records: bytes to text ([`decode`], charsets), text to trees ([`parse`]),
//! the main line as a game ([`interpret`]) and native replay of many files
//! ([`replay_files`]).

mod charset;
mod record;
mod replay;
mod structure;
mod syntax;

pub use charset::{candidates, decode, encoding_for, plausibility, Decoded};
pub use record::{
    interpret, interpret_game, komi, rules_key, Problem, Record, RecordMove, SetupChange,
};
pub use replay::{
    read_file, replay, replay_bytes, replay_files, FileOutcome, IllegalMove, ReadError, Replayed,
    RulesChoice, MAX_FILE_BYTES,
};
pub use syntax::{
    line_columns, no_memory, parse, position, unescape, Lines, Node, Prop, SgfError, Tree,
};
