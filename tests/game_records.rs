//! What a game keeps and how it ends beyond the rules: each move as played (its text, what it
//! took), outcomes declared (a resignation, an agreed draw) and taken back, and a record of
//! each outcome that reads back as the same outcome.

use koma::game::{EndReason, Game, Outcome};
use koma::notation::{parse_record, read_move, replay, result_token, tags_with_outcome, write_record, write_tsa};
use koma::rules::Side;
use koma::variant::{Start, Variant};

fn shogi() -> Game {
    Variant::named("shogi", &[])
        .expect("Shogi compiles")
        .start(&Start::Initial)
        .expect("its start")
}

fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let m = read_move(game.position(), text).expect("a legal move");
        game.play(m).expect("legal");
    }
}

/// The record of `game` as koma writes it: its tags with its outcome, and its moves.
fn record_of(game: &mut Game) -> String {
    let mut tags = indexmap::IndexMap::new();
    tags.insert("Variant".to_string(), "shogi".to_string());
    let tags = tags_with_outcome(&tags, game.outcome().as_ref());
    write_record(&tags, &[], game)
}

/// A record read back and replayed in a new game, with the outcome it gives declared.
fn read_back(text: &str) -> Game {
    let record = parse_record(text).expect("the record reads");
    let mut game = shogi();
    replay(&mut game, &record).expect("the moves replay");
    if let Some(outcome) = record.outcome() {
        game.declare(outcome).expect("the moves do not end the game");
    }
    game
}

#[test]
fn the_game_keeps_each_moves_text_as_it_was_shown_and_undo_removes_it() {
    let mut game = shogi();
    let mut shown = Vec::new();
    for text in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        let m = read_move(game.position(), text).expect("a legal move");
        // The text a player is shown for the move before it is played.
        shown.push(write_tsa(game.position(), &m));
        game.play(m).expect("legal");
    }
    let kept: Vec<&str> = game.played().iter().filter_map(|p| p.text.as_deref()).collect();
    assert_eq!(kept, shown);
    assert_eq!(kept, ["P-7f", "P-3d", "Bx2b+", "Sx2b"]);
    game.undo();
    let kept: Vec<&str> = game.played().iter().filter_map(|p| p.text.as_deref()).collect();
    assert_eq!(kept, ["P-7f", "P-3d", "Bx2b+"]);
}

#[test]
fn each_move_keeps_what_it_took_and_who_made_it() {
    let mut game = shogi();
    play(&mut game, &["P-7f", "P-3d", "Bx2b+"]);
    let capture = game.played().last().expect("three moves");
    assert_eq!(capture.side, Side::Black);
    let taken: Vec<(Side, &str)> = capture
        .taken
        .iter()
        .map(|t| (t.side, game.position().rules().piece(t.kind).abbrev.as_str()))
        .collect();
    assert_eq!(taken, [(Side::White, "B")]);
    assert!(!capture.takes_more_than_its_destination());
    assert!(game.played()[0].taken.is_empty());
}

#[test]
fn an_outcome_reads_as_the_sentence_players_read() {
    let win = |side, reason| Outcome {
        winner: Some(side),
        reason,
    };
    assert_eq!(
        win(Side::Black, EndReason::Checkmate).to_string(),
        "Black wins by checkmate"
    );
    assert_eq!(Outcome::resignation(Side::White).to_string(), "White resigns");
    assert_eq!(Outcome::agreed_draw().to_string(), "draw agreed");
    let repetition = Outcome {
        winner: None,
        reason: EndReason::Repetition,
    };
    assert_eq!(repetition.to_string(), "draw by repetition");
    assert_eq!(result_token(Some(&Outcome::resignation(Side::White))), "1-0");
    assert_eq!(result_token(Some(&Outcome::resignation(Side::Black))), "0-1");
    assert_eq!(result_token(Some(&repetition)), "1/2-1/2");
    assert_eq!(result_token(None), "*");
}

