#![no_main]
//! `rdna_fuzzing::emulate` under libFuzzer.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rdna_fuzzing::emulate(data));
