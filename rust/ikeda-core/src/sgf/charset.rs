//! Bytes to text. A record is decoded before it is parsed, because in GBK, Shift_JIS and
//! Big5 the second byte of a character may be `\` or `]`: decoding with the wrong charset
//! can break the structure. The rules (docs/sgf.md, "Charsets"):
//!
//! 1. a UTF-8 byte-order mark: UTF-8;
//! 2. a charset the caller forces (`encoding=`);
//! 3. the first `CA[...]`, if it names a charset and the bytes are valid in it;
//! 4. valid UTF-8, or mostly valid UTF-8 (more than half of the bytes above 0x7F in valid
//!    characters: Fox's names cut inside a character);
//! 5. else every candidate (the declared charset, UTF-8, windows-1252 — the ISO-8859-1
//!    that FF[1]-FF[4] make the default —, GB18030, Shift_JIS, EUC-KR) is decoded
//!    leniently and scored by [`plausibility`]; the best whose text parses wins, the
//!    earlier in that list on a tie.
//!
//! Bytes that cannot be decoded in the charset chosen become U+FFFD and are reported
//! (never fatal: a broken byte in a player's name must not lose the game's moves). Every
//! decoding of a charset whose characters may hold ASCII bytes has its structure checked
//! against the bytes' own first ([`super::structure`]).

use encoding_rs::{DecoderResult, Encoding, EUC_KR, GB18030, SHIFT_JIS, UTF_8, WINDOWS_1252};

use super::structure::checked;
use super::syntax::SgfError;

/// Text decoded from bytes: the charset used, where U+FFFD replaced bytes that could not
/// be decoded (byte offsets in `text`), and why this charset was used when it is not the
/// one the record declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    pub charset: &'static str,
    pub replaced: Vec<usize>,
    pub note: Option<String>,
    /// Where (byte offset in `text`) and how the structure of this decoding differs
    /// from the bytes' own (see [`super::structure`]).
    pub structure: Option<(usize, String)>,
}

/// Guessed, in this order on a tie, when there is no usable `CA` and the bytes are not
/// UTF-8.
const GUESSES: [&Encoding; 5] = [UTF_8, WINDOWS_1252, GB18030, SHIFT_JIS, EUC_KR];

/// The text of an SGF file and the name of the charset it was read with (the first
/// candidate of [`candidates`]).
pub fn decode(bytes: &[u8]) -> Result<(String, &'static str), SgfError> {
    let d = candidates(bytes, None).swap_remove(0);
    Ok((d.text, d.charset))
}

/// The charset a caller names (`"gbk"`, `"latin1"`, any WHATWG label), if known.
#[must_use]
pub fn encoding_for(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
}

