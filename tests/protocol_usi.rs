//! `koma usi`, spoken to as a USI GUI does: every command, the search's reports, stop during
//! an infinite search, bad input answered with `info string` while the game stays.

mod support;

use koma::game::{Game, Position};
use koma::notation::read_usi;
use std::time::{Duration, Instant};
use support::protocol::Engine;
use support::tables;

/// White's King on 5a, a Black Pawn on 5c, a Gold in Black's hand: G*5b mates.
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// A Black Lion on 3g, White Pawns on 3h and 2i: the Lion can take both.
const LION_DOUBLE: &str = "k11/12/12/12/12/12/9N2/9p2/10p1/12/12/K11 b - 1";

/// Whether `bestmove MOVE` names a legal move after `moves` from the start of `variant`.
fn legal_after(variant: &str, moves: &[&str], bestmove: &str) -> bool {
    let mut game = Game::new(Position::start(tables(variant, &[])));
    for m in moves {
        let m = read_usi(game.position(), m).expect("a legal move");
        game.play(m).expect("legal");
    }
    let word = bestmove.split_whitespace().nth(1).expect("a move");
    read_usi(game.position(), word).is_ok()
}

fn started(variant: &str) -> Engine {
    let mut koma = Engine::start(&["usi", variant]);
    koma.send("usi");
    koma.expect("usiok");
    koma.send("isready");
    koma.expect("readyok");
    koma
}

#[test]
fn usi_names_koma_and_lists_the_variants_and_the_variants_options() {
    let mut koma = Engine::start(&["usi"]);
    koma.send("usi");
    let (lines, _) = koma.expect("usiok");
    assert!(lines.iter().any(|l| l.starts_with("id name koma ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")), "{lines:?}");
    assert!(lines.contains(
        &"option name USI_Variant type combo default shogi var shogi var yari var tori var chu var dai var maka-dai-dai var minishogi var judkins var sho var micro var kyoto var checkshogi var annan var wa var whale var heian var heian-dai var dai-dai var tai var taikyoku var tenjiku var gorogoro var gorogoroplus var euroshogi var okisaki var dobutsu var antiminishogi var cannon"
            .to_string()
    ));
    assert!(lines.contains(&"option name VariantFile type string default <empty>".to_string()));
    koma.send("setoption name USI_Variant value chu");
    koma.send("usi");
    let (lines, _) = koma.expect("usiok");
    assert!(
        lines.contains(&"option name promotion type combo default sv var sv var renmei".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name USI_Variant type combo default chu "))
    );
    assert!(koma.quit("quit").success());
}

#[test]
fn isready_is_answered_with_readyok() {
    let mut koma = Engine::start(&["usi"]);
    koma.send("isready");
    let (before, _) = koma.expect("readyok");
    assert!(before.is_empty(), "{before:?}");
}

#[test]
fn go_depth_reports_each_iteration_then_a_legal_bestmove() {
    let mut koma = started("shogi");
    koma.send("usinewgame");
    koma.send("position startpos moves 7g7f 3c3d");
    koma.send("go depth 3");
    let (info, best) = koma.expect("bestmove");
    let depths: Vec<&str> = info.iter().filter_map(|l| l.split_whitespace().nth(2)).collect();
    assert_eq!(depths, ["1", "2", "3"], "{info:?}");
    for line in &info {
        let words: Vec<&str> = line.split_whitespace().collect();
        for key in ["info", "depth", "score", "nodes", "nps", "time", "pv"] {
            assert!(words.contains(&key), "`{key}` in {line}");
        }
        assert!(line.contains(" score cp "), "{line}");
    }
    assert!(legal_after("shogi", &["7g7f", "3c3d"], &best), "{best}");
}

#[test]
fn a_mate_is_reported_as_score_mate_and_played() {
    let mut koma = started("shogi");
    koma.send(&format!("position sfen {MATE_IN_ONE}"));
    koma.send("go depth 2");
    let (info, best) = koma.expect("bestmove");
    assert!(info.iter().any(|l| l.contains(" score mate 1 ")), "{info:?}");
    assert_eq!(best, "bestmove G*5b");
}

#[test]
fn stop_ends_an_infinite_search_at_once_and_isready_is_answered_during_it() {
    let mut koma = started("chu");
    koma.send("position startpos");
    koma.send("go infinite");
    koma.expect("info depth 1 ");
    let asked = Instant::now();
    koma.send("isready");
    koma.expect("readyok");
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "readyok after {:?}",
        asked.elapsed()
    );
    // An infinite search does not answer before it is stopped.
    assert!(
        !koma
            .drain(Duration::from_millis(300))
            .iter()
            .any(|l| l.starts_with("bestmove"))
    );
    let asked = Instant::now();
    koma.send("stop");
    let (_, best) = koma.expect("bestmove");
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "bestmove after {:?}",
        asked.elapsed()
    );
    assert!(legal_after("chu", &[], &best), "{best}");
}

