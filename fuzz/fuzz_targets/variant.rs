//! Fuzz target `variant`: see `koma::fuzzing::variant_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| koma::fuzzing::variant_text(data));
