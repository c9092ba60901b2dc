//! The API, called through the router as the page calls it (tower's `oneshot`, no socket).

use super::store::Store;
use super::{Shared, router, router_over};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// A Lion, a King and Golds on 5 × 5, with its own SFEN letters.
const TINY_LION: &str = r#"variant "Tiny Lion"
board 5 x 5
piece K  "King" sfen k royal : step all
piece Ln "Lion" sfen n       : lion
piece G  "Gold" sfen g       : step orthogonal forward-diagonal
setup
  d: . G G G .
  e: . Ln K . .
"#;

/// Black's Lion on 2d before White's Golds on 2c and 1b.
const LION_BEFORE_TWO_GOLDS: &str = "k4/4g/3g1/3N1/K4 b - 1";

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    send(app, request).await
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
    let value =
        serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(body)).await
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri, None).await
}

async fn new_game(app: &Router, body: Value) -> Value {
    let (status, game) = post(app, "/api/games", body).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    game
}

/// The tiny Lion variant, pasted: its key.
async fn paste_tiny_lion(app: &Router) -> String {
    let (status, loaded) = post(
        app,
        "/api/variants",
        json!({ "source": TINY_LION, "file_name": "tiny.var" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    loaded["variant"]["key"].as_str().unwrap().to_string()
}

fn moves_where(moves: &Value, test: impl Fn(&Value) -> bool) -> Vec<&Value> {
    moves["moves"].as_array().unwrap().iter().filter(|m| test(m)).collect()
}

#[tokio::test]
async fn the_page_is_served_from_the_binary() {
    let app = router(&[]);
    let (status, page) = get(&app, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.as_str().unwrap().contains("<script type=\"module\""), "{page}");
}

#[tokio::test]
async fn variants_lists_the_shipped_ones_and_the_limits() {
    let (status, list) = get(&router(&[]), "/api/variants").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        list["variants"],
        json!(
            koma::compile::source::SHIPPED
                .iter()
                .map(|(name, _)| *name)
                .collect::<Vec<_>>()
        )
    );
    assert_eq!(list["limits"]["max_games"], json!(super::store::MAX_GAMES));
}

#[tokio::test]
async fn a_new_game_starts_from_the_variants_start() {
    let game = new_game(&router(&[]), json!({ "variant": "shogi" })).await;
    assert_eq!(
        game["sfen"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(game["pieces"].as_array().unwrap().len(), 40);
    assert_eq!(game["turn"], "Black");
    assert_eq!((game["files"].as_u64(), game["ranks"].as_u64()), (Some(9), Some(9)));
}

#[tokio::test]
async fn a_handicap_removes_whites_pieces() {
    let game = new_game(&router(&[]), json!({ "variant": "shogi", "handicap": "Lance" })).await;
    assert_eq!(game["pieces"].as_array().unwrap().len(), 39);
    assert_eq!(game["turn"], "White");
}

/// Shogi's start has 30 legal moves (perft 1, as every shogi program counts).
#[tokio::test]
async fn legal_moves_of_the_start_position() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let (status, moves) = get(&app, &format!("/api/games/{}/moves", game["id"])).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(moves["moves"].as_array().unwrap().len(), 30);
    let pawn = moves_where(&moves, |m| m["usi"] == "7g7f");
    assert_eq!(pawn[0]["from"], "7g");
    assert_eq!(pawn[0]["to"], "7f");
    assert_eq!(pawn[0]["text"], "P-7f");
}

#[tokio::test]
async fn drops_name_the_piece_and_keep_off_the_last_rank() {
    let app = router(&[]);
    let game = new_game(
        &app,
        json!({ "variant": "shogi", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b P 1" }),
    )
    .await;
    assert_eq!(game["hands"][0][0]["abbrev"], "P");
    let (_, moves) = get(&app, &format!("/api/games/{}/moves", game["id"])).await;
    let drops = moves_where(&moves, |m| m["drop"] == "P");
    // 9 files × 8 ranks (not rank a), less the King's square 5i.
    assert_eq!(drops.len(), 71);
    assert!(
        drops
            .iter()
            .all(|m| m["from"].is_null() && !m["to"].as_str().unwrap().ends_with('a'))
    );
    let (status, after) = post(
        &app,
        &format!("/api/games/{}/move", game["id"]),
        json!({ "move": "P*5e" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert!(after["hands"][0].as_array().unwrap().is_empty());
    assert_eq!(after["last"]["to"], "5e");
}

/// Under `drops either-face` (Micro) both faces are dropped from the piece in hand: the
/// page offers them from that piece, and the move's text names the face.
#[tokio::test]
async fn drops_on_either_face_come_from_the_piece_in_hand() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "micro", "sfen": "k3/4/4/4/K3 b P 1" })).await;
    let (_, moves) = get(&app, &format!("/api/games/{}/moves", game["id"])).await;
    let on_2c = moves_where(&moves, |m| m["drop"] == "P" && m["to"] == "2c");
    let texts: Vec<&str> = on_2c.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["P*2c", "N*2c"]);
    assert_eq!(moves_where(&moves, |m| m["drop"] == "P").len(), 2 * 18);
}

#[tokio::test]
async fn an_optional_promotion_is_two_moves() {
    let app = router(&[]);
    let game = new_game(
        &app,
        json!({ "variant": "shogi", "sfen": "4k4/9/9/2P6/9/9/9/9/4K4 b - 1" }),
    )
    .await;
    let (_, moves) = get(&app, &format!("/api/games/{}/moves", game["id"])).await;
    let pawn = moves_where(&moves, |m| m["from"] == "7d");
    let choices: Vec<bool> = pawn.iter().map(|m| m["promote"].as_bool().unwrap()).collect();
    assert_eq!(pawn.len(), 2, "{pawn:?}");
    assert!(choices.contains(&true) && choices.contains(&false));
    let (_, after) = post(
        &app,
        &format!("/api/games/{}/move", game["id"]),
        json!({ "move": "7d7c+" }),
    )
    .await;
    let promoted = after["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "7c")
        .unwrap();
    assert_eq!(promoted["promoted"], true);
}

#[tokio::test]
async fn lion_moves_carry_their_middle_squares_and_captures() {
    let app = router(&[]);
    let key = paste_tiny_lion(&app).await;
    let game = new_game(&app, json!({ "variant": key, "sfen": LION_BEFORE_TWO_GOLDS })).await;
    let (_, moves) = get(&app, &format!("/api/games/{}/moves", game["id"])).await;
    let double = moves_where(&moves, |m| {
        m["from"] == "2d" && m["to"] == "1b" && m["captures"] == json!(["2c", "1b"])
    });
    assert_eq!(double.len(), 1, "{moves}");
    assert_eq!(double[0]["middles"], json!(["2c"]));
    let igui = moves_where(&moves, |m| {
        m["from"] == "2d" && m["to"] == "2d" && m["captures"] == json!(["2c"])
    });
    assert_eq!(igui[0]["middles"], json!(["2c"]));
    // Two squares away through empty squares: any of them is a middle.
    let jump = moves_where(&moves, |m| {
        m["from"] == "2d" && m["to"] == "4d" && m["captures"] == json!([])
    });
    let mut middles: Vec<&str> = jump[0]["middles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    middles.sort();
    assert_eq!(middles, ["3c", "3d", "3e"]);
    let (status, after) = post(
        &app,
        &format!("/api/games/{}/move", game["id"]),
        json!({ "move": "2d2c1b" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["last"]["via"], json!(["2c"]));
    assert_eq!(after["pieces"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn an_illegal_move_is_refused_and_the_game_kept() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let uri = format!("/api/games/{}/move", game["id"]);
    let (status, error) = post(&app, &uri, json!({ "move": "7g7e" })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error["error"].as_str().unwrap().contains("7g7e"), "{error}");
    let (_, same) = get(&app, &format!("/api/games/{}", game["id"])).await;
    assert_eq!(same["sfen"], game["sfen"]);
}

#[tokio::test]
async fn a_move_for_an_older_position_is_refused() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let uri = format!("/api/games/{}/move", game["id"]);
    post(&app, &uri, json!({ "move": "7g7f", "ply": 0 })).await;
    let (status, error) = post(&app, &uri, json!({ "move": "3c3d", "ply": 0 })).await;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
}

#[tokio::test]
async fn undo_takes_back_the_last_move() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let id = &game["id"];
    post(&app, &format!("/api/games/{id}/move"), json!({ "move": "P-7f" })).await;
    let (status, undone) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(undone["sfen"], game["sfen"]);
    let (status, _) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn resign_ends_the_game_for_the_side_to_move() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let id = &game["id"];
    let (_, over) = post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(over["result"]["result"], "0-1");
    let (status, _) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": "7g7f" })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, moves) = get(&app, &format!("/api/games/{id}/moves")).await;
    assert!(moves["moves"].as_array().unwrap().is_empty());
    let (_, reopened) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert!(reopened["result"].is_null());
}

#[tokio::test]
async fn a_draw_between_people_is_agreed() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let (_, over) = post(&app, &format!("/api/games/{}/draw", game["id"]), json!({})).await;
    assert_eq!(over["result"]["result"], "1/2-1/2");
}

#[tokio::test]
async fn checkmate_is_the_servers_to_say() {
    let app = router(&[]);
    // White's King on 5a, Black's Gold on 5c and a Gold in hand: G*5b mates.
    let game = new_game(
        &app,
        json!({ "variant": "shogi", "sfen": "4k4/9/4G4/9/9/9/9/9/4K4 b G 1" }),
    )
    .await;
    let (_, over) = post(
        &app,
        &format!("/api/games/{}/move", game["id"]),
        json!({ "move": "G*5b" }),
    )
    .await;
    assert_eq!(over["result"]["result"], "1-0", "{over}");
    assert!(over["result"]["reason"].as_str().unwrap().contains("checkmate"));
}

#[tokio::test]
async fn koma_plays_a_legal_move_in_the_time_given() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi", "white": "koma" })).await;
    let id = &game["id"];
    let (_, legal) = get(&app, &format!("/api/games/{id}/moves")).await;
    let started = std::time::Instant::now();
    let (status, after) = post(&app, &format!("/api/games/{id}/engine"), json!({ "seconds": 0.2 })).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    assert_eq!(after["ply"], 1);
    let played = after["moves"][0]["text"].as_str().unwrap();
    assert!(moves_where(&legal, |m| m["text"] == played).len() == 1, "{played}");
    let (status, _) = post(&app, &format!("/api/games/{id}/engine"), json!({ "seconds": 1e9 })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_record_downloads_and_loads_back() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "chu" })).await;
    let id = &game["id"];
    for m in ["P-7h", "P-6e"] {
        post(&app, &format!("/api/games/{id}/move"), json!({ "move": m })).await;
    }
    let (status, record) = get(&app, &format!("/api/games/{id}/record")).await;
    assert_eq!(status, StatusCode::OK);
    let text = record.as_str().unwrap();
    assert!(
        text.contains("[Variant \"chu\"]") && text.contains("1. P-7h P-6e"),
        "{text}"
    );
    let (status, loaded) = post(&app, "/api/records", json!({ "record": text })).await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    let (_, original) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(loaded["sfen"], original["sfen"]);
    assert_ne!(loaded["id"], original["id"]);
}

#[tokio::test]
async fn the_view_after_moves_gives_each_moves_text_as_it_was_shown() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let id = &game["id"];
    let mut shown = Vec::new();
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        let (_, legal) = get(&app, &format!("/api/games/{id}/moves")).await;
        let text = moves_where(&legal, |m| m["usi"] == usi)[0]["text"].clone();
        shown.push(text);
        let (status, _) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": usi })).await;
        assert_eq!(status, StatusCode::OK);
    }
    let texts = |view: &Value| -> Vec<Value> {
        view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].clone())
            .collect()
    };
    let (_, view) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(texts(&view), shown);
    assert_eq!(shown, ["P-7f", "P-3d", "Bx2b+", "Sx2b"]);
    let (_, undone) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(texts(&undone), shown[..3]);
}

