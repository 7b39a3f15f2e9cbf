//! Property-based fuzzing of the core on stable Rust (proptest), run by `cargo test`.
//!
//! CI runs a fixed, small number of cases from a fixed seed, so a run is reproducible and
//! quick; `IKEDA_FUZZ_CASES=100000 cargo test --release -p ikeda-core --test fuzz` is the
//! longer opt-in run (random seeds). A failing case is shrunk and saved under
//! `proptest-regressions/`, and saved cases are replayed first on every later run.
//!
//! The properties: the legal plays are exactly the plays `play` accepts; play then undo
//! restores the stones and the hash; the incremental hash equals one computed from
//! scratch; the SGF reader never panics and places every error at a line and column;
//! the GTP vertex parser never panics and reads back every name it writes.

use ikeda_core::sgf::{self, RulesChoice};
use ikeda_core::{Board, Cell, Color, Geometry, KoRule, PlayRules, Position, Rules, CELLS_9};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Cases per property: `IKEDA_FUZZ_CASES` (random seeds), else a small fixed budget.
fn config() -> Config {
    match std::env::var("IKEDA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(cases) => Config {
            cases,
            ..Config::default()
        },
        None => Config {
            cases: 48,
            rng_seed: RngSeed::Fixed(15),
            ..Config::default()
        },
    }
}

const KO_RULES: [KoRule; 3] = [
    KoRule::CapturingSuperko,
    KoRule::PositionalSuperko,
    KoRule::SimpleKo,
];

/// A board up to 7x7 under one of the play rules, and a sequence of choices that picks
/// each play among the legal ones (a choice past the end passes).
fn game_plan() -> impl Strategy<Value = (usize, usize, PlayRules, Vec<u16>)> {
    (
        1usize..=7,
        1usize..=7,
        0usize..3,
        any::<bool>(),
        prop::collection::vec(any::<u16>(), 0..160),
    )
        .prop_map(|(w, h, ko, suicide, choices)| {
            (
                w,
                h,
                PlayRules {
                    ko: KO_RULES[ko],
                    suicide,
                },
                choices,
            )
        })
}

/// The stones of `board` by colour, as flat indices.
fn stones(geo: Geometry, board: &Board<CELLS_9>) -> (Vec<usize>, Vec<usize>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (i, loc) in geo.locs().enumerate() {
        match board.cell(loc) {
            Cell::Black => black.push(i),
            Cell::White => white.push(i),
            _ => {}
        }
    }
    (black, white)
}

/// Plays the plan, calling `check(position, colour)` before every play.
fn drive(
    w: usize,
    h: usize,
    rules: PlayRules,
    choices: &[u16],
    mut check: impl FnMut(&mut Position<CELLS_9>, Color),
) {
    let geo = Geometry::new(w, h).expect("a board up to 7x7");
    let mut p = Position::<CELLS_9>::new(geo, rules);
    let mut c = Color::Black;
    for &choice in choices {
        check(&mut p, c);
        let legal = p.legal_plays(c);
        if let Some(&(_, loc)) = legal.get(usize::from(choice) % (legal.len() + 1)) {
            p.play(loc, c).expect("a legal play is accepted");
        }
        c = c.opponent();
    }
    check(&mut p, c);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn legal_plays_are_exactly_the_plays_play_accepts((w, h, rules, choices) in game_plan()) {
        drive(w, h, rules, &choices, |p, c| {
            let geo = p.geometry();
            let legal: Vec<usize> = p.legal_plays(c).into_iter().map(|(i, _)| i).collect();
            let mut mask = vec![false; geo.points() + 1];
            p.legal_mask(c, &mut mask);
            for (i, loc) in geo.locs().enumerate() {
                let accepted = p.clone().play(loc, c).is_ok();
                assert_eq!(accepted, legal.contains(&i), "point {i} on {w}x{h} under {rules:?}");
                assert_eq!(accepted, p.check(loc, c).is_ok());
                assert_eq!(accepted, mask[i]);
            }
        });
    }

    #[test]
    fn play_then_undo_restores_the_stones_and_the_hash((w, h, rules, choices) in game_plan()) {
        drive(w, h, rules, &choices, |p, c| {
            let (cells, hash, plays) = (*p.board().cells(), p.board().hash(), p.plays());
            for (_, loc) in p.legal_plays(c) {
                p.play(loc, c).expect("legal");
                let (back, color, _) = p.undo().expect("the play just made");
                assert_eq!((back, color), (loc, c));
                assert_eq!(p.board().cells(), &cells);
                assert_eq!((p.board().hash(), p.plays()), (hash, plays));
            }
        });
    }

    #[test]
    fn the_incremental_hash_equals_one_from_scratch((w, h, rules, choices) in game_plan()) {
        drive(w, h, rules, &choices, |p, _| {
            let geo = p.geometry();
            let (black, white) = stones(geo, p.board());
            let fresh = Board::<CELLS_9>::from_setup(geo, &black, &white).expect("a reachable position");
            assert_eq!(fresh.hash(), p.board().hash());
            p.board().check_invariants().expect("chains and liberties consistent");
        });
    }

    #[test]
    fn the_sgf_reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_reader(&bytes);
    }

    #[test]
    fn the_sgf_reader_never_panics_on_sgf_like_text(text in sgf_like()) {
        check_reader(text.as_bytes());
    }

    #[test]
    fn the_gtp_vertex_parser_never_panics(w in 1usize..=25, h in 1usize..=25, text in "\\PC{0,8}") {
        let geo = Geometry::new(w, h).expect("a board");
        let _ = geo.parse_vertex(&text);
        for i in 0..=geo.points() {
            let name = geo.vertex_name(i);
            prop_assert_eq!(geo.parse_vertex(&name).ok(), Some((i != geo.pass_index()).then_some(i)));
            prop_assert_eq!(geo.parse_vertex(&name.to_lowercase()).ok(), Some((i != geo.pass_index()).then_some(i)));
        }
    }
}

/// Text made of SGF's own pieces, so that the fuzzer reaches past the first bracket.
fn sgf_like() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "(", ")", ";", "[", "]", "\\", "\n", "\r\n", " ", "B", "W", "AB", "AW", "AE", "SZ", "KM",
        "HA", "RU", "PL", "CA", "GM", "C", "aa", "ss", "tt", "zz", "19", "9:5", "0", "-1", "6.5",
        "japanese", "UTF-8", "x", "é", "囲碁",
    ]);
    prop::collection::vec(piece, 0..120).prop_map(|pieces| pieces.concat())
}

/// Reads `bytes` as a whole file would be (decoding, syntax, the game, its replay): no
/// panic, and every refusal carries a line and a column inside the text.
fn check_reader(bytes: &[u8]) {
    let choice = RulesChoice {
        forced: None,
        by_key: Vec::new(),
        default: Rules::area3(13),
        deferred: Vec::new(),
    };
    let _ = sgf::replay_bytes(bytes, &choice);
    if let Ok((text, _)) = sgf::decode(bytes) {
        let lines = text.split('\n').count();
        let place = |e: &sgf::SgfError| {
            assert!(e.line >= 1 && e.column >= 1, "{e}");
            assert!(e.line <= lines, "{e} is past line {lines}");
        };
        match sgf::parse(&text) {
            Err(e) => place(&e),
            Ok(tree) => {
                if let Err(e) = sgf::interpret(&tree, &text) {
                    place(&e);
                }
            }
        }
    }
}
