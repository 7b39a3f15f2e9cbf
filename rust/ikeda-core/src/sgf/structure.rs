//! The charset never changes a record's structure silently. In GB18030, Shift_JIS and
//! Big5 the second byte of a character may be `[`, `\` or `]`: decoding the whole file
//! first (what [`super::charset`] does) is right when the charset is, and lets a wrong
//! guess, or a character cut before its `]`, swallow the `]` and the nodes after it. The
//! bytes have a structure of their own: the one UTF-8, windows-1252 and EUC-KR give,
//! whose multi-byte characters hold no ASCII byte. So a decoding whose structure differs
//! from the bytes' is checked (docs/sgf.md, "Charsets"):
//!
//! - the reading in which every value is well-formed wins: the whole-file decoding when it
//!   has no undecodable byte and the bytes' structure, its values decoded one by one, has
//!   one (a character cut by a structural byte); else the bytes' structure;
//! - when the bytes' structure wins, the charset's guess loses [`STRUCTURE_COST`];
//! - either way the record says so (a problem naming the first node that differs), unless
//!   the charset was declared by `CA` and every byte is valid in it.

use encoding_rs::{Encoding, EUC_KR, UTF_8};

use super::charset::{decode_into, Decoded};
use super::syntax::{parse, Tree};

/// What a decoding whose structure was replaced by the bytes' loses in the charset
/// scoring (as many as twenty undecodable sequences).
pub const STRUCTURE_COST: i64 = 200;

/// Whether a multi-byte character of `enc` can hold an ASCII byte, and so the decoding
/// can move a structural `[`, `\` or `]`.
fn may_move_structure(enc: &'static Encoding) -> bool {
    enc != UTF_8 && enc != EUC_KR && !enc.is_single_byte()
}

/// The bytes' own structure: every byte above 0x7F made a control character that plays
/// no part in SGF, so a byte offset in the text is the same in the bytes.
fn masked(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b < 0x80 { b as char } else { '\u{1}' })
        .collect()
}

/// The first node (index) where two trees differ in their nodes, properties or numbers
/// of values; None when they have the same structure.
fn first_difference(a: &Tree<'_>, b: &Tree<'_>) -> Option<usize> {
    let n = a.nodes.len().min(b.nodes.len());
    (0..n)
        .find(|&k| {
            let (pa, pb) = (a.props_of(k), b.props_of(k));
            a.nodes[k].parent != b.nodes[k].parent
                || pa.len() != pb.len()
                || pa
                    .iter()
                    .zip(pb)
                    .any(|(x, y)| x.ident != y.ident || x.values.len() != y.values.len())
        })
        .or((a.nodes.len() != b.nodes.len()).then_some(n))
}

/// The bytes decoded with `enc` piece by piece along their own structure `tree` (of
/// `mask`, the same offsets): each value's text between escapes decoded alone, so no
/// character spans a `[`, `\` or `]` that the bytes' structure gives a role.
fn piecewise(bytes: &[u8], mask: &str, tree: &Tree<'_>, enc: &'static Encoding) -> Decoded {
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut replaced = Vec::new();
    let mut piece = |range: std::ops::Range<usize>, text: &mut String| {
        let mut decoder = enc.new_decoder_without_bom_handling();
        decode_into(&mut decoder, &bytes[range], true, text, &mut replaced);
    };
    let mut at = 0;
    for v in &tree.values {
        let start = v.as_ptr() as usize - mask.as_ptr() as usize;
        let end = start + v.len();
        piece(at..start, &mut text);
        let (mut from, mut i) = (start, start);
        while i < end {
            if bytes[i] == b'\\' {
                piece(from..i, &mut text);
                text.push('\\');
                // The escaped byte begins the next piece.
                from = i + 1;
                i += 2;
            } else {
                i += 1;
            }
        }
        piece(from.min(end)..end, &mut text);
        at = end;
    }
    piece(at..bytes.len(), &mut text);
    Decoded {
        text,
        charset: enc.name(),
        replaced,
        note: None,
        structure: None,
    }
}

/// A decoding after [`checked`].
pub struct Checked {
    /// The whole-text decoding, or the bytes' structure decoded piece by piece.
    pub decoded: Decoded,
    /// What the choice costs the charset in the scoring.
    pub cost: i64,
    /// Whether the whole-text decoding's structure differs from the bytes'.
    pub moved: bool,
}