#[tokio::test]
async fn a_resigned_games_record_loads_back_resigned() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let id = &game["id"];
    post(&app, &format!("/api/games/{id}/move"), json!({ "move": "P-7f" })).await;
    post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
    let (_, record) = get(&app, &format!("/api/games/{id}/record")).await;
    let text = record.as_str().unwrap();
    assert!(
        text.contains("[Result \"1-0\"]\n[Termination \"White resigns\"]"),
        "{text}"
    );
    let (status, loaded) = post(&app, "/api/records", json!({ "record": text })).await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    assert_eq!(loaded["result"], json!({ "result": "1-0", "reason": "White resigns" }));
    // The resignation, not the move, is what undo takes back.
    let (_, reopened) = post(&app, &format!("/api/games/{}/undo", loaded["id"]), json!({})).await;
    assert!(reopened["result"].is_null(), "{reopened}");
    assert_eq!(reopened["ply"], 1);
}

#[tokio::test]
async fn a_record_with_an_illegal_move_is_refused_with_its_line() {
    let app = router(&[]);
    let record = "[Variant \"shogi\"]\n\n1. P-7f P-7f\n*\n";
    let (status, error) = post(&app, "/api/records", json!({ "record": record })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error["error"].as_str().unwrap().contains("line 3, move 2"), "{error}");
}

