//! Rule tests: royal safety and how a game ends, one test per rule of the rule texts
//! (SV's `*.rul`; sources and contested readings in docs/sources.md, the royal safety
//! convention in docs/positions-and-counting.md), played move by move with `Game::play`.

mod support;

use koma::game::{EndReason, Game, Illegal};
use koma::notation::{read_sfen, write_sfen};
use koma::rules::Side;
use support::*;

fn game(variant: &str, options: &[&str], sfen: &str) -> Game {
    Game::new(position(variant, options, sfen))
}

// ------------------------------------------------------------------ royal safety

/// A move that leaves the mover's only royal piece in check is illegal: here a Gold pinned
/// on the King's file by a Rook.
#[test]
fn leaving_the_only_royal_in_check_is_illegal() {
    let pos = position("shogi", &[], "8k/4r4/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(legal_from(&pos, "5h"), list(&["5h5g"]));
    assert_eq!(check(&pos, "5h4h"), Err(Illegal::LeavesRoyalInCheck));
    assert_eq!(check(&pos, "5h4g"), Err(Illegal::LeavesRoyalInCheck));
    assert_eq!(legal_from(&pos, "5i"), list(&["5i4h", "5i4i", "5i6h", "5i6i"]));
    // A King may not step into check either.
    let pos = position("shogi", &[], "8k/3r5/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(check(&pos, "5i6i"), Err(Illegal::LeavesRoyalInCheck));
    assert_eq!(legal_from(&pos, "5i"), list(&["5i4h", "5i4i", "5i5h"]));
}

/// Royal safety with Lion moves: a Lion that takes a piece and does not stay on its square
/// (igui, or stepping on) empties that square, and may expose its King.
#[test]
fn lion_capture_that_empties_a_pinned_square_is_illegal() {
    // Chu: White Rook 1a, White Pawn 1f, Black King 1l; Black Lion 2e.
    let pos = position("chu", &[], "k10r/12/12/12/10N1/11p/12/12/12/12/12/11K b - 1");
    for m in ["2e1f2e", "2e1f2f", "2e1f2g"] {
        assert_eq!(check(&pos, m), Err(Illegal::LeavesRoyalInCheck), "{m}");
    }
    for m in ["2e1f", "2e1f1e", "2e1f1g"] {
        assert_eq!(check(&pos, m), Ok(()), "{m}");
    }
}

/// Chu, King and Crown Prince: "If the opposing player has obtained a 'Crown Prince' by
/// promotion, that piece must also be captured in order to win the game": exposing one of two
/// royals is legal, and losing one does not end the game.
#[test]
fn with_king_and_crown_prince_exposing_one_is_legal() {
    // Black King 12l and Crown Prince 1l; Black Gold 1f between the Prince and White's Rook 1a.
    let sfen = "k10r/12/12/12/12/11G/12/12/12/12/12/K10+E b - 1";
    let mut game = game("chu", &[], sfen);
    play_all(&mut game, &["1f2f"]);
    // The position reached (White could take the Prince) is a legal position: it reads back.
    let text = write_sfen(game.position());
    assert!(read_sfen(game.position().tables(), &text).is_ok(), "{text}");
    play_all(&mut game, &["1a1l"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position().royal_squares(Side::Black).len(), 1);
    // Now the King is the only royal: exposing it is illegal again.
    let sfen = "k10r/12/12/12/12/11G/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "1f2f"), Err(Illegal::LeavesRoyalInCheck));
}

/// Chu `royal-capture=allowed` (HaChu, lishogi): a move leaving the King capturable is legal,
/// and loses when the King is taken.
#[test]
fn royal_capture_allowed_option() {
    let sfen = "k5r5/12/12/12/12/12/12/12/12/12/6G5/6K5 b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "6k5k"), Err(Illegal::LeavesRoyalInCheck));
    let mut game = game("chu", &["royal-capture=allowed"], sfen);
    play_all(&mut game, &["6k5k"]);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &["6a6l"]);
    assert_eq!(game.outcome(), win(Side::White, EndReason::RoyalsCaptured));
}

/// Maka-Dai-Dai: the King and the Prince must all be captured; with `self-check=legal` the
/// game ends when the last royal is taken.
#[test]
fn capture_of_all_royals_ends_the_game() {
    // Black King 10j and Prince 5j; White Rooks on 10a and 5a.
    let sfen = maka(&[('a', "[k]8[r]4[r]4"), ('j', "9[K]4+[DE]4"), ('s', "18[P]")], "w");
    let mut game = game("maka-dai-dai", &["self-check=legal"], &sfen);
    play_all(&mut game, &["5a5j+"]);
    assert_eq!(game.outcome(), None, "the King is left");
    play_all(&mut game, &["1s1r"]);
    play_all(&mut game, &["10a10j+"]);
    assert_eq!(game.outcome(), win(Side::White, EndReason::RoyalsCaptured));
}

// ------------------------------------------------------------------ checkmate and stalemate

/// Checkmate ends the game: the side to move, in check, has no legal move.
#[test]
fn checkmate() {
    // Black drops a Gold on 1b, protected by the Pawn on 1c.
    let mut game = game("shogi", &[], "8k/9/8P/9/9/9/9/9/4K4 b G 1");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &["G*1b"]);
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Black, EndReason::Checkmate));
}

