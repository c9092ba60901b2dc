//! Fuzz target `positions`: see `koma::fuzzing::positions`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| koma::fuzzing::positions(data));
