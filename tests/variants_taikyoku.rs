//! Taikyoku Shogi (36 x 36): every piece's destinations on an empty board as the table of
//! docs/taikyoku.md gives them (transcribed, with its source, in
//! `tests/destinations/taikyoku.txt`), the setup, and one test per rule of the game, named
//! after the rule. No other program counts Taikyoku moves in koma's reading (docs/taikyoku.md).

mod support;

use koma::game::{EndReason, Game, Illegal, LionCounting, Move, MoveTables, Position, Setup};
use koma::notation::{parse_record, read_usi, replay, write_record, write_usi};
use koma::rules::{BoardSize, Offset, Side, Square};
use std::collections::BTreeSet;
use std::sync::Arc;
use support::*;

const TAIKYOKU: &str = "taikyoku";

/// A position of lone pieces (square, side, abbreviation), `side` to move.
fn lone(tables: &Arc<MoveTables>, pieces: &[(&str, Side, &str)], side: Side) -> Position {
    let setup = Setup {
        pieces: pieces
            .iter()
            .map(|&(square, owner, abbrev)| (sq(square), owner, id(tables.rules(), abbrev), false))
            .collect(),
        hands: vec![],
        side_to_move: side,
        move_number: 1,
        lion_capture: None,
        deferred: [None, None],
    };
    Position::from_setup(tables.clone(), &setup).expect("a position")
}

/// The legal moves of the piece on `from`, as (destination, promotes).
fn moves_from(pos: &mut Position, from: &str) -> BTreeSet<(Square, bool)> {
    let start = pos.geometry().index(sq(from));
    let geo = pos.geometry();
    pos.legal_moves()
        .iter()
        .filter(|m| m.from == Some(start))
        .map(|m| (geo.square(m.to), m.promote))
        .collect()
}

fn destinations(pos: &mut Position, from: &str) -> BTreeSet<Square> {
    moves_from(pos, from).into_iter().map(|(to, _)| to).collect()
}

// ------------------------------------------------------------------ the setup

/// 402 pieces a side of 209 kinds, on the twelve nearest ranks, White's the rotation of
/// Black's (docs/taikyoku.md, "Board, sides, setup").
#[test]
fn taikyoku_setup_has_402_pieces_a_side_of_209_kinds() {
    let tables = tables(TAIKYOKU, &[]);
    let pos = Position::start(tables.clone());
    let board = tables.rules().board;
    assert_eq!((board.files, board.ranks), (36, 36));
    for side in [Side::Black, Side::White] {
        let mut count = 0;
        let mut kinds = BTreeSet::new();
        for file in 1..=36 {
            for rank in 1..=36 {
                if let Some(piece) = pos.piece_at(Square::new(file, rank))
                    && piece.side() == side
                {
                    let kind = piece.kind();
                    count += 1;
                    kinds.insert(kind);
                    let nearest = if side == Side::Black { 25..=36 } else { 1..=12 };
                    assert!(nearest.contains(&rank), "{side:?} piece on rank {rank}");
                    let rotated = pos.piece_at(Square::new(37 - file, 37 - rank));
                    assert_eq!(
                        rotated.map(|p| (p.side(), p.kind(), p.declined())),
                        Some((side.opponent(), kind, false)),
                        "rotation of {file},{rank}"
                    );
                }
            }
        }
        assert_eq!((count, kinds.len()), (402, 209), "{side:?}");
    }
    assert_eq!(piece_at(&pos, "19aj"), Some((Side::Black, "K".into())));
    assert_eq!(piece_at(&pos, "18aj"), Some((Side::Black, "CP".into())));
    assert_eq!(piece_at(&pos, "18a"), Some((Side::White, "K".into())));
}

/// `twelfth-rank = jh85`: the Dogs and Go-Betweens of jh85/taikyokushogi's twelfth rank
/// (`src/pieces.rs`, `SETUP_RANKS`, commit dedf86b: `. . . . . D . . . . GB . . . . D . . . .
/// . . . D . . . . GB . . . . D . .` from file 36), not the symmetric ones of the default, and
/// White's the rotation of Black's; nothing else moves.
#[test]
fn taikyoku_twelfth_rank_option_places_jh85s_dogs_and_go_betweens() {
    let twelfth = |options: &[&str]| {
        let pos = Position::start(tables(TAIKYOKU, options));
        let mut black = vec![];
        for file in (1..=36).rev() {
            let square = format!("{file}y");
            if let Some((side, kind)) = piece_at(&pos, &square) {
                assert_eq!(side, Side::Black, "{square}");
                let rotated = format!("{}l", 37 - file);
                assert_eq!(piece_at(&pos, &rotated), Some((Side::White, kind.clone())), "{rotated}");
                black.push(format!("{kind}{square}"));
            }
        }
        black
    };
    assert_eq!(twelfth(&[]), ["D31y", "GB26y", "D22y", "D15y", "GB11y", "D6y"]);
    assert_eq!(
        twelfth(&["twelfth-rank=jh85"]),
        ["D31y", "GB26y", "D21y", "D13y", "GB8y", "D3y"]
    );
    let ts = Position::start(tables(TAIKYOKU, &[]));
    let jh85 = Position::start(tables(TAIKYOKU, &["twelfth-rank=jh85"]));
    for file in 1..=36 {
        for rank in (1..=36).filter(|&r| r != 12 && r != 25) {
            let square = Square::new(file, rank);
            assert_eq!(ts.piece_at(square), jh85.piece_at(square), "{square}");
        }
    }
}