/// Shogi: no legal move, not in check, loses (Fairy-Stockfish, lishogi; SV is silent).
#[test]
fn shogi_stalemate_loses() {
    // Black King 1i: White Gold 2g guards 1h and 2h, White Knight 3g guards 2i.
    let game = game("shogi", &[], "k8/9/9/9/9/9/6ng1/9/8K b - 1");
    assert!(!game.position().royal_in_check(Side::Black));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::White, EndReason::Stalemate));
}

/// Yari: "'stalemate' is possible in Yari Shogi. When it occurs the game is drawn";
/// `stalemate=loss` is Fairy-Stockfish's reading.
#[test]
fn yari_stalemate_draws() {
    // Black King 1i: White Yari Gold 2g guards 1h and 2h, White Yari Knight 3g guards 2i.
    let sfen = "k6/7/7/7/7/7/4n+b1/7/6K b - 1";
    let g = game("yari", &[], sfen);
    assert!(g.legal_moves().is_empty());
    assert!(!g.position().royal_in_check(Side::Black));
    assert_eq!(g.outcome(), draw(EndReason::Stalemate));
    let g = game("yari", &["stalemate=loss"], sfen);
    assert_eq!(g.outcome(), win(Side::White, EndReason::Stalemate));
}

/// Tori: the stalemated side loses (pychess, Fairy-Stockfish; SV is silent).
#[test]
fn tori_stalemate_loses() {
    // Black Phoenix 1g: White Falcon 2e guards 1f and 2f, White Crane 3f guards 2g.
    let g = game("tori", &[], "k6/7/7/7/5f1/4c2/6K b - 1");
    assert!(g.legal_moves().is_empty());
    assert!(!g.position().royal_in_check(Side::Black));
    assert_eq!(g.outcome(), win(Side::White, EndReason::Stalemate));
}

// ------------------------------------------------------------------ Chu's bare king

/// Chu: "The game can also be won by capturing all pieces except the 'King'": White, bared,
/// cannot bare Black at once, and loses.
#[test]
fn chu_bare_king_loses() {
    // Black Gold 6f takes White's last piece, the Pawn on 6e.
    let mut g = game("chu", &[], "k11/12/12/12/6p5/6G5/12/12/12/12/12/11K b - 1");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &["6f6e"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::BareKing));
}

/// Chu, under the Renmei's last-rank rule (`promotion=renmei`): a Pawn left on the last rank
/// without a move does not save its King from being bare (lishogi ignores such dead pieces).
#[test]
fn chu_bare_king_ignores_pieces_without_a_move() {
    // White has its King and a dead Pawn on 6l; Black's Gold takes White's last live piece.
    let sfen = "k11/12/12/12/6p5/6G5/12/12/12/12/12/6p4K b - 1";
    let mut g = game("chu", &["promotion=renmei"], sfen);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &["6f6e"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::BareKing));
    // A Pawn that can still move keeps the King dressed.
    let sfen = "k11/12/12/12/6p5/6G5/12/12/12/12/6p5/11K b - 1";
    let mut g = game("chu", &["promotion=renmei"], sfen);
    play_all(&mut g, &["6f6e"]);
    assert_eq!(g.outcome(), None);
}

