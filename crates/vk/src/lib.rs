//! The Vulkan runtime that recompiled kernels run on (through `ash`).
//!
//! Everything a kernel touches is reached through 64-bit device addresses
//! (`VK_KHR_buffer_device_address`, core in Vulkan 1.2), as on the GPU the kernel was built for:
//! a pipeline has no descriptor sets, only push constants that carry addresses. A [`Device`]
//! owns the instance, one compute queue, a pipeline cache and the pipelines built so far.
//!
//! Device choice: the environment variable `RDNA_VK_DEVICE` (an index into the device list,
//! or part of a device's name, case-insensitive); by default the first GPU, else the first
//! device (Mesa's lavapipe on a machine without a GPU).
//!
//! Where buffers live: on a discrete GPU, in the device's own memory that the host cannot map,
//! with a host-visible copy that [`Device::dispatch`] copies in before the kernel and back after
//! it; elsewhere (an integrated GPU, lavapipe) in host-visible memory the host writes and reads
//! directly. Host-visible memory is slow for a discrete GPU even where it is the device's own
//! (a BAR as large as its memory): on an H100 whose every byte the host could map, recompiled
//! SAXPY took 4.57 ms with its buffers in that memory and 0.80 ms in unmappable device memory
//! of the same heap (BENCHMARKS.md); host memory itself is reached only over PCIe.
//! `RDNA_VK_MEMORY=host` keeps buffers in host-visible memory, `RDNA_VK_MEMORY=staged` stages
//! them on any device (to measure the choice, and to test staging on lavapipe).
//!
//! Compiler statistics: with `RDNA_VK_STATS` set, and where the driver has
//! `VK_KHR_pipeline_executable_properties`, every pipeline built prints the driver's statistics
//! for it on stderr (NVIDIA's include the register count, which bounds occupancy); when the
//! variable names a directory, the driver's internal representations (its own text or
//! binary forms of the compiled shader) are written there as `<module hash>-<i>-<name>.txt`.

pub mod dispatch;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use ash::vk;

/// What can go wrong; every error names what it was doing.
#[derive(Debug, thiserror::Error)]
pub enum VkError {
    #[error("no Vulkan loader: {0} (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)")]
    Loader(String),
    #[error("no Vulkan device{0}")]
    NoDevice(String),
    #[error("Vulkan device '{device}' lacks {what}")]
    Unsupported { device: String, what: String },
    #[error("{what}: {result}")]
    Call { what: &'static str, result: vk::Result },
    #[error("the dispatch did not finish within {0:?}: a runaway kernel, or the device was lost")]
    Timeout(Duration),
    #[error("{0}")]
    Usage(String),
}

type Result<T> = std::result::Result<T, VkError>;

fn call<T>(what: &'static str, r: std::result::Result<T, vk::Result>) -> Result<T> {
    r.map_err(|result| match result {
        vk::Result::ERROR_DEVICE_LOST => VkError::Call { what: "the device was lost", result },
        _ => VkError::Call { what, result },
    })
}

/// Facts about the chosen device that decide how kernels are recompiled.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub name: String,
    /// The PCI vendor id (0x10de: NVIDIA).
    pub vendor_id: u32,
    pub kind: String,
    /// Subgroup sizes a pipeline may require (equal when the size is fixed, as on lavapipe).
    pub min_subgroup: u32,
    pub max_subgroup: u32,
    /// Whether a compute pipeline may require a subgroup size (Vulkan 1.3 subgroup size control,
    /// full subgroups, compute among the stages) and compute shaders have subgroup ballots: what
    /// the subgroup wave model needs.
    pub subgroup_size_control: bool,
    pub max_shared_memory: u32,
    pub max_workgroup_invocations: u32,
    pub shared_int64_atomics: bool,
    pub buffer_int64_atomics: bool,
    pub float64: bool,
    pub int16: bool,
    pub float16: bool,
    /// Where buffers live: whether the memory is the device's own, and its heap's size.
    pub memory: String,
}

/// NVIDIA's PCI vendor id.
const NVIDIA: u32 = 0x10de;

/// How f32 fma is lowered on a device of `vendor_id`: `RDNA_FMA=exact` or `fused` decides;
/// otherwise the driver's `Fma` (with the exact lowering for denormal operands and zero or
/// denormal results) on NVIDIA, where the corpus test found it bit-identical to the emulator
/// (all 277 kernel builds and the random streams, on an H100), and the exact lowering elsewhere
/// (lavapipe splits `Fma` into a multiply and an add).
pub fn fma_lowering(vendor_id: u32) -> rdna_spirv::FmaLowering {
    match std::env::var("RDNA_FMA").as_deref() {
        Ok("fused") => rdna_spirv::FmaLowering::Fused,
        Ok("exact") => rdna_spirv::FmaLowering::Exact,
        _ if vendor_id == NVIDIA => rdna_spirv::FmaLowering::Fused,
        _ => rdna_spirv::FmaLowering::Exact,
    }
}

/// A buffer the host reads and writes in host-visible memory, reachable by the device at
/// [`Buffer::address`]: that memory itself, or a twin in the device's own memory that
/// dispatches copy to and from (see the crate's documentation).
pub struct Buffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
    pub size: u64,
    pub address: u64,
    /// The twin in device-local memory, where the buffer is staged.
    local: Option<(vk::Buffer, vk::DeviceMemory)>,
}

