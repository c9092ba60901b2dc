//! Hostile and extreme input to every reader: what `tests/diagnostics.rs`, `tests/sfen.rs`
//! and `tests/play.rs` do not already cover. Each case must be answered with a clear error
//! (or played correctly), quickly, and never with a panic, a hang or unbounded memory.
//!
//! Also koma's limits (docs/cli.md, "Limits"): past each one an error with a span.

mod support;

use koma::compile::limits::{MAX_TABLE_RUNS, table_runs};
use koma::compile::{self, Check, Compiled, MemoryLoader, Report, Source};
use koma::game::{EndReason, Game, LionCounting, MAX_MOVE_NUMBER, MoveTables, Position, Sq};
use koma::notation::{MAX_RECORD_MOVES, parse_record, read_move, read_record_file, read_sfen, replay, write_sfen};
use koma::rules::{MAX_LION_STEPS, MAX_ROYALS, Movement, Offset, Side};
use std::sync::Arc;
use std::time::Instant;
use support::{folder, koma, tables};

fn compile_text(name: &str, text: &str) -> Compiled {
    let source = Source {
        name: name.into(),
        text: text.into(),
    };
    compile::compile(source, &MemoryLoader::default(), &[])
}

fn checks(report: &Report) -> Vec<Check> {
    report.diagnostics.iter().map(|d| d.check).collect()
}

/// The text under a diagnostic's first label.
fn labelled(report: &Report, check: Check) -> &str {
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.check == check)
        .unwrap_or_else(|| panic!("no {check:?} in\n{}", report.render(false)));
    let span = d.labels[0].span.clone();
    &d.source.text[span]
}

fn tables_of(text: &str) -> Arc<MoveTables> {
    let compiled = compile_text("test.var", text);
    let rules = compiled
        .rules
        .unwrap_or_else(|| panic!("{}", compiled.report.render(false)));
    Arc::new(MoveTables::new(rules))
}