/// Chu: "A bare King may secure a draw if it can also bare the opposing 'King' on the
/// following move"; when both are bare the game is drawn.
#[test]
fn chu_bare_king_draws_if_it_bares_the_other_at_once() {
    // As above, but White's King on 5d is next to the Gold when it takes the Pawn.
    let mut g = game("chu", &[], "12/12/12/7k4/6p5/6G5/12/12/12/12/12/11K b - 1");
    play_all(&mut g, &["6f6e"]);
    assert_eq!(g.outcome(), None, "White can still bare Black");
    play_all(&mut g, &["5d6e"]);
    assert_eq!(g.outcome(), draw(EndReason::BothBare));
    // Two bare Kings: a draw.
    let g = game("chu", &[], "k11/12/12/12/12/12/12/12/12/12/12/11K b - 1");
    assert_eq!(g.outcome(), draw(EndReason::BothBare));
}

// ------------------------------------------------------------------ repetition

/// The four moves of two Kings stepping out and back.
const SHUFFLE_YARI: [&str; 4] = ["4i4h", "4a4b", "4h4i", "4b4a"];

/// Yari: "It is not legal to move so as to repeat a board position for the third time."
#[test]
fn yari_third_repetition_is_illegal() {
    let sfen = "3k3/7/7/7/7/7/7/7/3K3 b - 1";
    let mut g = game("yari", &[], sfen);
    play_all(&mut g, &SHUFFLE_YARI);
    play_all(&mut g, &SHUFFLE_YARI[..3]);
    assert_eq!(g.outcome(), None);
    // The start position would occur for the third time.
    assert_eq!(try_play(&mut g, "4b4a"), Err(Illegal::Repetition));
    assert!(!legal(g.position()).contains(&"4b4a".to_string()));
    assert_eq!(try_play(&mut g, "4b5a"), Ok(()));
    // FSF's reading (`repetition=threefold-draw`): the third occurrence draws.
    let mut g = game("yari", &["repetition=threefold-draw"], sfen);
    play_all(&mut g, &SHUFFLE_YARI);
    play_all(&mut g, &SHUFFLE_YARI);
    assert_eq!(g.outcome(), draw(EndReason::Repetition));
}

/// Tori: "If the same position occurs three times by repetition of moves, the player
/// starting the sequence must vary his move."
#[test]
fn tori_repetition_starter_must_vary() {
    let shuffle = ["4g4f", "4a4b", "4f4g", "4b4a"];
    let mut g = game("tori", &[], "3k3/7/7/7/7/7/3K3 b - 1");
    play_all(&mut g, &shuffle);
    play_all(&mut g, &shuffle);
    // White did not start the sequence: its move making the start position recur a third
    // time is legal.
    assert_eq!(g.outcome(), None);
    // Black started it, and must now vary.
    assert_eq!(try_play(&mut g, "4g4f"), Err(Illegal::Repetition));
    assert_eq!(try_play(&mut g, "4g3f"), Ok(()));
}

/// Tori, FSF's reading (`repetition=fourfold`): a move that makes a position occur a fourth
/// time is illegal, but a repetition made by continuous checks loses for the checking side.
/// The side in check may complete it, and wins.
#[test]
fn tori_fourfold_perpetual_check_loses_for_the_checker() {
    // Black's Eagle checks from 3c and 4c along the diagonal while White's Phoenix steps
    // between 1a and 2a.
    let shuffle = ["4c3c", "1a2a", "3c4c", "2a1a"];
    let mut g = game("tori", &["repetition=fourfold"], "6k/7/3+F3/7/7/7/3K3 b - 1");
    for _ in 0..2 {
        play_all(&mut g, &shuffle);
    }
    play_all(&mut g, &shuffle[..3]);
    assert_eq!(g.outcome(), None);
    assert!(legal(g.position()).contains(&"2a1a".to_string()));
    play_all(&mut g, &shuffle[3..]);
    assert_eq!(g.outcome(), win(Side::White, EndReason::PerpetualCheck));
}

