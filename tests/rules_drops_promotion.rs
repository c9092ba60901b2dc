//! Rule tests: drops and promotion, one test per rule of the rule texts
//! (SV's `*.rul`; sources and contested readings in docs/sources.md), each on a
//! hand-built position with the exact moves the rule allows, and the rule a forbidden move
//! breaks.

mod support;

use koma::game::Illegal;
use koma::rules::{PromotionEvent, Side};
use support::*;

// ------------------------------------------------------------------ captured pieces go to hand

/// Shogi: a captured piece goes to the capturer's hand, unpromoted, and may be dropped.
#[test]
fn shogi_captured_piece_goes_to_the_capturers_hand_reverted() {
    // White's Dragon Horse (+B) on 2c; Black's Rook on 2h takes it.
    let mut pos = position("shogi", &[], "4k4/9/7+b1/9/9/9/9/7R1/4K4 b - 1");
    play(&mut pos, "2h2c");
    assert_eq!(piece_at(&pos, "2c"), Some((Side::Black, "R".into())));
    assert_eq!(in_hand(&pos, Side::Black, "B"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "+B"), 0);
    assert_eq!(in_hand(&pos, Side::White, "B"), 0);
    play(&mut pos, "5a5b");
    assert_eq!(check(&pos, "B*5e"), Ok(()));
}

/// Tori: "Eagles and Geese revert to their unpromoted ranks when captured."
#[test]
fn tori_captured_eagle_and_goose_revert() {
    // White's Eagle (+f) on 4d, taken by Black's Crane on 4e; White's Goose (+s) on 6d,
    // taken by Black's Falcon on 6e.
    let mut pos = position("tori", &[], "k6/7/7/1+s1+f3/1F1C3/7/3K3 b - 1");
    play(&mut pos, "4e4d");
    assert_eq!(in_hand(&pos, Side::Black, "Fa"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "Eg"), 0);
    play(&mut pos, "7a7b");
    play(&mut pos, "6e6d");
    assert_eq!(in_hand(&pos, Side::Black, "Sw"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "Go"), 0);
}

/// Yari: "All promoted pieces revert to their unpromoted ranks when captured": the two
/// Yari Golds revert to what they were, a Yari Bishop and a Yari Knight.
#[test]
fn yari_captured_yari_golds_revert_to_bishop_and_knight() {
    let mut pos = position("yari", &[], "3k3/7/5+n+b/7/7/7/5RR/7/3K3 b - 1");
    play(&mut pos, "1g1c");
    play(&mut pos, "4a5a");
    play(&mut pos, "1c2c");
    assert_eq!(in_hand(&pos, Side::Black, "YB"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "YN"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "+YB"), 0);
    assert_eq!(in_hand(&pos, Side::Black, "+YN"), 0);
}

// ------------------------------------------------------------------ no drop without a further move

/// Shogi: no Pawn or Lance drop on the last rank, no Knight drop on the last two; for both sides.
#[test]
fn shogi_no_drop_where_the_piece_has_no_further_move() {
    let pos = position("shogi", &[], "4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    for bad in ["P*1a", "L*1a", "N*1a", "N*1b"] {
        assert_eq!(check(&pos, bad), Err(Illegal::NoFurtherMove), "{bad}");
    }
    for good in ["P*1b", "L*1b", "N*1c", "P*9h", "N*9i"] {
        assert_eq!(check(&pos, good), Ok(()), "{good}");
    }
    let pos = position("shogi", &[], "4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    for bad in ["P*9i", "L*9i", "N*9i", "N*9h"] {
        assert_eq!(check(&pos, bad), Err(Illegal::NoFurtherMove), "{bad}");
    }
    for good in ["P*9h", "L*9h", "N*9g", "P*1a", "N*1a"] {
        assert_eq!(check(&pos, good), Ok(()), "{good}");
    }
}

/// Yari: "only the Yari Rook can be dropped on the last rank"; a Yari Knight may be dropped
/// on the second-to-last (it keeps its forward slide).
#[test]
fn yari_only_the_yari_rook_may_be_dropped_on_the_last_rank() {
    let pos = position("yari", &[], "3k3/7/7/7/7/7/7/7/3K3 b RBNP 1");
    assert_eq!(check(&pos, "R*1a"), Ok(()));
    for bad in ["B*1a", "N*1a", "P*1a"] {
        assert_eq!(check(&pos, bad), Err(Illegal::NoFurtherMove), "{bad}");
    }
    for good in ["B*1b", "N*1b", "P*1b"] {
        assert_eq!(check(&pos, good), Ok(()), "{good}");
    }
}

/// Tori: a Swallow may not be dropped on the last rank; other pieces may go anywhere.
#[test]
fn tori_no_swallow_drop_on_the_last_rank() {
    let pos = position("tori", &[], "3k3/7/7/7/7/7/3K3 b SFCPLR 1");
    assert_eq!(check(&pos, "S*1a"), Err(Illegal::NoFurtherMove));
    for good in ["S*1b", "F*1a", "C*1a", "P*1a", "L*1a", "R*1a"] {
        assert_eq!(check(&pos, good), Ok(()), "{good}");
    }
    let pos = position("tori", &[], "3k3/7/7/7/7/7/3K3 w s 1");
    assert_eq!(check(&pos, "S*1g"), Err(Illegal::NoFurtherMove));
    assert_eq!(check(&pos, "S*1f"), Ok(()));
}

