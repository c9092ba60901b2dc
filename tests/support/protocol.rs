//! Speaking a protocol to `koma usi` or `koma xboard`: the binary is spawned, commands are
//! written to it a line at a time, and its replies are read with a time limit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The longest a reply may take in these tests (the machine may be loaded).
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `koma ARGS…`.
    pub fn start(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_koma"));
        command.args(args);
        Engine::spawn(command)
    }

    /// Starts `command` (koma, or a shell that runs it) and speaks to it.
    pub fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").expect("koma reads its input");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines until one starts with `prefix`; returns the lines read before it and the
    /// line itself. Panics (with the transcript) when none comes within `within`.
    pub fn expect_within(&mut self, prefix: &str, within: Duration) -> (Vec<String>, String) {
        let deadline = Instant::now() + within;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if line.starts_with(prefix) {
                        return (before, line);
                    }
                    before.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{prefix}` within {within:?}:\n{}", self.transcript.join("\n"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("koma ended before `{prefix}`:\n{}", self.transcript.join("\n"))
                }
            }
        }
    }

    pub fn expect(&mut self, prefix: &str) -> (Vec<String>, String) {
        self.expect_within(prefix, PATIENCE)
    }

    /// The lines that arrive within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.transcript.push(line.clone());
            out.push(line);
        }
        out
    }

    /// Sends `quit` (or the given command) and waits for koma to exit; its exit status.
    pub fn quit(mut self, command: &str) -> std::process::ExitStatus {
        self.send(command);
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "koma did not quit:\n{}",
                self.transcript.join("\n")
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _gone = self.child.kill();
        let _reaped = self.child.wait();
    }
}
