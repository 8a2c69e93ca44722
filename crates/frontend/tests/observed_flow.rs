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

/// `kernel_flow` decodes only the kernel and the functions it reaches (widening its range to
/// the targets of calls it cannot follow inside it): its graph must be the one the whole
/// section gives, and for kernels with calls it must decode less than the whole section.
#[test]
fn the_kernels_own_range_gives_the_whole_sections_graph() {
    let (mut with_calls, mut narrower) = (0, 0);
    for rdna_testkit::Build { mcpu, lanes, co } in rdna_testkit::corpus_builds("cfg") {
        for k in &co.kernels {
            let what = format!("{mcpu} wave{lanes} {}", k.name);
            let (prog, entry) = kernel_program(&co, k).unwrap();
            let whole = Cfg::build(&prog, entry).unwrap_or_else(|e| panic!("{what}: {e}"));
            let Ok((own, _, cfg)) = rdna_frontend::kernel_flow(&co, k) else { panic!("{what}: kernel_flow failed") };
            assert_eq!((cfg.functions.len(), cfg.blocks.len()), (whole.functions.len(), whole.blocks.len()), "{what}");
            let pcs = |c: &Cfg, p: &rdna_emu::program::Program| c.blocks.iter().map(|b| (p.steps[b.first].pc, p.steps[b.last].pc)).collect::<std::collections::BTreeSet<_>>();
            assert_eq!(pcs(&cfg, &own), pcs(&whole, &prog), "{what}: the blocks differ");
            if whole.functions.len() > 1 {
                with_calls += 1;
                narrower += (own.steps.len() < prog.steps.len()) as u32;
            }
        }
    }
    assert!(with_calls >= 8, "only {with_calls} kernels with calls");
    assert_eq!(narrower, with_calls, "kernels with calls decoded the whole section");
}
