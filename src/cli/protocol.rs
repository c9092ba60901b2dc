//! What the protocol front ends (`koma usi`, `koma xboard`) share: commands read a line at a
//! time, replies written a line at a time from either thread, and the search on its own
//! thread, so that the thread reading commands stays free to answer `stop`, `isready` or `?`
//! at once while koma thinks. The searcher (its transposition table) moves to the thread for
//! each search and comes back when the search is joined.

use koma::compile::Choice;
use koma::engine::{Limits, SearchResult, Searcher, WeightFile};
use koma::game::MoveTables;
use koma::game::Position;
use koma::variant::Variant;
use std::io::{BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// The longest command line read; the rest of a longer line is skipped.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Writes one line of the protocol to standard output, at once. A closed output (the GUI
/// has gone) is not an error here: reading the commands then ends too.
pub fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _closed = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// One command line from `input`, without its line end: `None` at the end of the input.
/// A line longer than [`MAX_LINE_BYTES`] is cut there (the rest is skipped) and bytes that are
/// not UTF-8 are replaced, so that the protocol answers it as bad input.
pub fn read_command(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let read = input.by_ref().take(MAX_LINE_BYTES).read_until(b'\n', &mut bytes).ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() != Some(&b'\n') && read as u64 == MAX_LINE_BYTES {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let skipped = input.by_ref().take(MAX_LINE_BYTES).read_until(b'\n', &mut rest).ok()?;
            if skipped == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Some(
        String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\n', '\r'])
            .to_string(),
    )
}

/// How often a held search looks whether it may report.
const HOLD_POLL: Duration = Duration::from_millis(5);

/// What the thread reports with, once the search is over: runs on the searching thread.
pub type Report = Box<dyn FnOnce(&SearchResult) + Send>;

/// The searcher, and the search running, if any.
#[derive(Default)]
pub struct Thinker {
    searcher: Option<Searcher>,
    /// Threads per search (USI's `Threads`, CECP's `cores`); 0 stands for 1.
    threads: usize,
    /// The evaluation's weights (koma's own when not set).
    weights: Option<Arc<WeightFile>>,
    running: Option<Running>,
}

struct Running {
    /// Ends the search.
    stop: Arc<AtomicBool>,
    /// While set, a finished search waits (USI's `infinite` and `ponder`) to report.
    hold: Arc<AtomicBool>,
    /// Set to end the search without reporting.
    silent: Arc<AtomicBool>,
    thread: JoinHandle<(Searcher, SearchResult)>,
}

impl Thinker {
    /// Starts searching `pos`, after ending any search running (without its report). When
    /// `hold` is set, the report waits for [`stop`](Thinker::stop) or
    /// [`release`](Thinker::release) even if the search ends first.
    pub fn start(&mut self, pos: Position, mut limits: Limits, hold: bool, report: Report) {
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        let hold = Arc::new(AtomicBool::new(hold));
        let silent = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let mut searcher = self.searcher.take().unwrap_or_default();
        searcher.set_threads(self.threads);
        if let Some(weights) = &self.weights {
            searcher.set_weights(weights.clone());
        }
        let (stopped, held, quiet) = (stop.clone(), hold.clone(), silent.clone());
        let thread = thread::Builder::new().name("search".into()).spawn(move || {
            let result = searcher.search(&pos, &limits);
            while held.load(Ordering::Acquire) && !stopped.load(Ordering::Acquire) {
                thread::sleep(HOLD_POLL);
            }
            if !quiet.load(Ordering::Acquire) {
                report(&result);
            }
            (searcher, result)
        });
        // A thread that cannot start searches nothing: the next search makes a new searcher.
        if let Ok(thread) = thread {
            self.running = Some(Running {
                stop,
                hold,
                silent,
                thread,
            });
        }
    }

    /// Ends the search at once; it reports its best move so far. Returns what it found.
    pub fn stop(&mut self) -> Option<SearchResult> {
        let running = self.running.as_ref()?;
        running.stop.store(true, Ordering::Release);
        self.join()
    }

    /// Ends the search at once without its report.
    pub fn cancel(&mut self) -> Option<SearchResult> {
        let running = self.running.as_ref()?;
        running.silent.store(true, Ordering::Release);
        running.stop.store(true, Ordering::Release);
        self.join()
    }

    /// Waits for the search to end by itself (and report). Returns what it found.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.join()
    }

    /// Lets a held search report (USI's `ponderhit`): when it has ended, at once; otherwise
    /// when it ends, or after `time` if given.
    pub fn release(&self, time: Option<Duration>) {
        let Some(running) = &self.running else {
            return;
        };
        running.hold.store(false, Ordering::Release);
        if let Some(time) = time {
            let stop = running.stop.clone();
            // The timer outlives nothing it needs: a later search has its own flag.
            let _timer = thread::Builder::new().name("timer".into()).spawn(move || {
                thread::sleep(time);
                stop.store(true, Ordering::Release);
            });
        }
    }

    /// Searches with this searcher from now on (another table size).
    pub fn set_searcher(&mut self, searcher: Searcher) {
        self.cancel();
        self.searcher = Some(searcher);
    }

    /// A thinker that evaluates with these weights.
    pub fn with_weights(weights: Arc<WeightFile>) -> Thinker {
        Thinker {
            weights: Some(weights),
            ..Thinker::default()
        }
    }

    /// Searches with this many threads from now on (lazy SMP).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// Forgets what the searcher learnt (a new game).
    pub fn clear(&mut self) {
        self.cancel();
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
    }

    fn join(&mut self) -> Option<SearchResult> {
        let running = self.running.take()?;
        let (searcher, result) = running.thread.join().ok()?;
        self.searcher = Some(searcher);
        Some(result)
    }
}

/// The longest clock value read (a time left, an increment, byoyomi, a time per move): a
/// year. A longer one is refused with the protocol's error, so that no sum or product of
/// clock values can overflow, and a search is never given a deadline past what a game lasts.
pub const MAX_CLOCK: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// A clock value given in milliseconds, if it is at most [`MAX_CLOCK`].
pub fn clock_millis(millis: u64) -> Option<Duration> {
    let most = u64::try_from(MAX_CLOCK.as_millis()).unwrap_or(u64::MAX);
    (millis <= most).then(|| Duration::from_millis(millis))
}

/// A clock value given in seconds (`0.5`, `30`), if it is a number from 0 to [`MAX_CLOCK`].
pub fn clock_seconds(text: &str) -> Option<Duration> {
    let seconds: f64 = text.parse().ok()?;
    (0.0..=MAX_CLOCK.as_secs_f64())
        .contains(&seconds)
        .then(|| Duration::from_secs_f64(seconds))
}

/// Kept from the clock for the GUI's own delays.
pub const MARGIN: Duration = Duration::from_millis(100);

/// The search's time for a move whose time is fixed (USI `go movetime`, CECP `st`): all of
/// it but a twentieth, at most [`MARGIN`], for the GUI's delays (0.3 s gives 0.285 s).
pub fn fixed_move_time(time: Duration) -> Duration {
    time.saturating_sub((time / 20).min(MARGIN)).max(MIN_TIME)
}
/// The least time a move is given.
pub const MIN_TIME: Duration = Duration::from_millis(10);
/// A move is given this share of the time left (plus increments and byoyomi), when the time
/// control has no move count.
pub const MOVES_TO_GO: u32 = 25;
/// On a clock, a move may run on to this many times its share to finish an iteration begun
/// within the share (see [`MoveTime`]).
pub const OVERRUN: u32 = 4;

/// A move's time: the most it may take, and on a clock the time it should take (the search's
/// `time` and `target`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    /// The most the move may take.
    pub most: Duration,
    /// On a clock, the time the move should take; `None` for a move's own time, used to the end.
    pub target: Option<Duration>,
}

