//! The diagnostics of `koma check`: one broken file per check under `tests/broken/`, its
//! rendered report as a snapshot (in `snapshots/`), the checks it reports, the spans and
//! labels of the important ones, the command line, and inputs that must not make koma panic.

mod support;

use koma::compile::{self, Check, Compiled, MemoryLoader, Report, Severity, Source, compile_named};
use std::path::Path;
use std::process::Command;
use support::{koma, settings};

/// Checks that are warnings; every other check is an error.
const WARNINGS: &[Check] = &[
    Check::UnusedPiece,
    Check::StuckPiece,
    Check::ZonesOverlap,
    Check::MissingName,
    Check::UnusedOption,
];

/// The path of a broken file, relative to the crate (tests run there).
fn path(name: &str) -> String {
    format!("tests/broken/{name}.var")
}

/// Compiles a broken file as `koma check` does.
fn compile_broken(name: &str) -> Compiled {
    compile_named(&path(name), &[])
}

/// Compiles text held in memory.
fn compile_text(name: &str, text: &str) -> Compiled {
    let source = Source {
        name: name.into(),
        text: text.into(),
    };
    compile::compile(source, &MemoryLoader::default(), &[])
}

fn checks(report: &Report) -> Vec<Check> {
    report.diagnostics.iter().map(|d| d.check).collect()
}

/// Compiles a broken file, asserts the checks it reports (in reading order), that errors
/// withhold the tables, and snapshots the rendered report.
fn broken(name: &str, expected: &[Check]) -> Report {
    let compiled = compile_broken(name);
    let report = compiled.report;
    let rendered = report.render(false);
    assert_eq!(checks(&report), expected, "{name}:\n{rendered}");
    for d in &report.diagnostics {
        let warning = WARNINGS.contains(&d.check);
        assert_eq!(d.severity == Severity::Warning, warning, "{name}: {:?}", d.check);
    }
    assert_eq!(compiled.rules.is_none(), report.has_errors(), "{name}");
    let snapshot = format!("diagnostics_{}", name.replace('-', "_"));
    settings().bind(|| insta::assert_snapshot!(snapshot, rendered));
    report
}

macro_rules! broken_files {
    ($($test:ident: $file:literal => [$($check:ident),* $(,)?];)*) => {
        $(
            #[test]
            fn $test() {
                broken($file, &[$(Check::$check),*]);
            }
        )*

        /// Every broken file that has a test above.
        const TESTED: &[&str] = &[$($file),*];
    };
}

broken_files! {
    syntax: "syntax" => [Syntax];
    syntax_setup_row: "syntax-setup-row" => [Syntax];
    syntax_unclosed_name: "syntax-unclosed-name" => [Syntax];
    syntax_trailing_comma: "syntax-trailing-comma" => [Syntax];
    unknown_variant: "unknown-variant" => [UnknownVariant];
    unknown_variant_directory: "unknown-variant-directory" => [UnknownVariant];
    recursive_use: "recursive-use" => [RecursiveUse];
    unknown_keyword: "unknown-keyword" => [UnknownKeyword];
    unknown_attribute: "unknown-attribute" => [UnknownAttribute];
    unknown_movement: "unknown-movement" => [UnknownMovement];
    unknown_direction: "unknown-direction" => [UnknownDirection];
    unknown_piece: "unknown-piece" => [UnknownPiece];
    unknown_piece_in_setup: "unknown-piece-in-setup" => [UnknownPiece];
    unknown_piece_misspelt: "unknown-piece-misspelt" => [UnknownPiece, UnknownPiece, UnknownPiece];
    unknown_option: "unknown-option" => [UnknownOption];
    unknown_option_value: "unknown-option-value" => [UnknownOptionValue];
    duplicate_option: "duplicate-option" => [DuplicateOption];
    duplicate_abbreviation: "duplicate-abbreviation" => [DuplicateAbbreviation];
    duplicate_name: "duplicate-name" => [DuplicateName];
    duplicate_sfen: "duplicate-sfen" => [DuplicateSfen];
    duplicate_sfen_case: "duplicate-sfen-case" => [DuplicateSfen];
    duplicate_statement: "duplicate-statement" => [DuplicateStatement];
    duplicate_attribute: "duplicate-attribute" => [DuplicateAttribute];
    missing_board: "missing-board" => [MissingBoard];
    board_size: "board-size" => [BoardSize];
    square_off_board: "square-off-board" => [SquareOffBoard];
    short_row: "short-row" => [ShortRow];
    short_row_board_changed: "short-row-board-changed" => [ShortRow, ShortRow];
    square_off_board_ranks: "square-off-board-ranks" => [SquareOffBoard];
    syntax_negative_distance: "syntax-negative-distance" => [Syntax];
    unknown_keyword_continued_moves: "unknown-keyword-continued-moves" => [UnknownKeyword];
    square_taken: "square-taken" => [SquareTaken];
    square_taken_rotation: "square-taken-rotation" => [SquareTaken];
    missing_setup: "missing-setup" => [MissingSetup];
    promotion_cycle: "promotion-cycle" => [PromotionCycle];
    shared_promotion: "shared-promotion" => [SharedPromotion];
    movement_cycle: "movement-cycle" => [MovementCycle];
    zone_too_deep: "zone-too-deep" => [ZoneTooDeep];
    no_move: "no-move" => [NoMove];
    no_royal: "no-royal" => [NoRoyal];
    contradictory_clause: "contradictory-clause" => [ContradictoryClause];
    check_wins_royal_capture: "check-wins-royal-capture" => [ContradictoryClause];
    moves_as_piece_behind_hook: "moves-as-piece-behind-hook" => [ContradictoryClause];
    empty_clause: "empty-clause" => [EmptyClause];
    bad_distance: "bad-distance" => [BadDistance];
    bad_distance_too_long: "bad-distance-too-long" => [BadDistance];
    not_in_hand: "not-in-hand" => [NotInHand];
    not_in_hand_start_no_drops: "not-in-hand-start-no-drops" => [NotInHand];
    not_in_hand_start_promoted: "not-in-hand-start-promoted" => [NotInHand];
    bad_value_hand_square: "bad-value-hand-square" => [BadValue];
    duplicate_statement_hand: "duplicate-statement-hand" => [DuplicateStatement];
    rule_needs_another: "rule-needs-another" => [RuleNeedsAnother];
    repetition_once: "repetition-once" => [BadValue];
    bad_value: "bad-value" => [BadValue];
    control_character: "control-character" => [ControlCharacter, ControlCharacter];
    unused_piece: "unused-piece" => [UnusedPiece];
    unused_piece_promoted: "unused-piece-promoted" => [UnusedPiece, UnusedPiece];
    zone_too_deep_try: "zone-too-deep-try" => [ZoneTooDeep];
    unknown_movement_modifier: "unknown-movement-modifier" => [UnknownMovement];
    bad_value_try: "bad-value-try" => [BadValue];
    syntax_try: "syntax-try" => [Syntax];
    duplicate_statement_try: "duplicate-statement-try" => [DuplicateStatement];
    syntax_extinction: "syntax-extinction" => [Syntax];
    duplicate_statement_extinction: "duplicate-statement-extinction" => [DuplicateStatement];
    duplicate_statement_must_capture: "duplicate-statement-must-capture" => [DuplicateStatement];
    rule_needs_another_extinction_promoted: "rule-needs-another-extinction-promoted" => [RuleNeedsAnother];
    bad_value_extinction_twice: "bad-value-extinction-twice" => [BadValue];
    rule_needs_another_no_royal: "rule-needs-another-no-royal" => [RuleNeedsAnother, RuleNeedsAnother];
    stuck_piece: "stuck-piece" => [StuckPiece];
    zones_overlap: "zones-overlap" => [ZonesOverlap];
    missing_name: "missing-name" => [MissingName];
    unused_option: "unused-option" => [UnusedOption];
    flip_with_promotion: "flip-with-promotion" => [ContradictoryClause];
    flip_three_faces: "flip-three-faces" => [ContradictoryClause];
    flip_no_two_faced_piece: "flip-no-two-faced-piece" => [RuleNeedsAnother];
    syntax_flip: "syntax-flip" => [Syntax];
    syntax_defended_after_move: "syntax-defended-after-move" => [Syntax];
    drops_either_face_no_two_faced_piece: "drops-either-face-no-two-faced-piece" => [RuleNeedsAnother];
    drops_anywhere_nothing_stuck: "drops-anywhere-nothing-stuck" => [RuleNeedsAnother];
    drops_freedom_twice: "drops-freedom-twice" => [DuplicateStatement];
    contradictory_clause_from_last_rank: "contradictory-clause-from-last-rank" => [ContradictoryClause];
    contradictory_clause_captured_as: "contradictory-clause-captured-as" => [ContradictoryClause];
    rule_needs_another_piece_limit: "rule-needs-another-piece-limit" => [RuleNeedsAnother];
    not_in_hand_no_drop_last_rank: "not-in-hand-no-drop-last-rank" => [NotInHand];
    rule_needs_another_no_forced_promotion: "rule-needs-another-no-forced-promotion" => [RuleNeedsAnother];
    unknown_option_setup: "unknown-option-setup" => [UnknownOption];
    contradictory_clause_hook_turning: "contradictory-clause-hook-turning" => [ContradictoryClause];
    contradictory_clause_hook_leg_without_turn: "contradictory-clause-hook-leg-without-turn" => [ContradictoryClause];
    contradictory_clause_compulsory_on_promoted: "contradictory-clause-compulsory-on-promoted" => [ContradictoryClause];
    bad_value_jump_rank: "bad-value-jump-rank" => [BadValue];
    rule_needs_another_range_jump: "rule-needs-another-range-jump" => [RuleNeedsAnother];
    rule_needs_another_range_capture: "rule-needs-another-range-capture" => [RuleNeedsAnother];
    contradictory_clause_range_capture_move_only: "contradictory-clause-range-capture-move-only" => [ContradictoryClause];
    bad_distance_area: "bad-distance-area" => [BadDistance];
    limit_area: "limit-area" => [Limit];
    contradictory_clause_igui_move_only: "contradictory-clause-igui-move-only" => [ContradictoryClause];
    contradictory_clause_beyond: "contradictory-clause-beyond" => [ContradictoryClause];
    bad_distance_beyond: "bad-distance-beyond" => [BadDistance];
    syntax_beyond: "syntax-beyond" => [Syntax];
    contradictory_clause_passing: "contradictory-clause-passing" => [ContradictoryClause];
    contradictory_clause_passing_beyond: "contradictory-clause-passing-beyond" => [ContradictoryClause];
    bad_distance_passing: "bad-distance-passing" => [BadDistance];
    contradictory_clause_burns_lion: "contradictory-clause-burns-lion" => [ContradictoryClause];
    contradictory_clause_burns_drops: "contradictory-clause-burns-drops" => [ContradictoryClause];
    rule_needs_another_burns_before_burnt: "rule-needs-another-burns-before-burnt" => [RuleNeedsAnother];
    rule_needs_another_no_royal_drop_mate: "rule-needs-another-no-royal-drop-mate" => [RuleNeedsAnother, RuleNeedsAnother];
    bad_distance_hop: "bad-distance-hop" => [BadDistance];
    contradictory_clause_hop_passing: "contradictory-clause-hop-passing" => [ContradictoryClause];
    contradictory_clause_hop_beyond: "contradictory-clause-hop-beyond" => [ContradictoryClause];
    syntax_hop: "syntax-hop" => [Syntax];
    unknown_direction_hop: "unknown-direction-hop" => [UnknownDirection];
    many_errors: "many-errors" => [
        UnknownDirection,
        DuplicateAbbreviation,
        Syntax,
        BadDistance,
        UnknownKeyword,
        SquareOffBoard,
    ];
}

