//! `koma serve`: a board in the browser. A local web server serves one page, embedded in the
//! binary (plain HTML, CSS and JavaScript modules, no build step), and a small JSON API over
//! koma's rules (`api`). The page draws what the API answers and asks it for every legal
//! move and outcome: no rule of any game is written in the page's JavaScript.
//!
//! axum on tokio, served by hyper's HTTP/1 connections: all widely used and well kept. A
//! single-threaded runtime is enough for one user's page; the expensive work (engine
//! searches, draw judgements, compiling a variant, drawing its help) runs on tokio's blocking
//! threads, bounded in time, so the server answers while it runs. The connections are
//! bounded in number and in the time a silent client keeps one ([`HEADER_TIMEOUT`]), and only
//! requests naming a loopback host are served (against DNS rebinding).

mod api;
mod error;
mod guard;
mod store;
mod view;
mod work;

#[cfg(test)]
mod tests;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use store::Store;
use tokio::sync::Semaphore;

/// The largest request body read, in bytes: a variant file or a record past it is refused.
pub const BODY_LIMIT: usize = 1 << 20;

/// The shared state: one store behind a lock (held briefly, never across a search or a
/// compilation).
pub type Shared = Arc<Mutex<Store>>;

fn lock(shared: &Shared) -> MutexGuard<'_, Store> {
    // A handler that panicked leaves the store whole (no handler panics halfway through a
    // change), so a poisoned lock is used as it is.
    shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

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
    router_over(Arc::new(Mutex::new(Store::new(files))))
}

/// The router over a store.
fn router_over(shared: Shared) -> Router {
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
        .layer(middleware::from_fn(guard::time_limit))
        .layer(middleware::from_fn(guard::loopback_only))
        .with_state(shared)
}

/// The most connections open at once; past it, new ones wait in the system's queue (as many
/// again) until one closes.
pub const MAX_CONNECTIONS: usize = 1024;
/// The time a client has to send a request's headers, from the connection's start or from
/// the end of the last answer: a connection silent or slow that long is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a request may take, its body and the answer's work together.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(90);
/// How long accepting pauses after it fails (out of file descriptors, say).
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Serves on 127.0.0.1:`port` (0: any free port) until stopped; prints the address.
pub fn run(port: u16, files: &[String]) -> ExitCode {
    for file in files {
        if koma::compile::source::shipped(file).is_none() && !std::path::Path::new(file).exists() {
            eprintln!("error: no variant `{file}`: neither a file nor a shipped variant");
            return ExitCode::FAILURE;
        }
    }
    raise_file_limit();
    // Timers: hyper's timeouts and the pause after a failed accept need them.
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(port, router(files)))
}

/// Raises the soft limit of open files towards what [`MAX_CONNECTIONS`] needs, within the
/// hard limit; where it cannot, accepting pauses when descriptors run out.
#[cfg(unix)]
fn raise_file_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let wanted = MAX_CONNECTIONS as u64 + 64;
    let limit = getrlimit(Resource::Nofile);
    let current = limit.current.unwrap_or(u64::MAX);
    let most = limit.maximum.unwrap_or(u64::MAX);
    if current < wanted {
        let raised = rustix::process::Rlimit {
            current: Some(wanted.min(most)),
            maximum: limit.maximum,
        };
        // Failing leaves the limit as it was, which the accept loop copes with.
        let _ = setrlimit(Resource::Nofile, raised);
    }
}

#[cfg(not(unix))]
fn raise_file_limit() {}

/// Listens on 127.0.0.1:`port`, the system queueing up to [`MAX_CONNECTIONS`] connections
/// not yet accepted (the standard library's bind queues 128).
fn listen(port: u16) -> std::io::Result<tokio::net::TcpListener> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    socket.bind((std::net::Ipv4Addr::LOCALHOST, port).into())?;
    socket.listen(MAX_CONNECTIONS as u32)
}

async fn serve(port: u16, router: Router) -> ExitCode {
    let listener = match listen(port) {
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
    accept_loop(listener, router).await
}

/// Accepts connections while fewer than [`MAX_CONNECTIONS`] are open, each served by hyper
/// with the [`HEADER_TIMEOUT`]. A failed accept (no file descriptor left) is reported once and
/// retried after a pause: it never stops the server.
async fn accept_loop(listener: tokio::net::TcpListener, router: Router) -> ExitCode {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut failing = false;
    loop {
        let Ok(permit) = open.clone().acquire_owned().await else {
            return ExitCode::FAILURE;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                if !failing {
                    eprintln!("warning: cannot accept a connection: {e} (retrying)");
                }
                failing = true;
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        failing = false;
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
            // A connection's errors (reset, timed out, bad request line) end it alone.
            let _ = builder.serve_connection(TokioIo::new(stream), service).await;
            drop(permit);
        });
    }
}
