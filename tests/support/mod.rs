//! What the integration tests share: snapshot settings, shipped variants compiled with options,
//! squares, runs of the `koma` binary, temporary folders; and for the rule tests
//! (`tests/rules_*.rs`) positions from SFEN, moves written as the rule texts' squares (even
//! moves no piece can make, to ask why they are illegal), legal move lists, and games played
//! move by move; `protocol`, speaking USI or CECP to the binary; and `server`, `koma serve` as a
//! process. Each test file takes it
//! with `mod support;`.

#![allow(dead_code)]

pub mod protocol;
pub mod server;

use koma::compile::{Choice, compile_named};
use koma::game::{Game, Illegal, Move, MoveTables, Outcome, Position, Sq};
use koma::notation::{read_sfen, write_usi};
use koma::rules::{PieceId, Rules, Side, Square};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The names of the shipped variants, in koma's order (`koma::compile::source::SHIPPED`).
pub fn shipped() -> Vec<&'static str> {
    koma::compile::source::SHIPPED.iter().map(|(name, _)| *name).collect()
}

/// insta's settings for koma's snapshots: all in `snapshots/`, named without the test's module.
pub fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s
}

/// A variant (shipped, or a path) compiled with these `NAME=VALUE` options; it must check
/// clean, without an error or a warning (the report is shown if not).
pub fn compile_clean(name: &str, options: &[&str]) -> Rules {
    let choices: Vec<Choice> = options.iter().map(|o| o.parse().expect("NAME=VALUE")).collect();
    let compiled = compile_named(name, &choices);
    assert!(
        compiled.report.diagnostics.is_empty(),
        "{name} {options:?} does not check clean:\n{}",
        compiled.report.render(false)
    );
    compiled.rules.expect("tables when there is no error")
}

/// The tables of a variant compiled with these `NAME=VALUE` options, as [`compile_clean`].
pub fn tables(name: &str, options: &[&str]) -> Arc<MoveTables> {
    Arc::new(MoveTables::new(compile_clean(name, options)))
}

/// The kind of a variant's pieces with this abbreviation.
pub fn id(rules: &Rules, abbrev: &str) -> PieceId {
    rules
        .piece_by_abbrev(abbrev)
        .unwrap_or_else(|| panic!("{} has no piece `{abbrev}`", rules.name))
}

/// A position of `variant` (with options) from SFEN.
pub fn position(name: &str, options: &[&str], sfen: &str) -> Position {
    let tables = tables(name, options);
    read_sfen(&tables, sfen).unwrap_or_else(|e| panic!("{name}: `{sfen}`: {e}"))
}

/// A square of the rule texts' notation (`7g`, `12a`).
pub fn sq(text: &str) -> Square {
    Square::parse(text).unwrap_or_else(|| panic!("`{text}` is not a square"))
}

fn index(pos: &Position, text: &str) -> Sq {
    pos.geometry().index(sq(text))
}

/// Splits `7g6f7g` into square names.
fn square_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_letters = false;
    for c in text.chars() {
        if c.is_ascii_digit() && in_letters {
            out.push(std::mem::take(&mut current));
            in_letters = false;
        }
        in_letters |= c.is_ascii_lowercase();
        current.push(c);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The kind a drop token names: an SFEN letter (`P`) or an abbreviation in brackets (`[Sw]`).
fn kind(pos: &Position, token: &str) -> PieceId {
    let rules = &pos.rules();
    let found = match token.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(abbrev) => rules.piece_by_abbrev(abbrev),
        None => rules
            .pieces
            .iter()
            .position(|p| p.sfen.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(token)))
            .map(|i| PieceId(i as u16)),
    };
    found.unwrap_or_else(|| panic!("no piece `{token}`"))
}

/// A move as written, whether or not it is legal: `7g7f`, `2b8h+`, `P*5e`, `[Sw]*4d`; for
/// Lion moves the squares captured on before the destination, in order (`7g6f7g` is igui on
/// 6f, `3g3h2i` a double capture); a pass is the start square twice (`7g7g`).
pub fn mv(pos: &Position, text: &str) -> Move {
    if let Some((piece, to)) = text.split_once('*') {
        return Move::drop(kind(pos, piece), index(pos, to));
    }
    let (body, promote) = match text.strip_suffix('+') {
        Some(body) => (body, true),
        None => (text, false),
    };
    let names = square_names(body);
    assert!((2..=4).contains(&names.len()), "`{text}` is not a move");
    let squares: Vec<Sq> = names.iter().map(|n| index(pos, n)).collect();
    let mut via = [None; 2];
    for (i, &s) in squares[1..squares.len() - 1].iter().enumerate() {
        via[i] = Some(s);
    }
    Move {
        from: Some(squares[0]),
        to: squares[squares.len() - 1],
        via,
        drop: None,
        promote,
        sweep: false,
    }
}