// ---------------------------------------------------------------- coverage

/// Every check but `Limit` (tested with generated inputs below) has a broken file named after
/// its code, which reports it; every broken file has a test.
#[test]
fn every_check_has_a_broken_file() {
    assert!(Check::ALL.len() >= 25);
    for &check in Check::ALL {
        if check == Check::Limit {
            continue;
        }
        let name = check.code().strip_prefix("koma::").unwrap();
        assert!(
            Path::new(&path(name)).is_file(),
            "no tests/broken/{name}.var for {check:?}"
        );
        assert!(TESTED.contains(&name), "no test for tests/broken/{name}.var");
        let report = compile_broken(name).report;
        assert!(checks(&report).contains(&check), "{name}:\n{}", report.render(false));
    }
    for entry in std::fs::read_dir("tests/broken").unwrap() {
        let file = entry.unwrap().path();
        let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
        assert!(TESTED.contains(&stem.as_str()), "{} has no test", file.display());
    }
}

/// Syntax errors say what was found, what the language allows there, in its own words, and
/// point at the spot: (text, message, label, line and column).
#[test]
fn syntax_errors_speak_the_language() {
    let cases: &[(&str, &str, &str, (usize, usize))] = &[
        (
            "board 9 x\n",
            "the `board` statement ends too early: expected a number",
            "expected a number",
            (1, 10),
        ),
        (
            "board 9 x 9 x\n",
            "expected the end of the line in this `board` statement, found `x`",
            "expected the end of the line",
            (1, 13),
        ),
        (
            "variant Shogi\n",
            "expected a quoted name in this `variant` statement, found `Shogi`",
            "expected a quoted name",
            (1, 9),
        ),
        (
            "variant \"Shogi\n",
            "a quoted name has no closing `\"`",
            "this `\"` is not closed on its line",
            (1, 9),
        ),
        (
            "piece K \"King\" : step all when x\n",
            "the `piece` statement ends too early: expected `=`",
            "expected `=`",
            (1, 33),
        ),
        (
            "piece K \"King\" : step all when\n",
            "the `piece` statement ends too early: expected the name of an option",
            "expected the name of an option",
            (1, 31),
        ),
        (
            "piece K \"King\" : step all,\n",
            "the `piece` statement ends too early: expected a move (step, slide, range, jump, leap, lion, hook, anywhere, as, area, range-jump, range-capture, igui, hop)",
            "after a `,` the list goes on: another item, on this line or the next",
            (1, 27),
        ),
        (
            "piece K \"King\" royal\npiece G \"Gold\" : step all\n",
            "the `piece` statement ends too early: expected a piece attribute or `:`",
            "expected a piece attribute or `:`",
            (1, 21),
        ),
        (
            "piece K \"King\" : step all,\n\nsetup\n  a: K\n",
            "the `piece` statement ends too early: expected a move (step, slide, range, jump, leap, lion, hook, anywhere, as, area, range-jump, range-capture, igui, hop)",
            "after a `,` the list goes on: another item, on this line or the next",
            (1, 27),
        ),
        (
            "K \"King\" : step all\n",
            "expected a statement, found `K`",
            "a piece is defined with `piece` first",
            (1, 1),
        ),
        (
            "Board 9 x 9\n",
            "expected a statement, found `Board`",
            "keywords are lower case: `board`",
            (1, 1),
        ),
        (
            "piece K \"King\" value ten : step all\n",
            "expected a number in this `piece` statement, found `ten`",
            "expected a number",
            (1, 22),
        ),
        (
            "piece K \"King\" value 10a : step all\n",
            "expected a number in this `piece` statement, found `10a`",
            "expected a number",
            (1, 22),
        ),
        (
            "piece K \"King\" : leap (1 2)\n",
            "expected `,` in this `piece` statement, found `2`",
            "expected `,`",
            (1, 26),
        ),
        (
            "piece K \"King\" : leap (1, 2\n",
            "the `piece` statement ends too early: expected `)`",
            "expected `)`",
            (1, 28),
        ),
        (
            "piece K \"King\" : range forward\n",
            "expected a number in this `piece` statement, found `forward`",
            "expected a number",
            (1, 24),
        ),
        (
            "piece K \"King\" : step\n",
            "the `piece` statement ends too early: expected a direction (forward, back, left, right, orthogonal, diagonal, all, …)",
            "something is missing here",
            (1, 22),
        ),
        (
            "piece K \"King\" : step all, ,\n",
            "expected a move (step, slide, range, jump, leap, lion, hook, anywhere, as, area, range-jump, range-capture, igui, hop) in this `piece` statement, found `,`",
            "not expected here",
            (1, 28),
        ),
        (
            "promotion zone 3 on enters\n",
            "expected enter, within, leave or capture in this `promotion` statement, found `enters`",
            "expected enter, within, leave or capture",
            (1, 21),
        ),
        (
            "promotion zone three\n",
            "expected a number in this `promotion` statement, found `three`",
            "expected a number",
            (1, 16),
        ),
        (
            "promotion\n",
            "the `promotion` statement ends too early: expected `zone` or `capture`",
            "expected `zone` or `capture`",
            (1, 10),
        ),
        (
            "repetition 3 drew\n",
            "expected draw, illegal or starter-varies in this `repetition` statement, found `drew`",
            "expected draw, illegal or starter-varies",
            (1, 14),
        ),
        (
            "repetition 3 draw perpetual-check loses\n",
            "expected `when`, `, perpetual-check loses` or the end of the line in this `repetition` statement, found `perpetual-check`",
            "expected `when`, `, perpetual-check loses` or the end of the line",
            (1, 19),
        ),
        (
            "drop-limit P 1 per rank\n",
            "expected `file` in this `drop-limit` statement, found `rank`",
            "expected `file`",
            (1, 20),
        ),
        (
            "stalemate lost\n",
            "expected draw, loss or win in this `stalemate` statement, found `lost`",
            "expected draw, loss or win",
            (1, 11),
        ),
        (
            "handicap Rook 8b\n",
            "expected a quoted name in this `handicap` statement, found `Rook`",
            "expected a quoted name",
            (1, 10),
        ),
        (
            "handicap \"Rook\" b8\n",
            "expected a square (such as `7g`) in this `handicap` statement, found `b8`",
            "expected a square (such as `7g`)",
            (1, 17),
        ),
        (
            "setup\n  e: G K\n  f G K\n  g: K ? K\n",
            "expected `:` in this setup row, found `G`",
            "expected `:`",
            (3, 5),
        ),
        (
            "setup blak\n  e: G K\n",
            "expected `when`, `black` or `white` or the end of the line in this `setup` statement, found `blak`",
            "expected `when`, `black` or `white` or the end of the line",
            (1, 7),
        ),
        (
            "e: K G\n",
            "expected a statement, found `e`",
            "a setup row belongs under `setup`",
            (1, 1),
        ),
        (
            "option x = \n",
            "the `option` statement ends too early: expected an option value",
            "expected an option value",
            (1, 12),
        ),
        (
            "option x \"desc\" a | b\n",
            "expected `=` in this `option` statement, found `a`",
            "expected `=`",
            (1, 17),
        ),
        (
            "use chu\n",
            "expected a quoted name in this `use` statement, found `chu`",
            "expected a quoted name",
            (1, 5),
        ),
        (
            "use \"chu\": K DE\n",
            "expected `,` or the end of the line in this `use` statement, found `DE`",
            "expected `,` or the end of the line",
            (1, 14),
        ),
        (
            "piece K \"King\" sfen kk : step all\n",
            "expected an SFEN letter in this `piece` statement, found `kk`",
            "expected an SFEN letter",
            (1, 21),
        ),
        (
            "piece K \"King\" : step all when x = \n",
            "the `piece` statement ends too early: expected an option value",
            "expected an option value",
            (1, 36),
        ),
        (
            "piece K \"King\" : step all # comment\n  , slide forward\n",
            "expected a statement, found `,`",
            "a `,` that continues a statement goes at the end of the line before",
            (2, 3),
        ),
        (
            "piece K \"King\" : capture-only\n",
            "the `piece` statement ends too early: expected a move (step, slide, range, jump, leap, lion, hook, anywhere, as, area, range-jump, range-capture, igui, hop)",
            "something is missing here",
            (1, 30),
        ),
        (
            "piece K \"Kïng\" : stép all\n",
            "found `stép`: the words of the language are written in ASCII letters",
            "not an ASCII word",
            (1, 18),
        ),
        (
            "lion-trading Ln bridge-excludes\n",
            "the `lion-trading` statement ends too early: expected a piece abbreviation (such as `K`, `Ln` or `+P`)",
            "expected a piece abbreviation (such as `K`, `Ln` or `+P`)",
            (1, 32),
        ),
    ];
    for (text, message, label_text, at) in cases {
        let report = compile_text("s.var", text).report;
        let d = report.diagnostics.iter().find(|d| d.check == Check::Syntax);
        let d = d.unwrap_or_else(|| panic!("{text:?}: no syntax error:\n{}", report.render(false)));
        assert_eq!(d.message, *message, "{text:?}");
        assert_eq!(d.labels[0].text, *label_text, "{text:?}");
        assert_eq!(d.source.line_column(d.labels[0].span.start), *at, "{text:?}");
    }
}

