#![no_main]
//! `rdna_fuzzing::dispatch` under libFuzzer.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rdna_fuzzing::dispatch(data));
