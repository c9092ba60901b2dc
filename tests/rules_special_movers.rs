//! Rule tests: special movers, one test per rule of the rule texts (SV's Maka.rul,
//! "JUMPING PIECES", "THE LION", "TEACHING KING", "HOOK MOVERS", "THE EMPEROR"; Tori, Yari,
//! Chu) and of SV's piece tables (Maka.dat, Yari.dat, Tori.dat, Chu.dat; docs/sources.md).
//! No other program implements Maka-Dai-Dai: its move lists here are worked out by hand from
//! those texts, on hand-built positions.

mod support;

use koma::game::{EndReason, Game, Illegal};
use koma::rules::Side;
use support::*;

const MAKA: &str = "maka-dai-dai";

/// The name of the square (file, rank number from 1 = a).
fn name(file: i32, rank: i32) -> String {
    format!("{file}{}", (b'a' + (rank - 1) as u8) as char)
}

/// Moves from (file, rank) to every square a Free King reaches on an empty board of the
/// given size.
fn queen_moves(file: i32, rank: i32, size: i32) -> Vec<String> {
    let from = name(file, rank);
    let mut out = Vec::new();
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (mut f, mut r) = (file + df, rank + dr);
        while (1..=size).contains(&f) && (1..=size).contains(&r) {
            out.push(format!("{from}{}", name(f, r)));
            f += df;
            r += dr;
        }
    }
    out
}

/// Moves from (file, rank) to the squares at king distance `d` that are not on its lines.
fn off_line_ring(file: i32, rank: i32, d: i32) -> Vec<String> {
    let from = name(file, rank);
    let mut out = Vec::new();
    for df in -d..=d {
        for dr in -d..=d {
            if df.abs().max(dr.abs()) == d && df != 0 && dr != 0 && df.abs() != dr.abs() {
                out.push(format!("{from}{}", name(file + df, rank + dr)));
            }
        }
    }
    out
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

// ------------------------------------------------------------------ hook movers

/// "The 'Hook Mover' ... being able to move any number of squares in any orthogonal direction,
/// immediately followed by a further move at right angles to the first ... not a jumping
/// piece, and must end its move on making a capture."
#[test]
fn hook_mover_turns_at_right_angles_and_stops_on_a_capture() {
    // Black Hook Mover 10j; Black Pawns 11j, 9j (sideways blocked) and 10l; White Pawns 10h
    // (ends the upward leg with a capture) and 14i, White Gold 4k.
    let sfen = maka(
        &[
            ('a', "[k]18"),
            ('h', "9[p]9"),
            ('i', "5[p]13"),
            ('j', "8[P][HM][P]8"),
            ('k', "15[g]3"),
            ('l', "9[P]9"),
            ('s', "18[K]"),
        ],
        "b",
    );
    let pos = position(MAKA, &[], &sfen);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j10i", "10j10h+", "10j10k", // first legs
            "10j11i", "10j12i", "10j13i", "10j14i+", // turning left at 10i, stopped by a capture
            "10j9i", "10j8i", "10j7i", "10j6i", "10j5i", "10j4i", "10j3i", "10j2i", "10j1i", // right at 10i
            "10j11k", "10j12k", "10j13k", "10j14k", "10j15k", "10j16k", "10j17k", "10j18k",
            "10j19k", // left at 10k
            "10j9k", "10j8k", "10j7k", "10j6k", "10j5k", "10j4k+", // right at 10k
        ])
    );
    // No turn on the square of a capture.
    assert_eq!(check(&pos, "10j10h9h"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "10j9h"), Err(Illegal::NotAMove));
}

/// "The 'Capricorn' has hook moving powers in the diagonal directions."
#[test]
fn capricorn_hooks_diagonally() {
    // Black Capricorn 10j; Black Pawns 9i, 11k (blocked at once), 12h (after 11i) and 8l
    // (after 9k); White Pawn 7e.
    let sfen = maka(
        &[
            ('a', "[k]18"),
            ('e', "12[p]6"),
            ('h', "7[P]11"),
            ('i', "10[P]8"),
            ('j', "9[CA]9"),
            ('k', "8[P]10"),
            ('l', "11[P]7"),
            ('s', "18[K]"),
        ],
        "b",
    );
    let pos = position(MAKA, &[], &sfen);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j11i", "10j9k", // first legs
            "10j10h", "10j9g", "10j8f", "10j7e+", // from 11i forward-right, to a capture
            "10j12j", "10j13k", "10j14l", "10j15m", "10j16n", "10j17o", "10j18p", "10j19q", // 11i back-left
            "10j8j", "10j7i", "10j6h", "10j5g", "10j4f", "10j3e", "10j2d", "10j1c", // 9k forward-right
            "10j10l", "10j11m", "10j12n", "10j13o", "10j14p", "10j15q", "10j16r", "10j17s", // 9k back-left
        ])
    );
}

