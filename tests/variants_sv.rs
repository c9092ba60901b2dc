//! Wa, Whale, Heian and Heian-Dai Shogi, the 'Shogi Variants' (SV) games with no other
//! program to count against but Wa (HaChu, `tests/perft/wa.perft`): every piece's
//! destinations on an empty board as SV's piece tables give them (transcribed, with their
//! source, in `tests/destinations/`), and one test per special rule of each game, named
//! after the rule.

mod support;

use koma::game::{EndReason, Game, Illegal, Position};
use koma::rules::{Side, Square};
use std::collections::BTreeSet;
use support::*;

fn game(variant: &str, options: &[&str], sfen: &str) -> Game {
    Game::new(position(variant, options, sfen))
}

// ------------------------------------------------------------------ Wa

/// Wa, drops off (the default, SV's piece table and HaChu): a captured piece leaves the game.
#[test]
fn wa_optional_drops_off_captured_pieces_leave_the_game() {
    let mut pos = position("wa", &[], "k10/11/11/11/11/5p5/5P5/11/11/11/10K b - 1");
    play(&mut pos, "6g6f");
    assert_eq!(in_hand(&pos, Side::Black, "SP"), 0);
    assert_eq!(legal_drops(&pos), Vec::<String>::new());
}

/// Wa, drops on (SV's option): a captured piece goes to the hand, with Shogi's limits for the
/// Sparrow Pawn: none on a file that holds an unpromoted one, none on the last rank.
#[test]
fn wa_optional_drops_on_captured_pieces_are_dropped_with_the_sparrow_pawn_limits() {
    let mut pos = position("wa", &["drops=on"], "k10/11/11/11/11/5p5/5P5/11/11/11/10K b - 1");
    play(&mut pos, "6g6f");
    assert_eq!(in_hand(&pos, Side::Black, "SP"), 1);
    play(&mut pos, "11a11b");
    let drops = legal_drops(&pos);
    assert!(drops.contains(&"P*5e".to_string()), "{drops:?}");
    assert!(
        !drops.contains(&"P*6e".to_string()),
        "a Sparrow Pawn stands on file 6: {drops:?}"
    );
    assert!(
        !drops.contains(&"P*5a".to_string()),
        "no move from the last rank: {drops:?}"
    );
}

// ------------------------------------------------------------------ destinations

/// The board offsets (to the mover's right, forward) a direction code of SV's piece tables
/// reaches along one direction on an empty board, as `tests/destinations/README.md` says.
fn code_offsets(code: u32, dir: (i32, i32), longest: i32) -> Vec<(i32, i32)> {
    let along = |n: i32| (dir.0 * n, dir.1 * n);
    match code {
        0 => vec![],
        1 | 2 | 3 | 5 => (1..=code as i32).map(along).collect(),
        64 => (1..=longest).map(along).collect(),
        128 => vec![along(2)],
        129 => vec![along(1), along(2)],
        // The Knight's leap along a vertical line: two squares along it, one to either side.
        1024 => vec![(-1, 2 * dir.1), (1, 2 * dir.1)],
        other => panic!("no such code {other} in this table"),
    }
}

/// The pieces of a data file: abbreviation and the eight codes.
fn table(game: &str) -> Vec<(String, [u32; 8])> {
    piece_table(game)
        .into_iter()
        .map(|row| {
            assert!(row.rest.is_empty(), "{game}: {}: eight codes only", row.abbrev);
            (row.abbrev, row.codes)
        })
        .collect()
}

/// Every piece of the game's table, from every square but the last two ranks: koma's
/// destinations are those the table's codes give on an empty board.
fn destinations_match_the_piece_table(game: &str, options: &[&str]) {
    let tables = support::tables(game, options);
    let board = tables.rules().board;
    let longest = i32::from(board.files.max(board.ranks));
    for (abbrev, codes) in table(game) {
        let kind = id(tables.rules(), &abbrev);
        for file in 1..=board.files {
            for rank in 3..=board.ranks {
                let from = Square::new(file, rank);
                let expected: BTreeSet<Square> = TABLE_DIRECTIONS
                    .iter()
                    .zip(codes)
                    .flat_map(|(&dir, code)| code_offsets(code, dir, longest))
                    .filter_map(|(dx, dy)| {
                        let offset = koma::rules::Offset::new(dx as i8, dy as i8);
                        board.offset(Side::Black, from, offset)
                    })
                    .collect();
                assert_eq!(
                    lone_destinations(&tables, kind, from),
                    expected,
                    "{game}: {abbrev} on {from}"
                );
            }
        }
    }
}

#[test]
fn wa_destinations_match_the_piece_table() {
    destinations_match_the_piece_table("wa", &[]);
}