/// Where [`Device::buffer`] puts buffers (`RDNA_VK_MEMORY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Staged on a discrete GPU that has device memory the host cannot map, else mapped.
    Auto,
    /// Host-visible memory, never staged (`RDNA_VK_MEMORY=host`).
    Host,
    /// Device-local memory with a host-visible copy, always (`RDNA_VK_MEMORY=staged`).
    Staged,
}

impl Placement {
    /// The placement `RDNA_VK_MEMORY` asks for.
    pub fn from_env() -> Result<Placement> {
        match std::env::var("RDNA_VK_MEMORY").as_deref() {
            Err(_) | Ok("") | Ok("auto") => Ok(Placement::Auto),
            Ok("host") => Ok(Placement::Host),
            Ok("staged") => Ok(Placement::Staged),
            Ok(other) => Err(VkError::Usage(format!("RDNA_VK_MEMORY={other}: expected auto, host or staged"))),
        }
    }
}

// The mapping is plain host memory owned by this buffer.
unsafe impl Send for Buffer {}
unsafe impl Sync for Buffer {}

/// One open device.
pub struct Device {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: Mutex<vk::Queue>,
    family: u32,
    /// The host-visible memory type of every buffer's host side.
    memory_type: u32,
    /// The device-local memory types for staged buffers' twins, the preferred first (the first
    /// a buffer may use is taken); empty: buffers are not staged.
    local_types: Vec<u32>,
    cache: vk::PipelineCache,
    pipelines: Mutex<HashMap<PipelineKey, (vk::Pipeline, vk::PipelineLayout)>>,
    pub info: DeviceInfo,
    /// How long a dispatch may take before it is reported as a timeout.
    pub timeout: Duration,
    /// How many times each dispatch runs, back to back in one submission, each run from the
    /// same initial memory (a spare copy of every buffer restores it): for benchmarks, which
    /// time the fastest run as CUDA's launches are timed, on a device kept busy, not one whose
    /// clock fell while the host prepared the dispatch. 1 by default.
    pub repeat: u32,
    /// Nanoseconds per timestamp tick; 0 when the compute queue has no timestamps.
    timestamp_period: f32,
    /// `RDNA_VK_STATS`: the extension's functions, and where to write representations.
    stats: Option<(ash::khr::pipeline_executable_properties::Device, Option<std::path::PathBuf>)>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct PipelineKey {
    code: Vec<u32>,
    entry: String,
    subgroup: Option<u32>,
    push: u32,
}

/// The names of the devices the loader sees, in its order (what `RDNA_VK_DEVICE` indexes).
pub fn list_devices() -> Result<Vec<String>> {
    let entry = unsafe { ash::Entry::load() }.map_err(|e| VkError::Loader(e.to_string()))?;
    let instance = create_instance(&entry)?;
    let names = unsafe { call("listing devices", instance.enumerate_physical_devices()) }.map(|ds| {
        ds.iter().map(|&d| unsafe { instance.get_physical_device_properties(d) }).map(|p| name_of(&p)).collect()
    });
    unsafe { instance.destroy_instance(None) };
    names
}

fn name_of(p: &vk::PhysicalDeviceProperties) -> String {
    c_text(p.device_name_as_c_str())
}

/// A fixed-size C string of a Vulkan structure as text (empty if it has no terminator).
fn c_text(s: std::result::Result<&std::ffi::CStr, std::ffi::FromBytesUntilNulError>) -> String {
    s.map(|c| c.to_string_lossy().into_owned()).unwrap_or_default()
}

fn create_instance(entry: &ash::Entry) -> Result<ash::Instance> {
    let app = vk::ApplicationInfo::default().application_name(c"rdna").api_version(vk::API_VERSION_1_3);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    unsafe { call("creating the Vulkan instance", entry.create_instance(&info, None)) }
}

impl Device {
    /// Opens the device `RDNA_VK_DEVICE` names, or the default one, with buffers where
    /// `RDNA_VK_MEMORY` says.
    pub fn open() -> Result<Device> {
        Device::open_placed(Placement::from_env()?)
    }

    /// The device `RDNA_VK_DEVICE` names, or the default one, with buffers placed as
    /// `placement` says.
    pub fn open_placed(placement: Placement) -> Result<Device> {
        Device::open_with(std::env::var("RDNA_VK_DEVICE").ok().as_deref(), placement)
    }

    /// Opens a device by index or by part of its name; `None`: the first GPU, else the first.
    pub fn open_named(choice: Option<&str>) -> Result<Device> {
        Device::open_with(choice, Placement::from_env()?)
    }

    /// [`Device::open_named`] with buffers placed as `placement` says.
    pub fn open_with(choice: Option<&str>, placement: Placement) -> Result<Device> {
        let entry = unsafe { ash::Entry::load() }.map_err(|e| VkError::Loader(e.to_string()))?;
        let instance = create_instance(&entry)?;
        // The device keeps a clone of the entry; this one keeps the loader loaded until the
        // instance is destroyed on failure (unloading it first would leave dangling pointers).
        match unsafe { Device::with_instance(entry.clone(), instance.clone(), choice, placement) } {
            Ok(d) => Ok(d),
            Err(e) => {
                unsafe { instance.destroy_instance(None) };
                drop(entry);
                Err(e)
            }
        }
    }

