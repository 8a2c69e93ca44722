#![no_main]
//! `rdna_fuzzing::assemble` under libFuzzer.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rdna_fuzzing::assemble(data));
