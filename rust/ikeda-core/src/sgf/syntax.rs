//! SGF text to game trees. A strict scan of the text checks the grammar, says where
//! it breaks (line and column) and keeps every property exactly as written; the
//! `sgf-parse` crate then builds the tree and its typed values (points, moves, sizes).
//!
//! Why both: sgf-parse 4.2 reports what went wrong but not where, folds an unescaped
//! `]` and whatever follows up to the next `[` into one property identifier (so
//! `C[a]b];B[aa]` silently loses the move), and normalises values (`SZ[9]` comes back
//! as `9:9`, point lists as unordered sets).

use sgf_parse::{go, SgfNode, SgfProp};

/// Malformed SGF, with the 1-based line and column (in characters) where it goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for SgfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SgfError {}

/// The error `message` at byte `offset` of `text`.
#[must_use]
pub fn position(text: &str, offset: usize, message: String) -> SgfError {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    SgfError { message, line, column }
}

/// One game tree: the crate's typed nodes, and for every node in document order (the
/// depth-first order of the tree) the byte offset of its `;` and its properties as
/// written (identifier, unescaped values).
pub struct Parsed {
    pub root: SgfNode<go::Prop>,
    pub nodes: Vec<Scanned>,
}

/// A node as the scan saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scanned {
    pub offset: usize,
    pub properties: Vec<(String, Vec<String>)>,
}

/// Every game tree in `text`.
pub fn parse(text: &str) -> Result<Vec<Parsed>, SgfError> {
    let mut scanned = scan(text)?.into_iter();
    let trees = sgf_parse::parse(text).map_err(|e| position(text, 0, e.to_string()))?;
    let mut out = Vec::with_capacity(trees.len());
    for tree in trees {
        let nodes: Vec<Scanned> = scanned.by_ref().take(count_nodes(&tree)).collect();
        let at = nodes.first().map_or(0, |n| n.offset);
        let root = tree
            .into_go_node()
            .map_err(|_| position(text, at, "not a game of Go (GM[] is not 1)".to_string()))?;
        out.push(Parsed { root, nodes });
    }
    Ok(out)
}

impl Parsed {
    /// The parent of every node by document-order index (`None` for the root).
    #[must_use]
    pub fn parents(&self) -> Vec<Option<usize>> {
        fn walk<P: SgfProp>(node: &SgfNode<P>, parent: Option<usize>, out: &mut Vec<Option<usize>>) {
            let me = out.len();
            out.push(parent);
            for child in node.children() {
                walk(child, Some(me), out);
            }
        }
        let mut out = Vec::with_capacity(self.nodes.len());
        walk(&self.root, None, &mut out);
        out
    }
}

/// Line and column of each of the increasing byte `offsets` of `text`, in one pass.
#[must_use]
pub fn line_columns(text: &str, offsets: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    let (mut line, mut line_start, mut at) = (1, 0, 0);
    offsets
        .into_iter()
        .map(|o| {
            let o = o.min(text.len());
            for (k, b) in text.as_bytes()[at.min(o)..o].iter().enumerate() {
                if *b == b'\n' {
                    line += 1;
                    line_start = at + k + 1;
                }
            }
            at = at.max(o);
            (line, text.get(line_start..o).map_or(0, |s| s.chars().count()) + 1)
        })
        .collect()
}

fn count_nodes(tree: &sgf_parse::GameTree) -> usize {
    match tree {
        sgf_parse::GameTree::GoGame(n) => count(n),
        sgf_parse::GameTree::Unknown(n) => count(n),
    }
}

fn count<P: SgfProp>(node: &SgfNode<P>) -> usize {
    1 + node.children().map(count).sum::<usize>()
}

fn skip_value(b: &[u8], mut i: usize) -> Option<usize> {
    // `b[i]` is `[`; returns the index after the closing `]`.
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

fn unescape(raw: &str) -> String {
    let mut v = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        v.push(if c == '\\' { chars.next().unwrap_or(c) } else { c });
    }
    v
}

