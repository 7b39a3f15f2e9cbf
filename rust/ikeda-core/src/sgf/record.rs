//! The main line of a game tree as a game: board size, komi, handicap, rules, the setup
//! before the first move, who moves first, the moves, and setup met after the first
//! move. The one place where SGF properties get their meaning for play (Python's
//! `ikeda.sgf` uses this through the native module).
//!
//! Leniency (docs/sgf.md, "Leniency"): what cannot be placed on the board (a board size,
//! a move or setup point that is not a point of it) is an error; a bad value of an
//! informational property (`KM`, `HA`, `PL`), a repeated root property, two moves in
//! one node or a point set up twice in one node is a [`Problem`], reported and read
//! the documented way.

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

/// Setup met in the main line after the first move: a node's `AB`/`AW`/`AE` (flat
/// indices) and `PL`, to apply before move number `before + 1`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetupChange {
    /// Moves of the main line played before it.
    pub before: usize,
    /// Byte offset of its node.
    pub offset: usize,
    pub black: Vec<usize>,
    pub white: Vec<usize>,
    pub empty: Vec<usize>,
    pub player: Option<Color>,
}

/// Something read the documented lenient way rather than refused: a message, the
/// property it concerns, and where (a byte offset in the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub property: Option<String>,
    pub message: String,
    pub offset: usize,
}

/// What the main line says about the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub geometry: Geometry,
    /// `KM`, a multiple of 1/2 (Fox forms normalised, see [`komi`]).
    pub komi: Option<f64>,
    /// `HA` (0 when absent or not a number of stones).
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
    /// Setup after the first move, in order.
    pub changes: Vec<SetupChange>,
    pub problems: Vec<Problem>,
}

/// A `KM` value as the komi in points, and a note when it was normalised. Fox writes komi
/// in hundredths (`KM[750]` is 7.5) and in stones of Chinese counting (`KM[375]`, 3.75
/// stones, is 7.5 points); so: a whole number of 100 or more written without a point or
/// sign is in hundredths, and a value whose
/// fraction is a quarter is in stones (doubled). `None` when it is not a number or not a
/// multiple of 1/2 after that.
#[must_use]
pub fn komi(value: &str) -> Option<(f64, Option<String>)> {
    let written = value.trim();
    let mut k: f64 = written
        .parse()
        .ok()
        .or_else(|| written.replace(',', ".").parse().ok())?;
    if !k.is_finite() {
        return None;
    }
    let mut how = Vec::new();
    // Written as a whole number, as Fox does: KGS writes a real komi of -100 as `-100.00`.
    if k >= 100.0 && written.bytes().all(|b| b.is_ascii_digit()) {
        k /= 100.0;
        how.push("in hundredths");
    }
    if (k * 4.0).fract() == 0.0 && (k * 2.0).fract() != 0.0 {
        k *= 2.0;
        how.push("in stones (Chinese counting)");
    }
    if (k * 2.0).fract() != 0.0 || k.abs() > crate::MAX_KOMI {
        return None;
    }
    let note = (!how.is_empty() || written.contains(',')).then(|| {
        format!(
            "KM[{written}] read as {} ({})",
            k + 0.0,
            if how.is_empty() {
                "decimal comma".to_string()
            } else {
                how.join(", ")
            }
        )
    });
    Some((k + 0.0, note))
}

