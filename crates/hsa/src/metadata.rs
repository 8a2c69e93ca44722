//! The `NT_AMDGPU_METADATA` note: a MessagePack map describing each kernel's arguments and
//! resource use (code object v3 and later).

use serde::Deserialize;

/// The whole metadata map (only the keys rdna uses; others are ignored).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Metadata {
    #[serde(rename = "amdhsa.version", default)]
    pub version: Vec<u32>,
    #[serde(rename = "amdhsa.target", default)]
    pub target: Option<String>,
    #[serde(rename = "amdhsa.kernels", default)]
    pub kernels: Vec<KernelMeta>,
}

/// One kernel's metadata.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct KernelMeta {
    #[serde(rename = ".name")]
    pub name: String,
    #[serde(rename = ".symbol")]
    pub symbol: String,
    #[serde(rename = ".args", default)]
    pub args: Vec<ArgMeta>,
    #[serde(rename = ".kernarg_segment_size", default)]
    pub kernarg_segment_size: u32,
    #[serde(rename = ".kernarg_segment_align", default)]
    pub kernarg_segment_align: u32,
    #[serde(rename = ".group_segment_fixed_size", default)]
    pub group_segment_fixed_size: u32,
    #[serde(rename = ".private_segment_fixed_size", default)]
    pub private_segment_fixed_size: u32,
    #[serde(rename = ".wavefront_size", default)]
    pub wavefront_size: u32,
    #[serde(rename = ".sgpr_count", default)]
    pub sgpr_count: u32,
    #[serde(rename = ".vgpr_count", default)]
    pub vgpr_count: u32,
    #[serde(rename = ".max_flat_workgroup_size", default)]
    pub max_flat_workgroup_size: u32,
    #[serde(rename = ".uses_dynamic_stack", default)]
    pub uses_dynamic_stack: bool,
    #[serde(rename = ".language", default)]
    pub language: Option<String>,
}

/// One kernel argument, explicit (`by_value`, `global_buffer`, ...) or hidden (`hidden_*`).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ArgMeta {
    #[serde(rename = ".name", default)]
    pub name: Option<String>,
    #[serde(rename = ".offset")]
    pub offset: u32,
    #[serde(rename = ".size")]
    pub size: u32,
    #[serde(rename = ".value_kind")]
    pub value_kind: String,
    #[serde(rename = ".address_space", default)]
    pub address_space: Option<String>,
    #[serde(rename = ".type_name", default)]
    pub type_name: Option<String>,
    /// Alignment of what a pointer argument points to (dynamic LDS pointers use it).
    #[serde(rename = ".pointee_align", default)]
    pub pointee_align: Option<u32>,
}

impl ArgMeta {
    /// Hidden arguments are filled in by the runtime, not by the caller.
    pub fn is_hidden(&self) -> bool {
        self.value_kind.starts_with("hidden_")
    }
}

impl Metadata {
    /// Decodes the MessagePack body of the note.
    pub fn parse(desc: &[u8]) -> Result<Metadata, String> {
        rmp_serde::from_slice(desc).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod depth_tests {
    /// A note nesting arrays a thousand deep (a hostile or corrupt code object) is an error, not
    /// a stack overflow, on a thread with the default 2 MiB stack in a debug build.
    #[test]
    fn deep_nesting_is_refused_without_overflowing() {
        // {"amdhsa.version": [[[[ ... ]]]]}
        let mut desc = vec![0x81, 0xae];
        desc.extend_from_slice(b"amdhsa.version");
        desc.extend(std::iter::repeat(0x91).take(1000));
        desc.push(0xc0);
        let r = std::thread::Builder::new().stack_size(2 << 20).spawn(move || super::Metadata::parse(&desc)).unwrap().join();
        assert!(r.expect("no stack overflow").is_err());
    }
}
