//! The evaluation's weights as data: the weights file drives the evaluation (each variant by
//! its own set, or the default), a user's file is read with `--weights`, its faults are named
//! where they are, and the commands a tuning run uses (`koma selfplay`, `koma eval-terms`)
//! write and read games as they say.

mod support;

use koma::engine::{Evaluator, WeightFile};
use koma::game::Position;
use koma::notation::{read_sfen, read_usi};
use support::protocol::Engine;
use support::{koma, koma_with, tables};

/// Shogi's start with White's fifth-file Pawn in Black's hand.
const PAWN_IN_HAND: &str = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1";

fn shogi(sfen: &str) -> Position {
    read_sfen(&tables("shogi", &[]), sfen).unwrap()
}

/// The built-in file with `change` made to the set of `variant` (a copy of the default if it
/// has none).
fn changed(variant: &str, change: impl Fn(&mut koma::engine::Weights)) -> WeightFile {
    let mut file = (*WeightFile::built_in()).clone();
    let mut set = file.for_variant(variant).clone();
    change(&mut set.weights);
    file.variants.insert(variant.into(), set);
    file
}

#[test]
fn the_weights_file_drives_the_evaluation() {
    let pos = shogi(PAWN_IN_HAND);
    let built_in = WeightFile::built_in();
    let percent = built_in.for_variant("Shogi").weights.hand_percent;
    let before = Evaluator::new(pos.tables().clone(), &built_in).evaluate(&pos);
    let more = changed("Shogi", |w| w.hand_percent += 40);
    let after = Evaluator::new(pos.tables().clone(), &more).evaluate(&pos);
    // A Pawn (100) in hand is worth `hand_percent` of it.
    assert_eq!(after - before, 100 * (percent + 40) / 100 - 100 * percent / 100);
}

#[test]
fn each_variant_is_evaluated_with_its_own_set_or_the_default() {
    let pos = shogi(PAWN_IN_HAND);
    let built_in = WeightFile::built_in();
    let evaluate = |file: &WeightFile| Evaluator::new(pos.tables().clone(), file).evaluate(&pos);
    // Another variant's set leaves Shogi alone.
    assert_eq!(
        evaluate(&changed("Chu Shogi", |w| w.hand_percent += 40)),
        evaluate(&built_in)
    );
    // Without a set of its own, Shogi takes the default's.
    let mut file = (*built_in).clone();
    file.variants.shift_remove("Shogi");
    let default_only = evaluate(&file);
    file.default.weights.hand_percent += 40;
    assert!(evaluate(&file) > default_only);
}

#[test]
fn a_sets_values_replace_the_declared_values_of_its_kinds_on_the_board_and_in_hand() {
    // Black has nine Pawns on the board and one in hand, White eight.
    let pos = shogi(PAWN_IN_HAND);
    let built_in = WeightFile::built_in();
    let percent = built_in.for_variant("Shogi").weights.hand_percent;
    let evaluate = |file: &WeightFile| Evaluator::new(pos.tables().clone(), file).evaluate(&pos);
    let before = evaluate(&built_in);
    let dearer = changed("Shogi", |w| {
        w.values.insert("Pawn".into(), 150);
    });
    // The Pawn more on the board, and the one in hand at `hand_percent` of the new value.
    assert_eq!(
        evaluate(&dearer) - before,
        50 + 150 * percent / 100 - 100 * percent / 100
    );
    let held = changed("Shogi", |w| {
        w.hand_values.insert("Pawn".into(), 300);
    });
    assert_eq!(evaluate(&held) - before, 300 - 100 * percent / 100);
}

/// The built-in file with a set for Minishogi of the default's weights and `extra` (RON).
fn with_minishogi_values(extra: &str) -> Result<WeightFile, koma::engine::WeightsError> {
    // The built-in file without its own set for Minishogi (`scripts/tune.py` writes each set
    // from `"NAME": (` to `),` at the same indentation).
    let mut text = include_str!("../src/engine/weights.ron").to_string();
    if let Some(start) = text.find("        \"Minishogi\": (") {
        let end = start + text[start..].find("\n        ),\n").unwrap() + "\n        ),\n".len();
        text.replace_range(start..end, "");
    }
    let default = &text[text.find("weights: (").unwrap()..text.find("source:").unwrap()];
    let set = default.replacen("weights: (", &format!("weights: ({extra}"), 1);
    let entry = format!(
        "\"Minishogi\": ({set} source: {}),\n",
        "(games: \"\", positions: 0, k: None, ridge: None, loss_before: None, loss_after: None, held_out_before: None, held_out_after: None, date: \"\", commit: \"\")"
    );
    let text = text.replacen("variants: {", &format!("variants: {{ {entry}"), 1);
    WeightFile::parse("w.ron", &text)
}

