//! `ikeda._core` SGF functions: reading one record for `ikeda.sgf`, and replaying many
//! files natively on rayon threads without the GIL.

use ikeda_core::sgf::{self, FileOutcome, RulesChoice};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::{bad_argument, no_memory, sgf_error};
use crate::rules::RulesArg;

/// A node: `(parent, [(identifier, [values])], line, column)`.
type NodeTuple = (Option<usize>, Vec<(String, Vec<String>)>, usize, usize);
/// A main-line move: `(colour, flat index or None for a pass, line, column)`.
type MoveTuple = (u8, Option<usize>, usize, usize);
/// `(width, height, komi, handicap, RU, RU key, RE, black, white, to_move, moves)`.
type RecordTuple = (
    u8,
    u8,
    Option<f64>,
    u32,
    Option<String>,
    Option<String>,
    Option<String>,
    Vec<usize>,
    Vec<usize>,
    u8,
    Vec<MoveTuple>,
);
/// A problem: `(property, message, line, column)`.
type ProblemTuple = (Option<String>, String, usize, usize);
/// Setup after the first move: `(moves before it, line, column, black, white, empty,
/// PL colour or 0)`.
type ChangeTuple = (usize, usize, usize, Vec<usize>, Vec<usize>, Vec<usize>, u8);
/// One game of a collection.
type GameTuple = (
    Vec<NodeTuple>,
    RecordTuple,
    Vec<ProblemTuple>,
    Vec<ChangeTuple>,
);