/// The words of the grammar's rules (`piece_stmt`, `EOI`) never reach a report.
#[test]
fn no_report_names_a_grammar_rule() {
    let grammar = std::fs::read_to_string("grammar/variant.pest").unwrap();
    let mut names: Vec<String> = grammar
        .lines()
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim().to_string()))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .filter(|n| n.contains('_') || n.chars().all(|c| c.is_ascii_uppercase()))
        .collect();
    names.extend(["EOI", "SOI", "ASCII_", "Rule::", "positives"].map(String::from));
    assert!(names.iter().any(|n| n == "piece_stmt"), "{names:?}");
    for name in TESTED {
        let rendered = compile_broken(name).report.render(false);
        for rule in &names {
            assert!(!rendered.contains(rule.as_str()), "{name} names `{rule}`:\n{rendered}");
        }
    }
}

// ---------------------------------------------------------------- spans and labels

/// The text under a label, its line and column (from 1), and its text.
fn label(report: &Report, diagnostic: usize, label: usize) -> (String, (usize, usize), String) {
    let d = &report.diagnostics[diagnostic];
    let l = &d.labels[label];
    let under = d.source.text[l.span.clone()].to_string();
    (under, d.source.line_column(l.span.start), l.text.clone())
}

#[test]
fn syntax_error_points_at_the_word_that_does_not_fit() {
    let report = compile_broken("syntax").report;
    let d = &report.diagnostics[0];
    assert_eq!(d.check, Check::Syntax);
    assert_eq!(d.source.name, "tests/broken/syntax.var");
    assert_eq!(
        d.message,
        "expected a piece attribute or `:` in this `piece` statement, found `step`"
    );
    assert_eq!(
        label(&report, 0, 0),
        ("step".into(), (5, 31), "a `:` goes before the moves".into())
    );
    assert_eq!(d.labels.len(), 1);
    assert!(
        d.help
            .as_ref()
            .unwrap()
            .contains("piece ABBR \"Name\" ATTRIBUTES : MOVES")
    );
}

#[test]
fn syntax_errors_of_setup_rows_and_names_point_at_the_spot() {
    let report = compile_broken("syntax-setup-row").report;
    assert_eq!(label(&report, 0, 0), (".".into(), (12, 5), "expected `:`".into()));
    let report = compile_broken("syntax-unclosed-name").report;
    assert_eq!(
        label(&report, 0, 0),
        ("\"".into(), (5, 10), "this `\"` is not closed on its line".into())
    );
    let report = compile_broken("syntax-trailing-comma").report;
    let (under, at, _) = label(&report, 0, 0);
    assert_eq!((under.as_str(), at), ("", (6, 43)));
}