// ------------------------------------------------------------------ destinations

/// One line of `tests/destinations/taikyoku.txt`.
struct Entry {
    abbrev: String,
    codes: [u32; 8],
    jumps: Vec<(i32, i32)>,
    lion: bool,
    hook: bool,
}

/// The kinds of `tests/destinations/FILE.txt`.
fn table(file: &str) -> Vec<Entry> {
    piece_table(file)
        .into_iter()
        .map(|row| {
            let mut entry = Entry {
                abbrev: row.abbrev,
                codes: row.codes,
                jumps: vec![],
                lion: false,
                hook: false,
            };
            for word in &row.rest {
                match word.as_str() {
                    "lion" => entry.lion = true,
                    "hook" => entry.hook = true,
                    jump => {
                        let (x, y) = jump
                            .trim_matches(|c| c == '(' || c == ')')
                            .split_once(',')
                            .unwrap_or_else(|| panic!("{file}.txt: `{jump}`"));
                        entry.jumps.push((x.parse().expect("dx"), y.parse().expect("dy")));
                    }
                }
            }
            entry
        })
        .collect()
}

/// The squares a lone Black piece on `from` reaches on an empty board, as the entry says
/// (`tests/destinations/README.md`).
fn expected(entry: &Entry, board: BoardSize, from: Square) -> BTreeSet<Square> {
    let at = |square: Square, (dx, dy): (i32, i32)| board.offset(Side::Black, square, Offset::new(dx as i8, dy as i8));
    let mut out = BTreeSet::new();
    for (&(dx, dy), &code) in TABLE_DIRECTIONS.iter().zip(&entry.codes) {
        let reach = if code == 64 { 36 } else { code as i32 };
        for turn in (1..=reach).map_while(|n| at(from, (dx * n, dy * n))) {
            out.insert(turn);
            if entry.hook && code == 64 {
                // Turn 90° either way and slide on.
                for (tx, ty) in [(-dy, dx), (dy, -dx)] {
                    out.extend((1..=36).map_while(|m| at(turn, (tx * m, ty * m))));
                }
            }
        }
    }
    out.extend(entry.jumps.iter().filter_map(|&jump| at(from, jump)));
    if entry.lion {
        out.extend((-2..=2).flat_map(|x| (-2..=2).filter_map(move |y| at(from, (x, y)))));
    }
    out.remove(&from);
    out
}

/// Every kind of `tests/destinations/FILE.txt`, from squares all over the board (edges,
/// centre, both zones): a lone Black piece's destinations in koma, under `options`, are those
/// the table gives on an empty board. (Under the default `royal-capture = allowed` a side
/// without a royal has lost and has no move: the check rule's option lets a lone piece move.)
fn assert_destinations_match(file: &str, options: &[&str]) {
    let options: Vec<&str> = options.iter().copied().chain(["royal-capture=forbidden"]).collect();
    let tables = tables(TAIKYOKU, &options);
    let board = tables.rules().board;
    let entries = table(file);
    assert_eq!(entries.len(), tables.rules().pieces.len(), "{file}: one line per kind");
    for entry in entries {
        for file in [1, 2, 7, 18, 19, 30, 35, 36] {
            for rank in [3, 5, 11, 12, 18, 19, 25, 35, 36] {
                let from = Square::new(file, rank);
                let mut pos = lone(&tables, &[(&from.to_string(), Side::Black, &entry.abbrev)], Side::Black);
                let mut found = destinations(&mut pos, &from.to_string());
                found.remove(&from);
                assert_eq!(found, expected(&entry, board, from), "{} on {from}", entry.abbrev);
            }
        }
    }
}

/// The default, `pieces = ts`: taikyoku-shogi.github.io's table (docs/taikyoku.md).
#[test]
fn taikyoku_destinations_match_the_table() {
    assert_destinations_match("taikyoku", &[]);
}