#[tokio::test]
async fn sfen_sets_the_position() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let id = &game["id"];
    let sfen = "4k4/9/9/9/9/9/9/9/4K4 w - 1";
    let (status, set) = post(&app, &format!("/api/games/{id}/sfen"), json!({ "sfen": sfen })).await;
    assert_eq!(status, StatusCode::OK, "{set}");
    let (_, got) = get(&app, &format!("/api/games/{id}/sfen")).await;
    assert_eq!(got["sfen"], sfen);
    let (status, error) = post(&app, &format!("/api/games/{id}/sfen"), json!({ "sfen": "9/9 b" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error["error"].as_str().unwrap().starts_with("bad position"), "{error}");
}

#[tokio::test]
async fn a_broken_variant_file_answers_with_its_diagnostics_and_spans() {
    let app = router(&[]);
    let text = TINY_LION.replace(": lion", ": lyon");
    let (status, error) = post(&app, "/api/variants", json!({ "source": text, "file_name": "bad.var" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let diagnostic = &error["check"]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "koma::unknown-movement");
    let label = &diagnostic["labels"][0];
    let (start, end) = (
        label["start"].as_u64().unwrap() as usize,
        label["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[start..end], "lyon");
    assert_eq!(error["source"], text);
}

#[tokio::test]
async fn an_unknown_variant_is_not_found() {
    let (status, error) = post(&router(&[]), "/api/games", json!({ "variant": "chess" })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error["error"].as_str().unwrap().contains("no variant `chess`"));
}

#[tokio::test]
async fn bad_json_is_a_bad_request() {
    let app = router(&[]);
    let request = Request::post("/api/games")
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .body(Body::from("{\"variant\":"))
        .unwrap();
    let (status, error) = send(&app, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["status"], 400);
    let (status, _) = post(&app, "/api/games", json!({ "variant": "shogi", "colour": "red" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_body_past_the_limit_is_refused() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let huge = "x".repeat(super::BODY_LIMIT + 1);
    let (status, error) = post(&app, "/api/records", json!({ "record": huge })).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{error}");
    let (status, _) = get(&app, &format!("/api/games/{}", game["id"])).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn games_past_the_limit_drop_the_least_recently_used() {
    let app = router(&[]);
    let first = new_game(&app, json!({ "variant": "tori" })).await;
    let second = new_game(&app, json!({ "variant": "tori" })).await;
    for _ in 0..super::store::MAX_GAMES - 2 {
        new_game(&app, json!({ "variant": "tori" })).await;
    }
    // Using the first keeps it; the next new game drops the second.
    get(&app, &format!("/api/games/{}", first["id"])).await;
    new_game(&app, json!({ "variant": "tori" })).await;
    assert_eq!(
        get(&app, &format!("/api/games/{}", first["id"])).await.0,
        StatusCode::OK
    );
    assert_eq!(
        get(&app, &format!("/api/games/{}", second["id"])).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn piece_help_draws_every_piece_as_svg() {
    let (status, help) = get(&router(&[]), "/api/variants/chu/help").await;
    assert_eq!(status, StatusCode::OK);
    let pieces = help["pieces"].as_array().unwrap();
    let lion = pieces.iter().find(|p| p["abbrev"] == "Ln").unwrap();
    assert!(lion["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(pieces.iter().all(|p| p["svg"].as_str().unwrap().contains("</svg>")));
}

#[tokio::test]
async fn an_unknown_path_is_a_json_404() {
    let (status, error) = get(&router(&[]), "/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["status"], 404);
}

#[tokio::test]
async fn a_variant_named_on_the_command_line_is_offered_first() {
    let app = router(&["variants/chu.var".to_string()]);
    let (_, list) = get(&app, "/api/variants").await;
    assert_eq!(list["first"], "variants/chu.var");
    assert_eq!(list["variants"].as_array().unwrap().last().unwrap(), "variants/chu.var");
    let game = new_game(&app, json!({ "variant": "variants/chu.var" })).await;
    assert_eq!(game["title"], "Chu Shogi");
    let (_, plain) = get(&router(&[]), "/api/variants").await;
    assert_eq!(plain["first"], "shogi");
}

#[tokio::test]
async fn a_game_id_that_is_not_a_number_is_a_json_error() {
    let (status, error) = get(&router(&[]), "/api/games/abc/moves").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["status"], 400, "{error}");
}

#[tokio::test]
async fn a_call_with_the_wrong_method_is_a_json_error() {
    let (status, error) = get(&router(&[]), "/api/games").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(error["status"], 405, "{error}");
}

// ---------------------------------------------------------------------------------------
// A closed tab, a slow client or an expensive request never stops the server

/// A store and its router, for looking inside the store.
fn shared_router() -> (Shared, Router) {
    let shared: Shared = Arc::new(Mutex::new(Store::new(&[])));
    (shared.clone(), router_over(shared))
}

/// A request with this `Host` header.
async fn get_from_host(app: &Router, host: &str, uri: &str) -> (StatusCode, Value) {
    let request = Request::get(uri).header("host", host).body(Body::empty()).unwrap();
    send(app, request).await
}

#[tokio::test]
async fn a_dropped_engine_request_gives_its_slot_back_and_stops_its_search() {
    let app = router(&[]);
    let first = new_game(&app, json!({ "variant": "shogi", "white": "koma" })).await;
    let second = new_game(&app, json!({ "variant": "shogi", "white": "koma" })).await;
    // Two clients ask koma for a long think, then go away (a reloaded page): every slot.
    for game in [&first, &second] {
        let uri = format!("/api/games/{}/engine", game["id"]);
        let dropped =
            tokio::time::timeout(Duration::from_millis(300), post(&app, &uri, json!({ "seconds": 50 }))).await;
        assert!(dropped.is_err(), "the 50 s search answered: {dropped:?}");
    }
    let started = Instant::now();
    let (uri_a, uri_b) = (
        format!("/api/games/{}/engine", first["id"]),
        format!("/api/games/{}/engine", second["id"]),
    );
    let (a, b) = tokio::join!(
        post(&app, &uri_a, json!({ "seconds": 0.1 })),
        post(&app, &uri_b, json!({ "seconds": 0.1 })),
    );
    assert_eq!(a.0, StatusCode::OK, "{}", a.1);
    assert_eq!(b.0, StatusCode::OK, "{}", b.1);
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

/// Taikyoku's depth-2 search took minutes, and takes seconds on a loaded machine: the
/// judgement is bounded, and the server answers other requests while it runs. Judged in
/// time, koma accepts (its search scores the side to move's first move well ahead) or
/// declines; not judged in time, it declines.
#[tokio::test]
async fn a_draw_offered_to_koma_in_taikyoku_is_judged_off_the_request_path_within_seconds() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "taikyoku", "white": "koma" })).await;
    let started = Instant::now();
    let uri = format!("/api/games/{}/draw", game["id"]);
    let draw = {
        let app = app.clone();
        tokio::spawn(async move { post(&app, &uri, json!({})).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, _) = get(&app, "/api/variants").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!draw.is_finished(), "the draw was judged before the list answered");
    let (status, answer) = draw.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{answer}");
    let agreed = answer["result"]["result"] == "1/2-1/2";
    let declined = answer["note"].as_str().is_some_and(|note| note.contains("declines"));
    assert!(agreed != declined, "{answer}");
    assert!(
        started.elapsed() < super::api::DRAW_TIME + Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn games_of_one_variant_share_its_tables() {
    let (shared, app) = shared_router();
    let first = new_game(&app, json!({ "variant": "taikyoku" })).await;
    let second = new_game(&app, json!({ "variant": "taikyoku" })).await;
    let other = new_game(
        &app,
        json!({ "variant": "taikyoku", "options": { "twelfth-rank": "jh85" } }),
    )
    .await;
    let mut store = super::lock(&shared);
    let mut tables = |game: &Value| {
        store
            .game(game["id"].as_u64().unwrap())
            .unwrap()
            .game
            .start()
            .tables()
            .clone()
    };
    let (first, second, other) = (tables(&first), tables(&second), tables(&other));
    assert!(Arc::ptr_eq(&first, &second));
    assert!(!Arc::ptr_eq(&first, &other), "other options are another compilation");
}

/// A variant of 100 leapers on 36 × 36: each piece's help is some 140 KB.
fn many_big_diagrams() -> String {
    let mut text = String::from("variant \"Leapers\"\nboard 36 x 36\npiece K \"King\" royal : step all\n");
    for i in 0..100u8 {
        let abbrev = format!("X{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char);
        text += &format!(
            "piece {abbrev} \"Leaper {i}\" : leap ({}, 3) (-3, {})\n",
            i % 30 + 1,
            i % 20 + 2
        );
    }
    text += "setup\n  aj: K 35\n";
    text
}

/// 400 leapers of 12 leaps each on 36 × 36 (some 60 KB): its tables take a while to build.
fn four_hundred_leapers() -> String {
    let mut text = String::from("variant \"Leapers\"\nboard 36 x 36\npiece K \"King\" royal : step all\n");
    for i in 0..400u32 {
        let abbrev = format!(
            "X{}{}",
            char::from(b'a' + (i / 26) as u8),
            char::from(b'a' + (i % 26) as u8)
        );
        let leaps: Vec<String> = (0..12)
            .map(|k| format!("({}, {})", (i + 5 * k) % 35 + 1, ((3 * i + 7 * k) % 35) as i32 - 17))
            .collect();
        text += &format!("piece {abbrev} \"Leaper {i}\" : leap {}\n", leaps.join(" "));
    }
    text += "setup\n  aj: K 35\n";
    text
}

#[tokio::test]
async fn a_pasted_variant_compiles_off_the_request_path() {
    let app = router(&[]);
    let paste = {
        let app = app.clone();
        tokio::spawn(async move {
            let source = json!({ "source": four_hundred_leapers(), "file_name": "leapers.var" });
            post(&app, "/api/variants", source).await
        })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    let (status, _) = get(&app, "/api/variants").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!paste.is_finished(), "the variant compiled before the list answered");
    let (status, loaded) = paste.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{}", loaded["error"]);
}

#[tokio::test]
async fn piece_help_past_its_size_limit_leaves_out_the_rest() {
    let app = router(&[]);
    let (status, loaded) = post(
        &app,
        "/api/variants",
        json!({ "source": many_big_diagrams(), "file_name": "leapers.var" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    let key = loaded["variant"]["key"].as_str().unwrap();
    let request = Request::get(format!("/api/variants/{key}/help"))
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 30).await.unwrap();
    assert!(
        bytes.len() < super::api::HELP_LIMIT + (1 << 20),
        "{} bytes",
        bytes.len()
    );
    let help: Value = serde_json::from_slice(&bytes).unwrap();
    let pieces = help["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 101);
    assert!(pieces[0]["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(pieces[100]["svg"].is_null(), "{} bytes", bytes.len());
    let omitted = pieces.iter().filter(|p| p["svg"].is_null()).count();
    assert_eq!(help["omitted"], json!(omitted));
}

#[tokio::test]
async fn a_pasted_file_name_with_a_line_break_or_too_long_is_refused() {
    let app = router(&[]);
    for name in ["tiny\n[Result \"1-0\"].var".to_string(), "n".repeat(300)] {
        let (status, error) = post(&app, "/api/variants", json!({ "source": TINY_LION, "file_name": name })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
        assert!(error["error"].as_str().unwrap().len() < 300, "{error}");
    }
}

#[tokio::test]
async fn a_request_for_another_host_is_refused() {
    let app = router(&[]);
    for host in [
        "localhost",
        "localhost:8080",
        "127.0.0.1:45678",
        "[::1]:8080",
        "[::1]",
        "LOCALHOST",
    ] {
        let (status, answer) = get_from_host(&app, host, "/api/variants").await;
        assert_eq!(status, StatusCode::OK, "{host}: {answer}");
    }
    for host in [
        "attacker.example",
        "attacker.example:8080",
        "127.0.0.1.attacker.example",
        "localhost.attacker.example:80",
        "",
    ] {
        for uri in ["/api/variants", "/", "/api/nothing"] {
            let (status, error) = get_from_host(&app, host, uri).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{host}{uri}: {error}");
            assert_eq!(error["status"], 403, "{host}{uri}: {error}");
        }
    }
    let no_host = Request::get("/api/variants").body(Body::empty()).unwrap();
    assert_eq!(send(&app, no_host).await.0, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_error_quotes_an_excerpt_of_a_long_input() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "shogi" })).await;
    let long = "7g7f".repeat(25_000);
    let (status, error) = post(
        &app,
        &format!("/api/games/{}/move", game["id"]),
        json!({ "move": long }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let message = error["error"].as_str().unwrap();
    assert!(
        message.len() < 2000 && message.contains("7g7f"),
        "{} bytes",
        message.len()
    );
    let field = "colour".repeat(20_000);
    let (status, error) = post(&app, "/api/games", json!({ "variant": "shogi", field: 1 })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error.to_string().len() < 2000, "{} bytes", error.to_string().len());
    let (status, error) = post(&app, "/api/games", json!({ "variant": long })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error.to_string().len() < 2000, "{} bytes", error.to_string().len());
}

#[tokio::test]
async fn a_path_that_is_not_utf8_is_a_json_error() {
    let (status, error) = get(&router(&[]), "/api/variants/%ff%fe/help").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["status"], 400, "{error}");
}

#[tokio::test]
async fn a_saved_records_file_name_is_bounded_and_sanitised() {
    let app = router(&[]);
    let name = format!("{}\"; evil=\u{e9}.var", "n".repeat(200));
    let (status, loaded) = post(&app, "/api/variants", json!({ "source": TINY_LION, "file_name": name })).await;
    assert_eq!(status, StatusCode::OK, "{loaded}");
    let game = new_game(&app, json!({ "variant": loaded["variant"]["key"] })).await;
    let request = Request::get(format!("/api/games/{}/record", game["id"]))
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let disposition = response.headers()["content-disposition"].to_str().unwrap().to_string();
    assert!(disposition.len() < 100, "{disposition}");
    let file = disposition
        .strip_prefix("attachment; filename=\"")
        .unwrap()
        .strip_suffix('"')
        .unwrap();
    assert!(
        file.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
        "{file}"
    );
}

/// Every shipped variant is played in the browser's API: a few moves, each picked from the
/// legal moves the page is given and sent back as the page sends it.
#[tokio::test]
async fn every_shipped_variant_is_played_through_the_api() {
    let app = router(&[]);
    for (variant, _) in koma::compile::source::SHIPPED {
        let game = new_game(&app, json!({ "variant": variant })).await;
        let id = &game["id"];
        for ply in 0..6 {
            let (_, moves) = get(&app, &format!("/api/games/{id}/moves")).await;
            let list = moves["moves"].as_array().unwrap();
            assert!(!list.is_empty(), "{variant}: no move at ply {ply}");
            let usi = list[(ply * 5 + 1) % list.len()]["usi"].clone();
            let (status, after) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": usi })).await;
            assert_eq!(status, StatusCode::OK, "{variant}: {after}");
            if !after["result"].is_null() {
                break;
            }
        }
        post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
    }
}

/// Dobutsu Shogi's try ends a game in the browser: the Lion on the far rank, not taken.
#[tokio::test]
async fn the_try_ends_a_game_of_dobutsu() {
    let app = router(&[]);
    let game = new_game(&app, json!({ "variant": "dobutsu", "sfen": "3/1L1/l2/3 b - 1" })).await;
    let id = &game["id"];
    post(&app, &format!("/api/games/{id}/move"), json!({ "move": "2b2a" })).await;
    let (_, over) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": "3c3b" })).await;
    assert_eq!(over["result"]["result"], "1-0", "{over}");
    assert!(over["result"]["reason"].as_str().unwrap().contains("try"), "{over}");
}

/// Anti-Minishogi in the browser: only the capture is offered, and a side that loses its last
/// piece has won.
#[tokio::test]
async fn extinction_ends_a_game_of_antiminishogi() {
    let app = router(&[]);
    let game = new_game(
        &app,
        json!({ "variant": "antiminishogi", "sfen": "k4/5/5/1g3/2K2 w - 2" }),
    )
    .await;
    let id = &game["id"];
    let (_, moves) = get(&app, &format!("/api/games/{id}/moves")).await;
    let usi: Vec<&str> = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert_eq!(usi, ["4d3e"], "capture is compulsory");
    let (_, over) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": "4d3e" })).await;
    assert_eq!(over["result"]["result"], "1-0", "{over}");
    assert!(
        over["result"]["reason"].as_str().unwrap().contains("extinction"),
        "{over}"
    );
}