/// Every generated move passes the independent check and the position reads back.
fn plays_consistently(pos: &mut Position) -> usize {
    let legal = pos.legal_moves();
    for m in &legal {
        assert!(pos.is_legal(m), "{m:?}");
        let before = write_sfen(pos);
        let undo = pos.make(m);
        assert_eq!(pos.hash(), pos.full_hash());
        pos.unmake(m, &undo);
        assert_eq!(write_sfen(pos), before);
    }
    let sfen = write_sfen(pos);
    let back = read_sfen(pos.tables(), &sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(write_sfen(&back), sfen);
    legal.len()
}

/// A generated abbreviation: `Qaaa`, `Qaab`, …
fn abbrev(i: usize) -> String {
    let letter = |n: usize| char::from(b'a' + (n % 26) as u8);
    format!("Q{}{}{}", letter(i / 676), letter(i / 26), letter(i))
}

const SMALL: &str = "variant \"Small\"\nboard 5 x 5\npiece K \"King\" royal : step all\n";

// ---------------------------------------------------------------- files through `koma check`

#[test]
fn koma_check_answers_files_that_are_not_variants() {
    let dir = folder("adversarial", "check");
    let cases: &[(&str, &[u8], &str)] = &[
        ("empty.var", b"", "the file holds no statement"),
        (
            "comments.var",
            b"# a comment\n# another\n",
            "the file holds no statement",
        ),
        (
            "invalid-utf8.var",
            b"variant \"Caf\xe9\"\nboard 9 x 9\n",
            "is not UTF-8 text",
        ),
        ("nul.var", b"variant \"a\0b\"\nboard 9 x 9\0\n", "koma::"),
        (
            "garbage.var",
            &[0xff, 0x00, 0x13, 0x37, 0x80, b'\n', 0xc3, 0x28, 0xfe],
            "koma::",
        ),
        (
            "bom-and-crlf.var",
            b"\xef\xbb\xbfvariant \"X\"\r\nboard 9 x 9\r\n",
            "koma::",
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("written");
        let (code, out) = koma(&["check", path.to_str().expect("path")]).code_and_text();
        assert_eq!(code, Some(1), "{name}: {out}");
        assert!(out.contains(expected), "{name}: {out}");
    }
    // A folder, and a file past the size limit (read no further than the limit).
    let (code, out) = koma(&["check", dir.to_str().expect("path")]).code_and_text();
    assert_eq!(code, Some(1), "{out}");
    let big = dir.join("big.var");
    let file = std::fs::File::create(&big).expect("created");
    file.set_len(64 << 20).expect("a sparse file of 64 MB");
    let started = Instant::now();
    let (code, out) = koma(&["check", big.to_str().expect("path")]).code_and_text();
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("is larger than 4194304 bytes"), "{out}");
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

// ---------------------------------------------------------------- boards and pieces

#[test]
fn boards_of_1_by_1_and_100_by_100_are_refused_at_the_numbers() {
    for (board, culprit) in [("1 x 1", "1"), ("100 x 100", "100"), ("3 x 100", "100"), ("0 x 9", "0")] {
        let text = format!("variant \"B\"\nboard {board}\npiece K \"King\" royal : step all\nsetup\n  a: K\n");
        let report = compile_text("board.var", &text).report;
        assert!(
            checks(&report).contains(&Check::BoardSize),
            "{board}: {}",
            report.render(false)
        );
        assert_eq!(labelled(&report, Check::BoardSize), culprit, "{board}");
    }
    // The extremes that are allowed compile and play.
    for (board, row) in [("3 x 3", "  c: . K ."), ("36 x 36", "  aj: 17 K 18")] {
        let text = format!("variant \"B\"\nboard {board}\npiece K \"King\" royal : step all\nsetup\n{row}\n");
        let mut pos = Position::start(tables_of(&text));
        assert!(plays_consistently(&mut pos) > 0, "{board}");
    }
}

#[test]
fn a_piece_that_can_reach_every_square() {
    // The Emperor's move (`anywhere`) and a leap to every offset: every empty square and
    // every enemy piece is a move. (Each side's such piece always attacks the other's King:
    // the variant lets royals be captured.)
    let offsets: Vec<String> = (-4..=4)
        .flat_map(|x| (-4..=4).map(move |y| (x, y)))
        .filter(|&o| o != (0, 0))
        .map(|(x, y)| format!("({x}, {y})"))
        .collect();
    for moves in ["anywhere".to_string(), format!("leap {}", offsets.join(" "))] {
        let text = format!(
            "{SMALL}piece Q \"Queen of all\" : {moves}\npiece P \"Pawn\" : step forward\nsetup\n  d: . . P . .\n  e: Q . K . .\nstuck-pieces-stay\nroyal-capture-allowed\n"
        );
        let t = tables_of(&text);
        let mut pos = Position::start(t.clone());
        let geo = pos.geometry();
        let queen = geo.index(koma::rules::Square::new(5, 5));
        let reached = pos.legal_moves().iter().filter(|m| m.from == Some(queen)).count();
        // 25 squares, less its own and the squares of its King and Pawn.
        assert_eq!(reached, 22, "{moves}");
        plays_consistently(&mut pos);
    }
}

#[test]
fn a_position_whose_side_to_move_has_no_royal_plays_by_the_rules() {
    // Black has only a Gold: it has lost (no royal left), but its moves are still the rules'.
    let t = tables("shogi", &[]);
    let mut pos = read_sfen(&t, "4k4/9/9/9/9/9/9/9/4G4 b - 1").expect("reads");
    assert_eq!(plays_consistently(&mut pos), 5);
    let result = Game::new(pos).outcome().expect("the game is over");
    assert_eq!(
        (result.winner, result.reason),
        (Some(Side::White), EndReason::RoyalsCaptured)
    );
}

#[test]
fn a_start_where_the_side_to_move_can_take_the_royal_at_once_is_played() {
    // The variant's own start is taken as it is: no panic, and taking the King wins.
    let text = "variant \"Adjacent\"\nboard 3 x 3\npiece K \"King\" royal : step all\nsetup\n  c: . K .\nsetup white\n  b: . K .\n";
    let t = tables_of(text);
    let start = Position::start(t.clone());
    // As a position string it is refused, as any position where the royal can be taken.
    let sfen = write_sfen(&start);
    let e = read_sfen(&t, &sfen).expect_err("refused as a position string");
    assert!(e.message.contains("could capture"), "{e}");
    let mut game = Game::new(start);
    let take = read_move(game.position(), "2c2b").expect("the King may be taken");
    game.play(take).expect("legal");
    let result = game.outcome().expect("the game is over");
    assert_eq!(
        (result.winner, result.reason),
        (Some(Side::Black), EndReason::RoyalsCaptured)
    );
    let dir = folder("adversarial", "adjacent");
    let path = dir.join("adjacent.var");
    std::fs::write(&path, text).expect("written");
    let (code, out) = koma(&["perft", path.to_str().expect("path"), "1"]).code_and_text();
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("1"),
        "only the capture: every other square is next to the King"
    );
}

// ---------------------------------------------------------------- reuse

#[test]
fn recursive_use_on_disk_is_reported() {
    let dir = folder("adversarial", "use");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        path.to_str().expect("path").to_string()
    };
    let own = write("self.var", &format!("{SMALL}use \"self.var\"\nsetup\n  e: . . K . .\n"));
    let (code, out) = koma(&["check", &own]).code_and_text();
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("koma::recursive-use") && out.contains("uses itself"),
        "{out}"
    );
    let a = write("a.var", &format!("{SMALL}use \"b\"\nsetup\n  e: . . K . .\n"));
    write("b.var", "use \"a\"\npiece G \"Gold\" : step all\n");
    let (code, out) = koma(&["check", &a]).code_and_text();
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("koma::recursive-use") && out.contains("circle"), "{out}");
    // A chain of files deeper than the limit.
    for i in 0..20 {
        write(&format!("chain{i}.var"), &format!("use \"chain{}\"\n", i + 1));
    }
    write("chain20.var", "piece G \"Gold\" : step all\n");
    let main = write("deep.var", &format!("{SMALL}use \"chain0\"\nsetup\n  e: . . K . .\n"));
    let (code, out) = koma(&["check", &main]).code_and_text();
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("koma::limit") && out.contains("files deep"), "{out}");
}

