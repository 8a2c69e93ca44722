//! `rdna run --backend vulkan`: a kernel recompiled to SPIR-V and run on a Vulkan device, with
//! the same buffers in and out as the emulator.

use rdna_emu::dispatch::Prepared;
use rdna_emu::Launch;
use rdna_hsa::{CodeObject, Kernel};

use crate::Device;

/// The most device memory one dispatch's VGPRs may take.
const MAX_VGPR_MEMORY: u64 = 2 << 30;

/// Buffers after a run, in the order given, and what ran.
pub struct VkOutputs {
    pub buffers: Vec<Vec<u8>>,
    pub workgroups: u64,
    pub waves_per_group: u32,
    pub instructions: usize,
    pub model: rdna_spirv::WaveModel,
    /// The dispatch's time on the device (GPU timestamps), where the queue has them.
    pub device_time: Option<std::time::Duration>,
}

/// One dispatch: a kernel, its grid, its buffers (initial bytes, size) and how to lay out its
/// argument segment once the buffers' device addresses are known.
pub struct Job<'a> {
    pub code: &'a CodeObject,
    pub kernel: &'a Kernel,
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
    pub buffers: Vec<(&'a [u8], u64)>,
    pub kernarg: &'a dyn Fn(&[u64]) -> Vec<u8>,
    pub dynamic_lds: u32,
}

/// Loop iterations after which Mesa's lavapipe (llvmpipe) ends a shader, shared by all its loops.
pub const LAVAPIPE_LOOP_ITERATIONS: u32 = 65_535;

