//! Tenjiku Shogi: every piece's destinations on an empty board as SV's piece table gives them
//! (transcribed, with its source, in `tests/destinations/tenjiku.txt`), one test per rule of
//! SV's rule text Tenjiku.rul (docs/sources.md) named after the rule, the compiled rules and
//! the diagrams of the new movers. Positions are built by hand; the moves expected are worked
//! out from the rule text.

mod support;

use koma::game::{Game, Illegal, Position};
use koma::rules::{Side, Square};
use std::collections::BTreeSet;
use support::*;

const TENJIKU: &str = "tenjiku";

/// A Tenjiku SFEN from pieces on squares (`("8h", "[FID]")`; White's in lower case), the side
/// to move `b` or `w`.
fn board(pieces: &[(&str, &str)], side: &str) -> String {
    let ranks: Vec<String> = ('a'..='p')
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for file in (1..=16).rev() {
                let name = format!("{file}{rank}");
                match pieces.iter().find(|(s, _)| *s == name) {
                    Some((_, token)) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(token);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {side} - 1", ranks.join("/"))
}

/// The Kings, out of the way: Black's on 16p, White's on 12a.
const KINGS: [(&str, &str); 2] = [("16p", "[K]"), ("12a", "[k]")];

fn with_kings<'a>(pieces: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = KINGS.to_vec();
    all.extend_from_slice(pieces);
    all
}

fn tenjiku(options: &[&str], pieces: &[(&str, &str)], side: &str) -> Position {
    position(TENJIKU, options, &board(&with_kings(pieces), side))
}

fn destinations(pos: &mut Position, from: &str) -> BTreeSet<String> {
    legal_from(pos, from)
        .into_iter()
        .map(|m| m.trim_end_matches('+').to_string())
        .collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

// ------------------------------------------------------------------ burning

/// "After the 'Fire Demon' completes its move, ALL enemy pieces ... on one of the eight
/// adjacent squares are captured": here after capturing on its destination; its own pieces
/// next to it stay.
#[test]
fn fire_demon_burns_every_enemy_piece_next_to_where_it_lands() {
    let mut pos = tenjiku(
        &[],
        &[
            ("8h", "[FID]"),
            ("8e", "[p]"),
            ("9d", "[g]"),
            ("7e", "[s]"),
            ("7d", "[P]"),
            ("8c", "[g]"),
        ],
        "b",
    );
    play(&mut pos, "8h8e");
    assert_eq!(piece_at(&pos, "8e"), Some((Side::Black, "FiD".into())));
    assert_eq!(piece_at(&pos, "9d"), None, "burnt");
    assert_eq!(piece_at(&pos, "7e"), None, "burnt");
    assert_eq!(
        piece_at(&pos, "7d"),
        Some((Side::Black, "P".into())),
        "its own piece stays"
    );
    assert_eq!(piece_at(&pos, "8c"), Some((Side::White, "G".into())), "not next to it");
}

/// "A piece that ends its move next to an enemy 'Fire Demon' is still 'burnt' and removed from
/// the game. Such a capture does not constitute a move for the 'Fire Demon'."
#[test]
fn piece_ending_its_move_next_to_an_enemy_fire_demon_is_burnt() {
    let mut pos = tenjiku(&[], &[("8e", "[fid]"), ("6g", "[G]")], "b");
    play(&mut pos, "6g7f");
    assert_eq!(piece_at(&pos, "7f"), None, "burnt on arrival");
    assert_eq!(piece_at(&pos, "8e"), Some((Side::White, "FiD".into())));
    assert_eq!(pos.side_to_move(), Side::White, "the burn is no move of White's");
}

/// "If a 'Fire Demon' lands next to an opposing 'Fire Demon' it is the moving piece that is
/// burnt": under the default reading it is burnt at once and burns nothing; under
/// `demon-meets-demon=burns-first` it burns its other neighbours first.
#[test]
fn fire_demon_landing_next_to_an_enemy_fire_demon_is_burnt() {
    let pieces = [("8i", "[FID]"), ("8e", "[fid]"), ("9g", "[g]")];
    let mut pos = tenjiku(&[], &pieces, "b");
    play(&mut pos, "8i8f");
    assert_eq!(piece_at(&pos, "8f"), None, "the moving Demon is burnt");
    assert_eq!(piece_at(&pos, "8e"), Some((Side::White, "FiD".into())));
    assert_eq!(
        piece_at(&pos, "9g"),
        Some((Side::White, "G".into())),
        "burnt first: burns nothing"
    );

    let mut pos = tenjiku(&["demon-meets-demon=burns-first"], &pieces, "b");
    play(&mut pos, "8i8f");
    assert_eq!(piece_at(&pos, "8f"), None, "the moving Demon is burnt");
    assert_eq!(
        piece_at(&pos, "8e"),
        Some((Side::White, "FiD".into())),
        "the other Demon stays"
    );
    assert_eq!(piece_at(&pos, "9g"), None, "burns first: its other neighbours burn");
}

/// Burning captures a royal: a King that a Fire Demon can land next to is in check (here the
/// Demon cannot reach the King itself), and a move that leaves it so is illegal; a King may
/// not end its move next to an enemy Fire Demon.
#[test]
fn fire_demon_checks_a_king_it_can_land_next_to() {
    let pos = position(
        TENJIKU,
        &[],
        &board(&[("16p", "[K]"), ("7c", "[k]"), ("8h", "[FID]"), ("1d", "[p]")], "w"),
    );
    assert!(pos.royal_in_check(Side::White));
    assert_eq!(check(&pos, "1d1e"), Err(Illegal::LeavesRoyalInCheck));

    let pos = position(
        TENJIKU,
        &[],
        &board(&[("8e", "[fid]"), ("6g", "[K]"), ("12a", "[k]")], "b"),
    );
    assert_eq!(check(&pos, "6g7f"), Err(Illegal::LeavesRoyalInCheck));
}

// ------------------------------------------------------------------ range jumps

/// "When capturing by jumping, a piece may only jump over or capture lower ranked pieces": a
/// Great General (rank 2) takes the first piece it meets, jumps Pawns, a Gold and a Rook
/// General (rank 4) of either side to take the lower-ranked ones beyond, and stops at a Great
/// General (its own rank); it lands on no empty square past a jumped piece.
#[test]
fn great_general_jumps_lower_ranked_pieces_to_capture_and_equal_ranks_block() {
    let mut pos = tenjiku(
        &[],
        &[
            ("8m", "[GGN]"),
            ("8k", "[p]"),
            ("8j", "[P]"),
            ("8h", "[g]"),
            ("8f", "[rgn]"),
            ("8d", "[ggn]"),
            ("8b", "[p]"),
        ],
        "b",
    );
    let forward: BTreeSet<String> = destinations(&mut pos, "8m")
        .into_iter()
        .filter(|m| m.starts_with("8m8") && m.len() == 4 && m.as_bytes()[3] < b'm')
        .collect();
    assert_eq!(forward, set(&["8m8l", "8m8k", "8m8h", "8m8f"]));
}

/// "The 'Bishop General' and 'Rook General' are considered to be of equal rank and neither may
/// therefore jump the other, or capture the other by jumping": a Rook General takes a Bishop
/// General it meets first, but cannot jump it.
#[test]
fn rook_general_may_not_jump_a_bishop_general() {
    let mut pos = tenjiku(&[], &[("3m", "[RGN]"), ("3k", "[bgn]"), ("3h", "[p]")], "b");
    let forward: BTreeSet<String> = destinations(&mut pos, "3m")
        .into_iter()
        .filter(|m| m.starts_with("3m3") && m.len() == 4 && m.as_bytes()[3] < b'm')
        .collect();
    assert_eq!(forward, set(&["3m3l", "3m3k"]));
}

/// "The range jumping pieces only have the power to jump other pieces on a move in which they
/// are making a capture", and none jumps the King (rank 1): a Great General behind its own
/// King's file cannot reach past it.
#[test]
fn no_piece_jumps_the_king() {
    let mut pos = position(
        TENJIKU,
        &[],
        &board(&[("8p", "[GGN]"), ("8n", "[K]"), ("8c", "[k]"), ("16a", "[p]")], "b"),
    );
    assert!(!destinations(&mut pos, "8p").contains("8p8c"));
}

// ------------------------------------------------------------------ area moves

/// "any square that could be reached by ... consecutive single step 'King-type' moves"
/// through empty squares, ending at a capture: a Lion Hawk (version 1, two steps) walled in by
/// its own Pawns but for one gap reaches only through the gap, captures and stops there, and
/// never passes. Version 2 (a Lion) jumps the wall.
#[test]
fn area_move_goes_through_empty_squares_only_and_stops_at_a_capture() {
    let wall = [
        ("8h", "[LHK]"),
        ("9g", "[P]"),
        ("8g", "[P]"),
        ("7g", "[P]"),
        ("9h", "[P]"),
        ("7h", "[P]"),
        ("9i", "[P]"),
        ("8i", "[P]"),
        ("6i", "[g]"),
    ];
    let mut pos = tenjiku(&[], &wall, "b");
    assert_eq!(
        destinations(&mut pos, "8h"),
        set(&[
            // The Bishop's line through the gap.
            "8h7i", "8h6j", "8h5k", "8h4l", "8h3m", "8h2n", "8h1o", // two steps through 7i
            "8h6h", "8h6i", "8h7j", "8h8j",
        ])
    );
    let mut pos = tenjiku(&["lion-hawk=2"], &wall, "b");
    assert!(destinations(&mut pos, "8h").contains("8h8f"), "a Lion jumps");
}

/// SV's "AREA MOVE PIECES": a Fire Demon's area move reaches three king steps through empty
/// squares, not where a path would run through a piece.
#[test]
fn fire_demon_area_move_reaches_three_king_steps() {
    let mut pos = tenjiku(&[], &[("8h", "[FID]")], "b");
    let reached = destinations(&mut pos, "8h");
    for to in ["8h5g", "8h11j", "8h10e", "8h7k"] {
        assert!(reached.contains(to), "{to}: {reached:?}");
    }
    assert!(!reached.contains("8h4g"), "four steps");
    let mut pos = tenjiku(&["area-moves=off"], &[("8h", "[FID]")], "b");
    assert!(
        !destinations(&mut pos, "8h").contains("8h5g"),
        "HaChu's reading: no area move"
    );
}

// ------------------------------------------------------------------ Heavenly Tetrarchs

/// "The Tetrarchs can not move to any of the eight adjacent squares, but can capture a piece
/// on one of those squares without moving ... can jump over an adjacent square (even if
/// occupied) to move from the second square onwards on the diagonals as a ranging piece, or
/// to move to the second or third squares in a sideways direction."
#[test]
fn heavenly_tetrarchs_capture_next_to_them_by_igui_and_move_beyond_the_first_square() {
    let mut pos = tenjiku(
        &[],
        &[
            ("8h", "+[CHS]"),
            ("8g", "[p]"),
            ("9g", "[P]"),
            ("7g", "[g]"),
            ("7h", "[P]"),
            ("6h", "[g]"),
        ],
        "b",
    );
    let expected = set(&[
        // igui: the Pawn and the Gold next to it, captured where they stand
        "8h8g8h", "8h7g8h", // forward-left, over its own Pawn on 9g
        "8h10f", "8h11e", "8h12d", "8h13c", "8h14b", "8h15a", // forward-right, over the Gold
        "8h6f", "8h5e", "8h4d", "8h3c", "8h2b", "8h1a", // back-left and back-right, over empty squares
        "8h10j", "8h11k", "8h12l", "8h13m", "8h14n", "8h15o", "8h6j", "8h5k", "8h4l", "8h3m", "8h2n",
        "8h1o", // sideways: the second and third squares; right, over its Pawn, takes on 6h
        "8h10h", "8h11h", "8h6h",
    ]);
    assert_eq!(destinations(&mut pos, "8h"), expected);
}

// ------------------------------------------------------------------ royals, Lions, promotion

/// "If the opposing player has obtained a 'Crown Prince' by promotion, that piece must also be
/// captured in order to win the game": with a King and a Crown Prince, Black may leave the
/// Prince attacked, and losing it ends nothing; with the King alone it may not leave it so.
#[test]
fn all_royals_must_be_captured() {
    let pieces = [("16p", "[K]"), ("8h", "+[DE]"), ("8a", "[r]"), ("1a", "[k]")];
    let mut game = Game::new(position(TENJIKU, &[], &board(&pieces, "b")));
    play_all(&mut game, &["16p15p", "8a8h"]);
    assert_eq!(game.outcome(), None, "the King is left");
    let pos = position(
        TENJIKU,
        &[],
        &board(&[("16p", "[K]"), ("1p", "[r]"), ("1a", "[k]")], "b"),
    );
    assert_eq!(check(&pos, "16p15p"), Err(Illegal::LeavesRoyalInCheck));
}

/// "In Tenjiku Shogi there are no restrictions on the capture of Lions (as there are in Chu
/// Shogi)": a Lion takes a protected Lion two squares away, without a bridge capture.
#[test]
fn lions_are_captured_without_chus_restrictions() {
    let pos = tenjiku(&[], &[("8h", "[LN]"), ("8f", "[ln]"), ("8e", "[g]")], "b");
    assert!(is_legal(&pos, "8h8f"));
}

/// "A Dragon Horse that ... arose by promotion does not promote" (SV's table keys promotion by
/// piece): a Dragon Horse of the starting array promotes to a Horned Falcon, which promotes no
/// further; a Horned Falcon of the starting array promotes to a Bishop General.
#[test]
fn piece_that_arose_by_promotion_does_not_promote_again() {
    let mut pos = tenjiku(&[], &[("8h", "[DH]"), ("3g", "[HF]")], "b");
    play(&mut pos, "8h5e+");
    assert_eq!(piece_at(&pos, "5e"), Some((Side::Black, "+DH".into())));
    play(&mut pos, "12a13a");
    let moves = legal_from(&pos, "5e");
    assert!(moves.iter().all(|m| !m.ends_with('+')), "{moves:?}");
    play(&mut pos, "3g3e+");
    assert_eq!(piece_at(&pos, "3e"), Some((Side::Black, "+HF".into())));
    assert_eq!(pos.rules().piece(id(pos.rules(), "+HF")).name, "Bishop General");
}

// ------------------------------------------------------------------ destinations

/// The offsets (to the mover's right, forward) a code of SV's Tenjiku table reaches along one
/// direction on an empty board (`tests/destinations/README.md`; Tenjiku's codes as SV's rule
/// text explains them: 192 a slide that may also jump to the second square, 320 a slide that
/// range-jumps on a capture, 131 the Tetrarchs' sideways move to the second or third square,
/// 512 Lion power along the line).
fn code_offsets(code: u32, dir: (i32, i32), longest: i32) -> Vec<(i32, i32)> {
    let along = |n: i32| (dir.0 * n, dir.1 * n);
    match code {
        0 => vec![],
        1 | 2 | 3 | 5 => (1..=code as i32).map(along).collect(),
        64 | 192 | 320 => (1..=longest).map(along).collect(),
        128 => vec![along(2)],
        131 => vec![along(2), along(3)],
        512 => vec![along(1), along(2)],
        1024 => vec![(-1, 2 * dir.1), (1, 2 * dir.1)],
        other => panic!("no such code {other} in this table"),
    }
}

/// The squares within `n` king steps.
fn within(n: i32) -> Vec<(i32, i32)> {
    (-n..=n)
        .flat_map(|dx| (-n..=n).map(move |dy| (dx, dy)))
        .filter(|&o| o != (0, 0))
        .collect()
}

/// The pieces of the table: abbreviation, the eight codes, the special code.
fn table() -> Vec<(String, [u32; 8], String)> {
    piece_table("tenjiku")
        .into_iter()
        .map(|row| {
            let special = row.rest.first().expect("a special code").clone();
            (row.abbrev, row.codes, special)
        })
        .collect()
}

/// The rule text's "AREA MOVE PIECES": the Fire Demon and the Vice General (three king steps);
/// the table marks neither move in its codes.
const AREA_3: &[&str] = &["FiD", "+WBf", "VGn", "+BGn"];

/// Every entry of SV's table, from every square but the last two ranks: koma's destinations
/// are those its codes and specials give on an empty board (a Lion's include its start: the
/// pass; the Tetrarchs' no square next to them).
#[test]
fn tenjiku_destinations_match_the_piece_table() {
    let tables = support::tables(TENJIKU, &[]);
    let board = tables.rules().board;
    let longest = i32::from(board.files.max(board.ranks));
    for (abbrev, codes, special) in table() {
        let kind = id(tables.rules(), &abbrev);
        let mut offsets: Vec<(i32, i32)> = TABLE_DIRECTIONS
            .iter()
            .zip(codes)
            .flat_map(|(&dir, code)| code_offsets(code, dir, longest))
            .collect();
        match special.as_str() {
            "L" | "D" => offsets.extend(within(2)),
            "F" => offsets.extend(within(3)),
            "G" if AREA_3.contains(&abbrev.as_str()) => offsets.extend(within(3)),
            "T" => offsets.retain(|&(dx, dy)| dx.abs().max(dy.abs()) > 1),
            _ => {}
        }
        let passes = special == "L" || codes.contains(&512);
        for file in 1..=board.files {
            for rank in 3..=board.ranks {
                let from = Square::new(file, rank);
                let mut expected: BTreeSet<Square> = offsets
                    .iter()
                    .filter_map(|&(dx, dy)| {
                        board.offset(Side::Black, from, koma::rules::Offset::new(dx as i8, dy as i8))
                    })
                    .collect();
                if passes {
                    expected.insert(from);
                }
                assert_eq!(
                    lone_destinations(&tables, kind, from),
                    expected,
                    "tenjiku: {abbrev} on {from}"
                );
            }
        }
    }
}

// ------------------------------------------------------------------ tables and diagrams

#[test]
fn tenjiku_rules_tables() {
    let rules = compile_clean(TENJIKU, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_tenjiku", rules.to_ron()));
}

#[test]
fn tenjiku_diagrams_of_the_new_movers() {
    for piece in ["FiD", "GGn", "VGn", "+ChS", "LHk"] {
        let out = koma(&["show", TENJIKU, piece]);
        assert!(out.ok(), "{}", out.text());
        let name = format!("show_tenjiku_{}", piece.replace('+', "promoted_"));
        settings().bind(|| insta::assert_snapshot!(name, out.stdout));
    }
}
