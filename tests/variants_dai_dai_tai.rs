//! Dai-Dai and Tai Shogi (`variants/dai-dai.var`, `variants/tai.var`), which no program here
//! plays: every piece's destinations on an empty board as SV's piece tables give them
//! (transcribed, with their source, in `tests/destinations/`), and one test per special rule,
//! named after the rule: several royals of different kinds from the start, promotion by
//! capture and its options, the Peacock's hook along the forward diagonals.

mod support;

use koma::game::{EndReason, Game, Position};
use koma::rules::{Offset, Side, Square};
use std::collections::BTreeSet;
use support::*;

/// A position on an `n` × `n` board from the ranks that hold pieces, the others empty.
fn sfen(n: u8, ranks: &[(char, &str)], side: &str) -> String {
    let text: Vec<String> = (b'a'..b'a' + n)
        .map(|r| {
            ranks
                .iter()
                .find(|(name, _)| *name == r as char)
                .map_or(n.to_string(), |(_, t)| t.to_string())
        })
        .collect();
    format!("{} {side} - 1", text.join("/"))
}

// ------------------------------------------------------------------ destinations

/// Code 2048: a hook move along that line.
const HOOK: u32 = 2048;
/// Code 512: lion power along that line (two steps).
const LINE_LION: u32 = 512;

/// A piece of a table: abbreviation, the eight codes, the special column.
struct Entry {
    abbrev: String,
    codes: [u32; 8],
    special: String,
}

fn table(game: &str) -> Vec<Entry> {
    piece_table(game)
        .into_iter()
        .map(|row| {
            assert_eq!(row.rest.len(), 1, "{game}: {}: one special code", row.abbrev);
            Entry {
                special: row.rest[0].clone(),
                abbrev: row.abbrev,
                codes: row.codes,
            }
        })
        .collect()
}

/// The squares a piece of these codes reaches from `from` on an empty board, as
/// `tests/destinations/README.md` says; a hook turns 90° onto the lines of the table that
/// carry the hook code too.
fn expected(board: koma::rules::BoardSize, from: Square, entry: &Entry) -> BTreeSet<Square> {
    let at = |dx: i32, dy: i32| board.offset(Side::Black, from, Offset::new(dx as i8, dy as i8));
    let longest = i32::from(board.files.max(board.ranks));
    let mut out = BTreeSet::new();
    for (&(dx, dy), &code) in TABLE_DIRECTIONS.iter().zip(&entry.codes) {
        let reach: Vec<i32> = match code {
            0 => vec![],
            1 | 2 | 3 | 5 => (1..=code as i32).collect(),
            64 | HOOK => (1..=longest).collect(),
            128 => vec![2],
            LINE_LION => vec![1, 2],
            1024 => {
                out.extend([at(-1, 2 * dy), at(1, 2 * dy)].into_iter().flatten());
                vec![]
            }
            other => panic!("no such code {other}"),
        };
        out.extend(reach.iter().filter_map(|&k| at(dx * k, dy * k)));
        // A lion power along a line may pass (out and back) when its first square exists.
        if code == LINE_LION && at(dx, dy).is_some() {
            out.insert(from);
        }
        if code == HOOK {
            for k in (1..=longest).take_while(|&k| at(dx * k, dy * k).is_some()) {
                for (&(tx, ty), &turn) in TABLE_DIRECTIONS.iter().zip(&entry.codes) {
                    if turn == HOOK && tx * dx + ty * dy == 0 {
                        out.extend((1..=longest).filter_map(|j| at(dx * k + tx * j, dy * k + ty * j)));
                    }
                }
            }
        }
    }
    match entry.special.as_str() {
        // The Lion: every square within two king steps, and a pass.
        "L" => {
            out.extend(
                (-2..=2)
                    .flat_map(|dx| (-2..=2).map(move |dy| (dx, dy)))
                    .filter_map(|(dx, dy)| at(dx, dy)),
            );
        }
        // The Emperor: any other square.
        "E" => {
            for file in 1..=board.files {
                for rank in 1..=board.ranks {
                    out.insert(Square::new(file, rank));
                }
            }
            out.remove(&from);
        }
        "C" | "-" => {}
        other => panic!("no such special code {other}"),
    }
    out
}

/// Every piece of the game's table, from every square (every third file and rank on Tai's
/// board, to keep the test quick; the edges included): koma's destinations are those the
/// table's codes give on an empty board.
fn destinations_match_the_piece_table(game: &str, every: usize) {
    let tables = support::tables(game, &[]);
    let board = tables.rules().board;
    let squares: Vec<u8> = (1..=board.files)
        .filter(|&k| (k as usize - 1).is_multiple_of(every) || k == board.files)
        .collect();
    for entry in table(game) {
        let kind = id(tables.rules(), &entry.abbrev);
        for &file in &squares {
            for &rank in &squares {
                let from = Square::new(file, rank);
                assert_eq!(
                    lone_destinations(&tables, kind, from),
                    expected(board, from, &entry),
                    "{game}: {} on {from}",
                    entry.abbrev
                );
            }
        }
    }
}

