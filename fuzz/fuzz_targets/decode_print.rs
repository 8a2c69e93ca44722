#![no_main]
//! `rdna_fuzzing::decode_print` under libFuzzer.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rdna_fuzzing::decode_print(data));
