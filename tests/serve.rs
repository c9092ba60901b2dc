//! `koma serve` as a process on a real socket: idle connections past its open-file limit, a
//! silent client, a slow one (slowloris) and a crowd of 2,000 never stop it, and each
//! connection a client leaves silent is closed after the header timeout.
#![cfg(unix)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// `koma serve`'s header timeout (`HEADER_TIMEOUT` in src/cli/serve/mod.rs).
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

mod support;

use support::server::Server;

/// The status line of `GET /api/variants` from `server`, waiting at most `wait` for the answer.
fn list(server: &Server, wait: Duration) -> String {
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    stream
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_string()
}

/// How long the server keeps `stream` open, reading (and dropping) what it sends; `None` if
/// still open after `wait`.
fn time_to_close(mut stream: TcpStream, wait: Duration) -> Option<Duration> {
    let started = Instant::now();
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut buffer = [0; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return Some(started.elapsed()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Some(started.elapsed()),
            Err(_) => return None,
        }
    }
}

/// A slowloris client: a request's headers sent a byte every 300 ms, never finished; how
/// long the server keeps it.
fn slowloris(address: SocketAddr) -> Option<Duration> {
    let mut stream = TcpStream::connect(address).unwrap();
    let started = Instant::now();
    stream
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\n")
        .unwrap();
    for byte in b"X-Slow: ".iter().cycle() {
        std::thread::sleep(Duration::from_millis(300));
        if stream.write_all(&[*byte]).is_err() {
            return Some(started.elapsed());
        }
        if started.elapsed() > 3 * HEADER_TIMEOUT {
            return None;
        }
    }
    None
}

/// With descriptors run out, accepting fails (EMFILE): axum's pause after it needed a timer
/// the runtime did not have, and the server panicked, losing every game.
#[test]
fn idle_connections_past_the_open_file_limit_leave_the_server_answering() {
    let mut server = Server::with_file_limit(Some(64));
    let idle: Vec<TcpStream> = (0..200).map(|_| TcpStream::connect(server.address).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(server.stopped(), None, "the server stopped");
    drop(idle);
    assert!(list(&server, HEADER_TIMEOUT).contains("200 OK"));
    assert_eq!(server.stopped(), None, "the server stopped");
}

#[test]
fn a_silent_a_slow_and_an_idle_client_are_disconnected_after_the_header_timeout() {
    let server = Server::start();
    let address = server.address;
    let wait = 2 * HEADER_TIMEOUT;
    let silent = std::thread::spawn(move || time_to_close(TcpStream::connect(address).unwrap(), wait));
    let slow = std::thread::spawn(move || slowloris(address));
    // Idle after an answer: a kept-alive connection left open by a closed tab.
    let idle = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(address).unwrap();
        stream
            .write_all(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .unwrap();
        time_to_close(stream, wait)
    });
    for (client, closed) in [("silent", silent), ("slow", slow), ("idle", idle)] {
        let closed = closed.join().unwrap();
        let closed = closed.unwrap_or_else(|| panic!("the {client} client was never disconnected"));
        assert!(
            closed >= HEADER_TIMEOUT - Duration::from_secs(1) && closed < HEADER_TIMEOUT + Duration::from_secs(3),
            "the {client} client was disconnected after {closed:?}"
        );
    }
    assert!(list(&server, HEADER_TIMEOUT).contains("200 OK"));
}

/// Raises this process's open-file limit to hold `files`.
fn hold_files(files: u64) {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current.is_some_and(|current| current < files) {
        let raised = Rlimit {
            current: Some(limit.maximum.map_or(files, |most| most.min(files))),
            maximum: limit.maximum,
        };
        setrlimit(Resource::Nofile, raised).expect("the open-file limit raised");
    }
}

#[test]
#[ignore = "2,000 connections held for some 20 s: .ci/run runs it"]
fn two_thousand_idle_connections_and_a_slowloris_client_leave_the_server_answering() {
    hold_files(2_200);
    let mut server = Server::start();
    let address = server.address;
    let slow = std::thread::spawn(move || slowloris(address));
    let idle: Vec<TcpStream> = (0..2_000).map(|_| TcpStream::connect(address).unwrap()).collect();
    // The request waits behind the idle connections until the header timeout closes them.
    let started = Instant::now();
    let status = list(&server, 4 * HEADER_TIMEOUT);
    assert!(
        status.contains("200 OK"),
        "answered `{status}` after {:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < 3 * HEADER_TIMEOUT, "{:?}", started.elapsed());
    assert!(slow.join().unwrap().is_some(), "the slow client was never disconnected");
    assert_eq!(server.stopped(), None, "the server stopped");
    drop(idle);
}
