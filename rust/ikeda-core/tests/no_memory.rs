//! Allocations sized by input fail as values, never as an abort (docs/security.md).
//!
//! The test runs itself again as a child process which, before each case, lowers its own
//! address-space limit (`prlimit --as`, Linux) to what it uses plus [`HEADROOM`]. Each
//! call below then grows something with its input (a playout budget, a batch's
//! histories, a game's length, a text's nodes) far past that room: it must come back
//! with an error. An allocation made infallibly would make the Rust runtime abort the
//! child ("memory allocation of N bytes failed"), which the parent reports.

use std::process::Command;

use ikeda_core::sgf;
use ikeda_core::{
    search, Batch, Color, Game, Geometry, KoRule, NoMemory, PlayRules, Position, Rules,
    SearchLimits, CELLS_19, CELLS_9,
};

/// Address space the child may add to what it holds when it sets its limit.
const HEADROOM: u64 = 16 << 20;

/// The child's address space now, in bytes (`VmSize`).
fn address_space() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmSize");
    kb << 10
}

#[test]
fn allocations_sized_by_input_are_errors_not_aborts() {
    if std::env::var_os("IKEDA_NO_MEMORY_CHILD").is_some() {
        return child();
    }
    if Command::new("prlimit").arg("--version").output().is_err()
        || !std::path::Path::new("/proc/self/status").exists()
    {
        eprintln!("skipped: needs Linux's /proc and prlimit (util-linux)");
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([
            "--exact",
            "allocations_sized_by_input_are_errors_not_aborts",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("IKEDA_NO_MEMORY_CHILD", "1")
        // One malloc arena: threads' arenas would reserve address space ahead, out of
        // the limit's sight.
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .expect("the child runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the child failed ({}):\n{text}",
        out.status
    );
    assert!(text.contains("5 refusals"), "{text}");
}

/// Lowers this process's address-space limit (the soft one, so that it can be set again)
/// to what it holds now plus [`HEADROOM`]: each case starts with the same room, whatever
/// the cases before it freed.
fn room() {
    let limit = address_space() + HEADROOM;
    let set = Command::new("prlimit")
        .args([
            format!("--pid={}", std::process::id()),
            format!("--as={limit}:"),
        ])
        .status()
        .expect("prlimit runs");
    assert!(set.success(), "prlimit --as={limit}: failed");
}

/// Under its lowered limit, the child makes five calls that want far more than the
/// room left.
fn child() {
    let geo9 = Geometry::new(9, 9).unwrap();
    let geo19 = Geometry::new(19, 19).unwrap();
    // What is made before the limit: a batch of many games (its playouts are the hostile
    // part), the text of a million nodes, the rayon pool (warmed up by a playout).
    let mut batch: Batch<CELLS_9> = Batch::try_new(geo9, Rules::area3(13), 1 << 14, 3).unwrap();
    let text = format!("(;{})", ";".repeat(1_000_000));
    // One thread plays the batch: with several, one thread's reservation may take the
    // last of the room just before another's small fixed allocation (not sized by input).
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut warm: Batch<CELLS_9> = Batch::try_new(geo9, Rules::area3(13), 8, 3).unwrap();
    assert_eq!(one.install(|| warm.playout(0.0, usize::MAX)), Ok(0));
    let mut refusals = 0;

    // The search tree grows by a board's worth of nodes (48 bytes each) per playout.
    room();
    let mut g: Game<CELLS_19> = Game::new(Position::new(geo19, PlayRules::IKEDA), Color::Black);
    let limits = SearchLimits {
        playouts: u32::MAX,
        seconds: 0.0,
        seed: 1,
        resign_below: 0.0,
    };
    assert_eq!(
        search(&mut g, &Rules::area3(13), &limits).err(),
        Some(NoMemory)
    );
    refusals += 1;
    assert!(
        search(
            &mut g,
            &Rules::area3(13),
            &SearchLimits {
                playouts: 50,
                ..limits
            }
        )
        .is_ok(),
        "a search that fits still runs"
    );

    // 16,384 games played past the default cap: their histories grow fallibly.
    room();
    assert_eq!(
        one.install(|| batch.playout(0.0, usize::MAX)).err(),
        Some(NoMemory)
    );
    refusals += 1;
    drop(batch);

    // A position played on for ever (a single-stone capture and recapture on a 2x1 board
    // under simple ko, which the position alone does not ban): with room reserved before
    // each play, as `ikeda._core.Board.play` does, the history's growth is an error
    // once it cannot be had, and the position stands after its last play.
    room();
    let geo = Geometry::new(2, 1).unwrap();
    let mut p: Position<CELLS_9> = Position::new(
        geo,
        PlayRules {
            ko: KoRule::SimpleKo,
            suicide: false,
        },
    );
    let (a1, b1) = (geo.loc_of_index(0), geo.loc_of_index(1));
    let mut k = 0;
    while p.try_reserve(1).is_ok() {
        let (loc, c) = if k % 2 == 0 {
            (a1, Color::Black)
        } else {
            (b1, Color::White)
        };
        p.play(loc, c).expect("a capture or the first stone");
        k += 1;
    }
    assert!(k > 100_000, "refused after {k} plays");
    assert_eq!(p.plays(), k);
    refusals += 1;
    drop(p);

    // The SGF reader's tree: 40 bytes per node, here a million of them.
    room();
    let err = match sgf::parse(&text) {
        Ok(tree) => panic!("a tree of {} nodes fit", tree.nodes.len()),
        Err(e) => e,
    };
    assert!(err.no_memory, "{err}");
    refusals += 1;

    // A game of a search's size still fits, and a random game past every cap too.
    room();
    let fresh = Game::with_ending(
        Position::<CELLS_19>::new(geo19, PlayRules::IKEDA),
        Color::Black,
        Rules::area3(13).ending,
    );
    assert!(
        ikeda_core::random_game(fresh, &Rules::area3(13), 7, 0.0, usize::MAX)
            .is_ok_and(|r| r.ended)
    );
    let bigger: Result<Vec<u64>, _> = (|| {
        let mut v = Vec::new();
        v.try_reserve_exact(HEADROOM as usize)?;
        Ok::<_, std::collections::TryReserveError>(v)
    })();
    assert!(bigger.is_err(), "the limit holds");
    refusals += 1;
    println!("{refusals} refusals");
}