#[test]
fn unknown_piece_suggests_the_piece_and_points_at_its_definition() {
    let report = compile_broken("unknown-piece-in-setup").report;
    let d = &report.diagnostics[0];
    assert_eq!(d.message, "no piece is abbreviated `Gd`");
    assert_eq!(label(&report, 0, 0), ("Gd".into(), (12, 13), "unknown piece".into()));
    assert_eq!(
        label(&report, 0, 1),
        ("GD".into(), (6, 7), "`GD` is defined here".into())
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `GD` (Gold)?"));

    // A piece's name where its abbreviation belongs.
    let report = compile_broken("unknown-piece").report;
    assert_eq!(label(&report, 0, 0), ("Tokin".into(), (7, 34), "unknown piece".into()));
    assert_eq!(
        label(&report, 0, 1),
        ("+P".into(), (8, 7), "`+P` is defined here".into())
    );
    assert!(
        report.diagnostics[0]
            .help
            .as_ref()
            .unwrap()
            .contains("\"Tokin\" is the name of `+P`")
    );
}

/// A misspelt abbreviation (a letter too many, another letter of a promoted piece) gets the
/// piece it probably meant, wherever a piece is named: `as`, `promotes`, a rule.
#[test]
fn misspelt_piece_suggests_did_you_mean() {
    let report = compile_broken("unknown-piece-misspelt").report;
    let expected = [
        ("+D", (8, 40), "+R", (11, 7), "did you mean `+R` (Dragon King)?"),
        ("Gl", (10, 33), "G", (6, 7), "did you mean `G` (Gold)?"),
        ("Pa", (20, 12), "P", (9, 7), "did you mean `P` (Pawn)?"),
    ];
    for (i, (word, at, meant, defined, help)) in expected.into_iter().enumerate() {
        assert_eq!(
            report.diagnostics[i].message,
            format!("no piece is abbreviated `{word}`")
        );
        assert_eq!(label(&report, i, 0), (word.into(), at, "unknown piece".into()));
        assert_eq!(
            label(&report, i, 1),
            (meant.into(), defined, format!("`{meant}` is defined here"))
        );
        assert_eq!(report.diagnostics[i].help.as_deref(), Some(help));
    }

    let out = koma(&["check", "tests/broken/unknown-piece-misspelt.var"]);
    assert_eq!(out.code, Some(1));
    let text = out.stdout;
    for help in [
        "did you mean `+R` (Dragon King)?",
        "did you mean `G` (Gold)?",
        "did you mean `P` (Pawn)?",
    ] {
        assert!(text.contains(help), "{text}");
    }
}

/// Where two pieces are equally likely, both are named; `use "x": A` suggests as well.
#[test]
fn misspelt_piece_names_every_likely_piece() {
    let text = "variant \"U\"\nboard 9 x 9\nuse \"shogi\": K, Gl, +D\nsetup\n  i: 4 K 4\n";
    let report = compile_text("u.var", text).report;
    let helps: Vec<&str> = report.diagnostics.iter().filter_map(|d| d.help.as_deref()).collect();
    assert_eq!(
        helps,
        [
            "did you mean `G` (Gold General)?",
            "did you mean `+R` (Dragon King) or `+B` (Dragon Horse)?"
        ],
        "{}",
        report.render(false)
    );
}

/// A board changed without its setup: the report on a setup row labels the `board`
/// statement's number too, files or ranks.
#[test]
fn board_changed_without_setup_labels_the_board_line() {
    let report = compile_broken("short-row-board-changed").report;
    for (i, row_end) in [(0, (11, 9)), (1, (12, 15))] {
        assert_eq!(label(&report, i, 0), ("".into(), row_end, "row ends here".into()));
        assert_eq!(
            label(&report, i, 1),
            ("7".into(), (3, 7), "the board has 7 files".into())
        );
    }
    let report = compile_broken("square-off-board-ranks").report;
    assert_eq!(label(&report, 0, 0), ("e".into(), (12, 3), "no such rank".into()));
    assert_eq!(
        label(&report, 0, 1),
        ("4".into(), (3, 11), "the board has 4 ranks".into())
    );

    let out = koma(&["check", "tests/broken/short-row-board-changed.var"]);
    let text = out.stdout;
    assert!(text.contains("the board has 7 files"), "{text}");
}

/// A move list continued on the next line without the `,` at the end of the line: the
/// report says so and points where the `,` goes (before a comment).
#[test]
fn continued_moves_without_comma_suggest_the_comma() {
    let report = compile_broken("unknown-keyword-continued-moves").report;
    let d = &report.diagnostics[0];
    assert_eq!(
        d.message,
        "`step` is a move, not a statement: the line before ends its list of moves without `,`"
    );
    assert_eq!(
        label(&report, 0, 0),
        ("step".into(), (7, 3), "a move on a line of its own".into())
    );
    assert_eq!(
        label(&report, 0, 1),
        ("".into(), (6, 42), "add `,` here to go on with the moves".into())
    );
    assert!(
        d.help
            .as_ref()
            .unwrap()
            .contains("add `,` at the end of the line before")
    );

    // `as` (a short word) is read as a broken statement: the same message.
    let text = "variant \"A\"\nboard 5 x 5\npiece K \"King\" royal : step forward\n  as G\n";
    let report = compile_text("as.var", text).report;
    let d = report.diagnostics.iter().find(|d| d.check == Check::Syntax).unwrap();
    assert_eq!(
        d.message,
        "`as` is a move, not a statement: the line before ends its list of moves without `,`"
    );
    assert!(
        d.help
            .as_ref()
            .unwrap()
            .contains("add `,` at the end of the line before")
    );

    // Not after a statement that is not a piece, nor a word that is not a move.
    let text = "variant \"A\"\nboard 5 x 5\n  step forward\npiece K \"King\" royal : step all\n  stpe all\n";
    let report = compile_text("other.var", text).report;
    for d in &report.diagnostics {
        assert!(!d.message.contains("without `,`"), "{}", d.message);
    }
}

/// A distance that is not a whole number of squares: say what a distance is.
#[test]
fn a_distance_is_a_whole_number_of_squares() {
    let report = compile_broken("syntax-negative-distance").report;
    assert_eq!(
        report.diagnostics[0].message,
        "`-2` is not a distance: the distance of a range is a whole number of squares, at least 1"
    );
    assert_eq!(
        label(&report, 0, 0),
        ("-2".into(), (7, 45), "a whole number of squares, at least 1".into())
    );
    let on_a_line_of_its_own = "step all, # the King's step\n  range -4 forward";
    for (clause, number) in [
        ("jump -1 forward", "-1"),
        ("range 2.5 forward", "2.5"),
        ("lion -3", "-3"),
        (on_a_line_of_its_own, "-4"),
    ] {
        let text = format!("piece K \"King\" royal : {clause}\n");
        let report = compile_text("d.var", &text).report;
        let d = report.diagnostics.iter().find(|d| d.check == Check::Syntax).unwrap();
        assert!(
            d.message.starts_with(&format!("`{number}` is not a distance")),
            "{clause}: {}",
            d.message
        );
        assert_eq!(&d.source.text[d.labels[0].span.clone()], number, "{clause}");
    }
    let out = koma(&["check", "tests/broken/syntax-negative-distance.var"]);
    let text = out.stdout;
    assert!(text.contains("a whole number of squares, at least 1"), "{text}");
}

#[test]
fn duplicate_abbreviation_labels_both_definitions() {
    let report = compile_broken("duplicate-abbreviation").report;
    assert_eq!(report.diagnostics[0].message, "two pieces are abbreviated `G`");
    assert_eq!(label(&report, 0, 0), ("G".into(), (7, 7), "defined again here".into()));
    assert_eq!(label(&report, 0, 1), ("G".into(), (6, 7), "first defined here".into()));
}

#[test]
fn duplicate_names_and_letters_label_both_pieces() {
    let report = compile_broken("duplicate-sfen").report;
    assert_eq!(label(&report, 0, 0), ("sfen g".into(), (7, 19), "`S` too".into()));
    assert_eq!(
        label(&report, 0, 1),
        ("sfen g".into(), (6, 19), "`G` has this SFEN letter".into())
    );
    let report = compile_broken("duplicate-name").report;
    assert_eq!(label(&report, 0, 0), ("\"Gold\"".into(), (7, 10), "`S` too".into()));
    assert_eq!(
        label(&report, 0, 1),
        ("\"Gold\"".into(), (6, 10), "`G` is named \"Gold\"".into())
    );
}

#[test]
fn square_taken_labels_both_pieces() {
    let report = compile_broken("square-taken").report;
    assert_eq!(
        report.diagnostics[0].message,
        "Black's `G` and White's `G` both start on 2e"
    );
    assert_eq!(label(&report, 0, 0), ("G".into(), (17, 12), "White's `G` on 2e".into()));
    assert_eq!(label(&report, 0, 1), ("G".into(), (12, 12), "Black's `G` on 2e".into()));

    // By rotation, the centre square meets itself.
    let report = compile_broken("square-taken-rotation").report;
    let (under, at, text) = label(&report, 0, 0);
    assert_eq!((under.as_str(), at), ("G", (11, 10)));
    assert!(text.contains("turned 180°"), "{text}");
}

#[test]
fn promotion_cycle_labels_each_promotion() {
    let report = compile_broken("promotion-cycle").report;
    assert_eq!(report.diagnostics.len(), 1, "one report for the cycle");
    assert_eq!(
        report.diagnostics[0].message,
        "promotion goes round in a circle: P → +P → P"
    );
    assert_eq!(
        label(&report, 0, 0),
        ("+P".into(), (7, 34), "`P` promotes to `+P`".into())
    );
    assert_eq!(
        label(&report, 0, 1),
        ("P".into(), (8, 27), "…and `+P` promotes back to `P`".into())
    );
}

#[test]
fn unknown_direction_points_at_the_word_and_suggests() {
    let report = compile_broken("unknown-direction").report;
    let d = &report.diagnostics[0];
    assert_eq!(d.message, "`forwards-diagonal` is not a direction");
    assert_eq!(
        label(&report, 0, 0),
        ("forwards-diagonal".into(), (6, 43), "unknown direction".into())
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `forward-diagonal`?"));
}

#[test]
fn other_checks_point_at_the_right_word() {
    let cases: &[(&str, &str, (usize, usize))] = &[
        ("unknown-keyword", "promtion", (14, 1)),
        ("unknown-attribute", "roayl", (5, 25)),
        ("unknown-movement", "stpe", (6, 27)),
        ("unknown-option", "strong-golds", (7, 85)),
        ("unknown-option-value", "true", (7, 99)),
        ("unknown-variant", "\"shogii\"", (4, 5)),
        ("recursive-use", "\"recursive-use\"", (4, 5)),
        ("board-size", "40", (3, 7)),
        ("square-off-board", "6a", (15, 17)),
        ("zone-too-deep", "6", (14, 16)),
        ("zones-overlap", "3", (14, 16)),
        ("bad-distance", "0", (7, 45)),
        ("bad-value", "1", (15, 12)),
        ("empty-clause", "(0, 0)", (6, 66)),
        ("contradictory-clause", "capture-only", (7, 49)),
        ("not-in-hand", "+P", (16, 12)),
        ("rule-needs-another", "deferral", (15, 1)),
        ("movement-cycle", "G", (8, 23)),
        ("shared-promotion", "G", (7, 34)),
        ("no-royal", "K", (5, 7)),
        ("unused-piece", "S", (7, 7)),
        ("stuck-piece", "P", (7, 7)),
        ("no-move", "step all when strong-gold = yes", (7, 27)),
        ("missing-board", "variant", (2, 1)),
        ("missing-setup", "variant", (2, 1)),
        ("missing-name", "board", (2, 1)),
        ("unused-option", "strong-gold", (4, 8)),
        ("short-row", "", (12, 13)),
    ];
    for (name, under, at) in cases {
        let report = compile_broken(name).report;
        let (text, line_column, _) = label(&report, 0, 0);
        assert_eq!((text.as_str(), line_column), (*under, *at), "{name}");
    }
}

#[test]
fn every_diagnostic_of_a_file_names_the_file_and_has_help() {
    for name in TESTED {
        let report = compile_broken(name).report;
        for d in &report.diagnostics {
            assert_eq!(d.source.name, path(name), "{name}");
            assert!(!d.labels.is_empty(), "{name}: {} has no label", d.message);
            assert!(
                d.help.is_some() || d.labels.len() > 1,
                "{name}: {} has no help",
                d.message
            );
            for l in &d.labels {
                assert!(l.span.end <= d.source.text.len() && !l.text.is_empty(), "{name}");
            }
        }
        let rendered = report.render(false);
        assert!(rendered.contains(&format!("[{}:", path(name))), "{name}:\n{rendered}");
    }
}

// ---------------------------------------------------------------- cascades

/// One mistake, one report: what only follows from a mistake already reported is not reported.
#[test]
fn one_mistake_is_reported_once() {
    // A broken King line: the King is not also unknown in the setup, nor is "no royal" said.
    let report = compile_broken("syntax").report;
    assert_eq!(checks(&report), [Check::Syntax]);
    // A misspelt `royal`: no "no royal piece" besides.
    assert_eq!(
        checks(&compile_broken("unknown-attribute").report),
        [Check::UnknownAttribute]
    );
    // A Gold that cannot be read moves: neither it nor the Tokin that moves as it "cannot move".
    assert_eq!(
        checks(&compile_broken("unknown-movement").report),
        [Check::UnknownMovement]
    );
    // A missing `use`: the pieces it would have brought are not unknown.
    let text = "variant \"U\"\nboard 5 x 5\nuse \"nowhere\"\nsetup\n  e: . G K G .\n";
    assert_eq!(checks(&compile_text("u.var", text).report), [Check::UnknownVariant]);
}

/// The small variant the broken files are made from, without a mistake.
const VALID: &str = "variant \"Mini\"
board 5 x 5

piece K  \"King\"  sfen k royal : step all
piece G  \"Gold\"  sfen g : step orthogonal forward-diagonal
piece P  \"Pawn\"  sfen p promotes +P : step forward
piece +P \"Tokin\" : as G

setup
  d: 4 P
  e: . G K G .

promotion zone 1
";

#[test]
fn the_valid_variant_is_valid() {
    let compiled = compile_text("mini.var", VALID);
    assert!(
        compiled.report.diagnostics.is_empty(),
        "{}",
        compiled.report.render(false)
    );
    assert!(compiled.rules.is_some());
}

/// What is said twice is not silently taken once.
#[test]
fn repeats_are_reported() {
    let base = VALID;
    let gold = "step orthogonal forward-diagonal";
    let cases: &[(&str, &str, Check, &str)] = &[
        (gold, "leap (1, 2) (-1, 2) (1, 2)", Check::EmptyClause, "(1, 2)"),
        (
            gold,
            "step forward diagonal forward-left",
            Check::EmptyClause,
            "forward-left",
        ),
        (gold, "move-only move-only step all", Check::EmptyClause, "move-only"),
        (
            "promotion zone 1",
            "promotion zone 1\nhandicap \"G\" 2a 2a",
            Check::BadValue,
            "2a",
        ),
        (
            "promotion zone 1",
            "promotion zone 1\nhandicap \"G\" 4a\nhandicap \"G\" 4a",
            Check::DuplicateStatement,
            "\"G\"",
        ),
        (
            "promotion zone 1",
            "promotion zone 1\npromotion zone 2",
            Check::DuplicateStatement,
            "zone 2",
        ),
        (
            "variant \"Mini\"",
            "variant \"Mini\"\nvariant \"Maxi\"",
            Check::DuplicateStatement,
            "\"Maxi\"",
        ),
        ("  e: . G K G .", "  e: . G K G .\n  d: P 4", Check::SquareTaken, "d"),
        (
            "board 5 x 5",
            "board 5 x 5\noption x = a | b | a",
            Check::DuplicateOption,
            "a",
        ),
    ];
    for (from, to, check, under) in cases {
        let report = compile_text("twice.var", &base.replace(from, to)).report;
        assert_eq!(checks(&report), [*check], "{to}:\n{}", report.render(false));
        let (text, _, _) = label(&report, 0, 0);
        assert!(text.contains(under), "{to}: {text}");
    }
}

#[test]
fn options_chosen_on_the_command_line_are_checked() {
    let text = std::fs::read_to_string(path("no-move")).unwrap();
    let source = Source {
        name: "o.var".into(),
        text: text.as_str().into(),
    };
    let choices = [
        "strong-golds=yes".parse().unwrap(),
        "strong-gold=maybe".parse().unwrap(),
    ];
    let report = compile::compile(source, &MemoryLoader::default(), &choices).report;
    // The bad value is labelled at the declaration; the unknown name has no place in the file.
    assert_eq!(
        checks(&report),
        [Check::UnknownOption, Check::UnknownOptionValue, Check::NoMove]
    );
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("did you mean `strong-gold`?")
    );
    assert_eq!(
        report.diagnostics[1].message,
        "--option strong-gold=maybe: option `strong-gold` has no value `maybe`"
    );
    assert_eq!(label(&report, 1, 0).0, "strong-gold");
    let _ = report.render(false);

    // With the option on, the Gold moves.
    let source = Source {
        name: "o.var".into(),
        text: text.as_str().into(),
    };
    let choices = ["strong-gold=yes".parse().unwrap()];
    let compiled = compile::compile(source, &MemoryLoader::default(), &choices);
    assert!(
        compiled.report.diagnostics.is_empty(),
        "{}",
        compiled.report.render(false)
    );
}

#[test]
fn a_missing_board_does_not_stop_the_other_checks() {
    let text = std::fs::read_to_string(path("missing-board")).unwrap();
    let text = text.replace("step all", "step al");
    let report = compile_text("m.var", &text).report;
    assert_eq!(checks(&report), [Check::MissingBoard, Check::UnknownDirection]);
}

#[test]
fn a_rule_that_needs_a_zone_finds_it_wherever_it_is_stated() {
    let text = std::fs::read_to_string(path("rule-needs-another")).unwrap();
    let text = text.replace("promotion capture\n", "") + "promotion zone 1\n";
    let report = compile_text("z.var", &text).report;
    assert!(!report.has_errors(), "{}", report.render(false));
}

// ---------------------------------------------------------------- limits

#[test]
fn limit_too_many_piece_kinds() {
    let mut text = String::from("variant \"Many\"\nboard 9 x 9\n");
    for i in 0..1001 {
        text.push_str(&format!("piece Q{} \"Piece {i}\" : step all\n", letters(i)));
    }
    text.push_str("piece K \"King\" royal : step all\nsetup\n  i: 4 K 4\n");
    let report = compile_text("many.var", &text).report;
    assert!(checks(&report).contains(&Check::Limit), "{}", report.render(false));
    let limit = report.diagnostics.iter().find(|d| d.check == Check::Limit).unwrap();
    assert!(limit.message.contains("1002 piece kinds"), "{}", limit.message);
}

/// Letters for a number, for generated abbreviations: 0 → `a`, 27 → `bb`.
fn letters(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push(char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            return s;
        }
    }
}