/// Tori, `repetition=fourfold`: the checking side may not complete a repetition of
/// continuous checks; it must vary.
#[test]
fn tori_fourfold_perpetual_checker_may_not_repeat() {
    let shuffle = ["1a2a", "3c4c", "2a1a", "4c3c"];
    let mut g = game("tori", &["repetition=fourfold"], "6k/7/4+F2/7/7/7/3K3 w - 1");
    for _ in 0..2 {
        play_all(&mut g, &shuffle);
    }
    play_all(&mut g, &shuffle[..3]);
    assert_eq!(try_play(&mut g, "4c3c"), Err(Illegal::PerpetualCheck));
    assert!(!legal(g.position()).contains(&"4c3c".to_string()));
    assert_eq!(try_play(&mut g, "4c4b"), Ok(()));
    assert_eq!(g.outcome(), None);
}

/// Tori, `repetition=fourfold`: any other fourth occurrence is illegal for the side making it.
#[test]
fn tori_fourfold_repetition_is_illegal() {
    let shuffle = ["4g4f", "4a4b", "4f4g", "4b4a"];
    let mut g = game("tori", &["repetition=fourfold"], "3k3/7/7/7/7/7/3K3 b - 1");
    for _ in 0..2 {
        play_all(&mut g, &shuffle);
    }
    play_all(&mut g, &shuffle[..3]);
    assert_eq!(g.outcome(), None);
    assert_eq!(try_play(&mut g, "4b4a"), Err(Illegal::Repetition));
    assert_eq!(try_play(&mut g, "4b3a"), Ok(()));
}

/// Chu (also Dai and Sho), `repetition=forbidden` (HaChu's reading): a move that repeats any
/// earlier position is illegal, whoever started the cycle. (A Gold each keeps Chu's bare-king
/// rule out of the way.)
#[test]
fn chu_forbidden_repetition_any_repeat_is_illegal() {
    let shuffle = ["6l6k", "6a6b", "6k6l", "6b6a"];
    let sfen = "g5k5/12/12/12/12/12/12/12/12/12/12/G5K5 b - 1";
    let mut g = game("chu", &["repetition=forbidden"], sfen);
    play_all(&mut g, &shuffle[..3]);
    // The start position would occur a second time.
    assert_eq!(try_play(&mut g, "6b6a"), Err(Illegal::Repetition));
    assert!(!legal(g.position()).contains(&"6b6a".to_string()));
    assert_eq!(try_play(&mut g, "6b5a"), Ok(()));
    assert_eq!(g.outcome(), None);
    // Dai and Sho have the same option.
    let kings = [
        (
            "dai",
            "7k7/15/15/15/15/15/15/15/15/15/15/15/15/15/7K7 b - 1",
            ["8o8n", "8a8b", "8n8o", "8b8a"],
        ),
        ("sho", "4k4/9/9/9/9/9/9/9/4K4 b - 1", ["5i5h", "5a5b", "5h5i", "5b5a"]),
    ];
    for (variant, sfen, shuffle) in kings {
        let mut g = game(variant, &["repetition=forbidden"], sfen);
        play_all(&mut g, &shuffle[..3]);
        assert_eq!(try_play(&mut g, shuffle[3]), Err(Illegal::Repetition), "{variant}");
    }
}

/// Plays `shuffle` (four moves that come back to the start) until the fourth occurrence of
/// `sfen`: no result at the third, a draw by repetition at the fourth.
fn assert_fourfold_draw(variant: &str, sfen: &str, shuffle: [&str; 4]) {
    let mut g = game(variant, &[], sfen);
    for _ in 0..2 {
        play_all(&mut g, &shuffle);
    }
    play_all(&mut g, &shuffle[..3]);
    assert_eq!(g.outcome(), None, "{variant}: the third occurrence");
    play_all(&mut g, &shuffle[3..]);
    assert_eq!(g.outcome(), draw(EndReason::Repetition), "{variant}");
}