impl MoveTime {
    /// A move's own time (USI `go movetime`, CECP `st`, byoyomi once the main time is spent).
    pub fn fixed(time: Duration) -> MoveTime {
        MoveTime {
            most: fixed_move_time(time),
            target: None,
        }
    }

    /// A move's time on a clock with `left` on it and `to_go` moves to play in it, gaining
    /// `extra` (the increment, byoyomi) with the move: its share `left / to_go + extra`, kept
    /// clear of [`MARGIN`]. The search may run on to [`OVERRUN`] times the share to finish an
    /// iteration, but never past half of what is left beyond the share itself.
    pub fn on_clock(left: Duration, to_go: u32, extra: Duration) -> MoveTime {
        let all = (left + extra).saturating_sub(MARGIN);
        let share = (left / to_go.max(1) + extra).min(all).max(MIN_TIME);
        let most = (share * OVERRUN).min((all / 2).max(share));
        MoveTime {
            most,
            target: Some(share),
        }
    }
}

/// The variant an engine starts with, or its report on standard error.
pub fn load_or_report(name: &str, choices: &[Choice]) -> Result<Variant, ()> {
    load_variant(name, choices).map_err(|lines| {
        for line in lines {
            eprintln!("{line}");
        }
    })
}

/// Compiles a variant (a shipped name or a path) with options; on errors, the report's lines.
pub fn load_variant(name: &str, choices: &[Choice]) -> Result<Variant, Vec<String>> {
    Variant::named(name, choices).map_err(|report| {
        let mut lines: Vec<String> = report
            .render(false)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        lines.push(report.summary(name));
        lines
    })
}

/// Checks an option of the variant and its value: the error says which are known.
pub fn check_option(tables: &MoveTables, name: &str, value: &str) -> Result<(), String> {
    let options = &tables.rules().options;
    let Some(option) = options.get(name) else {
        let known: Vec<&str> = options.keys().map(String::as_str).collect();
        return Err(format!(
            "`{name}` is not an option of {} (its options: {})",
            tables.rules().name,
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ));
    };
    if option.values.iter().any(|v| v == value) {
        Ok(())
    } else {
        Err(format!(
            "`{value}` is not a value of {name} (its values: {})",
            option.values.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move on a clock should take its share of the time left, and may take up to four
    /// times that to finish an iteration.
    #[test]
    fn a_move_on_a_clock_targets_its_share_and_may_overrun_it() {
        let t = MoveTime::on_clock(Duration::from_secs(10), MOVES_TO_GO, Duration::from_millis(100));
        assert_eq!(t.target, Some(Duration::from_millis(500)));
        assert_eq!(t.most, Duration::from_millis(2000));
    }

    /// However large the share, the most a move may take leaves half the time left.
    #[test]
    fn a_move_on_a_clock_never_takes_more_than_half_the_time_left_beyond_its_share() {
        let t = MoveTime::on_clock(Duration::from_secs(10), 3, Duration::ZERO);
        let all = Duration::from_secs(10) - MARGIN;
        assert_eq!(t.most, all / 2);
        let last = MoveTime::on_clock(Duration::from_secs(10), 1, Duration::ZERO);
        assert_eq!((last.target, last.most), (Some(all), all));
    }

    /// A move's own time is used to its end: it has no target short of it.
    #[test]
    fn a_fixed_move_time_has_no_target() {
        let t = MoveTime::fixed(Duration::from_secs(1));
        assert_eq!((t.most, t.target), (Duration::from_millis(950), None));
    }
}