#[test]
fn a_set_valuing_a_kind_its_variant_lacks_is_an_error_at_the_kind() {
    let file = with_minishogi_values(r#"values: {"Pawn": 150, "Silver General": 550},"#).unwrap();
    assert_eq!(file.for_variant("Minishogi").weights.values["Pawn"], 150);
    for (extra, why) in [
        (r#"values: {"Lance": 300},"#, "Minishogi has no kind \"Lance\""),
        (r#"hand_values: {"Tokin": 300},"#, "never held in hand"),
        (r#"values: {"Pawn": -5},"#, "not between 0 and 100000"),
    ] {
        let err = with_minishogi_values(extra).unwrap_err();
        let koma::engine::WeightsError::Kinds { message, at, .. } = &err else {
            panic!("{err:?}")
        };
        assert!(message.contains(why), "{extra}: {message}");
        assert!(at.len() > 2, "{extra}: {at:?}");
    }
    let text = include_str!("../src/engine/weights.ron").replacen("mobility:", "values: {\"Pawn\": 100}, mobility:", 1);
    let err = WeightFile::parse("w.ron", &text).unwrap_err();
    assert!(err.to_string().contains("the default set"), "{err}");
}

#[test]
fn a_missing_weights_file_is_an_error_naming_it() {
    let run = koma(&["usi", "--weights", "no-such-weights.ron"]);
    assert!(!run.ok());
    assert!(run.stderr.contains("no-such-weights.ron"), "{}", run.stderr);
}

#[test]
fn a_faulty_weights_file_is_an_error_at_its_line() {
    let dir = std::env::temp_dir().join(format!("koma-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("faulty.ron");
    let text = include_str!("../src/engine/weights.ron").replacen("centre:", "center:", 1);
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().position(|l| l.contains("center:")).unwrap() + 1;
    for command in ["usi", "xboard", "play"] {
        let run = koma(&[command, "shogi", "--weights", path.to_str().unwrap()]);
        assert!(!run.ok(), "{command}");
        assert!(run.stderr.contains("center"), "{command}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("faulty.ron:{line}:")),
            "{command}: {}",
            run.stderr
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usi_plays_with_the_weights_file_given() {
    let dir = std::env::temp_dir().join(format!("koma-weights-usi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.ron");
    std::fs::write(&path, include_str!("../src/engine/weights.ron")).unwrap();
    let mut engine = Engine::start(&["usi", "--weights", path.to_str().unwrap()]);
    engine.send("usi");
    engine.expect("usiok");
    engine.send("position startpos");
    engine.send("go depth 2");
    engine.expect("bestmove");
    engine.quit("quit");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_writes_each_game_as_its_result_and_legal_moves() {
    let run = koma(&[
        "selfplay",
        "shogi",
        "--games",
        "2",
        "--depth",
        "1",
        "--random-plies",
        "4",
        "--max-plies",
        "30",
    ]);
    assert!(run.ok(), "{}", run.text());
    let games: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(games.len(), 2);
    for game in games {
        let mut words = game.split_whitespace();
        assert!(matches!(words.next(), Some("black" | "white" | "draw")), "{game}");
        let mut pos = shogi("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let mut plies = 0;
        for word in words {
            let m = read_usi(&pos, word).unwrap_or_else(|e| panic!("{word}: {e}"));
            pos.make(&m);
            plies += 1;
        }
        assert!((1..=30).contains(&plies), "{game}");
    }
    assert!(run.stderr.contains("first engine: +"), "{}", run.stderr);
}

/// `--against-depth` limits the second engine alone, whichever colour it plays: each game's
/// report gives the depth each engine's searches completed on average.
#[test]
fn selfplay_against_depth_limits_the_second_engine_alone() {
    let run = koma(&[
        "selfplay",
        "shogi",
        "--games",
        "2",
        "--depth",
        "2",
        "--against-depth",
        "1",
        "--random-plies",
        "2",
        "--max-plies",
        "12",
    ]);
    assert!(run.ok(), "{}", run.text());
    let reports: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(reports.len(), 2, "{}", run.stderr);
    assert!(reports[0].contains("first engine Black"), "{}", reports[0]);
    assert!(reports[1].contains("first engine White"), "{}", reports[1]);
    for report in reports {
        assert!(report.contains("first engine depth 2.0,"), "{report}");
        assert!(report.contains("second engine depth 1.0,"), "{report}");
    }
}

/// A time per move that is no number of seconds (negative, not a number) is refused with the
/// option's name, not a panic.
#[test]
fn selfplay_refuses_a_time_that_is_no_number_of_seconds() {
    for bad in ["--against-movetime=-1", "--movetime=nan"] {
        let run = koma(&["selfplay", "shogi", "--games", "1", bad]);
        assert!(!run.ok(), "{bad}: {}", run.text());
        let option = bad.split('=').next().unwrap();
        assert!(
            run.stderr.contains(&format!("error: {option} ")),
            "{bad}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{bad}: {}", run.stderr);
    }
}

#[test]
fn eval_terms_prints_terms_whose_weighed_sum_is_the_evaluation() {
    let games = "draw 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b\n";
    let run = koma_with(&["eval-terms", "shogi", "--skip", "2"], &[], games);
    assert!(run.ok(), "{}", run.text());
    let mut lines = run.stdout.lines();
    let values: Vec<(&str, f64)> = lines
        .next()
        .unwrap()
        .split('\t')
        .skip(1)
        .map(|c| {
            let (name, value) = c.rsplit_once('=').unwrap();
            (name, value.parse().unwrap())
        })
        .collect();
    assert!(values.contains(&("board:Pawn", 100.0)), "{values:?}");
    let weights = WeightFile::built_in().for_variant("Shogi").weights.clone();
    let in_hand = f64::from(100 * weights.hand_percent / 100);
    assert!(values.contains(&("hand:Pawn", in_hand)), "{values:?}");
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(&header[..5], ["game", "ply", "result", "eval", "material"]);
    let kinds = header.iter().position(|c| c.contains(':')).unwrap();
    assert_eq!(header[kinds..].len(), values.len());
    let weight = |name: &str| match name {
        "hand_percent" => weights.hand_percent,
        "advance" => weights.advance,
        "centre" => weights.centre,
        "royal_advance" => weights.royal_advance,
        "zone_percent" => weights.zone_percent,
        "mobility" => weights.mobility,
        "royal_attack" => weights.royal_attack,
        "king_danger" => weights.king_danger,
        "protected_lion_percent" => weights.protected_lion_percent,
        other => panic!("no weight {other}"),
    };
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert!(!rows.is_empty() && rows.len() <= 8, "{}", run.stdout);
    for row in rows {
        assert_eq!(row[2], "0.5");
        assert!(row[1].parse::<usize>().unwrap() >= 2);
        let eval: f64 = row[3].parse().unwrap();
        let material: f64 = row[4].parse().unwrap();
        let weighed: f64 = header[5..kinds]
            .iter()
            .zip(&row[5..kinds])
            .map(|(name, v)| f64::from(weight(name)) * v.parse::<f64>().unwrap())
            .sum();
        // Each piece's square bonus is rounded to a whole unit.
        assert!((eval - material - weighed).abs() <= 20.0, "{row:?}: {weighed}");
        // The material is each kind's value on the board times Black's pieces of it less
        // White's (Shogi's set fixes no value in hand).
        let counted: f64 = values
            .iter()
            .zip(&row[kinds..])
            .filter(|((name, _), _)| name.starts_with("board:"))
            .map(|((_, value), n)| value * n.parse::<f64>().unwrap())
            .sum();
        assert_eq!(counted, material, "{row:?}");
    }
}

#[test]
fn eval_terms_names_a_game_with_a_bad_move_and_leaves_it_out() {
    let games = "black 7g7f 3c3d\nwhite 7g7f 7g7f\nblack 2g2f\n";
    let run = koma_with(&["eval-terms", "shogi", "--skip", "0"], &[], games);
    assert!(run.ok(), "{}", run.text());
    assert!(
        run.stderr.contains("line 2: game left out: move 2 `7g7f`"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("2 games read, 1 left out"), "{}", run.stderr);
    assert!(
        run.stdout.lines().skip(1).all(|l| !l.starts_with("2\t")),
        "{}",
        run.stdout
    );
}

/// The king danger term of `sfen` (Shogi) from Black's point of view, with only king danger
/// counted: `king_danger` 100 and the `danger_*` weights `shape` (attacker, hand, weak,
/// check), so that a royal's danger of `units` counts `units² / 100` (10,000 being the
/// term's scale).
fn king_danger(sfen: &str, shape: [i32; 4]) -> f64 {
    let pos = shogi(sfen);
    let file = changed("Shogi", |w| {
        w.king_danger = 100;
        [w.danger_attacker, w.danger_hand, w.danger_weak, w.danger_check] = shape;
    });
    Evaluator::new(pos.tables().clone(), &file).terms(&pos).king_danger
}

/// A danger of `units` in the term (negated: it is White's royal's danger, seen by Black).
fn white_danger(units: i32) -> f64 {
    f64::from(units * units) / 10_000.0
}

#[test]
fn a_safe_drop_check_counts_in_the_royals_danger() {
    let check = [0, 0, 0, 100];
    // Black holds a Gold; dropped on 5b it would check White's King on 5a, and Black's Pawn
    // on 5c keeps the King from taking it there.
    assert_eq!(king_danger("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", check), white_danger(100));
    // Without the Pawn every drop check is next to the King, which takes the piece.
    assert_eq!(king_danger("4k4/9/9/9/9/9/9/9/4K4 b G 1", check), 0.0);
    // A White Gold on 4a defends 5b.
    assert_eq!(king_danger("4kg3/9/4P4/9/9/9/9/9/4K4 b G 1", check), 0.0);
    // Two pieces of one kind count as one: their checks are the same.
    assert_eq!(king_danger("4k4/9/4P4/9/9/9/9/9/4K4 b 2G 1", check), white_danger(100));
}

#[test]
fn a_drop_check_the_drop_rules_forbid_is_not_counted() {
    let check = [0, 0, 0, 100];
    // A Pawn dropped on 5b checks the King on 5a; Black's Lance on 5e (checking the King:
    // White to move) defends it there.
    assert_eq!(king_danger("4k4/9/9/9/4L4/9/9/9/4K4 w P 1", check), white_danger(100));
    // With a Black Pawn already on the file, the drop is forbidden (two Pawns on a file).
    assert_eq!(king_danger("4k4/9/9/9/4L4/9/4P4/9/4K4 w P 1", check), 0.0);
    // A Knight dropped on 4c or 6c checks the King on 5a: two checks of one kind.
    assert_eq!(king_danger("4k4/9/9/9/9/9/9/9/4K4 b N 1", check), white_danger(200));
}

#[test]
fn pieces_attacking_next_to_a_royal_count_in_its_danger() {
    let attacker = [100, 0, 0, 0];
    // A Rook on 5e attacks 5b, next to the King on 5a (and checks it: White to move); on 1e,
    // nothing next to it.
    assert_eq!(
        king_danger("4k4/9/9/9/4R4/9/9/9/4K4 w - 1", attacker),
        white_danger(100)
    );
    assert_eq!(king_danger("4k4/9/9/9/8R/9/9/9/4K4 b - 1", attacker), 0.0);
    // Black's King attacks nothing next to White's; White's Rook on 5e would be Black's danger.
    assert_eq!(
        king_danger("4k4/9/9/9/4r4/9/9/9/4K4 b - 1", attacker),
        -white_danger(100)
    );
}

#[test]
fn a_royals_neighbour_the_opponent_attacks_and_only_the_royal_defends_is_weak() {
    let weak = [0, 0, 100, 0];
    // A Rook on 4e attacks 4b and 4a, both next to the King on 5a.
    assert_eq!(king_danger("4k4/9/9/9/5R3/9/9/9/4K4 b - 1", weak), white_danger(200));
    // A White Gold on 3a defends both.
    assert_eq!(king_danger("4k1g2/9/9/9/5R3/9/9/9/4K4 b - 1", weak), 0.0);
}

#[test]
fn pieces_in_hand_count_in_the_royals_danger_squared_with_the_rest() {
    let shape = [100, 50, 0, 0];
    // Three pieces in hand: 150 units.
    assert_eq!(king_danger("4k4/9/9/9/8R/9/9/9/4K4 b 2PS 1", shape), white_danger(150));
    // With the Rook attacking next to the King, 250: the square of the sum, not the sum of
    // the squares.
    assert_eq!(king_danger("4k4/9/9/9/4R4/9/9/9/4K4 w 2PS 1", shape), white_danger(250));
}
