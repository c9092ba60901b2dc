//! Fuzz target `record`: see `koma::fuzzing::record`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| koma::fuzzing::record(data));
