//! `ikeda._core.confirm_status`: status confirmation after Sekiguchi (ikeda-core's
//! `status` module) on a position given as cells, run without the GIL.

use ikeda_core::status::{Unresolved, MAX_PROOF_WORK};
use ikeda_core::{confirm_status, FirstMover, StatusKo, StatusOptions};
use pyo3::prelude::*;

use crate::errors::{bad_argument, geometry, status_error};

/// `(colour, stones, case, class, status, proof)` per chain.
type ChainTuple = (
    u8,
    Vec<usize>,
    &'static str,
    char,
    &'static str,
    &'static str,
);
/// `(points, states, why it is unresolved)` per searched region.
type RegionTuple = (Vec<usize>, usize, Option<String>);
/// `(chains, territory, dead, owner, regions)`.
type StatusTuple = (
    Vec<ChainTuple>,
    (u32, u32),
    (u32, u32),
    Vec<u8>,
    Vec<RegionTuple>,
);

/// Confirms every chain of a `width` x `height` position (`cells`: row-major from the top
/// left, 0 empty, 1 Black, 2 White) and counts it (STATUS.md Sections 4-6).
#[pyfunction]
#[pyo3(
    name = "confirm_status",
    signature = (width, height, cells, *, ko="simple", first="attacker", strict_dame_seki=false, prune=true, split=true, budget=ikeda_core::status::DEFAULT_BUDGET, memory=ikeda_core::status::DEFAULT_MEMORY, playouts=0, seed=0, proof_work=ikeda_core::status::DEFAULT_PROOF_WORK)
)]
#[allow(clippy::too_many_arguments)]
fn confirm_status_py(
    py: Python<'_>,
    width: i64,
    height: i64,
    cells: Vec<u8>,
    ko: &str,
    first: &str,
    strict_dame_seki: bool,
    prune: bool,
    split: bool,
    budget: usize,
    memory: usize,
    playouts: u32,
    seed: u64,
    proof_work: usize,
) -> PyResult<StatusTuple> {
    let geo = geometry(width, height)?;
    if !(1..=MAX_PROOF_WORK).contains(&proof_work) {
        return Err(bad_argument(format!(
            "proof_work must be an int in 1..{MAX_PROOF_WORK}, not {proof_work}"
        )));
    }
    let ko = match ko {
        "simple" => StatusKo::Simple,
        "koban" => StatusKo::Koban,
        _ => {
            return Err(bad_argument(format!(
                "ko_rule must be 'simple' or 'koban', not {ko:?}"
            )))
        }
    };
    let first = match first {
        "attacker" => FirstMover::Attacker,
        "defender" => FirstMover::Defender,
        _ => {
            return Err(bad_argument(format!(
                "first must be 'attacker' or 'defender', not {first:?}"
            )))
        }
    };
    // No playouts: refuse at the first region beyond the limits; otherwise estimate.
    let unresolved = if playouts == 0 {
        Unresolved::Refuse
    } else {
        Unresolved::Estimate { playouts, seed }
    };
    let opts = StatusOptions {
        ko,
        first,
        strict_dame_seki,
        prune,
        split,
        budget,
        memory,
        unresolved,
        proof_work,
    };
    let report = detached_interruptible(py, move || confirm_status(geo, &cells, &opts))?
        .map_err(|e| status_error(e, geo))?;
    Ok((
        report
            .chains
            .into_iter()
            .map(|c| {
                (
                    c.color as u8,
                    c.stones,
                    c.case.as_str(),
                    c.case.class(),
                    c.status.as_str(),
                    c.proof.as_str(),
                )
            })
            .collect(),
        (report.count.territory[0], report.count.territory[1]),
        (report.count.dead[0], report.count.dead[1]),
        report.count.owner,
        report
            .regions
            .into_iter()
            .map(|r| (r.points, r.states, r.unresolved))
            .collect(),
    ))
}

/// Runs `work` on a thread of its own while the caller waits without the GIL, looking
/// at pending signals every 50 ms (as `count_games` and `perft` do): a signal (Ctrl-C)
/// raises its exception at once. The confirmation has no stop flag, so its thread then
/// finishes in the background, within the search budget, memory and playout limits
/// (docs/security.md), and its answer is dropped.
fn detached_interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, mut rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| crate::errors::no_memory(&format!("a thread for the work ({e})")))?;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(std::time::Duration::from_millis(50));
            (rx, got)
        });
        rx = back;
        match got {
            Ok(r) => return Ok(r),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "status confirmation failed",
                ))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        py.check_signals()?;
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("STATUS_BUDGET", ikeda_core::status::DEFAULT_BUDGET)?;
    m.add("STATUS_PROOF_WORK", ikeda_core::status::DEFAULT_PROOF_WORK)?;
    m.add("STATUS_MAX_PROOF_WORK", MAX_PROOF_WORK)?;
    m.add("STATUS_MEMORY", ikeda_core::status::DEFAULT_MEMORY)?;
    m.add_function(wrap_pyfunction!(confirm_status_py, m)?)?;
    Ok(())
}
