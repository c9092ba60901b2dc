//! End to end with the real XBoard (Debian `xboard` 4.9, under `xvfb-run`; `.ci/run` installs
//! both when they are missing): koma plays koma, a short game of each shipped variant XBoard
//! can show, the saved PGN names the variant and a result, and every move the engines sent
//! is replayed legally by a fresh `koma xboard`. Maka-Dai-Dai is left out: its 19×19 board is
//! past the board size Debian's XBoard is built for ("Recompile to support this BOARD_RANKS or
//! BOARD_FILES!"; `scripts/xboard-big.sh` builds one that shows it, for the screenshot). Behind `#[ignore]` (it takes a minute or two and needs XBoard):
//! `cargo test --release --test xboard_e2e -- --ignored`.

mod support;

use koma::notation::xboard::View;
use std::path::Path;
use std::process::Command;
use support::protocol::Engine;

/// The shipped variants Debian's XBoard can show: boards of at most 15 ranks and 16 files,
/// holdings included (not Tenjiku, Dai-Dai, Maka-Dai-Dai, Tai nor Taikyoku), nor the games
/// whose pieces turn over on every move or capture (`flip`: Micro, Kyoto), which XBoard's board
/// cannot follow (it keeps the face a piece had, and hands its other face on as the one it
/// knows), so the two engines' positions part.
fn variants() -> Vec<&'static str> {
    support::shipped()
        .into_iter()
        .filter(|v| {
            let rules = support::tables(v, &[]).rules().clone();
            let holdings = if rules.drops { 2 } else { 0 };
            rules.board.ranks <= 15 && rules.board.files + holdings <= 16 && rules.flip.is_none()
        })
        .collect()
}

/// Whether XBoard can check the variant's moves itself (`View::xboard_checks_moves`): where it
/// cannot (Annan's pieces that move as the piece behind them; Cannon Shogi, whose eleven kinds
/// in hand make XBoard add two ranks to its board and so shrink its promotion zone to the
/// last rank, and whose ten kinds that promote are more than XBoard lets promote), XBoard's own
/// legality test is switched off (`-testLegality false`, as a player does in its options) and
/// koma, which answers `lift` with its legal moves, is the referee.
fn xboard_knows_the_moves(variant: &str) -> bool {
    View::new(support::tables(variant, &[])).xboard_checks_moves()
}

/// Plays one game in XBoard; the PGN saved and XBoard's debug log.
fn play(variant: &str, dir: &Path) -> (String, String) {
    let koma = format!("{} xboard", env!("CARGO_BIN_EXE_koma"));
    let legality = if xboard_knows_the_moves(variant) {
        "true"
    } else {
        "false"
    };
    let pgn = dir.join(format!("{variant}.pgn"));
    let log = dir.join(format!("{variant}.debug"));
    // A game that stalls (an engine's move refused) is ended after five minutes.
    let status = Command::new("timeout")
        .args([
            "300", "xvfb-run", "-a", "xboard", "-fcp", &koma, "-scp", &koma, "-variant", variant,
        ])
        .args(["-matchGames", "1", "-searchTime", "0:01", "-adjudicateDrawMoves", "4"])
        .args(["-testLegality", legality])
        .args([
            "-popupExitMessage",
            "false",
            "-popupMoveErrors",
            "false",
            "-saveSettingsOnExit",
            "false",
            "-noGUI",
        ])
        .arg("-saveGameFile")
        .arg(&pgn)
        .args(["-debugMode", "true", "-nameOfDebugFile"])
        .arg(&log)
        .env(
            "PATH",
            format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .output()
        .expect("xvfb-run and xboard are installed (.ci/run installs them)");
    assert!(status.status.success(), "{variant}: {status:?}");
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    (read(&pgn), read(&log))
}

/// The moves the two engines sent, in order (`<first : move e5f6,f6g7`).
fn engine_moves(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| l.split_once(": move ").filter(|(head, _)| head.contains('<')))
        .map(|(_, m)| m.trim().to_string())
        .collect()
}

#[test]
#[ignore = "needs XBoard and xvfb-run; run by .ci/run"]
fn koma_plays_koma_in_xboard_and_the_game_replays_legally() {
    let dir = std::env::temp_dir().join(format!("koma-xboard-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for variant in variants() {
        let (pgn, log) = play(variant, &dir);
        assert!(pgn.contains("[White \"koma "), "{variant}: {pgn}");
        assert!(pgn.contains("[Result \""), "{variant}: {pgn}");
        assert!(
            !log.contains("Illegal move") && !log.contains("Forfeit"),
            "{variant}: XBoard or koma refused a move"
        );
        let moves = engine_moves(&log);
        assert!(moves.len() >= 6, "{variant}: {moves:?}");
        let mut koma = Engine::start(&["xboard"]);
        koma.send("protover 2");
        koma.expect("feature done=1");
        koma.send("new");
        koma.send(&format!("variant {variant}"));
        koma.send("force");
        for m in &moves {
            koma.send(&format!("usermove {m}"));
        }
        koma.send("ping 1");
        let (said, _) = koma.expect("pong 1");
        assert!(
            !said.iter().any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
            "{variant}: {said:?}"
        );
    }
    std::fs::remove_dir_all(&dir).expect("the temporary folder is removed");
}