/// A hook mover attacks around its corner: a King it reaches so is in check, and may not step
/// onto such squares (here: mate by a Hook Mover).
#[test]
fn hook_mover_checks_around_the_corner() {
    // White Hook Mover 5c: down file 5, then along rank s or r to the Black King on 1s.
    let sfen = maka(&[('a', "[k]18"), ('c', "14[hm]4"), ('s', "18[K]")], "b");
    let pos = position(MAKA, &[], &sfen);
    assert!(pos.royal_in_check(Side::Black));
    let game = Game::new(pos);
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::White, EndReason::Checkmate));
}

// ------------------------------------------------------------------ the Emperor

/// "it may move in one turn to almost any square on the board, jumping over any number of
/// pieces ... it may not capture an enemy piece that is protected by another piece."
#[test]
fn emperor_moves_anywhere_and_captures_only_unprotected_pieces() {
    // Black Emperor 10j. White: King 19a and Gold 18a (protecting each other), Gold 3c
    // (unprotected) protecting the Pawn on 3d, Pawn 5e (unprotected).
    let sfen = maka(
        &[
            ('a', "[k][g]17"),
            ('c', "16[g]2"),
            ('d', "16[p]2"),
            ('e', "14[p]4"),
            ('j', "9+[K]9"),
        ],
        "b",
    );
    let pos = position(MAKA, &[], &sfen);
    let occupied = ["10j", "19a", "18a", "3c", "3d", "5e"];
    // Squares White attacks, where the Emperor (the only royal) may not go.
    let attacked = ["18b", "19b", "17b", "17a", "4d", "2d", "4c", "2c", "3b", "3e", "5f"];
    let mut expected = vec!["10j5e".to_string(), "10j3c".to_string()];
    for file in 1..=19 {
        for rank in 1..=19 {
            let s = name(file, rank);
            if !occupied.contains(&s.as_str()) && !attacked.contains(&s.as_str()) {
                expected.push(format!("10j{s}"));
            }
        }
    }
    assert_eq!(expected.len(), 346);
    assert_eq!(legal_from(&pos, "10j"), sorted(expected));
    assert_eq!(check(&pos, "10j3d"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "10j18a"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "10j19a"), Err(Illegal::NotAMove));
}

/// The Emperor as an attacker: it may take the King wherever it stands unless another piece
/// protects the King, so an unprotected King is in check and must stay protected.
#[test]
fn emperor_checks_an_unprotected_king_anywhere() {
    // White Emperor 10j; Black King 1s protected by its Gold on 2s.
    let sfen = maka(&[('a', "[k]18"), ('j', "9+[k]9"), ('s', "17[G][K]")], "b");
    let pos = position(MAKA, &[], &sfen);
    assert!(!pos.royal_in_check(Side::Black));
    // The King goes only where the Gold still protects it; the Gold only where it still
    // protects the King.
    assert_eq!(legal(&pos), list(&["1s1r", "1s2r", "2s1r"]));
    assert_eq!(check(&pos, "2s2r"), Err(Illegal::LeavesRoyalInCheck));
    assert_eq!(check(&pos, "1s1q"), Err(Illegal::NotAMove));
    // A bare King against an Emperor is mated at once.
    let sfen = maka(&[('a', "[k]18"), ('j', "9+[k]9"), ('s', "18[K]")], "b");
    let game = Game::new(position(MAKA, &[], &sfen));
    assert_eq!(game.outcome(), win(Side::White, EndReason::Checkmate));
}

/// Maka-Dai-Dai's `emperor-protects` option: a piece guarded only by its own Emperor is
/// protected (`recapture`, the default) when that Emperor could take the capturer back, that
/// is when the capturer would stand there unprotected; under `never` an Emperor protects
/// nothing. White's Emperor (19a) may leave itself exposed here, as White has a Prince (1a).
#[test]
fn emperor_protects_by_recapture_option() {
    // Black: Emperor 10j guarded by a Gold on 10k, Pawn 5e guarded only by the Emperor.
    let ranks = [('a', "+[k]17+[de]"), ('e', "14[P]4"), ('j', "9+[K]9"), ('k', "9[G]9")];
    let sfen = maka(&ranks, "w");
    let pos = position(MAKA, &[], &sfen);
    assert_eq!(
        check(&pos, "19a5e"),
        Err(Illegal::NotAMove),
        "the Black Emperor would take back"
    );
    assert!(!is_legal(&pos, "19a5e"), "the independent check agrees");
    let pos = position(MAKA, &["emperor-protects=never"], &sfen);
    assert_eq!(check(&pos, "19a5e"), Ok(()));
    assert!(is_legal(&pos, "19a5e"));
    // White's Gold on 5d guards 5e: the Black Emperor could not take back, so the Pawn is
    // unprotected under both readings.
    let mut guarded = ranks.to_vec();
    guarded.push(('d', "14[g]4"));
    let sfen = maka(&guarded, "w");
    for options in [&[][..], &["emperor-protects=never"][..]] {
        let pos = position(MAKA, options, &sfen);
        assert_eq!(check(&pos, "19a5e"), Ok(()), "{options:?}");
    }
}

