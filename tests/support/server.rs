//! `koma serve --port 0` as a child process, for the tests that speak to it over a real
//! socket (`tests/serve.rs`) or through a browser (`tests/browser.rs`): the address it prints,
//! and the process killed when dropped.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};

/// A running `koma serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens, as it printed it.
    pub address: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts the server on a free port.
    pub fn start() -> Server {
        Server::with_file_limit(None)
    }

    /// Starts the server, with at most `files` open files when given (the shell's `ulimit`).
    pub fn with_file_limit(files: Option<u32>) -> Server {
        let limit = files.map_or(String::new(), |n| format!("ulimit -n {n} && "));
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{limit}exec \"$0\" serve --port 0"))
            .arg(env!("CARGO_BIN_EXE_koma"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let start = line.find("http://").expect("koma serve prints its address") + "http://".len();
        let address = line[start..].split(['/', ' ']).next().unwrap().parse().unwrap();
        Server { child, address }
    }

    /// The page's address, as a browser opens it.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// The server's exit status, if it has stopped.
    pub fn stopped(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().unwrap()
    }
}
