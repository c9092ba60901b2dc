//! `koma show`: piece diagrams and the rules summary. Snapshots of shogi and of special
//! movers compiled from inline variants, structural checks of the marks (the Lion's A and B
//! squares, the Knight's jumps), piece lookup, and every shipped variant's pieces.

mod support;

use koma::compile::{MemoryLoader, Source, compile};
use koma::rules::Rules;
use koma::show::show;
use support::{compile_clean, settings};

/// A shipped variant compiled from its file, with these `NAME=VALUE` options.
fn shipped(name: &str, options: &[&str]) -> Rules {
    compile_clean(&format!("variants/{name}.var"), options)
}

fn inline(text: &str) -> Rules {
    let source = Source {
        name: "t.var".into(),
        text: text.into(),
    };
    let compiled = compile(source, &MemoryLoader::default(), &[]);
    compiled
        .rules
        .unwrap_or_else(|| panic!("{}", compiled.report.render(false)))
}

/// Special movers, one of each kind of movement and mode.
const MOVERS: &str = r#"
variant "Movers"
board 12 x 12
piece K  "King" royal : step all
piece Ln "Lion" : lion
piece HF "Horned Falcon" : lion forward, slide diagonal sideways back
piece TK "Teaching King" : slide all, lion 3
piece HM "Hook Mover" : hook orthogonal
piece Ca "Capricorn" : hook diagonal
piece E  "Emperor" : capture-unprotected anywhere
piece FD "Flying Dragon" : range 2 diagonal
piece Ky "Kirin" : jump 2 orthogonal, step diagonal
piece FE "Free Eagle" : slide all, jump 2 all
piece CP "Chess Pawn" : move-only step forward, capture-only step forward-diagonal
piece MS "Mixed Slider" : move-only slide forward, step forward, capture-only slide back
setup
  l: . . . . . K . . . . . .
  k: Ln HF TK HM Ca E FD Ky FE CP MS 1
"#;

fn piece(rules: &Rules, query: &str) -> String {
    show(rules, Some(query)).unwrap_or_else(|e| panic!("{query}: {e}"))
}

/// The marks of a diagram, row by row from the top.
fn grid(text: &str) -> Vec<Vec<char>> {
    text.lines()
        .filter(|line| line.starts_with('│'))
        .map(|line| {
            line.trim_matches('│')
                .split_whitespace()
                .map(|cell| cell.chars().next().unwrap())
                .collect()
        })
        .collect()
}

fn count(grid: &[Vec<char>], mark: char) -> usize {
    grid.iter().flatten().filter(|&&c| c == mark).count()
}