/// Whether a move is legal, or the rule it breaks.
pub fn check(pos: &Position, text: &str) -> Result<(), Illegal> {
    let m = mv(pos, text);
    pos.check_legal(&m)
}

/// Every legal move, written as `write_usi` writes it, sorted.
pub fn legal(pos: &Position) -> Vec<String> {
    let moves = pos.legal_moves();
    let mut out: Vec<String> = moves.iter().map(|m| write_usi(pos, m)).collect();
    out.sort();
    out
}

/// The legal moves of the piece on `from`, sorted.
pub fn legal_from(pos: &Position, from: &str) -> Vec<String> {
    let start = index(pos, from);
    let moves = pos.legal_moves();
    let mut out: Vec<String> = moves
        .iter()
        .filter(|m| m.from == Some(start))
        .map(|m| write_usi(pos, m))
        .collect();
    out.sort();
    out
}

/// The legal drops, sorted.
pub fn legal_drops(pos: &Position) -> Vec<String> {
    let moves = pos.legal_moves();
    let mut out: Vec<String> = moves
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| write_usi(pos, m))
        .collect();
    out.sort();
    out
}

/// Whether `text` is among the legal moves (and `check_legal` agrees).
pub fn is_legal(pos: &Position, text: &str) -> bool {
    let m = mv(pos, text);
    let listed = pos.legal_moves().contains(&m);
    assert_eq!(
        listed,
        pos.check_legal(&m).is_ok(),
        "legal_moves and check_legal disagree on {text}"
    );
    listed
}

/// A sorted list of owned strings, for comparing with [`legal`].
pub fn list(moves: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

/// Plays a move (which must be legal).
pub fn play(pos: &mut Position, text: &str) {
    let m = mv(pos, text);
    assert_eq!(pos.check_legal(&m), Ok(()), "{text} should be legal");
    pos.make(&m);
}

/// Plays moves in a game, each of which must be legal.
pub fn play_all(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let m = mv(game.position(), text);
        assert_eq!(game.play(m), Ok(()), "{text} should be legal");
    }
}

/// Plays one move in a game; the result of `Game::play`.
pub fn try_play(game: &mut Game, text: &str) -> Result<(), Illegal> {
    let m = mv(game.position(), text);
    game.play(m)
}

pub fn win(side: Side, reason: koma::game::EndReason) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(side),
        reason,
    })
}

pub fn draw(reason: koma::game::EndReason) -> Option<Outcome> {
    Some(Outcome { winner: None, reason })
}

/// The piece on a square: owner and abbreviation.
pub fn piece_at(pos: &Position, square: &str) -> Option<(Side, String)> {
    pos.piece_at(sq(square))
        .map(|p| (p.side(), pos.rules().piece(p.kind()).abbrev.clone()))
}

/// How many pieces of the kind `abbrev` `side` holds in hand.
pub fn in_hand(pos: &Position, side: Side, abbrev: &str) -> u32 {
    let id = pos.rules().piece_by_abbrev(abbrev).expect("piece");
    pos.in_hand(side, id)
}

/// A Maka-Dai-Dai SFEN from the ranks that hold pieces (`('j', "9[HM]9")`), the others empty.
pub fn maka(ranks: &[(char, &str)], side: &str) -> String {
    let text: Vec<String> = ('a'..='s')
        .map(|r| {
            ranks
                .iter()
                .find(|(name, _)| *name == r)
                .map_or("19".to_string(), |(_, t)| t.to_string())
        })
        .collect();
    format!("{} {side} - 1", text.join("/"))
}

/// What a run of the `koma` binary gave.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Whether koma exited with 0.
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// Standard output, then standard error.
    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }

    /// The exit code and [`Run::text`].
    pub fn code_and_text(&self) -> (Option<i32>, String) {
        (self.code, self.text())
    }
}

/// Runs `koma ARGS` with nothing on standard input, as [`koma_with`].
pub fn koma(args: &[&str]) -> Run {
    koma_with(args, &[], "")
}

/// Runs `koma play ARGS` with `input` on standard input, as [`koma_with`].
pub fn koma_play(args: &[&str], input: impl AsRef<[u8]>) -> Run {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    koma_with(&all, &[], input)
}