#[test]
fn dai_dai_destinations_match_the_piece_table() {
    destinations_match_the_piece_table("dai-dai", 1);
}

#[test]
fn tai_destinations_match_the_piece_table() {
    destinations_match_the_piece_table("tai", 3);
}

// ------------------------------------------------------------------ several royals

/// Tai: the Emperor and the Crown Prince stand in the setup, one of each a side.
#[test]
fn tai_starts_with_an_emperor_and_a_crown_prince() {
    let tables = support::tables("tai", &[]);
    let pos = Position::start(tables);
    for side in [Side::Black, Side::White] {
        let royals: Vec<String> = pos
            .royal_squares(side)
            .iter()
            .map(|&s| {
                let royal = pos.piece(s).expect("a royal");
                pos.rules().piece(royal.kind()).abbrev.clone()
            })
            .collect();
        assert_eq!(royals.len(), 2, "{side:?}: {royals:?}");
        assert!(royals.contains(&"E".to_string()) && royals.contains(&"CP".to_string()));
    }
    assert_eq!(piece_at(&pos, "13y"), Some((Side::Black, "E".into())));
    assert_eq!(piece_at(&pos, "13x"), Some((Side::Black, "CP".into())));
}

/// Tai: a side loses when all its royals are captured; taking the Emperor while the Crown
/// Prince stands does not end the game.
#[test]
fn tai_all_royals_must_be_captured() {
    // White Emperor 1a, Crown Prince 25a; Black Rooks 1y and 25y, Emperor 13y, Prince 13x.
    let position = sfen(
        25,
        &[
            ('a', "[cp]23[e]"),
            ('m', "12[p]12"),
            ('x', "12[CP]12"),
            ('y', "[R]11[E]11[R]"),
        ],
        "b",
    );
    let mut game = Game::new(support::position("tai", &["self-check=legal"], &position));
    play_all(&mut game, &["1y1a+"]);
    assert_eq!(game.outcome(), None, "the Crown Prince is left");
    play_all(&mut game, &["13m13n"]);
    play_all(&mut game, &["25y25a+"]);
    assert_eq!(game.outcome(), win(Side::Black, EndReason::RoyalsCaptured));
}

/// Tai: with two royals, a move may leave one of them capturable (only the last royal is
/// guarded by the self-check rule).
#[test]
fn tai_exposing_one_of_two_royals_is_legal() {
    // Black Crown Prince 13x may step onto 14w, which the White Rook on 14a attacks.
    let position = sfen(25, &[('a', "[e]10[r]12[cp]"), ('x', "12[CP]12"), ('y', "12[E]12")], "b");
    let pos = support::position("tai", &[], &position);
    assert!(is_legal(&pos, "13x14w"));
}

/// Tai: the Drunk Elephant promotes (on a capture) to a second Crown Prince, a third royal.
#[test]
fn tai_drunk_elephant_promotes_to_a_second_crown_prince() {
    let position = sfen(
        25,
        &[
            ('a', "[e]23[cp]"),
            ('l', "12[p]12"),
            ('m', "12[DE]12"),
            ('x', "12[CP]12"),
            ('y', "12[E]12"),
        ],
        "b",
    );
    let mut pos = support::position("tai", &[], &position);
    assert_eq!(pos.royal_squares(Side::Black).len(), 2);
    play(&mut pos, "13m13l+");
    assert_eq!(piece_at(&pos, "13l"), Some((Side::Black, "+DE".into())));
    assert_eq!(pos.royal_squares(Side::Black).len(), 3);
}

// ------------------------------------------------------------------ promotion by capture

/// Dai-Dai (SV): a piece that has a promoted rank must promote when it captures; one that
/// has none (the Pawn) captures unchanged.
#[test]
fn dai_dai_promotion_by_capture_is_compulsory() {
    // Black Kylin 9i jumps to 9g; Black Pawn 5h takes 5g.
    let position = sfen(
        17,
        &[
            ('a', "[k]16"),
            ('g', "8[p]3[p]4"),
            ('h', "12[P]4"),
            ('i', "8[KY]8"),
            ('q', "16[K]"),
        ],
        "b",
    );
    let mut pos = support::position("dai-dai", &[], &position);
    assert!(is_legal(&pos, "9i9g+"));
    assert!(!is_legal(&pos, "9i9g"));
    assert!(is_legal(&pos, "5h5g"));
    assert!(!is_legal(&pos, "5h5g+"));
    play(&mut pos, "9i9g+");
    assert_eq!(piece_at(&pos, "9g"), Some((Side::Black, "+Ky".into())));
}

