//! Shared by the frontend's tests: the seeded generator (from rdna-testkit) and the structurizer
//! check.

#![allow(dead_code)]

use rdna_frontend::structure::Structure;
use rdna_frontend::structurize::{structurize, walk, walk_graph, Node};
use rdna_frontend::Cfg;

pub use rdna_testkit::Rng;

fn count_code(nodes: &[Node], counts: &mut [usize]) {
    for n in nodes {
        match n {
            Node::Code(b) => counts[*b] += 1,
            Node::If { then, otherwise, .. } => {
                count_code(then, counts);
                count_code(otherwise, counts);
            }
            Node::Loop { body, .. } | Node::Block { body, .. } => count_code(body, counts),
            _ => {}
        }
    }
}

/// Checks one graph; returns whether it was reducible.
pub fn check(cfg: &Cfg, seed: u64) -> bool {
    let st = Structure::of(cfg);
    let trees = structurize(cfg, &st);
    for (f, tree) in trees.iter().enumerate() {
        let func = &cfg.functions[f];
        if st.reducible() {
            let mut counts = vec![0; cfg.blocks.len()];
            count_code(tree, &mut counts);
            for &b in &func.blocks {
                assert_eq!(counts[b], 1, "block {b} appears {} times in {tree:#?}\nfrom {cfg:#?}", counts[b]);
            }
        } else {
            assert!(matches!(tree[..], [Node::Dispatch { .. }]));
        }
        for k in 0..8u64 {
            let mut a = Rng(seed ^ (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut b = Rng(a.0);
            let want = walk_graph(cfg, func.entry, &mut |_| a.next() & 1 == 1, 300);
            let got = walk(tree, cfg, &mut |_| b.next() & 1 == 1, 300);
            assert_eq!(got, want, "walk {k} differs; tree {tree:#?}\nfrom {cfg:#?}");
        }
    }
    st.reducible()
}