#[test]
fn limit_file_too_large() {
    let text = "# padding\n".repeat(koma::compile::source::MAX_SOURCE_BYTES / 10 + 1);
    let report = compile_text("large.var", &text).report;
    assert_eq!(checks(&report), [Check::Limit]);
    assert!(report.diagnostics[0].message.contains("at most"));
    let _ = report.render(false);
}

/// Past the movement tables' runs (not their squares), the label counts runs.
#[test]
fn limit_movement_table_runs_label_counts_runs() {
    // 421 kinds that each leap to every square of a 36 × 36 board: 10,080 runs apiece (5,040
    // a side), 4,243,696 in all with the King, past the 2^22 runs.
    let text = support::leapers_var(420);
    let report = compile_text("leapers.var", &text).report;
    let limit = report
        .diagnostics
        .iter()
        .find(|d| d.check == Check::Limit)
        .unwrap_or_else(|| panic!("{}", report.render(false)));
    assert!(limit.message.contains("4243696 runs of squares"), "{}", limit.message);
    assert_eq!(limit.labels[0].text, "the most of any kind: 10080 runs");
}

#[test]
fn limit_too_many_broken_lines() {
    let text = "variant \"Broken\"\nboard 9 x 9\n".to_string() + &"board x\n".repeat(80);
    let report = compile_text("broken.var", &text).report;
    let syntax = report.diagnostics.iter().filter(|d| d.check == Check::Syntax).count();
    assert_eq!(syntax, koma::parse::MAX_SYNTAX_ERRORS);
    let limit = report.diagnostics.iter().find(|d| d.check == Check::Limit).unwrap();
    assert_eq!(
        limit.message,
        "50 statements could not be read; the 30 statements from here on were not read"
    );
    let rendered = report.render(false);
    assert!(rendered.contains("koma::limit"));
}