/// `capture-promotion=on-promoted` (the Chess Variant Pages' reading): promotion is
/// compulsory when the piece taken is promoted, optional otherwise.
#[test]
fn promotion_compulsory_only_when_capturing_a_promoted_piece() {
    // Black Kylins 9i and 5i; White Pawn 9g, White promoted Kylin (a Great Dragon) 5g.
    let position = sfen(
        17,
        &[
            ('a', "[k]16"),
            ('g', "8[p]3+[ky]4"),
            ('i', "8[KY]3[KY]4"),
            ('q', "16[K]"),
        ],
        "b",
    );
    for game in ["dai-dai", "tai"] {
        let position = if game == "tai" {
            sfen(
                25,
                &[
                    ('a', "[e]23[cp]"),
                    ('g', "16[p]3+[ky]4"),
                    ('i', "16[KY]3[KY]4"),
                    ('x', "[CP]24"),
                    ('y', "24[E]"),
                ],
                "b",
            )
        } else {
            position.clone()
        };
        let pos = support::position(game, &["capture-promotion=on-promoted"], &position);
        assert!(is_legal(&pos, "9i9g+"), "{game}");
        assert!(
            is_legal(&pos, "9i9g"),
            "{game}: taking an unpromoted Pawn, promotion is optional"
        );
        assert!(is_legal(&pos, "5i5g+"), "{game}");
        assert!(
            !is_legal(&pos, "5i5g"),
            "{game}: taking a promoted piece, promotion is compulsory"
        );
    }
}

// ------------------------------------------------------------------ the Peacock

/// Tai's Peacock hooks along the forward diagonals only (SV's table): after its first leg
/// along a forward diagonal it turns onto the other forward diagonal, not backwards; under
/// `peacock=either` it may turn either way. A piece in the way blocks either leg.
#[test]
fn peacock_hooks_turn_onto_the_other_forward_diagonal() {
    // Black Peacock 13m: forward-left to 14l, then forward-right to 13k, or back-left to 15m.
    let position = sfen(
        25,
        &[
            ('a', "[e]23[cp]"),
            ('h', "16[p]8"),
            ('m', "12[PC]12"),
            ('x', "[CP]24"),
            ('y', "24[E]"),
        ],
        "b",
    );
    let pos = support::position("tai", &[], &position);
    assert!(is_legal(&pos, "13m13k"));
    assert!(is_legal(&pos, "13m9g"), "forward-left 1, then forward-right 5");
    assert!(!is_legal(&pos, "13m15m"), "no turn backwards");
    assert!(is_legal(&pos, "13m15o"), "two squares back-left");
    assert!(!is_legal(&pos, "13m16p"), "no hook along a backward diagonal");
    let pos = support::position("tai", &["peacock=either"], &position);
    assert!(is_legal(&pos, "13m13k"));
    assert!(is_legal(&pos, "13m15m"), "a turn backwards under peacock=either");
    assert!(!is_legal(&pos, "13m16p"));
    // A White Pawn on 14l: taken, it ends the move; nothing passes it.
    let blocked = sfen(
        25,
        &[
            ('a', "[e]23[cp]"),
            ('l', "11[p]13"),
            ('m', "12[PC]12"),
            ('x', "[CP]24"),
            ('y', "24[E]"),
        ],
        "b",
    );
    let pos = support::position("tai", &[], &blocked);
    assert!(is_legal(&pos, "13m14l"));
    assert!(!is_legal(&pos, "13m15k"));
    assert!(!is_legal(&pos, "13m16l"), "no turn at an occupied square");
}

/// The pieces a file gives no kanji are exactly those its header says no source gives kanji
/// for (Tai, Dai-Dai); Wa's every piece has its kanji, and Whale's none (its header says why).
#[test]
fn the_pieces_without_kanji_are_those_the_file_says_have_none() {
    let said = |text: &str| -> Vec<String> {
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| l.trim_start_matches('#').trim())
            .collect::<Vec<_>>()
            .join(" ");
        let list = header
            .split_once("gives kanji for the ")
            .and_then(|(_, rest)| rest.split_once(':'))
            .map(|(list, _)| list)
            .expect("the header names the pieces without kanji");
        let mut names: Vec<String> = list.replace(" and ", ", ").split(", ").map(str::to_string).collect();
        names.sort();
        names
    };
    let without = |variant: &str| -> Vec<String> {
        let rules = support::compile_clean(variant, &[]);
        let mut names: Vec<String> = rules
            .pieces
            .iter()
            .filter(|p| p.kanji.is_none())
            .map(|p| p.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    };
    assert_eq!(without("tai"), said(include_str!("../variants/tai.var")));
    assert_eq!(without("dai-dai"), said(include_str!("../variants/dai-dai.var")));
    assert!(without("wa").is_empty(), "{:?}", without("wa"));
    let whale = support::compile_clean("whale", &[]);
    assert!(whale.pieces.iter().all(|p| p.kanji.is_none()));
    assert!(include_str!("../variants/whale.var").contains("# No kanji:"));
}
