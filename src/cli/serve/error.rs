//! The API's errors: a status and a JSON body `{"error": MESSAGE, "status": CODE}`, with the
//! check report (as `koma check --format json` writes it) and the source text for a variant
//! with errors. A message quotes at most an excerpt of what the client sent, and is itself
//! bounded.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use koma::compile::{Report, Source};
use serde_json::{Value, json};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// More to say, merged into the body (`check`, `source`).
    pub details: Option<Value>,
}

/// The most characters of a client's input an error quotes.
pub const EXCERPT_CHARS: usize = 60;
/// The most characters of an error's message (one from a library may quote input whole).
pub const MESSAGE_CHARS: usize = 1000;

/// An excerpt of a client's input, for quoting in an error.
pub fn excerpt(text: &str) -> String {
    koma::notation::excerpt(text, EXCERPT_CHARS)
}

impl ApiError {
    fn new(status: StatusCode, message: String) -> ApiError {
        ApiError {
            status,
            message: koma::notation::excerpt(&message, MESSAGE_CHARS),
            details: None,
        }
    }

    /// A request naming a host that is not this computer's loopback (DNS rebinding).
    pub fn forbidden(message: String) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// A request that took longer than the server gives one.
    pub fn timeout(message: String) -> ApiError {
        ApiError::new(StatusCode::REQUEST_TIMEOUT, message)
    }

    pub fn bad_request(message: String) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn method_not_allowed(message: String) -> ApiError {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, message)
    }

    pub fn not_found(message: String) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// The request does not fit the game's state: an illegal move, a game over, a stale ply.
    pub fn conflict(message: String) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    pub fn unprocessable(message: String) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn busy(message: String) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// A variant that does not compile: its report, and its text for showing the spans.
    pub fn invalid_variant(name: &str, report: &Report, source: Option<&Source>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: koma::notation::excerpt(&report.summary(name), MESSAGE_CHARS),
            details: Some(json!({
                "check": koma::compile::FileResult::of(name, report),
                "source": source.map(|s| s.text.to_string()),
            })),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message, "status": self.status.as_u16() });
        if let (Some(Value::Object(more)), Value::Object(map)) = (self.details, &mut body) {
            map.extend(more);
        }
        (self.status, Json(body)).into_response()
    }
}

/// A body that is too large, not JSON, or not the JSON expected: axum's own status (413,
/// 400, 415 or 422) and message.
impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

/// A path that does not name a game (`/api/games/abc`), or that is not UTF-8 once decoded
/// (`/api/variants/%ff/help`).
impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}
