//! `koma xboard`, spoken to as XBoard does (CECP, protocol version 2): features, variants
//! defined with `setup` and `piece`, moves in coordinates (Lion moves leg by leg), the clock
//! commands, `?` during a search, `lift` answered with `highlight`, and bad input answered
//! with `Error (…)` or `Illegal move (…)` while the game stays.

mod support;

use koma::game::{Game, Position};
use koma::notation::read_usi;
use std::time::{Duration, Instant};
use support::protocol::Engine;
use support::tables;

/// White's King on 5a, a Black Pawn on 5c, a Gold in Black's hand: G*5b mates. (XBoard's
/// FEN: its white is koma's Black.)
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4[G] w 0 1";
/// A Black Lion on 3g, White Pawns on 3h and 2i: the Lion can take both.
const LION_DOUBLE: &str = "k11/12/12/12/12/12/9N2/9p2/10p1/12/12/K11 w 0 1";

/// koma's square (`7g`) for XBoard's (`c3`) on a board of `files` × `ranks`.
fn koma_square(xboard: &str, files: u8, ranks: u8) -> String {
    let file = files - (xboard.as_bytes()[0] - b'a');
    let rank: u8 = xboard[1..].parse().unwrap();
    koma::rules::Square::new(file, ranks + 1 - rank).to_string()
}

/// Whether XBoard's `move MOVE` (one leg, or a drop) is legal after `moves` (USI).
fn legal_after(variant: &str, moves: &[&str], reply: &str, files: u8, ranks: u8) -> bool {
    let mut game = Game::new(Position::start(tables(variant, &[])));
    for m in moves {
        let m = read_usi(game.position(), m).expect("legal");
        game.play(m).expect("legal");
    }
    let text = reply.strip_prefix("move ").expect("a move");
    let (body, promote) = match text.strip_suffix('+') {
        Some(body) => (body, "+"),
        None => (text, ""),
    };
    let usi = match body.split_once('@') {
        Some((piece, to)) => format!("{piece}*{}", koma_square(to, files, ranks)),
        None => {
            let split = body[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1;
            format!(
                "{}{}{promote}",
                koma_square(&body[..split], files, ranks),
                koma_square(&body[split..], files, ranks)
            )
        }
    };
    read_usi(game.position(), &usi).is_ok()
}

fn started(variant: &str) -> Engine {
    let mut koma = Engine::start(&["xboard"]);
    koma.send("xboard");
    koma.send("protover 2");
    koma.expect("feature done=1");
    koma.send("new");
    koma.send(&format!("variant {variant}"));
    koma
}

#[test]
fn protover_announces_the_features_and_the_shipped_variants() {
    let mut koma = Engine::start(&["xboard"]);
    koma.send("xboard");
    koma.send("protover 2");
    let (lines, _) = koma.expect("feature done=1");
    let features = lines.join(" ");
    for feature in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "sigint=0",
        "highlight=1",
        "myname=\"koma ",
    ] {
        assert!(features.contains(feature), "{feature} in {features}");
    }
    assert!(
        features.contains(
            "variants=\"shogi,yari,tori,chu,dai,maka-dai-dai,minishogi,judkins,sho,checkshogi,annan,wa,whale,heian,heian-dai,dai-dai,tenjiku,gorogoro,gorogoroplus,euroshogi,okisaki,dobutsu,antiminishogi,cannon\""
        ),
        "{features}"
    );
}

/// Micro and Kyoto turn their pieces over, which XBoard's board cannot show; Tai and Taikyoku
/// are larger than its largest board. They are not offered, and chosen anyway they are
/// refused with a message for the user.
#[test]
fn a_variant_xboard_cannot_play_is_not_offered_and_is_refused_with_a_message() {
    for (variant, why) in [
        ("kyoto", "turn over"),
        ("micro", "turn over"),
        ("tai", "25 x 25 board"),
        ("taikyoku", "36 x 36 board"),
    ] {
        let mut koma = started(variant);
        koma.send("ping 1");
        let (lines, _) = koma.expect("pong 1");
        assert!(
            lines[0].starts_with(&format!("tellusererror koma cannot play {variant} in XBoard: "))
                && lines[0].contains(why),
            "{lines:?}"
        );
        assert_eq!(
            lines[1],
            format!("Error (XBoard cannot play {variant}): variant {variant}")
        );
    }
}