/// Runs `koma ARGS` in the package folder, with `NO_COLOR` set and `COLUMNS` unset (then
/// `env` set), and `input` on standard input, which koma may stop reading (an error at the
/// start). Its output is drained while it runs; it is killed after a minute (a FIFO must not
/// block it). Fails if koma does not end, panics, or writes what is not UTF-8.
pub fn koma_with(args: &[&str], env: &[(&str, &str)], input: impl AsRef<[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.as_ref().to_vec();
    // A broken pipe (koma stopped reading) is not a failure here.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let drain = |mut stream: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stream.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waited") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("koma {args:?} did not end within a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let utf8 = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap_or_else(|e| panic!("koma {args:?} wrote {e}"));
    let run = Run {
        code: status.code(),
        stdout: utf8(stdout.join().expect("stdout read")),
        stderr: utf8(stderr.join().expect("stderr read")),
    };
    assert!(
        !run.text().contains("panicked"),
        "koma {args:?} panicked:\n{}",
        run.text()
    );
    run
}

/// An empty temporary folder for one test of one test file (`koma-FILE-PID-TEST`).
pub fn folder(file: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-{file}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// A path as an argument of koma.
pub fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The direction order of the piece tables transcribed in `tests/destinations/` (SV's):
/// F, B, L, R, FL, FR, BL, BR, as (squares to the mover's right, squares forward).
pub const TABLE_DIRECTIONS: [(i32, i32); 8] = [(0, 1), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)];

/// A lone Black piece of `kind` on `square`: the squares its legal moves end on.
pub fn lone_destinations(
    tables: &Arc<MoveTables>,
    kind: PieceId,
    square: Square,
) -> std::collections::BTreeSet<Square> {
    let setup = koma::game::Setup {
        pieces: vec![(square, Side::Black, kind, false)],
        hands: vec![],
        side_to_move: Side::Black,
        move_number: 1,
        lion_capture: None,
        deferred: [None, None],
    };
    let pos = Position::from_setup(tables.clone(), &setup).expect("a lone piece is a position");
    let geo = pos.geometry();
    pos.legal_moves().iter().map(|m| geo.square(m.to)).collect()
}

/// One piece of a table in `tests/destinations/`: its abbreviation, the eight direction codes
/// (in [`TABLE_DIRECTIONS`] order) and the words after them.
pub struct TableRow {
    pub abbrev: String,
    pub codes: [u32; 8],
    pub rest: Vec<String>,
}

/// The pieces of `tests/destinations/GAME.txt` (`#` starts a comment).
pub fn piece_table(game: &str) -> Vec<TableRow> {
    let path = format!("{}/tests/destinations/{game}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert!(words.len() >= 9, "{path}: an abbreviation and eight codes: {l}");
            let codes: Vec<u32> = words[1..9]
                .iter()
                .map(|w| w.parse().unwrap_or_else(|_| panic!("{path}: `{w}` is not a code")))
                .collect();
            TableRow {
                abbrev: words[0].to_string(),
                codes: codes.try_into().expect("eight codes"),
                rest: words[9..].iter().map(|w| w.to_string()).collect(),
            }
        })
        .collect()
}

/// A variant on a 36 × 36 board with a piece `A` that leaps to every offset of the board
/// (5,040 runs a side) and `kinds` more that move as it (`Qaaa`, `Qaab`, …), every one in
/// the setup, Black's on its back ranks and White's mirrored.
pub fn leapers_var(kinds: usize) -> String {
    let offsets: Vec<String> = (-35i32..=35)
        .flat_map(|x| (-35i32..=35).map(move |y| (x, y)))
        .filter(|&o| o != (0, 0))
        .map(|(x, y)| format!("({x}, {y})"))
        .collect();
    let mut text = format!(
        "variant \"Leapers\"\nboard 36 x 36\npiece A \"All\" : leap {}\n",
        offsets.join(" ")
    );
    let letter = |n: usize| char::from(b'a' + (n % 26) as u8);
    let names: Vec<String> = (0..kinds)
        .map(|i| format!("Q{}{}{}", letter(i / 676), letter(i / 26), letter(i)))
        .collect();
    for (i, name) in names.iter().enumerate() {
        text.push_str(&format!("piece {name} \"Leaper {i}\" : as A\n"));
    }
    text.push_str("piece K \"King\" royal : step all\nstuck-pieces-stay\nsetup\n");
    let pieces: Vec<&str> = ["K", "A"].into_iter().chain(names.iter().map(String::as_str)).collect();
    // Black's back ranks, from rank 36 (`aj`) down.
    let ranks = [
        "aj", "ai", "ah", "ag", "af", "ae", "ad", "ac", "ab", "aa", "z", "y", "x", "w",
    ];
    for (rank, row) in ranks.iter().zip(pieces.chunks(36)) {
        let gap = 36 - row.len();
        let tail = if gap > 0 { format!(" {gap}") } else { String::new() };
        text.push_str(&format!("  {rank}: {}{tail}\n", row.join(" ")));
    }
    text
}