// ------------------------------------------------------------------ pieces per file

/// Shogi: no Pawn drop on a file holding an unpromoted Pawn of the same side; a Tokin or an
/// enemy Pawn on the file does not count.
#[test]
fn shogi_two_pawns_on_a_file() {
    // Black Pawn 5g, Black Tokin 3c, White Pawn 4c.
    let pos = position("shogi", &[], "4k4/9/5p+P2/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(check(&pos, "P*5e"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "P*5b"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "P*3e"), Ok(()));
    assert_eq!(check(&pos, "P*4e"), Ok(()));
    assert_eq!(check(&pos, "P*6e"), Ok(()));
    let drops = legal_drops(&pos);
    assert!(drops.iter().all(|d| !d.starts_with("P*5")), "{drops:?}");
    // Every file but 5, ranks b to i, less 4c and 3c: 8 x 8 - 2.
    assert_eq!(drops.len(), 62);
    let pos = position("shogi", &[], "4k4/9/5p+P2/9/9/9/4P4/9/4K4 w p 1");
    assert_eq!(check(&pos, "p*4e"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "p*5e"), Ok(()));
}

/// Yari: the same rule as shogi for the Pawn.
#[test]
fn yari_two_pawns_on_a_file() {
    let pos = position("yari", &[], "3k3/7/7/7/7/7/3P3/7/3K3 b P 1");
    assert_eq!(check(&pos, "P*4e"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "P*3e"), Ok(()));
}

/// Tori: no Swallow drop on a file already holding two unpromoted Swallows of the same side;
/// a second is legal; a Goose does not count.
#[test]
fn tori_two_swallows_per_file() {
    // Black Swallows on 1e, 1f (two on file 1) and 2e (one on file 2); a Black Goose on 3b
    // and a Black Swallow on 3e; a White Swallow on 2c.
    let mut pos = position("tori", &[], "3k3/4+S2/5s1/7/4SSS/6S/3K3 b 2S 1");
    assert_eq!(check(&pos, "S*1c"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "S*1b"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "S*2d"), Ok(()));
    assert_eq!(check(&pos, "S*3c"), Ok(()));
    // The second Swallow on file 2 is legal; a third is not.
    play(&mut pos, "S*2d");
    play(&mut pos, "4a5a");
    assert_eq!(check(&pos, "S*2f"), Err(Illegal::FileLimit));
    assert_eq!(check(&pos, "S*3c"), Ok(()));
}

// ------------------------------------------------------------------ drop mate

/// Shogi: a Pawn drop that gives immediate checkmate is illegal (uchifuzume).
#[test]
fn shogi_pawn_drop_mate_is_illegal() {
    // White King 1a; Black Gold 2c guards 1b and 2b, Black Knight 3c guards 2a.
    let pos = position("shogi", &[], "8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(check(&pos, "P*1b"), Err(Illegal::DropMate));
    assert!(!legal(&pos).contains(&"P*1b".to_string()));
    // The same pawn may be dropped elsewhere.
    assert_eq!(check(&pos, "P*1c"), Ok(()));
}

/// Shogi: a Pawn MOVE that mates is legal, and wins.
#[test]
fn shogi_pawn_move_that_mates_is_legal() {
    let pos = position("shogi", &[], "8k/9/6NGP/9/9/9/9/9/4K4 b - 1");
    let mut game = koma::game::Game::new(pos);
    play_all(&mut game, &["1c1b"]);
    assert_eq!(game.outcome(), win(Side::Black, koma::game::EndReason::Checkmate));
}

/// Shogi: a Pawn drop that checks but does not mate is legal.
#[test]
fn shogi_pawn_drop_check_that_is_not_mate_is_legal() {
    // Without the Knight, the King escapes to 2a.
    let mut pos = position("shogi", &[], "8k/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(check(&pos, "P*1b"), Ok(()));
    play(&mut pos, "P*1b");
    assert!(pos.royal_in_check(Side::White));
    assert_eq!(legal(&pos), list(&["1a2a"]));
}

/// Yari: "it IS legal for a Pawn to be dropped in front of the opposing King to give Checkmate".
#[test]
fn yari_pawn_drop_mate_is_legal() {
    // White King 1a; Black Yari Gold (+B) 2c guards 1b and 2b, Yari Knight 3c guards 2a.
    let pos = position("yari", &[], "6k/7/4N+B1/7/7/7/7/7/3K3 b P 1");
    let mut game = koma::game::Game::new(pos);
    play_all(&mut game, &["P*1b"]);
    assert_eq!(game.outcome(), win(Side::Black, koma::game::EndReason::Checkmate));
}

/// Tori: a Swallow may not be dropped "so as to give instant Checkmate"; a checking drop
/// that is not mate is legal.
#[test]
fn tori_swallow_drop_mate_is_illegal() {
    // White Phoenix 1a; Black Falcon 3b guards 2a and 2b, Black Crane 1c guards 1b.
    let pos = position("tori", &[], "6k/4F2/6C/7/7/7/3K3 b S 1");
    assert_eq!(check(&pos, "S*1b"), Err(Illegal::DropMate));
    // Without the Crane the Phoenix takes the Swallow: the drop is legal.
    let mut pos = position("tori", &[], "6k/4F2/7/7/7/7/3K3 b S 1");
    assert_eq!(check(&pos, "S*1b"), Ok(()));
    play(&mut pos, "S*1b");
    assert_eq!(legal(&pos), list(&["1a1b"]));
}

// ------------------------------------------------------------------ drops in the zone

/// Shogi: a drop never promotes; a piece dropped in the zone may promote on its next move.
#[test]
fn shogi_piece_dropped_in_the_zone_promotes_only_on_a_later_move() {
    let mut pos = position("shogi", &[], "k8/9/9/9/9/9/9/9/4K4 b S 1");
    play(&mut pos, "S*3c");
    assert_eq!(piece_at(&pos, "3c"), Some((Side::Black, "S".into())));
    play(&mut pos, "9a9b");
    assert_eq!(
        legal_from(&pos, "3c"),
        list(&[
            "3c2b", "3c2b+", "3c3b", "3c3b+", "3c4b", "3c4b+", "3c2d", "3c2d+", "3c4d", "3c4d+"
        ])
    );
}

/// Yari: "A piece dropped inside the player's Promotion Zone is not promoted until after it
/// has made a further move on the board."
#[test]
fn yari_piece_dropped_in_the_zone_promotes_only_on_a_later_move() {
    let mut pos = position("yari", &[], "k6/7/7/7/7/7/7/7/3K3 b P 1");
    play(&mut pos, "P*3c");
    assert_eq!(piece_at(&pos, "3c"), Some((Side::Black, "P".into())));
    play(&mut pos, "7a7b");
    assert_eq!(legal_from(&pos, "3c"), list(&["3c3b", "3c3b+"]));
}

/// Tori: a Swallow or Falcon dropped in the zone "is not promoted until after it has made a
/// further move", and then must promote.
#[test]
fn tori_piece_dropped_in_the_zone_promotes_on_its_next_move() {
    let mut pos = position("tori", &[], "k6/7/7/7/7/7/3K3 b SF 1");
    play(&mut pos, "S*3b");
    assert_eq!(piece_at(&pos, "3b"), Some((Side::Black, "Sw".into())));
    play(&mut pos, "7a7b");
    assert_eq!(legal_from(&pos, "3b"), list(&["3b3a+"]));
    play(&mut pos, "F*5a");
    assert_eq!(piece_at(&pos, "5a"), Some((Side::Black, "Fa".into())));
    play(&mut pos, "7b7a");
    assert_eq!(legal_from(&pos, "5a"), list(&["5a4a+", "5a4b+", "5a6a+", "5a6b+"]));
}

// ------------------------------------------------------------------ promotion triggers

/// Shogi: a move entering the zone may promote (and a move outside it may not).
#[test]
fn shogi_promotion_on_entering_the_zone() {
    let pos = position("shogi", &[], "4k4/9/9/6S2/9/9/9/9/4K4 b - 1");
    assert_eq!(
        legal_from(&pos, "3d"),
        list(&["3d2c", "3d2c+", "3d3c", "3d3c+", "3d4c", "3d4c+", "3d2e", "3d4e"])
    );
    assert_eq!(check(&pos, "3d4e+"), Err(Illegal::Promotion));
}

/// Shogi: a move within the zone, or leaving it, may promote.
#[test]
fn shogi_promotion_moving_within_and_leaving_the_zone() {
    let pos = position("shogi", &[], "4k4/9/6S2/9/9/9/9/9/4K4 b - 1");
    assert_eq!(
        legal_from(&pos, "3c"),
        list(&[
            "3c2b", "3c2b+", "3c3b", "3c3b+", "3c4b", "3c4b+", // within
            "3c2d", "3c2d+", "3c4d", "3c4d+", // leaving
        ])
    );
}

/// Shogi: a promoted piece, the King and the Gold never promote.
#[test]
fn shogi_gold_king_and_promoted_pieces_do_not_promote() {
    let pos = position("shogi", &[], "k8/9/9/4G+S3/9/9/9/9/4K4 b - 1");
    assert_eq!(check(&pos, "5d5c+"), Err(Illegal::Promotion));
    assert_eq!(check(&pos, "4d4c+"), Err(Illegal::Promotion));
    assert_eq!(check(&pos, "5d5c"), Ok(()));
}

/// Shogi: Pawn and Lance must promote on the last rank, the Knight on the last two; short of
/// that promotion stays optional.
#[test]
fn shogi_forced_promotion_where_the_piece_would_have_no_further_move() {
    // Pawn 1b, Lance 2c, Knights 3d and 7e.
    let pos = position("shogi", &[], "4k4/8P/7L1/6N2/2N6/9/9/9/4K4 b - 1");
    assert_eq!(legal_from(&pos, "1b"), list(&["1b1a+"]));
    assert_eq!(check(&pos, "1b1a"), Err(Illegal::Promotion));
    assert_eq!(legal_from(&pos, "2c"), list(&["2c2a+", "2c2b", "2c2b+"]));
    assert_eq!(check(&pos, "2c2a"), Err(Illegal::Promotion));
    assert_eq!(legal_from(&pos, "3d"), list(&["3d2b+", "3d4b+"]));
    assert_eq!(check(&pos, "3d2b"), Err(Illegal::Promotion));
    assert_eq!(legal_from(&pos, "7e"), list(&["7e6c", "7e6c+", "7e8c", "7e8c+"]));
}

/// The same for White, whose zone and last ranks are at the bottom.
#[test]
fn shogi_forced_promotion_for_white() {
    // White Pawn 9h, Lance 8g, Knights 7f and 3e.
    let pos = position("shogi", &[], "4k4/9/9/9/6n2/2n6/1l7/p8/4K4 w - 1");
    assert_eq!(legal_from(&pos, "9h"), list(&["9h9i+"]));
    assert_eq!(legal_from(&pos, "8g"), list(&["8g8h", "8g8h+", "8g8i+"]));
    assert_eq!(legal_from(&pos, "7f"), list(&["7f6h+", "7f8h+"]));
    assert_eq!(legal_from(&pos, "3e"), list(&["3e2g", "3e2g+", "3e4g", "3e4g+"]));
    assert_eq!(check(&pos, "9h9i"), Err(Illegal::Promotion));
}

/// Tori: promotion is compulsory on any move "wholly or partly within" the zone: entering,
/// within and leaving it; not outside it.
#[test]
fn tori_promotion_is_compulsory() {
    // Swallows 1c (enters) and 2b (within); Falcon 4b (within and leaving); Falcon 5d (outside).
    let pos = position("tori", &[], "k6/3F1S1/6S/2F4/7/7/3K3 b - 1");
    assert_eq!(legal_from(&pos, "1c"), list(&["1c1b+"]));
    assert_eq!(check(&pos, "1c1b"), Err(Illegal::Promotion));
    assert_eq!(legal_from(&pos, "2b"), list(&["2b2a+"]));
    assert_eq!(
        legal_from(&pos, "4b"),
        list(&["4b3a+", "4b3b+", "4b3c+", "4b4a+", "4b5a+", "4b5b+", "4b5c+"])
    );
    assert_eq!(check(&pos, "4b3c"), Err(Illegal::Promotion));
    assert_eq!(
        legal_from(&pos, "5d"),
        list(&["5d4c", "5d4d", "5d4e", "5d5c", "5d6c", "5d6d", "5d6e"])
    );
}

/// Yari: Yari Bishop, Yari Knight and Pawn must promote on the last rank; the Yari Rook
/// never must (it keeps its sideways moves).
#[test]
fn yari_forced_promotion_on_the_last_rank_except_the_yari_rook() {
    for option in ["promotion=touch-zone", "promotion=end-in-zone"] {
        let pos = position("yari", &[option], "7/2R2BP/4N2/7/k6/7/7/7/3K3 b - 1");
        assert_eq!(legal_from(&pos, "1b"), list(&["1b1a+"]), "{option}");
        assert_eq!(legal_from(&pos, "2b"), list(&["2b1a+", "2b2a+", "2b3a+"]), "{option}");
        assert_eq!(
            legal_from(&pos, "3c"),
            list(&["3c2a+", "3c3a+", "3c3b", "3c3b+", "3c4a+"]),
            "{option}"
        );
        assert_eq!(
            legal_from(&pos, "5b"),
            list(&[
                "5b3b", "5b3b+", "5b4b", "5b4b+", "5b5a", "5b5a+", "5b6b", "5b6b+", "5b7b", "5b7b+"
            ]),
            "{option}"
        );
    }
}

/// Yari, `promotion=end-in-zone` (Freeling's own rules): only moves that end in the zone
/// promote. No unpromoted Yari piece moves backwards, so none can leave the zone: the option
/// changes the zone rule (no promotion on leaving) but not the moves of any position.
#[test]
fn yari_promotion_end_in_zone_option() {
    let touch = tables("yari", &["promotion=touch-zone"]);
    let end = tables("yari", &["promotion=end-in-zone"]);
    let zone = |t: &koma::game::MoveTables| {
        t.rules().promotion.iter().find_map(|trigger| match trigger.when {
            PromotionEvent::Zone {
                depth,
                enter,
                within,
                leave,
                ..
            } => Some((depth, enter, within, leave)),
            PromotionEvent::Capture => None,
        })
    };
    assert_eq!(zone(&touch), Some((3, true, true, true)));
    assert_eq!(zone(&end), Some((3, true, true, false)));
    // Entering and moving within still promote under end-in-zone.
    let pos = position("yari", &["promotion=end-in-zone"], "k6/7/7/3R3/7/7/7/7/3K3 b - 1");
    assert_eq!(
        legal_from(&pos, "4d"),
        list(&[
            "4d1d", "4d2d", "4d3d", "4d5d", "4d6d", "4d7d", "4d4c", "4d4c+", "4d4b", "4d4b+", "4d4a", "4d4a+"
        ])
    );
}

/// Dai: the Knight must promote on the last two ranks (SV's data), the Iron and Stone
/// Generals on the last rank; entering the 5-rank zone short of that is optional.
#[test]
fn dai_forced_promotion_of_knight_iron_and_stone() {
    let sfen = "15/6[ST]3[I]4/3[N]11/12[N]2/15/15/7[N]7/k14/15/15/15/15/15/15/14K b - 1";
    let pos = position("dai", &[], sfen);
    assert_eq!(legal_from(&pos, "3d"), list(&["3d2b+", "3d4b+"]));
    assert_eq!(check(&pos, "3d2b"), Err(Illegal::Promotion));
    assert_eq!(legal_from(&pos, "12c"), list(&["12c11a+", "12c13a+"]));
    assert_eq!(legal_from(&pos, "8g"), list(&["8g7e", "8g7e+", "8g9e", "8g9e+"]));
    assert_eq!(legal_from(&pos, "5b"), list(&["5b4a+", "5b5a+", "5b6a+"]));
    assert_eq!(legal_from(&pos, "9b"), list(&["9b10a+", "9b8a+"]));
}

/// Dai `promotion=entry` (HaChu's default, hachu.c NewNonCapture/NewCapture): a move that
/// captures nothing may promote only on entering the zone; a capture may promote when it
/// starts or ends in the zone. HaChu counts the same (tests/perft/dai.perft).
#[test]
fn dai_promotion_entry_option() {
    // Black Golds on 8f (outside the 5-rank zone) and 4d (inside it); White Pawns on 4c
    // (in the zone) and 8g (outside it).
    let sfen = "k14/15/11p3/11G3/15/7G7/7p7/15/15/15/15/15/15/15/14K b - 1";
    let pos = position("dai", &["promotion=entry"], sfen);
    assert_eq!(check(&pos, "8f8e+"), Ok(()), "entering");
    assert_eq!(check(&pos, "4d3c+"), Err(Illegal::Promotion), "within, no capture");
    assert_eq!(check(&pos, "4d4e+"), Err(Illegal::Promotion), "leaving, no capture");
    assert_eq!(check(&pos, "4d4c+"), Ok(()), "a capture within the zone");
    assert_eq!(
        check(&pos, "8f8g+"),
        Err(Illegal::Promotion),
        "a capture outside the zone"
    );
    let sfen = "k14/15/15/15/6G8/6p8/15/15/15/15/15/15/15/15/14K b - 1";
    let pos = position("dai", &["promotion=entry"], sfen);
    assert_eq!(check(&pos, "9e9f+"), Ok(()), "a capture leaving the zone");
    let pos = position("dai", &[], "k14/15/15/11G3/15/15/15/15/15/15/15/15/15/15/14K b - 1");
    assert_eq!(check(&pos, "4d3c+"), Ok(()), "sv: within");
    assert_eq!(check(&pos, "4d4e+"), Ok(()), "sv: leaving");
}

/// Chu: "If a piece does not promote on entering the Promotion Zone it may not promote on the
/// next turn unless making a capture. The piece may, however, promote on any subsequent turn."
#[test]
fn chu_deferral_after_declining_on_entry() {
    let sfen = "k11/12/7p4/12/6G5/12/12/12/12/12/12/11K b - 1";
    let mut pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "6e"),
        list(&[
            "6e5d", "6e5d+", "6e5e", "6e6d", "6e6d+", "6e6f", "6e7d", "6e7d+", "6e7e"
        ])
    );
    play(&mut pos, "6e6d");
    play(&mut pos, "12a12b");
    // The next turn: no promotion, except on the capture of 5c.
    assert_eq!(
        legal_from(&pos, "6d"),
        list(&["6d5c", "6d5c+", "6d5d", "6d6c", "6d6e", "6d7c", "6d7d"])
    );
    assert_eq!(check(&pos, "6d6c+"), Err(Illegal::Promotion));
    play(&mut pos, "6d6c");
    play(&mut pos, "12b12a");
    // Any subsequent turn: every move touching the zone may promote again.
    assert_eq!(
        legal_from(&pos, "6c"),
        list(&[
            "6c5b", "6c5b+", "6c5c", "6c5c+", "6c6b", "6c6b+", "6c6d", "6c6d+", "6c7b", "6c7b+", "6c7c", "6c7c+"
        ])
    );
}

/// Chu deferral applies to White as well, in White's zone.
#[test]
fn chu_deferral_for_white() {
    let sfen = "k11/12/12/12/12/12/12/5g6/12/12/12/11K w - 1";
    let mut pos = position("chu", &[], sfen);
    play(&mut pos, "7h7i");
    play(&mut pos, "1l1k");
    assert_eq!(check(&pos, "7i7j+"), Err(Illegal::Promotion));
    assert_eq!(check(&pos, "7i7j"), Ok(()));
}

/// Chu: the Drunk Elephant promotes to the Crown Prince, a second royal piece; the promoted
/// Go-Between moves as a Drunk Elephant but is not royal and does not promote again.
#[test]
fn chu_drunk_elephant_promotes_to_crown_prince_go_between_to_drunk_elephant() {
    let sfen = "k11/12/12/12/5I1E4/12/12/12/12/12/12/11K b - 1";
    let mut pos = position("chu", &[], sfen);
    assert_eq!(pos.royal_squares(Side::Black).len(), 1);
    play(&mut pos, "5e5d+");
    assert_eq!(piece_at(&pos, "5d"), Some((Side::Black, "+DE".into())));
    assert_eq!(pos.royal_squares(Side::Black).len(), 2);
    play(&mut pos, "12a12b");
    play(&mut pos, "7e7d+");
    assert_eq!(piece_at(&pos, "7d"), Some((Side::Black, "+GB".into())));
    assert_eq!(pos.royal_squares(Side::Black).len(), 2);
    play(&mut pos, "12b12a");
    assert_eq!(
        legal_from(&pos, "7d"),
        list(&["7d6c", "7d6d", "7d6e", "7d7c", "7d8c", "7d8d", "7d8e"])
    );
}

/// Chu deferral: the wait is one turn of the player; after another move the piece may promote.
#[test]
fn chu_deferral_lasts_one_turn() {
    let sfen = "k11/12/12/12/6G5/12/12/12/12/12/12/11K b - 1";
    let mut pos = position("chu", &[], sfen);
    play(&mut pos, "6e6d");
    play(&mut pos, "12a12b");
    play(&mut pos, "1l1k");
    play(&mut pos, "12b12a");
    assert_eq!(check(&pos, "6d6c+"), Ok(()));
}

/// Chu: "If a Pawn is not promoted on entering the Promotion Zone, it must remain unpromoted
/// until reaching the last (twelfth) rank, at which time it must promote."
#[test]
fn chu_pawn_that_declined_promotes_only_on_the_last_rank() {
    let sfen = "k11/12/12/12/6P5/12/12/12/12/12/12/11K b - 1";
    let mut pos = position("chu", &[], sfen);
    assert_eq!(legal_from(&pos, "6e"), list(&["6e6d", "6e6d+"]));
    play(&mut pos, "6e6d");
    assert_eq!(
        pos.piece_at(sq("6d")).map(|p| p.declined()),
        Some(true),
        "marked as declined"
    );
    play(&mut pos, "12a12b");
    assert_eq!(legal_from(&pos, "6d"), list(&["6d6c"]));
    play(&mut pos, "6d6c");
    play(&mut pos, "12b12a");
    assert_eq!(legal_from(&pos, "6c"), list(&["6c6b"]));
    play(&mut pos, "6c6b");
    play(&mut pos, "12a12b");
    assert_eq!(legal_from(&pos, "6b"), list(&["6b6a+"]));
    assert_eq!(check(&pos, "6b6a"), Err(Illegal::Promotion));

    // Not even a capture lets it promote before the last rank.
    let pos = position("chu", &[], "k11/12/6p5/6P=5/12/12/12/12/12/12/12/11K b - 1");
    assert_eq!(legal_from(&pos, "6d"), list(&["6d6c"]));

    // With `pawn-rule=none` the Pawn follows the general rule (after its one-turn deferral).
    let mut pos = position("chu", &["pawn-rule=none"], sfen);
    play(&mut pos, "6e6d");
    play(&mut pos, "12a12b");
    assert_eq!(legal_from(&pos, "6d"), list(&["6d6c"]));
    play(&mut pos, "6d6c");
    play(&mut pos, "12b12a");
    assert_eq!(legal_from(&pos, "6c"), list(&["6c6b", "6c6b+"]));
}

/// Chu: "A Lance must promote on reaching the last rank".
#[test]
fn chu_lance_must_promote_on_the_last_rank() {
    let pos = position("chu", &[], "k11/12/12/12/6L5/12/12/12/12/12/12/11K b - 1");
    assert_eq!(
        legal_from(&pos, "6e"),
        list(&["6e6a+", "6e6b", "6e6b+", "6e6c", "6e6c+", "6e6d", "6e6d+"])
    );
}

// ------------------------------------------------------------------ Maka-Dai-Dai

/// Maka-Dai-Dai: "A piece is promoted when it captures an enemy piece. If a piece has a
/// promoted rank and makes a capture, promotion is compulsory" — anywhere on the board.
#[test]
fn maka_promotion_by_capture_anywhere_is_compulsory() {
    // Black Gold 10j (the middle of the board), White Pawns 10i and 11i.
    let sfen = maka(
        &[('a', "[k]18"), ('i', "8[p][p]9"), ('j', "9[G]9"), ('s', "18[K]")],
        "b",
    );
    let mut pos = position("maka-dai-dai", &[], &sfen);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&["10j10i+", "10j11i+", "10j9i", "10j11j", "10j9j", "10j10k"])
    );
    assert_eq!(check(&pos, "10j10i"), Err(Illegal::Promotion));
    assert_eq!(check(&pos, "10j9j+"), Err(Illegal::Promotion));
    play(&mut pos, "10j10i+");
    assert_eq!(piece_at(&pos, "10i"), Some((Side::Black, "FGo".into())));
    // With `capture-promotion=optional`, promoting or not.
    let pos = position("maka-dai-dai", &["capture-promotion=optional"], &sfen);
    assert_eq!(
        legal_from(&pos, "10j"),
        list(&[
            "10j10i", "10j10i+", "10j11i", "10j11i+", "10j9i", "10j11j", "10j9j", "10j10k"
        ])
    );
}