// ---------------------------------------------------------------- records

#[test]
fn a_record_cut_off_mid_move_keeps_the_moves_before() {
    let t = tables("shogi", &[]);
    for (text, kept) in [
        ("[Variant \"shogi\"]\n\n1. P-7f P-3d 2. P-", 2),
        ("[Variant \"shogi\"]\n\n1. P-7f P-3d 2. P-2f P-3", 3),
        ("[Variant \"shogi\"]\n\n1. P-7f P-3d 2. 7g", 2),
    ] {
        let record = parse_record(text).expect("the record reads");
        let mut game = Game::new(Position::start(t.clone()));
        let e = replay(&mut game, &record).expect_err("the last move is cut off");
        assert_eq!((e.line, e.ply), (3, Some(kept + 1)), "{text}: {e}");
        assert_eq!(game.len(), kept);
    }
    // Cut off in a tag or in a comment: an error that names the line.
    let e = parse_record("[Variant \"shogi\"]\n[Black \"hum").expect_err("a tag cut off");
    assert_eq!(e.line, 2);
    let e = parse_record("[Variant \"shogi\"]\n\n1. P-7f {a comment").expect_err("a comment cut off");
    assert!(e.message.contains("never closed"), "{e}");
}

#[test]
fn a_record_of_another_variant_stops_at_its_first_move() {
    // Tori's moves on a Shogi board: the first is refused, nothing is played.
    let record = parse_record("[Variant \"tori\"]\n\n1. Sw-3c Sw-5e 2. Fa-3e *\n").expect("reads");
    let mut game = Game::new(Position::start(tables("shogi", &[])));
    let e = replay(&mut game, &record).expect_err("not a Shogi move");
    assert_eq!(e.ply, Some(1));
    assert!(e.message.contains("Sw-3c"), "{e}");
    assert!(game.is_empty());
}

