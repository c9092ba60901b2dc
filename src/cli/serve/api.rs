//! The JSON API's handlers. Each takes the store's lock briefly; searches, compilations,
//! piece help and replays run without it, on blocking threads (`work`). Any bad request gets
//! an [`ApiError`] and leaves the store as it was.

use super::error::{ApiError, excerpt};
use super::store::{Entry, MAX_BUILT, MAX_GAMES, MAX_PASTED, MAX_SEARCHES, VariantSource};
use super::view::{self, GameView, MovesView};
use super::work::{self, BUILD_WAIT};
use super::{Shared, lock};
use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use indexmap::IndexMap;
use koma::compile::{Choice, Source};
use koma::engine::{DrawAnswer, Limits, draw_answer, draw_limits, draw_positions};
use koma::game::{Game, MoveTables, Outcome};
use koma::notation::{
    MAX_RECORD_MOVES, parse_record, read_move, read_sfen, replay, tags_with_outcome, write_record, write_sfen,
    write_tsa,
};
use koma::variant::{Player, Start, Variant, today};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The longest koma may think about one move, in seconds.
pub const MAX_ENGINE_SECONDS: f64 = 60.0;
/// The longest koma thinks about a draw offered to it in the browser (off the request path, so
/// longer than at the terminal); unjudged by then, it declines.
pub const DRAW_TIME: Duration = Duration::from_secs(2);
/// The most bytes of piece diagrams in one help answer; the pieces past it come without.
pub const HELP_LIMIT: usize = 8 << 20;
/// The longest name of a pasted file, in bytes.
pub const MAX_FILE_NAME: usize = 255;
/// The most characters of a variant's key in a saved record's file name.
const MAX_SAVED_NAME: usize = 40;

type Reply<T> = Result<Json<T>, ApiError>;
type Body<T> = Result<Json<T>, JsonRejection>;
/// A game's id in the path: not a number is an error like any other.
type GameId = Result<Path<u64>, PathRejection>;
/// A variant's key in the path: not UTF-8 once decoded is an error like any other.
type VariantKey = Result<Path<String>, PathRejection>;

fn body<T>(body: Body<T>) -> Result<T, ApiError> {
    Ok(body?.0)
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API call (the API is under /api; docs/cli.md lists it)".into())
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::method_not_allowed("this API call takes another method (GET to read, POST to change)".into())
}

// ---------------------------------------------------------------------------------------
// Variants

