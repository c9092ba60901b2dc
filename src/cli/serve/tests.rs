//! The API, called through the router as the page calls it (tower's `oneshot`, no socket).

use super::router;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
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
    let played = after["moves"][0].as_str().unwrap();
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