#[test]
fn limit_too_many_problems() {
    let clause = "step forward forward, ".repeat(400);
    let text = format!("variant \"X\"\nboard 9 x 9\npiece K \"King\" royal : {clause}step all\nsetup\n  i: 4 K 4\n");
    let report = compile_text("long.var", &text).report;
    assert_eq!(report.diagnostics.len(), compile::MAX_DIAGNOSTICS + 1);
    assert_eq!(report.diagnostics.last().unwrap().check, Check::Limit);
}

// ---------------------------------------------------------------- the command line

#[test]
fn koma_check_exits_1_on_errors_and_0_on_warnings() {
    let out = koma(&["check", "tests/broken/unknown-direction.var"]);
    assert_eq!(out.code, Some(1));
    let text = out.stdout;
    assert!(text.contains("koma::unknown-direction"), "{text}");
    assert!(text.contains("tests/broken/unknown-direction.var:6:43"), "{text}");
    assert!(text.contains("invalid: tests/broken/unknown-direction.var: 1 error, 0 warnings"));

    let out = koma(&["check", "tests/broken/unused-piece.var", "tests/broken/stuck-piece.var"]);
    assert_eq!(out.code, Some(0));
    let text = out.stdout;
    assert!(
        text.contains("ok: tests/broken/unused-piece.var: 0 errors, 1 warning"),
        "{text}"
    );
    assert!(
        text.contains("ok: tests/broken/stuck-piece.var: 0 errors, 1 warning"),
        "{text}"
    );

    // One file with an error among valid ones fails the run; all are reported.
    let out = koma(&["check", "shogi", "tests/broken/many-errors.var"]);
    assert_eq!(out.code, Some(1));
    let text = out.stdout;
    assert!(text.contains("ok: shogi: 0 errors, 0 warnings"), "{text}");
    assert!(
        text.contains("invalid: tests/broken/many-errors.var: 6 errors, 0 warnings"),
        "{text}"
    );

    // No colour when the output is not a terminal.
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn koma_check_writes_json_for_tools() {
    let out = koma(&[
        "check",
        "--format",
        "json",
        "tests/broken/duplicate-abbreviation.var",
        "tests/broken/missing-name.var",
        "tests/broken/no-such-file.var",
    ]);
    assert_eq!(out.code, Some(1));
    let json: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    let files = json.as_array().unwrap();
    assert_eq!(files.len(), 3);

    let first = &files[0];
    assert_eq!(first["file"], "tests/broken/duplicate-abbreviation.var");
    assert_eq!(first["valid"], false);
    assert_eq!(first["errors"], 1);
    let d = &first["diagnostics"][0];
    assert_eq!(d["code"], "koma::duplicate-abbreviation");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["message"], "two pieces are abbreviated `G`");
    assert_eq!(d["labels"][0]["line"], 7);
    assert_eq!(d["labels"][0]["column"], 7);
    assert_eq!(d["labels"][0]["text"], "defined again here");
    assert_eq!(d["labels"][1]["line"], 6);
    assert!(d["help"].is_string());

    let second = &files[1];
    assert_eq!(second["valid"], true);
    assert_eq!(second["warnings"], 1);
    assert_eq!(second["diagnostics"][0]["severity"], "warning");
    assert_eq!(second["diagnostics"][0]["code"], "koma::missing-name");

    let third = &files[2];
    assert_eq!(third["valid"], false);
    assert_eq!(third["diagnostics"][0]["code"], "koma::unknown-variant");
}

