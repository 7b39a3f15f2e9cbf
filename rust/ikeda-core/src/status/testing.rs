//! Test helpers of status/: positions from diagrams, and a confirmation read back as
//! diagrams.

use crate::geometry::Geometry;
use crate::status::count::confirm::confirm_status;
use crate::status::options::StatusOptions;
use crate::status::report::{Status, StatusReport};

/// Rows top first, `X` `O` `.` → the geometry and the cells (1 black, 2 white, 0 empty).
pub(crate) fn diagram(rows: &[&str]) -> (Geometry, Vec<u8>) {
    let geo = Geometry::new(rows[0].len(), rows.len()).unwrap();
    let cells = rows
        .iter()
        .flat_map(|r| r.bytes())
        .map(|b| match b {
            b'X' => 1,
            b'O' => 2,
            _ => 0,
        })
        .collect();
    (geo, cells)
}

/// Rows top first, `X` `O` `.` → (status rows, class rows).
pub(crate) fn confirm(
    rows: &[&str],
    opts: &StatusOptions,
) -> (Vec<String>, Vec<String>, StatusReport) {
    let (geo, cells) = diagram(rows);
    let report = match confirm_status(geo, &cells, opts) {
        Ok(r) => r,
        Err(e) => panic!("{e:?}"),
    };
    let mut status = vec![b'.'; cells.len()];
    let mut class = vec![b'.'; cells.len()];
    for ch in &report.chains {
        for &p in &ch.stones {
            status[p] = match ch.status {
                Status::Alive => b'a',
                Status::Seki => b's',
                Status::Dead => b'd',
            };
            class[p] = ch.case.class() as u8;
        }
    }
    let w = geo.width as usize;
    let rows = |v: Vec<u8>| {
        v.chunks(w)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect()
    };
    (rows(status), rows(class), report)
}