/// `pieces = jh85`: every kind moves as the engine jh85/taikyokushogi moves it, as
/// `scripts/jh85_table.py` read its source into `tests/destinations/taikyoku-jh85.txt`
/// (docs/taikyoku.md, "The jh85 reading").
#[test]
fn taikyoku_pieces_jh85_option_moves_every_kind_as_jh85_does() {
    assert_destinations_match("taikyoku-jh85", &["pieces=jh85"]);
}

/// The range capturers, whose moves koma plays as Tenjiku's range jump for now
/// (docs/taikyoku.md, "Range capture"): left out of the comparison with jh85's moves.
const RANGE_CAPTURERS: [&str; 8] = ["GG", "+GG", "VG", "+VG", "FLG", "AG", "FID", "FCR"];

/// Whether a square is in the promotion zone of `side` (the far eleven ranks).
fn in_zone(side: Side, square: Square) -> bool {
    match side {
        Side::Black => square.rank <= 11,
        Side::White => square.rank >= 26,
    }
}

/// Under `pieces=jh85 twelfth-rank=jh85`, koma's legal moves are jh85/taikyokushogi's in every
/// position of its random games, as `scripts/jh85_moves.py` recorded them from the engine
/// itself (`tests/perft/taikyoku.jh85.moves`): moves compared by start, end and promotion.
/// Left out (docs/taikyoku.md, "The jh85 reading"): the range capturers' moves, and what
/// [JH] does not allow and koma does: the promotion on a capture that leaves the zone
/// (`promotion = wikipedia`) and the Lions' pass.
#[test]
fn taikyoku_pieces_jh85_option_generates_jh85s_moves_in_play() {
    let tables = tables(TAIKYOKU, &["pieces=jh85", "twelfth-rank=jh85"]);
    let path = format!("{}/tests/perft/taikyoku.jh85.moves", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let mut positions = 0;
    while let Some(position) = lines.next() {
        let played = position.strip_prefix("position").expect("a `position` line");
        let expected: BTreeSet<&str> = lines
            .next()
            .and_then(|l| l.strip_prefix("moves"))
            .expect("a `moves` line")
            .split_whitespace()
            .collect();
        let mut pos = Position::start(tables.clone());
        for text in played.split_whitespace() {
            play(&mut pos, text);
        }
        let geo = pos.geometry();
        let side = pos.side_to_move();
        // Taikyoku has no drops: every move starts on a square.
        let from = |m: &Move| geo.square(m.from.expect("a move on the board"));
        let found: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| {
                let (_, kind) = piece_at(&pos, &from(m).to_string()).expect("a piece moves");
                !RANGE_CAPTURERS.contains(&kind.as_str())
            })
            .filter(|m| !(m.promote && in_zone(side, from(m)) && !in_zone(side, geo.square(m.to))))
            .filter(|m| !m.is_pass())
            .map(|m| {
                let promotes = if m.promote { "+" } else { "" };
                format!("{}{}{promotes}", from(m), geo.square(m.to))
            })
            .collect();
        let found: BTreeSet<&str> = found.iter().map(String::as_str).collect();
        assert_eq!(found, expected, "after `{}`", played.trim());
        positions += 1;
    }
    assert!(positions > 50, "{positions} positions");
}

// ------------------------------------------------------------------ promotion

/// The zone is the far eleven ranks: a Black piece may promote moving to rank k (the 11th
/// from the top), not to rank l.
#[test]
fn taikyoku_promotion_zone_is_eleven_ranks() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("1m", Side::Black, "SVG"),
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
        ],
        Side::Black,
    );
    let moves = moves_from(&mut pos, "1m");
    assert!(moves.contains(&(sq("1l"), false)));
    assert!(!moves.contains(&(sq("1l"), true)), "rank l is outside the zone");
    let mut pos = lone(
        &tables,
        &[
            ("1l", Side::Black, "SVG"),
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
        ],
        Side::Black,
    );
    let moves = moves_from(&mut pos, "1l");
    assert!(moves.contains(&(sq("1k"), true)), "entering rank k may promote");
    assert!(
        moves.contains(&(sq("1k"), false)),
        "and may decline (promotion = wikipedia)"
    );
}

/// Under `promotion = compulsory` (taikyoku-shogi.github.io), a piece that ends its move in
/// the zone promotes.
#[test]
fn taikyoku_promotion_compulsory_option_promotes_every_move_into_the_zone() {
    let tables = tables(TAIKYOKU, &["promotion=compulsory"]);
    let mut pos = lone(
        &tables,
        &[
            ("1l", Side::Black, "SVG"),
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
        ],
        Side::Black,
    );
    let moves = moves_from(&mut pos, "1l");
    assert!(moves.contains(&(sq("1k"), true)));
    assert!(!moves.contains(&(sq("1k"), false)));
}

