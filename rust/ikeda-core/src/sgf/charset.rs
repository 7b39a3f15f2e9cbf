//! Bytes to text: the record's `CA[...]` charset when it names one, else UTF-8, else the
//! East Asian encoding that reads the bytes most plausibly (see docs/sgf.md).
//!
//! The charset matters beyond comments: in GBK, Shift_JIS and Big5 the second byte of a
//! character may be `\` or `]`, so decoding with the wrong one can break the structure.

use encoding_rs::{DecoderResult, Encoding, EUC_KR, GB18030, SHIFT_JIS, UTF_8};

use super::syntax::{position, SgfError};

/// Tried when there is no usable `CA` and the bytes are not UTF-8, with the weight each
/// gives to Hangul syllables, kana and CJK ideographs (see [`plausibility`]) and the
/// smallest non-ASCII byte it may contain (EUC-KR proper has none below 0xA1; encoding_rs
/// reads the wider UHC, which would take Shift_JIS kana for rare Hangul); the best
/// score wins, the earlier on a tie.
const FALLBACKS: [(&Encoding, [i64; 3], u8); 3] =
    [(GB18030, [-4, 0, 1], 0x80), (SHIFT_JIS, [-4, 2, 1], 0x80), (EUC_KR, [2, -4, -3], 0xA1)];

/// The text of an SGF file and the name of the charset it was read with.
pub fn decode(bytes: &[u8]) -> Result<(String, &'static str), SgfError> {
    if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
        return strict(rest, UTF_8);
    }
    if let Some(enc) = declared(bytes) {
        return strict(bytes, enc);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok((text.to_string(), UTF_8.name()));
    }
    FALLBACKS
        .iter()
        .filter(|&&(_, _, low)| bytes.iter().all(|&b| b < 0x80 || b >= low))
        .filter_map(|&(enc, weights, _)| enc.decode_without_bom_handling_and_without_replacement(bytes).map(|t| (plausibility(&t, weights), t.into_owned(), enc.name())))
        .fold(None, |best: Option<(i64, String, &'static str)>, c| match best {
            Some(b) if b.0 >= c.0 => Some(b),
            _ => Some(c),
        })
        .map(|(_, text, name)| (text, name))
        .ok_or_else(|| undecodable(bytes))
}

/// The encoding named by the first `CA[...]` in the bytes, if encoding_rs knows it.
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let start = bytes.windows(3).position(|w| w == b"CA[")? + 3;
    let len = bytes[start..].iter().take(40).position(|&b| b == b']')?;
    Encoding::for_label(bytes[start..start + len].trim_ascii())
}

/// Decodes all of `bytes` with `enc`, or says where the first malformed byte is.
fn strict(bytes: &[u8], enc: &'static Encoding) -> Result<(String, &'static str), SgfError> {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let room = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(usize::MAX / 4);
    let mut text = String::with_capacity(room.min(bytes.len().saturating_mul(3) + 16));
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut text, true);
    match result {
        DecoderResult::InputEmpty => Ok((text, enc.name())),
        DecoderResult::Malformed(bad, _) => {
            // Position in the text decoded so far, just before the malformed bytes.
            let at = read.saturating_sub(usize::from(bad)).min(bytes.len());
            Err(position(&text, text.len(), format!("bytes at byte offset {at} are not valid {}", enc.name())))
        }
        DecoderResult::OutputFull => Err(position(&text, text.len(), format!("cannot decode the record as {}", enc.name()))),
    }
}

fn undecodable(bytes: &[u8]) -> SgfError {
    let at = std::str::from_utf8(bytes).err().map_or(0, |e| e.valid_up_to());
    let text = String::from_utf8_lossy(&bytes[..at]);
    position(&text, text.len(), format!("bytes at byte offset {at} are not UTF-8 and no CA[] charset says what they are"))
}

/// How much a decoding looks like text of its language: Chinese is ideographs, Japanese
/// ideographs and kana, Korean Hangul with few ideographs (`weights` for Hangul, kana and
/// ideographs); any other character outside ASCII and CJK punctuation costs, as a wrong
/// multi-byte decoding tends to produce rare ones (half-width kana, symbols, Latin).
fn plausibility(text: &str, [hangul, kana, ideograph]: [i64; 3]) -> i64 {
    text.chars()
        .filter(|c| !c.is_ascii())
        .map(|c| match u32::from(c) {
            0xAC00..=0xD7A3 => hangul,
            0x3040..=0x30FF => kana,
            0x4E00..=0x9FFF => ideograph,
            0x3000..=0x303F | 0xFF00..=0xFF60 => 0, // CJK punctuation, full-width forms
            _ => -4,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str, enc: &'static Encoding) -> Vec<u8> {
        enc.encode(text).0.into_owned()
    }

    #[test]
    fn declared_charsets_are_used() {
        let sgf = "(;CA[Shift_JIS]PB[井山裕太]C[こんにちは])";
        let (text, name) = decode(&encoded(sgf, SHIFT_JIS)).unwrap();
        assert_eq!((text.as_str(), name), (sgf, "Shift_JIS"));
        let latin = b"(;CA[ISO-8859-1]PB[Jos\xe9])";
        assert_eq!(decode(latin).unwrap().0, "(;CA[ISO-8859-1]PB[José])");
    }

    #[test]
    fn undeclared_east_asian_text_is_recognised() {
        for (sgf, enc) in [
            ("(;PB[柯洁]PW[李世石]C[黑中盘胜，这是一盘精彩的对局])", GB18030),
            ("(;PB[井山裕太]C[これはとても良い碁でした。ありがとうございます])", SHIFT_JIS),
            ("(;PB[이세돌]C[좋은 대국이었습니다 감사합니다])", EUC_KR),
        ] {
            let (text, name) = decode(&encoded(sgf, enc)).unwrap();
            assert_eq!((text.as_str(), name), (sgf, enc.name()));
        }
        assert_eq!(decode("(;C[naïve])".as_bytes()).unwrap().1, "UTF-8");
    }

    #[test]
    fn single_bytes_that_grow_threefold_fit() {
        // Half-width katakana: one Shift_JIS byte, three UTF-8 bytes each.
        let sgf = "(;CA[Shift_JIS]C[ｱｲｳｴｵｶｷｸｹｺｱｲｳｴｵｶｷｸｹｺｱｲｳｴｵｶｷｸｹｺｱｲｳｴｵｶｷｸｹｺ])";
        assert_eq!(decode(&encoded(sgf, SHIFT_JIS)).unwrap().0, sgf);
        let latin = [b"(;CA[latin1]C[".as_slice(), &[0xe9; 64], b"])"].concat();
        assert_eq!(decode(&latin).unwrap().0.chars().filter(|&c| c == 'é').count(), 64);
    }

    #[test]
    fn malformed_bytes_under_a_declared_charset_are_located() {
        let e = decode(b"(;CA[UTF-8]\nC[ok]\nC[bad \xff here])").unwrap_err();
        assert_eq!((e.line, e.column), (3, 7), "{e:?}");
    }
}