// ------------------------------------------------------------------ lion-type promoted pieces

/// Teaching King, version 1 (the default): "this piece only has one way of moving (ie: as a
/// 'Free King')".
#[test]
fn teaching_king_version_1_is_a_free_king() {
    let sfen = maka(&[('a', "1[k]17"), ('j', "9+[DV]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &[], &sfen);
    assert_eq!(legal_from(&pos, "10j"), sorted(queen_moves(10, 10, 19)));
    assert_eq!(legal_from(&pos, "10j").len(), 72);
}

/// Teaching King, version 2 (`teaching-king=2`): "the combined move of the 'Free King' or a 3
/// square move with full 'Lion' powers": also every square within three, jumping, a pass,
/// and up to three captures in one move.
#[test]
fn teaching_king_version_2_adds_a_three_step_lion() {
    let sfen = maka(&[('a', "1[k]17"), ('j', "9+[DV]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &["teaching-king=2"], &sfen);
    let mut expected = queen_moves(10, 10, 19);
    expected.extend(off_line_ring(10, 10, 2));
    expected.extend(off_line_ring(10, 10, 3));
    expected.push("10j10j".into());
    assert_eq!(expected.len(), 72 + 8 + 16 + 1);
    assert_eq!(legal_from(&pos, "10j"), sorted(expected));

    // Three White Pawns in a row in front: one move takes all three.
    let sfen = maka(
        &[
            ('a', "1[k]17"),
            ('g', "9[p]9"),
            ('h', "9[p]9"),
            ('i', "9[p]9"),
            ('j', "9+[DV]9"),
            ('s', "17[K]1"),
        ],
        "b",
    );
    let v1 = position(MAKA, &[], &sfen);
    assert_eq!(check(&v1, "10j10i10h10g"), Err(Illegal::NotAMove));
    assert_eq!(check(&v1, "10j10i10h"), Err(Illegal::NotAMove));
    let mut v2 = position(MAKA, &["teaching-king=2"], &sfen);
    play(&mut v2, "10j10i10h10g");
    for s in ["10i", "10h"] {
        assert_eq!(piece_at(&v2, s), None, "{s}");
    }
    assert_eq!(piece_at(&v2, "10g"), Some((Side::Black, "TK".into())));
}

/// Furious Fiend: "can move as either a 'Lion' or 'Lion Dog' on any one turn (it can not
/// combine the two powers in the same move)"; the Lion Dog (SV) goes up to 3 squares in a
/// line without jumping.
#[test]
fn furious_fiend_is_a_lion_or_a_lion_dog() {
    let sfen = maka(&[('a', "1[k]17"), ('j', "9+[LN]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &[], &sfen);
    // 24 Lion squares, the 8 squares three away in a line, and a pass.
    assert_eq!(legal_from(&pos, "10j").len(), 24 + 8 + 1);
    assert!(is_legal(&pos, "10j10g"));
    assert!(is_legal(&pos, "10j13m"));
    assert!(!is_legal(&pos, "10j12m"));

    // A White Pawn on 10i: the Lion takes it and steps on (8 ways, igui included), but the
    // Lion Dog's move to 10g is blocked, and no move combines the two.
    let sfen = maka(
        &[('a', "1[k]17"), ('i', "9[p]9"), ('j', "9+[LN]9"), ('s', "17[K]1")],
        "b",
    );
    let pos = position(MAKA, &[], &sfen);
    assert_eq!(legal_from(&pos, "10j").len(), 24 + 8 + 1 + 7);
    assert!(is_legal(&pos, "10j10i10h"));
    assert!(is_legal(&pos, "10j10i10j"));
    assert_eq!(check(&pos, "10j10g"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "10j10i10g"), Err(Illegal::NotAMove));
}

/// Buddhist Spirit: "the combined powers of the 'Lion' and 'Free King', and can move as
/// either (but not both) on any one turn".
#[test]
fn buddhist_spirit_is_a_lion_or_a_free_king() {
    let sfen = maka(&[('a', "1[k]17"), ('j', "9+[DSP]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &[], &sfen);
    let mut expected = queen_moves(10, 10, 19);
    expected.extend(off_line_ring(10, 10, 2));
    expected.push("10j10j".into());
    assert_eq!(legal_from(&pos, "10j"), sorted(expected));

    // Lion: capture on 10i and step on; Free King: take 10e along the file; not both.
    let sfen = maka(
        &[
            ('a', "1[k]17"),
            ('e', "9[p]9"),
            ('i', "9[p]9"),
            ('j', "9+[DSP]9"),
            ('s', "17[K]1"),
        ],
        "b",
    );
    let pos = position(MAKA, &[], &sfen);
    assert!(is_legal(&pos, "10j10i10h"));
    assert!(is_legal(&pos, "10j10i"));
    assert_eq!(check(&pos, "10j10e"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "10j10i10e"), Err(Illegal::NotAMove));
}

/// Lion Dog (SV, the default `lion-dog=range`): "it can move up to 3 squares in any
/// orthogonal or diagonal direction", not jumping; it promotes on capture.
#[test]
fn lion_dog_moves_up_to_three_squares() {
    // Black Lion Dog 10j; Black Pawn 10i (forward blocked), White Pawn 12j.
    let sfen = maka(
        &[('a', "1[k]17"), ('i', "9[P]9"), ('j', "7[p]1[LD]9"), ('s', "17[K]1")],
        "b",
    );
    let pos = position(MAKA, &[], &sfen);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j11j", "10j12j+", // left, to the capture
            "10j9j", "10j8j", "10j7j", // right
            "10j10k", "10j10l", "10j10m", // back
            "10j11i", "10j12h", "10j13g", // forward-left
            "10j9i", "10j8h", "10j7g", // forward-right
            "10j11k", "10j12l", "10j13m", // back-left
            "10j9k", "10j8l", "10j7m", // back-right
        ])
    );
    // With `lion-dog=lion` (a linear three-step lion) it jumps over the Pawn.
    let pos = position(MAKA, &["lion-dog=lion"], &sfen);
    assert!(is_legal(&pos, "10j10h"));
    assert!(is_legal(&pos, "10j10g"));
}

// ------------------------------------------------------------------ jumps and asymmetric pieces

/// Free Bear (SV, `free-bear=leap`): slides sideways and diagonally, "and the 'Free Bear' can
/// jump in the forward diagonal directions" (to the second square).
#[test]
fn free_bear_jumps_on_the_forward_diagonals() {
    // Black Free Bear 10j, its four diagonal neighbours Black Pawns.
    let sfen = maka(
        &[
            ('a', "1[k]17"),
            ('i', "8[P]1[P]8"),
            ('j', "9+[BB]9"),
            ('k', "8[P]1[P]8"),
            ('s', "17[K]1"),
        ],
        "b",
    );
    let mut sideways: Vec<String> = (1..=19).filter(|&f| f != 10).map(|f| format!("10j{f}j")).collect();
    let pos = position(MAKA, &[], &sfen);
    let mut expected = sideways.clone();
    expected.extend(["10j12h".to_string(), "10j8h".to_string()]);
    assert_eq!(legal_from(&pos, "10j"), sorted(expected));
    let pos = position(MAKA, &["free-bear=no-leap"], &sfen);
    sideways.sort();
    assert_eq!(legal_from(&pos, "10j"), sideways);
}

/// Donkey (SV's data; its rule text names only the forward jump): jumps to the second square
/// straight forward or back, steps sideways; `donkey=also-step` adds the single steps.
#[test]
fn donkey_jumps_two_forward_or_back() {
    let lone = maka(&[('a', "1[k]17"), ('j', "9[DO]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &[], &lone);
    assert_eq!(legal_from(&pos, "10j"), list(&["10j10h", "10j10l", "10j11j", "10j9j"]));
    let pos = position(MAKA, &["donkey=also-step"], &lone);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&["10j10h", "10j10i", "10j10k", "10j10l", "10j11j", "10j9j"])
    );
    // Over pieces of its own.
    let blocked = maka(
        &[
            ('a', "1[k]17"),
            ('i', "9[P]9"),
            ('j', "9[DO]9"),
            ('k', "9[P]9"),
            ('s', "17[K]1"),
        ],
        "b",
    );
    let pos = position(MAKA, &[], &blocked);
    assert_eq!(legal_from(&pos, "10j"), list(&["10j10h", "10j10l", "10j11j", "10j9j"]));
}

/// Left Chariot: slides forward, forward-left and back-right, steps back; for White the
/// directions are White's own.
#[test]
fn left_chariot_for_both_sides() {
    let black = maka(&[('a', "1[k]17"), ('j', "9[LCH]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &[], &black);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j10i", "10j10h", "10j10g", "10j10f", "10j10e", "10j10d", "10j10c", "10j10b", "10j10a", "10j11i",
            "10j12h", "10j13g", "10j14f", "10j15e", "10j16d", "10j17c", "10j18b", "10j19a", "10j9k", "10j8l", "10j7m",
            "10j6n", "10j5o", "10j4p", "10j3q", "10j2r", "10j1s", "10j10k",
        ])
    );
    let white = maka(&[('a', "1[k]17"), ('j', "9[lch]9"), ('s', "17[K]1")], "w");
    let pos = position(MAKA, &[], &white);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j10k", "10j10l", "10j10m", "10j10n", "10j10o", "10j10p", "10j10q", "10j10r", "10j10s", "10j9k", "10j8l",
            "10j7m", "10j6n", "10j5o", "10j4p", "10j3q", "10j2r", "10j1s", // forward-left
            "10j11i", "10j12h", "10j13g", "10j14f", "10j15e", "10j16d", "10j17c", "10j18b",
            "10j19a", // back-right
            "10j10i",
        ])
    );
}

/// Right Chariot: the mirror image, slides forward, forward-right and back-left, steps back.
#[test]
fn right_chariot_for_both_sides() {
    let black = maka(&[('a', "1[k]17"), ('j', "9[RCH]9"), ('s', "17[K]1")], "b");
    let pos = position(MAKA, &[], &black);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j10i", "10j10h", "10j10g", "10j10f", "10j10e", "10j10d", "10j10c", "10j10b", "10j10a", "10j9i", "10j8h",
            "10j7g", "10j6f", "10j5e", "10j4d", "10j3c", "10j2b", "10j1a", "10j11k", "10j12l", "10j13m", "10j14n",
            "10j15o", "10j16p", "10j17q", "10j18r", "10j19s", "10j10k",
        ])
    );
    let white = maka(&[('a', "1[k]17"), ('j', "9[rch]9"), ('s', "17[K]1")], "w");
    let pos = position(MAKA, &[], &white);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j10k", "10j10l", "10j10m", "10j10n", "10j10o", "10j10p", "10j10q", "10j10r", "10j10s", "10j11k",
            "10j12l", "10j13m", "10j14n", "10j15o", "10j16p", "10j17q", "10j18r", "10j19s", // forward-right
            "10j9i", "10j8h", "10j7g", "10j6f", "10j5e", "10j4d", "10j3c", "10j2b", "10j1a", // back-left
            "10j10i",
        ])
    );
}

/// Deva (SV = SSZ): steps forward-diagonally, left and back-right; the Dark Spirit is its
/// mirror image (forward-diagonally, right and back-left); for both sides.
#[test]
fn deva_and_dark_spirit_asymmetry_for_both_sides() {
    let one = |piece: &str, side: &str, options: &[&str]| {
        let sfen = maka(&[('a', "1[k]17"), ('j', &format!("9{piece}9")), ('s', "17[K]1")], side);
        let pos = position(MAKA, options, &sfen);
        legal_from(&pos, "10j")
    };
    assert_eq!(one("[DV]", "b", &[]), list(&["10j11i", "10j9i", "10j11j", "10j9k"]));
    assert_eq!(one("[dv]", "w", &[]), list(&["10j11k", "10j9k", "10j9j", "10j11i"]));
    assert_eq!(one("[DSP]", "b", &[]), list(&["10j11i", "10j9i", "10j9j", "10j11k"]));
    assert_eq!(one("[dsp]", "w", &[]), list(&["10j11k", "10j9k", "10j11j", "10j9i"]));
    // SZ's reading: the Deva's back step goes back-left instead.
    assert_eq!(
        one("[DV]", "b", &["deva=sz"]),
        list(&["10j11i", "10j9i", "10j11j", "10j11k"])
    );
}

/// Tori: the Left Quail slides forward and diagonally back to its right and steps diagonally
/// back to its left; the Right Quail is its mirror image; for both sides.
#[test]
fn tori_quails_for_both_sides() {
    let one = |sfen: &str| {
        let pos = position("tori", &[], sfen);
        legal_from(&pos, "4d")
    };
    assert_eq!(
        one("1k5/7/7/3L3/7/7/5K1 b - 1"),
        list(&["4d4c", "4d4b", "4d4a", "4d3e", "4d2f", "4d1g", "4d5e"])
    );
    assert_eq!(
        one("1k5/7/7/3R3/7/7/5K1 b - 1"),
        list(&["4d4c", "4d4b", "4d4a", "4d5e", "4d6f", "4d7g", "4d3e"])
    );
    assert_eq!(
        one("1k5/7/7/3l3/7/7/5K1 w - 1"),
        list(&["4d4e", "4d4f", "4d4g", "4d5c", "4d6b", "4d7a", "4d3c"])
    );
    assert_eq!(
        one("1k5/7/7/3r3/7/7/5K1 w - 1"),
        list(&["4d4e", "4d4f", "4d4g", "4d3c", "4d2b", "4d1a", "4d5c"])
    );
}

/// Tori: Goose and Pheasant jump to the second square; the Eagle's two back-diagonal squares
/// need the first empty ("it can not jump").
#[test]
fn tori_goose_pheasant_jump_eagle_does_not() {
    // Goose 4d surrounded by Black Swallows.
    let pos = position("tori", &[], "1k5/7/2SSS2/2S+SS2/2SSS2/7/6K b - 1");
    assert_eq!(legal_from(&pos, "4d"), list(&["4d6b", "4d2b", "4d4f"]));
    let pos = position("tori", &[], "1k5/7/2SSS2/2SPS2/2SSS2/7/6K b - 1");
    assert_eq!(legal_from(&pos, "4d"), list(&["4d4b"]));
    // Eagle 4d: a Black Swallow on 5e blocks its back-left diagonal.
    let pos = position("tori", &[], "1k5/7/7/3+F3/2S4/7/6K b - 1");
    assert_eq!(check(&pos, "4d6f"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "4d2f"), Ok(()));
    assert_eq!(check(&pos, "4d3e"), Ok(()));
}

/// Yari: the Yari Knight leaps like the shogi Knight (forward only, jumping) and slides
/// forward; for both sides.
#[test]
fn yari_knight_for_both_sides() {
    let pos = position("yari", &[], "k6/7/7/7/3N3/7/7/7/6K b - 1");
    assert_eq!(
        legal_from(&pos, "4e"),
        list(&[
            "4e3c", "4e3c+", "4e5c", "4e5c+", "4e4d", "4e4c", "4e4c+", "4e4b", "4e4b+", "4e4a+"
        ])
    );
    // Own Pawns on 5d, 4d, 3d: the slide is blocked, the leaps jump.
    let pos = position("yari", &[], "k6/7/7/2PPP2/3N3/7/7/7/6K b - 1");
    assert_eq!(legal_from(&pos, "4e"), list(&["4e3c", "4e3c+", "4e5c", "4e5c+"]));
    let pos = position("yari", &[], "k6/7/7/7/3n3/7/7/7/6K w - 1");
    assert_eq!(
        legal_from(&pos, "4e"),
        list(&[
            "4e3g", "4e3g+", "4e5g", "4e5g+", "4e4f", "4e4g", "4e4g+", "4e4h", "4e4h+", "4e4i+"
        ])
    );
}

/// Chu: "the 'Kylin' can jump to the second square in any orthogonal direction, and the
/// 'Phoenix' may jump to the second square when moving diagonally".
#[test]
fn chu_kylin_and_phoenix_jump() {
    // Kylin 7h with Black Pawns on its four orthogonal neighbours.
    let sfen = "k11/12/12/12/12/12/5P6/4POP5/5P6/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "7h"),
        list(&["7h7f", "7h7j", "7h9h", "7h5h", "7h8g", "7h6g", "7h8i", "7h6i"])
    );
    // Phoenix 7h with Black Pawns on its four diagonal neighbours.
    let sfen = "k11/12/12/12/12/12/4P1P5/5X6/4P1P5/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "7h"),
        list(&["7h7g", "7h7i", "7h8h", "7h6h", "7h9f", "7h5f", "7h9j", "7h5j"])
    );
}