/// The decodings of `bytes` to try, best first (one when the charset is certain): see
/// the module documentation. `forced` overrides the detection.
pub fn candidates(bytes: &[u8], forced: Option<&'static Encoding>) -> Vec<Decoded> {
    if bytes.starts_with(b"\xef\xbb\xbf") {
        return vec![lenient(bytes, UTF_8, 3)];
    }
    if let Some(enc) = forced {
        return vec![checked(bytes, lenient(bytes, enc, 0), true).decoded];
    }
    let declared = declared(bytes);
    let utf8 = std::str::from_utf8(bytes).ok().map(|text| Decoded {
        text: text.to_string(),
        charset: UTF_8.name(),
        replaced: vec![],
        note: None,
        structure: None,
    });
    match (declared, utf8) {
        (Some(enc), utf8) => {
            let d = lenient(bytes, enc, 0);
            if d.replaced.is_empty() {
                let c = checked(bytes, d, true);
                if c.moved {
                    // Valid in the declared charset, but its characters take structural
                    // bytes: mostly valid UTF-8 that reads as more plausible text (its
                    // undecodable bytes costed) is what the bytes are.
                    let score = |d: &Decoded| {
                        plausibility(&d.text) - REPLACED_COST * d.replaced.len() as i64
                    };
                    if let Some(u) = mostly_utf8(bytes).filter(|u| score(u) > score(&c.decoded)) {
                        let note = format!("the bytes are valid {} as CA declares, but decoding them so moves the structure and they are mostly UTF-8; read as UTF-8", enc.name());
                        return vec![Decoded {
                            note: Some(note),
                            ..u
                        }];
                    }
                }
                let d = c.decoded;
                // Valid in the declared charset; valid UTF-8 too (non-ASCII UTF-8 is rarely
                // valid by chance) is preferred only when it reads as more plausible text.
                return match utf8 {
                    Some(mut u)
                        if enc != UTF_8 && plausibility(&u.text) > plausibility(&d.text) =>
                    {
                        u.note = Some(format!(
                            "CA declares {} but the bytes are UTF-8; read as UTF-8",
                            enc.name()
                        ));
                        vec![u]
                    }
                    _ => vec![d],
                };
            }
        }
        (None, Some(u)) => return vec![u],
        (None, None) => {}
    }
    if let (Some(enc), Ok(text)) = (declared, std::str::from_utf8(bytes)) {
        // Not valid in the declared charset, valid UTF-8: the bytes say what they are.
        let note = Some(format!(
            "the bytes are not valid {} as CA declares, but are UTF-8; read as UTF-8",
            enc.name()
        ));
        return vec![Decoded {
            text: text.to_string(),
            charset: UTF_8.name(),
            replaced: vec![],
            note,
            structure: None,
        }];
    }
    // (Not when a multi-byte guess reads every byte: a short GB18030 name can be mostly
    // valid UTF-8 by chance.)
    let fully_multibyte = || {
        [GB18030, SHIFT_JIS, EUC_KR].iter().any(|e| {
            e.decode_without_bom_handling_and_without_replacement(bytes)
                .is_some()
        })
    };
    if let Some(utf8) = mostly_utf8(bytes).filter(|_| !fully_multibyte()) {
        return vec![Decoded {
            note: declared.map(|e| {
                if e == UTF_8 {
                    "the bytes are not all valid UTF-8 as CA declares".to_string()
                } else {
                    format!(
                        "the bytes are not valid {} as CA declares, but mostly UTF-8; read as UTF-8",
                        e.name()
                    )
                }
            }),
            ..utf8
        }];
    }
    if bytes.len() > MAX_GUESSED {
        // Too large to try several decodings: the declared charset, else UTF-8, leniently.
        let enc = declared.unwrap_or(UTF_8);
        return vec![checked(bytes, lenient(bytes, enc, 0), true).decoded];
    }
    let mut scored: Vec<(i64, usize, Decoded)> = declared
        .into_iter()
        .chain(GUESSES.iter().copied().filter(|&e| Some(e) != declared))
        // EUC-KR proper has no byte below 0xA1 outside ASCII; encoding_rs reads the wider
        // UHC, which would take Shift_JIS kana for rare Hangul.
        .filter(|&e| {
            e != EUC_KR || bytes.iter().all(|&b| !(0x80..0xA1).contains(&b)) || Some(e) == declared
        })
        .enumerate()
        .map(|(k, enc)| {
            // A decoding that would move the structure gives way to the bytes' own, and
            // its score pays for it.
            let c = checked(bytes, lenient(bytes, enc, 0), Some(enc) == declared);
            let d = c.decoded;
            (
                plausibility(&d.text) - REPLACED_COST * d.replaced.len() as i64 - c.cost,
                k,
                d,
            )
        })
        .collect();
    scored.sort_by_key(|&(score, k, _)| (std::cmp::Reverse(score), k));
    scored
        .into_iter()
        .map(|(_, _, mut d)| {
            // A guess without CA is no problem (`Record.charset` says what was used); a
            // declaration the bytes contradict is.
            d.note = declared.map(|enc| {
                if d.charset == enc.name() {
                    format!("the bytes are not all valid {} as CA declares", enc.name())
                } else {
                    format!(
                        "the bytes are not valid {} as CA declares; read as {}",
                        enc.name(),
                        d.charset
                    )
                }
            });
            d
        })
        .collect()
}