/// `d` (the whole of `bytes` decoded with its charset), or the bytes' own structure
/// decoded with the same charset where `d`'s differs and is the less well-formed (see
/// the module documentation). `declared`: the charset is the one `CA` names or the
/// caller forces (no problem is reported when `d` wins).
#[must_use]
pub fn checked(bytes: &[u8], d: Decoded, declared: bool) -> Checked {
    let kept = |decoded, moved| Checked {
        decoded,
        cost: 0,
        moved,
    };
    let Some(enc) = Encoding::for_label(d.charset.as_bytes()) else {
        return kept(d, false);
    };
    if !may_move_structure(enc) {
        return kept(d, false);
    }
    let name = enc.name();
    let mask = masked(bytes);
    let whole = parse(&d.text);
    let Ok(own) = parse(&mask) else {
        // The bytes alone are not SGF (a value ending in a 0x5C trail byte escapes its
        // `]`): the decoding is the only reading.
        let Ok(tree) = whole else {
            return kept(d, false);
        };
        if declared {
            return kept(d, true);
        }
        let message = format!(
            "node 1: read as {name}, whose two-byte characters hold a '[', '\\' or ']' in this record; the bytes alone are not SGF"
        );
        let offset = tree.nodes.first().map_or(0, |n| n.offset);
        return kept(
            Decoded {
                structure: Some((offset, message)),
                ..d
            },
            true,
        );
    };
    let differs = match &whole {
        Ok(t) => first_difference(t, &own),
        Err(_) => Some(0),
    };
    let Some(node) = differs else {
        return kept(d, false);
    };
    let pieces = piecewise(bytes, &mask, &own, enc);
    let Ok(piece_tree) = parse(&pieces.text) else {
        return kept(d, true);
    };
    let whole_ok = whole.is_ok() && d.replaced.is_empty();
    let pieces_ok = pieces.replaced.is_empty();
    if whole_ok && !pieces_ok {
        if declared {
            return kept(d, true);
        }
        let offset = whole
            .as_ref()
            .ok()
            .and_then(|t| t.nodes.get(node).or(t.nodes.last()))
            .map_or(0, |n| n.offset);
        let message = format!(
            "node {}: read as {name}, whose two-byte characters hold a '[', '\\' or ']' here; the bytes alone would give other nodes or properties",
            node + 1
        );
        return kept(
            Decoded {
                structure: Some((offset, message)),
                ..d
            },
            true,
        );
    }
    let offset = piece_tree
        .nodes
        .get(node)
        .or(piece_tree.nodes.last())
        .map_or(0, |n| n.offset);
    let message = format!(
        "node {}: decoding the whole text as {name} would move the structure (a character taking the ']', '\\' or '[' after it); the bytes' own nodes and properties are kept",
        node + 1
    );
    Checked {
        decoded: Decoded {
            structure: Some((offset, message)),
            note: d.note,
            ..pieces
        },
        cost: STRUCTURE_COST,
        moved: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::charset::candidates;
    use encoding_rs::{BIG5, GB18030, SHIFT_JIS};

    fn moves(d: &Decoded) -> usize {
        let t = parse(&d.text).unwrap();
        t.props
            .iter()
            .filter(|p| p.ident == "B" || p.ident == "W")
            .count()
    }

    #[test]
    fn a_cut_utf8_record_keeps_its_nodes() {
        // The Fox reproduction: UTF-8 with bytes broken to '?', no CA.
        let bytes = b"(;GM[1]FF[4]SZ[9]PB[\xe5\xad\x94\xe6?\xb0]PW[\xe6\x98\x8c\xe9\x95?\xe5?\xb4];B[ee]C[\xe8?\xbd\xe6\xb8\x8a];W[cc];B[gg])";
        let d = &candidates(bytes, None)[0];
        assert_eq!(moves(d), 3, "{d:?}");
        let t = parse(&d.text).unwrap();
        let pb = t.props.iter().find(|p| p.ident == "PB").unwrap();
        assert!(!t.values_of(pb)[0].contains("PW"), "{d:?}");
    }

    #[test]
    fn trail_bytes_0x5c_and_0x5d_are_kept_where_the_charset_is_right() {
        // 表 (Shift_JIS 0x95 0x5C), 十 (Shift_JIS 0x8F 0x5C), 功 (Big5 0xA5 0x5C), and
        // GB18030 characters with a 0x5C or 0x5D trail byte, ending values.
        for (enc, value) in [
            (SHIFT_JIS, "表"),
            (SHIFT_JIS, "本因坊十段"),
            (BIG5, "成功"),
            (GB18030, "乗"),
            (GB18030, "乗乗]"),
        ] {
            let bytes = enc.encode(value).0;
            assert!(bytes.iter().any(|&b| b == b'\\' || b == b']'), "{value}");
            for ca in [format!("CA[{}]", enc.name()), String::new()] {
                let sgf = format!(
                    "(;GM[1]{ca}PB[{}]PW[x];B[aa];W[bb])",
                    value.replace(']', "\\]")
                );
                let bytes = enc.encode(&sgf).0;
                let d = &candidates(&bytes, Some(enc))[0];
                assert_eq!(d.text, sgf, "{} {ca}", enc.name());
                assert_eq!(moves(d), 2);
            }
        }
    }
}