// ------------------------------------------------------------------ moving as the piece behind

/// Annan (`moves-as-piece-behind`): a piece with a piece of its own side directly behind it
/// moves as that piece. A Pawn with a Rook behind moves as a Rook (and promotes as a Pawn,
/// never forced); a Rook with a Pawn behind moves as a Pawn.
#[test]
fn annan_a_piece_moves_as_the_friendly_piece_behind_it() {
    let pos = position("annan", &[], "8k/9/9/9/4P4/4R4/9/9/K8 b - 1");
    let rook_moves = [
        "5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a", "5e5a+", "5e6e", "5e7e", "5e8e", "5e9e", "5e4e", "5e3e",
        "5e2e", "5e1e",
    ];
    assert_eq!(legal_from(&pos, "5e"), list(&rook_moves));
    let pos = position("annan", &[], "8k/9/9/9/4R4/4P4/9/9/K8 b - 1");
    assert_eq!(legal_from(&pos, "5e"), list(&["5e5d"]));
    // An enemy piece behind lends nothing.
    let pos = position("annan", &[], "8k/9/9/9/4P4/4r4/9/9/K8 b - 1");
    assert_eq!(legal_from(&pos, "5e"), list(&["5e5d"]));
}

/// Annan: the King moves as the piece behind it too, and a piece with the King behind it
/// steps as a King.
#[test]
fn annan_the_king_lends_and_borrows_moves() {
    let pos = position("annan", &[], "8k/9/9/9/4K4/4N4/9/9/9 b - 1");
    assert_eq!(legal_from(&pos, "5e"), list(&["5e4c", "5e6c"]));
    let pos = position("annan", &[], "8k/9/9/4P4/4K4/9/9/9/9 b - 1");
    let king_steps = [
        "5d4c", "5d4c+", "5d5c", "5d5c+", "5d6c", "5d6c+", "5d4d", "5d6d", "5d4e", "5d6e",
    ];
    assert_eq!(legal_from(&pos, "5d"), list(&king_steps));
}