#[test]
fn a_variant_xboard_does_not_know_is_defined_with_setup_and_one_piece_command_per_piece() {
    let mut koma = started("tori");
    koma.send("ping 1");
    let (lines, _) = koma.expect("pong 1");
    assert_eq!(
        lines[0],
        "setup (S.FC.PLR^F^SKs.fc.plr^f^sk) 7x7+6_shogi rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR w 0 1"
    );
    let pieces: Vec<&String> = lines.iter().filter(|l| l.starts_with("piece ")).collect();
    assert_eq!(pieces.len(), tables("tori", &[]).rules().pieces.len(), "{lines:?}");
    // The Swallow steps forward; the Falcon steps any way but straight back.
    assert!(lines.contains(&"piece S& fW".to_string()), "{lines:?}");
    // Shogi and Chu XBoard plays itself.
    koma.send("variant chu");
    koma.send("ping 2");
    assert!(koma.expect("pong 2").0.is_empty());
}

/// The upper half of the piece table in a `setup` command.
/// XBoard's own start has empty holdings: a variant's starting hand goes in the setup FEN,
/// the first side's pieces (XBoard's white, upper case) first.
#[test]
fn a_starting_hand_is_sent_to_xboard_in_the_setup_holdings() {
    let mut koma = started("gorogoroplus");
    koma.send("ping 1");
    let (lines, _) = koma.expect("pong 1");
    let setup = lines.iter().find(|l| l.starts_with("setup (")).expect("a setup line");
    let fen = setup.rsplit_once(") ").unwrap().1;
    let holdings = fen
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|h| h.0);
    let mut held: Vec<char> = holdings.expect("holdings in brackets").chars().collect();
    held.sort_unstable();
    assert_eq!(held, ['L', 'N', 'l', 'n'], "{setup}");
}

fn setup_table(setup: &str) -> String {
    let table = setup
        .strip_prefix("setup (")
        .and_then(|rest| rest.split_once(')'))
        .map(|(table, _)| table)
        .unwrap_or_else(|| panic!("a setup command: {setup}"));
    table[..table.len() / 2].to_string()
}

/// The setup command koma sends for `variant`, and the piece commands after it.
fn definition(variant: &str) -> (String, Vec<String>) {
    let mut koma = started(variant);
    koma.send("ping 1");
    let (lines, _) = koma.expect("pong 1");
    (lines[0].clone(), lines[1..].to_vec())
}

/// The IDs a table lists, position by position (`P`, `L'`, `+D!`, `.` for an empty one).
fn table_ids(table: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for c in table.chars() {
        match c {
            '\'' | '!' => ids.last_mut().expect("an ID before").push(c),
            '^' => ids.push("+".to_string()),
            _ if ids.last().is_some_and(|id| id == "+") => ids.last_mut().unwrap().push(c),
            _ => ids.push(c.to_string()),
        }
    }
    ids
}

/// Maka-Dai-Dai has more kinds than XBoard's 65 besides the King: the `setup` table lists 65
/// places, and no `piece` command names a kind left out (XBoard would read `+X` as the
/// partner it gives `X` and redefine that piece: it forfeited koma's first Bishop-like move).
#[test]
fn piece_commands_name_only_kinds_in_the_setup_table() {
    let (setup, lines) = definition("maka-dai-dai");
    let listed = table_ids(&setup_table(&setup));
    assert_eq!(listed.len(), 66, "65 places and the King: {listed:?}");
    let pieces: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("piece "))
        .map(|l| l.split_once("& ").expect("`piece ID& BETZA`").0)
        .collect();
    assert!(pieces.len() >= 60, "{pieces:?}");
    for id in pieces {
        assert!(
            listed.iter().any(|l| l == id),
            "piece {id} is not in the table {listed:?}"
        );
    }
}