/// Maka-Dai-Dai: pieces without a promoted rank (Free King, Dragon King, Dragon Horse,
/// promoted pieces) capture without promoting.
#[test]
fn maka_pieces_without_a_promoted_rank_capture_plainly() {
    let sfen = maka(
        &[
            ('a', "[k]18"),
            ('i', "12[p]2[p]3"),
            ('j', "12+[G]2[DK]3"),
            ('s', "18[K]"),
        ],
        "b",
    );
    let pos = position("maka-dai-dai", &[], &sfen);
    assert_eq!(check(&pos, "4j4i"), Ok(()));
    assert_eq!(check(&pos, "4j4i+"), Err(Illegal::Promotion));
    assert_eq!(check(&pos, "7j7i"), Ok(()));
    assert_eq!(check(&pos, "7j7i+"), Err(Illegal::Promotion));
}

/// Maka-Dai-Dai: a Lion promotes (to Furious Fiend) on any capture, igui and double
/// captures included; its pass is no capture and does not promote.
#[test]
fn maka_lion_promotes_on_any_capture() {
    let sfen = maka(&[('a', "[k]18"), ('i', "9[p]9"), ('j', "9[LN]9"), ('s', "18[K]")], "b");
    let mut pos = position("maka-dai-dai", &[], &sfen);
    for m in ["10j10i10j+", "10j10i+", "10j10i9h+", "10j10j", "10j9h"] {
        assert!(is_legal(&pos, m), "{m}");
    }
    for m in ["10j10i10j", "10j10i", "10j10j+", "10j9h+"] {
        assert!(!is_legal(&pos, m), "{m}");
    }
    play(&mut pos, "10j10i10j+");
    assert_eq!(piece_at(&pos, "10j"), Some((Side::Black, "FF".into())));
    assert_eq!(piece_at(&pos, "10i"), None);
}