/// Annan: what a piece attacks follows the same rule, and so does check. A Black Pawn with a
/// Lance behind it checks White's King down the file; White may step off the file, block, or
/// take the Lance, after which the Pawn attacks as a Pawn again.
#[test]
fn annan_check_follows_the_borrowed_moves() {
    let mut pos = position("annan", &[], "4k4/9/9/9/4Ps3/4L4/9/9/K8 w - 1");
    assert!(pos.royal_in_check(Side::White));
    let evasions = ["4e5d", "4e5f", "5a4a", "5a4b", "5a6a", "5a6b"];
    assert_eq!(legal(&pos), list(&evasions));
    for m in legal(&pos) {
        assert!(pos.is_legal(&mv(&pos, &m)), "{m}: the independent check agrees");
    }
}

/// Annan: promotion is never forced, since a piece on its last rank may still move as a
/// piece that comes behind it.
#[test]
fn annan_promotion_is_never_forced() {
    let pos = position("annan", &[], "8k/4P4/9/9/9/9/9/9/K8 b - 1");
    assert_eq!(legal_from(&pos, "5b"), list(&["5b5a", "5b5a+"]));
}

/// Annan: a piece may be dropped on any empty square, the last ranks included; the Pawn's
/// file limit stands.
#[test]
fn annan_drops_on_any_empty_square() {
    let pos = position("annan", &[], "8k/9/9/9/9/9/4P4/9/K8 b PN 1");
    assert!(is_legal(&pos, "N*4a"));
    assert!(is_legal(&pos, "P*4a"));
    assert_eq!(check(&pos, "P*5a"), Err(Illegal::FileLimit));
}