/// A kind that is both in the setup and the promotion of another piece: the promoted one
/// (`+WE`, from a Wood General) moves as the White Elephant but does not promote again,
/// while a White Elephant of the setup promotes to an Elephant King.
#[test]
fn taikyoku_promoted_piece_does_not_promote_again() {
    let tables = tables(TAIKYOKU, &[]);
    let rules = tables.rules();
    assert_eq!(rules.piece(id(rules, "WOG")).promotion.to, Some(id(rules, "+WE")));
    assert_eq!(rules.piece(id(rules, "WE")).promotion.to, Some(id(rules, "EK")));
    assert_eq!(rules.piece(id(rules, "+WE")).promotion.to, None);
    let mut pos = lone(
        &tables,
        &[
            ("1m", Side::Black, "+WE"),
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
        ],
        Side::Black,
    );
    assert!(moves_from(&mut pos, "1m").iter().all(|&(_, promote)| !promote));
}

/// The Drunken Elephant promotes to a Crown Prince, which is royal; the Crown Prince of the
/// setup promotes to a King.
#[test]
fn taikyoku_drunken_elephant_promotes_to_a_royal_crown_prince() {
    let tables = tables(TAIKYOKU, &[]);
    let rules = tables.rules();
    let prince = rules.piece(id(rules, "DE")).promotion.to.expect("DE promotes");
    assert_eq!(rules.piece(prince).abbrev, "+CP");
    assert!(rules.piece(prince).royal);
    assert_eq!(rules.piece(id(rules, "CP")).promotion.to, Some(id(rules, "+K")));
}

// ------------------------------------------------------------------ royals

/// Every King and Crown Prince must be captured: taking the King while the Crown Prince
/// stands does not end the game; taking the Prince then does.
#[test]
fn taikyoku_every_king_and_prince_must_be_captured() {
    let tables = tables(TAIKYOKU, &[]);
    let pos = lone(
        &tables,
        &[
            ("18r", Side::Black, "FK"),
            ("18aj", Side::Black, "K"),
            ("18j", Side::White, "K"),
            ("30b", Side::White, "CP"),
            ("30aa", Side::Black, "FCH"),
        ],
        Side::Black,
    );
    let mut game = Game::new(pos);
    play_all(&mut game, &["18r18j"]);
    assert_eq!(game.outcome(), None, "the Crown Prince is left");
    play_all(&mut game, &["30b30c", "30aa30c"]);
    assert_eq!(game.outcome(), win(Side::Black, EndReason::RoyalsCaptured));
}

/// With `royal-capture = allowed` (the default: no check rule), a move may leave the last
/// royal capturable; `royal-capture = forbidden` refuses it.
#[test]
fn taikyoku_royal_capture_option_decides_whether_a_royal_may_be_left_capturable() {
    let pieces = [
        ("18aj", Side::Black, "K"),
        ("18a", Side::White, "K"),
        ("17ah", Side::White, "FCH"),
    ];
    let tables_allowed = tables(TAIKYOKU, &[]);
    let pos = lone(&tables_allowed, &pieces, Side::Black);
    assert!(
        is_legal(&pos, "18aj17aj"),
        "allowed: walks into the Flying Chariot's file"
    );
    let tables_forbidden = tables(TAIKYOKU, &["royal-capture=forbidden"]);
    let pos = lone(&tables_forbidden, &pieces, Side::Black);
    assert!(!is_legal(&pos, "18aj17aj"));
}

// ------------------------------------------------------------------ hook movers

/// The Peacock hooks only after a forward-diagonal slide; back-diagonally it goes up to two
/// squares and does not turn.
#[test]
fn taikyoku_peacock_hooks_only_from_its_forward_diagonal_slides() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("18r", Side::Black, "PCK"),
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
        ],
        Side::Black,
    );
    let found = destinations(&mut pos, "18r");
    // Forward-left to 20p, then turn forward-right to 18n: straight ahead, only by a hook.
    assert!(found.contains(&sq("18n")));
    // Straight back two squares would need a turn after a back-diagonal move.
    assert!(found.contains(&sq("20t")));
    assert!(!found.contains(&sq("21u")));
    assert!(!found.contains(&sq("18t")));
}

// ------------------------------------------------------------------ range capture

/// Black's Great General on 18r, its own Pawn on 18q, White's Dog on 18p, Vice General on 18n
/// and Pawn on 18l; the Kings far away.
fn great_general_line(tables: &Arc<MoveTables>) -> Position {
    lone(
        tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "GG"),
            ("18q", Side::Black, "P"),
            ("18p", Side::White, "D"),
            ("18n", Side::White, "VG"),
            ("18l", Side::White, "P"),
        ],
        Side::Black,
    )
}