/// Maka-Dai-Dai: "A piece that reaches the last rank of the board and does not have the power
/// to retreat is left in play on the last rank until captured."
#[test]
fn maka_stuck_pieces_stay_unpromoted() {
    let sfen = maka(&[('a', "[k]18"), ('b', "14[P]4"), ('c', "12[N]6"), ('s', "18[K]")], "b");
    let mut pos = position("maka-dai-dai", &[], &sfen);
    assert_eq!(legal_from(&pos, "5b"), list(&["5b5a"]));
    assert_eq!(legal_from(&pos, "7c"), list(&["7c6a", "7c8a"]));
    play(&mut pos, "5b5a");
    play(&mut pos, "19a19b");
    assert_eq!(piece_at(&pos, "5a"), Some((Side::Black, "P".into())));
    assert_eq!(legal_from(&pos, "5a"), Vec::<String>::new());
}

/// Maka-Dai-Dai: "The 'King' on making a capture promotes to an 'Emperor'", and the Drunk
/// Elephant to a Prince, a second royal piece.
#[test]
fn maka_king_promotes_to_emperor_and_drunk_elephant_to_royal_prince() {
    // Black King 11j, Drunk Elephant 5j; White Pawns 10i and 5i.
    let sfen = maka(&[('a', "[k]18"), ('i', "9[p]4[p]4"), ('j', "8[K]5[DE]4")], "b");
    let mut pos = position("maka-dai-dai", &[], &sfen);
    // 10j is guarded by the Pawn on 10i.
    assert_eq!(
        legal_from(&pos, "11j"),
        list(&["11j10i+", "11j10k", "11j11i", "11j11k", "11j12i", "11j12j", "11j12k"])
    );
    assert_eq!(check(&pos, "11j10i"), Err(Illegal::Promotion));
    let mut emperor = pos.clone();
    play(&mut emperor, "11j10i+");
    assert_eq!(piece_at(&emperor, "10i"), Some((Side::Black, "E".into())));
    assert_eq!(emperor.royal_squares(Side::Black).len(), 1);

    assert_eq!(
        legal_from(&pos, "5j").iter().filter(|m| m.starts_with("5j5i")).count(),
        1
    );
    play(&mut pos, "5j5i+");
    assert_eq!(piece_at(&pos, "5i"), Some((Side::Black, "Pr".into())));
    assert_eq!(pos.royal_squares(Side::Black).len(), 2);
}