#[test]
fn a_resignation_ends_the_game_for_the_side_to_move_until_taken_back() {
    let mut game = shogi();
    play(&mut game, &["P-7f"]);
    game.declare(Outcome::resignation(Side::White))
        .expect("the game goes on");
    assert_eq!(game.outcome(), Some(Outcome::resignation(Side::White)));
    // A game over keeps its outcome.
    assert_eq!(
        game.declare(Outcome::agreed_draw()),
        Err(Outcome::resignation(Side::White))
    );
    assert_eq!(game.take_back_declared(), Some(Outcome::resignation(Side::White)));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.len(), 1, "taking back the resignation leaves the moves");
    // Undoing a move takes back an outcome declared after it.
    game.declare(Outcome::agreed_draw()).expect("the game goes on");
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_game_the_rules_ended_refuses_a_declared_outcome() {
    let variant = Variant::named("shogi", &[]).expect("Shogi compiles");
    // G*5b mates.
    let mut game = variant
        .start(&Start::Sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 1".into()))
        .expect("a position");
    play(&mut game, &["G*5b"]);
    let mate = Outcome {
        winner: Some(Side::Black),
        reason: EndReason::Checkmate,
    };
    assert_eq!(game.declare(Outcome::resignation(Side::Black)), Err(mate.clone()));
    assert_eq!(game.outcome(), Some(mate));
}

#[test]
fn a_resigned_games_record_says_who_resigned_and_reads_back() {
    let mut game = shogi();
    play(&mut game, &["P-7f", "P-3d"]);
    game.declare(Outcome::resignation(Side::Black))
        .expect("the game goes on");
    let text = record_of(&mut game);
    assert!(
        text.contains("[Result \"0-1\"]\n[Termination \"Black resigns\"]"),
        "{text}"
    );
    assert!(text.ends_with("1. P-7f P-3d 0-1\n"), "{text}");
    let mut again = read_back(&text);
    assert_eq!(again.outcome(), Some(Outcome::resignation(Side::Black)));
    assert_eq!(record_of(&mut again), text);
}

#[test]
fn an_agreed_draws_record_reads_back_as_agreed() {
    let mut game = shogi();
    play(&mut game, &["P-7f"]);
    game.declare(Outcome::agreed_draw()).expect("the game goes on");
    let text = record_of(&mut game);
    assert!(
        text.contains("[Result \"1/2-1/2\"]\n[Termination \"draw agreed\"]"),
        "{text}"
    );
    let mut again = read_back(&text);
    assert_eq!(again.outcome(), Some(Outcome::agreed_draw()));
    assert_eq!(record_of(&mut again), text);
}

#[test]
fn a_records_result_that_koma_did_not_write_keeps_the_records_words() {
    let outcome = |text: &str| parse_record(text).expect("the record reads").outcome();
    let forfeit = "[Variant \"shogi\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. P-7f 1-0\n";
    let read = outcome(forfeit).expect("a result");
    assert_eq!(read.winner, Some(Side::Black));
    assert_eq!(read.to_string(), "time forfeit");
    let bare = "[Variant \"shogi\"]\n\n1. P-7f 0-1\n";
    assert_eq!(
        outcome(bare),
        Some(Outcome {
            winner: Some(Side::White),
            reason: EndReason::Recorded("as the record says".into()),
        })
    );
    assert_eq!(outcome("[Variant \"shogi\"]\n\n1. P-7f *\n"), None);
    // Written again, the record keeps its words.
    let mut game = read_back(forfeit);
    assert!(record_of(&mut game).contains("[Result \"1-0\"]\n[Termination \"time forfeit\"]"));
}

#[test]
fn a_game_going_on_is_recorded_without_a_termination() {
    let mut game = shogi();
    play(&mut game, &["P-7f"]);
    let mut tags = indexmap::IndexMap::new();
    tags.insert("Variant".to_string(), "shogi".to_string());
    tags.insert("Result".to_string(), "1-0".to_string());
    tags.insert("Termination".to_string(), "White resigns".to_string());
    tags.insert("Date".to_string(), "2026.11.27".to_string());
    let written = tags_with_outcome(&tags, game.outcome().as_ref());
    let names: Vec<(&str, &str)> = written.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(names, [("Variant", "shogi"), ("Result", "*"), ("Date", "2026.11.27")]);
}
