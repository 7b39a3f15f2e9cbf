//! The main line of a game tree as a game: board size, komi, handicap, rules, the setup
//! before the first move, who moves first, and the moves. The one place where SGF
//! properties get their meaning for play (Python's `ikeda.sgf` uses this through the
//! native module).

use sgf_parse::{go, SgfNode, SgfProp};

use super::syntax::{position, Parsed, SgfError};
use crate::color::Color;
use crate::geometry::Geometry;

/// A move of the main line: flat index, `None` for a pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub color: Color,
    pub point: Option<usize>,
    /// Byte offset of its node in the text.
    pub offset: usize,
}

/// What the main line says about the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub geometry: Geometry,
    /// `KM`, a multiple of 1/2.
    pub komi: Option<f64>,
    /// `HA` (0 when absent).
    pub handicap: u32,
    /// `RU` as written.
    pub rules: Option<String>,
    /// `RE` as written.
    pub result: Option<String>,
    /// The stones set up before the first move (flat indices).
    pub black: Vec<usize>,
    pub white: Vec<usize>,
    /// Who moves first: `PL`, else the colour of the first move, else White after a
    /// handicap and Black otherwise.
    pub to_move: Color,
    pub moves: Vec<RecordMove>,
}

/// The key under which `RU` values are looked up: trimmed, lower case, inner runs of
/// spaces, `-` and `_` as one space.
#[must_use]
pub fn rules_key(ru: &str) -> String {
    ru.split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

struct Reader<'a> {
    text: &'a str,
    offset: usize,
}

impl Reader<'_> {
    fn error(&self, msg: String) -> SgfError {
        position(self.text, self.offset, msg)
    }

    fn invalid(&self, id: &str, values: &[String]) -> SgfError {
        self.error(format!("{id}[{}] is not a valid value", values.join("][")))
    }

    fn point(&self, geo: Geometry, p: go::Point, what: &str) -> Result<usize, SgfError> {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        if x >= usize::from(geo.width) || y >= usize::from(geo.height) {
            let coord = format!("{}{}", sgf_letter(p.x), sgf_letter(p.y));
            return Err(self.error(format!("{what}[{coord}] is off the {}x{} board", geo.width, geo.height)));
        }
        Ok(y * usize::from(geo.width) + x)
    }
}

fn sgf_letter(v: u8) -> char {
    if v < 26 {
        char::from(b'a' + v)
    } else {
        char::from(b'A' + v - 26)
    }
}

fn main_line(root: &SgfNode<go::Prop>) -> Vec<&SgfNode<go::Prop>> {
    let mut line = vec![root];
    while let Some(next) = line[line.len() - 1].children().next() {
        line.push(next);
    }
    line
}