/// Reads the nodes of `text` in document order, or finds the first place where it stops
/// being SGF (FF[4] grammar; FF[3] lower-case letters in identifiers are dropped, as the
/// crate drops them).
fn scan(text: &str) -> Result<Vec<Scanned>, SgfError> {
    let b = text.as_bytes();
    let err = |at: usize, msg: String| Err(position(text, at, msg));
    let mut nodes: Vec<Scanned> = Vec::new();
    let skip_ws = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let (mut i, mut depth, mut in_node, mut trees) = (0, 0usize, false, 0);
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                let j = skip_ws(i + 1);
                if b.get(j) != Some(&b';') {
                    return err(j, "a game tree must begin with a node (';' expected)".into());
                }
                depth += 1;
                in_node = false;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return err(i, "')' closes no game tree".into());
                }
                depth -= 1;
                trees += usize::from(depth == 0);
                in_node = false;
                i += 1;
            }
            b';' => {
                if depth == 0 {
                    return err(i, "';' outside a game tree".into());
                }
                in_node = true;
                nodes.push(Scanned { offset: i, properties: Vec::new() });
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let name = &text[start..i];
                if !in_node {
                    return err(start, format!("property {name} outside a node (';' missing?)"));
                }
                if b.get(i) != Some(&b'[') {
                    return err(i, format!("property {name} has no value ('[' expected; an unescaped ']' in a value?)"));
                }
                let mut values = Vec::new();
                while b.get(i) == Some(&b'[') {
                    match skip_value(b, i) {
                        Some(j) => {
                            values.push(unescape(&text[i + 1..j - 1]));
                            i = skip_ws(j);
                        }
                        None => return err(i, format!("value of {name} is never closed (']' missing)")),
                    }
                }
                let id: String = name.chars().filter(char::is_ascii_uppercase).collect();
                if id.is_empty() {
                    return err(start, format!("property identifier {name} has no capital letter"));
                }
                if let Some(node) = nodes.last_mut() {
                    node.properties.push((id, values));
                }
            }
            c => {
                let shown = text[i..].chars().next().unwrap_or(c as char);
                return err(i, format!("unexpected {shown:?}"));
            }
        }
    }
    if depth > 0 {
        return err(b.len(), format!("the text ends inside a game tree ({depth} ')' missing)"));
    }
    if trees == 0 {
        return err(0, "no game tree ('(;' expected)".into());
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (usize, usize) {
        let e = parse(text).err().unwrap_or_else(|| panic!("accepted {text:?}"));
        (e.line, e.column)
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(error("(;GM[1]\nC[a]b]\n;B[aa])"), (2, 6)); // unescaped ]
        assert_eq!(error("(;GM[1]SZ[9]\n(B[aa]))"), (2, 2)); // missing ;
        assert_eq!(error("(B[aa])"), (1, 2));
        assert_eq!(error("(;GM[1]\n;B[aa]"), (2, 7)); // missing )
        assert_eq!(error("(;C[never closed)"), (1, 4));
        assert_eq!(error("  "), (1, 1));
    }

    #[test]
    fn nodes_and_raw_properties() {
        let text = "(;GM[1]SZ[9]C[a \\] b]AB[cc][aa]XX[x\\]y];B[ee](;W[ff])\n(;W[gg]))";
        let trees = parse(text).unwrap();
        let t = &trees[0];
        assert_eq!(t.nodes.len(), 4);
        assert_eq!(&text[t.nodes[3].offset..t.nodes[3].offset + 6], ";W[gg]");
        let props = &t.nodes[0].properties;
        let get = |k: &str| props.iter().find(|(id, _)| id == k).map(|(_, v)| v.clone()).unwrap();
        assert_eq!(get("C"), ["a ] b"]);
        assert_eq!(get("AB"), ["cc", "aa"]);
        assert_eq!(get("XX"), ["x]y"]);
        assert_eq!(get("SZ"), ["9"]);
    }
}
