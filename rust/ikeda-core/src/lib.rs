//! # ikeda-core
//!
//! A Go rules kernel for Ikeda Toshio's Area Rules III, in pure Rust (no Python).
//!
//! Reading guide, bottom up:
//! - [`geometry`]: board sizes, the padded layout, GTP vertices and flat indices;
//! - `board`: stones, chains with exact liberties, removal (Rule 3), Zobrist hash,
//!   make/unmake;
//! - `history`: every configuration of the game, shared between copies, exact repetition
//!   tests;
//! - `position`: board + history = legality (Rules 4 and 5), legal masks, undo;
//! - `territory`: Definition 5 and area counts;
//! - [`status`]: status confirmation after Sekiguchi (STATUS.md) and the Japanese-style
//!   count;
//! - `game`: the game flow, Rule 6 and its variants ([`PassState`], the one place for
//!   them; [`PassLog`] keeps it for the Python `Game`) and the native Rule 7 count used by
//!   [`perft`] and [`random_game`].
//!
//! The Python package `ikeda` wraps this crate: its `Game` holds this crate's pass state
//! and adds the configuration, the score and the formats.

mod batch;
mod batch_masks;
mod batch_planes;
mod batch_sample;
mod bitboard_count;
mod board;
mod color;
mod count_games;
mod game;
pub mod geometry;
mod history;
mod kept_legal;
mod legal_positions;
mod legal_watch;
mod mcts;
mod memory;
mod perft;
mod playout;
mod playout_policy;
mod position;
pub mod sgf;
pub mod status;
mod territory;
mod tiers;
mod word_hash;
mod zobrist;

pub use batch::{BadPolicy, Batch, Policy, StepError, EXTRA_PLANES};
pub use board::{Around, Board, PlayEffect, PlayShape, SetupError};
pub use color::{Cell, Color};
pub use count_games::{
    count_games, count_games_by_play, estimate_count, CountError, CountLimits, Estimate,
    MAX_POINTS as COUNT_GAMES_MAX_POINTS,
};
pub use game::{
    area3_score, area_score, Ending, Game, HalfPoints, PassLog, PassState, Refusal, Rules, Scoring,
    Undo,
};
pub use geometry::{CoordError, Geometry, Loc, MAX_CELLS, MAX_SIDE};
pub use history::History;
pub use kept_legal::{KeptLegal, LocSet};
pub use legal_positions::count_legal_positions;
pub use mcts::{analyze, search, Analysis, Choice, MoveInfo, SearchLimits, SearchResult};
pub use memory::{room_for_one, NoMemory, RESERVE_PLAYS};
pub use perft::{perft, perft_until};
pub use playout::{
    game_seed, is_eye, move_cap, play_out, policy_play, random_game, simulate, simulate_into,
    simulate_serial_into, try_play_out, RandomGame, Summary,
};
pub use position::{Illegal, KoRule, PlayRules, Position};
pub use status::{
    confirm_status, Case, ChainStatus, Count, FirstMover, Status, StatusError, StatusKo,
    StatusOptions, StatusReport,
};
pub use territory::{area, ownership, Area};
pub use tiers::{AnyPosition, CELLS_19, CELLS_9};

/// The largest komi, in points either way, that any part of ikeda accepts: the rules,
/// the SGF reader and writer, the native counters (docs/security.md).
pub const MAX_KOMI: f64 = 1000.0;