// ------------------------------------------------------------------ Chu: the Renmei promotion rule

/// Chu Shogi Renmei (option `promotion=renmei`): a non-capture promotes only on entering the
/// zone, but a capture that starts or ends in the zone may promote. A Silver on 7d (inside
/// the four-rank zone) may promote taking the pawn on 7c, not stepping to 6c or leaving to 6e.
#[test]
fn chu_renmei_promotes_on_entering_or_on_a_capture_in_the_zone() {
    let sfen = "k11/12/5p6/5S6/12/12/12/12/12/12/12/11K b - 1";
    let renmei = position("chu", &["promotion=renmei"], sfen);
    assert_eq!(
        legal_from(&renmei, "7d"),
        list(&["7d6c", "7d6e", "7d7c", "7d7c+", "7d8c", "7d8e"])
    );
    let sv = position("chu", &[], sfen);
    let every = [
        "7d6c", "7d6c+", "7d6e", "7d6e+", "7d7c", "7d7c+", "7d8c", "7d8c+", "7d8e", "7d8e+",
    ];
    assert_eq!(legal_from(&sv, "7d"), list(&every));
    // Entering the zone without a capture may promote under both readings.
    let entering = "k11/12/12/12/5S6/12/12/12/12/12/12/11K b - 1";
    let renmei = position("chu", &["promotion=renmei"], entering);
    assert!(legal_from(&renmei, "7e").contains(&"7e7d+".to_string()));
}