/// The bytes read as UTF-8 when they are mostly valid UTF-8: more than half of the
/// bytes above 0x7F in valid characters (other charsets' text is rarely valid UTF-8 by
/// chance). Such a file is UTF-8 whatever its broken bytes, as Fox's names cut inside a
/// character or broken to '?'.
fn mostly_utf8(bytes: &[u8]) -> Option<Decoded> {
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    if high == 0 {
        return None;
    }
    let utf8 = lenient(bytes, UTF_8, 0);
    let valid = utf8
        .text
        .chars()
        .map(char::len_utf8)
        .filter(|&n| n > 1)
        .sum::<usize>()
        - 3 * utf8.replaced.len();
    (2 * valid > high).then_some(utf8)
}

/// Records larger than this (64 MiB) are not decoded several ways.
const MAX_GUESSED: usize = 64 << 20;

/// What a replaced byte sequence costs a decoding in [`candidates`].
const REPLACED_COST: i64 = 10;

/// The encoding named by the first `CA[...]` in the bytes, if encoding_rs knows it.
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let start = bytes.windows(3).position(|w| w == b"CA[")? + 3;
    let len = bytes[start..].iter().take(40).position(|&b| b == b']')?;
    Encoding::for_label(bytes[start..start + len].trim_ascii())
}

/// Decodes all of `bytes` (from byte `skip`) with `enc`, replacing what cannot be decoded
/// by U+FFFD and noting where.
fn lenient(bytes: &[u8], enc: &'static Encoding, skip: usize) -> Decoded {
    let bytes = &bytes[skip.min(bytes.len())..];
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut replaced = Vec::new();
    decode_into(&mut decoder, bytes, true, &mut text, &mut replaced);
    Decoded {
        text,
        charset: enc.name(),
        replaced,
        note: None,
        structure: None,
    }
}

/// Appends the decoding of `bytes` to `text`, U+FFFD for each malformed sequence (its
/// offset in `text` pushed to `replaced`). Decoded through a small buffer: encoding_rs's
/// `decode_to_string` touches the string's whole spare capacity on every call, and a
/// call ends at every malformed sequence, which made a text full of them quadratic.
pub(super) fn decode_into(
    decoder: &mut encoding_rs::Decoder,
    bytes: &[u8],
    last: bool,
    text: &mut String,
    replaced: &mut Vec<usize>,
) {
    let mut buf = [0u8; 4096];
    let mut at = 0;
    loop {
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(&bytes[at..], &mut buf, last);
        at += read;
        // The decoder writes whole characters only (so this borrows, never replaces).
        text.push_str(&String::from_utf8_lossy(&buf[..written]));
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::Malformed(_, _) => {
                replaced.push(text.len());
                text.push('\u{FFFD}');
            }
            DecoderResult::OutputFull => {}
        }
    }
}

/// The 360 most frequent Chinese characters, and the vocabulary of game records
/// (colours, results, ranks). Kept short on purpose: any first-level hanzi scores a
/// little, these score as much as a common Hangul syllable.
const COMMON_HANZI: &str = "的一是不了人我在有他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济黑胜负半盘局棋围段职余贴劫";

/// Common Hangul syllables: the most frequent in Korean text, and those of Korean
/// surnames and given names (the text of game records is mostly names).
const COMMON_HANGUL: &str = "이의다는에하고을가지기리서사로대자한도수정시인전어일나아장보상주부게소제우성선원방해동조문신생유무금김박최백흑승패집반바둑호오영진민재용현준석세돌들면것있그으를내만위여라까던야요니습었했할된되모경개중입구학간마연화결실계명회관공물분적비식각단업심말발양및통본체미운강안후속등천점처트스프크터레드와과더또없않같때두번째알좋윤임권황송류홍손배허남노곽차엄채함변염추설길표왕옥육맹탁편예봉혁훈철희은태형환범창효광병규근한웅열섭택덕익찬혜빈채다래운율슬별솔림온빛결람루린름록령령률륭립렬련렴례";