#[test]
fn ponder_waits_for_ponderhit_then_answers_within_the_time() {
    let mut koma = started("shogi");
    koma.send("position startpos moves 7g7f");
    koma.send("go ponder btime 0 wtime 0 byoyomi 500");
    assert!(
        !koma
            .drain(Duration::from_millis(300))
            .iter()
            .any(|l| l.starts_with("bestmove"))
    );
    let asked = Instant::now();
    koma.send("ponderhit");
    let (_, best) = koma.expect("bestmove");
    assert!(asked.elapsed() < Duration::from_secs(3), "{:?}", asked.elapsed());
    assert!(legal_after("shogi", &["7g7f"], &best), "{best}");
}

/// REAL-TIME CHECK (generous margin): byoyomi of half a second is kept.
#[test]
fn go_with_clock_times_moves_within_the_byoyomi() {
    let mut koma = started("chu");
    koma.send("position startpos");
    let asked = Instant::now();
    koma.send("go btime 0 wtime 0 byoyomi 500");
    let (_, best) = koma.expect("bestmove");
    assert!(asked.elapsed() < Duration::from_millis(1500), "{:?}", asked.elapsed());
    assert!(legal_after("chu", &[], &best));
    koma.send("go btime 60000 wtime 60000 binc 100 winc 100");
    koma.expect("bestmove");
    koma.send("go movetime 200");
    koma.expect("bestmove");
    koma.send("go nodes 500");
    let (info, _) = koma.expect("bestmove");
    for line in info {
        let nodes: u64 = line
            .split_whitespace()
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes <= 500, "{line}");
    }
}

#[test]
fn lion_moves_are_written_and_read_with_the_middle_square() {
    let mut koma = started("chu");
    koma.send(&format!("position sfen {LION_DOUBLE}"));
    koma.send("go depth 2");
    assert_eq!(koma.expect("bestmove").1.split_whitespace().nth(1), Some("3g3h2i"));
    // Taking both Pawns leaves White a bare King: the game is over, and White resigns.
    koma.send(&format!("position sfen {LION_DOUBLE} moves 3g3h2i"));
    koma.send("go depth 1");
    let (said, best) = koma.expect("bestmove");
    assert_eq!(said, ["info string the game is over: bare king"]);
    assert_eq!(best, "bestmove resign");
}

#[test]
fn the_variants_options_are_set_with_setoption() {
    let mut koma = started("chu");
    koma.send("setoption name promotion value renmei");
    koma.send("setoption name royal-capture value allowed");
    koma.send("isready");
    let (said, _) = koma.expect("readyok");
    assert!(said.is_empty(), "{said:?}");
    koma.send("setoption name promotion value sometimes");
    let (said, _) = koma.expect("info string");
    assert!(said.is_empty());
    koma.send("isready");
    koma.expect("readyok");
    assert!(
        koma.transcript
            .iter()
            .any(|l| l.contains("`sometimes` is not a value of promotion (its values: sv, renmei)"))
    );
}

#[test]
fn a_variant_file_is_loaded_with_variantfile() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/tori.var");
    let mut koma = started("shogi");
    koma.send(&format!("setoption name VariantFile value {path}"));
    koma.send("position startpos");
    koma.send("go depth 1");
    let (_, best) = koma.expect("bestmove");
    assert!(legal_after("tori", &[], &best), "{best}");
}

#[test]
fn bad_input_is_answered_with_info_string_and_the_game_stays() {
    let mut koma = started("shogi");
    koma.send(&format!("position sfen {MATE_IN_ONE}"));
    for (bad, said) in [
        ("frobnicate", "info string unknown command `frobnicate`"),
        ("position sfen 9/9/9 b - 1", "info string position: bad SFEN"),
        (
            "position startpos moves 7g7f 7g7f",
            "info string position: move 2: 7g7f is not a legal move here",
        ),
        (
            "position startpos moves 7g",
            "info string position: move 1: `7g` is not a move",
        ),
        ("position", "info string position: expected"),
        ("go depth", "info string go: `depth` needs a number"),
        ("go sideways", "info string go: unknown `sideways`"),
        (
            "setoption name USI_Variant value nonesuch",
            "info string USI_Variant: `nonesuch` is not a shipped variant",
        ),
        ("setoption name VariantFile value /nonexistent/x.var", "info string "),
        (
            "setoption name promotion value sv",
            "info string `promotion` is not an option of Shogi",
        ),
        ("setoption value 3", "info string setoption: expected"),
        ("ponderhit", "info string ponderhit: koma is not pondering"),
    ] {
        koma.send(bad);
        let (before, line) = koma.expect("info string");
        assert!(before.is_empty() && line.starts_with(said), "{bad}: {line}");
    }
    // The position set before the bad input is the one searched.
    koma.send("go depth 2");
    assert_eq!(koma.expect("bestmove").1, "bestmove G*5b");
}

