//! SGF game records: bytes to text ([`decode`], charsets), text to trees ([`parse`]),
//! the main line as a game ([`interpret`]) and native replay of many files
//! ([`replay_files`]).

mod charset;
mod record;
mod replay;
mod syntax;

pub use charset::decode;
pub use record::{interpret, rules_key, Record, RecordMove};
pub use replay::{replay, replay_bytes, replay_files, FileOutcome, IllegalMove, Replayed, RulesChoice};
pub use syntax::{line_columns, parse, position, unescape, Node, Prop, SgfError, Tree};