/// A colour as `PL` gives it: `B`/`W` in any case, or the FF[3] `1` (Black) and `2`.
fn player(value: &str) -> Option<Color> {
    match value.trim() {
        "1" => Some(Color::Black),
        "2" => Some(Color::White),
        v => Color::parse(&v.to_ascii_uppercase()),
    }
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
    problems: Vec<Problem>,
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

    fn problem(&mut self, id: &str, message: String) {
        self.problems.push(Problem {
            property: Some(id.to_string()),
            message,
            offset: self.offset,
        });
    }

    /// The first value of a property (the grammar guarantees one).
    fn value(&self, p: &super::syntax::Prop<'a>) -> &'a str {
        self.tree.values_of(p).first().copied().unwrap_or("")
    }

    /// A point of a `w` x `h` board as a flat index.
    fn point(&self, geo: Geometry, id: &str, v: &str) -> Result<usize, SgfError> {
        let b = v.as_bytes();
        let (Some(x), Some(y)) = (
            b.first().and_then(|&c| coord(c)),
            b.get(1).and_then(|&c| coord(c)),
        ) else {
            return Err(self.invalid(id, v, "is not a point"));
        };
        if b.len() != 2 {
            return Err(self.invalid(id, v, "is not a point"));
        }
        if x >= usize::from(geo.width) || y >= usize::from(geo.height) {
            return Err(self.invalid(
                id,
                v,
                &format!("is off the {}x{} board", geo.width, geo.height),
            ));
        }
        Ok(y * usize::from(geo.width) + x)
    }

    /// A list of points, each `ab` or a rectangle `ab:cd`.
    fn points(
        &self,
        geo: Geometry,
        id: &str,
        values: &[&str],
        out: &mut Vec<usize>,
    ) -> Result<(), SgfError> {
        let w = usize::from(geo.width);
        for v in values {
            let Some((ul, lr)) = v.split_once(':') else {
                out.push(self.point(geo, id, v)?);
                continue;
            };
            let (a, b) = (self.point(geo, id, ul)?, self.point(geo, id, lr)?);
            let ((x0, y0), (x1, y1)) = ((a % w, a / w), (b % w, b / w));
            if x0 > x1 || y0 > y1 {
                return Err(self.invalid(
                    id,
                    v,
                    "is not a rectangle from upper left to lower right",
                ));
            }
            out.extend((y0..=y1).flat_map(|y| (x0..=x1).map(move |x| y * w + x)));
        }
        Ok(())
    }
}

/// Reads the main line of the first game of `tree` (from `text`, for error positions).
pub fn interpret(tree: &Tree<'_>, text: &str) -> Result<Record, SgfError> {
    interpret_game(tree, text, 0)
}

/// Reads the main line of the game whose root is node `root` of `tree`.
pub fn interpret_game(tree: &Tree<'_>, text: &str, root: usize) -> Result<Record, SgfError> {
    let mut r = Reader {
        text,
        tree,
        offset: tree.nodes[root].offset,
        problems: Vec::new(),
    };
    let (mut w, mut h) = (19, 19);
    let (mut komi_, mut handicap, mut rules, mut result) = (None, 0, None, None);
    let mut seen: Vec<(String, &str)> = Vec::new();
    for p in tree.props_of(root) {
        let v = r.value(p);
        let t = v.trim();
        let id = p.id();
        // A repeated game-information property: the first wins (as `Node.get` and
        // sgfmill read it). Other properties may repeat (FF[3] wrote `AB[aa]AB[bb]`).
        if !matches!(id.as_ref(), "GM" | "SZ" | "KM" | "HA" | "RU" | "RE") {
            continue;
        }
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == id) {
            if *first != v {
                r.problem(
                    &id,
                    format!(
                        "{id} is given again ({id}[{v}]); the first value, {id}[{first}], is used"
                    ),
                );
            }
            continue;
        }
        seen.push((id.to_string(), v));
        match id.as_ref() {
            "GM" if t != "1" => return Err(r.invalid("GM", v, "is not a game of Go (GM[1])")),
            "SZ" => {
                let size = match t.split_once(':') {
                    Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
                    None => t.parse().ok().map(|n| (n, n)),
                };
                (w, h) = size.ok_or_else(|| r.invalid("SZ", v, "is not a board size"))?;
            }
            "KM" => match komi(v) {
                Some((k, note)) => {
                    komi_ = Some(k);
                    if let Some(note) = note {
                        r.problem("KM", note);
                    }
                }
                None => r.problem(
                    "KM",
                    format!("KM[{v}] is not a komi (a multiple of 1/2); ignored"),
                ),
            },
            "HA" => match t.parse::<u32>().ok().or_else(|| {
                t.parse::<f64>()
                    .ok()
                    .filter(|x| x.fract() == 0.0 && (0.0..1e6).contains(x))
                    .map(|x| x as u32)
            }) {
                Some(n) => handicap = n,
                None => r.problem("HA", format!("HA[{v}] is not a number of stones; ignored")),
            },
            "RU" => rules = Some(unescape(v).into_owned()),
            "RE" => result = Some(unescape(v).into_owned()),
            _ => {}
        }
    }
    let geo = Geometry::new(w, h).map_err(|e| r.error(format!("SZ: {e}")))?;
    let mut board = vec![0u8; geo.points()];
    let (mut pl, mut moves) = (None, Vec::new());
    let mut changes: Vec<SetupChange> = Vec::new();
    let mut placed = Vec::new();
    let mut set_in = vec![0usize; geo.points()];
    for k in tree.main_line_from(root) {
        r.offset = tree.nodes[k].offset;
        let mut mv = None;
        placed.clear();
        let mut repeated = false;
        let mid_game = !moves.is_empty();
        let mut change = SetupChange {
            before: moves.len(),
            offset: r.offset,
            ..SetupChange::default()
        };
        for p in tree.props_of(k) {
            let id = p.id();
            let v = r.value(p);
            let value = match id.as_ref() {
                "B" | "W" => {
                    let color = if id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    // `tt` is a pass on boards up to 19x19 (the FF[3] convention).
                    let pass = v.is_empty() || (v == "tt" && w <= 19 && h <= 19);
                    let point = if pass {
                        None
                    } else {
                        Some(r.point(geo, &id, v)?)
                    };
                    if mv.is_some() {
                        r.problem(
                            &id,
                            format!("a second move in one node ({id}[{v}]); the first is used"),
                        );
                        continue;
                    }
                    mv = Some(RecordMove {
                        color,
                        point,
                        offset: r.offset,
                    });
                    continue;
                }
                "PL" => {
                    match player(v) {
                        Some(c) if mid_game => change.player = Some(c),
                        Some(c) => pl = Some(c),
                        None => r.problem("PL", format!("PL[{v}] is not B or W; ignored")),
                    }
                    continue;
                }
                "AB" => 1,
                "AW" => 2,
                "AE" => 0,
                _ => continue,
            };
            let before = placed.len();
            r.points(geo, &id, tree.values_of(p), &mut placed)?;
            for n in before..placed.len() {
                // `set_in[i] == k + 1`: point i was set up earlier in this node (a mark per
                // point rather than a search of `placed`, which a node repeating `AB[aa]`
                // made quadratic). Reported once per node.
                if set_in[placed[n]] == k + 1 && !repeated {
                    repeated = true;
                    r.problem(&id, format!("{id} sets up a point already set up in this node; the last setting is used"));
                }
                set_in[placed[n]] = k + 1;
                if mid_game {
                    let list = match value {
                        1 => &mut change.black,
                        2 => &mut change.white,
                        _ => &mut change.empty,
                    };
                    list.push(placed[n]);
                } else {
                    board[placed[n]] = value;
                }
            }
        }
        if mid_game
            && (change.player.is_some()
                || !change.black.is_empty()
                || !change.white.is_empty()
                || !change.empty.is_empty())
        {
            changes.push(change);
        }
        moves.extend(mv);
    }
    let at = |v: u8| {
        board
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c == v)
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    let first = moves.first().map(|m: &RecordMove| m.color);
    let to_move = pl.or(first).unwrap_or(if handicap >= 2 {
        Color::White
    } else {
        Color::Black
    });
    let problems = r.problems;
    Ok(Record {
        geometry: geo,
        komi: komi_,
        handicap,
        rules,
        result,
        black: at(1),
        white: at(2),
        to_move,
        moves,
        changes,
        problems,
    })
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
        let r = read(
            "(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]AB[cc][gg]RU[Japanese];W[ee];B[];W[tt](;B[aa])(;B[bb]))",
        )
        .unwrap();
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
        assert_eq!(
            (r.geometry.width, r.geometry.height, r.moves[0].point),
            (7, 5, Some(13))
        );
        let e = read("(;SZ[9]\n;B[jj])").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("off the 9x9 board"), "{e}");
        assert!(read("(;SZ[30])")
            .unwrap_err()
            .message
            .contains("board size"));
        assert!(read("(;SZ[0])").unwrap_err().message.contains("board size"));
        assert!(read("(;SZ[19];B[tt])").unwrap().moves[0].point.is_none());
        assert!(read("(;SZ[21];B[tt])").unwrap().moves[0].point.is_some());
        let r = read("(;KM[6.4]HA[7.5]PL[x])").unwrap();
        assert_eq!((r.komi, r.handicap), (None, 0));
        let named: Vec<_> = r
            .problems
            .iter()
            .map(|p| p.property.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(named, ["KM", "HA", "PL"]);
        let r = read("(;SZ[9];B[aa];AB[cc]PL[2];W[bb])").unwrap();
        assert_eq!(
            r.changes,
            [SetupChange {
                before: 1,
                offset: 13,
                black: vec![20],
                player: Some(Color::White),
                ..SetupChange::default()
            }]
        );
        let r = read("(;SZ[9];B[aa]W[bb])").unwrap();
        assert_eq!((r.moves.len(), r.problems.len()), (1, 1));
        assert!(read("(;GM[2];B[aa])")
            .unwrap_err()
            .message
            .contains("not a game of Go"));
        let r = read("(;SZ[5]AB[aa:bc]AW[ee])").unwrap();
        assert_eq!((r.black, r.white), (vec![0, 1, 5, 6, 10, 11], vec![24]));
        assert!(read("(;SZ[5]AB[bc:aa])").is_err());
        assert_eq!(read("(;SZ[5]AB[aa][aa])").unwrap().problems.len(), 1);
    }

    #[test]
    fn fox_komi_and_repeated_root_properties() {
        for (km, k) in [
            ("750", 7.5),
            ("650", 6.5),
            ("375", 7.5),
            ("3.75", 7.5),
            ("2.75", 5.5),
            ("6.5", 6.5),
            ("-7.5", -7.5),
            ("0", 0.0),
            ("6,5", 6.5),
        ] {
            assert_eq!(komi(km).map(|(k, _)| k), Some(k), "KM[{km}]");
        }
        assert!(komi("6.5").unwrap().1.is_none());
        assert!(komi("375").unwrap().1.unwrap().contains("stones"));
        assert_eq!(komi("6.4"), None);
        assert_eq!(komi("-100.00"), Some((-100.0, None))); // KGS: a real komi
        assert_eq!(komi("100.5").map(|(k, _)| k), Some(100.5));
        let r = read("(;KM[0.5]SZ[9]KM[7]SZ[4])").unwrap();
        assert_eq!((r.komi, r.geometry.width), (Some(0.5), 9));
        assert_eq!(r.problems.len(), 2);
        let r = read("(;PL[1];B[aa])").unwrap();
        assert_eq!(r.to_move, Color::Black);
        assert_eq!(read("(;PL[2])").unwrap().to_move, Color::White);
    }
}
