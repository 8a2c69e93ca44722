//! Many dispatches from many threads through the library, on both backends, give what the same
//! dispatches give run one after another, faults and runaways included: a failed dispatch leaves
//! the process (and the Vulkan device) usable for the next.

use rdna_emu::dispatch::{DispatchFile, Prepared};

/// SAXPY dispatches of the bundled example with different scalars and sizes, one whose output
/// buffer is too small (a guest fault) and, for the emulator, one that runs past its budget.
fn dispatches() -> Vec<(String, Prepared, u64)> {
    let dir = rdna_testkit::root().join("examples");
    let make = |a: f32, n: u32, out: u64| {
        let text = format!(
            r#"{{"code_object": "saxpy.hsaco", "kernel": "saxpy", "grid": [{n}], "workgroup": [256],
                "buffers": {{"x": {{"file": "saxpy-data/x.bin"}}, "y": {{"file": "saxpy-data/y.bin"}}, "out": {{"size": {out}}}}},
                "args": [{{"buffer": "out"}}, {{"buffer": "x"}}, {{"buffer": "y"}}, {{"f32": {a:?}}}, {{"u32": {n}}}]}}"#
        );
        let file: DispatchFile = serde_json::from_str(&text).unwrap();
        Prepared::from_file(file, &dir).unwrap()
    };
    let mut v = Vec::new();
    for (k, n) in [256u32, 1024, 2048, 4096].into_iter().enumerate() {
        v.push((format!("saxpy a={k} n={n}"), make(k as f32 + 0.5, n, 4 * n as u64), 50_000_000));
    }
    v.push(("output too small".into(), make(2.0, 4096, 64), 50_000_000));
    v.push(("runaway".into(), make(2.0, 4096, 16384), 5));
    v
}

fn emu(p: &Prepared, budget: u64) -> Result<Vec<(String, Vec<u8>)>, String> {
    let opts = rdna_emu::Options { budget, threads: 1, ..Default::default() };
    p.run_emu(&opts).map(|o| o.buffers).map_err(|e| e.to_string())
}

#[test]
fn emulator_dispatches_from_many_threads_match_serial_ones() {
    let ds = dispatches();
    let serial: Vec<_> = ds.iter().map(|(_, p, b)| emu(p, *b)).collect();
    assert!(serial[..4].iter().all(|r| r.is_ok()), "{serial:?}");
    assert!(serial[4].as_ref().is_err_and(|e| e.contains("unmapped address")), "{:?}", serial[4]);
    assert!(serial[5].as_ref().is_err_and(|e| e.contains("budget")), "{:?}", serial[5]);
    std::thread::scope(|s| {
        for t in 0..8 {
            let (ds, serial) = (&ds, &serial);
            s.spawn(move || {
                for k in 0..ds.len() * 2 {
                    let i = (t * 5 + k * 7) % ds.len();
                    let (name, p, budget) = &ds[i];
                    assert_eq!(emu(p, *budget), serial[i], "thread {t}: {name}");
                }
            });
        }
    });
}

#[test]
fn vulkan_dispatches_from_many_threads_match_serial_ones() {
    concurrent_dispatches(&rdna_vk::Device::open().unwrap());
}

/// The same with buffers staged through the device's own memory (as on a discrete GPU without
/// a large BAR): what a dispatch copies in and back must be what the host wrote and what the
/// kernel wrote, its faults included.
#[test]
fn vulkan_dispatches_of_staged_buffers_match_the_emulator() {
    let dev = rdna_vk::Device::open_placed(rdna_vk::Placement::Staged).unwrap();
    assert!(dev.info.memory.starts_with("device memory"), "{}", dev.info.memory);
    concurrent_dispatches(&dev);
}

fn concurrent_dispatches(dev: &rdna_vk::Device) {
    let ds: Vec<_> = dispatches().into_iter().filter(|(n, _, _)| n != "runaway").collect();
    let run = |p: &Prepared| rdna_vk::dispatch::run(dev, p).map(|(b, _)| b);
    let serial: Vec<_> = ds.iter().map(|(_, p, _)| run(p)).collect();
    // The emulator and the device agree on every successful dispatch.
    for ((name, p, b), r) in ds.iter().zip(&serial) {
        if let Ok(bufs) = r {
            assert_eq!(Ok(bufs.clone()), emu(p, *b), "{name}");
        }
    }
    assert!(serial[..4].iter().all(|r| r.is_ok()), "{serial:?}");
    // A guest store past its buffer stops the run with an error (lavapipe used to crash the
    // process: recompiled kernels reach memory through raw device addresses).
    assert!(serial[4].as_ref().is_err_and(|e| e.contains("outside the dispatch's buffers")), "{:?}", serial[4].as_ref().err());
    std::thread::scope(|s| {
        for t in 0..4 {
            let (ds, serial, run) = (&ds, &serial, &run);
            s.spawn(move || {
                for k in 0..ds.len() {
                    let i = (t * 3 + k) % ds.len();
                    let r = run(&ds[i].1);
                    match (&r, &serial[i]) {
                        (Ok(a), Ok(b)) => assert_eq!(a, b, "thread {t}: {}", ds[i].0),
                        (Err(_), Err(_)) => {}
                        _ => panic!("thread {t}: {}: {:?} serially, now {:?}", ds[i].0, serial[i].as_ref().err(), r.as_ref().err()),
                    }
                }
            });
        }
    });
}

/// A dispatch that outlasts the device's timeout is an error naming the timeout, and the same
/// device (and process) runs the next dispatch correctly once the first one is done.
#[test]
fn a_timed_out_dispatch_is_an_error_and_the_device_stays_usable() {
    let mut dev = rdna_vk::Device::open().unwrap();
    let ds = dispatches();
    let (_, small, _) = &ds[1];
    let expected = rdna_vk::dispatch::run(&dev, small).map(|(b, _)| b).unwrap();
    // A large grid (its reads past the 4,096 inputs are refused by the arena check, which does
    // not matter here) that no device finishes in no time at all.
    let dir = rdna_testkit::root().join("examples");
    let n = 1u32 << 18;
    let text = format!(
        r#"{{"code_object": "saxpy.hsaco", "kernel": "saxpy", "grid": [{n}], "workgroup": [256],
            "buffers": {{"x": {{"file": "saxpy-data/x.bin"}}, "y": {{"file": "saxpy-data/y.bin"}}, "out": {{"size": {}}}}},
            "args": [{{"buffer": "out"}}, {{"buffer": "x"}}, {{"buffer": "y"}}, {{"f32": 2.0}}, {{"u32": {n}}}]}}"#,
        4 * n
    );
    let big = Prepared::from_file(serde_json::from_str(&text).unwrap(), &dir).unwrap();
    dev.timeout = std::time::Duration::ZERO;
    let r = rdna_vk::dispatch::run(&dev, &big).map(|(b, _)| b);
    assert!(r.as_ref().is_err_and(|e| e.contains("did not finish within")), "{:?}", r.map(|b| b.len()));
    dev.timeout = std::time::Duration::from_secs(120);
    let again = rdna_vk::dispatch::run(&dev, small).map(|(b, _)| b).unwrap();
    assert_eq!(again, expected);
}
