//! The runtime on the machine's Vulkan device (lavapipe in CI; `RDNA_VK_DEVICE` picks another),
//! with a compute shader written in SPIR-V assembly, assembled by `spirv-as` and validated by
//! `spirv-val` (spirv-tools): buffers by device address, push constants, the pipeline cache,
//! subgroup-size requests, device choice and dispatches from several threads.

use std::path::Path;
use std::process::Command;

use rdna_vk::{Device, Placement, VkError};

/// Assembles and validates a shader of `tests/shaders`; returns its words.
fn shader(name: &str) -> Vec<u32> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders").join(name);
    let out = rdna_testkit::temp_path(&format!("{name}.spv"));
    let st = Command::new("spirv-as").args(["--target-env", "vulkan1.3"]).arg(&src).arg("-o").arg(&out).status().expect("spirv-as (spirv-tools) must be installed");
    assert!(st.success());
    let st = Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(&out).status().expect("spirv-val");
    assert!(st.success());
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn push(a: u64, b: u64, n: u32) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(&a.to_le_bytes());
    p.extend_from_slice(&b.to_le_bytes());
    p.extend_from_slice(&n.to_le_bytes());
    p.extend_from_slice(&0u32.to_le_bytes());
    p
}

/// Runs the shader over `n` values from `seed`, checks out[i] == in[i] * 3 + i and that
/// nothing past `n` was written.
fn scale_add(dev: &Device, code: &[u32], n: u32, seed: u32) {
    let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(seed)).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let src = dev.buffer_with(&bytes, 0).unwrap();
    let dst = dev.buffer(4 * n as u64 + 256).unwrap();
    dev.dispatch(code, "main", &push(src.address, dst.address, n), &[&src, &dst], [n.div_ceil(64), 1, 1], None).unwrap();
    let out = dst.read();
    for i in 0..n as usize {
        let got = u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(got, input[i].wrapping_mul(3).wrapping_add(i as u32), "element {i}");
    }
    assert!(out[4 * n as usize..].iter().all(|&b| b == 0), "wrote past the end");
    dev.free(src);
    dev.free(dst);
}

#[test]
fn a_shader_reads_and_writes_buffers_by_device_address() {
    let dev = Device::open().unwrap();
    eprintln!("device: {:?}", dev.info);
    let code = shader("scale_add.spvasm");
    scale_add(&dev, &code, 1000, 7);
    // Again with the cached pipeline, and a size that is not a multiple of the workgroup.
    scale_add(&dev, &code, 77, 1);
}

#[test]
fn staged_buffers_are_copied_to_the_device_and_back() {
    let dev = Device::open_placed(Placement::Staged).unwrap();
    assert!(dev.info.memory.starts_with("device memory"), "{}", dev.info.memory);
    let code = shader("scale_add.spvasm");
    scale_add(&dev, &code, 1000, 11);
    scale_add(&dev, &code, 4097, 5);
}

/// `Device::repeat` runs a dispatch again from the same initial memory: in place, a run that
/// started from the previous run's output would give in * 9 + 4i, not in * 3 + i.
#[test]
fn repeated_runs_each_start_from_the_initial_memory() {
    for placement in [Placement::Staged, Placement::Host] {
        repeated_runs_from(Device::open_placed(placement).unwrap());
    }
}

fn repeated_runs_from(mut dev: Device) {
    let code = shader("scale_add.spvasm");
    let n = 1000u32;
    let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761) ^ 0x5a5a).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    for repeat in [4, 1] {
        dev.repeat = repeat;
        let buf = dev.buffer_with(&bytes, 0).unwrap();
        let t = dev.dispatch(&code, "main", &push(buf.address, buf.address, n), &[&buf], [n.div_ceil(64), 1, 1], None).unwrap();
        assert!(t.is_none_or(|t| t.as_nanos() > 0), "{repeat} runs: a device time of zero");
        let out = buf.read();
        for i in 0..n as usize {
            let got = u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(got, input[i].wrapping_mul(3).wrapping_add(i as u32), "{}, {repeat} runs: element {i}", dev.info.memory);
        }
        dev.free(buf);
    }
}

#[test]
fn dispatches_from_several_threads_agree_with_serial_ones() {
    let dev = Device::open().unwrap();
    let code = shader("scale_add.spvasm");
    std::thread::scope(|s| {
        for t in 0..4 {
            let (dev, code) = (&dev, &code);
            s.spawn(move || {
                for k in 0..3 {
                    scale_add(dev, code, 500 + 64 * t + k, t * 10 + k);
                }
            });
        }
    });
}

#[test]
fn subgroup_sizes_the_device_cannot_give_are_refused_by_name() {
    let dev = Device::open().unwrap();
    let code = shader("scale_add.spvasm");
    let bad = dev.info.max_subgroup * 2;
    let e = dev.dispatch(&code, "main", &push(0, 0, 0), &[], [1, 1, 1], Some(bad)).unwrap_err();
    assert!(matches!(e, VkError::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains(&format!("subgroup size of {bad}")), "{e}");
    if dev.info.subgroup_size_control {
        // The device's own size is accepted (n = 0: nothing is touched).
        dev.dispatch(&code, "main", &push(0, 0, 0), &[], [1, 1, 1], Some(dev.info.max_subgroup)).unwrap();
    }
}

#[test]
fn a_device_that_does_not_exist_is_an_error_listing_the_devices() {
    let e = Device::open_named(Some("no-such-device-anywhere")).err().expect("no device has that name");
    let text = e.to_string();
    assert!(text.contains("RDNA_VK_DEVICE=no-such-device-anywhere") && text.contains("0: "), "{text}");
    let e = Device::open_named(Some("999")).err().expect("no device 999");
    assert!(matches!(e, VkError::NoDevice(_)), "{e}");
}

#[test]
fn bad_push_constants_are_refused() {
    let dev = Device::open().unwrap();
    let code = shader("scale_add.spvasm");
    let e = dev.dispatch(&code, "main", &[0u8; 129], &[], [1, 1, 1], None).unwrap_err();
    assert!(e.to_string().contains("push constants"), "{e}");
}