/// Where `mark` stands, as (squares to the piece's right, squares forward).
fn offsets(grid: &[Vec<char>], mark: char) -> Vec<(i32, i32)> {
    let radius = (grid.len() / 2) as i32;
    let mut found = Vec::new();
    for (row, cells) in grid.iter().enumerate() {
        for (column, &c) in cells.iter().enumerate() {
            if c == mark {
                found.push((column as i32 - radius, radius - row as i32));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn shogi_snapshots() {
    let rules = shipped("shogi", &[]);
    settings().bind(|| {
        insta::assert_snapshot!("show_shogi_king", piece(&rules, "K"));
        insta::assert_snapshot!("show_shogi_knight", piece(&rules, "N"));
        insta::assert_snapshot!("show_shogi_dragon", piece(&rules, "+R"));
        insta::assert_snapshot!("show_shogi", show(&rules, None).unwrap());
    });
}

#[test]
fn special_mover_snapshots() {
    let rules = inline(MOVERS);
    settings().bind(|| insta::assert_snapshot!("show_movers", show(&rules, None).unwrap()));
}

#[test]
fn lion_has_eight_a_and_sixteen_b_squares() {
    let lion = grid(&piece(&inline(MOVERS), "Ln"));
    assert_eq!(lion.len(), 5);
    assert_eq!(count(&lion, 'A'), 8);
    assert_eq!(count(&lion, 'B'), 16);
    assert_eq!(count(&lion, '@'), 1);
}

#[test]
fn knight_jumps_to_the_two_forward_knight_squares() {
    let knight = grid(&piece(&shipped("shogi", &[]), "N"));
    assert_eq!(offsets(&knight, 'J'), vec![(-1, 2), (1, 2)]);
    assert_eq!(count(&knight, '@'), 1);
}

#[test]
fn line_lion_marks_its_line_and_slides_end_in_arrows() {
    let falcon = grid(&piece(&inline(MOVERS), "HF"));
    assert_eq!(offsets(&falcon, 'A'), vec![(0, 1)]);
    assert_eq!(offsets(&falcon, 'B'), vec![(0, 2)]);
    assert_eq!(offsets(&falcon, '↓'), vec![(0, -3)]);
    assert_eq!(offsets(&falcon, '↑'), vec![]);
    let teaching_king = grid(&piece(&inline(MOVERS), "TK"));
    assert_eq!(teaching_king.len(), 9);
    assert_eq!((count(&teaching_king, 'A'), count(&teaching_king, 'B')), (8, 16));
    assert_eq!(count(&teaching_king, 'C'), 24);
}

#[test]
fn jumps_ranges_hooks_and_modes_have_their_marks() {
    let rules = inline(MOVERS);
    let kirin = grid(&piece(&rules, "Ky"));
    assert_eq!(offsets(&kirin, 'J'), vec![(-2, 0), (0, -2), (0, 2), (2, 0)]);
    assert_eq!(count(&kirin, 'o'), 4);
    let dragon = grid(&piece(&rules, "FD"));
    assert_eq!(count(&dragon, '+'), 8);
    let hook = grid(&piece(&rules, "HM"));
    assert_eq!(count(&hook, 'H'), 8);
    assert_eq!(count(&hook, 'h'), 36);
    let emperor = grid(&piece(&rules, "E"));
    assert_eq!(count(&emperor, 'u'), 24);
    let pawn = grid(&piece(&rules, "CP"));
    assert_eq!(offsets(&pawn, 'm'), vec![(0, 1)]);
    assert_eq!(offsets(&pawn, 'x'), vec![(-1, 1), (1, 1)]);
    let slider = grid(&piece(&rules, "MS"));
    assert_eq!(
        offsets(&slider, '*'),
        vec![(0, 1)],
        "the step captures where the slide may not"
    );
    assert_eq!(offsets(&slider, 'x'), vec![(0, -1)]);
    assert_eq!(offsets(&slider, '↑'), vec![(0, 2)]);
    assert_eq!(offsets(&slider, '↓'), vec![(0, -2)]);
}

/// A hop lands beyond its screen: its marks start on the second square of each line, to the
/// rim for a hop of any distance, at most N squares away for `hop N`.
#[test]
fn hops_are_marked_from_the_second_square_of_their_lines() {
    let rules = inline(
        r#"
variant "Cannons"
board 9 x 9
piece K  "King" royal : step all
piece SC "Silver Cannon" : hop orthogonal
piece FC "Flying Cannon" : move-only step diagonal, hop 2 diagonal
piece XC "Xiangqi Cannon" : move-only slide orthogonal, capture-only hop orthogonal
setup
  i: . . SC FC K XC . . .
"#,
    );
    let silver = grid(&piece(&rules, "SC"));
    assert_eq!(offsets(&silver, '^'), vec![(-2, 0), (0, -2), (0, 2), (2, 0)]);
    assert_eq!(offsets(&silver, '↑'), vec![(0, 3)]);
    assert_eq!(count(&silver, '.'), 7 * 7 - 1 - 8, "nothing on the screen's square");
    let flying = grid(&piece(&rules, "FC"));
    assert_eq!(offsets(&flying, '^'), vec![(-2, -2), (-2, 2), (2, -2), (2, 2)]);
    assert_eq!(offsets(&flying, 'm'), vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]);
    let xiangqi = grid(&piece(&rules, "XC"));
    assert_eq!(offsets(&xiangqi, 'm'), vec![(-1, 0), (0, -1), (0, 1), (1, 0)]);
    assert_eq!(count(&xiangqi, '^'), 4, "the slide moves and the hop captures there");
}

#[test]
fn pieces_are_found_by_abbreviation_or_name_in_any_case() {
    let rules = shipped("shogi", &[]);
    assert_eq!(piece(&rules, "+r"), piece(&rules, "+R"));
    assert_eq!(piece(&rules, "dragon king"), piece(&rules, "+R"));
    assert!(piece(&rules, "n").starts_with("N  Knight"));
}

#[test]
fn an_unknown_piece_names_close_matches() {
    let rules = shipped("shogi", &[]);
    let error = show(&rules, Some("Knigt")).unwrap_err();
    assert!(error.contains("`Knigt`") && error.contains("N (Knight)"), "{error}");
    let error = show(&rules, Some("dragon")).unwrap_err();
    assert!(
        error.contains("+R (Dragon King)") && error.contains("+B (Dragon Horse)"),
        "{error}"
    );
    let error = show(&rules, Some("Zebra")).unwrap_err();
    assert!(error.contains("K, R, B"), "{error}");
}

/// A shipped variant, the options chosen, and pieces to snapshot.
type Case = (&'static str, &'static [&'static str], &'static [&'static str]);

#[test]
fn special_pieces_of_the_shipped_variants() {
    let cases: &[Case] = &[
        ("yari", &[], &["YN"]),
        ("tori", &[], &["LQ", "RQ", "Pt", "Eg", "Go"]),
        ("chu", &[], &["Ln", "Ky", "Ph", "+DH", "+DK"]),
        ("maka-dai-dai", &[], &["DV", "LCh", "FBe", "FW", "HM", "Ca", "E", "FF"]),
        ("maka-dai-dai", &["teaching-king=2", "lion-dog=lion"], &["TK", "LD"]),
        ("taikyoku", &[], &["MC", "WDV", "KT", "GEL"]),
        ("cannon", &[], &["GC", "SC", "+GC"]),
    ];
    for (variant, options, pieces) in cases {
        let rules = shipped(variant, options);
        let suffix = if options.is_empty() { "" } else { "_options" };
        for abbrev in *pieces {
            let name = format!(
                "show_{}{suffix}_{}",
                variant.replace("-", "_"),
                abbrev.replace("+", "promoted_")
            );
            settings().bind(|| insta::assert_snapshot!(name, piece(&rules, abbrev)));
        }
    }
}

#[test]
fn every_piece_of_every_shipped_variant_is_drawn_around_its_centre() {
    for variant in support::shipped() {
        let rules = shipped(variant, &[]);
        let all = show(&rules, None).unwrap();
        for kind in &rules.pieces {
            let text = piece(&rules, &kind.abbrev);
            assert!(
                all.contains(&text),
                "{variant} {}: not in the full listing",
                kind.abbrev
            );
            let grid = grid(&text);
            let side = grid.len();
            assert!(
                side % 2 == 1 && grid.iter().all(|row| row.len() == side),
                "{variant} {}",
                kind.abbrev
            );
            assert_eq!(offsets(&grid, '@'), vec![(0, 0)], "{variant} {}", kind.abbrev);
            assert!(
                count(&grid, '.') < side * side - 1,
                "{variant} {}: no move drawn",
                kind.abbrev
            );
        }
    }
}

#[test]
fn chu_lions_falcon_and_eagle_have_their_lion_squares() {
    let rules = shipped("chu", &[]);
    for lion in ["Ln", "+Ky"] {
        let grid = grid(&piece(&rules, lion));
        assert_eq!((count(&grid, 'A'), count(&grid, 'B')), (8, 16), "{lion}");
    }
    let falcon = grid(&piece(&rules, "+DH"));
    assert_eq!(offsets(&falcon, 'A'), vec![(0, 1)]);
    assert_eq!(offsets(&falcon, 'B'), vec![(0, 2)]);
    let eagle = grid(&piece(&rules, "+DK"));
    assert_eq!(offsets(&eagle, 'A'), vec![(-1, 1), (1, 1)]);
    assert_eq!(offsets(&eagle, 'B'), vec![(-2, 2), (2, 2)]);
}

#[test]
fn summaries_name_the_rules_of_each_variant() {
    let chu = show(&shipped("chu", &[]), None).unwrap();
    for words in [
        "12 x 12",
        "46 pieces a side",
        "far 4 ranks",
        "deferral",
        "lion trading",
        "counter-strike",
        "bare king",
    ] {
        assert!(chu.contains(words), "chu: {words}");
    }
    let maka = show(&shipped("maka-dai-dai", &[]), None).unwrap();
    for words in [
        "19 x 19",
        "96 pieces a side",
        "compulsory on any capture",
        "captured pieces leave the game",
    ] {
        assert!(maka.contains(words), "maka: {words}");
    }
    let tori = show(&shipped("tori", &[]), None).unwrap();
    assert!(tori.contains("Sw: at most 2 unpromoted of a side on a file"));
}

/// The summaries of Check and Annan Shogi say their rules: the first check wins; pieces move
/// as the piece behind them, and nothing bars a rank to drops.
#[test]
fn summaries_name_the_first_check_and_moving_as_the_piece_behind() {
    let check = show(&shipped("checkshogi", &[]), None).unwrap();
    assert!(check.contains("first check wins"), "{check}");
    let annan = show(&shipped("annan", &[]), None).unwrap();
    assert!(annan.contains("moves and attacks as that piece"), "{annan}");
    assert!(!annan.contains("not where it could never move"), "{annan}");
    let shogi = show(&shipped("shogi", &[]), None).unwrap();
    assert!(
        !shogi.contains("first check wins") && !shogi.contains("as that piece"),
        "{shogi}"
    );
}

/// The marks an SVG diagram draws on its squares, in order from the top-left (the piece's
/// own square drawn as `@`), and how many squares it has.
fn svg_grid(svg: &str) -> (Vec<char>, usize) {
    let squares = svg.matches("<rect x=").count();
    let marks = svg
        .split("<text ")
        .filter(|t| t.contains("text-anchor=\"middle\""))
        .map(|t| {
            let label = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            if t.contains("fill=\"white\"") {
                '@'
            } else {
                label.chars().next().unwrap()
            }
        })
        .collect();
    (marks, squares)
}

#[test]
fn svg_diagrams_draw_the_marks_of_the_text_diagrams() {
    for name in support::shipped() {
        let rules = shipped(name, &[]);
        for p in &rules.pieces {
            let text = grid(&piece(&rules, &p.abbrev));
            let marks: Vec<char> = text.iter().flatten().copied().filter(|&c| c != '.').collect();
            let id = rules.piece_by_abbrev(&p.abbrev).unwrap();
            let (drawn, squares) = svg_grid(&koma::show::piece_svg(&rules, id));
            assert_eq!(drawn, marks, "{name} {}", p.abbrev);
            assert_eq!(squares, text.len() * text.len(), "{name} {}", p.abbrev);
        }
    }
}

#[test]
fn svg_of_all_pieces_stacks_one_drawing_each() {
    let rules = shipped("shogi", &[]);
    let svg = koma::show::show_svg(&rules, None).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg.matches("<g transform=").count(), rules.pieces.len());
    let error = koma::show::show_svg(&rules, Some("Lnn")).unwrap_err();
    assert_eq!(error, show(&rules, Some("Lnn")).unwrap_err());
}

#[test]
fn show_svg_writes_the_drawing_to_the_file() {
    let path = std::env::temp_dir().join(format!("koma-show-{}.svg", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["show", "--svg"])
        .arg(&path)
        .args(["chu", "Ln"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(written, koma::show::show_svg(&shipped("chu", &[]), Some("Ln")).unwrap());
}

/// The summary names the pieces in hand at the start, and counts their kinds as in the setup.
#[test]
fn summary_shows_the_hand_at_the_start() {
    let plus = show(&shipped("gorogoroplus", &[]), None).unwrap();
    assert!(
        plus.contains("  setup      8 pieces a side; in hand at the start: L N a side\n"),
        "{plus}"
    );
    assert!(plus.contains("10 kinds: 6 in the setup, 4 more by promotion"), "{plus}");
    let own = inline(
        "variant \"V\"\nboard 5 x 5\npiece K \"King\" royal : step all\npiece P \"Pawn\" : step forward\n\
         setup black\n  e: . . K . .\n  hand: P P\nsetup white\n  a: . . K . .\ndrops\nstuck-pieces-stay\n",
    );
    let text = show(&own, None).unwrap();
    assert!(text.contains("in hand at the start: Black P P, White none"), "{text}");
}

/// The summary says when the try wins, as the option reads it.
#[test]
fn summary_shows_the_try() {
    let rules = shipped("dobutsu", &[]);
    let text = show(&rules, None).unwrap();
    assert!(
        text.contains("the try: a royal piece on its far rank wins, unless the opponent takes it with the next move"),
        "{text}"
    );
    let fsf = show(&shipped("dobutsu", &["try=unattacked"]), None).unwrap();
    assert!(
        fsf.contains("the try: a royal piece on its far rank wins, at once where no enemy piece attacks it"),
        "{fsf}"
    );
}

/// The summary of an anti game: no royal piece, extinction, compulsory capture.
#[test]
fn summary_shows_extinction_and_compulsory_capture() {
    let text = show(&shipped("antiminishogi", &[]), None).unwrap();
    for line in [
        "no royal piece: no check, no checkmate",
        "extinction: a side left with no piece, on the board or in hand, wins",
        "capture compulsory: while a side can capture, it must (a drop is no capture)",
        "stalemate: the side with no legal move wins",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let own = inline(
        "variant \"V\"\nboard 5 x 5\npiece K \"King\" : step all\npiece P \"Pawn\" promotes +P : step forward\n\
         piece +P \"Tokin\" : step all\nsetup\n  e: . . K P .\npromotion zone 1\nextinction loss K P\n",
    );
    let text = show(&own, None).unwrap();
    assert!(
        text.contains(
            "extinction: a side left with no piece of one of K (King), P (Pawn) (on the board or in hand, promoted or not) loses"
        ),
        "{text}"
    );
}
