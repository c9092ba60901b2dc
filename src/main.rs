//! The `koma` command line.

mod cli;

fn main() -> std::process::ExitCode {
    restore_broken_pipe_default();
    cli::run()
}

/// Output piped into a program that stops reading (`koma moves chu | head`) should end koma
/// quietly, as it does any Unix tool, not make `print!` panic. Rust ignores SIGPIPE; this
/// restores the default action.
#[cfg(unix)]
fn restore_broken_pipe_default() {
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: setting a signal's disposition to its default at start-up, before any thread
    // exists, has no preconditions.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_broken_pipe_default() {}