#[test]
fn a_position_without_a_move_resigns() {
    // Stalemate loses in Shogi: White to move, boxed in, not in check.
    let mut koma = started("shogi");
    koma.send("position sfen 8k/6G2/7+R1/9/9/9/9/9/K8 w - 1");
    koma.send("go depth 1");
    assert_eq!(koma.expect("bestmove").1, "bestmove resign");
}

#[test]
fn usinewgame_gameover_and_quit() {
    let mut koma = started("shogi");
    koma.send("usinewgame");
    koma.send("position startpos");
    koma.send("go infinite");
    koma.expect("info depth 1 ");
    koma.send("gameover lose");
    koma.send("isready");
    let (said, _) = koma.expect("readyok");
    assert!(!said.iter().any(|l| l.starts_with("bestmove")), "{said:?}");
    assert!(koma.quit("quit").success());
}

/// `Threads` (lazy SMP) is an option, 1 by default; with 2 the search still answers a legal
/// bestmove, and a bad value is answered with `info string`.
#[test]
fn threads_is_an_option_and_two_threads_play_a_legal_move() {
    let mut koma = Engine::start(&["usi", "chu"]);
    koma.send("usi");
    let (lines, _) = koma.expect("usiok");
    assert!(
        lines.contains(&"option name Threads type spin default 1 min 1 max 64".to_string()),
        "{lines:?}"
    );
    koma.send("setoption name Threads value 0");
    let (_, said) = koma.expect("info string");
    assert!(said.contains("Threads"), "{said}");
    koma.send("setoption name Threads value 2");
    koma.send("isready");
    assert!(koma.expect("readyok").0.is_empty());
    koma.send("position startpos");
    koma.send("go depth 3");
    let (_, best) = koma.expect("bestmove");
    assert!(legal_after("chu", &[], &best), "{best}");
}

/// Under Chu's `repetition=forbidden` (HaChu's rule), a position whose moves repeat an earlier
/// position is refused with the rule's name, and the position stays as it was.
#[test]
fn a_move_repeating_a_position_is_refused_under_repetition_forbidden() {
    let mut koma = started("chu");
    koma.send("setoption name repetition value forbidden");
    koma.send("position startpos moves 7j6h 6c7e 6h7j 7e6c");
    let (_, said) = koma.expect("info string");
    assert_eq!(
        said,
        "info string position: move 4: not legal here: it would repeat the position, which the repetition rule \
         forbids; the position stays as it was"
    );
    koma.send("isready");
    assert!(koma.expect("readyok").0.is_empty());
}

/// A clock past a year (`go btime 18446744073709551615`) is refused with `info string`, not
/// searched on; and koma reads its commands on.
#[test]
fn a_clock_past_a_year_is_refused_and_koma_reads_on() {
    let mut koma = started("shogi");
    for bad in [
        "go btime 18446744073709551615 wtime 1000",
        "go byoyomi 31536000001",
        "go movetime 99999999999999",
    ] {
        koma.send(bad);
        let (before, said) = koma.expect("info string");
        assert!(before.is_empty(), "{before:?}");
        assert!(said.contains("more than a year; not searching"), "{bad}: {said}");
    }
    koma.send("go movetime 31536000000");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    assert!(koma.quit("quit").success(), "quit ends a search on the longest clock");
    assert!(asked.elapsed() < Duration::from_secs(5), "{:?}", asked.elapsed());
}

/// A `USI_Hash` the memory cannot hold (here under a 1.5 GB address-space limit) is refused
/// with `info string`; koma aborted on the allocation.
#[cfg(unix)]
#[test]
fn a_hash_size_the_memory_cannot_hold_is_refused_and_koma_goes_on() {
    let mut shell = std::process::Command::new("sh");
    let script = format!("ulimit -v 1500000 && exec '{}' usi", env!("CARGO_BIN_EXE_koma"));
    shell.args(["-c", &script]);
    let mut koma = support::protocol::Engine::spawn(shell);
    koma.send("setoption name USI_Hash value 4096");
    koma.send("isready");
    let (before, _) = koma.expect("readyok");
    assert_eq!(
        before,
        ["info string USI_Hash: 4096 MB cannot be had (not enough memory); the table stays as it was"]
    );
    koma.send("go depth 2");
    koma.expect("bestmove");
    assert!(koma.quit("quit").success());
}