/// Chu Shogi Renmei (option `promotion=renmei`, lishogi): a Pawn or Lance moving to the last
/// rank may promote on any move, even a non-capture inside the zone, and may decline, staying
/// there without a move. Under SV it must promote there.
#[test]
fn chu_renmei_pawn_and_lance_may_decline_on_the_last_rank() {
    // A Pawn on 7b (inside the zone), a Lance on 3g (outside it).
    let sfen = "k11/5P6/12/12/12/12/9L2/12/12/12/12/11K b - 1";
    let mut renmei = position("chu", &["promotion=renmei"], sfen);
    assert_eq!(legal_from(&renmei, "7b"), list(&["7b7a", "7b7a+"]));
    let lance = legal_from(&renmei, "3g");
    assert!(lance.contains(&"3g3a".to_string()) && lance.contains(&"3g3a+".to_string()));
    // Short of the last rank, entering the zone gives the usual choice.
    assert!(lance.contains(&"3g3b".to_string()) && lance.contains(&"3g3b+".to_string()));
    play(&mut renmei, "7b7a");
    assert_eq!(piece_at(&renmei, "7a"), Some((Side::Black, "P".to_string())));
    play(&mut renmei, "12a12b");
    assert_eq!(
        legal_from(&renmei, "7a"),
        list(&[]),
        "a Pawn on the last rank has no move"
    );
    let sv = position("chu", &[], sfen);
    assert_eq!(legal_from(&sv, "7b"), list(&["7b7a+"]));
    assert!(!legal_from(&sv, "3g").contains(&"3g3a".to_string()));
}