/// XBoard's table is positional, and XBoard gives positions rules of their own: with drops,
/// the first (its Pawn's) no drop on the last rank nor a second on a file, and promotion there
/// compulsory; the second (its Knight's) the same for the last two ranks; the fifth (its
/// Queen's, Shogi's Lance) as the first but for the file. In Judkin's Shogi a Rook there was
/// refused a drop on the last rank: only a kind with those rules goes there, else none (`.`).
/// The 22nd (its Lion's) keeps Chu's Lion-trading rules, so it stays empty (Dai's 22nd kind
/// was there).
#[test]
fn a_kind_goes_only_where_xboards_rules_for_the_place_are_its_own() {
    let table = |variant: &str| setup_table(&definition(variant).0);
    assert!(table("judkins").starts_with("PNRB.SG"), "{}", table("judkins"));
    assert!(table("minishogi").starts_with("P.RB.SG"), "{}", table("minishogi"));
    // Tori's Swallow: two to a file, as XBoard allows on a board of seven ranks.
    assert!(table("tori").starts_with("S.FC.PLR"), "{}", table("tori"));
    let dai = table_ids(&table("dai"));
    assert_eq!(dai.len(), 57, "{dai:?}");
    assert_eq!(dai[21], ".", "{dai:?}");
}

#[test]
fn usermove_is_answered_with_a_legal_move_in_xboard_coordinates() {
    let mut koma = started("shogi");
    koma.send("sd 2");
    koma.send("usermove c3c4");
    let (_, reply) = koma.expect("move ");
    assert!(legal_after("shogi", &["7g7f"], &reply, 9, 9), "{reply}");
}

#[test]
fn ping_is_answered_after_the_move_koma_is_thinking_on() {
    let mut koma = started("shogi");
    koma.send("sd 3");
    koma.send("go");
    koma.send("ping 7");
    let (before, _) = koma.expect("pong 7");
    assert!(before.iter().any(|l| l.starts_with("move ")), "{before:?}");
}

#[test]
fn post_prints_a_thinking_line_per_iteration_and_nopost_none() {
    let mut koma = started("shogi");
    koma.send("post");
    koma.send("sd 3");
    koma.send("go");
    let (lines, reply) = koma.expect("move ");
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (depth, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], (depth + 1).to_string(), "{line}");
        assert!(words[1..4].iter().all(|w| w.parse::<i64>().is_ok()), "{line}");
    }
    let last: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(format!("move {}", last[4]), reply, "the last line starts with the move");
    koma.send("nopost");
    koma.send("force");
    koma.send("new");
    koma.send("sd 2");
    koma.send("go");
    assert!(koma.expect("move ").0.is_empty());
}

/// REAL-TIME CHECK (generous margins): `st`, `level` with `time`, and `?`.
#[test]
fn the_clock_commands_and_move_now() {
    let mut koma = started("chu");
    koma.send("st 0.3");
    let asked = Instant::now();
    koma.send("go");
    koma.expect("move ");
    assert!(asked.elapsed() < Duration::from_millis(1500), "{:?}", asked.elapsed());
    koma.send("force");
    koma.send("new");
    koma.send("variant chu");
    koma.send("level 40 0:05 0");
    koma.send("time 500");
    koma.send("otim 500");
    let asked = Instant::now();
    koma.send("go");
    koma.expect("move ");
    assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
    koma.send("force");
    koma.send("new");
    koma.send("variant chu");
    koma.send("st 60");
    koma.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    koma.send("?");
    koma.expect("move ");
    assert!(asked.elapsed() < Duration::from_secs(1), "{:?}", asked.elapsed());
}

#[test]
fn force_undo_and_remove_take_moves_back() {
    let mut koma = started("shogi");
    koma.send("force");
    koma.send("usermove c3c4");
    koma.send("usermove g7g6");
    koma.send("remove");
    // Both moves are gone: Black's Pawn move is legal again.
    koma.send("usermove c3c4");
    koma.send("undo");
    koma.send("undo");
    let (_, line) = koma.expect("Error");
    assert_eq!(line, "Error (no move to undo): undo");
    koma.send("sd 1");
    koma.send("go");
    let (before, reply) = koma.expect("move ");
    assert!(before.is_empty(), "{before:?}");
    assert!(legal_after("shogi", &[], &reply, 9, 9), "{reply}");
}

#[test]
fn setboard_sets_the_position_and_a_mate_ends_the_game_with_its_result() {
    let mut koma = started("shogi");
    koma.send(&format!("setboard {MATE_IN_ONE}"));
    koma.send("sd 2");
    koma.send("go");
    assert_eq!(koma.expect("move ").1, "move G@e8");
    assert_eq!(koma.expect("1-0").1, "1-0 {checkmate}");
}