#[test]
fn whale_destinations_match_the_piece_table() {
    destinations_match_the_piece_table("whale", &[]);
}

#[test]
fn heian_destinations_match_the_piece_table() {
    destinations_match_the_piece_table("heian", &[]);
}

#[test]
fn heian_dai_destinations_match_the_piece_table() {
    destinations_match_the_piece_table("heian-dai", &[]);
}

// ------------------------------------------------------------------ Whale

/// Whale: a captured Porpoise leaves the game, and the capturer takes a Killer Whale into its
/// hand; a captured Killer Whale stays a Killer Whale.
#[test]
fn whale_captured_porpoise_enters_the_hand_as_a_killer_whale() {
    let mut pos = position("whale", &[], "w5/6/3p2/3K2/6/5W b - 1");
    play(&mut pos, "3d3c");
    assert_eq!(in_hand(&pos, Side::Black, "K"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "P"), 0);
    // White takes the Killer Whale back with its White Whale: a Killer Whale in its hand.
    let mut pos = position("whale", &[], "6/6/2wK2/6/6/5W w - 1");
    play(&mut pos, "4c3c");
    assert_eq!(in_hand(&pos, Side::White, "K"), 1);
}

/// Whale: the Dolphin steps forward; from its last rank alone it moves back diagonally, any
/// distance under SV's reading, one or two squares under `dolphin-retreat=two`.
#[test]
fn whale_dolphin_moves_back_diagonally_only_from_its_last_rank() {
    let sfen = "3D2/6/6/6/6/w4W b - 1";
    let pos = position("whale", &[], sfen);
    assert_eq!(legal_from(&pos, "3a"), list(&["3a1c", "3a2b", "3a4b", "3a5c", "3a6d"]));
    let pos = position("whale", &["dolphin-retreat=two"], sfen);
    assert_eq!(legal_from(&pos, "3a"), list(&["3a1c", "3a2b", "3a4b", "3a5c"]));
    // Elsewhere, one step forward and nothing else.
    let pos = position("whale", &[], "6/6/3D2/6/6/w4W b - 1");
    assert_eq!(legal_from(&pos, "3c"), list(&["3c3b"]));
}

/// Whale: a Dolphin from the last rank gives check back diagonally, so a White Whale may not
/// step onto its diagonal.
#[test]
fn whale_dolphin_on_its_last_rank_attacks_back_diagonally() {
    let pos = position("whale", &[], "2D3/6/6/w5/6/5W w - 1");
    assert_eq!(check(&pos, "6d6c"), Err(Illegal::LeavesRoyalInCheck));
    assert!(is_legal(&pos, "6d5c"));
}

/// Whale: a Dolphin may not be dropped on the last rank, nor on a file holding two Dolphins
/// of its side, nor to give immediate mate; other pieces drop anywhere.
#[test]
fn whale_dolphin_drops_are_restricted() {
    let pos = position("whale", &[], "5w/6/6/D5/D5/5W b Dk 1");
    let drops = legal_drops(&pos);
    assert!(
        !drops.iter().any(|d| d.starts_with("D*") && d.ends_with('a')),
        "{drops:?}"
    );
    assert!(
        !drops.contains(&"D*6c".to_string()),
        "two Dolphins on file 6: {drops:?}"
    );
    assert!(drops.contains(&"D*5c".to_string()), "{drops:?}");
    // The Killer Whale may be dropped on the last rank.
    let pos = position("whale", &[], "5w/6/6/6/6/5W b K 1");
    assert!(legal_drops(&pos).contains(&"K*3a".to_string()));
    // Mate by a Dolphin dropped in front of the White Whale: not allowed.
    let pos = position("whale", &[], "5w/3K2/4B1/6/6/5W b D 1");
    assert_eq!(check(&pos, "D*1b"), Err(Illegal::DropMate));
}

/// Whale: the limit of two Dolphins on a file holds for drops under SV's reading, and for
/// moves as well under the inventor's (`dolphin-file-limit=moves-and-drops`).
#[test]
fn whale_dolphin_file_limit_follows_the_option() {
    // Black's Dolphin on 5a may go back to 6b, on file 6 where two Black Dolphins stand.
    let sfen = "1D4/6/D5/D5/6/w4W b - 1";
    let pos = position("whale", &[], sfen);
    assert!(is_legal(&pos, "5a6b"));
    let pos = position("whale", &["dolphin-file-limit=moves-and-drops"], sfen);
    assert_eq!(check(&pos, "5a6b"), Err(Illegal::FileLimit));
    assert!(is_legal(&pos, "5a4b"));
}

// ------------------------------------------------------------------ Heian