#[test]
fn records_past_the_limits_are_refused() {
    let moves = "P-7f P-3d ".repeat(MAX_RECORD_MOVES / 2 + 1);
    let e = parse_record(&format!("[Variant \"shogi\"]\n\n{moves}")).expect_err("too many moves");
    assert!(e.message.contains("more than"), "{e}");
    let dir = folder("adversarial", "record");
    let big = dir.join("big.rec");
    std::fs::File::create(&big)
        .expect("created")
        .set_len(64 << 20)
        .expect("sparse");
    let e = read_record_file(&big).expect_err("too large");
    assert!(e.contains("larger than"), "{e}");
    let bad = dir.join("bad.rec");
    std::fs::write(&bad, b"[Variant \"sh\xffgi\"]\n").expect("written");
    let e = read_record_file(&bad).expect_err("not UTF-8");
    assert!(e.contains("not UTF-8"), "{e}");
}

// ---------------------------------------------------------------- positions

#[test]
fn positions_with_more_in_hand_than_exist_are_refused() {
    let t = tables("shogi", &[]);
    let board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    for hand in ["255P255P255P", "19p", "255P", "2K", "3R"] {
        let e = read_sfen(&t, &format!("{board} b {hand} 1")).expect_err(hand);
        assert!(
            e.message
                .contains("but the variant's setup (its board and hands at the start) has only"),
            "{hand}: {e}"
        );
    }
    let e = read_sfen(&t, &format!("{board} b 99999999999999999999P 1")).expect_err("huge count");
    assert!(e.message.contains("1 to 255"), "{e}");
}

#[test]
fn enormous_numbers_in_position_strings() {
    let t = tables("shogi", &[]);
    let board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    for text in [
        "99999999999999999999/9/9/9/9/9/9/9/9 b - 1".to_string(),
        "4294967296/9/9/9/9/9/9/9/9 b - 1".to_string(),
        format!("{board} b - 99999999999999999999"),
        format!("{board} b - 4294967295"),
        format!("{board} b - 0"),
    ] {
        assert!(read_sfen(&t, &text).is_err(), "{text}");
    }
    // The largest move number reads, plays and reads back.
    let mut pos = read_sfen(&t, &format!("{board} w - {MAX_MOVE_NUMBER}")).expect("reads");
    let m = pos.legal_moves()[0];
    pos.make(&m);
    assert_eq!(pos.move_number(), MAX_MOVE_NUMBER + 1);
}

#[test]
fn royals_past_the_limit_are_refused() {
    // Chu has no drops: five Kings of one side are one too many.
    let t = tables("chu", &[]);
    let e = read_sfen(&t, "k11/12/12/12/12/12/12/12/12/12/12/KKKKK7 b - 1").expect_err("five Kings");
    assert!(e.message.contains("royal"), "{e}");
    let four = read_sfen(&t, "k11/12/12/12/12/12/12/12/12/12/12/KKKK8 b - 1").expect("four Kings");
    assert!(four.royal_squares(Side::Black).len() == 4);
    // Drunk Elephants promote to Crown Princes: they count.
    assert!(read_sfen(&t, "k11/12/12/12/12/12/12/12/12/12/12/KKKEE7 b - 1").is_err());
    // With drops, a royal piece in hand may go to either side.
    let shogi = tables("shogi", &[]);
    assert!(read_sfen(&shogi, "4k4/9/9/9/9/9/9/9/4K4 b - 1").is_ok());
    // The compiler refuses a setup with more.
    let text = format!("{SMALL}setup\n  e: K K K K K\n");
    let report = compile_text("kings.var", &text).report;
    assert!(checks(&report).contains(&Check::Limit), "{}", report.render(false));
    assert!(report.render(false).contains(&format!("limit of {MAX_ROYALS}")));
}

