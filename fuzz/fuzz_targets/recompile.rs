#![no_main]
//! `rdna_fuzzing::recompile` under libFuzzer.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rdna_fuzzing::recompile(data));