/// Recompiles and runs a job on `dev`.
pub fn run_job(dev: &Device, job: &Job) -> Result<VkOutputs, String> {
    let lanes = if job.kernel.kd.enable_wavefront_size32() { 32 } else { 64 };
    let options = dev.options(lanes, job.workgroup.iter().product());
    let compiled = rdna_spirv::recompile_with(job.code, job.kernel, job.workgroup, job.dynamic_lds, options).map_err(|e| format!("kernel {}: {e}", job.kernel.name))?;
    if compiled.workgroup_bytes > dev.info.max_shared_memory {
        return Err(format!(
            "kernel {} needs {} bytes of shared memory ({} of LDS, the rest the wave model's); {} gives a workgroup at most {}",
            job.kernel.name, compiled.workgroup_bytes, compiled.lds_bytes, dev.info.name, dev.info.max_shared_memory
        ));
    }
    let groups = [0, 1, 2].map(|d| job.grid[d].div_ceil(job.workgroup[d]));
    let waves = groups.iter().map(|&g| g as u64).product::<u64>() * compiled.waves_per_group as u64;
    let vgpr_bytes = waves.checked_mul(compiled.vgpr_bytes_per_wave).map(|b| b + rdna_spirv::STATUS_BYTES).filter(|&b| b <= MAX_VGPR_MEMORY).ok_or_else(|| {
        format!("{waves} waves of {} bytes of VGPRs each need more than {} MiB of device memory; dispatch a smaller grid", compiled.vgpr_bytes_per_wave, MAX_VGPR_MEMORY >> 20)
    })?;
    // One allocation, the arena, holds everything the kernel can reach: the VGPR and wave-state
    // memory, then each buffer (256-byte aligned, 4 KiB apart), the argument segment, the
    // dispatch packet and the code image. Every access the recompiled kernel makes is checked
    // against it (`STATUS_MEMORY_OUT_OF_BOUNDS`), so a stray guest pointer stops the run instead
    // of reaching other memory.
    let align = |x: u64| x.div_ceil(256) * 256;
    let mut offsets = Vec::new();
    let mut at = align(vgpr_bytes) + 4096;
    for &(data, size) in &job.buffers {
        offsets.push(at);
        at = align(at + size.max(data.len() as u64).max(4)) + 4096;
    }
    let kernarg_len = (job.kernarg)(&vec![0; job.buffers.len()]).len() as u64;
    if kernarg_len < compiled.argument_bytes_read as u64 {
        return Err(format!(
            "kernel {} reads {} bytes of arguments (its descriptor declares {}), but the dispatch gives {kernarg_len}",
            job.kernel.name, compiled.argument_bytes_read, job.kernel.kd.kernarg_size
        ));
    }
    let kernarg_at = at;
    at = align(at + kernarg_len.max(4));
    let packet_at = at;
    at = align(at + 64);
    let image = if compiled.uses_image { Some(job.code.flat_image()?.1) } else { None };
    let image_at = at;
    at += image.as_ref().map_or(0, |i| i.len().max(4) as u64);
    // The map of guest memory: one bit per granule of 4 bytes (coarser where that would take
    // more than 16 MiB: guest memory past 4 GiB), after the guest memory.
    let guest = align(vgpr_bytes);
    let guest_bytes = at - guest;
    let mut shift = 2u32;
    while (guest_bytes >> shift) > 8 * (16 << 20) {
        shift += 1;
    }
    let granules = (guest_bytes >> shift) + 1;
    let mut map = vec![0u32; granules.div_ceil(32) as usize];
    let mut mark = |from: u64, len: u64| {
        if len > 0 {
            for g in (from - guest) >> shift..=(from + len - 1 - guest) >> shift {
                map[(g / 32) as usize] |= 1 << (g % 32);
            }
        }
    };
    for (&(data, size), &off) in job.buffers.iter().zip(&offsets) {
        mark(off, size.max(data.len() as u64));
    }
    mark(kernarg_at, kernarg_len);
    mark(packet_at, 64);
    if let Some(img) = &image {
        mark(image_at, img.len() as u64);
    }
    // 16 bytes at `at` take refused accesses; the map follows.
    let map_at = align(at + 16);
    let map_bytes: Vec<u8> = map.iter().flat_map(|w| w.to_le_bytes()).collect();
    let arena = dev.buffer(map_at + map_bytes.len() as u64).map_err(|e| e.to_string())?;
    arena.write(map_at, &map_bytes);
    let limits = rdna_spirv::Arena { base: arena.address, size: at, guest, map: arena.address + map_at, granule_shift: shift, kernarg_bytes: kernarg_len as u32 };
    let mut device_time = None;
    let mut timed_out = false;
    let result = (|| -> Result<u64, String> {
        for (&(data, _), &off) in job.buffers.iter().zip(&offsets) {
            arena.write(off, data);
        }
        let addrs: Vec<u64> = offsets.iter().map(|o| arena.address + o).collect();
        let kernarg = (job.kernarg)(&addrs);
        arena.write(kernarg_at, &kernarg);
        let kernarg_addr = arena.address + kernarg_at;
        let launch = Launch { code: job.code, kernel: job.kernel, grid: job.grid, workgroup: job.workgroup, kernarg, dynamic_lds: job.dynamic_lds };
        let packet = rdna_emu::dispatch_packet(&launch, kernarg_addr, 0);
        if packet.len() > 64 {
            return Err(format!("internal: a {}-byte dispatch packet", packet.len()));
        }
        arena.write(packet_at, &packet);
        // The code object image, where PC-relative constant data is read (calls, s_getpc_b64).
        if let Some(img) = &image {
            arena.write(image_at, img);
        }
        // Mesa's lavapipe stops a shader after 65,535 loop iterations in all; waves stop short
        // of that and report it rather than leave wrong results. Its count runs ahead of the
        // module's own (measured here: by up to 1.37× on a collatz loop; the cause is not
        // known), so the module stops at half.
        let limit = if dev.info.name.contains("llvmpipe") { (LAVAPIPE_LOOP_ITERATIONS / 2).saturating_sub(compiled.iteration_margin) } else { u32::MAX };
        let push = rdna_spirv::push_constants(
            kernarg_addr,
            arena.address + packet_at,
            job.grid,
            compiled.lanes,
            arena.address,
            limit,
            if image.is_some() { arena.address + image_at } else { 0 },
            &limits,
        );
        // Exact model: one invocation runs each workgroup; subgroup model: one subgroup of the
        // wave's size per wave.
        let subgroup = (compiled.model == rdna_spirv::WaveModel::Subgroup).then_some(compiled.lanes);
        let r = dev.dispatch(&compiled.words, "main", &push, &[&arena], groups, subgroup);
        timed_out = matches!(r, Err(crate::VkError::Timeout(_)));
        let r = r.map_err(|e| e.to_string());
        let status = arena.read_u32(0);
        device_time = r?;
        if status == rdna_spirv::STATUS_LDS_OUT_OF_BOUNDS {
            return Err("an LDS access out of bounds stopped the kernel (the emulator faults there too)".into());
        }
        if status == rdna_spirv::STATUS_SCRATCH_OUT_OF_BOUNDS {
            return Err("a scratch access outside the lane's private segment stopped the kernel (the emulator faults there too)".into());
        }
        if status == rdna_spirv::STATUS_VGPR_INDEX {
            return Err("a VGPR-indexed move named a register past v255 (M0 out of range) and stopped the kernel (the emulator faults there too)".into());
        }
        if status == rdna_spirv::STATUS_BUFFER_FORMAT {
            return Err("a typed buffer access named an invalid buffer format, or stored to an 11- or 10-bit float component, and stopped the kernel (the emulator faults there too)".into());
        }
        if status == rdna_spirv::STATUS_MEMORY_OUT_OF_BOUNDS {
            return Err("a memory access outside the dispatch's buffers stopped the kernel (the emulator faults there too)".into());
        }
        if status == rdna_spirv::STATUS_BAD_JUMP {
            return Err("the kernel returned to an address other than its call's return point: the recompiler follows calls and returns only (the emulator goes to any instruction of the kernel), so the run was stopped".into());
        }
        if status == rdna_spirv::STATUS_ITERATION_LIMIT {
            return Err(format!(
                "the kernel runs more loop iterations than {} allows one shader ({LAVAPIPE_LOOP_ITERATIONS} in all, lane loops included); its results would be wrong, so none are given: run it on a GPU or with the emulator",
                dev.info.name
            ));
        }
        Ok(groups.iter().map(|&g| g as u64).product::<u64>())
    })();
    if timed_out {
        // The kernel may still be running and writing to the arena: leaking it beats freeing
        // memory under the device. The device stays usable; later dispatches queue behind it.
        std::mem::forget(arena);
        return Err(result.err().unwrap_or_default());
    }
    let buffers = job.buffers.iter().zip(&offsets).map(|(&(_, size), &off)| arena.read_at(off, size)).collect();
    dev.free(arena);
    Ok(VkOutputs { buffers, workgroups: result?, waves_per_group: compiled.waves_per_group, instructions: compiled.instructions, model: compiled.model, device_time })
}

/// Runs a dispatch file's job; buffers come back with their names.
pub fn run(dev: &Device, p: &Prepared) -> Result<(Vec<(String, Vec<u8>)>, VkOutputs), String> {
    let names: Vec<&str> = p.buffers.iter().map(|(n, _, _)| n.as_str()).collect();
    let kernarg = |addrs: &[u64]| p.kernarg(&|n| names.iter().position(|&b| b == n).map_or(0, |i| addrs[i]));
    let job = Job {
        code: &p.code,
        kernel: &p.code.kernels[p.kernel],
        grid: p.grid,
        workgroup: p.workgroup,
        buffers: p.buffers.iter().map(|(_, d, s)| (d.as_slice(), *s)).collect(),
        kernarg: &kernarg,
        dynamic_lds: p.dynamic_lds(),
    };
    let out = run_job(dev, &job)?;
    let named = names.iter().map(|n| n.to_string()).zip(out.buffers.iter().cloned()).collect();
    Ok((named, out))
}
