//! `rdna run --backend vulkan`: a dispatch file's kernel recompiled to SPIR-V and run on a
//! Vulkan device, with the same buffers in and out as the emulator.

use rdna_emu::dispatch::Prepared;
use rdna_emu::Launch;

use crate::Device;

/// Buffers after a run, by name (in the dispatch file's order), and what ran.
pub struct VkOutputs {
    pub buffers: Vec<(String, Vec<u8>)>,
    pub workgroups: u64,
    pub waves_per_group: u32,
    pub instructions: usize,
}

/// Recompiles and runs the dispatch on `dev`.
pub fn run(dev: &Device, p: &Prepared) -> Result<VkOutputs, String> {
    let kernel = &p.code.kernels[p.kernel];
    let compiled = rdna_spirv::recompile(&p.code, kernel, p.workgroup).map_err(|e| format!("kernel {}: {e}", kernel.name))?;
    let mut bufs = Vec::new();
    let result = (|| -> Result<u64, String> {
        for (name, data, size) in &p.buffers {
            bufs.push((name.clone(), dev.buffer_with(data, *size).map_err(|e| e.to_string())?, *size));
        }
        let addr = |n: &str| bufs.iter().find(|(b, _, _)| b == n).map_or(0, |(_, b, _)| b.address);
        let kernarg = p.kernarg(&addr);
        let kbuf = dev.buffer_with(&kernarg, kernarg.len() as u64).map_err(|e| e.to_string())?;
        let launch = Launch { code: &p.code, kernel, grid: p.grid, workgroup: p.workgroup, kernarg, dynamic_lds: p.dynamic_lds() };
        let packet = rdna_emu::dispatch_packet(&launch, kbuf.address, 0);
        let pbuf = dev.buffer_with(&packet, packet.len() as u64).map_err(|e| e.to_string())?;
        let groups = [0, 1, 2].map(|d| p.grid[d].div_ceil(p.workgroup[d]));
        let push = rdna_spirv::push_constants(kbuf.address, pbuf.address, p.grid);
        let r = dev.dispatch(&compiled.words, "main", &push, groups, None).map_err(|e| e.to_string());
        dev.free(kbuf);
        dev.free(pbuf);
        r?;
        Ok(groups.iter().map(|&g| g as u64).product::<u64>())
    })();
    let buffers = bufs
        .into_iter()
        .map(|(name, b, size)| {
            let mut data = b.read();
            data.truncate(size as usize);
            dev.free(b);
            (name, data)
        })
        .collect();
    Ok(VkOutputs { buffers, workgroups: result?, waves_per_group: compiled.waves_per_group, instructions: compiled.instructions })
}
