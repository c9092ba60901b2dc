//! What every request passes before the API sees it: the host it names must be this
//! computer's loopback (a web page whose name was rebound to 127.0.0.1 sends its own name,
//! and is refused), and it must be done within [`REQUEST_TIMEOUT`](super::REQUEST_TIMEOUT).

use super::REQUEST_TIMEOUT;
use super::error::{ApiError, excerpt};
use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The host names served, with any port: the loopback names, and the address koma prints.
const LOOPBACK: &[&str] = &["localhost", "127.0.0.1", "[::1]"];

/// The host a request names (its absolute URI's, else its `Host` header's), without the port.
fn host(request: &Request) -> Option<String> {
    let named = match request.uri().authority() {
        Some(authority) => authority.as_str().to_string(),
        None => request.headers().get(header::HOST)?.to_str().ok()?.to_string(),
    };
    let without_port = match named.rfind(':') {
        Some(colon) if !named[colon..].contains(']') => named[..colon].to_string(),
        _ => named,
    };
    Some(without_port.to_ascii_lowercase())
}

/// Serves a request naming a loopback host; any other gets 403.
pub async fn loopback_only(request: Request, next: Next) -> Response {
    match host(&request) {
        Some(name) if LOOPBACK.contains(&name.as_str()) => next.run(request).await,
        Some(name) => ApiError::forbidden(format!(
            "koma serves only this computer's own pages (localhost, 127.0.0.1 or [::1]), not host `{}`",
            excerpt(&name)
        ))
        .into_response(),
        None => ApiError::forbidden("the request names no host (no readable Host header)".into()).into_response(),
    }
}

/// Answers 408 for a request not done within [`REQUEST_TIMEOUT`]: its body too slow, or its
/// work too long (the work is dropped, which stops a search).
pub async fn time_limit(request: Request, next: Next) -> Response {
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::timeout(format!(
            "the request took longer than {} s, the most the server gives one",
            REQUEST_TIMEOUT.as_secs()
        ))
        .into_response(),
    }
}