// ------------------------------------------------------------------ hops (Cannon Shogi)

/// Cannon Shogi's Gold Cannon, xiangqi's cannon (`move-only slide orthogonal, capture-only hop
/// orthogonal`): it slides to move, and captures only by hopping over exactly one piece (the
/// screen, of either side): never the first piece it meets, never past the first piece
/// beyond the screen.
#[test]
fn gold_cannon_slides_to_move_and_captures_only_over_a_screen() {
    // Gold Cannon 5g; a Black Pawn 5e (its screen up the file) and a White Pawn 5c beyond it;
    // a White Pawn 9g with nothing between; a White Gold 3g (a screen) and a White Pawn 2g.
    let pos = position("cannon", &[], "4k4/9/4p4/9/4P4/9/p3U1gp1/9/4K4 b - 1");
    let moves = [
        "5g5f", "5g5h", "5g6g", "5g7g", "5g8g", "5g4g", // slides, to empty squares only
        "5g5c", "5g5c+", "5g2g", // hops over 5e and 3g, taking the first piece beyond
    ];
    assert_eq!(legal_from(&pos, "5g"), list(&moves));
}

/// Cannon Shogi's Silver Cannon, janggi's cannon (`hop orthogonal`): it moves and captures
/// only by hopping, to any empty square beyond its screen or onto the first piece beyond it;
/// a cannon may be its screen, and may be taken.
#[test]
fn silver_cannon_moves_and_captures_only_by_hopping() {
    // Silver Cannon 5g; its own Gold Cannon 5f as a screen, a White Silver Cannon 5c beyond;
    // a Black Pawn 8g; a White Pawn 3g and a White Copper Cannon 1g; the King 4i.
    let pos = position("cannon", &[], "k8/9/4a4/9/9/4U4/1P2A1p1c/9/5K3 b - 1");
    let moves = [
        "5g5e", "5g5d", "5g5c", "5g5c+", // over the Gold Cannon, to take the Silver Cannon
        "5g9g",  // over the Pawn 8g
        "5g2g", "5g1g", // over the Pawn 3g, and onto the Copper Cannon beyond
    ];
    assert_eq!(legal_from(&pos, "5g"), list(&moves[..7]));
    // With the King on 5i, the Silver Cannon is pinned: it stands beyond White's cannon's
    // screen (the Gold Cannon 5f), and off the file would leave the King the piece beyond.
    let pos = position("cannon", &[], "k8/9/4a4/9/9/4U4/1P2A1p1c/9/4K4 b - 1");
    assert_eq!(legal_from(&pos, "5g"), list(&moves[..4]));
}