/// Plays a move read as a user types it in USI (from-to, whatever it sweeps).
fn play_usi(pos: &mut Position, text: &str) -> Move {
    let m = read_usi(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.make(&m);
    m
}

fn occupant(pos: &Position, square: &str) -> Option<(Side, String)> {
    piece_at(pos, square)
}

/// Range capture (docs/taikyoku.md, "Range capture"): the Great General passes over pieces
/// ranked below it, of either side, captures every one it passes, and may stop on any square
/// of its line: an empty square beyond them, or one of those pieces.
#[test]
fn taikyoku_range_capture_takes_every_piece_passed() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = great_general_line(&tables);
    let found = destinations(&mut pos, "18r");
    for square in ["18q", "18p", "18o", "18n", "18m", "18l", "18k", "18a"] {
        assert!(found.contains(&sq(square)), "GG reaches {square}: {found:?}");
    }
    let m = play_usi(&mut pos, "18r18m");
    assert!(m.sweep, "a move past pieces sweeps");
    for square in ["18q", "18p", "18n", "18r"] {
        assert_eq!(occupant(&pos, square), None, "{square} is emptied");
    }
    assert_eq!(occupant(&pos, "18m"), Some((Side::Black, "GG".into())));
    assert_eq!(
        occupant(&pos, "18l"),
        Some((Side::White, "P".into())),
        "beyond its destination"
    );
}

/// A piece of the range capturer's own rank or higher blocks its line, enemy or not, and is
/// not taken ([TS] `Piece.ts`, [JH] `gen_range_capture`): the Flying General stops before an
/// Angle General (both rank 4), the Great General before a Crown Prince (rank 1).
#[test]
fn taikyoku_range_capture_is_blocked_by_equal_or_higher_rank() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("5r", Side::Black, "FLG"),
            ("5p", Side::White, "AG"),
            ("5n", Side::White, "P"),
            ("30r", Side::Black, "GG"),
            ("30p", Side::White, "CP"),
            ("30n", Side::White, "P"),
        ],
        Side::Black,
    );
    let flying = destinations(&mut pos, "5r");
    assert!(flying.contains(&sq("5q")), "{flying:?}");
    assert!(!flying.contains(&sq("5p")) && !flying.contains(&sq("5n")), "{flying:?}");
    let great = destinations(&mut pos, "30r");
    assert!(great.contains(&sq("30q")), "{great:?}");
    assert!(!great.contains(&sq("30p")) && !great.contains(&sq("30n")), "{great:?}");
}

/// It lands on an empty square right beyond the pieces it passed.
#[test]
fn taikyoku_range_capture_lands_on_an_empty_square_beyond() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = great_general_line(&tables);
    let m = play_usi(&mut pos, "18r18o");
    assert!(m.sweep);
    assert_eq!(occupant(&pos, "18o"), Some((Side::Black, "GG".into())));
    assert_eq!(occupant(&pos, "18p"), None);
    assert_eq!(occupant(&pos, "18q"), None);
    assert_eq!(
        occupant(&pos, "18n"),
        Some((Side::White, "VG".into())),
        "beyond it: left"
    );
}

/// Pieces of its own side are taken as well, passed over or landed on ([TS]: every square
/// between start and end is cleared, and a lower-ranked piece of either side is a square it
/// may end on; [JH] alike).
#[test]
fn taikyoku_range_capture_takes_pieces_of_its_own_side() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = great_general_line(&tables);
    let own_pawns = pos.count(Side::Black, id(tables.rules(), "P"));
    let m = play_usi(&mut pos, "18r18q");
    assert!(m.sweep, "landing on its own piece sweeps");
    assert_eq!(occupant(&pos, "18q"), Some((Side::Black, "GG".into())));
    assert_eq!(pos.count(Side::Black, id(tables.rules(), "P")), own_pawns - 1);
}

/// Undoing a range capture puts back every piece it took, and the hash with them.
#[test]
fn taikyoku_range_capture_undo_restores_the_position_and_hash() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = great_general_line(&tables);
    let (before, hash) = (pos.to_setup(), pos.hash());
    let m = read_usi(&pos, "18r18k").expect("legal");
    let undo = pos.make(&m);
    assert_eq!(pos.hash(), pos.full_hash(), "the incremental hash after the sweep");
    assert_ne!(pos.hash(), hash);
    pos.unmake(&m, &undo);
    assert_eq!(pos.to_setup(), before);
    assert_eq!(pos.hash(), hash);
    assert_eq!(pos.full_hash(), hash);
}

/// A sweep is written from-to like any move, in USI and in the record's notation, and a
/// record holding one replays to the same position.
#[test]
fn taikyoku_range_capture_is_written_and_read_back_from_to() {
    let tables = tables(TAIKYOKU, &[]);
    let start = great_general_line(&tables);
    let mut game = koma::variant::Variant::game_from(start.clone());
    let m = read_usi(game.position(), "18r18m").expect("legal");
    assert_eq!(write_usi(game.position(), &m), "18r18m");
    game.play(m).expect("legal");
    let text = write_record(&Default::default(), &[], &game);
    assert!(text.contains("GG-18m"), "{text}");
    let record = parse_record(&format!("[Variant \"taikyoku\"]\n{text}")).expect("a record");
    let mut again = Game::new(start);
    replay(&mut again, &record).expect("replays");
    assert_eq!(again.position().to_setup(), game.position().to_setup());
}