/// Chu by default (lishogi's reading, `repetition=fourfold`): repeating is legal, and the
/// fourth occurrence of a position draws.
#[test]
fn chu_fourfold_repetition_draws() {
    assert_fourfold_draw(
        "chu",
        "g5k5/12/12/12/12/12/12/12/12/12/12/G5K5 b - 1",
        ["6l6k", "6a6b", "6k6l", "6b6a"],
    );
}

/// Shogi: the same position four times is a draw (sennichite).
#[test]
fn shogi_fourfold_repetition_draws() {
    assert_fourfold_draw("shogi", "4k4/9/9/9/9/9/9/9/4K4 b - 1", ["5i5h", "5a5b", "5h5i", "5b5a"]);
}

/// Shogi: a repetition made by continuous checks loses for the checking side.
#[test]
fn shogi_perpetual_check_loses_for_the_checker() {
    // Black's Rook checks from 1e and 2e while White's King steps between 1a and 2a.
    let shuffle = ["2e1e", "1a2a", "1e2e", "2a1a"];
    let mut g = game("shogi", &[], "8k/9/9/9/7R1/9/9/9/4K4 b - 1");
    for _ in 0..2 {
        play_all(&mut g, &shuffle);
    }
    play_all(&mut g, &shuffle[..3]);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &shuffle[3..]);
    assert_eq!(g.outcome(), win(Side::White, EndReason::PerpetualCheck));
}

/// Perpetual check by White, in a game that starts with White to move.
#[test]
fn shogi_perpetual_check_by_white_loses_for_white() {
    let shuffle = ["8e9e", "9i8i", "9e8e", "8i9i"];
    let mut g = game("shogi", &[], "8k/9/9/9/1r7/9/9/9/K8 w - 1");
    for _ in 0..3 {
        play_all(&mut g, &shuffle);
    }
    assert_eq!(g.outcome(), win(Side::Black, EndReason::PerpetualCheck));
}

/// A repetition in which the checks are not continuous is an ordinary draw.
#[test]
fn shogi_repetition_with_some_checks_draws() {
    let shuffle = ["3e1e", "1a2a", "1e3e", "2a1a"];
    let mut g = game("shogi", &[], "8k/9/9/9/6R2/9/9/9/4K4 b - 1");
    for _ in 0..3 {
        play_all(&mut g, &shuffle);
    }
    assert_eq!(g.outcome(), draw(EndReason::Repetition));
}

/// Repetition and perpetual check count the positions a game's start position carries from
/// before the game.
#[test]
fn shogi_perpetual_check_from_a_start_position_with_history() {
    let shuffle = ["2e1e", "1a2a", "1e2e", "2a1a"];
    let mut pos = position("shogi", &[], "8k/9/9/9/7R1/9/9/9/4K4 b - 1");
    for m in shuffle {
        play(&mut pos, m);
    }
    let mut g = Game::new(pos);
    play_all(&mut g, &shuffle);
    play_all(&mut g, &shuffle[..3]);
    assert_eq!(g.outcome(), None, "the third occurrence");
    play_all(&mut g, &shuffle[3..]);
    assert_eq!(g.outcome(), win(Side::White, EndReason::PerpetualCheck));
}

/// Under `royal-capture=allowed` the capture of the last royal ends the game at once: the
/// loser has no move (perft counts nothing below the capture, `moves` lists nothing), no
/// move may be played, and the result names the winner. HaChu counts the same (tests/perft/chu.perft).
#[test]
fn captured_last_royal_ends_the_game() {
    // White King 7g, White Pawn 1d; Black Gold 7h takes the King.
    let sfen = "12/12/12/11p/12/12/5k6/5G6/12/12/12/11K b - 1";
    let mut game = game("chu", &["royal-capture=allowed"], sfen);
    play_all(&mut game, &["7h7g"]);
    assert_eq!(game.outcome(), win(Side::Black, EndReason::RoyalsCaptured));
    assert!(game.legal_moves().is_empty(), "White's Pawn may not move on");
    assert_eq!(try_play(&mut game, "1d1e"), Err(Illegal::GameOver));
    let mut pos = game.position().clone();
    assert!(!pos.is_legal(&mv(&pos, "1d1e")), "the independent check agrees");
    let start = position("chu", &["royal-capture=allowed"], sfen);
    let under_capture = koma::game::perft_divide(&start, 2, koma::game::LionCounting::Distinct)
        .into_iter()
        .find(|(m, _)| *m == mv(&start, "7h7g"))
        .map(|(_, n)| n);
    assert_eq!(under_capture, Some(0));
}