/// Heian: the setup and zone of HShogi.dat by default (Pawns on the third rank, zone of 3);
/// Heiansho.dat's under `setup=heiansho` (Pawns on the second rank, zone of 2).
#[test]
fn heian_setups_follow_the_option() {
    let hshogi = Game::new(Position::start(support::tables("heian", &[])));
    assert_eq!(piece_at(hshogi.position(), "5f"), Some((Side::Black, "P".into())));
    assert_eq!(piece_at(hshogi.position(), "5c"), Some((Side::White, "P".into())));
    let heiansho = Game::new(Position::start(support::tables("heian", &["setup=heiansho"])));
    assert_eq!(piece_at(heiansho.position(), "5g"), Some((Side::Black, "P".into())));
    assert_eq!(piece_at(heiansho.position(), "5b"), Some((Side::White, "P".into())));
    // A Silver entering the third rank may promote under HShogi's zone, not under Heiansho's.
    let sfen = "k8/9/9/4S4/9/9/9/8K b - 1";
    let pos = position("heian", &[], sfen);
    assert!(is_legal(&pos, "5d5c+"));
    let pos = position("heian", &["setup=heiansho"], sfen);
    assert!(!is_legal(&pos, "5d5c+"));
}

/// Heian: taking every piece but the King wins, unless the bared King bares the other at
/// once, which draws.
#[test]
fn heian_bare_king_wins_unless_bared_back() {
    let mut g = game("heian", &[], "k8/9/9/4p4/4G4/9/9/8K b - 1");
    play_all(&mut g, &["5e5d"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::BareKing));
    // White's King takes the Gold back at once: both Kings bare, a draw.
    let mut g = game("heian", &[], "9/9/3k5/4p4/4G4/9/9/8K b - 1");
    play_all(&mut g, &["5e5d", "6c5d"]);
    assert_eq!(g.outcome(), draw(EndReason::BothBare));
}

// ------------------------------------------------------------------ Heian-Dai

/// Heian-Dai: the Flying Dragon slides diagonally (SV), or goes up to two squares under
/// `flying-dragon=dai`; promoted, it keeps that move and gains the orthogonal steps.
#[test]
fn heian_dai_flying_dragon_follows_the_option() {
    let reach = |options: &[&str], abbrev: &str| {
        let tables = support::tables("heian-dai", options);
        lone_destinations(&tables, id(tables.rules(), abbrev), Square::new(7, 7)).len()
    };
    assert_eq!(reach(&[], "FD"), 24);
    assert_eq!(reach(&["flying-dragon=dai"], "FD"), 8);
    assert_eq!(reach(&["flying-dragon=dai"], "+FD"), 12);
}

/// Heian-Dai: under SV's reading a Pawn must promote on the last rank; under
/// `last-rank=wikipedia` it promotes on entering the zone or capturing in it, and a Pawn
/// that moves on to the last rank without capturing stays there unpromoted.
#[test]
fn heian_dai_last_rank_follows_the_option() {
    let sfen = "[k]12/7[P]5/13/13/13/13/13/13/13/13/13/13/12[K] b - 1";
    let pos = position("heian-dai", &[], sfen);
    assert_eq!(legal_from(&pos, "6b"), list(&["6b6a+"]));
    let pos = position("heian-dai", &["last-rank=wikipedia"], sfen);
    assert_eq!(legal_from(&pos, "6b"), list(&["6b6a"]));
    // A capture in the zone may promote.
    let pos = position(
        "heian-dai",
        &["last-rank=wikipedia"],
        "[k]6[p]5/7[P]5/13/13/13/13/13/13/13/13/13/13/12[K] b - 1",
    );
    assert_eq!(legal_from(&pos, "6b"), list(&["6b6a", "6b6a+"]));
}

/// Heian-Dai: taking every piece but the King wins (the bare-king rule, as in Heian).
#[test]
fn heian_dai_bare_king_wins() {
    let mut g = game(
        "heian-dai",
        &[],
        "[k]12/13/13/13/13/13/6[p]6/6[G]6/13/13/13/13/12[K] b - 1",
    );
    play_all(&mut g, &["7h7g"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::BareKing));
}

// ------------------------------------------------------------------ played through `koma play`

/// Whale through `koma play`: Black's Blue Whale takes the Porpoise, and the Killer Whale it
/// brings into Black's hand is dropped.
#[test]
fn whale_played_through_koma_play_drops_the_killer_whale() {
    let args = ["whale", "--white", "human", "--sfen", "w5/6/3p2/3B2/6/5W b - 1"];
    let run = koma_play(&args, "Bx3c\nW-6b\nK*4d\nboard\nquit\n");
    let out = run.text();
    assert!(run.ok(), "{out}");
    assert!(out.contains("Black in hand: K"), "{out}");
    assert!(out.contains("White to move (move 4)"), "the drop was played: {out}");
}