/// How much a decoding looks like the text of a game record (a sum over its characters,
/// context-aware; see docs/sgf.md for the table). Wrong decodings of CJK bytes produce
/// rare characters, symbols and half-width kana; wrong multi-byte decodings of Latin
/// text produce single ideographs inside Latin words.
#[must_use]
pub fn plausibility(text: &str) -> i64 {
    let chars: Vec<char> = text.chars().collect();
    let mut score = 0;
    let mut k = 0;
    while k < chars.len() {
        if chars[k].is_ascii() {
            k += 1;
            continue;
        }
        // A run of non-ASCII characters and its ASCII neighbours.
        let start = k;
        while k < chars.len() && !chars[k].is_ascii() {
            k += 1;
        }
        let run = &chars[start..k];
        let before = start.checked_sub(1).map(|i| chars[i]);
        let after = chars.get(k).copied();
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
        let latin_word = run.len() <= 3
            && run.iter().all(|&c| is_latin_letter(c))
            && (letter(before) || letter(after));
        let inside_latin_word = run.len() == 1 && letter(before) && letter(after);
        for &c in run {
            score += match c {
                c if is_latin_letter(c) => {
                    if latin_word {
                        2
                    } else {
                        -2
                    }
                }
                '\u{AC00}'..='\u{D7A3}' if inside_latin_word => 0,
                '\u{AC00}'..='\u{D7A3}' => {
                    if COMMON_HANGUL.contains(c) {
                        4
                    } else {
                        1
                    }
                }
                '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | '\u{30FC}' => 3,
                '\u{4E00}'..='\u{9FFF}' if inside_latin_word => 0,
                '\u{4E00}'..='\u{9FFF}' => {
                    if COMMON_HANZI.contains(c) {
                        4
                    } else if level_one(c) {
                        2
                    } else {
                        0
                    }
                }
                '\u{3000}'..='\u{303F}' | '\u{FF01}'..='\u{FF60}' | '\u{2010}'..='\u{2027}' => 1,
                '\u{FFFD}' => 0, // costed by the caller, per replaced sequence
                '\u{3400}'..='\u{4DBF}' | '\u{A0}'..='\u{BF}' | '\u{D7}' | '\u{F7}' => -2,
                '\u{E000}'..='\u{F8FF}' => -6,
                _ => -4, // C1 controls, half-width kana, other scripts and symbols
            };
        }
    }
    score
}

/// A letter of windows-1252 beyond ASCII (accented Latin letters, Œ, Š, Ž, Ÿ).
fn is_latin_letter(c: char) -> bool {
    matches!(c, '\u{C0}'..='\u{FF}' if c != '\u{D7}' && c != '\u{F7}')
        || matches!(c, 'Œ' | 'œ' | 'Š' | 'š' | 'Ž' | 'ž' | 'Ÿ')
}