/// Cannon Shogi's flying cannons (`hop 2 diagonal` beside their orthogonal moves): a hop of
/// at most 2 squares, over a piece on the next square to the square behind it; their
/// diagonal steps never capture.
#[test]
fn flying_cannon_hops_two_squares_over_a_neighbour_and_steps_without_capturing() {
    // Flying Gold Cannon 5e; a White Pawn 6d and a Black Pawn 6f on its left diagonals, a
    // White Pawn 4f behind on the right, a Black Pawn 7g behind the 6f one.
    let pos = position("cannon", &[], "3k5/9/9/3pP4/4+U4/3P1p3/2P6/9/4K4 b - 1");
    assert!(
        is_legal(&pos, "5e7c"),
        "over the enemy 6d to the empty square behind it"
    );
    assert!(
        is_legal(&pos, "5e3g"),
        "over the enemy 4f to the empty square behind it"
    );
    assert!(is_legal(&pos, "5e4d"), "a step to an empty square");
    assert!(!is_legal(&pos, "5e6d"), "a step never captures");
    assert!(!is_legal(&pos, "5e8b"), "a hop of 2 lands at most two squares away");
    assert!(!is_legal(&pos, "5e7g"), "never onto its own piece");
    assert!(is_legal(&pos, "5e5a"), "the orthogonal hop goes any distance");
}