// ------------------------------------------------------------------ Sho's royals and bare king

/// Sho: the bare-king rule is SV's reading (`bare-king=sv`, the default); Fairy-Stockfish has
/// none (`bare-king=none`), and there taking White's last piece ends nothing.
#[test]
fn sho_bare_king_follows_the_option() {
    // Black's Gold 6f takes White's last piece but the King, the Pawn on 6e.
    let sfen = "k8/9/9/9/3p5/3G5/9/9/8K b - 1";
    let mut g = game("sho", &[], sfen);
    play_all(&mut g, &["6f6e"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::BareKing));
    let mut g = game("sho", &["bare-king=none"], sfen);
    play_all(&mut g, &["6f6e"]);
    assert_eq!(g.outcome(), None);
}

/// Sho: a side with a Crown Prince has not lost when its King is taken; the Crown Prince
/// must be taken too, and is then the royal that may not be left in check.
#[test]
fn sho_crown_prince_must_also_be_captured() {
    // White's King on 9a may be left attacked while its Crown Prince on 1a stands.
    let mut g = game("sho", &[], "k7+e/9/9/9/R3p4/9/9/9/R7K b - 1");
    play_all(&mut g, &["9e9a"]);
    assert_eq!(g.outcome(), None, "the Crown Prince is still royal");
    assert_eq!(try_play(&mut g, "5e5f"), Err(Illegal::LeavesRoyalInCheck));
    play_all(&mut g, &["1a1b"]);
    assert_eq!(g.outcome(), None);
}

// ------------------------------------------------------------------ the first check wins

/// Check Shogi (`check-wins`): a move that gives check wins at once. The side in check has
/// no move, none may be played, and perft counts nothing below the check (Fairy-Stockfish
/// counts the same: tests/perft/checkshogi.perft).
#[test]
fn check_shogi_first_check_wins() {
    let mut g = game(
        "checkshogi",
        &[],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    );
    play_all(&mut g, &["7g7f", "3c3d"]);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &["8h3c"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Check));
    assert!(g.legal_moves().is_empty(), "White, in check, has lost");
    assert_eq!(try_play(&mut g, "5a4b"), Err(Illegal::CheckGiven));
    let mut pos = g.position().clone();
    assert!(!pos.is_legal(&mv(&pos, "5a4b")), "the independent check agrees");
    // In Shogi the same check is met, and the game goes on.
    let mut shogi = game(
        "shogi",
        &[],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    );
    play_all(&mut shogi, &["7g7f", "3c3d", "8h3c", "4a4b"]);
    assert_eq!(shogi.outcome(), None);
}

