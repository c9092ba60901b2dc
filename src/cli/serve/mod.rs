//! `koma serve`: a board in the browser. A local web server serves one page, embedded in the
//! binary (plain HTML, CSS and JavaScript modules, no build step), and a small JSON API over
//! koma's rules (`api`). The page draws what the API answers and asks it for every legal
//! move and outcome: no rule of any game is written in the page's JavaScript.
//!
//! axum on tokio: both are widely used and well kept, and a single-threaded runtime is
//! enough for one user's page; engine searches run on tokio's blocking threads, so the
//! server answers while koma thinks.

mod api;
mod error;
mod store;
mod view;

#[cfg(test)]
mod tests;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use store::Store;

/// The largest request body read, in bytes: a variant file or a record past it is refused.
pub const BODY_LIMIT: usize = 1 << 20;

/// The shared state: one store behind a lock (held briefly, never across a search).
pub type Shared = Arc<Mutex<Store>>;

/// The page's files, embedded in the binary.
const ASSETS: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("../../../web/index.html")),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/board.js"),
    ),
    (
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/api.js"),
    ),
];

/// The router: the page, and the API under `/api`.
pub fn router(files: &[String]) -> Router {
    let shared: Shared = Arc::new(Mutex::new(Store::new(files)));
    let mut router = Router::new();
    for &(path, kind, body) in ASSETS {
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, kind)], body).into_response() }),
        );
    }
    router
        .route("/api/variants", get(api::list_variants).post(api::load_variant))
        .route("/api/variants/{key}/help", get(api::piece_help))
        .route("/api/games", post(api::new_game))
        .route("/api/records", post(api::load_record))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/moves", get(api::legal_moves))
        .route("/api/games/{id}/move", post(api::play_move))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/draw", post(api::draw))
        .route("/api/games/{id}/engine", post(api::engine_move))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/sfen", get(api::get_sfen).post(api::set_sfen))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(shared)
}

/// Serves on 127.0.0.1:`port` (0: any free port) until stopped; prints the address.
pub fn run(port: u16, files: &[String]) -> ExitCode {
    for file in files {
        if koma::compile::source::shipped(file).is_none() && !std::path::Path::new(file).exists() {
            eprintln!("error: no variant `{file}`: neither a file nor a shipped variant");
            return ExitCode::FAILURE;
        }
    }
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_io().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(port, router(files)))
}

async fn serve(port: u16, router: Router) -> ExitCode {
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!(
                "error: cannot listen on 127.0.0.1:{port}: {e} (`--port N` chooses another port, `--port 0` any free one)"
            );
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(address) => println!("koma serves on http://{address}/ (Ctrl-C stops it)"),
        Err(e) => eprintln!("warning: cannot read the address listened on: {e}"),
    }
    match axum::serve(listener, router).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: the server stopped: {e}");
            ExitCode::FAILURE
        }
    }
}
