//! SGF text to game trees (FF[4] grammar): a strict reader that says where malformed
//! text breaks (line and column) and keeps every property as written. The tree is flat
//! (nodes, properties and values in three arrays, values borrowed from the text), so
//! reading a record allocates a few vectors rather than a string per value.
//!
//! Why not the `sgf-parse` crate (4.2), tried first: its errors carry no position; its
//! lexer folds an unescaped `]` and whatever follows up to the next `[` into one property
//! identifier (so `C[a]b];B[aa]` is accepted and the move silently lost); it normalises
//! values (`SZ[9]` comes back as `9:9`, point lists as unordered sets); and it allocates
//! a string per token, which made it 110 of the 230 µs a 9x9 record took to replay in
//! bulk (see docs/sgf.md).

use std::borrow::Cow;
use std::ops::Range;

/// Malformed SGF, with the 1-based line and column (in characters) where it goes wrong;
/// or (`no_memory`) a record whose tree memory cannot hold, with where the reading
/// stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub no_memory: bool,
}

impl std::fmt::Display for SgfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for SgfError {}

/// The error `message` at byte `offset` of `text`.
#[must_use]
pub fn position(text: &str, offset: usize, message: String) -> SgfError {
    let (line, column) = line_columns(text, [offset])[0];
    SgfError {
        message,
        line,
        column,
        no_memory: false,
    }
}

/// The tree of `text` (or what is made of it) outgrew memory at byte `offset` (the tree
/// takes up to 40 bytes per byte of text: a node per `;`).
#[must_use]
pub fn no_memory(text: &str, offset: usize) -> SgfError {
    let message = format!(
        "not enough memory for the game tree of {} bytes of SGF",
        text.len()
    );
    SgfError {
        no_memory: true,
        ..position(text, offset, message)
    }
}

/// Room for one more element of the tree, fallibly (see [`no_memory`]).
#[inline]
fn room<T>(v: &mut Vec<T>, text: &str, offset: usize) -> Result<(), SgfError> {
    crate::memory::room_for_one(v).map_err(|_| no_memory(text, offset))
}

/// Line and column of each of the increasing byte `offsets` of `text`, in one pass (see
/// [`Lines`]).
#[must_use]
pub fn line_columns(text: &str, offsets: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    let mut lines = Lines::default();
    offsets.into_iter().map(|o| lines.at(text, o)).collect()
}

/// Lines and columns of byte offsets of one text, asked in increasing order: the column
/// is counted as the text is walked, never recounted from the line's start, so a record
/// written on one line costs linear time however many positions are asked; and one
/// `Lines` serves every game of a collection in turn (a count from the start for each
/// game made `read_all` quadratic). An offset behind the last one asked starts again
/// from the top.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    line: usize,
    /// The characters between the start of `line` and byte `at`.
    column: usize,
    at: usize,
}

impl Lines {
    /// The 1-based line and column of byte `offset` of `text` (of the character that
    /// holds it).
    pub fn at(&mut self, text: &str, offset: usize) -> (usize, usize) {
        let b = text.as_bytes();
        let mut o = offset.min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        if o < self.at || self.line == 0 {
            (self.line, self.column, self.at) = (1, 0, 0);
        }
        while self.at < o {
            match b[self.at] {
                b'\n' => (self.line, self.column) = (self.line + 1, 0),
                c if c & 0xC0 != 0x80 => self.column += 1,
                _ => {}
            }
            self.at += 1;
        }
        (self.line, self.column + 1)
    }
}

/// A node: where its `;` is, its parent (by index), its properties (a range of
/// [`Tree::props`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub offset: usize,
    pub parent: Option<usize>,
    pub props: Range<usize>,
}

/// A property: its identifier as written and its values (a range of [`Tree::values`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prop<'a> {
    pub ident: &'a str,
    pub values: Range<usize>,
}