/// Check Shogi: a check by a drop wins too, a Pawn's included when it does not mate (here
/// the King could take the Pawn).
#[test]
fn check_shogi_a_drop_that_checks_wins() {
    let mut g = game("checkshogi", &[], "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    play_all(&mut g, &["P*5b"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Check));
}

/// Check Shogi keeps Shogi's drop rules: a Pawn drop that would mate is illegal, though any
/// check would win; mate is judged by the moves the side in check would have were the game
/// not over. Another piece's drop there wins.
#[test]
fn check_shogi_pawn_drop_mate_is_still_illegal() {
    // White King 1a; Black Knight 3c and Gold 2c guard 2a, 2b and 1b.
    let sfen = "8k/9/6NG1/9/9/9/9/9/4K4 b PS 1";
    let mut pos = position("checkshogi", &[], sfen);
    assert_eq!(check(&pos, "P*1b"), Err(Illegal::DropMate));
    assert!(!pos.is_legal(&mv(&pos, "P*1b")), "the independent check agrees");
    let mut g = game("checkshogi", &[], sfen);
    play_all(&mut g, &["S*1b"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Check));
}

/// Check Shogi: a side may still not leave its own King attacked (the move would hand the
/// opponent the check).
#[test]
fn check_shogi_king_may_not_be_left_in_check() {
    let pos = position("checkshogi", &[], "4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(check(&pos, "5h4h"), Err(Illegal::LeavesRoyalInCheck));
    assert_eq!(check(&pos, "5h5g"), Ok(()));
}

// ------------------------------------------------------------------ the try

/// Dobutsu Shogi (`try 1 unless-taken`, the rules' reading): "the first one who moves his Lion
/// into the farthest row will win, unless the Lion is captured by the opponent in the next
/// turn". The Lion on the far rank wins when its side is to move again; taken at once, it
/// loses instead.
#[test]
fn dobutsu_try_wins_unless_the_lion_is_taken_at_once() {
    // Black's Lion on 2b, White's on 3c: the Lion steps onto the far rank, out of reach.
    let mut g = game("dobutsu", &[], "3/1L1/l2/3 b - 1");
    play_all(&mut g, &["2b2a"]);
    assert_eq!(g.outcome(), None, "White has one move to take the Lion");
    assert!(!g.legal_moves().is_empty());
    play_all(&mut g, &["3c3b"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Try));
    assert!(g.legal_moves().is_empty(), "the game is over");
    assert_eq!(try_play(&mut g, "2a1a"), Err(Illegal::TryMade));
    let mut pos = g.position().clone();
    assert!(!pos.is_legal(&mv(&pos, "2a1a")), "the independent check agrees");
    // White's Giraffe on 3a guards 2a: the Lion that steps there is taken, and Black loses.
    let mut g = game("dobutsu", &[], "g2/1L1/l2/3 b - 1");
    play_all(&mut g, &["2b2a", "3a2a"]);
    assert_eq!(g.outcome(), win(Side::White, EndReason::RoyalsCaptured));
}

/// Dobutsu Shogi under `try=unattacked` (Fairy-Stockfish's reading, `try 1 unattacked`): the
/// Lion on the far rank wins at once where no enemy piece attacks it, whoever is to move.
#[test]
fn dobutsu_try_unattacked_wins_at_once() {
    let mut g = game("dobutsu", &["try=unattacked"], "3/1L1/l2/3 b - 1");
    play_all(&mut g, &["2b2a"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Try));
    assert!(g.legal_moves().is_empty(), "White has no move left");
    // Attacked on arrival (White's Giraffe on 3a), the game goes on; once the Giraffe steps
    // away without taking, the Lion stands unattacked and Black wins.
    let mut g = game("dobutsu", &["try=unattacked"], "g2/1L1/l2/3 b - 1");
    play_all(&mut g, &["2b2a"]);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &["3a3b"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Try));
}

/// Campmate (`try N` alone): a royal piece on the far N ranks wins at once, attacked or not.
#[test]
fn try_campmate_wins_on_arrival() {
    let text = "variant \"Campmate\"\nboard 3 x 4\npiece K \"King\" sfen k royal : step all\n\
                piece R \"Rook\" sfen r : slide orthogonal\nsetup black\n  d: . K .\nsetup white\n  a: R . K\n\
                royal-capture-allowed\ntry 1\n";
    let source = koma::compile::Source {
        name: "campmate.var".into(),
        text: text.into(),
    };
    let compiled = koma::compile::compile(source, &koma::compile::MemoryLoader::default(), &[]);
    let rules = compiled.rules.expect("compiles");
    let tables = std::sync::Arc::new(koma::game::MoveTables::new(rules));
    // Black's King on 2b steps to 2a, where White's Rook (3a) and King (1a) attack it: under
    // `royal-capture-allowed` the move is legal, and it has arrived.
    let pos = read_sfen(&tables, "r1k/1K1/3/3 b - 1").expect("a position");
    let mut g = Game::new(pos);
    play_all(&mut g, &["2b2a"]);
    assert_eq!(
        g.outcome(),
        win(Side::Black, EndReason::Try),
        "attacked, it has still arrived"
    );
}

// ------------------------------------------------------------------ anti games

/// Compulsory capture (`must-capture`, Anti-Minishogi): while a side can capture, its other
/// moves are illegal, a drop among them; with no capture on the board, any move goes.
#[test]
fn must_capture_forbids_every_other_move_while_a_capture_is_possible() {
    // Black's Rook on 3d, White's Pawn on 3c in front of it; a Gold in Black's hand.
    let pos = position("antiminishogi", &[], "k4/5/2p2/2R2/4K b G 1");
    assert_eq!(legal(&pos), list(&["3d3c"]));
    assert_eq!(check(&pos, "1e2e"), Err(Illegal::MustCapture));
    assert_eq!(check(&pos, "G*2b"), Err(Illegal::MustCapture));
    assert!(!is_legal(&pos, "1e2e"), "the independent check agrees");
    assert!(!is_legal(&pos, "G*2b"));
    assert!(is_legal(&pos, "3d3c"));
    // Of two captures either may be made (the King on 5a taken with or without promotion).
    let pos = position("antiminishogi", &[], "k4/1p3/R1p2/5/4K b - 1");
    assert_eq!(legal(&pos), list(&["5c3c", "5c5a", "5c5a+"]));
    // Nothing to take: every move goes.
    let pos = position("antiminishogi", &[], "k4/5/5/2R2/4K b G 1");
    assert_eq!(check(&pos, "G*2b"), Ok(()));
    assert_eq!(check(&pos, "1e2e"), Ok(()));
}

/// Extinction (`extinction win`, Anti-Minishogi): a side left with no piece, on the board or
/// in hand, has won; the game is over.
#[test]
fn extinction_win_a_side_without_pieces_has_won() {
    // White's Gold on 4d must take Black's last piece, the King on 3e.
    let mut g = game("antiminishogi", &[], "k4/5/5/1g3/2K2 w - 2");
    play_all(&mut g, &["4d3e"]);
    assert_eq!(g.outcome(), win(Side::Black, EndReason::Extinction));
    assert!(g.legal_moves().is_empty(), "the game is over");
    assert_eq!(try_play(&mut g, "K*3c"), Err(Illegal::Extinct));
    // A piece in hand is a piece: Black, with its King in hand, plays on.
    let g = game("antiminishogi", &[], "k4/5/5/5/5 b K 1");
    assert_eq!(g.outcome(), None);
    assert!(!g.legal_moves().is_empty());
}

/// Extinction of kinds (`extinction loss P`): a side left without a piece of a kind listed,
/// on the board or in hand, promoted or not, has lost; other kinds do not count.
#[test]
fn extinction_of_a_kind_counts_its_promoted_faces_and_the_hand() {
    let text = "variant \"Extinction\"\nboard 3 x 4\npiece K \"King\" sfen k : step all\n\
                piece P \"Pawn\" sfen p promotes +P : step forward\npiece +P \"Tokin\" : step all\n\
                setup\n  c: . P .\n  d: . K .\npromotion zone 1\ndrops\nextinction loss P\n";
    let source = koma::compile::Source {
        name: "extinction.var".into(),
        text: text.into(),
    };
    let compiled = koma::compile::compile(source, &koma::compile::MemoryLoader::default(), &[]);
    assert!(!compiled.report.has_errors(), "{}", compiled.report.render(false));
    let rules = compiled.rules.expect("compiles");
    let tables = std::sync::Arc::new(koma::game::MoveTables::new(rules));
    // Black's Pawn promoted on 2a is still a Pawn: no extinction.
    let mut g = Game::new(read_sfen(&tables, "k+P1/3/3/2K w p 2").expect("a position"));
    assert_eq!(g.outcome(), None);
    // White's King takes it: Black has Kings but no Pawn, and loses; White's Pawn is in hand.
    play_all(&mut g, &["3a2a"]);
    assert_eq!(g.outcome(), win(Side::White, EndReason::Extinction));
    // A Pawn in hand is enough.
    let g = Game::new(read_sfen(&tables, "k2/3/3/2K b Pp 1").expect("a position"));
    assert_eq!(g.outcome(), None);
}