/// A cannon gives check through one screen: a piece put between is a second screen and
/// blocks the check, while moving the screen off the line ends it; a piece moved onto an
/// open line between a cannon and its King makes a screen, and may not be.
#[test]
fn a_cannon_checks_over_one_screen_and_a_second_piece_blocks_it() {
    // A White Gold Cannon 5c checks the Black King 5i over the Black Pawn 5f.
    let pos = position("cannon", &[], "k8/9/4u4/9/9/4P4/9/9/4K4 b G 1");
    assert!(pos.royal_in_check(Side::Black));
    assert!(is_legal(&pos, "G*5g"), "a second screen blocks");
    assert!(is_legal(&pos, "5f4f"), "the screen steps off the line");
    assert!(!is_legal(&pos, "5f5e"), "the screen stays a screen");
    assert!(!is_legal(&pos, "5i5h"), "still beyond the one screen");
    assert!(is_legal(&pos, "5i4h"));
    // No screen: the Gold may not step onto the file between the cannon and the King.
    let pos = position("cannon", &[], "k8/9/4u4/9/9/9/3G5/9/4K4 b - 1");
    assert!(!pos.royal_in_check(Side::Black));
    assert_eq!(check(&pos, "6g5g"), Err(Illegal::LeavesRoyalInCheck));
    assert!(is_legal(&pos, "6g6f"));
}

/// Cannon Shogi's Pawn steps forward or sideways; two may stand on a file, a Pawn dropped may
/// mate, and one may be dropped on the last rank, from which it can still step sideways.
#[test]
fn cannon_shogi_pawn_steps_sideways_and_drops_freely() {
    let mut pos = position("cannon", &[], "k8/9/G8/9/9/9/4P4/9/1R2K4 b P 1");
    assert_eq!(legal_from(&pos, "5g"), list(&["5g5f", "5g6g", "5g4g"]));
    assert!(is_legal(&pos, "P*5h"), "a second Pawn on the file");
    assert!(is_legal(&pos, "P*4a"), "on the last rank");
    assert!(is_legal(&pos, "P*9b"), "a Pawn dropped that mates");
    play(&mut pos, "P*9b");
    assert!(pos.legal_moves().is_empty(), "mate");
}
