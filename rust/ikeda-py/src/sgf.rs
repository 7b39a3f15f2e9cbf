//! `ikeda._core` SGF functions: reading one record for `ikeda.sgf`, and replaying many
//! files natively on rayon threads without the GIL.

use ikeda_core::sgf::{self, FileOutcome, RulesChoice};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::{bad_argument, sgf_error};
use crate::rules::RulesArg;

/// A node: `(parent, [(identifier, [values])], line, column)`.
type NodeTuple = (Option<usize>, Vec<(String, Vec<String>)>, usize, usize);
/// A main-line move: `(colour, flat index or None for a pass, line, column)`.
type MoveTuple = (u8, Option<usize>, usize, usize);
/// `(width, height, komi, handicap, RU, RU key, RE, black, white, to_move, moves)`.
type RecordTuple = (u8, u8, Option<f64>, u32, Option<String>, Option<String>, Option<String>, Vec<usize>, Vec<usize>, u8, Vec<MoveTuple>);

/// Reads the first game of an SGF text (str) or file contents (bytes, decoded by their
/// charset): `(charset, nodes in document order, main line)`.
#[pyfunction]
pub fn sgf_read(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<(String, Vec<NodeTuple>, RecordTuple)> {
    let (text, charset) = if let Ok(s) = data.cast::<PyString>() {
        (s.to_str()?.to_string(), "str")
    } else if let Ok(b) = data.cast::<PyBytes>() {
        let bytes = b.as_bytes().to_vec();
        py.detach(move || sgf::decode(&bytes)).map_err(|e| sgf_error(&e))?
    } else {
        return Err(bad_argument(format!("SGF data must be str or bytes, not {}", data.get_type().name()?)));
    };
    py.detach(move || {
        let tree = sgf::parse(&text)?;
        let record = sgf::interpret(&tree, &text)?;
        let n = tree.first_game_len();
        let places = sgf::line_columns(&text, tree.nodes[..n].iter().map(|n| n.offset));
        let nodes = tree.nodes[..n]
            .iter()
            .enumerate()
            .zip(places)
            .map(|((k, node), (line, column))| {
                let props = tree
                    .props_of(k)
                    .iter()
                    .map(|p| (p.id().into_owned(), tree.values_of(p).iter().map(|v| sgf::unescape(v).into_owned()).collect()))
                    .collect();
                (node.parent, props, line, column)
            })
            .collect();
        let move_places = sgf::line_columns(&text, record.moves.iter().map(|m| m.offset));
        let moves = record.moves.iter().zip(move_places).map(|(m, (l, c))| (m.color as u8, m.point, l, c)).collect();
        let key = record.rules.as_deref().map(sgf::rules_key);
        let g = record.geometry;
        Ok((
            charset.to_string(),
            nodes,
            (g.width, g.height, record.komi, record.handicap, record.rules, key, record.result, record.black, record.white, record.to_move as u8, moves),
        ))
    })
    .map_err(|e: sgf::SgfError| sgf_error(&e))
}

/// `(status, moves replayed, (number, colour, vertex, reason) of the first illegal move,
/// over, (black, white) in half points, (message, line, column) of an error)`.
type OutcomeTuple = (&'static str, usize, Option<(usize, u8, String, &'static str)>, bool, Option<(i32, i32)>, Option<(String, usize, usize)>);

fn outcome(o: FileOutcome) -> OutcomeTuple {
    match o {
        FileOutcome::Replayed(r) => {
            let status = if r.illegal.is_some() { "illegal" } else { "ok" };
            let illegal = r.illegal.map(|i| (i.number, i.color as u8, i.vertex, i.reason));
            (status, r.moves, illegal, r.over, Some((r.score.black, r.score.white)), None)
        }
        FileOutcome::Malformed(e) => ("sgf_error", 0, None, false, None, Some((e.message, e.line, e.column))),
        FileOutcome::BadSetup(m) => ("bad_setup", 0, None, false, None, Some((m, 0, 0))),
        FileOutcome::Unreadable(m) => ("unreadable", 0, None, false, None, Some((m, 0, 0))),
    }
}

/// Replays the first game of every file under `forced` rules, or under the rules its RU
/// names (`by_key`, keys as `rules_key` makes them) or `default`; on `threads` threads
/// (0 = every core), without the GIL.
#[pyfunction]
#[pyo3(signature = (paths, forced, by_key, default, threads=0))]
pub fn sgf_replay_many(
    py: Python<'_>,
    paths: Vec<std::path::PathBuf>,
    forced: Option<RulesArg>,
    by_key: Vec<(String, RulesArg)>,
    default: RulesArg,
    threads: usize,
) -> PyResult<Vec<OutcomeTuple>> {
    let choice = RulesChoice {
        forced: forced.map(|r| r.native()).transpose()?,
        by_key: by_key.into_iter().map(|(k, r)| Ok((k, r.native()?))).collect::<PyResult<_>>()?,
        default: default.native()?,
    };
    let pool = crate::thread_pool(threads)?;
    let outcomes = py.detach(move || pool.install(|| sgf::replay_files(&paths, &choice)));
    Ok(outcomes.into_iter().map(outcome).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sgf_read, m)?)?;
    m.add_function(wrap_pyfunction!(sgf_replay_many, m)?)?;
    Ok(())
}