    unsafe fn with_instance(entry: ash::Entry, instance: ash::Instance, choice: Option<&str>, placement: Placement) -> Result<Device> {
        let devices = call("listing devices", instance.enumerate_physical_devices())?;
        let props: Vec<_> = devices.iter().map(|&d| instance.get_physical_device_properties(d)).collect();
        let names: Vec<String> = props.iter().map(name_of).collect();
        let listing = || names.iter().enumerate().map(|(i, n)| format!("{i}: {n}")).collect::<Vec<_>>().join(", ");
        let pick = match choice {
            Some(c) => match c.parse::<usize>() {
                Ok(i) => (i < devices.len()).then_some(i),
                Err(_) => names.iter().position(|n| n.to_lowercase().contains(&c.to_lowercase())),
            }
            .ok_or_else(|| VkError::NoDevice(format!(" matches RDNA_VK_DEVICE={c} (devices: {})", listing())))?,
            None => {
                let gpu = props.iter().position(|p| matches!(p.device_type, vk::PhysicalDeviceType::DISCRETE_GPU | vk::PhysicalDeviceType::INTEGRATED_GPU));
                gpu.or((!devices.is_empty()).then_some(0)).ok_or_else(|| VkError::NoDevice(" (the loader found none)".into()))?
            }
        };
        let phys = devices[pick];
        let p = &props[pick];
        let name = names[pick].clone();
        if p.api_version < vk::API_VERSION_1_3 {
            return Err(VkError::Unsupported { device: name, what: "Vulkan 1.3".into() });
        }
        // Features and limits.
        let mut sub_props = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
        let mut p11 = vk::PhysicalDeviceVulkan11Properties::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut sub_props).push_next(&mut p11);
        instance.get_physical_device_properties2(phys, &mut props2);
        let (min_subgroup, max_subgroup) = (sub_props.min_subgroup_size, sub_props.max_subgroup_size);
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f12).push_next(&mut f13);
        instance.get_physical_device_features2(phys, &mut f2);
        let base = f2.features;
        if f12.buffer_device_address == 0 {
            return Err(VkError::Unsupported { device: name, what: "buffer device addresses".into() });
        }
        if base.shader_int64 == 0 {
            return Err(VkError::Unsupported { device: name, what: "64-bit integers in shaders".into() });
        }
        let info = DeviceInfo {
            name: name.clone(),
            vendor_id: p.vendor_id,
            kind: format!("{:?}", p.device_type),
            min_subgroup,
            max_subgroup,
            subgroup_size_control: f13.subgroup_size_control != 0
                && f13.compute_full_subgroups != 0
                && sub_props.required_subgroup_size_stages.contains(vk::ShaderStageFlags::COMPUTE)
                && p11.subgroup_supported_stages.contains(vk::ShaderStageFlags::COMPUTE)
                && p11.subgroup_supported_operations.contains(vk::SubgroupFeatureFlags::BASIC | vk::SubgroupFeatureFlags::BALLOT),
            max_shared_memory: p.limits.max_compute_shared_memory_size,
            max_workgroup_invocations: p.limits.max_compute_work_group_invocations,
            shared_int64_atomics: f12.shader_shared_int64_atomics != 0,
            buffer_int64_atomics: f12.shader_buffer_int64_atomics != 0,
            float64: base.shader_float64 != 0,
            int16: base.shader_int16 != 0,
            float16: f12.shader_float16 != 0,
            memory: String::new(),
        };
        // Enable what kernels may use, as far as the device has it.
        let enable = vk::PhysicalDeviceFeatures::default().shader_int64(true).shader_float64(info.float64).shader_int16(info.int16);
        let mut e12 = vk::PhysicalDeviceVulkan12Features::default()
            .buffer_device_address(true)
            .shader_shared_int64_atomics(info.shared_int64_atomics)
            .shader_buffer_int64_atomics(info.buffer_int64_atomics)
            .shader_float16(info.float16)
            .storage_buffer8_bit_access(f12.storage_buffer8_bit_access != 0)
            .shader_int8(f12.shader_int8 != 0)
            .vulkan_memory_model(f12.vulkan_memory_model != 0)
            .vulkan_memory_model_device_scope(f12.vulkan_memory_model_device_scope != 0);
        let mut e13 = vk::PhysicalDeviceVulkan13Features::default()
            .subgroup_size_control(f13.subgroup_size_control != 0)
            .compute_full_subgroups(f13.compute_full_subgroups != 0);
        // Compiler statistics, only on request (capturing them can slow pipeline creation).
        let stats_dir = std::env::var_os("RDNA_VK_STATS");
        let stats_ext = ash::khr::pipeline_executable_properties::NAME;
        let has_stats_ext = stats_dir.is_some()
            && instance.enumerate_device_extension_properties(phys).unwrap_or_default().iter().any(|e| e.extension_name_as_c_str() == Ok(stats_ext));
        let mut stats_feature = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
        let stats_names = [stats_ext.as_ptr()];
        let families = instance.get_physical_device_queue_family_properties(phys);
        let family = families
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or_else(|| VkError::Unsupported { device: name.clone(), what: "a compute queue".into() })? as u32;
        let timestamp_period = if families[family as usize].timestamp_valid_bits > 0 { p.limits.timestamp_period } else { 0.0 };
        let prio = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&prio)];
        let mut dinfo = vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_features(&enable).push_next(&mut e12).push_next(&mut e13);
        if has_stats_ext {
            dinfo = dinfo.enabled_extension_names(&stats_names).push_next(&mut stats_feature);
        } else if stats_dir.is_some() {
            eprintln!("rdna-vk: RDNA_VK_STATS is set but '{name}' lacks VK_KHR_pipeline_executable_properties");
        }
        let device = call("creating the device", instance.create_device(phys, &dinfo, None))?;
        let stats = has_stats_ext.then(|| {
            let dir = stats_dir.filter(|d| d != "1").map(std::path::PathBuf::from);
            (ash::khr::pipeline_executable_properties::Device::new(&instance, &device), dir)
        });
        let queue = device.get_device_queue(family, 0);
        // Host-visible, coherent memory for what the host writes and reads: the buffers
        // themselves, or the host side of staged ones (see the crate's documentation).
        let mem = instance.get_physical_device_memory_properties(phys);
        let table: Vec<(vk::MemoryPropertyFlags, u64)> = mem.memory_types[..mem.memory_type_count as usize].iter().map(|t| (t.property_flags, mem.memory_heaps[t.heap_index as usize].size)).collect();
        let (memory_type, local_types) = choose_memory(p.device_type, &table, placement);
        let memory_type = memory_type.ok_or_else(|| VkError::Unsupported { device: name.clone(), what: "host-visible coherent memory".into() })?;
        let all: Vec<String> = table.iter().enumerate().map(|(i, (flags, heap))| format!("{i}: {flags:?}, {} MiB heap", heap >> 20)).collect();
        let describe = |t: u32| format!("type {t}, {:?}, {} MiB heap", table[t as usize].0, table[t as usize].1 >> 20);
        let memory = match local_types.first() {
            Some(&l) => format!("device memory ({}) staged through host-visible memory ({}); the device's types: {}", describe(l), describe(memory_type), all.join("; ")),
            None => format!("host-visible memory ({}); the device's types: {}", describe(memory_type), all.join("; ")),
        };
        let info = DeviceInfo { memory, ..info };
        let cache = call("creating the pipeline cache", device.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None))?;
        Ok(Device {
            _entry: entry,
            instance,
            device,
            queue: Mutex::new(queue),
            family,
            memory_type,
            local_types,
            cache,
            pipelines: Mutex::new(HashMap::new()),
            info,
            timeout: Duration::from_secs(60),
            repeat: 1,
            timestamp_period,
            stats,
        })
    }

    /// A zeroed buffer of `size` bytes (at least 4) with a device address.
    pub fn buffer(&self, size: u64) -> Result<Buffer> {
        let size = size.max(4);
        let copies = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let shader = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        unsafe {
            if !self.local_types.is_empty() {
                match self.allocate(size, shader | copies, &self.local_types, "device-local") {
                    Ok(local) => {
                        let host = self.allocate(size, copies, &[self.memory_type], "host-visible").inspect_err(|_| self.release(local))?;
                        return self.map(host, size, Some(local));
                    }
                    // The device's own memory is full: host memory still works, only slower.
                    Err(VkError::Call { result: vk::Result::ERROR_OUT_OF_DEVICE_MEMORY, .. }) => {}
                    Err(e) => return Err(e),
                }
            }
            let host = self.allocate(size, shader | copies, &[self.memory_type], "host-visible")?;
            self.map(host, size, None)
        }
    }

    /// Destroys a buffer and frees its memory.
    unsafe fn release(&self, (buffer, memory): (vk::Buffer, vk::DeviceMemory)) {
        self.device.destroy_buffer(buffer, None);
        self.device.free_memory(memory, None);
    }

    /// A buffer of `size` bytes bound to new memory of the first of `memory_types` that such a
    /// buffer may use.
    unsafe fn allocate(&self, size: u64, usage: vk::BufferUsageFlags, memory_types: &[u32], what: &str) -> Result<(vk::Buffer, vk::DeviceMemory)> {
        let buffer = call("creating a buffer", self.device.create_buffer(&vk::BufferCreateInfo::default().size(size).usage(usage), None))?;
        let req = self.device.get_buffer_memory_requirements(buffer);
        let Some(&memory_type) = memory_types.iter().find(|&&t| req.memory_type_bits & (1 << t) != 0) else {
            self.device.destroy_buffer(buffer, None);
            return Err(VkError::Unsupported { device: self.info.name.clone(), what: format!("buffers in {what} memory") });
        };
        let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let alloc = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(memory_type).push_next(&mut flags);
        let memory = match call("allocating buffer memory", self.device.allocate_memory(&alloc, None)) {
            Ok(m) => m,
            Err(e) => {
                self.device.destroy_buffer(buffer, None);
                return Err(e);
            }
        };
        call("binding buffer memory", self.device.bind_buffer_memory(buffer, memory, 0)).inspect_err(|_| self.release((buffer, memory)))?;
        Ok((buffer, memory))
    }

    /// Maps the host side, zeroes it, and takes the device address of the buffer kernels reach.
    unsafe fn map(&self, (buffer, memory): (vk::Buffer, vk::DeviceMemory), size: u64, local: Option<(vk::Buffer, vk::DeviceMemory)>) -> Result<Buffer> {
        let ptr = match call("mapping buffer memory", self.device.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())) {
            Ok(p) => p as *mut u8,
            Err(e) => {
                [(buffer, memory)].into_iter().chain(local).for_each(|pair| self.release(pair));
                return Err(e);
            }
        };
        std::ptr::write_bytes(ptr, 0, size as usize);
        let reached = local.map_or(buffer, |(b, _)| b);
        let address = self.device.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(reached));
        Ok(Buffer { buffer, memory, ptr, size, address, local })
    }

    /// A buffer holding `data` (and at least `size` bytes).
    pub fn buffer_with(&self, data: &[u8], size: u64) -> Result<Buffer> {
        let b = self.buffer(size.max(data.len() as u64))?;
        b.write(0, data);
        Ok(b)
    }

    /// Frees a buffer.
    pub fn free(&self, b: Buffer) {
        unsafe { [(b.buffer, b.memory)].into_iter().chain(b.local).for_each(|pair| self.release(pair)) }
    }

    /// The wave model for kernels of `lanes`-wide waves in workgroups of `items` work-items:
    /// one subgroup per wave where the device can require a subgroup of the wave's size and
    /// run the workgroup's lanes as invocations, else the exact model. The environment
    /// variable `RDNA_WAVE_MODEL` (`exact` or `subgroup`) overrides the choice; a subgroup
    /// model the device cannot run then fails at dispatch, naming what it lacks.
    pub fn wave_model(&self, lanes: u32, items: u32) -> rdna_spirv::WaveModel {
        use rdna_spirv::WaveModel;
        match std::env::var("RDNA_WAVE_MODEL").as_deref() {
            Ok("exact") => return WaveModel::Exact,
            Ok("subgroup") => return WaveModel::Subgroup,
            _ => {}
        }
        let i = &self.info;
        let fits = i.subgroup_size_control && (i.min_subgroup..=i.max_subgroup).contains(&lanes) && items.div_ceil(lanes) * lanes <= i.max_workgroup_invocations;
        if fits { WaveModel::Subgroup } else { WaveModel::Exact }
    }

    /// How kernels are recompiled for this device: [`Device::wave_model`] and [`fma_lowering`].
    pub fn options(&self, lanes: u32, items: u32) -> rdna_spirv::Options {
        rdna_spirv::Options { model: self.wave_model(lanes, items), fma: fma_lowering(self.info.vendor_id) }
    }

    /// Runs `groups` workgroups of the compute entry point `entry` of a SPIR-V module, with
    /// `push` as its push constants (at most 128 bytes), and waits for it. `buffers`: those the
    /// kernel reaches (staged ones are copied to the device before it and back after it).
    /// `subgroup`: the subgroup size the pipeline requires, with full subgroups. Returns the
    /// dispatch's time on the device (GPU timestamps, the copies not included; the fastest run's
    /// where it runs [`Device::repeat`] times), where the queue has timestamps.
    pub fn dispatch(&self, spirv: &[u32], entry: &str, push: &[u8], buffers: &[&Buffer], groups: [u32; 3], subgroup: Option<u32>) -> Result<Option<Duration>> {
        if push.len() > 128 || !push.len().is_multiple_of(4) {
            return Err(VkError::Usage(format!("push constants must be a multiple of 4 bytes, at most 128 (got {})", push.len())));
        }
        if let Some(s) = subgroup {
            if !self.info.subgroup_size_control || s < self.info.min_subgroup || s > self.info.max_subgroup {
                return Err(VkError::Unsupported { device: self.info.name.clone(), what: format!("a required subgroup size of {s}") });
            }
        }
        let key = PipelineKey { code: spirv.to_vec(), entry: entry.to_string(), subgroup, push: push.len() as u32 };
        let (pipeline, layout) = self.pipeline(key)?;
        unsafe { self.submit(pipeline, layout, push, buffers, groups) }
    }

    fn pipeline(&self, key: PipelineKey) -> Result<(vk::Pipeline, vk::PipelineLayout)> {
        let mut map = self.pipelines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&p) = map.get(&key) {
            return Ok(p);
        }
        let name = std::ffi::CString::new(key.entry.clone()).map_err(|_| VkError::Usage("entry point name with a NUL".into()))?;
        unsafe {
            let module = call("creating the shader module", self.device.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&key.code), None))?;
            let ranges = [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(key.push.max(4))];
            let layout = call("creating the pipeline layout", self.device.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges), None));
            let layout = match layout {
                Ok(l) => l,
                Err(e) => {
                    self.device.destroy_shader_module(module, None);
                    return Err(e);
                }
            };
            let mut req = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default().required_subgroup_size(key.subgroup.unwrap_or(0));
            let mut stage = vk::PipelineShaderStageCreateInfo::default().stage(vk::ShaderStageFlags::COMPUTE).module(module).name(name.as_c_str());
            if key.subgroup.is_some() {
                stage = stage.flags(vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS).push_next(&mut req);
            }
            let mut flags = vk::PipelineCreateFlags::empty();
            if self.stats.is_some() {
                flags |= vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
            }
            let info = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout).flags(flags)];
            let made = self.device.create_compute_pipelines(self.cache, &info, None);
            self.device.destroy_shader_module(module, None);
            let pipeline = match made {
                Ok(p) => p[0],
                Err((_, e)) => {
                    self.device.destroy_pipeline_layout(layout, None);
                    return Err(VkError::Call { what: "creating the compute pipeline", result: e });
                }
            };
            if let Some((ext, dir)) = &self.stats {
                report_statistics(ext, dir.as_deref(), pipeline, &key);
            }
            map.insert(key, (pipeline, layout));
            Ok((pipeline, layout))
        }
    }

    unsafe fn submit(&self, pipeline: vk::Pipeline, layout: vk::PipelineLayout, push: &[u8], buffers: &[&Buffer], groups: [u32; 3]) -> Result<Option<Duration>> {
        let d = &self.device;
        let pool = call("creating a command pool", d.create_command_pool(&vk::CommandPoolCreateInfo::default().queue_family_index(self.family), None))?;
        let fence = match call("creating a fence", d.create_fence(&vk::FenceCreateInfo::default(), None)) {
            Ok(f) => f,
            Err(e) => {
                d.destroy_command_pool(pool, None);
                return Err(e);
            }
        };
        // Two timestamps around each run of the dispatch, where the queue has them.
        let staged: Vec<(vk::Buffer, vk::Buffer, u64)> = buffers.iter().filter_map(|b| b.local.map(|(l, _)| (b.buffer, l, b.size))).collect();
        // Where the dispatch runs again, a copy of each buffer's initial contents, in the same
        // kind of memory as the buffer the kernel reaches, restores it between runs at the
        // device's own speed, so the device stays busy. Where memory is short, staged buffers
        // are copied in from the host again instead; else the dispatch runs once.
        let reached: Vec<(vk::Buffer, u64, &[u32])> = buffers
            .iter()
            .map(|b| match b.local {
                Some((local, _)) => (local, b.size, &self.local_types[..]),
                None => (b.buffer, b.size, std::slice::from_ref(&self.memory_type)),
            })
            .collect();
        let mut runs = self.repeat.max(1);
        let mut pristine: Vec<(vk::Buffer, vk::DeviceMemory)> = Vec::new();
        if runs > 1 {
            let copies = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
            for &(_, size, types) in &reached {
                match self.allocate(size, copies, types, "spare") {
                    Ok(b) => pristine.push(b),
                    Err(_) => {
                        pristine.drain(..).for_each(|b| self.release(b));
                        if staged.len() < buffers.len() {
                            runs = 1;
                        }
                        break;
                    }
                }
            }
        }
        // Whether each run's dispatch follows copies (its first timestamp waits for them).
        let copied = !staged.is_empty() || !pristine.is_empty();
        let queries = if self.timestamp_period > 0.0 {
            d.create_query_pool(&vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2 * runs), None).ok()
        } else {
            None
        };
        let run = || -> Result<Option<Duration>> {
            let alloc = vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1);
            let cmd = call("allocating a command buffer", d.allocate_command_buffers(&alloc))?[0];
            call("recording", d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)))?;
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            if !push.is_empty() {
                d.cmd_push_constants(cmd, layout, vk::ShaderStageFlags::COMPUTE, 0, push);
            }
            if let Some(q) = queries {
                d.cmd_reset_query_pool(cmd, q, 0, 2 * runs);
            }
            // Staged buffers: the host sides' contents to the device's own memory first.
            let copy = |from_host: bool| {
                for &(host, local, size) in &staged {
                    let (src, dst) = if from_host { (host, local) } else { (local, host) };
                    d.cmd_copy_buffer(cmd, src, dst, &[vk::BufferCopy::default().size(size)]);
                }
            };
            let barrier = |src: (vk::PipelineStageFlags, vk::AccessFlags), dst: (vk::PipelineStageFlags, vk::AccessFlags)| {
                let b = [vk::MemoryBarrier::default().src_access_mask(src.1).dst_access_mask(dst.1)];
                d.cmd_pipeline_barrier(cmd, src.0, dst.0, vk::DependencyFlags::empty(), &b, &[], &[]);
            };
            let shader = (vk::PipelineStageFlags::COMPUTE_SHADER, vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE);
            let transfer = (vk::PipelineStageFlags::TRANSFER, vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE);
            for run in 0..runs {
                if run == 0 {
                    if !staged.is_empty() {
                        copy(true);
                    }
                    if !pristine.is_empty() {
                        barrier(transfer, transfer);
                        for (&(reach, size, _), &(keep, _)) in reached.iter().zip(&pristine) {
                            d.cmd_copy_buffer(cmd, reach, keep, &[vk::BufferCopy::default().size(size)]);
                        }
                    }
                    if copied {
                        barrier(transfer, shader);
                    }
                } else {
                    barrier(shader, transfer);
                    if pristine.is_empty() {
                        copy(true);
                    } else {
                        for (&(reach, size, _), &(keep, _)) in reached.iter().zip(&pristine) {
                            d.cmd_copy_buffer(cmd, keep, reach, &[vk::BufferCopy::default().size(size)]);
                        }
                    }
                    barrier(transfer, shader);
                }
                if let Some(q) = queries {
                    // After the copies have finished, where there are any.
                    let stage = if copied { vk::PipelineStageFlags::ALL_COMMANDS } else { vk::PipelineStageFlags::TOP_OF_PIPE };
                    d.cmd_write_timestamp(cmd, stage, q, 2 * run);
                }
                d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
                if let Some(q) = queries {
                    d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, q, 2 * run + 1);
                }
            }
            let host_read = (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ);
            if staged.is_empty() {
                // Make the kernel's writes visible to the host's reads.
                barrier(shader, host_read);
            } else {
                barrier(shader, transfer);
                copy(false);
                barrier(transfer, host_read);
            }
            call("recording", d.end_command_buffer(cmd))?;
            let cmds = [cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            {
                let q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                call("submitting the dispatch", d.queue_submit(*q, &submit, fence))?;
            }
            match d.wait_for_fences(&[fence], true, self.timeout.as_nanos().min(u64::MAX as u128) as u64) {
                Ok(()) => {}
                Err(vk::Result::TIMEOUT) => return Err(VkError::Timeout(self.timeout)),
                Err(e) => return call("waiting for the dispatch", Err(e)),
            }
            let Some(q) = queries else { return Ok(None) };
            let mut ticks = vec![0u64; 2 * runs as usize];
            if d.get_query_pool_results(q, 0, &mut ticks, vk::QueryResultFlags::TYPE_64).is_err() {
                return Ok(None);
            }
            let fastest = ticks.chunks(2).map(|t| t[1].wrapping_sub(t[0])).min().unwrap_or(0);
            Ok(Some(Duration::from_nanos((fastest as f64 * self.timestamp_period as f64) as u64)))
        };
        let r = run();
        if !matches!(r, Err(VkError::Timeout(_))) {
            // A timed-out dispatch may still be running: leaking its pool beats freeing it under the device.
            d.destroy_fence(fence, None);
            d.destroy_command_pool(pool, None);
            if let Some(q) = queries {
                d.destroy_query_pool(q, None);
            }
            pristine.into_iter().for_each(|b| self.release(b));
        }
        r
    }
}

