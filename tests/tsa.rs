//! The Shogi Association (TSA) move notation: the rule texts' examples in hand-built
//! positions, the errors that say why a move cannot be read, and the round trip
//! (write, then read, gives the same move) over every legal move of random games in every
//! shipped variant.

mod support;

use koma::fuzzing::Bytes;
use koma::game::{Illegal, Move, Position, Setup};
use koma::notation::{MoveError, describe_taken, read_move, write_tsa, write_tsa_all, write_usi};
use koma::rules::Side;
use koma::variant::Variant;
use support::{Run, koma, sq, tables};

/// A position of `variant`: pieces as (square, side, abbreviation), Black's hand, Black to move.
fn position(variant: &str, pieces: &[(&str, Side, &str)], hand: &[(&str, u32)]) -> Position {
    position_with(variant, &[], pieces, hand)
}

fn position_with(variant: &str, options: &[&str], pieces: &[(&str, Side, &str)], hand: &[(&str, u32)]) -> Position {
    let t = tables(variant, options);
    let kind = |abbrev: &str| {
        t.rules()
            .piece_by_abbrev(abbrev)
            .unwrap_or_else(|| panic!("{variant} has no {abbrev}"))
    };
    // From the start position's setup, so that every other field keeps its default.
    let mut setup: Setup = Position::start(t.clone()).to_setup();
    setup.pieces = pieces
        .iter()
        .map(|&(s, side, abbrev)| (sq(s), side, kind(abbrev), false))
        .collect();
    setup.hands = hand.iter().map(|&(abbrev, n)| (Side::Black, kind(abbrev), n)).collect();
    setup.side_to_move = Side::Black;
    Position::from_setup(t.clone(), &setup).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

use Side::{Black, White};

/// The board move with these squares (`via` the captured squares before `to`).
fn mv(pos: &Position, from: &str, via: &[&str], to: &str, promote: bool) -> Move {
    let geo = pos.geometry();
    let mut v = [None; 2];
    for (i, s) in via.iter().enumerate() {
        v[i] = Some(geo.index(sq(s)));
    }
    Move {
        from: Some(geo.index(sq(from))),
        to: geo.index(sq(to)),
        via: v,
        drop: None,
        promote,
        sweep: false,
    }
}

/// Writes a legal move and checks that it reads back.
fn written(pos: &mut Position, m: Move) -> String {
    assert!(pos.legal_moves().contains(&m), "{m:?} is legal");
    let text = write_tsa(pos, &m);
    assert_eq!(read_move(pos, &text), Ok(m), "`{text}` reads back");
    text
}

fn read(pos: &mut Position, text: &str) -> Move {
    read_move(pos, text).unwrap_or_else(|e| panic!("`{text}`: {e}"))
}

fn error(pos: &mut Position, text: &str) -> MoveError {
    match read_move(pos, text) {
        Ok(m) => panic!("`{text}` read as {m:?}"),
        Err(e) => e,
    }
}

const KINGS_SHOGI: [(&str, Side, &str); 2] = [("5i", Black, "K"), ("5a", White, "K")];
const KINGS_CHU: [(&str, Side, &str); 2] = [("1l", Black, "K"), ("12a", White, "K")];

// ------------------------------------------------------------------ the rule texts' examples

#[test]
fn yari_knight_captures_and_promotes() {
    // Yari: "A Yari Knight moving from 5d to 5c (which was occupied by an enemy piece) and
    // promoting is therefore recorded as YNx5c+."
    let mut pos = position(
        "yari",
        &[
            ("4i", Black, "K"),
            ("4a", White, "K"),
            ("5d", Black, "YN"),
            ("5c", White, "P"),
        ],
        &[],
    );
    let promotes = mv(&pos, "5d", &[], "5c", true);
    assert_eq!(written(&mut pos, promotes), "YNx5c+");
    // Declining where promotion was possible is marked `=`; `=` may be left out.
    let declines = mv(&pos, "5d", &[], "5c", false);
    assert_eq!(written(&mut pos, declines), "YNx5c=");
    assert_eq!(read(&mut pos, "YNx5c"), declines);
    assert_eq!(
        read(&mut pos, "YN5dx5c+"),
        promotes,
        "a start square not needed is still read"
    );
    // A move that cannot promote has no mark.
    let king = mv(&pos, "4i", &[], "3h", false);
    assert_eq!(written(&mut pos, king), "K-3h");
}

#[test]
fn tori_swallow_promotes_to_goose() {
    // Tori: "A Swallow moving from 5c to 5b and promoting to a Goose is therefore recorded
    // as Sw-5b+." Promotion is compulsory in Tori.
    let mut pos = position(
        "tori",
        &[("4g", Black, "Ph"), ("4a", White, "Ph"), ("5c", Black, "Sw")],
        &[],
    );
    let m = mv(&pos, "5c", &[], "5b", true);
    assert_eq!(written(&mut pos, m), "Sw-5b+");
    match error(&mut pos, "Sw-5b") {
        MoveError::PromotionRequired { instead, .. } => assert_eq!(instead, "Sw-5b+"),
        other => panic!("{other:?}"),
    }
    // The promoted piece is written by its own abbreviation.
    let mut pos = position(
        "tori",
        &[("4g", Black, "Ph"), ("4a", White, "Ph"), ("5c", Black, "Go")],
        &[],
    );
    let m = mv(&pos, "5c", &[], "3a", false);
    assert_eq!(written(&mut pos, m), "Go-3a");
}

#[test]
fn lion_igui() {
    // "a Lion on 8c capturing a piece on 9d would be shown as Lnx!9d"
    let mut pos = position(
        "chu",
        &[KINGS_CHU[0], KINGS_CHU[1], ("8c", Black, "Ln"), ("9d", White, "P")],
        &[],
    );
    let igui = mv(&pos, "8c", &["9d"], "8c", false);
    assert_eq!(written(&mut pos, igui), "Lnx!9d");
    assert_eq!(read(&mut pos, "Ln8cx!9d"), igui);
    assert_eq!(read(&mut pos, "Lnx9d-8c"), igui, "capture and step back, written out");
    assert_eq!(read(&mut pos, "8c9d8c"), igui, "USI");
    // The capture by moving there is another move.
    let capture = mv(&pos, "8c", &[], "9d", false);
    assert_eq!(written(&mut pos, capture), "Lnx9d");
}

#[test]
fn lion_double_capture_and_capture_then_move() {
    // "a Lion on 3g, capturing a piece on 3h and then capturing another on 2i, would be
    // represented by Lnx3hx2i"
    let pieces = [
        KINGS_CHU[0],
        KINGS_CHU[1],
        ("3g", Black, "Ln"),
        ("3h", White, "P"),
        ("2i", White, "P"),
    ];
    let mut pos = position("chu", &pieces, &[]);
    let double = mv(&pos, "3g", &["3h"], "2i", false);
    assert_eq!(written(&mut pos, double), "Lnx3hx2i");
    assert_eq!(read(&mut pos, "3g3h2i"), double, "USI");
    // 2i is two squares away: the Lion cannot take it first and then step back to 3h.
    let e = error(&mut pos, "Lnx2ix3h");
    assert!(
        matches!(
            e,
            MoveError::Illegal {
                rule: Illegal::NotAMove,
                ..
            }
        ),
        "{e}"
    );
    // A capture, then a step to an empty square.
    let mut pos = position("chu", &pieces[..4], &[]);
    let capture_then_move = mv(&pos, "3g", &["3h"], "2i", false);
    assert_eq!(written(&mut pos, capture_then_move), "Lnx3h-2i");
    // A square passed on the way is not part of the move: `Ln-2h-2i` is the jump `Ln-2i`.
    let jump = mv(&pos, "3g", &[], "2i", false);
    assert_eq!(written(&mut pos, jump), "Ln-2i");
    assert_eq!(read(&mut pos, "Ln-2h-2i"), jump);
}

#[test]
fn lion_pass_is_a_move_and_return() {
    let mut pos = position("chu", &[KINGS_CHU[0], KINGS_CHU[1], ("7g", Black, "Ln")], &[]);
    let pass = mv(&pos, "7g", &[], "7g", false);
    assert!(pass.is_pass());
    assert_eq!(written(&mut pos, pass), "Ln-7f-7g", "forward and back");
    for text in ["Ln-6f-7g", "Ln7g-7f-7g", "Ln-!7f", "Ln-7g", "7g7g", "7g7f7g"] {
        assert_eq!(read(&mut pos, text), pass, "{text}");
    }
    // With the square in front taken by its own piece, it steps out forward-left.
    let mut pos = position(
        "chu",
        &[KINGS_CHU[0], KINGS_CHU[1], ("7g", Black, "Ln"), ("7f", Black, "P")],
        &[],
    );
    assert_eq!(written(&mut pos, pass), "Ln-8f-7g");
    let e = error(&mut pos, "Ln-7f-7g");
    assert!(e.to_string().contains("7f holds a piece of your own"), "{e}");
    // A square it cannot step to is not a pass.
    let e = error(&mut pos, "Ln-5e-7g");
    assert!(matches!(e, MoveError::Illegal { .. }), "{e}");
}

#[test]
fn horned_falcon_lion_power_forward() {
    let mut pos = position(
        "chu",
        &[KINGS_CHU[0], KINGS_CHU[1], ("7g", Black, "+DH"), ("7f", White, "P")],
        &[],
    );
    let igui = mv(&pos, "7g", &["7f"], "7g", false);
    assert_eq!(written(&mut pos, igui), "+DHx!7f");
    let mut pos = position("chu", &[KINGS_CHU[0], KINGS_CHU[1], ("7g", Black, "+DH")], &[]);
    let pass = mv(&pos, "7g", &[], "7g", false);
    assert_eq!(written(&mut pos, pass), "+DH-7f-7g");
    let e = error(&mut pos, "+DH-6f-7g");
    assert!(
        e.to_string().contains("6f is not one"),
        "its Lion power is forward only: {e}"
    );
}

#[test]
fn drops_with_star_or_quote() {
    let mut pos = position("shogi", &KINGS_SHOGI, &[("P", 1)]);
    let drop = Move::drop(
        pos.rules().piece_by_abbrev("P").unwrap(),
        pos.geometry().index(sq("5e")),
    );
    assert_eq!(written(&mut pos, drop), "P*5e");
    assert_eq!(read(&mut pos, "P'5e"), drop);
    assert_eq!(read(&mut pos, "P*5e"), drop);
    // Tori's drops are written with the abbreviation.
    let mut pos = position("tori", &[("4g", Black, "Ph"), ("4a", White, "Ph")], &[("Sw", 1)]);
    let drop = Move::drop(
        pos.rules().piece_by_abbrev("Sw").unwrap(),
        pos.geometry().index(sq("5e")),
    );
    assert_eq!(written(&mut pos, drop), "Sw*5e");
    assert_eq!(read(&mut pos, "S*5e"), drop, "a USI drop with the SFEN letter");
}

#[test]
fn start_square_only_when_needed() {
    let mut pos = Position::start(tables("shogi", &[]));
    let moves: Vec<String> = {
        let legal = pos.legal_moves();
        write_tsa_all(&pos, &legal)
    };
    for text in ["G4i-5h", "G6i-5h", "G-4h", "G-6h", "S-4h", "P-7f", "R-5h", "K-5h"] {
        assert!(moves.iter().any(|m| m == text), "{text} in {moves:?}");
    }
    assert!(!moves.iter().any(|m| m == "G4i-4h"), "{moves:?}");
    match error(&mut pos, "G-5h") {
        MoveError::Ambiguous { candidates, piece, .. } => {
            assert_eq!(piece, "G");
            assert_eq!(candidates, [sq("6i"), sq("4i")]);
        }
        other => panic!("{other:?}"),
    }
    let e = error(&mut pos, "G-5h").to_string();
    assert!(e.contains("6i and 4i"), "{e}");
    assert_eq!(read(&mut pos, "G4i-5h"), mv(&pos, "4i", &[], "5h", false));
    assert_eq!(read(&mut pos, "G4i-4h"), mv(&pos, "4i", &[], "4h", false));
    // Two Lions that could both take the same piece by igui.
    let mut pos = position(
        "chu",
        &[
            KINGS_CHU[0],
            KINGS_CHU[1],
            ("8c", Black, "Ln"),
            ("9e", Black, "Ln"),
            ("9d", White, "P"),
        ],
        &[],
    );
    let (a, b) = (
        mv(&pos, "8c", &["9d"], "8c", false),
        mv(&pos, "9e", &["9d"], "9e", false),
    );
    assert_eq!(written(&mut pos, a), "Ln8cx!9d");
    assert_eq!(written(&mut pos, b), "Ln9ex!9d");
    assert!(matches!(error(&mut pos, "Lnx!9d"), MoveError::Ambiguous { .. }));
    // Only the Lion on 8c reaches 7b.
    let m = mv(&pos, "8c", &[], "7b", false);
    assert_eq!(written(&mut pos, m), "Ln-7b");
}

#[test]
fn maka_dai_dai_promoted_abbreviations() {
    // A capture promotes in Maka-Dai-Dai: the Gold General becomes a Free Gold (FGo).
    let mut pos = position(
        "maka-dai-dai",
        &[
            ("10s", Black, "K"),
            ("10a", White, "K"),
            ("5j", Black, "G"),
            ("5i", White, "P"),
        ],
        &[],
    );
    let m = mv(&pos, "5j", &[], "5i", true);
    assert_eq!(written(&mut pos, m), "Gx5i+");
    pos.make(&m);
    let reply = read(&mut pos, "K-10b");
    pos.make(&reply);
    assert_eq!(read(&mut pos, "FGo-5c"), mv(&pos, "5i", &[], "5c", false));
}

// ------------------------------------------------------------------ errors

#[test]
fn illegal_moves_name_the_rule() {
    // Two pawns on a file.
    let mut pos = position(
        "shogi",
        &[("5i", Black, "K"), ("1a", White, "K"), ("5g", Black, "P")],
        &[("P", 1)],
    );
    let e = error(&mut pos, "P*5e");
    match &e {
        MoveError::Illegal { rule, .. } => assert_eq!(*rule, Illegal::FileLimit),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains(&Illegal::FileLimit.to_string()), "{e}");
    // The Gold on 5h is pinned to its King by the Rook on 5a.
    let mut pos = position(
        "shogi",
        &[
            ("5i", Black, "K"),
            ("1a", White, "K"),
            ("5h", Black, "G"),
            ("5a", White, "R"),
        ],
        &[],
    );
    let e = error(&mut pos, "G-4h");
    match &e {
        MoveError::Illegal { rule, .. } => assert_eq!(*rule, Illegal::LeavesRoyalInCheck),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("leave your royal piece in check"), "{e}");
    // USI moves get the same reasons.
    match error(&mut pos, "5h4h") {
        MoveError::Illegal { rule, .. } => assert_eq!(rule, Illegal::LeavesRoyalInCheck),
        other => panic!("{other:?}"),
    }
    // A move the piece cannot make.
    let e = error(&mut pos, "G-3f");
    assert!(
        matches!(
            e,
            MoveError::Illegal {
                rule: Illegal::NotAMove,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("cannot move so"), "{e}");
}

#[test]
fn promotion_choices_that_are_not_allowed() {
    let mut pos = Position::start(tables("shogi", &[]));
    match error(&mut pos, "G-4h+") {
        MoveError::PromotionImpossible { instead, .. } => assert_eq!(instead, "G-4h"),
        other => panic!("{other:?}"),
    }
    // A pawn must promote on the last rank.
    let mut pos = position("shogi", &[KINGS_SHOGI[0], ("9a", White, "K"), ("1b", Black, "P")], &[]);
    match error(&mut pos, "P-1a") {
        MoveError::PromotionRequired { instead, .. } => assert_eq!(instead, "P-1a+"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(error(&mut pos, "1b1a"), MoveError::PromotionRequired { .. }));
}

#[test]
fn malformed_and_unknown() {
    let mut pos = Position::start(tables("chu", &[]));
    for (text, at) in [
        ("Lnx3", 4),
        ("Ln", 3),
        ("Ln-5h+x", 7),
        ("Ln-5h-", 7),
        ("", 1),
        ("-5h", 1),
        ("Ln-13a", 4),
    ] {
        match error(&mut pos, text) {
            MoveError::Malformed { at: found, .. } => assert_eq!(found, at, "{text}"),
            other => panic!("`{text}`: {other:?}"),
        }
    }
    let e = error(&mut pos, "Lnx3").to_string();
    assert!(e.contains("character 4") && e.contains("a square"), "{e}");
    match error(&mut pos, "Qx5e") {
        MoveError::NoSuchPiece { reason, .. } => assert!(reason.contains("`Q` is not a piece"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match error(&mut pos, "FK7j-7h") {
        MoveError::NoSuchPiece { reason, .. } => assert!(reason.contains("on 7j"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let mut pos = position("chu", &KINGS_CHU, &[]);
    match error(&mut pos, "Ln-5e") {
        MoveError::NoSuchPiece { reason, .. } => assert!(reason.contains("no Lion"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(error(&mut pos, "13a12a"), MoveError::Malformed { .. }));
}

// ------------------------------------------------------------------ round trip

fn captures(pos: &Position, m: &Move) -> bool {
    let geo = pos.geometry();
    m.captures().any(|sq| pos.piece_at(geo.square(sq)).is_some())
}

/// Every legal move of the position reads back from its TSA and USI forms, and no two are
/// written alike. Returns the texts.
fn every_move_reads_back(pos: &mut Position) -> Vec<String> {
    let legal = pos.legal_moves();
    let texts = write_tsa_all(pos, &legal);
    for (m, text) in legal.iter().zip(&texts) {
        assert_eq!(read_move(pos, text).as_ref(), Ok(m), "`{text}`");
        let usi = write_usi(pos, m);
        assert_eq!(read_move(pos, &usi).as_ref(), Ok(m), "USI `{usi}`");
    }
    let mut sorted = texts.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), texts.len(), "two moves written alike: {texts:?}");
    texts
}

#[test]
fn crowded_lions_read_back() {
    // Two Lions among enemies: double captures, igui, captures then moves, passes, and
    // moves that only a start square tells apart.
    let mut pos = position(
        "chu",
        &[
            KINGS_CHU[0],
            KINGS_CHU[1],
            ("7g", Black, "Ln"),
            ("5g", Black, "Ln"),
            ("6f", White, "P"),
            ("6g", White, "G"),
            ("7f", White, "S"),
            ("4h", White, "C"),
            ("8h", Black, "P"),
            ("6h", Black, "+DH"),
            ("4f", White, "GB"),
        ],
        &[],
    );
    let texts = every_move_reads_back(&mut pos);
    for text in [
        "Lnx7fx6f",
        "Ln7gx6fx6g",
        "Ln5gx6fx6g",
        "Ln7gx!6f",
        "Lnx7f-8e",
        "+DHx!6g",
        "+DHx6gx6f",
    ] {
        assert!(texts.iter().any(|t| t == text), "{text} in {texts:?}");
    }
}

#[test]
fn teaching_king_three_steps_read_back() {
    // Maka-Dai-Dai's Teaching King, version 2: a three-step Lion move can take two pieces
    // and come back.
    let mut pos = position_with(
        "maka-dai-dai",
        &["teaching-king=2"],
        &[
            ("10s", Black, "K"),
            ("10a", White, "K"),
            ("10j", Black, "TK"),
            ("10i", White, "P"),
            ("9i", White, "P"),
            ("11k", White, "G"),
            ("8j", White, "S"),
        ],
        &[],
    );
    let texts = every_move_reads_back(&mut pos);
    for text in ["TKx10ix9i-10j", "TKx!10i", "TKx10ix9ix8j"] {
        assert!(texts.iter().any(|t| t.starts_with(text)), "{text} in {texts:?}");
    }
}

/// Plays random games; at every position, every legal move is written in TSA and in USI
/// and read back. Returns the number of moves checked.
fn round_trip(variant: &str, options: &[&str], games: usize, plies: usize, seed: u64) -> usize {
    let t = tables(variant, options);
    let mut rng = Bytes::from_seed(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::start(t.clone());
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let texts = write_tsa_all(&pos, &legal);
            for (m, text) in legal.iter().zip(&texts) {
                assert_eq!(
                    read_move(&pos, text).as_ref(),
                    Ok(m),
                    "{variant}: `{text}` in {}",
                    koma::notation::write_sfen(&pos)
                );
                let usi = write_usi(&pos, m);
                assert_eq!(read_move(&pos, &usi).as_ref(), Ok(m), "{variant}: USI `{usi}`");
            }
            // write_tsa itself, on a sample of the moves.
            for _ in 0..3 {
                let m = legal[rng.below(legal.len())];
                let i = legal.iter().position(|l| *l == m).unwrap();
                assert_eq!(write_tsa(&pos, &m), texts[i]);
            }
            // Distinct moves are written differently.
            let mut sorted = texts.clone();
            sorted.sort();
            sorted.dedup();
            let mut unique = legal.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(sorted.len(), unique.len(), "{variant}: two moves written alike");
            checked += legal.len();
            // Half the time a capture, when there is one, so that pieces meet.
            let captures: Vec<Move> = legal.iter().copied().filter(|m| captures(&pos, m)).collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.make(&m);
        }
    }
    checked
}

#[test]
fn round_trip_small_variants() {
    assert!(round_trip("shogi", &[], 6, 120, 1) > 1000);
    assert!(round_trip("yari", &[], 6, 120, 2) > 1000);
    assert!(round_trip("tori", &[], 6, 120, 3) > 1000);
}

#[test]
fn round_trip_chu() {
    assert!(round_trip("chu", &[], 3, 120, 4) > 1000);
}

#[test]
fn round_trip_dai() {
    assert!(round_trip("dai", &[], 2, 80, 5) > 1000);
}

#[test]
fn round_trip_maka_dai_dai() {
    assert!(round_trip("maka-dai-dai", &[], 1, 60, 6) > 1000);
    assert!(round_trip("maka-dai-dai", &["teaching-king=2"], 1, 60, 7) > 1000);
}

// ------------------------------------------------------------------ command line

#[test]
fn koma_moves_writes_tsa_sorted() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = koma(&["moves", "shogi", "--format", "tsa"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 30);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    for text in ["P-7f", "G4i-5h", "G6i-5h", "R-1h", "K-5h"] {
        assert!(lines.contains(&text), "{text}: {out}");
    }
    let Run { code, stdout: usi, .. } = koma(&["moves", "shogi"]);
    assert!(
        code == Some(0) && usi.lines().any(|l| l == "7g7f"),
        "USI stays the default"
    );
    // The moves of one piece; Lion paths (`--paths`) keep their middle square.
    let sfen = "k11/12/12/12/12/6p5/5N6/12/12/12/12/11K b - 1";
    let Run { stdout: lion, .. } = koma(&["moves", "chu", "--sfen", sfen, "--from", "7g", "--format", "tsa"]);
    for text in ["Lnx!6f", "Ln-7f-7g", "Lnx6f-5e", "Lnx6f", "Ln-5e"] {
        assert!(lion.lines().any(|l| l == text), "{text}: {lion}");
    }
    assert!(lion.lines().all(|l| l.starts_with("Ln")), "{lion}");
    let Run { stdout: paths, .. } = koma(&[
        "moves", "chu", "--sfen", sfen, "--from", "7g", "--format", "tsa", "--paths",
    ]);
    assert!(paths.lines().any(|l| l == "Ln-6gx6f"), "{paths}");
    let Run { code, stderr: err, .. } = koma(&["moves", "chu", "--from", "7z"]);
    assert!(code != Some(0) && err.contains("--from"), "{err}");
}

/// A move that takes more than the piece it lands on says what it takes, of both sides: the
/// Great General's range capture of Taikyoku's file 18 after one move takes the 17 pieces
/// on its line, 7 of them its own; a Lion's double capture takes two; a plain capture says nothing.
#[test]
fn a_move_taking_pieces_besides_its_destination_says_what_it_takes() {
    let mut game = Variant::game_from(Position::start(tables("taikyoku", &[])));
    let opening = koma::notation::read_usi(game.position(), "10z10y").expect("a pawn's step");
    game.play(opening).expect("legal");
    let m = read_move(game.position(), "GGx18ai").expect("White's range capture of the issue");
    // Every piece on the line from the General to its destination, of both sides.
    let pos = game.position();
    let line: Vec<_> = pos
        .geometry()
        .line_to(m.from.expect("a range capture starts on a square"), m.to)
        .filter(|&sq| pos.piece(sq).is_some())
        .collect();
    game.play(m).expect("legal");
    let played = game.played().last().expect("the move is kept");
    let taken = &played.taken;
    assert_eq!(taken.iter().map(|t| t.square).collect::<Vec<_>>(), line);
    assert_eq!(taken.len(), 17);
    assert_eq!(taken.iter().filter(|t| t.side == Side::White).count(), 7);
    let text = describe_taken(game.position(), played).expect("it takes more than its destination");
    assert!(text.starts_with("taking 17 pieces: Black's P-18z, "), "{text}");
    assert!(
        text.ends_with("; White's DV-18e, GT-18f, PM-18g, LH-18h, GM-18i, LD-18j, P-18k"),
        "{text}"
    );

    let chu = position(
        "chu",
        &[
            ("5e", Side::Black, "Ln"),
            ("5d", Side::White, "P"),
            ("5c", Side::White, "G"),
            ("9a", Side::White, "K"),
            ("9i", Side::Black, "K"),
        ],
        &[],
    );
    let double = read_move(&chu, "Lnx5dx5c").expect("a Lion's double capture");
    let single = read_move(&chu, "Lnx5d").expect("a plain capture");
    let mut game = Variant::game_from(chu.clone());
    game.play(double).expect("legal");
    let played = game.played().last().expect("the move is kept");
    assert_eq!(
        describe_taken(game.position(), played).as_deref(),
        Some("taking 2 pieces: White's G-5c, P-5d")
    );
    // The record says it in a comment after the move.
    let record = koma::notation::write_record(&Default::default(), &[], &game);
    assert!(
        record.contains("Lnx5dx5c {taking 2 pieces: White's G-5c, P-5d}"),
        "{record}"
    );
    let mut game = Variant::game_from(chu);
    game.play(single).expect("legal");
    let played = game.played().last().expect("the move is kept");
    assert_eq!(describe_taken(game.position(), played), None);
}
