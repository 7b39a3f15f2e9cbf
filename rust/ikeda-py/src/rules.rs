//! The one conversion of a Python `ikeda.Rules` value into ikeda-core's rules: every
//! native call that needs rules takes the value itself (`RulesArg`) and reads its play
//! rules, its ending or the whole ruleset here; no other file parses a rule's name.

use ikeda_core::{Ending, KoRule, PlayRules, Rules, Scoring};
use pyo3::prelude::*;

use crate::errors::bad_argument;

/// A ruleset as the Python `ikeda.Rules` value carries it (read from its attributes,
/// which have the same names as ikeda-core's fields where both have them).
#[derive(FromPyObject)]
pub struct RulesArg {
    ko: String,
    suicide: bool,
    ending: String,
    scoring: String,
    half_point: bool,
    pass_stones: bool,
    komi: f64,
}

/// The ending a `Rules.ending` value names.
pub fn ending_named(name: &str) -> PyResult<Ending> {
    ENDINGS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, e)| e)
        .ok_or_else(|| bad_argument(format!("unknown ending {name:?}")))
}

/// The `Rules.ending` value of an ending.
pub fn ending_name(ending: Ending) -> &'static str {
    ENDINGS
        .iter()
        .find(|(_, e)| *e == ending)
        .map_or("", |&(n, _)| n)
}

const ENDINGS: [(&str, Ending); 3] = [
    ("first-pass", Ending::FirstPass),
    ("two-passes", Ending::TwoPasses),
    ("equal-moves", Ending::EqualMoves),
];

impl RulesArg {
    /// What a position enforces: the ko rule and whether suicide is allowed.
    pub fn play(&self) -> PyResult<PlayRules> {
        let ko = match self.ko.as_str() {
            "capturing-superko" => KoRule::CapturingSuperko,
            "positional-superko" => KoRule::PositionalSuperko,
            "simple-ko" => KoRule::SimpleKo,
            ko => return Err(bad_argument(format!("unknown ko rule {ko:?}"))),
        };
        Ok(PlayRules {
            ko,
            suicide: self.suicide,
        })
    }

    /// How a game under these rules ends.
    pub fn ending(&self) -> PyResult<Ending> {
        ending_named(&self.ending)
    }

    /// The whole ruleset, for the native loops that also count (random games, batches,
    /// search, replays). Japanese counting is refused: it needs status confirmation.
    pub fn native(&self) -> PyResult<Rules> {
        let scoring = match self.scoring.as_str() {
            "area" => Scoring::Area,
            "territory" => Scoring::Territory,
            "japanese" => {
                return Err(bad_argument(
                    "Japanese counting confirms the status of the stones (ikeda.japanese_score); native playouts count only area and territory rulesets",
                ))
            }
            scoring => return Err(bad_argument(format!("unknown scoring {scoring:?}"))),
        };
        let komi_half = (self.komi * 2.0).round();
        if !komi_half.is_finite() || (komi_half - self.komi * 2.0).abs() > 1e-9 {
            return Err(bad_argument(format!(
                "komi {} is not a multiple of 1/2",
                self.komi
            )));
        }
        if self.komi.abs() > ikeda_core::MAX_KOMI {
            return Err(bad_argument(format!(
                "komi {} is beyond -{max}..={max}",
                self.komi,
                max = ikeda_core::MAX_KOMI
            )));
        }
        Ok(Rules {
            play: self.play()?,
            ending: self.ending()?,
            scoring,
            half_point: self.half_point,
            pass_stones: self.pass_stones,
            komi_half: komi_half as i32,
        })
    }
}