#[test]
fn lion_double_moves_are_written_and_read_leg_by_leg() {
    let mut koma = started("chu");
    koma.send(&format!("setboard {LION_DOUBLE}"));
    koma.send("sd 2");
    koma.send("go");
    assert_eq!(koma.expect("move ").1, "move j6j5,j5k4");
    // Both Pawns gone, White's King is bare.
    assert_eq!(koma.expect("1-0").1, "1-0 {bare king}");
    koma.send("force");
    koma.send(&format!("setboard {LION_DOUBLE}"));
    koma.send("usermove j6j5,j5k4");
    assert_eq!(koma.expect("1-0").1, "1-0 {bare king}");
}

/// `@@@@`, CECP's null move, which HaChu sends when a Lion passes, is the position's pass.
#[test]
fn the_null_move_is_a_pass_where_a_piece_may_pass() {
    let mut koma = started("chu");
    koma.send("force");
    koma.send(&format!("setboard {LION_DOUBLE}"));
    koma.send("usermove @@@@");
    koma.send("ping 1");
    let (before, _) = koma.expect("pong 1");
    assert!(before.iter().all(|l| !l.starts_with("Illegal")), "{before:?}");
    koma.send("undo");
    koma.send("usermove j6j5,j5j6");
    koma.send("ping 2");
    let (before, _) = koma.expect("pong 2");
    assert!(
        before.iter().all(|l| !l.starts_with("Illegal")),
        "the same pass, leg by leg: {before:?}"
    );
    let mut shogi = started("shogi");
    shogi.send("force");
    shogi.send("usermove @@@@");
    assert_eq!(shogi.expect("Illegal").1, "Illegal move (no piece may pass here): @@@@");
}

#[test]
fn lift_is_answered_with_the_legal_destinations() {
    let mut koma = started("shogi");
    koma.send("lift c3");
    assert_eq!(koma.expect("highlight").1, "highlight 9/9/9/9/9/2Y6/9/9/9");
    // A Lion: red where it captures, cyan where it may stop and move on; lifting the piece
    // on a cyan square shows the second legs.
    koma.send("variant chu");
    koma.send(&format!("setboard {LION_DOUBLE}"));
    koma.send("lift j6");
    let (_, line) = koma.expect("highlight");
    let ranks: Vec<&str> = line["highlight ".len()..].split('/').collect();
    // Every square within two of j6 (j6 itself: the pass); the Pawn on j5 cyan, on k4 red.
    assert_eq!(
        ranks[4..9],
        ["7YYYYY", "7YYYYY", "7YYYYY", "7YYCYY", "7YYYRY"],
        "{line}"
    );
    koma.send("lift j5");
    let (_, line) = koma.expect("highlight");
    assert!(line.contains('R'), "{line}");
}

#[test]
fn bad_input_is_answered_and_the_game_stays() {
    let mut koma = started("shogi");
    koma.send("force");
    koma.send("usermove c3c4");
    for (bad, said) in [
        ("frobnicate", "Error (unknown command): frobnicate"),
        ("usermove z9z9", "Illegal move (not a move in coordinates): z9z9"),
        ("usermove c4c5", "Illegal move (not a legal move here): c4c5"),
        ("usermove c3c4,c4c5", "Illegal move (not a legal move here): c3c4,c4c5"),
        ("variant nonesuch", "Error (unknown variant): variant nonesuch"),
        (
            "level 40 five 0",
            "Error (BASE is minutes or minutes:seconds): level 40 five 0",
        ),
        ("sd deep", "Error (not a depth): sd deep"),
        ("lift z0", "Error (not a square of the board): lift z0"),
    ] {
        koma.send(bad);
        let (before, line) = koma.expect_within("", Duration::from_secs(10));
        assert!(before.is_empty());
        assert_eq!(line, said, "{bad}");
    }
    koma.send("setboard 9/9/9 w 0 1");
    assert_eq!(koma.expect("tellusererror").1, "tellusererror Illegal position");
    assert!(
        koma.expect("Error")
            .1
            .starts_with("Error (3 ranks given; the board has 9): setboard")
    );
    // The game is as it was: White to move after 7g7f.
    koma.send("usermove g7g6");
    koma.send("ping 3");
    assert!(koma.expect("pong 3").0.is_empty(), "g7g6 was legal");
}