/// Writes `text` to a file of its own for `koma check`; returns its path.
fn temp_file(name: &str, text: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diagnostics");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Columns are characters, as editors count them, in the text report and in JSON alike: on
/// a line with kanji the column after them is the same in both.
#[test]
fn columns_count_characters_in_text_and_json() {
    let text = "variant \"K\"\nboard 5 x 5\npiece K \"王将\" royal : step al\nsetup\n  e: . . K . .\n";
    let file = temp_file("kanji.var", text);
    let out = koma(&["check", &file]);
    let report = out.stdout;
    assert!(report.contains(&format!("{file}:3:27]")), "{report}");

    let out = koma(&["check", "--format", "json", &file]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let label = &json[0]["diagnostics"][0]["labels"][0];
    assert_eq!((label["line"].clone(), label["column"].clone()), (3.into(), 27.into()));
    // `start` and `end` stay byte offsets into the file.
    let start = label["start"].as_u64().unwrap() as usize;
    assert_eq!(&text[start..start + 2], "al");
}

/// A UTF-8 byte-order mark at the start of a file is skipped: the file reads as without it,
/// and spans (byte offsets into the file as it is) and columns (without the mark) stay right.
#[test]
fn byte_order_mark_is_skipped() {
    let valid = std::fs::read_to_string("variants/shogi.var").unwrap();
    let file = temp_file("bom-valid.var", &format!("\u{feff}{valid}"));
    let out = koma(&["check", &file]);
    let report = out.stdout;
    assert_eq!(out.code, Some(0), "{report}");
    assert!(report.contains("0 errors, 0 warnings"), "{report}");

    let text = "\u{feff}board 9 x\npiece K \"King\" royal : step al\n";
    let file = temp_file("bom-broken.var", text);
    let out = koma(&["check", &file]);
    let report = out.stdout;
    // No message or label names the mark (the drawn line holds it, invisible, as the file does).
    let said = report.lines().filter(|l| l.contains('×') || l.contains("──"));
    assert!(said.clone().all(|l| !l.contains('\u{feff}')), "{report}");
    assert!(report.contains(&format!("{file}:1:10]")), "{report}");
    assert!(report.contains(&format!("{file}:2:29]")), "{report}");

    let report = compile_text("bom.var", text).report;
    let at = |check| checks(&report).iter().position(|&c| c == check).unwrap();
    assert_eq!(label(&report, at(Check::Syntax), 0).1, (1, 10));
    assert_eq!(
        label(&report, at(Check::UnknownDirection), 0),
        ("al".into(), (2, 29), "unknown direction".into())
    );
}

/// `koma check DIR` checks the `.var` files directly in DIR, sorted by name, and says so;
/// a directory without one is an error.
#[test]
fn koma_check_dir_checks_its_var_files() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub.var")).unwrap();
    let shogi = std::fs::read_to_string("variants/shogi.var").unwrap();
    std::fs::write(dir.join("b.var"), &shogi).unwrap();
    std::fs::write(dir.join("a.var"), shogi.replace("step all", "step al")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a variant").unwrap();
    let name = dir.to_str().unwrap();
    let out = koma(&["check", name]);
    assert_eq!(out.code, Some(1));
    let text = out.stdout;
    let verdicts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("ok:") || l.starts_with("invalid:") || l.contains("checking"))
        .collect();
    assert_eq!(
        verdicts,
        [
            format!("{name}: checking the 3 .var files in it"),
            format!("invalid: {name}/a.var: 1 error, 0 warnings"),
            format!("ok: {name}/b.var: 0 errors, 0 warnings"),
            format!("invalid: {name}/sub.var: 1 error, 0 warnings"),
        ],
        "{text}"
    );
    assert!(
        text.contains(&format!("{name}/sub.var is a directory, not a variant file")),
        "{text}"
    );

    let out = koma(&["check", "--format", "json", name]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let files: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            format!("{name}/a.var"),
            format!("{name}/b.var"),
            format!("{name}/sub.var")
        ]
    );

    let empty = dir.join("sub.var");
    let out = koma(&["check", empty.to_str().unwrap()]);
    assert_eq!(out.code, Some(1));
    let text = out.stdout;
    assert!(text.contains("holds no .var file"), "{text}");
}

/// What is not a regular file is named for what it is, given as a variant or by `use`,
/// never "no file": a directory, a FIFO, a device.
#[test]
fn a_variant_that_is_not_a_regular_file_is_named_as_such() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("not-files");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe.var");
    if !fifo.exists() {
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
    }
    let cases = [
        (dir.to_str().unwrap().to_string() + "/", "a directory"),
        (fifo.to_str().unwrap().to_string(), "a FIFO (named pipe)"),
        ("/dev/null".to_string(), "a device"),
    ];
    for (path, kind) in &cases {
        let out = koma(&["play", path]);
        let text = out.text();
        assert_ne!(out.code, Some(0), "{text}");
        assert!(
            text.contains(&format!("is {kind}, not a variant file")),
            "{path}: {text}"
        );
        assert!(!text.contains("no shipped variant"), "{text}");
    }
    // A FIFO given to `koma check` is refused without blocking.
    let out = koma(&["check", fifo.to_str().unwrap()]);
    let text = out.stdout;
    assert!(text.contains("is a FIFO (named pipe), not a variant file"), "{text}");
    assert!(text.contains("koma::unknown-variant"), "{text}");

    let report = compile_broken("unknown-variant-directory").report;
    assert_eq!(
        report.diagnostics[0].message,
        "tests/broken/. is a directory, not a variant file"
    );
    assert_eq!(label(&report, 0, 0), ("\".\"".into(), (4, 5), "cannot be read".into()));
}

/// A variant file past 4 MiB is `koma::limit`, as the table of limits in docs/cli.md says.
#[test]
fn an_oversize_variant_file_is_a_limit() {
    let size = koma::compile::source::MAX_SOURCE_BYTES + 1;
    let file = temp_file("oversize.var", &"#".repeat(size));
    let out = koma(&["check", "--format", "json", &file]);
    assert_eq!(out.code, Some(1));
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json[0]["diagnostics"][0]["code"], "koma::limit");
    let used = temp_file("uses-oversize.var", "variant \"U\"\nboard 5 x 5\nuse \"oversize\"\n");
    let out = koma(&["check", &used]);
    let text = out.stdout;
    assert!(text.contains("koma::limit"), "{text}");
    assert!(text.contains("too large"), "{text}");
    assert!(!text.contains("koma::unknown-variant"), "{text}");
}

// ---------------------------------------------------------------- nothing makes koma panic

/// Compiles and renders `text`; returns the report.
fn survive(name: &str, text: &str) -> Report {
    let compiled = compile_text(name, text);
    let rendered = compiled.report.render(false);
    let _ = compiled.report.render(true);
    for d in &compiled.report.diagnostics {
        for l in &d.labels {
            assert!(
                l.span.start <= l.span.end && l.span.end <= d.source.text.len(),
                "{name}"
            );
            assert!(d.source.text.is_char_boundary(l.span.start), "{name}");
            assert!(d.source.text.is_char_boundary(l.span.end), "{name}");
            let _ = d.source.line_column(l.span.start);
        }
    }
    assert!(!rendered.is_empty() || compiled.rules.is_some(), "{name}");
    compiled.report
}

#[test]
fn empty_and_comment_only_files() {
    for text in ["", "\n", "   \n\t\n", "# only a comment", "# one\n# two\n\n# three\n"] {
        let report = survive("empty.var", text);
        assert_eq!(checks(&report), [Check::MissingBoard], "{text:?}");
        assert_eq!(report.diagnostics[0].message, "the file holds no statement");
    }
}

#[test]
fn binary_garbage_and_nul_bytes() {
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    bytes.extend_from_slice(b"\0piece K \"King\" royal : step all\0\n\0\0\0");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let report = survive("garbage.var", &text);
    assert!(checks(&report).contains(&Check::Syntax));
    survive("nul.var", "variant \"a\0b\"\nboard 9\0 x 9\n\0");
    survive("nul-only.var", "\0");
    survive(
        "cr.var",
        "variant \"CR\"\r\nboard 9 x 9\r\npiece K \"King\" royal : step all\r\n",
    );
    survive("bom.var", "\u{feff}variant \"BOM\"\n");
    survive("wide.var", "piece 王 \"王将\" : step all\nsetup\n  a: 王 . .\n");
}

#[test]
fn huge_numbers() {
    let report = survive("huge.var", "board 99999999999999999999 x 9\n");
    assert!(checks(&report).contains(&Check::BoardSize));
    let base = std::fs::read_to_string(path("bad-distance")).unwrap();
    for (from, to) in [
        ("range 0 forward", "range 4294967296 forward"),
        ("range 0 forward", "jump 99999999999999999999 forward"),
        ("range 0 forward", "leap (99999999999999999999, -99999999999999999999)"),
        ("range 0 forward", "lion 4294967295"),
        (
            "promotes +P",
            "promotes +P value 99999999999999999999 must-promote 99999999999",
        ),
        ("promotion zone 1", "promotion zone 99999999999999999999"),
        ("promotion zone 1", "repetition 99999999999999999999 draw"),
        ("promotion zone 1", "drops\ndrop-limit P 99999999999999999999 per file"),
        ("promotion zone 1", "handicap \"X\" 99999999999999999999a 1zzzzzzzz"),
        ("d: 4 P", "d: 99999999999999999999 P"),
        ("d: 4 P", "zzzzzz: 4 P"),
    ] {
        let text = base.replace(from, to);
        let report = survive("huge.var", &text);
        assert!(report.has_errors(), "{to}:\n{}", report.render(false));
    }
}

