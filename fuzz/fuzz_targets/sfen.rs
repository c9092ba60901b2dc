//! Fuzz target `sfen`: see `koma::fuzzing::sfen`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| koma::fuzzing::sfen(data));
