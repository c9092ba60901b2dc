//! The protocol's framing on standard input and output (`Content-Length` headers, then a JSON
//! body), read with bounds: `lsp-server`'s own reader allocates whatever a header asks for
//! (`Content-Length: 18446744073709551615` panics, 8 GB aborts) and ends the server at the
//! first message it cannot read. Here a header line is at most [`MAX_HEADER_LINE_BYTES`] and a
//! body at most [`MAX_MESSAGE_BYTES`], checked before anything is allocated; a message that
//! cannot be read (a bad header, a body too long, not UTF-8, not JSON, not a message) is
//! answered with JSON-RPC's error for it (`id` null) and the server reads on.
//!
//! The messages read go to the server through an `lsp-server` connection in memory; what the
//! server sends is written by a thread of its own, a message at a time.

use lsp_server::{Connection, Message};
use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;

/// The longest message body read: a document of the largest variant file koma reads (4 MiB)
/// with every character escaped in JSON fits.
pub const MAX_MESSAGE_BYTES: u64 = 32 << 20;

/// The longest header line read; the protocol's headers are a few dozen bytes.
pub const MAX_HEADER_LINE_BYTES: u64 = 1024;

/// JSON-RPC's error code for a body that is not JSON.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's error code for JSON that is not a request, a notification or a response.
const INVALID_REQUEST: i32 = -32600;

/// A message that could not be read: its JSON-RPC error code and why.
#[derive(Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub code: i32,
    pub message: String,
}

impl Unreadable {
    fn parse(message: String) -> Unreadable {
        Unreadable {
            code: PARSE_ERROR,
            message,
        }
    }

    /// The error response, framed.
    pub fn framed(&self) -> Vec<u8> {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": self.code, "message": self.message},
        })
        .to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }
}

/// What one read of the input gave.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    Unreadable(Unreadable),
    /// Headers giving a body longer than [`MAX_MESSAGE_BYTES`]: answered at once, then the
    /// body is skipped as it comes.
    TooLong(u64),
    /// The input ended.
    End,
}

/// Starts the threads that read standard input and write standard output; returns the
/// server's end of the connection and the writer, to be joined once the connection is dropped.
pub fn stdio() -> (Connection, JoinHandle<()>) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let writer = std::thread::spawn(move || {
        for message in receiver {
            let mut out = std::io::stdout().lock();
            if message.write(&mut out).is_err() {
                return;
            }
        }
    });
    // The reader is not joined: after `exit` it has stopped, and at the end of the input too.
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            match read(&mut input) {
                Incoming::Message(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if sender.send(message).is_err() || exit {
                        return;
                    }
                }
                Incoming::Unreadable(unreadable) => answer(&unreadable),
                Incoming::TooLong(length) => {
                    answer(&Unreadable::parse(format!(
                        "a message of {length} bytes is longer than the {MAX_MESSAGE_BYTES} bytes koma lsp reads; it \
                         is skipped"
                    )));
                    if skip(&mut input, length).is_err() {
                        return;
                    }
                }
                Incoming::End => return,
            }
        }
    });
    (server, writer)
}

/// Writes the answer to a message that could not be read.
fn answer(unreadable: &Unreadable) {
    let mut out = std::io::stdout().lock();
    let _closed = out.write_all(&unreadable.framed()).and_then(|()| out.flush());
}

/// Reads one message: its headers, then its body.
pub fn read(input: &mut impl BufRead) -> Incoming {
    let length = match read_headers(input) {
        Ok(Some(length)) => length,
        Ok(None) => return Incoming::End,
        Err(unreadable) => return Incoming::Unreadable(unreadable),
    };
    if length > MAX_MESSAGE_BYTES {
        return Incoming::TooLong(length);
    }
    let mut body = Vec::new();
    match input.take(length).read_to_end(&mut body) {
        Ok(n) if n as u64 == length => body_message(&body),
        _ => Incoming::End,
    }
}

/// The `Content-Length` of the next message's headers: `None` at the end of the input. A bad
/// header is reported after the rest of the headers (to their blank line) is read, so that
/// the next message is read from its start.
fn read_headers(input: &mut impl BufRead) -> Result<Option<u64>, Unreadable> {
    let mut length = None;
    let mut fault = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let read = input.take(MAX_HEADER_LINE_BYTES).read_until(b'\n', &mut line);
        match read {
            Ok(0) if first => return Ok(None),
            Ok(0) | Err(_) => {
                return Err(fault.unwrap_or_else(|| Unreadable::parse("the input ended in a header".into())));
            }
            Ok(_) => {}
        }
        first = false;
        if line.last() != Some(&b'\n') {
            fault.get_or_insert_with(|| {
                Unreadable::parse(format!("a header line is longer than {MAX_HEADER_LINE_BYTES} bytes"))
            });
            continue;
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\n', '\r']);
        if line.is_empty() {
            break;
        }
        match header_length(line) {
            Ok(Some(n)) => length = Some(n),
            Ok(None) => {}
            Err(why) => {
                fault.get_or_insert(Unreadable::parse(why));
            }
        }
    }
    match (fault, length) {
        (Some(fault), _) => Err(fault),
        (None, None) => Err(Unreadable::parse("a message has no Content-Length header".into())),
        (None, Some(n)) => Ok(Some(n)),
    }
}

/// The length a header line gives, if it is `Content-Length`.
fn header_length(line: &str) -> Result<Option<u64>, String> {
    let excerpt: String = line.chars().take(40).collect();
    let Some((name, value)) = line.split_once(':') else {
        return Err(format!("`{excerpt}` is not a header (NAME: VALUE)"));
    };
    if !name.trim().eq_ignore_ascii_case("Content-Length") {
        return Ok(None);
    }
    value
        .trim()
        .parse::<u64>()
        .map(Some)
        .map_err(|_| format!("`{excerpt}`: the length is not a whole number of bytes"))
}

/// Reads and drops `length` bytes, a buffer at a time.
fn skip(input: &mut impl BufRead, length: u64) -> Result<(), ()> {
    let skipped = std::io::copy(&mut input.take(length), &mut std::io::sink()).map_err(|_| ())?;
    if skipped == length { Ok(()) } else { Err(()) }
}

/// A body read as a message.
fn body_message(body: &[u8]) -> Incoming {
    let Ok(text) = std::str::from_utf8(body) else {
        return Incoming::Unreadable(Unreadable::parse("the message is not UTF-8".into()));
    };
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return Incoming::Unreadable(Unreadable::parse(format!("the message is not JSON: {e}"))),
    };
    match serde_json::from_value(value) {
        Ok(message) => Incoming::Message(message),
        Err(e) => Incoming::Unreadable(Unreadable {
            code: INVALID_REQUEST,
            message: format!("the message is not a request, a notification or a response: {e}"),
        }),
    }
}