/// Under the Renmei's reading with SV's pawn rule (`pawn-rule=sv`, the default), a Pawn that
/// declined on entering the zone may still choose on the last rank.
#[test]
fn chu_renmei_declined_pawn_may_choose_on_the_last_rank() {
    let sfen = "k11/5P=6/12/12/12/12/12/12/12/12/12/11K b - 1";
    let renmei = position("chu", &["promotion=renmei"], sfen);
    assert_eq!(legal_from(&renmei, "7b"), list(&["7b7a", "7b7a+"]));
}

// ------------------------------------------------------------------ pieces in hand at the start

/// Goro Goro Plus: "each side starts with a Lance and a Knight in hand" (Fairy-Stockfish's
/// `gorogoroplus`: `[LNln]`), dropped like any captured piece, from the first move.
#[test]
fn gorogoroplus_starts_with_a_lance_and_a_knight_in_hand() {
    let mut pos = koma::game::Position::start(tables("gorogoroplus", &[]));
    for side in [Side::Black, Side::White] {
        assert_eq!(in_hand(&pos, side, "L"), 1, "{side:?}");
        assert_eq!(in_hand(&pos, side, "N"), 1, "{side:?}");
        assert_eq!(in_hand(&pos, side, "P"), 0, "{side:?}");
    }
    assert_eq!(koma::notation::write_sfen(&pos), "sgkgs/5/1ppp1/1PPP1/5/SGKGS b NLnl 1");
    // Black drops its Lance on 3e (no Lance on the last rank, no Knight on the last two).
    let drops = legal_drops(&pos);
    assert!(drops.contains(&"L*3e".to_string()), "{drops:?}");
    assert!(!drops.iter().any(|d| d.ends_with('a')), "{drops:?}");
    assert!(
        !drops.iter().any(|d| d.starts_with("N*") && d.ends_with('b')),
        "{drops:?}"
    );
    play(&mut pos, "L*3e");
    assert_eq!(in_hand(&pos, Side::Black, "L"), 0);
    assert_eq!(in_hand(&pos, Side::White, "L"), 1);
}

/// A position holds no more pieces of a kind than the setup has, on the board and in hand:
/// a third Knight cannot come from nowhere, and the error says the cap is the setup's.
#[test]
fn gorogoroplus_a_position_holds_no_more_pieces_than_the_setup_and_hands() {
    let t = tables("gorogoroplus", &[]);
    assert!(koma::notation::read_sfen(&t, "sgkgs/5/1ppp1/1PPP1/5/SGKGS b 2Nl 1").is_ok());
    let e = koma::notation::read_sfen(&t, "sgkgs/5/1ppp1/1PPP1/5/SGKGS b 2Nnl 1").unwrap_err();
    assert!(
        e.message
            .contains("3 pieces of kind N, but the variant's setup (its board and hands at the start) has only 2"),
        "{e}"
    );
}