/// Reads the main line of `tree` (from `text`, for error positions).
pub fn interpret(tree: &Parsed, text: &str) -> Result<Record, SgfError> {
    let line = main_line(&tree.root);
    let offset = |depth: usize| tree.nodes.get(depth).map_or(0, |n| n.offset);
    let mut r = Reader { text, offset: offset(0) };
    let (mut w, mut h) = (19, 19);
    let (mut komi, mut handicap, mut rules, mut result) = (None, 0, None, None);
    for p in tree.root.properties() {
        match p {
            go::Prop::SZ((a, b)) => (w, h) = (usize::from(*a), usize::from(*b)),
            go::Prop::KM(k) if (k * 2.0).fract() == 0.0 && k.abs() < 1e6 => komi = Some(*k),
            go::Prop::HA(n) => handicap = u32::try_from(*n).map_err(|_| r.error(format!("HA[{n}] is not a handicap")))?,
            go::Prop::RU(t) => rules = Some(t.text.clone()),
            go::Prop::RE(t) => result = Some(t.text.clone()),
            go::Prop::KM(k) => return Err(r.error(format!("KM[{k}] is not a multiple of 1/2"))),
            go::Prop::Invalid(id, v) if id == "HA" && matches!(v.as_slice(), [s] if matches!(s.trim(), "0" | "1")) => {}
            go::Prop::Invalid(id, v) if matches!(id.as_str(), "SZ" | "KM" | "HA") => return Err(r.invalid(id, v)),
            _ => {}
        }
    }
    let geo = Geometry::new(w, h).map_err(|e| r.error(format!("SZ: {e}")))?;
    let mut board = vec![0u8; geo.points()];
    let (mut pl, mut moves) = (None, Vec::new());
    for (depth, node) in line.iter().enumerate() {
        r.offset = offset(depth);
        let mut mv = None;
        let mut placed = Vec::new();
        for p in node.properties() {
            let (points, value) = match p {
                go::Prop::AB(s) => (s, 1),
                go::Prop::AW(s) => (s, 2),
                go::Prop::AE(s) => (s, 0),
                go::Prop::PL(c) if moves.is_empty() => {
                    pl = Some(if *c == sgf_parse::Color::Black { Color::Black } else { Color::White });
                    continue;
                }
                go::Prop::B(m) | go::Prop::W(m) => {
                    let color = if matches!(p, go::Prop::B(_)) { Color::Black } else { Color::White };
                    if mv.is_some() {
                        return Err(r.error("two moves in one node".into()));
                    }
                    mv = Some(match m {
                        go::Move::Pass => RecordMove { color, point: None, offset: r.offset },
                        // `tt` is a pass on boards up to 19x19 (FF[3] convention).
                        go::Move::Move(pt) if pt.x == 19 && pt.y == 19 && w <= 19 && h <= 19 => RecordMove { color, point: None, offset: r.offset },
                        go::Move::Move(pt) => RecordMove { color, point: Some(r.point(geo, *pt, &color.letter().to_string())?), offset: r.offset },
                    });
                    continue;
                }
                go::Prop::Invalid(id, v) if matches!(id.as_str(), "B" | "W" | "AB" | "AW" | "AE" | "PL") => return Err(r.invalid(id, v)),
                go::Prop::PL(_) => return Err(r.error("PL after the first move is not supported".into())),
                _ => continue,
            };
            if !moves.is_empty() {
                return Err(r.error(format!("{} after the first move is not supported (setup only before it)", p.identifier())));
            }
            for &pt in points {
                let i = r.point(geo, pt, &p.identifier())?;
                if placed.contains(&i) {
                    return Err(r.error(format!("{} sets up a point already set up in this node", p.identifier())));
                }
                placed.push(i);
                board[i] = value;
            }
        }
        moves.extend(mv);
    }
    let at = |v: u8| board.iter().enumerate().filter(|&(_, &c)| c == v).map(|(i, _)| i).collect::<Vec<_>>();
    let first = moves.first().map(|m: &RecordMove| m.color);
    let to_move = pl.or(first).unwrap_or(if handicap >= 2 { Color::White } else { Color::Black });
    Ok(Record { geometry: geo, komi, handicap, rules, result, black: at(1), white: at(2), to_move, moves })
}

#[cfg(test)]
mod tests {
    use super::super::syntax::parse;
    use super::*;

    fn read(text: &str) -> Result<Record, SgfError> {
        interpret(&parse(text).unwrap()[0], text)
    }

    #[test]
    fn main_line_setup_and_passes() {
        let r = read("(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]AB[cc][gg]RU[Japanese];W[ee];B[];W[tt](;B[aa])(;B[bb]))").unwrap();
        assert_eq!((r.geometry.width, r.komi, r.handicap), (9, Some(6.5), 2));
        assert_eq!(r.black, vec![2 * 9 + 2, 6 * 9 + 6]);
        assert_eq!(r.to_move, Color::White);
        let pts: Vec<_> = r.moves.iter().map(|m| m.point).collect();
        assert_eq!(pts, [Some(40), None, None, Some(0)]);
        assert_eq!(rules_key(" Tromp_Taylor "), "tromp taylor");
    }

    #[test]
    fn sizes_and_bad_values() {
        let r = read("(;SZ[7:5];B[gb])").unwrap();
        assert_eq!((r.geometry.width, r.geometry.height, r.moves[0].point), (7, 5, Some(13)));
        let e = read("(;SZ[9]\n;B[jj])").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("off the 9x9 board"), "{e}");
        assert!(read("(;SZ[30])").unwrap_err().message.contains("board size"));
        assert!(read("(;SZ[0])").unwrap_err().message.contains("board size"));
        assert!(read("(;SZ[19];B[tt])").unwrap().moves[0].point.is_none());
        assert!(read("(;SZ[21];B[tt])").unwrap().moves[0].point.is_some());
        assert!(read("(;KM[6.4])").is_err());
        assert!(read("(;SZ[9];B[aa];AB[cc])").is_err());
        assert!(read("(;SZ[9];B[aa]W[bb])").is_err());
    }
}
