//! Fuzz target `moves`: see `koma::fuzzing::move_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| koma::fuzzing::move_text(data));
