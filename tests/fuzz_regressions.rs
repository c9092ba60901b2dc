//! One test per crash the fuzz targets found (`fuzz/`), named after what went wrong. The
//! input that found it is also in the target's corpus (`fuzz/corpus/TARGET/regression-…`),
//! which `tests/fuzz_corpus.rs` replays.

mod support;

use koma::game::{Game, Position};
use koma::notation::{parse_record, read_move, read_sfen, replay, write_record};
use koma::variant::Variant;
use support::tables;

/// Every legal move passes the independent check, and the independent check accepts no
/// candidate the generator leaves out.
fn generator_agrees_with_is_legal(pos: &mut Position) {
    let legal = pos.legal_moves();
    for m in &legal {
        assert!(pos.is_legal(m), "{m:?} generated, but is_legal refuses it");
    }
    for c in pos.candidate_moves() {
        assert_eq!(pos.is_legal(&c), legal.contains(&c), "{c:?}");
    }
}

/// record: a `Result` tag whose value is not a result (`1-0`, `0-1`, `1/2-1/2`, `*`) was
/// written as the last token of the movetext, where it read back as moves.
#[test]
fn a_result_tag_that_is_not_a_result_is_not_written_as_moves() {
    let text = "[Variant \"shogi\"]\n[Result \"soon [Handicap \"Lance\"]\n\n1. P-7f P-3d *\n";
    let record = parse_record(text).expect("the record reads");
    let mut game = Variant::game_from(Position::start(tables("shogi", &[])));
    replay(&mut game, &record).expect("the moves replay");
    let written = write_record(&record.tags, &record.options, &game);
    assert!(written.ends_with("1. P-7f P-3d *\n"), "{written}");
    let again = parse_record(&written).expect("the written record reads");
    assert_eq!(again.moves.len(), 2);
    assert_eq!(again.tags.get("Result"), record.tags.get("Result"));
}

/// record: a tag whose name merely starts with `Option` (`[Optionppp "…"]`) was taken for an
/// `Option` tag: played as an option, and written back as `[Option "…"]`. Only `Option`
/// names an option; any other tag is kept as it is, and a tag given twice is refused.
#[test]
fn a_tag_that_starts_with_option_is_not_an_option() {
    let text =
        "[Variant \"tori\"]\n[Optionppp \"repetition=fourfold\"]\n[Option \"repetition=fourfold\"]\n\n1. Sw-3c *\n";
    let record = parse_record(text).expect("the record reads");
    assert_eq!(record.options, ["repetition=fourfold"]);
    assert_eq!(
        record.tags.get("Optionppp").map(String::as_str),
        Some("repetition=fourfold")
    );
    let mut game = Game::new(Position::start(tables("tori", &[])));
    replay(&mut game, &record).expect("the moves replay");
    let written = write_record(&record.tags, &record.options, &game);
    assert!(
        written
            .starts_with("[Variant \"tori\"]\n[Option \"repetition=fourfold\"]\n[Optionppp \"repetition=fourfold\"]\n"),
        "{written}"
    );
    let again = parse_record(&written).expect("the written record reads");
    assert_eq!((again.tags, again.options), (record.tags, record.options));
    let twice = parse_record("[Variant \"tori\"]\n[Black \"a\"]\n[Black \"b\"]\n\n*\n").expect_err("twice");
    assert_eq!(twice.line, 3);
    assert!(
        twice.message.contains("[Black] is given twice (first on line 2)"),
        "{twice}"
    );
}

/// sfen: in a position where the side to move has no royal piece, a promotion to a royal
/// kind (a Drunk Elephant to a Crown Prince) was generated even when it left the new and
/// only royal capturable; `is_legal` refuses it.
#[test]
fn a_promotion_that_makes_the_only_royal_must_leave_it_safe() {
    let t = tables("chu", &[]);
    // Black has no King; its Drunk Elephant on 7a may promote, but White's pieces around it
    // would capture the Crown Prince it becomes.
    let sfen = "lfcsgEkgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppA/3i4i3/12/12/3I4I3/PPPPPPPRPGPP/MVRHDNQDHRVM/A1pppppppppp/LgEkgs!EGSCFL b - 1";
    let mut pos = read_sfen(&t, sfen).expect("the position reads");
    generator_agrees_with_is_legal(&mut pos);
    let err = read_move(&pos, "DEx8b+").expect_err("the promotion leaves the Prince capturable");
    assert!(err.to_string().contains("royal"), "{err}");
}

/// sfen: the same with a drop: a King dropped by a side with none on the board must not be
/// dropped where it can be captured.
#[test]
fn a_drop_of_the_only_royal_must_leave_it_safe() {
    let t = tables("shogi", &[]);
    let mut pos = read_sfen(&t, "4k4/9/9/9/9/9/9/9/9 b K 1").expect("the position reads");
    generator_agrees_with_is_legal(&mut pos);
    assert!(read_move(&pos, "K*5b").is_err());
    assert!(read_move(&pos, "K*5e").is_ok());
}