/// A small variant for range captures: a General that range-captures in every direction (and
/// has `moves` besides), and Kings and Princes (royal, unranked: below every ranked piece).
fn sweep_tables(moves: &str, royal_capture_allowed: bool) -> Arc<MoveTables> {
    let text = format!(
        "variant \"Sweep\"\nboard 9 x 9\n\
         piece K \"King\" royal : step all\n\
         piece CP \"Prince\" royal : step all\n\
         piece P \"Pawn\" : step forward\n\
         piece GG \"General\" jump-rank 1 : range-capture all{moves}\n\
         stuck-pieces-stay\n\
         setup\n  h: P 8\n  i: K CP GG 6\n{}",
        if royal_capture_allowed {
            "royal-capture-allowed\n"
        } else {
            ""
        }
    );
    let compiled = koma::compile::compile(
        koma::compile::Source {
            name: "sweep.var".into(),
            text: text.into(),
        },
        &koma::compile::MemoryLoader::default(),
        &[],
    );
    assert!(
        compiled.report.diagnostics.is_empty(),
        "{}",
        compiled.report.render(false)
    );
    Arc::new(MoveTables::new(compiled.rules.expect("rules")))
}

/// A sweep takes the pieces on its line: it is a move of its own beside a jump to the same
/// square, which takes nothing on the way.
#[test]
fn range_capture_sweep_is_a_move_beside_a_jump_to_the_same_square() {
    let tables = sweep_tables(", jump 2 forward", true);
    let mut pos = lone(
        &tables,
        &[
            ("5i", Side::Black, "GG"),
            ("5h", Side::White, "P"),
            ("1i", Side::Black, "K"),
            ("1a", Side::White, "K"),
        ],
        Side::Black,
    );
    let jump = mv(&pos, "5i5g");
    let sweep = Move { sweep: true, ..jump };
    let legal = pos.legal_moves();
    assert!(legal.contains(&jump) && legal.contains(&sweep), "both moves");
    assert!(pos.is_legal(&jump) && pos.is_legal(&sweep));
    let undo = pos.make(&jump);
    assert_eq!(
        occupant(&pos, "5h"),
        Some((Side::White, "P".into())),
        "the jump takes nothing"
    );
    pos.unmake(&jump, &undo);
    pos.make(&sweep);
    assert_eq!(occupant(&pos, "5h"), None, "the sweep takes the Pawn");
}

/// Royals swept count as captured: sweeping White's King and Prince at once, its last two
/// royals, ends the game; sweeping one of them leaves the other to be taken.
#[test]
fn range_capture_of_every_royal_ends_the_game() {
    let tables = sweep_tables("", true);
    let pieces = [
        ("5i", Side::Black, "GG"),
        ("1i", Side::Black, "K"),
        ("5c", Side::White, "K"),
        ("5b", Side::White, "CP"),
    ];
    let mut game = Game::new(lone(&tables, &pieces, Side::Black));
    let m = read_usi(game.position(), "5i5a").expect("legal");
    game.play(m).expect("legal");
    assert_eq!(game.outcome(), win(Side::Black, EndReason::RoyalsCaptured));
    let mut game = Game::new(lone(&tables, &pieces, Side::Black));
    let m = read_usi(game.position(), "5i5c").expect("legal");
    game.play(m).expect("legal");
    assert_eq!(game.outcome(), None, "the Prince is left");
    assert_eq!(game.position().royal_squares(Side::White).len(), 1);
}

/// Under koma's usual rule (no royal may be left capturable), a range capture may not sweep
/// its own side's last royal, nor all its royals at once: that leaves none.
#[test]
fn range_capture_may_not_sweep_the_last_own_royal() {
    let tables = sweep_tables("", false);
    let mut pos = lone(
        &tables,
        &[
            ("5i", Side::Black, "GG"),
            ("5g", Side::Black, "K"),
            ("1a", Side::White, "K"),
        ],
        Side::Black,
    );
    let m = Move {
        sweep: true,
        ..mv(&pos, "5i5f")
    };
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo, LionCounting::Distinct);
    assert!(pseudo.contains(&m), "the sweep is a move of the piece");
    assert_eq!(pos.check_legal(&m), Err(Illegal::LeavesRoyalInCheck));
    assert!(!pos.is_legal(&m));
    // Both of its royals at once leave none either; one of two may go.
    let mut pos = lone(
        &tables,
        &[
            ("5i", Side::Black, "GG"),
            ("5g", Side::Black, "K"),
            ("5e", Side::Black, "CP"),
            ("1a", Side::White, "K"),
        ],
        Side::Black,
    );
    let both = Move {
        sweep: true,
        ..mv(&pos, "5i5d")
    };
    assert_eq!(pos.check_legal(&both), Err(Illegal::LeavesRoyalInCheck));
    assert!(!pos.is_legal(&both));
    let one = Move {
        sweep: true,
        ..mv(&pos, "5i5f")
    };
    assert_eq!(pos.check_legal(&one), Ok(()));
    assert!(pos.is_legal(&one));
}