impl Prop<'_> {
    /// The FF[4] identifier: FF[3] lower-case letters dropped (`CoPyright` is `CP`).
    #[must_use]
    pub fn id(&self) -> Cow<'_, str> {
        if self.ident.bytes().all(|b| b.is_ascii_uppercase()) {
            Cow::Borrowed(self.ident)
        } else {
            Cow::Owned(
                self.ident
                    .chars()
                    .filter(char::is_ascii_uppercase)
                    .collect(),
            )
        }
    }

    /// Whether the identifier is `id` (without allocating).
    #[must_use]
    pub fn is(&self, id: &str) -> bool {
        self.ident
            .bytes()
            .filter(u8::is_ascii_uppercase)
            .eq(id.bytes())
    }
}

/// Every node of a collection in document order (the depth-first order of its trees),
/// values borrowed from the text, still escaped (see [`unescape`]).
#[derive(Clone, Debug, Default)]
pub struct Tree<'a> {
    pub nodes: Vec<Node>,
    pub props: Vec<Prop<'a>>,
    pub values: Vec<&'a str>,
    /// Byte ranges of text outside every game tree that is not blank (a mail header
    /// before the first `(`, junk after the last `)`): skipped, kept for reporting.
    pub skipped: Vec<Range<usize>>,
}

impl<'a> Tree<'a> {
    /// The properties of node `k`.
    #[must_use]
    pub fn props_of(&self, k: usize) -> &[Prop<'a>] {
        &self.props[self.nodes[k].props.clone()]
    }

    /// The raw values of a property.
    #[must_use]
    pub fn values_of(&self, p: &Prop<'a>) -> &[&'a str] {
        &self.values[p.values.clone()]
    }

    /// The nodes of the first game's main line: the root, then each first child.
    #[must_use]
    pub fn main_line(&self) -> Vec<usize> {
        let mut line = vec![0];
        let mut k = 0;
        while k + 1 < self.nodes.len() && self.nodes[k + 1].parent == Some(k) {
            k += 1;
            line.push(k);
        }
        line
    }

    /// The number of nodes of the first game.
    #[must_use]
    pub fn first_game_len(&self) -> usize {
        self.nodes
            .iter()
            .skip(1)
            .position(|n| n.parent.is_none())
            .map_or(self.nodes.len(), |k| k + 1)
    }

    /// The node ranges of the games of the collection, in order.
    #[must_use]
    pub fn games(&self) -> Vec<Range<usize>> {
        let mut starts: Vec<usize> = (0..self.nodes.len())
            .filter(|&k| self.nodes[k].parent.is_none())
            .collect();
        starts.push(self.nodes.len());
        starts.windows(2).map(|w| w[0]..w[1]).collect()
    }

    /// The nodes of the main line of the game whose root is node `root`.
    #[must_use]
    pub fn main_line_from(&self, root: usize) -> Vec<usize> {
        let mut line = vec![root];
        let mut k = root;
        while k + 1 < self.nodes.len() && self.nodes[k + 1].parent == Some(k) {
            k += 1;
            line.push(k);
        }
        line
    }

    /// The property whose values hold byte `offset` of `text` (values are slices of
    /// it), if any.
    #[must_use]
    pub fn property_at(&self, text: &str, offset: usize) -> Option<&Prop<'a>> {
        let start = |v: &&str| (v.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        let k = self
            .values
            .partition_point(|v| start(v) <= offset)
            .checked_sub(1)?;
        if offset > start(&self.values[k]) + self.values[k].len() {
            return None;
        }
        let p = self.props.partition_point(|p| p.values.end <= k);
        self.props.get(p).filter(|p| p.values.contains(&k))
    }
}

/// A value with its escapes resolved: `\x` is `x`, and a soft line break (`\` before a
/// newline) disappears.
#[must_use]
pub fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let mut v = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            v.push(c);
            continue;
        }
        match chars.next() {
            Some('\r') => {
                chars.next_if_eq(&'\n');
            }
            Some('\n') => {
                chars.next_if_eq(&'\r');
            }
            Some(e) => v.push(e),
            None => {}
        }
    }
    Cow::Owned(v)
}

