//! The control-flow graph against the emulator (the oracle): every branch, jump, call and
//! return a wave takes while the emulator runs a test kernel must be an edge of the graph
//! built statically, for every kernel in `tests/kernels`, both targets and both wave sizes;
//! and the structured form of each graph walks like the graph.

mod common;

use rdna_emu::Options;
use rdna_frontend::{kernel_program, structure::Structure, Cfg};

#[test]
fn every_transfer_the_emulator_takes_is_an_edge_of_the_graph() {
    let (mut kernels, mut observed, mut loops) = (0, 0, 0);
    for rdna_testkit::Build { mcpu, lanes, co } in rdna_testkit::corpus_builds("cfg") {
        for k in &co.kernels {
            let what = format!("{mcpu} wave{lanes} {}", k.name);
            let (prog, entry) = kernel_program(&co, k).unwrap();
            let cfg = Cfg::build(&prog, entry).unwrap_or_else(|e| panic!("{what}: {e}"));
            let st = Structure::of(&cfg);
            assert!(st.reducible(), "{what}: clang-19's flow should be reducible: {:?}", st.irreducible);
            loops += st.loops.len();
            // The structured tree walks like the graph (every function, random branches).
            common::check(&cfg, kernels as u64);
            kernels += 1;
            // Zeroed inputs, then small random ones (data-dependent branches both ways).
            let mut edges = std::collections::BTreeSet::new();
            for seed in [0, 0x9e37_79b9_7f4a_7c15] {
                let (launch, mut mem) = rdna_testkit::launch_filled(&co, k, seed);
                // A fault on made-up inputs says nothing about the graph.
                if let Ok(stats) = rdna_emu::run(&launch, &mut mem, &Options { budget: 5_000_000, edges: true, ..Options::default() }) {
                    edges.extend(stats.edges);
                }
            }
            for &(from, to) in &edges {
                assert!(cfg.allows(&prog, from, to), "{what}: the emulator went from {from:#x} to {to:#x}, which is not an edge of {cfg:#?}");
            }
            observed += edges.len();
        }
    }
    assert!(kernels > 100, "only {kernels} kernels");
    assert!(observed > 1000, "only {observed} transfers observed");
    assert!(loops > 50, "only {loops} loops found");
    eprintln!("{kernels} kernels, {observed} observed transfers, {loops} loops");
}
