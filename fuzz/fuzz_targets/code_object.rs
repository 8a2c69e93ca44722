#![no_main]
//! `rdna_fuzzing::code_object` under libFuzzer.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rdna_fuzzing::code_object(data));
