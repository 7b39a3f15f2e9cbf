//! What a status confirmation reports: each chain's case, status and proof, the regions
//! searched, the count, and why a position could not be confirmed.

use crate::board::SetupError;
use crate::color::Color;
#[cfg(doc)]
use crate::status::options::Unresolved;

/// The case of Section 4 that holds first, or `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Case {
    F1,
    F2,
    F3,
    S1,
    S2,
    N,
    /// Not proven: the class (`'F'`, `'S'` or `'N'`) estimated for a chain of a region
    /// beyond the search ([`Unresolved::Estimate`]).
    Estimated(char),
}

impl Case {
    /// The class: `'F'`, `'S'` or `'N'`.
    #[must_use]
    pub const fn class(self) -> char {
        match self {
            Case::F1 | Case::F2 | Case::F3 => 'F',
            Case::S1 | Case::S2 => 'S',
            Case::N => 'N',
            Case::Estimated(class) => class,
        }
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Case::F1 => "F1",
            Case::F2 => "F2",
            Case::F3 => "F3",
            Case::S1 => "S1",
            Case::S2 => "S2",
            Case::N => "N",
            Case::Estimated(_) => "estimated",
        }
    }
}

/// The final status of a chain (Section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Alive,
    Seki,
    Dead,
}

impl Status {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Seki => "seki",
            Status::Dead => "dead",
        }
    }
}

/// How a chain's case was established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// Without search: first-class at the start (F1), a vital wall (F2, `walls/vital.rs`) or a
    /// credited group's wall (F2) or dead stone (N) (`walls/credit.rs`).
    Static,
    /// By the exhaustive search of its region.
    Searched,
    /// Not proven: its region was beyond the search and it was estimated.
    Estimated,
    /// Not proven: searched exactly in a part of a region beyond the search, walled off by
    /// chains the estimate calls alive (`estimate/conditional.rs`).
    Conditional,
}

impl Proof {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Proof::Static => "static",
            Proof::Searched => "searched",
            Proof::Estimated => "estimated",
            Proof::Conditional => "conditional",
        }
    }
}

/// One chain's confirmation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStatus {
    pub color: Color,
    /// Flat indices, ascending.
    pub stones: Vec<usize>,
    pub case: Case,
    pub status: Status,
    pub proof: Proof,
}

/// One region that was searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionReport {
    /// Flat indices, ascending.
    pub points: Vec<usize>,
    /// States in its graph (the states visited before it was refused, for an unresolved
    /// region).
    pub states: usize,
    /// Why the search could not settle it, for a region left unresolved.
    pub unresolved: Option<String>,
}

/// The confirmation of a whole position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusReport {
    /// Black's chains, then White's, each by their first stone.
    pub chains: Vec<ChainStatus>,
    pub regions: Vec<RegionReport>,
    pub count: Count,
}

/// Why a position could not be confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatusError {
    /// The cells do not form a position.
    Setup(SetupError),
    /// A cell that is not 0, 1 or 2, or the wrong number of cells.
    Cells(String),
    /// A region is beyond the search's limits: its points (flat indices) and why.
    Budget { region: Vec<usize>, reason: String },
}

impl std::fmt::Display for StatusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatusError::Setup(e) => e.fmt(f),
            StatusError::Cells(why) => f.write_str(why),
            StatusError::Budget { region, reason } => write!(
                f,
                "region of {} points is beyond the status search: {reason}",
                region.len()
            ),
        }
    }
}

impl std::error::Error for StatusError {}

/// Territory and dead stones after the allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Points of territory of each colour ([`Color::index`]).
    pub territory: [u32; 2],
    /// Dead stones of each colour (they go to the other colour's prisoners).
    pub dead: [u32; 2],
    /// Per point (flat index): 1 Black territory, 2 White territory, 0 neither (stones,
    /// dame, seki eyes).
    pub owner: Vec<u8>,
}