#[test]
fn a_file_that_uses_itself() {
    let text =
        "variant \"Self\"\nboard 5 x 5\nuse \"self\"\npiece K \"King\" royal : step all\nsetup\n  e: . . K . .\n";
    let loader = MemoryLoader {
        files: vec![("self.var".into(), text.into())],
    };
    let source = Source {
        name: "self.var".into(),
        text: text.into(),
    };
    let report = compile::compile(source, &loader, &[]).report;
    assert_eq!(checks(&report), [Check::RecursiveUse], "{}", report.render(false));
    assert_eq!(report.diagnostics[0].message, "`self.var` uses itself");

    // Two files that use each other: reported in the one that closes the circle.
    let a = "variant \"A\"\nboard 5 x 5\nuse \"b\"\npiece K \"King\" royal : step all\nsetup\n  e: . . K . .\n";
    let b = "piece G \"Gold\" : step all\nuse \"a\"\n";
    let loader = MemoryLoader {
        files: vec![("a.var".into(), a.into()), ("b.var".into(), b.into())],
    };
    let source = Source {
        name: "a.var".into(),
        text: a.into(),
    };
    let report = compile::compile(source, &loader, &[]).report;
    let cycle = report
        .diagnostics
        .iter()
        .find(|d| d.check == Check::RecursiveUse)
        .unwrap();
    assert_eq!(cycle.source.name, "b.var");
    assert_eq!(cycle.message, "`use` goes round in a circle: a.var → b.var → a.var");
    let _ = report.render(false);
}

#[test]
fn long_lines_and_deep_nesting() {
    let long_word = "x".repeat(200_000);
    survive("long-word.var", &long_word);
    survive("long-keyword.var", &format!("promtion{long_word} zone 1\n"));
    survive("long-piece.var", &format!("piece K \"King\" : step {long_word}\n"));
    survive("long-name.var", &format!("piece K \"{long_word}\" : step al\n"));
    survive(
        "parens.var",
        &format!("piece K \"King\" : leap {}\n", "(".repeat(100_000)),
    );
    survive("nested.var", &format!("{}{}", "(".repeat(50_000), ")".repeat(50_000)));
    let clauses = vec!["step forward"; 5_000].join(", ");
    survive("many-clauses.var", &format!("piece K \"King\" royal : {clauses}\n"));
    let wrapped = vec!["step forward"; 2_000].join(",\n");
    survive("wrapped.var", &format!("piece K \"King\" royal : {wrapped}\n"));
    survive("commas.var", &",".repeat(100_000));
    survive("colons.var", &":\n".repeat(10_000));
    survive("setup-rows.var", &format!("setup\n{}", "  a: K K K\n".repeat(5_000)));
    survive("many-lines.var", &"board x\n".repeat(20_000));
}

#[test]
fn odd_statements() {
    for text in [
        "setup",
        "setup white",
        "setup\n  a:",
        "setup\n  :",
        "piece",
        "piece K",
        "piece K \"King\"",
        "piece K \"King\" :",
        ":",
        "use",
        "use \"\"",
        "use \"\": K",
        "use \"/\"",
        "use \"..\"",
        "option",
        "option x",
        "option x = a | a | a",
        "variant \"\"\nvariant \"\"",
        "handicap \"\"",
        "piece K \"King\" : step all when",
        "piece K \"King\" : as K",
        "piece K \"King\" promotes K must-promote 0 : as K",
        "piece +K \"King\" : lion 0 forward, hook all, anywhere, capture-unprotected move-only leap (0, 0)",
        "promotion zone 0\ndeferral\ndeclined-waits-for-last-rank K\nlion-trading K bridge-excludes K\ncounter-strike K",
        "last-rank-promotion-optional K K +K",
    ] {
        survive("odd.var", text);
    }
}

#[test]
fn mistakes_in_a_used_file_are_reported_in_that_file() {
    let main = "variant \"Main\"\nboard 5 x 5\nuse \"lib\"\nsetup\n  e: . G K G .\n";
    let lib = "# pieces\npiece K \"King\" royal : step all\npiece G \"Gold\" : step orthogonal forwards\n";
    let loader = MemoryLoader {
        files: vec![("lib.var".into(), lib.into())],
    };
    let source = Source {
        name: "main.var".into(),
        text: main.into(),
    };
    let report = compile::compile(source, &loader, &[]).report;
    assert_eq!(checks(&report), [Check::UnknownDirection], "{}", report.render(false));
    let d = &report.diagnostics[0];
    assert_eq!(d.source.name, "lib.var");
    assert_eq!(d.source.line_column(d.labels[0].span.start), (3, 34));
    assert!(report.render(false).contains("[lib.var:3:34]"));
}

#[test]
fn last_rank_promotion_optional_names_pieces_that_promote_without_must_promote() {
    let text = "variant \"L\"\nboard 5 x 5\npiece K \"King\" royal : step all\n\
                piece P \"Pawn\" promotes G : step forward\npiece L \"Lance\" promotes G must-promote 1 : slide forward\n\
                piece G \"Gold\" : step orthogonal forward-diagonal\npromotion zone 1\n\
                last-rank-promotion-optional P K L\nsetup\n  e: L P K . .\n";
    let report = compile_text("last-rank.var", text).report;
    assert_eq!(
        checks(&report),
        [Check::RuleNeedsAnother, Check::ContradictoryClause],
        "{}",
        report.render(false)
    );
    let (under, (line, column), _) = label(&report, 0, 0);
    assert_eq!((under.as_str(), line, column), ("K", 8, 32));
    let (under, (line, column), _) = label(&report, 1, 0);
    assert_eq!((under.as_str(), line, column), ("L", 8, 34));
    // The Pawn may stay on the last rank: no stuck-piece warning for it.
    assert!(!report.render(false).contains("stuck"), "{}", report.render(false));
}

/// `capture-unprotected-protects` is about capture-unprotected moves: in a variant where no
/// piece has one it is an error at the statement; with such a piece, it compiles.
#[test]
fn capture_unprotected_protects_needs_a_capture_unprotected_move() {
    let text = std::fs::read_to_string(path("rule-needs-another")).unwrap();
    let text = text.replace("deferral\n", "capture-unprotected-protects\n");
    let report = compile_text("u.var", &text).report;
    assert_eq!(checks(&report), [Check::RuleNeedsAnother]);
    let rendered = report.render(false);
    assert!(
        rendered.contains("no piece has one") && rendered.contains("u.var:15:1"),
        "{rendered}"
    );
    let text = text.replace(
        "step orthogonal forward-diagonal",
        "step orthogonal forward-diagonal, capture-unprotected anywhere",
    );
    let report = compile_text("u.var", &text).report;
    assert!(!report.has_errors(), "{}", report.render(false));
}

/// A name with an escape sequence or NUL is refused by `check`, and neither `check` nor
/// `show` writes the character raw (it passed `check`, and `show` printed it to the
/// terminal): the source line shows `?`, a message quoting the name `\u{1b}`.
#[test]
fn a_control_character_in_a_name_is_refused_and_never_printed_raw() {
    let file = path("control-character");
    let text = std::fs::read_to_string(&file).unwrap();
    let twice = text.replace("piece K  \"King\"", "piece K  \"Gold\u{1b}[31m\"");
    let dir = support::folder("diagnostics", "control-character");
    let duplicate = dir.join("duplicate.var");
    std::fs::write(&duplicate, twice).unwrap();
    for (command, file) in [
        ("check", file.as_str()),
        ("show", file.as_str()),
        ("check", support::path(&duplicate)),
    ] {
        let run = koma(&[command, file]);
        assert_eq!(run.code, Some(1), "{command} {file}: {}", run.text());
        let output = run.text();
        assert!(output.contains("koma::control-character"), "{output}");
        assert!(!output.contains(['\u{1b}', '\u{0}']), "{command} {file}: {output:?}");
    }
}

/// Past the broken statements shown, the rest of a file is not read, only noted: each line
/// costs a look at its first words. A file of bad lines took 9 s for 4 MB (docs/cli.md promises
/// 0.1-0.4 s for 1 MB), describing every broken line though only 50 are shown; a statement
/// noted but not read is not reported missing either.
#[test]
fn past_the_broken_statements_shown_the_rest_is_not_read() {
    let text = "variant \"Broken\"\n".to_string() + &"x\n".repeat(60) + "board 9 x 9\n";
    let report = compile_text("broken.var", &text).report;
    let limit = report.diagnostics.iter().find(|d| d.check == Check::Limit).unwrap();
    assert_eq!(
        limit.message,
        "50 statements could not be read; the 11 statements from here on were not read"
    );
    assert!(
        !checks(&report).contains(&Check::MissingBoard),
        "{}",
        report.render(false)
    );
    let (_, errors) = koma::parse::parse(&"x\n".repeat(2_000_000));
    assert!(
        errors.len() <= koma::parse::MAX_SYNTAX_ERRORS + 1,
        "{} errors kept",
        errors.len()
    );
}