// ------------------------------------------------------------------ jumping and sliding on

/// The Great Hawk jumps the first square forward, whatever stands there, and slides on from
/// the second (`beyond 1`, [TS]'s reading of Sekai no Shogi's circle on the arrow).
#[test]
fn taikyoku_great_hawk_jumps_the_first_square_and_slides_on() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "GH"),
            ("18q", Side::Black, "P"),
            ("18m", Side::White, "P"),
            ("17r", Side::Black, "P"),
        ],
        Side::Black,
    );
    let found = destinations(&mut pos, "18r");
    for square in ["18p", "18o", "18n", "18m"] {
        assert!(found.contains(&sq(square)), "{square}: {found:?}");
    }
    assert!(
        !found.contains(&sq("18l")),
        "the slide stops at the first piece after the jump"
    );
    assert!(!found.contains(&sq("16r")), "no jump sideways");
}

fn set(squares: &[&str]) -> BTreeSet<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

/// The destinations of the piece on `from` among `squares`, as move generation lists them;
/// the independent legality check agrees on every one of `squares`.
fn reached(pos: &mut Position, from: &str, squares: &[&str]) -> BTreeSet<String> {
    let found = destinations(pos, from);
    for &square in squares {
        let m = mv(pos, &format!("{from}{square}"));
        assert_eq!(found.contains(&sq(square)), pos.is_legal(&m), "{from} to {square}");
    }
    squares
        .iter()
        .filter(|s| found.contains(&sq(s)))
        .map(|s| s.to_string())
        .collect()
}

/// The Mountain Crane jumps to the 2nd, 3rd or 4th square, whatever stands before it, and
/// slides on from there if it is empty (`beyond 1`, `beyond 2`, `beyond 3`, [TS]'s
/// `(D-R)(H-R)((4,0)-R)`); four pieces in a row stop it. It takes only where it ends.
#[test]
fn taikyoku_mountain_crane_jumps_up_to_three_squares_and_slides_on() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "MC"),
            ("18q", Side::Black, "P"),
            ("18p", Side::White, "P"),
            ("18o", Side::Black, "P"),
            ("18l", Side::White, "P"),
            ("17r", Side::Black, "P"),
            ("16r", Side::Black, "P"),
            ("15r", Side::Black, "P"),
            ("14r", Side::Black, "P"),
        ],
        Side::Black,
    );
    let forward = ["18q", "18p", "18o", "18n", "18m", "18l", "18k"];
    assert_eq!(reached(&mut pos, "18r", &forward), set(&["18p", "18n", "18m", "18l"]));
    let sideways = ["17r", "16r", "15r", "14r", "13r"];
    assert_eq!(reached(&mut pos, "18r", &sideways), set(&[]));
    play(&mut pos, "18r18l");
    for square in ["18q", "18p", "18o"] {
        assert!(piece_at(&pos, square).is_some(), "{square} is jumped, not taken");
    }
    assert_eq!(piece_at(&pos, "18l"), Some((Side::Black, "MC".into())));
}

/// The Treacherous Fox jumps to the 2nd or 3rd square diagonally and vertically and slides on
/// from there ([TS]'s `(AG-B)(vDvH-R)`): past an enemy it takes on the 2nd square, it may go
/// on from the 3rd; three pieces in a row stop it.
#[test]
fn taikyoku_treacherous_fox_jumps_up_to_two_squares_and_slides_on() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "TF"),
            ("18q", Side::Black, "P"),
            ("18p", Side::Black, "P"),
            ("18o", Side::Black, "P"),
            ("17q", Side::Black, "P"),
            ("16p", Side::White, "P"),
        ],
        Side::Black,
    );
    let forward = ["18q", "18p", "18o", "18n"];
    assert_eq!(reached(&mut pos, "18r", &forward), set(&[]));
    let diagonal = ["17q", "16p", "15o", "14n", "13m"];
    assert_eq!(reached(&mut pos, "18r", &diagonal), set(&["16p", "15o", "14n", "13m"]));
}