/// The index after the `]` closing the value that opens at `b[i]`.
fn skip_value(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b']' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Reads a collection, or finds the first place where `text` stops being SGF.
pub fn parse(text: &str) -> Result<Tree<'_>, SgfError> {
    let b = text.as_bytes();
    let err = |at: usize, msg: String| Err(position(text, at, msg));
    let skip_ws = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut tree = Tree::default();
    // The last node of each open game tree (the parent of what follows), innermost last.
    let mut open: Vec<Option<usize>> = Vec::new();
    let (mut i, mut trees, mut in_node) = (0, 0, false);
    while i < b.len() {
        if open.is_empty()
            && !b[i].is_ascii_whitespace()
            && !(b[i] == b'(' && b.get(skip_ws(i + 1)) == Some(&b';'))
        {
            // Outside every game tree: a mail header, a note, junk after the last `)`.
            // Skipped up to the next `(;`, as sgfmill and GNU Go do.
            let start = i;
            i += 1;
            while i < b.len() && !(b[i] == b'(' && b.get(skip_ws(i + 1)) == Some(&b';')) {
                i += 1;
            }
            let end = text[start..i].trim_end().len() + start;
            room(&mut tree.skipped, text, start)?;
            tree.skipped.push(start..end);
            continue;
        }
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                let j = skip_ws(i + 1);
                if b.get(j) != Some(&b';') {
                    return err(
                        j,
                        "a game tree must begin with a node (';' expected)".into(),
                    );
                }
                // A variation hangs from the last node of the enclosing sequence.
                room(&mut open, text, i)?;
                open.push(open.last().copied().flatten());
                in_node = false;
                i += 1;
            }
            b')' => {
                if open.pop().is_none() {
                    return err(i, "')' closes no game tree".into());
                }
                trees += usize::from(open.is_empty());
                in_node = false;
                i += 1;
            }
            b';' => {
                let Some(last) = open.last_mut() else {
                    return err(i, "';' outside a game tree".into());
                };
                let k = tree.nodes.len();
                room(&mut tree.nodes, text, i)?;
                tree.nodes.push(Node {
                    offset: i,
                    parent: *last,
                    props: tree.props.len()..tree.props.len(),
                });
                *last = Some(k);
                in_node = true;
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let name = &text[start..i];
                if !in_node {
                    return err(
                        start,
                        format!("property {name} outside a node (';' missing?)"),
                    );
                }
                // Blanks between the identifier and its value are accepted (sgfmill and
                // GNU Go read them; old files have `AW\n[aa]`).
                i = skip_ws(i);
                if b.get(i) != Some(&b'[') {
                    return err(i, format!("property {name} has no value ('[' expected; an unescaped ']' in a value?)"));
                }
                if !name.bytes().any(|c| c.is_ascii_uppercase()) {
                    return err(
                        start,
                        format!("property identifier {name} has no capital letter"),
                    );
                }
                let first = tree.values.len();
                while b.get(i) == Some(&b'[') {
                    let Some(j) = skip_value(b, i) else {
                        return err(i, format!("value of {name} is never closed (']' missing)"));
                    };
                    room(&mut tree.values, text, i)?;
                    tree.values.push(&text[i + 1..j - 1]);
                    i = skip_ws(j);
                }
                room(&mut tree.props, text, start)?;
                tree.props.push(Prop {
                    ident: name,
                    values: first..tree.values.len(),
                });
                if let Some(n) = tree.nodes.last_mut() {
                    n.props.end = tree.props.len();
                }
            }
            c => {
                let shown = text[i..].chars().next().unwrap_or(c as char);
                return err(i, format!("unexpected {shown:?}"));
            }
        }
    }
    if !open.is_empty() {
        return err(
            b.len(),
            format!(
                "the text ends inside a game tree ({} ')' missing)",
                open.len()
            ),
        );
    }
    if trees == 0 {
        return err(0, "no game tree ('(;' expected)".into());
    }
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (usize, usize) {
        let e = parse(text)
            .err()
            .unwrap_or_else(|| panic!("accepted {text:?}"));
        (e.line, e.column)
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(error("(;GM[1]\nC[a]b]\n;B[aa])"), (2, 6)); // unescaped ]
        assert_eq!(error("(;GM[1]SZ[9]\n(B[aa]))"), (2, 2)); // missing ;
        assert_eq!(error("(;B[aa](B[aa]))"), (1, 9));
        assert_eq!(error("(;GM[1]\n;B[aa]"), (2, 7)); // missing )
        assert_eq!(error("(;C[never closed)"), (1, 4));
        assert_eq!(error("(;B[aa](;W[bb])W[cc])"), (1, 16)); // property after a variation
        assert_eq!(error("(;b[aa])"), (1, 3));
        assert_eq!(error("  "), (1, 1));
        assert_eq!(error("(B[aa])"), (1, 1)); // junk only: no game tree
    }

    #[test]
    fn text_outside_game_trees_is_skipped() {
        let text = "From: someone\nSubject: (a game)\n\n(;SZ[9]AW \n [aa];B[bb])\n-- \nsig (x)";
        let t = parse(text).unwrap();
        assert_eq!(t.nodes.len(), 2);
        let skipped: Vec<_> = t.skipped.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(
            skipped,
            ["From: someone\nSubject: (a game)", "-- \nsig (x)"]
        );
        assert_eq!(t.values_of(&t.props[1]), ["aa"]);
        let t = parse("(CA[UTF-8])(;FF[4])(;B[aa])").unwrap();
        assert_eq!(t.games(), [0..1, 1..2]);
    }

    #[test]
    fn positions_on_one_long_line_are_linear_and_exact() {
        let text = "(;C[é]".to_string() + &";B[aa]".repeat(50_000) + ")";
        let offsets: Vec<usize> = (0..50_000).map(|k| 7 + 6 * k).collect();
        let places = line_columns(&text, offsets.iter().copied());
        assert_eq!(places[0], (1, 7));
        assert_eq!(places[49_999], (1, 7 + 6 * 49_999));
        let t = parse("(;PB[ab]C[xyz])").unwrap();
        let text = "(;PB[ab]C[xyz])";
        assert_eq!(t.property_at(text, 11).map(|p| p.ident), Some("C"));
        assert_eq!(t.property_at(text, 5).map(|p| p.ident), Some("PB"));
        assert!(t.property_at(text, 1).is_none());
    }

    #[test]
    fn nodes_and_properties() {
        let text =
            "(;GM[1]SZ[9]C[a \\] b]AB[cc][aa]CoPyright[x\\]y];B[ee](;W[ff])\n(;W[gg]))(;B[aa])";
        let t = parse(text).unwrap();
        assert_eq!(t.nodes.len(), 5);
        assert_eq!(t.first_game_len(), 4);
        let parents: Vec<_> = t.nodes.iter().map(|n| n.parent).collect();
        assert_eq!(parents, [None, Some(0), Some(1), Some(1), None]);
        assert_eq!(t.main_line(), [0, 1, 2]);
        assert_eq!(&text[t.nodes[3].offset..t.nodes[3].offset + 6], ";W[gg]");
        let props: Vec<_> = t
            .props_of(0)
            .iter()
            .map(|p| {
                (
                    p.id().into_owned(),
                    t.values_of(p)
                        .iter()
                        .map(|v| unescape(v).into_owned())
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(props[2], ("C".to_string(), vec!["a ] b".to_string()]));
        assert_eq!(
            props[3],
            ("AB".to_string(), vec!["cc".to_string(), "aa".to_string()])
        );
        assert_eq!(props[4], ("CP".to_string(), vec!["x]y".to_string()]));
        assert_eq!(unescape("soft\\\nbreak"), "softbreak");
    }
}
