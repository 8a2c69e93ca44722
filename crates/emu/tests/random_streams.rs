//! Random instruction streams must never panic the emulator: every valid gfx1030 encoding, with
//! random register contents and memory, either runs or stops with an error.

use rdna_disasm::Decoder;
use rdna_emu::snippet::Snippet;

use rdna_testkit::Rng;

#[test]
fn random_valid_instructions_never_panic() {
    let seed = std::env::var("RDNA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_1234_u64);
    println!("seed {seed} (RDNA_SEED replays)");
    let mut rng = Rng(seed | 1);
    let mut ran = 0;
    let mut faulted = 0;
    for (mcpu, wave64) in [("gfx1030", false), ("gfx1030", true), ("gfx1100", false), ("gfx1100", true)] {
        let dec = Decoder::new(rdna_isa::Target { wave64, ..rdna_isa::Target::from_name(mcpu).unwrap() });
        let count: usize = std::env::var("RDNA_STREAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(2500);
        for _ in 0..count {
            // Streams of 8 random valid instructions (a quarter scalar ALU, so that branches
            // stay short).
            let mut code = Vec::new();
            for _ in 0..8 {
                code.extend(rng.instruction(&dec, 4).1);
            }
            let mut s = Snippet::for_target(mcpu, wave64).unwrap();
            for r in 0..256 {
                let base = rng.next();
                s.set_v(r, |l| (base >> (l % 32)) as u32 ^ l as u32);
            }
            for r in 0..106 {
                s.wave.s[r] = rng.next() as u32;
            }
            match s.run(&code) {
                Ok(_) => ran += 1,
                Err(_) => faulted += 1,
            }
        }
    }
    println!("{ran} streams ran to the end, {faulted} stopped with an error");
    assert!(ran > 2000, "too few streams ran: {ran}");
}
