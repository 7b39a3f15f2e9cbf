//! The one place where errors become Python exceptions: the core's error values and the
//! glue's own argument checks. The classes are defined in `ikeda/errors.py` and imported
//! here, so Python and Rust raise the same types.

use ikeda_core::{
    Color, CoordError, CountError, Geometry, Refusal, SetupError, StatusError, StepError,
};
use pyo3::prelude::*;

pyo3::import_exception!(ikeda.errors, IkedaError);
pyo3::import_exception!(ikeda.errors, ArgumentError);
pyo3::import_exception!(ikeda.errors, InvalidMoveError);
pyo3::import_exception!(ikeda.errors, IllegalMoveError);
pyo3::import_exception!(ikeda.errors, InvalidPositionError);
pyo3::import_exception!(ikeda.errors, SgfError);
pyo3::import_exception!(ikeda.errors, StatusBudgetError);
pyo3::import_exception!(ikeda.errors, CountBudgetError);

/// A move that could not be read; `number` is the 1-based number it would have had in
/// the record of the board it was played on.
pub fn invalid_move(err: &CoordError, mv: &Bound<'_, PyAny>, number: Option<usize>) -> PyErr {
    let shown = mv
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let at = number.map_or_else(String::new, |n| format!(" (move {n})"));
    InvalidMoveError::new_err((
        format!("invalid move {shown}: {err}{at}"),
        mv.clone().unbind(),
    ))
}

/// A move given as something that is neither a vertex, "pass" nor an int.
pub fn move_type(mv: &Bound<'_, PyAny>, number: Option<usize>) -> PyErr {
    let shown = mv
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let at = number.map_or_else(String::new, |n| format!(" (move {n})"));
    InvalidMoveError::new_err((
        format!("invalid move {shown}: a move is a GTP vertex, \"pass\" or a flat index{at}"),
        mv.clone().unbind(),
    ))
}

/// A string no vertex can be read from because Python cannot encode it (a lone
/// surrogate).
pub fn unencodable_move(mv: &Bound<'_, PyAny>, number: Option<usize>) -> PyErr {
    let shown = mv
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let at = number.map_or_else(String::new, |n| format!(" (move {n})"));
    InvalidMoveError::new_err((
        format!("invalid move {shown}: not a GTP vertex{at}"),
        mv.clone().unbind(),
    ))
}

/// Stones (setup, dead marks) given as something other than a list of moves.
pub fn not_a_move_list(moves: &Bound<'_, PyAny>) -> PyErr {
    let shown = moves
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    InvalidPositionError::new_err(format!(
        "stones must be given as a list of moves, not {shown}"
    ))
}

/// A flat index past the pass.
pub fn index_off_board(index: usize) -> PyErr {
    InvalidMoveError::new_err((format!("flat index {index} is off the board"), index))
}

/// A colour code that is not 1 (Black) or 2 (White): InvalidPositionError, as the
/// Python layer raises for a colour name it cannot read (a colour names a side of the
/// position: a stone's, the side to move).
pub fn bad_color(color: u8) -> PyErr {
    InvalidPositionError::new_err(format!(
        "colour must be 1 (Black) or 2 (White), not {color}"
    ))
}

/// An undo with no move (and no resignation) to take back.
pub fn no_move_to_undo() -> PyErr {
    IkedaError::new_err("there is no move to undo")
}

/// A move the rules forbid: `mv` as given (named `vertex` unless given as a vertex),
/// played by `color` as the board's move `number`.
pub fn illegal_move(
    reason: Refusal,
    mv: &Bound<'_, PyAny>,
    vertex: &str,
    color: Color,
    number: usize,
) -> PyErr {
    let name = mv
        .extract::<String>()
        .unwrap_or_else(|_| vertex.to_string());
    let letter = if color == Color::Black { "B" } else { "W" };
    IllegalMoveError::new_err((
        format!("illegal move {name} by {letter} at move {number}: {reason}"),
        reason.as_str(),
        mv.clone().unbind(),
        number,
    ))
}

