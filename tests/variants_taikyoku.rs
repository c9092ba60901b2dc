//! Taikyoku Shogi (36 x 36): every piece's destinations on an empty board as the table of
//! docs/taikyoku.md gives them (transcribed, with its source, in
//! `tests/destinations/taikyoku.txt`), the setup, and one test per rule of the game, named
//! after the rule. No other program counts Taikyoku moves in koma's reading (docs/taikyoku.md).

mod support;

use koma::game::{EndReason, Game, MoveTables, NO_SQ, Position, Setup};
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
        .filter(|m| m.from == start)
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
                if let Some((owner, kind, _)) = pos.piece_at(Square::new(file, rank))
                    && owner == side
                {
                    count += 1;
                    kinds.insert(kind);
                    let nearest = if side == Side::Black { 25..=36 } else { 1..=12 };
                    assert!(nearest.contains(&rank), "{side:?} piece on rank {rank}");
                    let rotated = pos.piece_at(Square::new(37 - file, 37 - rank));
                    assert_eq!(
                        rotated,
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
        let found: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| {
                let (_, kind) = piece_at(&pos, &geo.square(m.from).to_string()).expect("a piece moves");
                !RANGE_CAPTURERS.contains(&kind.as_str())
            })
            .filter(|m| !(m.promote && in_zone(side, geo.square(m.from)) && !in_zone(side, geo.square(m.to))))
            .filter(|m| !(m.from == m.to && m.via == [NO_SQ; 2]))
            .map(|m| {
                let promotes = if m.promote { "+" } else { "" };
                format!("{}{}{promotes}", geo.square(m.from), geo.square(m.to))
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
    assert_eq!(game.result(), None, "the Crown Prince is left");
    play_all(&mut game, &["30b30c", "30aa30c"]);
    assert_eq!(game.result(), win(Side::Black, EndReason::RoyalsCaptured));
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
    let mut pos = lone(&tables_allowed, &pieces, Side::Black);
    assert!(
        is_legal(&mut pos, "18aj17aj"),
        "allowed: walks into the Flying Chariot's file"
    );
    let tables_forbidden = tables(TAIKYOKU, &["royal-capture=forbidden"]);
    let mut pos = lone(&tables_forbidden, &pieces, Side::Black);
    assert!(!is_legal(&mut pos, "18aj17aj"));
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

// ------------------------------------------------------------------ range jumps

/// The range-jumping order (docs/taikyoku.md, "Range capture"): the King and Crown Prince
/// rank 1, the Great General 2, the Vice General 3, the Flying and Angle Generals, Fierce
/// Dragon and Flying Crocodile 4. A range jumper captures beyond pieces ranked below it, of
/// either side; a piece of its own rank or higher blocks it.
#[test]
fn taikyoku_range_jump_follows_the_rank_order() {
    let tables = tables(TAIKYOKU, &[]);
    let mut pos = lone(
        &tables,
        &[
            ("36aj", Side::Black, "K"),
            ("36a", Side::White, "K"),
            // The Great General jumps its own Pawn, a Dog and a Vice General.
            ("18r", Side::Black, "GG"),
            ("18q", Side::Black, "P"),
            ("18p", Side::White, "D"),
            ("18n", Side::White, "VG"),
            ("18l", Side::White, "P"),
            // A Flying General is blocked by an Angle General, of its own rank.
            ("5r", Side::Black, "FLG"),
            ("5p", Side::White, "AG"),
            ("5n", Side::White, "P"),
            // No general jumps a royal.
            ("30r", Side::Black, "GG"),
            ("30p", Side::White, "CP"),
            ("30n", Side::White, "P"),
        ],
        Side::Black,
    );
    let great = destinations(&mut pos, "18r");
    for square in ["18p", "18n", "18l"] {
        assert!(great.contains(&sq(square)), "GG takes on {square}: {great:?}");
    }
    assert!(!great.contains(&sq("18o")), "it jumps only to capture");
    let flying = destinations(&mut pos, "5r");
    assert!(!flying.contains(&sq("5n")), "{flying:?}");
    let royal = destinations(&mut pos, "30r");
    assert!(!royal.contains(&sq("30n")), "{royal:?}");
}

// ------------------------------------------------------------------ jumping and sliding on

/// The Great Hawk jumps the first square forward, whatever stands there, and slides on from
/// the second (`beyond-first`, [TS]'s reading of Sekai no Shogi's circle on the arrow).
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
    assert!(is_legal(&mut pos, "18r17q18r"));
    play(&mut pos, "18r17q18r");
    assert_eq!(piece_at(&pos, "18r"), Some((Side::Black, "FE".into())));
    assert_eq!(piece_at(&pos, "17q"), None);
}