#[test]
fn result_stops_and_quit_ends_koma() {
    let mut koma = started("shogi");
    koma.send("result 1-0 {White resigns}");
    koma.send("usermove c3c4");
    koma.send("ping 4");
    assert!(koma.expect("pong 4").0.is_empty(), "no reply after a result");
    assert!(koma.quit("quit").success());
}

/// `koma betza`: the XBetza XBoard is sent, one line per piece, from the compiled tables.
#[test]
fn betza_writes_each_pieces_moves_in_xbetza() {
    let run = |variant: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
            .args(["betza", variant])
            .output()
            .expect("koma runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let chu = run("chu");
    let line = |abbrev: &str| {
        let found = chu.lines().find(|l| l.split_whitespace().next() == Some(abbrev));
        found
            .unwrap_or_else(|| panic!("{abbrev} in {chu}"))
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(line("G"), "WfF", "steps");
    assert_eq!(line("L"), "fR", "a slide one way");
    assert_eq!(line("Ky"), "FD", "a jump");
    assert_eq!(line("SM"), "sRvW");
    assert_eq!(line("Ln"), "KNADcaKmabK", "the Lion");
    assert_eq!(line("+DH"), "BsRbRfDfWfcavW", "Lion power forward");
    let maka = run("maka-dai-dai");
    let emperor = maka.lines().find(|l| l.starts_with("E ")).expect("the Emperor");
    assert!(
        emperor.ends_with("(inexact: koma's highlights give the moves)"),
        "{emperor}"
    );
    // Cannon Shogi's cannons: XBetza's hoppers (`p`), xiangqi's cannon `mRcpR`; a hop of
    // limited reach is not written (XBoard learns it from highlights).
    let cannon = run("cannon");
    let hopper = |abbrev: &str| {
        let found = cannon.lines().find(|l| l.split_whitespace().next() == Some(abbrev));
        found.unwrap_or_else(|| panic!("{abbrev} in {cannon}")).to_string()
    };
    assert!(hopper("GC").ends_with(" mRcpR"), "{}", hopper("GC"));
    assert!(hopper("SC").ends_with(" pR"), "{}", hopper("SC"));
    assert!(hopper("CC").ends_with(" mBcpB"), "{}", hopper("CC"));
    assert!(hopper("IC").ends_with(" pB"), "{}", hopper("IC"));
    assert!(
        hopper("+GC").ends_with("(inexact: koma's highlights give the moves)"),
        "{}",
        hopper("+GC")
    );
    let failed = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["betza", "nonesuch"])
        .output()
        .unwrap();
    assert!(!failed.status.success());
}

/// Options given on the command line hold for that variant, also after `new` and `variant`.
#[test]
fn the_command_lines_options_hold_for_its_variant() {
    let mut koma = Engine::start(&["xboard", "chu", "--option", "royal-capture=allowed"]);
    koma.send("protover 2");
    koma.expect("feature done=1");
    koma.send("new");
    koma.send("variant chu");
    // A King may step into check when royal capture is allowed: Black's King on 6l (g1) may
    // go to 6k (g2), attacked by White's Rook on 6a (g12).
    let board = "6r4k/12/12/12/12/p11/11P/12/12/12/12/6K5 w 0 1";
    koma.send(&format!("setboard {board}"));
    koma.send("force");
    koma.send("usermove g1g2");
    koma.send("ping 1");
    let (said, _) = koma.expect("pong 1");
    assert!(said.is_empty(), "{said:?}");
    // Another variant and back: the option still holds.
    koma.send("variant shogi");
    koma.send("variant chu");
    koma.send(&format!("setboard {board}"));
    koma.send("usermove g1g2");
    koma.send("ping 2");
    assert!(koma.expect("pong 2").0.is_empty());
    // Without the option, the move is illegal.
    let mut plain = started("chu");
    plain.send(&format!("setboard {board}"));
    plain.send("force");
    plain.send("usermove g1g2");
    assert_eq!(
        plain.expect("Illegal").1,
        "Illegal move (it would leave your royal piece in check): g1g2"
    );
}

/// Under Chu's `repetition=forbidden` (HaChu's rule), a move that repeats an earlier position
/// is refused with the rule's name, and the game goes on.
#[test]
fn a_move_repeating_a_position_is_illegal_under_repetition_forbidden() {
    let mut koma = Engine::start(&["xboard", "chu", "--option", "repetition=forbidden"]);
    koma.send("protover 2");
    koma.expect("feature done=1");
    koma.send("new");
    koma.send("variant chu");
    koma.send("force");
    // Black's Lion out and back, White's Lion out: White's Lion back would repeat the start.
    for m in ["f3g5", "g10f8", "g5f3"] {
        koma.send(&format!("usermove {m}"));
    }
    koma.send("usermove f8g10");
    assert_eq!(
        koma.expect("Illegal").1,
        "Illegal move (it would repeat the position, which the repetition rule forbids): f8g10"
    );
    koma.send("usermove f8e6");
    koma.send("ping 1");
    assert!(koma.expect("pong 1").0.is_empty());
}

/// `cores` (announced with `smp=1`) sets the threads of the search: with 2, koma still
/// answers a legal move; a bad value is an `Error`.
#[test]
fn cores_sets_the_search_threads() {
    let mut koma = Engine::start(&["xboard", "shogi"]);
    koma.send("protover 2");
    let (features, _) = koma.expect("feature done=1");
    assert!(features.iter().any(|l| l.contains(" smp=1 ")), "{features:?}");
    koma.send("cores none");
    assert_eq!(koma.expect("Error").1, "Error (not a number of cores): cores none");
    koma.send("cores 2");
    koma.send("new");
    koma.send("sd 3");
    koma.send("usermove c3c4");
    let (_, reply) = koma.expect("move ");
    assert!(legal_after("shogi", &["7g7f"], &reply, 9, 9), "{reply}");
}

/// Clock values past a year, or not numbers at all (`st 1e300`, `level 40 0 1e300`, `time
/// 18446744073709551615`), are refused with `Error`; koma panicked on them (a `Duration` from
/// a float, centiseconds times ten) or wrapped. koma reads its commands on, and `quit` ends a
/// search on the longest clock.
#[test]
fn a_clock_past_a_year_is_refused_and_koma_reads_on() {
    let mut koma = started("shogi");
    for (bad, said) in [
        ("st 1e300", "Error (not a number of seconds up to a year): st 1e300"),
        ("st 0", "Error (not a number of seconds up to a year): st 0"),
        (
            "level 40 0 1e300",
            "Error (INCREMENT is not a number of seconds up to a year): level 40 0 1e300",
        ),
        (
            "time 18446744073709551615",
            "Error (not centiseconds up to a year): time 18446744073709551615",
        ),
        (
            "time 3153600001",
            "Error (not centiseconds up to a year): time 3153600001",
        ),
    ] {
        koma.send(bad);
        let (before, line) = koma.expect_within("", Duration::from_secs(10));
        assert!(before.is_empty());
        assert_eq!(line, said, "{bad}");
    }
    koma.send("ping 1");
    assert!(koma.expect("pong 1").0.is_empty());
    koma.send("time 3153600000");
    koma.send("go");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    assert!(koma.quit("quit").success(), "quit ends a search on the longest clock");
    assert!(asked.elapsed() < Duration::from_secs(5), "{:?}", asked.elapsed());
}

/// The names XBoard 4.9 reads a piece image directory by, position by position of its table
/// of kinds, King last (`pngPieceNames` in XBoard's draw.c: `White<name>.svg`, `Black<name>.svg`).
const XBOARD_IMAGE_NAMES: [&str; 66] = [
    "Pawn",
    "Knight",
    "Bishop",
    "Rook",
    "Queen",
    "Advisor",
    "Elephant",
    "Archbishop",
    "Marshall",
    "Gold",
    "Commoner",
    "Canon",
    "Nightrider",
    "CrownedBishop",
    "CrownedRook",
    "Crown",
    "Chancellor",
    "Hawk",
    "Lance",
    "Cobra",
    "Unicorn",
    "Lion",
    "Sword",
    "Zebra",
    "Camel",
    "Tower",
    "Wolf",
    "Hat",
    "Duck",
    "Lance",
    "Dragon",
    "Gnu",
    "Cub",
    "LShield",
    "Pegasus",
    "Wizard",
    "Copper",
    "Iron",
    "Viking",
    "Flag",
    "Axe",
    "Dolphin",
    "Leopard",
    "Claw",
    "Left",
    "Butterfly",
    "PromoBishop",
    "PromoRook",
    "HCrown",
    "RShield",
    "Prince",
    "Phoenix",
    "Kylin",
    "Drunk",
    "Right",
    "GoldPawn",
    "GoldKnight",
    "PromoHorse",
    "PromoDragon",
    "GoldLance",
    "GoldSilver",
    "HSword",
    "PromoSword",
    "PromoHSword",
    "Princess",
    "King",
];

/// The image XBoard 4.9 draws position `at` from: under a Shogi parent on other than 7
/// ranks, some positions take another's (`SelectPieces` in draw.c).
fn xboard_image(at: usize, shogi_parent: bool, ranks: u8) -> &'static str {
    let shared = [(11, 55), (12, 56), (15, 59), (16, 60), (4, 18), (17, 50)];
    let from = shared
        .iter()
        .find(|&&(p, _)| p == at && shogi_parent && ranks != 7)
        .map_or(at, |&(_, from)| from);
    XBOARD_IMAGE_NAMES[from]
}