// ---------------------------------------------------------------- limits of the language

#[test]
fn lion_moves_past_three_steps_are_refused_at_the_number() {
    let text = format!("{SMALL}piece Ln \"Lion\" : lion 4\nsetup\n  e: . Ln K . .\n");
    let report = compile_text("lion.var", &text).report;
    assert_eq!(labelled(&report, Check::Limit), "4");
    assert!(report.render(false).contains(&format!("limit of {MAX_LION_STEPS}")));
    let text = format!("{SMALL}piece Ln \"Lion\" : lion 99999999999 forward\nsetup\n  e: . Ln K . .\n");
    assert!(compile_text("lion.var", &text).report.has_errors());
}

#[test]
fn movement_tables_past_the_limit_are_refused_at_a_piece() {
    // A piece that leaps to every offset of a 36 × 36 board (5,040 runs a side), 420 kinds
    // that move as it, and the King: 4,243,696 runs, past the limit.
    let text = support::leapers_var(420);
    let started = Instant::now();
    let report = compile_text("leapers.var", &text).report;
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    let limit = report
        .diagnostics
        .iter()
        .find(|d| d.check == Check::Limit)
        .unwrap_or_else(|| panic!("{}", report.render(false)));
    assert!(
        limit.message.contains(&MAX_TABLE_RUNS.to_string()) && limit.message.contains("4243696 runs"),
        "{}",
        limit.message
    );
    assert_eq!(labelled(&report, Check::Limit), "A", "the biggest piece is named");
    // The count is the tables' own: one run a side for a step, none for a walked Lion move.
    let step = Movement::Ride {
        dir: Offset::new(0, 1),
        max: Some(1),
        mode: Default::default(),
        from_last_rank: false,
        beyond: 0,
    };
    let lion = Movement::AreaLion {
        steps: 2,
        mode: Default::default(),
    };
    assert_eq!((table_runs(&step), table_runs(&lion)), (1, 0));
}

#[test]
fn the_largest_movement_tables_under_the_limit_are_built() {
    // 60 kinds that leap to every offset of a 36 × 36 board (the limit was once past here):
    // the lines are shared by every kind, so the variant compiles and plays.
    let text = support::leapers_var(59);
    let rules = compile_text("leapers.var", &text)
        .rules
        .expect("compiles under the limit");
    let pos = Position::start(Arc::new(MoveTables::new(rules)));
    let side = pos.side_to_move();
    let geo = pos.geometry();
    let own = geo
        .squares()
        .filter(|&sq| pos.piece(sq).is_some_and(|p| p.side() == side))
        .count();
    // Each leaper reaches every square of the board but those its own side holds.
    let leapers: Vec<Sq> = geo
        .squares()
        .filter(|&sq| pos.piece(sq).is_some_and(|p| p.side() == side && p.kind().0 != 60))
        .collect();
    assert_eq!(leapers.len(), 60);
    for from in leapers {
        let mut moves = Vec::new();
        pos.pseudo_moves_from(from, &mut moves, LionCounting::Distinct);
        assert_eq!(moves.len(), geo.len() - own, "from {from:?}");
    }
}

#[test]
fn many_warnings_do_not_hide_an_error() {
    // 250 unused pieces (warnings), then a missing royal: the error is still reported.
    let mut text = String::from("variant \"W\"\nboard 9 x 9\n");
    for i in 0..250 {
        text.push_str(&format!("piece {} \"P{i}\" : step all\n", abbrev(i)));
    }
    text.push_str("piece K \"King\" : step all\nsetup\n  i: 4 K 4\n");
    let report = compile_text("warnings.var", &text).report;
    assert!(checks(&report).contains(&Check::NoRoyal), "{}", report.render(false));
    // With warnings only, the variant compiles however many there are.
    let text = text.replace("\"King\" :", "\"King\" royal :");
    let compiled = compile_text("warnings.var", &text);
    assert!(compiled.rules.is_some(), "{}", compiled.report.summary("warnings.var"));
    assert!(!compiled.report.has_errors());
}

