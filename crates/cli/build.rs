//! Links `rdna` as a position-dependent executable on Linux: the opcode tables are tens of
//! thousands of pointers, which a position-independent executable relocates at every start
//! (about 2 ms and 700 page faults, a third of `rdna dis` on a small code object). The cost is
//! address-space randomisation of the executable itself (libraries, heap and stack keep theirs),
//! a hardening measure that matters little for safe Rust.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