/// A batch step refused for its first offending game.
pub fn step_error(py: Python<'_>, err: StepError, geo: Geometry) -> PyErr {
    match err {
        StepError::OutOfRange { game, action } => InvalidMoveError::new_err((
            format!(
                "game {game}: action {action} is not a flat index in 0..={} (pass = {})",
                geo.points(),
                geo.points()
            ),
            action,
            game,
        )),
        StepError::Illegal {
            game,
            action,
            reason,
        } => {
            let vertex = geo.vertex_name(action);
            IllegalMoveError::new_err((
                format!("game {game}: illegal move {vertex} (action {action}): {reason}"),
                reason.as_str(),
                vertex,
                py.None(),
                game,
            ))
        }
        StepError::NoMemory { game } => no_memory(&format!("game {game}'s history")),
    }
}

/// A batch step given the wrong number of actions.
pub fn action_count(py: Python<'_>, expected: usize, got: usize) -> PyErr {
    InvalidMoveError::new_err((format!("expected {expected} actions, got {got}"), py.None()))
}

/// A board size or setup that cannot exist.
pub fn invalid_position(err: &SetupError, name: impl Fn(usize) -> String) -> PyErr {
    let msg = match err {
        SetupError::Coord(e) => e.to_string(),
        SetupError::Repeated(i) => format!("setup gives the point {} twice", name(*i)),
        SetupError::NoLiberty(i) => format!("setup chain at {} has no liberty", name(*i)),
    };
    InvalidPositionError::new_err(msg)
}

/// A setup stone given as a pass.
pub fn setup_pass() -> PyErr {
    InvalidPositionError::new_err("a setup stone cannot be a pass")
}

/// A dead-stone mark on an empty point.
pub fn dead_on_empty(vertex: &str) -> PyErr {
    InvalidPositionError::new_err(format!("dead stone {vertex} is an empty point"))
}

/// The geometry of a `width` x `height` board, or InvalidPositionError.
pub fn geometry(width: i64, height: i64) -> PyResult<Geometry> {
    let side = |n: i64| usize::try_from(n).unwrap_or(0);
    Geometry::new(side(width), side(height)).map_err(|_| {
        InvalidPositionError::new_err(format!(
            "board size {width}x{height} is not within 1..=25 each way"
        ))
    })
}

/// Status confirmation refused a position: cells that do not form one, or a region
/// beyond the search (its points named, the first twelve shown).
pub fn status_error(err: StatusError, geo: Geometry) -> PyErr {
    match err {
        StatusError::Setup(e) => invalid_position(&e, |i| geo.vertex_name(i)),
        StatusError::Cells(why) => InvalidPositionError::new_err(why),
        StatusError::Budget { region, reason } => {
            let names: Vec<String> = region.iter().map(|&p| geo.vertex_name(p)).collect();
            let shown = if names.len() > 12 {
                format!("{} ... ({} points)", names[..12].join(" "), names.len())
            } else {
                names.join(" ")
            };
            StatusBudgetError::new_err((format!("status confirmation refused: the region {shown} is beyond the search ({reason})"), names, reason))
        }
    }
}

/// Malformed SGF, with its line and column; MemoryError for a tree memory cannot hold.
pub fn sgf_error(err: &ikeda_core::sgf::SgfError) -> PyErr {
    if err.no_memory {
        return pyo3::exceptions::PyMemoryError::new_err(err.to_string());
    }
    SgfError::new_err((err.to_string(), err.line, err.column))
}

/// An argument outside what the call accepts (a count, a bound, a name).
pub fn bad_argument(message: impl Into<String>) -> PyErr {
    ArgumentError::new_err(message.into())
}

/// MemoryError for an allocation sized by input that could not be made (never an abort).
pub fn no_memory(what: &str) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(format!("not enough memory for {what}"))
}

/// `len` copies of `value` (`None`: the size overflowed), or MemoryError naming `what`.
pub fn filled<T: Clone>(len: Option<usize>, value: T, what: &str) -> PyResult<Vec<T>> {
    let len = len.ok_or_else(|| no_memory(what))?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| no_memory(what))?;
    v.resize(len, value);
    Ok(v)
}

/// A game count that was refused or did not finish (a stop is the caller's: it raises the
/// pending signal's exception instead).
pub fn count_error(err: CountError) -> PyErr {
    match err {
        CountError::Endless | CountError::TooLarge { .. } => {
            ArgumentError::new_err(err.to_string())
        }
        CountError::Budget { nodes } => CountBudgetError::new_err((err.to_string(), nodes)),
        CountError::NoMemory => pyo3::exceptions::PyMemoryError::new_err(err.to_string()),
        CountError::Stopped => pyo3::exceptions::PyKeyboardInterrupt::new_err(err.to_string()),
    }
}
