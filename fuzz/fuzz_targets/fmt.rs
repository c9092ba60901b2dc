//! Fuzz target `fmt`: see `koma::fuzzing::format_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| koma::fuzzing::format_text(data));
