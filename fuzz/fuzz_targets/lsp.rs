//! Fuzz target `lsp`: the bytes as what an editor sends `koma lsp`, read message after message
//! by its reader (`src/cli/lsp/transport.rs`, part of the binary, so included here by path).
//! Every read ends (a message, an error answered, or the end of the input), consumes input,
//! and allocates no more than the bounds allow; an error answered is framed JSON-RPC.
#![no_main]

#[allow(dead_code)]
#[path = "../../src/cli/lsp/transport.rs"]
mod transport;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut input = std::io::BufReader::new(data);
    for _ in 0..data.len() + 1 {
        match transport::read(&mut input) {
            transport::Incoming::Message(message) => {
                let mut written = Vec::new();
                message.write(&mut written).expect("a message writes");
            }
            transport::Incoming::Unreadable(unreadable) => {
                let framed = unreadable.framed();
                let body = framed.split(|&b| b == b'\n').last().expect("a body");
                let _: serde_json::Value = serde_json::from_slice(body).expect("the error is JSON");
            }
            transport::Incoming::TooLong(length) => assert!(length > transport::MAX_MESSAGE_BYTES),
            transport::Incoming::End => return,
        }
    }
    panic!("reads that consume nothing");
});