/// `koma xboard-pieces` writes, for each kind in the `setup` table koma sends, the two files
/// XBoard looks up for the kind's place (the King's last), and nothing else; no two kinds are
/// drawn from the same file (XBoard's places 18 and 29 share a name, and under a Shogi parent
/// six places take another's image: only one of each is given a kind).
#[test]
fn xboard_pieces_are_written_under_the_names_xboard_reads_for_the_setup_table() {
    for (variant, ranks) in [("tori", 7), ("judkins", 6), ("tenjiku", 16), ("dai", 15)] {
        let (setup, _) = definition(variant);
        let table = table_ids(&setup_table(&setup));
        let shogi_parent = setup.contains("_shogi ");
        let king = table.len() - 1;
        let mut expected: Vec<String> = Vec::new();
        for (at, id) in table.iter().enumerate().filter(|(_, id)| *id != ".") {
            let name = if at == king {
                "King"
            } else {
                xboard_image(at, shogi_parent, ranks)
            };
            for colour in ["White", "Black"] {
                let file = format!("{colour}{name}.svg");
                assert!(
                    !expected.contains(&file),
                    "{variant}: {id} would be drawn from {file}, as another kind"
                );
                expected.push(file);
            }
        }
        let dir = std::env::temp_dir().join(format!("koma-xboard-pieces-{variant}-{}", std::process::id()));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
            .args(["xboard-pieces", variant])
            .arg(&dir)
            .output()
            .expect("koma runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.contains(&format!("-variant {variant} -pieceImageDirectory {}", dir.display())),
            "{said}"
        );
        let mut written: Vec<String> = std::fs::read_dir(&dir)
            .expect("the directory is made")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        let king = std::fs::read_to_string(dir.join("WhiteKing.svg")).expect("the King's image");
        std::fs::remove_dir_all(&dir).expect("the directory is removed");
        written.sort();
        expected.sort();
        assert_eq!(written, expected, "{variant}");
        if variant == "tori" {
            assert!(king.contains(">鵬<"), "Tori's King is the Phoenix, 鵬: {king}");
        }
    }
}

/// XBoard draws Shogi and Chu itself, and cannot play Kyoto: no piece set, and a reason.
#[test]
fn xboard_pieces_are_refused_with_a_reason_for_a_variant_xboard_draws_or_cannot_play() {
    for (variant, reason) in [("shogi", "its own pieces"), ("kyoto", "XBoard cannot play")] {
        let dir = std::env::temp_dir().join(format!("koma-xboard-refused-{variant}-{}", std::process::id()));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
            .args(["xboard-pieces", variant])
            .arg(&dir)
            .output()
            .expect("koma runs");
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains(reason), "{out:?}");
        assert!(!dir.exists(), "nothing written for {variant}");
    }
}
