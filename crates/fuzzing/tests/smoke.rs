//! A few seconds of each fuzz target on stable (`RDNA_FUZZ_SECONDS` per target, default 3;
//! `RDNA_SEED` replays), from seeds that reach deep (real code objects, dispatch files, valid
//! instruction streams, assembly text) mutated at random; then every input kept in
//! `fuzz/regressions/<target>/` (crashes the fuzzers found, fixed since).

use std::time::{Duration, Instant};

use rdna_disasm::Decoder;
use rdna_testkit::Rng;

fn seconds() -> f64 {
    std::env::var("RDNA_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3.0)
}

fn seed() -> u64 {
    std::env::var("RDNA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    }) | 1
}

/// A random mutation of `input`: bit flips, random and boundary bytes and dwords, cut, inserted and
/// duplicated ranges, truncation.
fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        if v.is_empty() {
            v.push(rng.next() as u8);
            continue;
        }
        let i = rng.below(v.len());
        match rng.below(7) {
            0 => v[i] ^= 1 << rng.below(8),
            1 => v[i] = rng.next() as u8,
            2 => {
                let x: u32 = [0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff][rng.below(9)];
                let at = i & !3;
                for (k, b) in x.to_le_bytes().iter().enumerate() {
                    if let Some(t) = v.get_mut(at + k) {
                        *t = *b;
                    }
                }
            }
            3 => {
                let end = (i + 1 + rng.below(64)).min(v.len());
                v.drain(i..end);
            }
            4 => {
                let n = rng.below(16);
                for _ in 0..n {
                    v.insert(i, rng.next() as u8);
                }
            }
            5 => {
                let end = (i + 1 + rng.below(64)).min(v.len());
                let chunk = v[i..end].to_vec();
                let at = rng.below(v.len());
                v.splice(at..at, chunk);
            }
            _ => v.truncate(i),
        }
    }
    v
}

/// Seeds for each target.
fn seeds(name: &str, rng: &mut Rng) -> Vec<Vec<u8>> {
    let root = rdna_testkit::root();
    let saxpy = std::fs::read(root.join("examples/saxpy.hsaco")).unwrap();
    let json = std::fs::read(root.join("examples/saxpy.json")).unwrap();
    let stream = |rng: &mut Rng, mcpu: &str, n: usize| {
        let dec = Decoder::new(rdna_isa::Target::from_name(mcpu).unwrap());
        let mut v = Vec::new();
        for _ in 0..n {
            v.extend(rng.instruction(&dec, 4).1);
        }
        v
    };
    match name {
        "decode_print" => (0..10u8).map(|t| [vec![t], stream(rng, ["gfx700", "gfx803", "gfx908", "gfx90a", "gfx942", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1200"][t as usize], 8)].concat()).collect(),
        "assemble" => [
            "v_add_f32 v1, v2, v3\ns_load_dwordx2 s[0:1], s[4:5], 0x10\nlabel:\ns_cbranch_scc0 label\n",
            "v_dual_add_f32 v4, v8, v12 :: v_dual_mov_b32 v5, v9\ns_waitcnt vmcnt(0) & lgkmcnt(0)\n",
            "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D\n.long 0x12345678\n",
            "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0\ns_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\nv_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n",
        ]
        .iter()
        .flat_map(|t| (0..10u8).map(move |k| [vec![k], t.as_bytes().to_vec()].concat()))
        .collect(),
        "code_object" => vec![saxpy],
        "dispatch" => vec![json],
        "emulate" => vec![[vec![6u8], stream(rng, "gfx1030", 12)].concat(), [vec![7u8], stream(rng, "gfx1100", 12)].concat()],
        "recompile" => (0..4u8).map(|k| [vec![k], stream(rng, if k < 2 { "gfx1030" } else { "gfx1100" }, 12)].concat()).collect(),
        _ => unreachable!(),
    }
}

#[test]
fn every_fuzz_target_survives_a_few_seconds() {
    // The targets recurse in proportion to their input (a kernel's calls while its CFG is
    // scanned, the structurizer along the dominator tree), bounded by the input's size; a debug
    // build's frames are several times a release build's, and a test thread has 2 MiB. One CI
    // run overflowed that (the abort lost the input, so which target is not known). The loop
    // runs on a thread with a main thread's 8 MiB doubled; unbounded recursion still overflows.
    std::thread::Builder::new().stack_size(16 << 20).spawn(fuzz_every_target).unwrap().join().unwrap();
}

fn fuzz_every_target() {
    let s = seed();
    println!("seed {s} (RDNA_SEED replays)");
    let mut rng = Rng(s);
    for (name, target) in rdna_fuzzing::ALL {
        let seeds = seeds(name, &mut rng);
        for seed_input in &seeds {
            target(seed_input);
        }
        // `fuzz/run-all.sh` starts libFuzzer from these seeds.
        if let Some(out) = std::env::var_os("RDNA_FUZZ_SEEDS_OUT") {
            let dir = std::path::Path::new(&out).join(name);
            std::fs::create_dir_all(&dir).unwrap();
            for (i, seed_input) in seeds.iter().enumerate() {
                std::fs::write(dir.join(format!("seed-{i}")), seed_input).unwrap();
            }
        }
        let start = Instant::now();
        let mut runs = 0u64;
        let budget = Duration::from_secs_f64(seconds());
        while start.elapsed() < budget {
            let input = if rng.below(8) == 0 {
                (0..rng.below(256)).map(|_| rng.next() as u8).collect()
            } else {
                let k = rng.below(seeds.len());
                mutate(&mut rng, &seeds[k])
            };
            let r = std::panic::catch_unwind(|| target(&input));
            if r.is_err() {
                let dir = rdna_testkit::scratch().join("fuzz-crashes").join(name);
                std::fs::create_dir_all(&dir).unwrap();
                let path = dir.join(format!("crash-{s}-{runs}"));
                std::fs::write(&path, &input).unwrap();
                panic!("{name} panicked on an input saved to {} (seed {s})", path.display());
            }
            runs += 1;
        }
        println!("{name}: {runs} inputs in {:.1} s", start.elapsed().as_secs_f64());
        assert!(runs > 0);
    }
}

#[test]
fn kept_crashes_stay_fixed() {
    let root = rdna_testkit::root().join("fuzz/regressions");
    let mut replayed = 0;
    for (name, target) in rdna_fuzzing::ALL {
        let Ok(dir) = std::fs::read_dir(root.join(name)) else { continue };
        for entry in dir {
            let path = entry.unwrap().path();
            target(&std::fs::read(&path).unwrap());
            replayed += 1;
        }
    }
    println!("{replayed} kept inputs replayed");
}
