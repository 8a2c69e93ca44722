//! The structurizer against the graph it comes from: for random graphs (reducible and not),
//! walking the structured tree with a stream of branch decisions visits exactly the blocks
//! that walking the graph with the same decisions visits.

mod common;

use common::{check, Rng};
use rdna_emu::sem::BranchIf;
use rdna_frontend::structure::Structure;
use rdna_frontend::{Block, Cfg, Exit, Function};

/// A random single-function graph of up to `max` blocks, pruned to what block 0 reaches.
/// `back` is the chance (in 1/8) that a target is an earlier block.
fn random_cfg(r: &mut Rng, max: usize, back: usize) -> Cfg {
    let n = 1 + r.below(max);
    let target = |r: &mut Rng, i: usize| if i > 0 && r.below(8) < back { r.below(i + 1) } else if i + 1 < n { i + 1 + r.below(n - i - 1) } else { i };
    let exits: Vec<Exit> = (0..n)
        .map(|i| match r.below(10) {
            0 => Exit::End,
            1..=3 if i + 1 < n => Exit::Goto(target(r, i)),
            _ if i + 1 == n && r.below(2) == 0 => Exit::End,
            _ => Exit::Branch { cond: BranchIf::Scc1, taken: target(r, i), next: target(r, i) },
        })
        .collect();
    // Keep what block 0 reaches, numbered in discovery order.
    let mut id = vec![usize::MAX; n];
    let mut order = vec![0];
    id[0] = 0;
    let mut k = 0;
    while k < order.len() {
        for s in exits[order[k]].successors() {
            if id[s] == usize::MAX {
                id[s] = order.len();
                order.push(s);
            }
        }
        k += 1;
    }
    let blocks = order
        .iter()
        .map(|&b| {
            let exit = match exits[b] {
                Exit::Goto(t) => Exit::Goto(id[t]),
                Exit::Branch { cond, taken, next } => Exit::Branch { cond, taken: id[taken], next: id[next] },
                e => e,
            };
            Block { func: 0, first: b, last: b, exit }
        })
        .collect::<Vec<_>>();
    let all = (0..blocks.len()).collect();
    Cfg { blocks, functions: vec![Function { entry: 0, blocks: all }] }
}

#[test]
fn random_graphs_walk_the_same_structured_as_unstructured() {
    let mut r = Rng(0x1234_5678_9abc_def1);
    let (mut reducible, mut irreducible, mut with_loops) = (0, 0, 0);
    for i in 0..20_000 {
        let cfg = random_cfg(&mut r, 14, (i % 4) as usize);
        if Structure::of(&cfg).loops.len() > 1 {
            with_loops += 1;
        }
        if check(&cfg, i) {
            reducible += 1;
        } else {
            irreducible += 1;
        }
    }
    eprintln!("{reducible} reducible ({with_loops} with nested or several loops), {irreducible} irreducible");
    assert!(reducible > 5000 && irreducible > 500 && with_loops > 1000, "{reducible} {irreducible} {with_loops}");
}