/// The Wooden Dove jumps to the 3rd square diagonally and may go on up to 2 more squares
/// ([TS]'s `(G-B2)`: `beyond 2 range 5`), not to the 6th; it has no jump to the 2nd.
#[test]
fn taikyoku_wooden_dove_goes_on_up_to_two_squares_after_its_jump() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "WDV"),
            ("17q", Side::Black, "P"),
            ("16p", Side::White, "P"),
        ],
        Side::Black,
    );
    let diagonal = ["17q", "16p", "15o", "14n", "13m", "12l"];
    assert_eq!(reached(&mut pos, "18r", &diagonal), set(&["15o", "14n", "13m"]));
}

/// A jump and slide on reaches a royal past the jumped squares: the Mountain Crane attacks a
/// King past three pieces, not past four (under `royal-capture = forbidden`, where attacks
/// on a royal decide legality).
#[test]
fn taikyoku_mountain_crane_attacks_past_the_squares_it_jumps() {
    let tables = tables(TAIKYOKU, &["royal-capture=forbidden"]);
    let mut pieces = vec![
        ("18p", Side::Black, "K"),
        ("36a", Side::White, "K"),
        ("18l", Side::White, "MC"),
        ("18m", Side::White, "P"),
        ("18n", Side::Black, "P"),
        ("18o", Side::White, "P"),
    ];
    let attacked = lone(&tables, &pieces, Side::Black);
    assert!(attacked.royal_in_check(Side::Black), "past three pieces");
    assert!(!is_legal(&attacked, "18p18q"), "still on the line");
    assert!(is_legal(&attacked, "18p17p"));
    pieces[0] = ("18q", Side::Black, "K");
    pieces.push(("18p", Side::Black, "P"));
    let shielded = lone(&tables, &pieces, Side::Black);
    assert!(!shielded.royal_in_check(Side::Black), "past four pieces");
}

/// The three-barred arrow ([TS] `Piece.ts`): the King of Teachings slides past up to three
/// pieces of either side, royals too, taking none of them; it ends on an empty square on the
/// way or takes an enemy among the first four pieces met; the fourth ends the line.
#[test]
fn taikyoku_three_barred_arrow_passes_over_up_to_three_pieces() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "KT"),
            ("18q", Side::Black, "P"),
            ("18p", Side::White, "P"),
            ("18n", Side::Black, "P"),
            ("18l", Side::White, "P"),
            ("17r", Side::White, "CP"),
            ("15r", Side::Black, "P"),
            ("14r", Side::Black, "P"),
            ("13r", Side::Black, "P"),
        ],
        Side::Black,
    );
    let forward = ["18q", "18p", "18o", "18n", "18m", "18l", "18k", "18j"];
    assert_eq!(reached(&mut pos, "18r", &forward), set(&["18p", "18o", "18m", "18l"]));
    let sideways = ["17r", "16r", "15r", "14r", "13r", "12r"];
    assert_eq!(reached(&mut pos, "18r", &sideways), set(&["17r", "16r"]));
    play(&mut pos, "18r18m");
    for square in ["18q", "18p", "18n"] {
        assert!(piece_at(&pos, square).is_some(), "{square} is passed, not taken");
    }
}

/// The three-barred arrow attacks past the pieces it may pass: the Ancient Dragon's
/// vertical arrow reaches a King past three pieces, not past four (under
/// `royal-capture = forbidden`, a King may not stay on that line).
#[test]
fn taikyoku_three_barred_arrow_attacks_a_royal_past_pieces() {
    let tables = tables(TAIKYOKU, &["royal-capture=forbidden"]);
    let mut pieces = vec![
        ("18r", Side::Black, "K"),
        ("36a", Side::White, "K"),
        ("18h", Side::White, "AD"),
        ("18j", Side::White, "P"),
        ("18l", Side::Black, "P"),
        ("18n", Side::Black, "P"),
    ];
    let attacked = lone(&tables, &pieces, Side::Black);
    assert!(attacked.royal_in_check(Side::Black), "past three pieces");
    assert!(!is_legal(&attacked, "18r18s"), "still on the line");
    assert!(is_legal(&attacked, "18r17r"));
    pieces.push(("18p", Side::White, "P"));
    let shielded = lone(&tables, &pieces, Side::Black);
    assert!(!shielded.royal_in_check(Side::Black), "past four pieces");
}

/// The Free Eagle captures on an adjacent square without moving (igui).
#[test]
fn taikyoku_free_eagle_captures_an_adjacent_piece_without_moving() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            ("18r", Side::Black, "FE"),
            ("17q", Side::White, "P"),
        ],
        Side::Black,
    );
    assert!(is_legal(&pos, "18r17q18r"));
    play(&mut pos, "18r17q18r");
    assert_eq!(piece_at(&pos, "18r"), Some((Side::Black, "FE".into())));
    assert_eq!(piece_at(&pos, "17q"), None);
}