/// A generated 1 MB variant file is checked (here: rejected, and accepted) in well under a
/// second in a release build; the bound here is generous, for unoptimised and busy machines.
#[test]
fn a_one_megabyte_variant_is_checked_quickly() {
    let mut valid = String::from("variant \"Big\"\nboard 36 x 36\nstuck-pieces-stay\n");
    let mut abbrevs = Vec::new();
    let mut i = 0;
    while valid.len() < 1 << 20 {
        let abbrev = abbrev(i);
        if i < 900 {
            valid.push_str(&format!(
                "piece {abbrev} \"Piece {i}\" value {i} : step forward, range 2 sideways, jump 2 back # a comment\n"
            ));
            abbrevs.push(abbrev);
        } else {
            valid.push_str("# padding: a comment line, as long files have many of them, to reach a megabyte.\n");
        }
        i += 1;
    }
    valid.push_str("piece K \"King\" royal : step all\nsetup\n");
    for (r, chunk) in abbrevs.chunks(36).take(17).enumerate() {
        valid.push_str(&format!(
            "  {}: {}\n",
            koma::rules::rank_name(r as u8 + 19),
            chunk.join(" ")
        ));
    }
    valid.push_str("  aj: 17 K 18\n");
    let broken: String = valid
        .replace("step forward", "step frward")
        .replace("setup\n", "setp\n");
    // Mistakes at the end of a megabyte: drawing each one reads the lines around it, not
    // the file from its start.
    let mut late = "variant \"Late\"\nboard 9 x 9\npiece K \"King\" royal : step all\n".to_string();
    while late.len() < 1 << 20 {
        late.push_str("# padding: a comment line, as long files have many of them, to reach a megabyte.\n");
    }
    for i in 0..300 {
        late.push_str(&format!("piece A{i} \"Piece {i}\" : stpe forward\n"));
    }
    late.push_str("setup\n  i: K\n");
    for (name, text, ok) in [
        ("valid", &valid, true),
        ("broken", &broken, false),
        ("late", &late, false),
    ] {
        assert!(text.len() >= 1 << 20);
        let started = Instant::now();
        let compiled = compile_text("big.var", text);
        let rendered = compiled.report.render(false);
        let elapsed = started.elapsed();
        assert!(ok || rendered.contains("koma::"), "{name}");
        println!("{name}: {} bytes checked in {elapsed:?}", text.len());
        assert_eq!(
            compiled.rules.is_some(),
            ok,
            "{name}: {}",
            compiled.report.summary("big.var")
        );
        assert!(elapsed.as_secs_f64() < 10.0, "{name}: {elapsed:?}");
    }
}

/// The deepest nesting the language has: a chain of `as` (each piece moves as the next) as
/// long as the piece kinds allow, and a chain of promotions; no stack runs out.
#[test]
fn the_longest_chains_of_as_and_promotion_compile() {
    let mut text = String::from("variant \"Chain\"\nboard 9 x 9\nstuck-pieces-stay\n");
    for i in 0..998 {
        text.push_str(&format!(
            "piece {} \"P{i}\" : step forward, as {}\n",
            abbrev(i),
            abbrev(i + 1)
        ));
    }
    text.push_str(&format!("piece {} \"Last\" : step back\n", abbrev(998)));
    text.push_str(&format!(
        "piece K \"King\" royal : step all\nsetup\n  i: {} 3 K 4\n",
        abbrev(0)
    ));
    let compiled = compile_text("chain.var", &text);
    let rules = compiled
        .rules
        .unwrap_or_else(|| panic!("{}", compiled.report.summary("chain.var")));
    assert_eq!(
        rules.pieces[0].moves.len(),
        2,
        "step forward and, at the end, step back"
    );
    let mut text = String::from("variant \"Promotions\"\nboard 9 x 9\n");
    for i in 0..998 {
        text.push_str(&format!(
            "piece {} \"P{i}\" promotes {} : step all\n",
            abbrev(i),
            abbrev(i + 1)
        ));
    }
    text.push_str(&format!("piece {} \"Last\" : step all\n", abbrev(998)));
    text.push_str(&format!(
        "piece K \"King\" royal : step all\nsetup\n  i: {} 3 K 4\npromotion zone 3\n",
        abbrev(0)
    ));
    let report = compile_text("promotions.var", &text).report;
    let _ = report.render(false);
}

