//! The main line of a game tree as a game: board size, komi, handicap, rules, the setup
//! before the first move, who moves first, and the moves. The one place where SGF
//! properties get their meaning for play (Python's `ikeda.sgf` uses this through the
//! native module).

use super::syntax::{position, unescape, SgfError, Tree};
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

struct Reader<'t, 'a> {
    text: &'a str,
    tree: &'t Tree<'a>,
    offset: usize,
}

/// SGF point letters: `a`..`z` are 0..25, `A`..`Z` are 26..51.
fn coord(c: u8) -> Option<usize> {
    match c {
        b'a'..=b'z' => Some(usize::from(c - b'a')),
        b'A'..=b'Z' => Some(usize::from(c - b'A') + 26),
        _ => None,
    }
}

impl<'a> Reader<'_, 'a> {
    fn error(&self, msg: String) -> SgfError {
        position(self.text, self.offset, msg)
    }

    fn invalid(&self, id: &str, value: &str, why: &str) -> SgfError {
        self.error(format!("{id}[{value}] {why}"))
    }

    /// The first value of a property (the grammar guarantees one).
    fn value(&self, p: &super::syntax::Prop<'a>) -> &'a str {
        self.tree.values_of(p).first().copied().unwrap_or("")
    }

    /// A point of a `w` x `h` board as a flat index.
    fn point(&self, geo: Geometry, id: &str, v: &str) -> Result<usize, SgfError> {
        let b = v.as_bytes();
        let (Some(x), Some(y)) = (b.first().and_then(|&c| coord(c)), b.get(1).and_then(|&c| coord(c))) else {
            return Err(self.invalid(id, v, "is not a point"));
        };
        if b.len() != 2 {
            return Err(self.invalid(id, v, "is not a point"));
        }
        if x >= usize::from(geo.width) || y >= usize::from(geo.height) {
            return Err(self.invalid(id, v, &format!("is off the {}x{} board", geo.width, geo.height)));
        }
        Ok(y * usize::from(geo.width) + x)
    }

    /// A list of points, each `ab` or a rectangle `ab:cd`.
    fn points(&self, geo: Geometry, id: &str, values: &[&str], out: &mut Vec<usize>) -> Result<(), SgfError> {
        let w = usize::from(geo.width);
        for v in values {
            let Some((ul, lr)) = v.split_once(':') else {
                out.push(self.point(geo, id, v)?);
                continue;
            };
            let (a, b) = (self.point(geo, id, ul)?, self.point(geo, id, lr)?);
            let ((x0, y0), (x1, y1)) = ((a % w, a / w), (b % w, b / w));
            if x0 > x1 || y0 > y1 {
                return Err(self.invalid(id, v, "is not a rectangle from upper left to lower right"));
            }
            out.extend((y0..=y1).flat_map(|y| (x0..=x1).map(move |x| y * w + x)));
        }
        Ok(())
    }
}

/// Reads the main line of the first game of `tree` (from `text`, for error positions).
pub fn interpret(tree: &Tree<'_>, text: &str) -> Result<Record, SgfError> {
    let mut r = Reader { text, tree, offset: tree.nodes[0].offset };
    let (mut w, mut h) = (19, 19);
    let (mut komi, mut handicap, mut rules, mut result) = (None, 0, None, None);
    for p in tree.props_of(0) {
        let v = r.value(p);
        let t = v.trim();
        match p.id().as_ref() {
            "GM" if t != "1" => return Err(r.invalid("GM", v, "is not a game of Go (GM[1])")),
            "SZ" => {
                let size = match t.split_once(':') {
                    Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
                    None => t.parse().ok().map(|n| (n, n)),
                };
                (w, h) = size.ok_or_else(|| r.invalid("SZ", v, "is not a board size"))?;
            }
            "KM" => match t.parse::<f64>() {
                Ok(k) if k.is_finite() && (k * 2.0).fract() == 0.0 && k.abs() < 1e6 => komi = Some(k + 0.0),
                Ok(_) => return Err(r.invalid("KM", v, "is not a multiple of 1/2")),
                Err(_) => return Err(r.invalid("KM", v, "is not a number")),
            },
            "HA" => handicap = t.parse().map_err(|_| r.invalid("HA", v, "is not a number of stones"))?,
            "RU" => rules = Some(unescape(v).into_owned()),
            "RE" => result = Some(unescape(v).into_owned()),
            _ => {}
        }
    }
    let geo = Geometry::new(w, h).map_err(|e| r.error(format!("SZ: {e}")))?;
    let mut board = vec![0u8; geo.points()];
    let (mut pl, mut moves) = (None, Vec::new());
    let mut placed = Vec::new();
    for k in tree.main_line() {
        r.offset = tree.nodes[k].offset;
        let mut mv = None;
        placed.clear();
        for p in tree.props_of(k) {
            let id = p.id();
            let v = r.value(p);
            let value = match id.as_ref() {
                "B" | "W" => {
                    let color = if id == "B" { Color::Black } else { Color::White };
                    if mv.is_some() {
                        return Err(r.error("two moves in one node".into()));
                    }
                    // `tt` is a pass on boards up to 19x19 (the FF[3] convention).
                    let pass = v.is_empty() || (v == "tt" && w <= 19 && h <= 19);
                    let point = if pass { None } else { Some(r.point(geo, &id, v)?) };
                    mv = Some(RecordMove { color, point, offset: r.offset });
                    continue;
                }
                "PL" if moves.is_empty() => {
                    pl = Some(Color::parse(v.trim()).ok_or_else(|| r.invalid("PL", v, "is not B or W"))?);
                    continue;
                }
                "AB" => 1,
                "AW" => 2,
                "AE" => 0,
                "PL" => return Err(r.error("PL after the first move is not supported".into())),
                _ => continue,
            };
            if !moves.is_empty() {
                return Err(r.error(format!("{id} after the first move is not supported (setup only before it)")));
            }
            let before = placed.len();
            r.points(geo, &id, tree.values_of(p), &mut placed)?;
            for n in before..placed.len() {
                if placed[..n].contains(&placed[n]) {
                    return Err(r.error(format!("{id} sets up a point already set up in this node")));
                }
                board[placed[n]] = value;
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
        interpret(&parse(text).unwrap(), text)
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
        assert!(read("(;GM[2];B[aa])").unwrap_err().message.contains("not a game of Go"));
        let r = read("(;SZ[5]AB[aa:bc]AW[ee])").unwrap();
        assert_eq!((r.black, r.white), (vec![0, 1, 5, 6, 10, 11], vec![24]));
        assert!(read("(;SZ[5]AB[bc:aa])").is_err());
        assert!(read("(;SZ[5]AB[aa][aa])").is_err());
    }
}