/// A first-level ideograph of GB2312 (the 3,755 common hanzi, lead byte 0xB0-0xD7) or of
/// JIS X 0208 (the 2,965 common kanji, Shift_JIS 0x889F-0x9872).
fn level_one(c: char) -> bool {
    let mut buf = [0u8; 4];
    let s: &str = c.encode_utf8(&mut buf);
    let (gb, _, gb_bad) = GB18030.encode(s);
    if !gb_bad && gb.len() == 2 && (0xB0..=0xD7).contains(&gb[0]) {
        return true;
    }
    let (sj, _, sj_bad) = SHIFT_JIS.encode(s);
    !sj_bad && sj.len() == 2 && (0x889F..=0x9872).contains(&u16::from_be_bytes([sj[0], sj[1]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str, enc: &'static Encoding) -> Vec<u8> {
        enc.encode(text).0.into_owned()
    }

    fn guess(bytes: &[u8]) -> (String, &'static str) {
        decode(bytes).unwrap()
    }

    #[test]
    fn declared_charsets_are_used() {
        let sgf = "(;CA[Shift_JIS]PB[井山裕太]C[こんにちは])";
        let (text, name) = guess(&encoded(sgf, SHIFT_JIS));
        assert_eq!((text.as_str(), name), (sgf, "Shift_JIS"));
        let latin = b"(;CA[ISO-8859-1]PB[Jos\xe9])";
        assert_eq!(guess(latin).0, "(;CA[ISO-8859-1]PB[José])");
    }

    #[test]
    fn undeclared_text_is_recognised_by_language() {
        for (sgf, enc) in [
            (
                "(;PB[柯洁]PW[李世石]C[黑中盘胜，这是一盘精彩的对局])",
                GB18030,
            ),
            (
                "(;PB[井山裕太]C[これはとても良い碁でした。ありがとうございます])",
                SHIFT_JIS,
            ),
            ("(;PB[이세돌]C[좋은 대국이었습니다 감사합니다])", EUC_KR),
            ("(;PB[조훈현]PW[이창호])", EUC_KR),
            ("(;PB[古力]PW[白])", GB18030),
            ("(;PW[白])", GB18030),
            ("(;FF[3]PB[Jörg])", WINDOWS_1252),
            ("(;C[Fichier créé par TurboGo])", WINDOWS_1252),
            ("(;PW[José Müller]PB[Ærø])", WINDOWS_1252),
        ] {
            let (text, name) = guess(&encoded(sgf, enc));
            assert_eq!((text.as_str(), name), (sgf, enc.name()));
        }
        assert_eq!(guess("(;C[naïve])".as_bytes()).1, "UTF-8");
    }

    #[test]
    fn broken_bytes_are_replaced_and_located() {
        // A name cut inside a UTF-8 character (as Fox writes them), under CA[UTF-8].
        let bytes = b"(;CA[UTF-8]PB[\xe5\xb7\xa7\xe8\x8a\xb1\xe5\x8c]C[\xe9\xbb\x91\xe4\xb8\xad\xe7\x9b\x98\xe8\x83\x9c];B[aa])";
        let c = candidates(bytes, None);
        assert_eq!(c[0].charset, "UTF-8");
        assert_eq!(c[0].text, "(;CA[UTF-8]PB[巧花\u{FFFD}]C[黑中盘胜];B[aa])");
        assert_eq!(c[0].replaced, [20]);
        assert!(c[0].note.is_some());
    }

    #[test]
    fn a_wrong_declaration_gives_way_to_the_bytes() {
        // CA says Shift_JIS, the bytes are UTF-8.
        let c = candidates("(;CA[Shift_JIS]PB[古力])".as_bytes(), None);
        assert_eq!(
            (c[0].text.as_str(), c[0].charset),
            ("(;CA[Shift_JIS]PB[古力])", "UTF-8")
        );
        // CA says UTF-8, the bytes are GB18030.
        let c = candidates(&encoded("(;CA[UTF-8]PB[柯洁]C[黑中盘胜])", GB18030), None);
        assert_eq!(
            (c[0].text.as_str(), c[0].charset),
            ("(;CA[UTF-8]PB[柯洁]C[黑中盘胜])", "gb18030")
        );
    }

    #[test]
    fn a_forced_charset_wins() {
        let bytes = encoded("(;PB[이세돌])", EUC_KR);
        let c = candidates(&bytes, Some(GB18030));
        assert_eq!((c.len(), c[0].charset), (1, "gb18030"));
    }

    #[test]
    fn single_bytes_that_grow_threefold_fit() {
        // Half-width katakana: one Shift_JIS byte, three UTF-8 bytes each.
        let sgf = "(;CA[Shift_JIS]C[ｱｲｳｴｵｶｷｸｹｺｱｲｳｴｵｶｷｸｹｺｱｲｳｴｵｶｷｸｹｺｱｲｳｴｵｶｷｸｹｺ])";
        assert_eq!(guess(&encoded(sgf, SHIFT_JIS)).0, sgf);
        let latin = [b"(;CA[latin1]C[".as_slice(), &[0xe9; 64], b"])"].concat();
        assert_eq!(guess(&latin).0.chars().filter(|&c| c == 'é').count(), 64);
    }
}