/// Files that use the same file many times: each file is read once, so a chain of files
/// that each use the next twice (2^15 paths) and a megabyte of `use "chu"` check quickly.
#[test]
fn a_file_used_many_times_is_read_once() {
    let mut files = Vec::new();
    for i in 0..15 {
        let text = format!(
            "use \"l{}\"\nuse \"l{}\": G\npiece P{} \"P{i}\" : step forward\n",
            i + 1,
            i + 1,
            char::from(b'a' + i as u8)
        );
        files.push((format!("l{i}.var"), text));
    }
    files.push(("l15.var".into(), "piece G \"Gold\" : step all\n".into()));
    let main = format!("{SMALL}use \"l0\"\nsetup\n  e: . G K G .\n");
    let loader = MemoryLoader { files };
    let source = Source {
        name: "main.var".into(),
        text: main.as_str().into(),
    };
    let started = Instant::now();
    let compiled = compile::compile(source, &loader, &[]);
    assert!(compiled.rules.is_some(), "{}", compiled.report.render(false));
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());

    let mut text = String::from("variant \"Uses\"\nboard 12 x 12\n");
    while text.len() < 1 << 20 {
        text.push_str("use \"chu\"\n");
    }
    text.push_str("setup\n  l: 6 K 5\n");
    let started = Instant::now();
    let compiled = compile_text("uses.var", &text);
    println!("{} bytes of `use` checked in {:?}", text.len(), started.elapsed());
    assert!(compiled.rules.is_some(), "{}", compiled.report.summary("uses.var"));
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

/// A FIFO swapped in for a regular file between koma's look at the path and its open (reached
/// in `koma serve v.var` after 34 requests) is refused, never waited on: the file is opened
/// without blocking and what was opened is checked. Two names are swapped back and forth
/// while reads run; each read is an error or the file's text, and none blocks.
#[cfg(unix)]
#[test]
fn a_fifo_swapped_in_for_a_file_is_refused_without_blocking() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = folder("adversarial", "fifo-swap");
    let (file, fifo, spare) = (dir.join("v.var"), dir.join("pipe"), dir.join("spare"));
    std::fs::write(&file, "variant \"V\"\n").unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let done = Arc::new(AtomicBool::new(false));
    let swapping = {
        let (done, file, fifo, spare) = (done.clone(), file.clone(), fifo.clone(), spare.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                // v.var is the file, then the FIFO, then the file again.
                let _ = std::fs::rename(&file, &spare);
                let _ = std::fs::rename(&fifo, &file);
                let _ = std::fs::rename(&file, &fifo);
                let _ = std::fs::rename(&spare, &file);
            }
        })
    };
    let reads = {
        let file = file.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            while started.elapsed() < std::time::Duration::from_secs(2) {
                if let Ok(bytes) = koma::files::read_regular(&file, 1 << 20) {
                    assert_eq!(bytes, b"variant \"V\"\n");
                }
            }
        })
    };
    let started = Instant::now();
    while !reads.is_finished() && started.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let finished = reads.is_finished();
    done.store(true, Ordering::Relaxed);
    swapping.join().unwrap();
    if !finished {
        // Release the read blocked on the FIFO, wherever it now is, so the test can end.
        for name in [&file, &fifo, &spare] {
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(name);
        }
    }
    assert!(finished, "a read blocked on the FIFO swapped in");
    reads.join().unwrap();
}