impl Buffer {
    /// Copies `data` into the buffer at `offset` (clipped to the buffer).
    pub fn write(&self, offset: u64, data: &[u8]) {
        let n = (self.size.saturating_sub(offset) as usize).min(data.len());
        if n == 0 {
            return;
        }
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), self.ptr.add(offset as usize), n) };
    }

    /// The buffer's contents.
    /// The little-endian dword at byte `offset` (0 past the end).
    pub fn read_u32(&self, offset: u64) -> u32 {
        if offset + 4 > self.size {
            return 0;
        }
        let mut b = [0u8; 4];
        unsafe { std::ptr::copy_nonoverlapping(self.ptr.add(offset as usize), b.as_mut_ptr(), 4) };
        u32::from_le_bytes(b)
    }

    /// `len` bytes from `offset` (clipped to the buffer).
    pub fn read_at(&self, offset: u64, len: u64) -> Vec<u8> {
        let end = offset.saturating_add(len).min(self.size);
        let start = offset.min(end);
        let mut v = vec![0u8; (end - start) as usize];
        unsafe { std::ptr::copy_nonoverlapping(self.ptr.add(start as usize), v.as_mut_ptr(), v.len()) };
        v
    }

    pub fn read(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.size as usize];
        unsafe { std::ptr::copy_nonoverlapping(self.ptr, v.as_mut_ptr(), v.len()) };
        v
    }
}