/// Reads the first game (or, with `all`, every game) of an SGF text (str) or file
/// contents (bytes, decoded by their charset or by `encoding`): `(charset, games)`.
#[pyfunction]
#[pyo3(signature = (data, encoding=None, all=false))]
pub fn sgf_read(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    all: bool,
) -> PyResult<(String, Vec<GameTuple>)> {
    let decoded = if let Ok(s) = data.cast::<PyString>() {
        let text = s.to_str().map_err(|_| {
            sgf_error(&sgf::position(
                "",
                0,
                "the text is not valid Unicode (a lone surrogate)".into(),
            ))
        })?;
        let mut owned = String::new();
        owned
            .try_reserve_exact(text.len())
            .map_err(|_| no_memory("a copy of the SGF text"))?;
        owned.push_str(text);
        vec![sgf::Decoded {
            text: owned,
            charset: "str",
            replaced: vec![],
            note: None,
            structure: None,
        }]
    } else if let Ok(b) = data.cast::<PyBytes>() {
        let forced = match encoding {
            Some(label) => Some(sgf::encoding_for(label).ok_or_else(|| bad_argument(format!("unknown encoding {label:?} (a WHATWG label: utf-8, gb18030, shift_jis, euc-kr, big5, latin1, ...)")))?),
            None => None,
        };
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(b.as_bytes().len())
            .map_err(|_| no_memory("a copy of the SGF bytes"))?;
        bytes.extend_from_slice(b.as_bytes());
        py.detach(move || sgf::candidates(&bytes, forced))
    } else {
        return Err(bad_argument(format!(
            "SGF data must be str or bytes, not {}",
            data.get_type().name()?
        )));
    };
    py.detach(move || {
        let mut first_error = None;
        for d in &decoded {
            match read_games(d, all) {
                Ok(games) => return Ok((d.charset.to_string(), games)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| sgf::position("", 0, "empty record".into())))
    })
    .map_err(|e: sgf::SgfError| sgf_error(&e))
}

/// The games of one decoding, with the problems met in decoding and reading them.
fn read_games(d: &sgf::Decoded, all: bool) -> Result<Vec<GameTuple>, sgf::SgfError> {
    let text = d.text.as_str();
    let tree = sgf::parse(text)?;
    let games = tree.games();
    let mut out = Vec::new();
    // One walk of the text for the positions of every game (each game's are sorted, and
    // the games come in text order).
    let mut lines = sgf::Lines::default();
    for (g, range) in games
        .iter()
        .enumerate()
        .take(if all { games.len() } else { 1 })
    {
        let record = sgf::interpret_game(&tree, text, range.start)?;
        // Problems of the file as a whole go with its first game.
        let mut problems: Vec<(Option<String>, String, usize)> = Vec::new();
        if g == 0 {
            if let Some(note) = &d.note {
                problems.push((Some("CA".into()), note.clone(), 0));
            }
            if let Some((at, message)) = &d.structure {
                problems.push((None, message.clone(), *at));
            }
            for &at in &d.replaced {
                let prop = tree.property_at(text, at).map(|p| p.id().into_owned());
                let what = prop
                    .as_deref()
                    .map_or("outside any property value".to_string(), |p| {
                        format!("in {p}")
                    });
                problems.push((
                    prop,
                    format!(
                        "bytes that are not valid {} replaced by U+FFFD {what}",
                        d.charset
                    ),
                    at,
                ));
            }
            for r in &tree.skipped {
                let shown: String = text[r.clone()].chars().take(40).collect();
                problems.push((
                    None,
                    format!("text outside the game trees ignored: {shown:?}"),
                    r.start,
                ));
            }
        }
        problems.extend(
            record
                .problems
                .iter()
                .map(|p| (p.property.clone(), p.message.clone(), p.offset)),
        );
        problems.sort_by_key(|p| p.2);
        let n = range.len();
        // The lists below grow with the number of nodes: reserved fallibly (MemoryError,
        // never an abort; the tree itself was read the same way).
        let short = |_| sgf::no_memory(text, tree.nodes[range.start].offset);
        let total = n + record.moves.len() + record.changes.len() + problems.len();
        // Every position of this game in one pass over the text.
        let mut offsets: Vec<usize> = Vec::new();
        offsets.try_reserve_exact(total).map_err(short)?;
        offsets.extend(tree.nodes[range.clone()].iter().map(|n| n.offset));
        offsets.extend(record.moves.iter().map(|m| m.offset));
        offsets.extend(record.changes.iter().map(|c| c.offset));
        offsets.extend(problems.iter().map(|p| p.2));
        let mut order: Vec<usize> = Vec::new();
        order.try_reserve_exact(total).map_err(short)?;
        order.extend(0..offsets.len());
        order.sort_by_key(|&k| offsets[k]);
        let mut places = Vec::new();
        places.try_reserve_exact(total).map_err(short)?;
        places.resize(total, (0, 0));
        for k in order {
            places[k] = lines.at(text, offsets[k]);
        }
        let (node_places, rest) = places.split_at(n);
        let (move_places, rest) = rest.split_at(record.moves.len());
        let (change_places, problem_places) = rest.split_at(record.changes.len());
        let mut nodes: Vec<NodeTuple> = Vec::new();
        nodes.try_reserve_exact(n).map_err(short)?;
        nodes.extend(
            tree.nodes[range.clone()]
                .iter()
                .enumerate()
                .zip(node_places)
                .map(|((k, node), &(line, column))| {
                    let props = tree
                        .props_of(range.start + k)
                        .iter()
                        .map(|p| {
                            (
                                p.id().into_owned(),
                                tree.values_of(p)
                                    .iter()
                                    .map(|v| sgf::unescape(v).into_owned())
                                    .collect(),
                            )
                        })
                        .collect();
                    (node.parent.map(|p| p - range.start), props, line, column)
                }),
        );
        let moves = record
            .moves
            .iter()
            .zip(move_places)
            .map(|(m, &(l, c))| (m.color as u8, m.point, l, c))
            .collect();
        let changes = record
            .changes
            .iter()
            .zip(change_places)
            .map(|(c, &(l, col))| {
                (
                    c.before,
                    l,
                    col,
                    c.black.clone(),
                    c.white.clone(),
                    c.empty.clone(),
                    c.player.map_or(0, |p| p as u8),
                )
            })
            .collect();
        let problems = problems
            .into_iter()
            .zip(problem_places)
            .map(|((p, m, _), &(l, c))| (p, m, l, c))
            .collect();
        let key = record.rules.as_deref().map(sgf::rules_key);
        let geo = record.geometry;
        out.push((
            nodes,
            (
                geo.width,
                geo.height,
                record.komi,
                record.handicap,
                record.rules,
                key,
                record.result,
                record.black,
                record.white,
                record.to_move as u8,
                moves,
            ),
            problems,
            changes,
        ));
    }
    Ok(out)
}

/// `(status, moves replayed, (number, colour, vertex, reason) of the first illegal move,
/// over, (black, white) in half points, (message, line, column) of an error, the
/// record's RE, its RU as `rules_key` normalises it)`.
type OutcomeTuple = (
    &'static str,
    usize,
    Option<(usize, u8, String, &'static str)>,
    bool,
    Option<(i32, i32)>,
    Option<(String, usize, usize)>,
    Option<String>,
    Option<String>,
);

fn outcome(o: FileOutcome) -> OutcomeTuple {
    match o {
        FileOutcome::Replayed(r) => {
            let status = if r.illegal.is_some() { "illegal" } else { "ok" };
            let illegal = r
                .illegal
                .map(|i| (i.number, i.color as u8, i.vertex, i.reason));
            (
                status,
                r.moves,
                illegal,
                r.over,
                Some((r.score.black, r.score.white)),
                None,
                r.recorded,
                r.rules_key,
            )
        }
        FileOutcome::Malformed(e) => failed("sgf_error", (e.message, e.line, e.column)),
        FileOutcome::BadSetup(m) => failed("bad_setup", (m, 0, 0)),
        FileOutcome::Unreadable(m) => failed("unreadable", (m, 0, 0)),
        FileOutcome::Deferred => ("deferred", 0, None, false, None, None, None, None),
    }
}

/// A file that was not replayed: its status and `(message, line, column)`, nothing else.
fn failed(status: &'static str, error: (String, usize, usize)) -> OutcomeTuple {
    (status, 0, None, false, None, Some(error), None, None)
}

/// Replays the first game of every file under `forced` rules, or under the rules its RU
/// names (`by_key`, keys as `rules_key` makes them) or `default`; records whose RU key is
/// in `deferred` come back as "deferred" (for the Python path); on `threads` threads
/// (0 = every core), without the GIL.
#[pyfunction]
#[pyo3(signature = (paths, forced, by_key, default, threads=0, deferred=Vec::new()))]
pub fn sgf_replay_many(
    py: Python<'_>,
    paths: Vec<std::path::PathBuf>,
    forced: Option<RulesArg>,
    by_key: Vec<(String, RulesArg)>,
    default: RulesArg,
    threads: usize,
    deferred: Vec<String>,
) -> PyResult<Vec<OutcomeTuple>> {
    let choice = RulesChoice {
        forced: forced.map(|r| r.native()).transpose()?,
        by_key: by_key
            .into_iter()
            .map(|(k, r)| Ok((k, r.native()?)))
            .collect::<PyResult<_>>()?,
        default: default.native()?,
        deferred,
    };
    let pool = crate::thread_pool(threads)?;
    let outcomes = py.detach(move || pool.install(|| sgf::replay_files(&paths, &choice)));
    Ok(outcomes.into_iter().map(outcome).collect())
}

/// The bytes of the regular SGF file `path` (the one reader: `sgf::read_file`, GIL
/// released): OSError (with errno and file name) when the system refuses it,
/// ArgumentError for what is not a regular file or is over `SGF_MAX_FILE_BYTES`.
#[pyfunction]
pub fn sgf_read_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Py<PyBytes>> {
    let shown = path.display().to_string();
    let read = {
        let path = path.clone();
        py.detach(move || sgf::read_file(&path))
    };
    match read {
        Ok(bytes) => Ok(PyBytes::new(py, &bytes).unbind()),
        Err(sgf::ReadError::Os(e)) => {
            let message = e.to_string();
            let message = message
                .split(" (os error")
                .next()
                .unwrap_or_default()
                .to_string();
            Err(match e.raw_os_error() {
                // OSError(errno, strerror, filename) is made as its subclass
                // (FileNotFoundError, PermissionError...).
                Some(n) => pyo3::exceptions::PyOSError::new_err((n, message, shown)),
                None => {
                    pyo3::exceptions::PyOSError::new_err(format!("cannot read {shown}: {message}"))
                }
            })
        }
        Err(sgf::ReadError::Refused(m)) => Err(bad_argument(format!("cannot read {shown}: {m}"))),
    }
}

/// An RU value as the SGF reader keys it (`sgf::rules_key`): lower case, runs of blanks,
/// `-` and `_` one space, no blanks at the ends. Every reader of a rules name uses it.
#[pyfunction]
pub fn sgf_rules_key(ru: &str) -> String {
    sgf::rules_key(ru)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SGF_MAX_FILE_BYTES", sgf::MAX_FILE_BYTES)?;
    m.add_function(wrap_pyfunction!(sgf_rules_key, m)?)?;
    m.add_function(wrap_pyfunction!(sgf_read_file, m)?)?;
    m.add_function(wrap_pyfunction!(sgf_read, m)?)?;
    m.add_function(wrap_pyfunction!(sgf_replay_many, m)?)?;
    Ok(())
}
