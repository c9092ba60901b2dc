//! The expensive work, off the request path: compiling a variant (kept, and shared by its
//! games), drawing piece help, replaying a record, and engine searches. Each runs on a tokio
//! blocking thread holding a slot (a semaphore's permit, given back however the work ends),
//! never holding the store's lock while it runs, and bounded in time.

use super::error::ApiError;
use super::store::{self, Built, MAX_SEARCHES, VariantSource};
use super::{Shared, lock};
use koma::compile::Choice;
use koma::engine::{Limits, SearchResult, search};
use koma::game::Position;
use koma::variant::Variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;

/// The longest a request waits for a compilation or a piece help; past it the request is
/// answered 503, and a compilation goes on and is kept for the next request.
pub const BUILD_WAIT: Duration = Duration::from_secs(30);
/// The longest a search waits for a free slot before it is refused (busy).
pub const SEARCH_WAIT: Duration = Duration::from_secs(1);

/// Runs `work` on a blocking thread once a slot of `slots` is free, waiting at most `wait`
/// for both.
pub async fn blocking<T: Send + 'static>(
    slots: Arc<Semaphore>,
    wait: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let run = async move {
        let permit = slots.acquire_owned().await.map_err(|e| ApiError::busy(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| ApiError::busy(format!("the work failed: {e}")))
    };
    tokio::time::timeout(wait, run).await.unwrap_or_else(|_| {
        Err(ApiError::busy(format!(
            "koma is still working on this after {} s: try again shortly",
            wait.as_secs()
        )))
    })
}

/// A variant compiled with these options: kept from an earlier request when its text and
/// options are the same, else compiled now (and kept).
pub async fn build(shared: &Shared, variant: VariantSource, choices: &[Choice]) -> Result<Built, ApiError> {
    let builds = lock(shared).builds.clone();
    let choices = choices.to_vec();
    let shared = shared.clone();
    blocking(builds, BUILD_WAIT, move || {
        let (text, key) = store::build_key(&variant, &choices);
        if let Some(built) = lock(&shared).built(&key) {
            return built;
        }
        let built = store::build(&variant, text, &choices);
        lock(&shared).keep_built(key, built.clone());
        built
    })
    .await
}

/// A variant the server offers, by key, compiled with these options; a variant with errors
/// is an error carrying its check report.
pub async fn variant(shared: &Shared, key: &str, choices: &[Choice]) -> Result<Variant, ApiError> {
    let variant = lock(shared).variant(key)?;
    let built = build(shared, variant, choices).await?;
    built
        .variant
        .map_err(|report| ApiError::invalid_variant(key, &report, built.source.as_ref()))
}

/// Sets the stop flag when dropped: a request dropped (its client gone) stops its search.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Searches `position` on a blocking thread, in one of the [`MAX_SEARCHES`] slots; the
/// search stops as soon as the request is dropped.
pub async fn search_off(
    searches: Arc<Semaphore>,
    position: Position,
    limits: Limits,
) -> Result<SearchResult, ApiError> {
    let permit = match tokio::time::timeout(SEARCH_WAIT, searches.acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) | Err(_) => {
            return Err(ApiError::busy(format!(
                "koma is already thinking about {MAX_SEARCHES} moves: try again when one is played"
            )));
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(stop.clone()),
        ..limits
    };
    let _stop_on_drop = StopOnDrop(stop);
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        search(&position, &limits)
    })
    .await
    .map_err(|e| ApiError::busy(format!("the search failed: {e}")))
}