pub async fn list_variants(State(shared): State<Shared>) -> Json<Value> {
    let store = lock(&shared);
    Json(json!({ "variants": store.variant_keys(), "first": store.first_variant(), "limits": limits() }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadVariant {
    /// A variant the server offers (its key).
    name: Option<String>,
    /// Or the text of a `.var` file, with the file's name.
    source: Option<String>,
    file_name: Option<String>,
    #[serde(default)]
    options: IndexMap<String, String>,
}

fn choices(options: &IndexMap<String, String>) -> Vec<Choice> {
    options
        .iter()
        .map(|(name, value)| Choice {
            name: name.clone(),
            value: value.clone(),
        })
        .collect()
}

/// Checks a variant (offered, or pasted text): its summary, the check report (warnings
/// included) and its source; a variant with errors is an error with the same report. A
/// pasted variant without errors is kept, under a key of its own.
pub async fn load_variant(State(shared): State<Shared>, request: Body<LoadVariant>) -> Reply<Value> {
    let request = body(request)?;
    let choices = choices(&request.options);
    // The variant, the text to keep when pasted, and the name its report gives.
    let (variant, pasted, shown) = match (request.name, request.source) {
        (Some(name), None) => (lock(&shared).variant(&name)?, None, name),
        (None, Some(text)) => {
            let source = Source {
                name: file_name(request.file_name)?,
                text: Arc::from(text),
            };
            let shown = source.name.clone();
            (VariantSource::Pasted(source.clone()), Some(source), shown)
        }
        _ => {
            return Err(ApiError::bad_request(
                "give either `name` or `source` (a .var file's text)".into(),
            ));
        }
    };
    let built = work::build(&shared, variant, &choices).await?;
    let compiled = match &built.variant {
        Ok(compiled) => compiled,
        Err(report) => return Err(ApiError::invalid_variant(&shown, report, built.source.as_ref())),
    };
    let key = match pasted {
        Some(source) => lock(&shared).add_pasted(source),
        None => shown.clone(),
    };
    Ok(Json(json!({
        "variant": view::variant_view(&key, compiled.rules()),
        "check": koma::compile::FileResult::of(&shown, compiled.report()),
        "source": built.source.map(|s| s.text.to_string()),
    })))
}

/// A pasted file's name (`pasted.var` when none is given): at most [`MAX_FILE_NAME`] bytes,
/// with no control characters (it goes into keys, records and file names).
fn file_name(name: Option<String>) -> Result<String, ApiError> {
    let name = name.unwrap_or_else(|| "pasted.var".into());
    if name.len() > MAX_FILE_NAME {
        return Err(ApiError::bad_request(format!(
            "the file name `{}` is longer than {MAX_FILE_NAME} bytes",
            excerpt(&name)
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "the file name {:?} has a control character (a line break, tab or escape)",
            excerpt(&name)
        )));
    }
    Ok(name)
}

/// Every piece's move diagram, as SVG and as text, up to [`HELP_LIMIT`] bytes of them; the
/// pieces past it come without (`svg` and `text` null) and `omitted` counts them.
pub async fn piece_help(State(shared): State<Shared>, key: VariantKey) -> Reply<Value> {
    let key = key?.0;
    let compiled = work::variant(&shared, &key, &[]).await?;
    let builds = lock(&shared).builds.clone();
    let help = work::blocking(builds, BUILD_WAIT, move || help(&key, compiled.tables())).await?;
    Ok(Json(help))
}

/// The help's answer: each piece's diagrams while their size stays within [`HELP_LIMIT`].
fn help(key: &str, tables: &MoveTables) -> Value {
    let rules = tables.rules();
    let mut size = 0;
    let mut omitted = 0;
    let pieces: Vec<Value> = rules
        .piece_ids()
        .map(|id| {
            let piece = rules.piece(id);
            let mut drawn =
                json!({ "abbrev": piece.abbrev, "name": piece.name, "kanji": piece.kanji, "svg": null, "text": null });
            if omitted == 0 {
                let svg = Value::from(koma::show::piece_svg(rules, id));
                let text = Value::from(koma::show::show(rules, Some(&piece.abbrev)).unwrap_or_default());
                // As sent: JSON strings, quotes and line breaks escaped.
                size += svg.to_string().len() + text.to_string().len();
                if size <= HELP_LIMIT {
                    drawn["svg"] = svg;
                    drawn["text"] = text;
                    return drawn;
                }
            }
            omitted += 1;
            drawn
        })
        .collect();
    json!({ "variant": key, "title": rules.name, "pieces": pieces, "omitted": omitted })
}

// ---------------------------------------------------------------------------------------
// Games

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    variant: String,
    #[serde(default)]
    options: IndexMap<String, String>,
    handicap: Option<String>,
    sfen: Option<String>,
    #[serde(default)]
    black: Player,
    #[serde(default)]
    white: Player,
}

fn tags(variant: &str, players: [Player; 2]) -> IndexMap<String, String> {
    let mut tags = IndexMap::new();
    tags.insert("Variant".to_string(), variant.to_string());
    tags.insert("Black".into(), players[0].to_string());
    tags.insert("White".into(), players[1].to_string());
    tags.insert("Date".into(), today());
    tags
}

/// A new game of `variant`: from a position in SFEN when one is given, else with the
/// handicap named, else from the variant's start.
fn start(variant: &Variant, handicap: Option<&str>, sfen: Option<&str>) -> Result<Game, ApiError> {
    let start = match (sfen, handicap) {
        (Some(sfen), _) => Start::Sfen(sfen.to_string()),
        (None, Some(name)) => Start::Handicap(name.to_string()),
        (None, None) => Start::Initial,
    };
    variant
        .start(&start)
        .map_err(|e| ApiError::unprocessable(e.to_string()))
}

pub async fn new_game(State(shared): State<Shared>, request: Body<NewGame>) -> Reply<GameView> {
    let request = body(request)?;
    let options = choices(&request.options);
    let compiled = work::variant(&shared, &request.variant, &options).await?;
    let game = start(&compiled, request.handicap.as_deref(), request.sfen.as_deref())?;
    let players = [request.black, request.white];
    let mut tags = tags(&request.variant, players);
    if let Some(h) = &request.handicap {
        tags.insert("Handicap".into(), h.clone());
    }
    if request.sfen.is_some() {
        tags.insert("SFEN".into(), write_sfen(game.start()));
    }
    let mut entry = Entry {
        variant: request.variant,
        options,
        game,
        tags,
        players,
    };
    let view = view::game_view(0, &mut entry);
    let id = lock(&shared).add_game(entry);
    Ok(Json(GameView { id, ..view }))
}

pub async fn get_game(State(shared): State<Shared>, id: GameId) -> Reply<GameView> {
    let id = id?.0;
    let mut store = lock(&shared);
    Ok(Json(view::game_view(id, store.game(id)?)))
}

pub async fn legal_moves(State(shared): State<Shared>, id: GameId) -> Reply<MovesView> {
    let id = id?.0;
    let mut store = lock(&shared);
    Ok(Json(view::moves_view(store.game(id)?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move, in USI or the rule texts' notation.
    #[serde(rename = "move")]
    text: String,
    /// The number of moves played that the page saw: a move sent for an older position is
    /// refused.
    ply: Option<usize>,
}

fn refuse_if_over(entry: &mut Entry) -> Result<(), ApiError> {
    match view::result(entry) {
        Some(result) => Err(ApiError::conflict(format!("the game is over: {}", result.reason))),
        None => Ok(()),
    }
}

fn check_ply(entry: &Entry, ply: Option<usize>) -> Result<(), ApiError> {
    match ply {
        Some(ply) if ply != entry.game.len() => Err(ApiError::conflict(format!(
            "the game has {} moves now, not {ply}: reload it",
            entry.game.len()
        ))),
        _ => Ok(()),
    }
}

fn refuse_past_limit(entry: &Entry) -> Result<(), ApiError> {
    if entry.game.len() >= MAX_RECORD_MOVES {
        return Err(ApiError::conflict(format!(
            "the game has reached {MAX_RECORD_MOVES} moves, the most a record holds"
        )));
    }
    Ok(())
}

pub async fn play_move(State(shared): State<Shared>, id: GameId, request: Body<PlayMove>) -> Reply<GameView> {
    let id = id?.0;
    let request = body(request)?;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    check_ply(entry, request.ply)?;
    refuse_if_over(entry)?;
    refuse_past_limit(entry)?;
    let m = read_move(entry.game.position(), &request.text).map_err(|e| ApiError::conflict(e.to_string()))?;
    entry
        .game
        .play(m)
        .map_err(|e| ApiError::conflict(format!("{} is illegal: {e}", excerpt(&request.text))))?;
    Ok(Json(view::game_view(id, entry)))
}

/// Takes back the last move; a resignation or agreed draw is taken back first.
pub async fn undo(State(shared): State<Shared>, id: GameId) -> Reply<GameView> {
    let id = id?.0;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    if entry.game.take_back_declared().is_none() && entry.game.undo().is_none() {
        return Err(ApiError::conflict("there is no move to take back".into()));
    }
    Ok(Json(view::game_view(id, entry)))
}

/// The side to move resigns.
pub async fn resign(State(shared): State<Shared>, id: GameId) -> Reply<GameView> {
    let id = id?.0;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    let side = entry.game.position().side_to_move();
    declare(entry, Outcome::resignation(side))?;
    Ok(Json(view::game_view(id, entry)))
}

/// The side to move offers a draw: koma, playing the other side, accepts when the offerer
/// stands better, whoever moves; between people the page asks the other player first, and
/// this agrees it. koma judges by searches of depth 2 within [`DRAW_TIME`]
/// ([`draw_positions`]), off the request path; a position it cannot judge in that time it
/// declines.
pub async fn draw(State(shared): State<Shared>, id: GameId) -> Reply<GameView> {
    let id = id?.0;
    let (judged, ply, searches) = {
        let mut store = lock(&shared);
        let searches = store.searches.clone();
        let entry = store.game(id)?;
        refuse_if_over(entry)?;
        let side = entry.game.position().side_to_move();
        let judged = (entry.player(side.opponent()) == Player::Koma).then(|| entry.game.position().clone());
        (judged, entry.game.len(), searches)
    };
    let declined = match judged {
        None => None,
        Some(position) => {
            let (as_it_stands, passed) = draw_positions(&position);
            let limits = draw_limits(DRAW_TIME);
            let offerer_to_move = work::search_off(searches.clone(), as_it_stands, limits.clone()).await?;
            let koma_to_move = work::search_off(searches, passed, limits).await?;
            match draw_answer(&offerer_to_move, &koma_to_move) {
                DrawAnswer::CannotJudge => Some(format!(
                    "koma declines the draw: it could not judge the position within {} s",
                    DRAW_TIME.as_secs()
                )),
                DrawAnswer::Declines => Some("koma declines the draw".to_string()),
                DrawAnswer::Accepts => None,
            }
        }
    };
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    check_ply(entry, Some(ply))?;
    refuse_if_over(entry)?;
    if let Some(note) = declined {
        let mut view = view::game_view(id, entry);
        view.note = Some(note);
        return Ok(Json(view));
    }
    declare(entry, Outcome::agreed_draw())?;
    Ok(Json(view::game_view(id, entry)))
}

/// Ends the game as declared; a game already over is a conflict.
fn declare(entry: &mut Entry, outcome: Outcome) -> Result<(), ApiError> {
    entry
        .game
        .declare(outcome)
        .map_err(|over| ApiError::conflict(format!("the game is over: {over}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineMove {
    /// koma's time for the move, in seconds.
    seconds: f64,
    ply: Option<usize>,
}

/// koma moves for the side to move, thinking for the time asked, off the request path; a
/// client gone before the move is played stops the search and frees its slot.
pub async fn engine_move(State(shared): State<Shared>, id: GameId, request: Body<EngineMove>) -> Reply<GameView> {
    let id = id?.0;
    let request = body(request)?;
    if !(0.01..=MAX_ENGINE_SECONDS).contains(&request.seconds) {
        return Err(ApiError::bad_request(format!(
            "{} is not a time koma thinks for: 0.01 to {MAX_ENGINE_SECONDS} seconds",
            request.seconds
        )));
    }
    let (position, ply, searches) = {
        let mut store = lock(&shared);
        let searches = store.searches.clone();
        let entry = store.game(id)?;
        check_ply(entry, request.ply)?;
        refuse_if_over(entry)?;
        refuse_past_limit(entry)?;
        (entry.game.position().clone(), entry.game.len(), searches)
    };
    let limits = Limits::time(Duration::from_secs_f64(request.seconds));
    let mover = position.side_to_move();
    let found = work::search_off(searches, position, limits).await?;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    check_ply(entry, Some(ply))?;
    let m = found
        .best
        .ok_or_else(|| ApiError::conflict("koma has no legal move".into()))?;
    if let Err(e) = entry.game.play(m) {
        let text = write_tsa(entry.game.position(), &m);
        return Err(ApiError::conflict(format!("koma's move {text} is illegal: {e}")));
    }
    let mut view = view::game_view(id, entry);
    let text = view.moves.last().map_or_else(String::new, |played| played.text.clone());
    view.note = Some(format!(
        "koma plays {text} (depth {}, {})",
        found.depth,
        super::super::play::score_text(found.score, mover)
    ));
    Ok(Json(view))
}

// ---------------------------------------------------------------------------------------
// Records and SFEN

/// The game's record in koma's format, as a file to save.
pub async fn record(State(shared): State<Shared>, id: GameId) -> Result<Response, ApiError> {
    let id = id?.0;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    let options: Vec<String> = entry
        .options
        .iter()
        .map(|o| format!("{}={}", o.name, o.value))
        .collect();
    let tags = tags_with_outcome(&entry.tags, entry.game.outcome().as_ref());
    let text = write_record(&tags, &options, &entry.game);
    let file_name = format!("attachment; filename=\"koma-{}-{id}.pgn\"", saved_name(&entry.variant));
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, file_name),
        ],
        text,
    )
        .into_response())
}

/// A variant's key as it goes into a saved file's name: letters, digits, `-` and `_` only,
/// at most [`MAX_SAVED_NAME`] of them.
fn saved_name(key: &str) -> String {
    key.chars()
        .take(MAX_SAVED_NAME)
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRecord {
    record: String,
}

/// A new game from a record: its variant (one the server offers), options, start and moves.
pub async fn load_record(State(shared): State<Shared>, request: Body<LoadRecord>) -> Reply<GameView> {
    let request = body(request)?;
    let record = parse_record(&request.record).map_err(|e| ApiError::unprocessable(format!("the record: {e}")))?;
    let variant = record
        .tags
        .get("Variant")
        .cloned()
        .ok_or_else(|| ApiError::unprocessable("the record has no Variant tag".into()))?;
    let options: Vec<Choice> = record
        .options
        .iter()
        .map(|v| v.parse())
        .collect::<Result<_, _>>()
        .map_err(|e| ApiError::unprocessable(format!("the record's Option tag: {e}")))?;
    let compiled = work::variant(&shared, &variant, &options).await?;
    let handicap = record.tags.get("Handicap").map(String::as_str);
    let sfen = record.tags.get("SFEN").map(String::as_str);
    let mut game = start(&compiled, handicap, sfen)?;
    let builds = lock(&shared).builds.clone();
    let (mut game, record) = work::blocking(builds, BUILD_WAIT, move || {
        let replayed = replay(&mut game, &record);
        replayed.map(|()| (game, record))
    })
    .await?
    .map_err(|e| ApiError::unprocessable(format!("the record: {e}")))?;
    // A result the moves do not decide (a resignation, an agreed draw) is the game's again;
    // where the moves decide it, their outcome stands (and the declaration is refused).
    if let Some(outcome) = record.outcome() {
        let _ = game.declare(outcome);
    }
    let mut entry = Entry {
        variant,
        options,
        game,
        tags: record.tags,
        players: [Player::Human, Player::Human],
    };
    let view = view::game_view(0, &mut entry);
    let id = lock(&shared).add_game(entry);
    Ok(Json(GameView { id, ..view }))
}

pub async fn get_sfen(State(shared): State<Shared>, id: GameId) -> Reply<Value> {
    let id = id?.0;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    Ok(Json(json!({ "sfen": write_sfen(entry.game.position()) })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetSfen {
    sfen: String,
}

/// Starts the game again from a position (same variant, options and players).
pub async fn set_sfen(State(shared): State<Shared>, id: GameId, request: Body<SetSfen>) -> Reply<GameView> {
    let id = id?.0;
    let request = body(request)?;
    let mut store = lock(&shared);
    let entry = store.game(id)?;
    let tables = entry.game.start().tables().clone();
    let position =
        read_sfen(&tables, &request.sfen).map_err(|e| ApiError::unprocessable(format!("bad position: {e}")))?;
    let mut tags = tags(&entry.variant, entry.players);
    tags.insert("SFEN".into(), write_sfen(&position));
    let mut replacement = Entry {
        variant: entry.variant.clone(),
        options: entry.options.clone(),
        game: Variant::game_from(position),
        tags,
        players: entry.players,
    };
    let view = view::game_view(id, &mut replacement);
    store.replace_game(id, replacement);
    Ok(Json(view))
}

/// The limits the page shows.
pub fn limits() -> Value {
    json!({
        "max_games": MAX_GAMES,
        "max_pasted": MAX_PASTED,
        "body_limit": super::BODY_LIMIT,
        "max_engine_seconds": MAX_ENGINE_SECONDS,
        "max_searches": MAX_SEARCHES,
        "max_built": MAX_BUILT,
        "help_limit": HELP_LIMIT,
        "max_file_name": MAX_FILE_NAME,
        "max_connections": super::MAX_CONNECTIONS,
        "header_timeout_seconds": super::HEADER_TIMEOUT.as_secs(),
        "request_timeout_seconds": super::REQUEST_TIMEOUT.as_secs(),
    })
}