/// Where buffers go on a device of `kind` whose memory types are `types` (flags, size of the
/// type's heap): the host-visible coherent type of the buffers (or of staged buffers' host
/// sides), and the device-local types for staged buffers' twins, preferred first (empty: not
/// staged). See the crate's documentation for why a discrete GPU stages.
fn choose_memory(kind: vk::PhysicalDeviceType, types: &[(vk::MemoryPropertyFlags, u64)], placement: Placement) -> (Option<u32>, Vec<u32>) {
    use vk::MemoryPropertyFlags as F;
    let want = F::HOST_VISIBLE | F::HOST_COHERENT;
    let has = |i: u32, flags: F| types[i as usize].0.contains(flags);
    let all = 0..types.len() as u32;
    let mapped_local = all.clone().find(|&i| has(i, want | F::DEVICE_LOCAL));
    // The device's own memory, its largest heaps first, types the host cannot map first.
    let mut local_types: Vec<u32> = all.clone().filter(|&i| has(i, F::DEVICE_LOCAL)).collect();
    local_types.sort_by_key(|&i| (std::cmp::Reverse(types[i as usize].1), has(i, F::HOST_VISIBLE)));
    // For a host side the host reads back, cached memory where there is some.
    let host_type = all
        .clone()
        .find(|&i| has(i, want | F::HOST_CACHED) && !has(i, F::DEVICE_LOCAL))
        .or_else(|| all.clone().find(|&i| has(i, want) && !has(i, F::DEVICE_LOCAL)))
        .or_else(|| all.clone().find(|&i| has(i, want)));
    match placement {
        Placement::Auto => {
            let unmappable: Vec<u32> = local_types.into_iter().filter(|&t| !has(t, F::HOST_VISIBLE)).collect();
            if kind == vk::PhysicalDeviceType::DISCRETE_GPU && !unmappable.is_empty() {
                (host_type, unmappable)
            } else {
                (mapped_local.or(host_type), Vec::new())
            }
        }
        Placement::Host => (host_type, Vec::new()),
        Placement::Staged => (host_type, local_types),
    }
}

/// Prints the driver's statistics of each executable of `pipeline` on stderr and, with a
/// directory, writes its internal representations there (`RDNA_VK_STATS`). Diagnostics only:
/// a failing query is reported and skipped.
unsafe fn report_statistics(ext: &ash::khr::pipeline_executable_properties::Device, dir: Option<&std::path::Path>, pipeline: vk::Pipeline, key: &PipelineKey) {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.code.hash(&mut h);
    let tag = format!("{:016x}", h.finish());
    let executables = match ext.get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline)) {
        Ok(e) => e,
        Err(e) => return eprintln!("rdna-vk: pipeline {tag}: no executable properties ({e})"),
    };
    for (i, exe) in executables.iter().enumerate() {
        let info = vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(i as u32);
        let mut line = format!("rdna-vk: pipeline {tag} ({} words) executable {i} '{}' subgroup {}:", key.code.len(), c_text(exe.name_as_c_str()), exe.subgroup_size);
        for st in ext.get_pipeline_executable_statistics(&info).unwrap_or_default() {
            let v = match st.format {
                vk::PipelineExecutableStatisticFormatKHR::BOOL32 => (st.value.b32 != 0).to_string(),
                vk::PipelineExecutableStatisticFormatKHR::INT64 => st.value.i64.to_string(),
                vk::PipelineExecutableStatisticFormatKHR::UINT64 => st.value.u64.to_string(),
                _ => st.value.f64.to_string(),
            };
            line += &format!(" {}={v};", c_text(st.name_as_c_str()));
        }
        eprintln!("{line}");
        let Some(dir) = dir else { continue };
        // Two calls: sizes, then the data into buffers of those sizes.
        let get = ext.fp().get_pipeline_executable_internal_representations_khr;
        let mut n = 0u32;
        if get(ext.device(), &info, &mut n, std::ptr::null_mut()) != vk::Result::SUCCESS {
            continue;
        }
        let mut reps = vec![vk::PipelineExecutableInternalRepresentationKHR::default(); n as usize];
        if get(ext.device(), &info, &mut n, reps.as_mut_ptr()) != vk::Result::SUCCESS && n == 0 {
            continue;
        }
        let mut bufs: Vec<Vec<u8>> = reps.iter().map(|r| vec![0u8; r.data_size]).collect();
        for (r, b) in reps.iter_mut().zip(bufs.iter_mut()) {
            r.p_data = b.as_mut_ptr().cast();
        }
        let _ = get(ext.device(), &info, &mut n, reps.as_mut_ptr());
        for (j, (r, b)) in reps.iter().zip(&bufs).enumerate() {
            let name: String = c_text(r.name_as_c_str()).chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            let path = dir.join(format!("{tag}-{i}-{j}-{name}.txt"));
            let body = if r.is_text != 0 { b.iter().take_while(|&&c| c != 0).copied().collect() } else { b.clone() };
            if let Err(e) = std::fs::write(&path, body) {
                eprintln!("rdna-vk: writing {}: {e}", path.display());
            }
        }
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        unsafe {
            let _ = self.device.device_wait_idle();
            for (_, (p, l)) in self.pipelines.get_mut().unwrap_or_else(|e| e.into_inner()).drain() {
                self.device.destroy_pipeline(p, None);
                self.device.destroy_pipeline_layout(l, None);
            }
            self.device.destroy_pipeline_cache(self.cache, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vk::MemoryPropertyFlags as F;
    use vk::PhysicalDeviceType as Kind;

    const MIB: u64 = 1 << 20;

    /// The memory types NVIDIA's driver reported for an H100 (80 GB) in rdna-bench's output.
    fn h100() -> Vec<(F, u64)> {
        let (sys, vid) = (96_651 * MIB, 81_559 * MIB);
        vec![
            (F::empty(), sys),
            (F::DEVICE_LOCAL, vid),
            (F::HOST_VISIBLE | F::HOST_COHERENT, sys),
            (F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED, sys),
            (F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT, vid),
        ]
    }

    /// Mesa's lavapipe: one type for everything.
    fn lavapipe() -> Vec<(F, u64)> {
        vec![(F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED, 2048 * MIB)]
    }

    #[test]
    fn a_discrete_gpu_stages_through_memory_the_host_cannot_map_even_with_a_large_bar() {
        // Type 4 (host-visible device memory as large as the device's) made recompiled SAXPY
        // 5.7x slower than type 1 on the H100 (BENCHMARKS.md).
        assert_eq!(choose_memory(Kind::DISCRETE_GPU, &h100(), Placement::Auto), (Some(3), vec![1]));
        assert_eq!(choose_memory(Kind::DISCRETE_GPU, &h100(), Placement::Host), (Some(3), vec![]));
        assert_eq!(choose_memory(Kind::DISCRETE_GPU, &h100(), Placement::Staged), (Some(3), vec![1, 4]));
    }

    #[test]
    fn cpu_and_integrated_devices_map_their_memory() {
        assert_eq!(choose_memory(Kind::CPU, &lavapipe(), Placement::Auto), (Some(0), vec![]));
        assert_eq!(choose_memory(Kind::CPU, &lavapipe(), Placement::Staged), (Some(0), vec![0]));
        // An integrated GPU with a carve-out the host cannot map still maps host-visible memory.
        let igpu = vec![(F::DEVICE_LOCAL, 512 * MIB), (F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT, 16_384 * MIB), (F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED, 16_384 * MIB)];
        assert_eq!(choose_memory(Kind::INTEGRATED_GPU, &igpu, Placement::Auto), (Some(1), vec![]));
    }

    #[test]
    fn a_device_without_host_visible_coherent_memory_has_no_host_type() {
        assert_eq!(choose_memory(Kind::DISCRETE_GPU, &[(F::DEVICE_LOCAL, 1024 * MIB)], Placement::Auto), (None, vec![0]));
    }
}
