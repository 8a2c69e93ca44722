//! Dominators, natural loops and reducibility of each function of a [`Cfg`]: what the
//! structurizer needs to turn branches into SPIR-V's structured loops and selections.

use std::collections::BTreeSet;

use crate::cfg::{BlockId, Cfg};

/// A natural loop: the blocks that reach a latch without passing the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: BlockId,
    /// Blocks with a back edge to the header.
    pub latches: Vec<BlockId>,
    /// Every block of the loop, the header and nested loops included.
    pub body: BTreeSet<BlockId>,
    /// Edges leaving the loop: (from inside, to outside).
    pub exits: Vec<(BlockId, BlockId)>,
    /// The innermost loop containing this one (index into [`Structure::loops`]).
    pub parent: Option<usize>,
}

/// The structure of every function of a graph (indices are global block ids).
#[derive(Clone, Debug)]
pub struct Structure {
    /// Immediate dominator of each block; a function's entry has none.
    pub idom: Vec<Option<BlockId>>,
    /// Reverse postorder of each function.
    pub rpo: Vec<Vec<BlockId>>,
    /// Loops, outer ones before the loops they contain.
    pub loops: Vec<Loop>,
    /// Retreating edges whose target does not dominate their source: entries into a cycle
    /// other than through its header. Empty exactly when every function is reducible.
    pub irreducible: Vec<(BlockId, BlockId)>,
}

impl Structure {
    pub fn of(cfg: &Cfg) -> Structure {
        let n = cfg.blocks.len();
        let preds = cfg.predecessors();
        let mut idom = vec![None; n];
        let mut rpo_all = Vec::new();
        let mut order = vec![usize::MAX; n];
        let mut retreating = Vec::new();
        for f in &cfg.functions {
            let (rpo, back) = depth_first(cfg, f.entry);
            for (i, &b) in rpo.iter().enumerate() {
                order[b] = i;
            }
            dominators(&rpo, &order, &preds, &mut idom);
            retreating.extend(back);
            rpo_all.push(rpo);
        }
        let mut irreducible = Vec::new();
        let mut by_header: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
        for &(u, h) in &retreating {
            if dominates(&idom, h, u) {
                match by_header.iter_mut().find(|(x, _)| *x == h) {
                    Some((_, l)) => l.push(u),
                    None => by_header.push((h, vec![u])),
                }
            } else {
                irreducible.push((u, h));
            }
        }
        let mut loops: Vec<Loop> = by_header
            .into_iter()
            .map(|(header, latches)| {
                let mut body = BTreeSet::from([header]);
                let mut work = latches.clone();
                while let Some(b) = work.pop() {
                    if body.insert(b) {
                        work.extend(preds[b].iter().copied());
                    }
                }
                let exits = body
                    .iter()
                    .flat_map(|&b| cfg.blocks[b].exit.successors().into_iter().filter(|s| !body.contains(s)).map(move |s| (b, s)))
                    .collect();
                Loop { header, latches, body, exits, parent: None }
            })
            .collect();
        // Outer loops first; a loop's parent is the smallest earlier loop that contains it.
        loops.sort_by_key(|l| std::cmp::Reverse(l.body.len()));
        for i in 0..loops.len() {
            let h = loops[i].header;
            loops[i].parent = (0..i).rev().find(|&j| loops[j].body.contains(&h) && loops[j].header != h);
        }
        Structure { idom, rpo: rpo_all, loops, irreducible }
    }

    /// Whether `a` dominates `b` (every path from the entry to `b` passes `a`).
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        dominates(&self.idom, a, b)
    }

    /// Whether every function's flow is reducible (every cycle is entered through one header).
    pub fn reducible(&self) -> bool {
        self.irreducible.is_empty()
    }
}

fn dominates(idom: &[Option<BlockId>], a: BlockId, mut b: BlockId) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(d) => b = d,
            None => return false,
        }
    }
}

/// Reverse postorder from `entry`, and the retreating edges (to a block still on the DFS path).
fn depth_first(cfg: &Cfg, entry: BlockId) -> (Vec<BlockId>, Vec<(BlockId, BlockId)>) {
    let n = cfg.blocks.len();
    let (mut seen, mut on_path) = (vec![false; n], vec![false; n]);
    let mut post = Vec::new();
    let mut retreating = Vec::new();
    // Iterative DFS: (block, its successors, next successor to visit).
    let mut stack = vec![(entry, cfg.blocks[entry].exit.successors(), 0usize)];
    seen[entry] = true;
    on_path[entry] = true;
    while let Some((b, succ, i)) = stack.last_mut() {
        if let Some(&s) = succ.get(*i) {
            *i += 1;
            let b = *b;
            if on_path[s] {
                retreating.push((b, s));
            } else if !seen[s] {
                seen[s] = true;
                on_path[s] = true;
                stack.push((s, cfg.blocks[s].exit.successors(), 0));
            }
        } else {
            on_path[*b] = false;
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    (post, retreating)
}

/// Immediate dominators of one function (Cooper, Harvey and Kennedy's iteration over the
/// reverse postorder).
fn dominators(rpo: &[BlockId], order: &[usize], preds: &[Vec<BlockId>], idom: &mut [Option<BlockId>]) {
    let Some(&entry) = rpo.first() else { return };
    let mut dom: Vec<Option<usize>> = vec![None; rpo.len()]; // by rpo position
    dom[0] = Some(0);
    let intersect = |dom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while a > b {
                a = dom[a].unwrap();
            }
            while b > a {
                b = dom[b].unwrap();
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for (i, &b) in rpo.iter().enumerate().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                let pi = order[p];
                if pi == usize::MAX || dom.get(pi).copied().flatten().is_none() {
                    continue;
                }
                new = Some(match new {
                    None => pi,
                    Some(x) => intersect(&dom, pi, x),
                });
            }
            if new.is_some() && dom[i] != new {
                dom[i] = new;
                changed = true;
            }
        }
    }
    idom[entry] = None;
    for (i, &b) in rpo.iter().enumerate().skip(1) {
        idom[b] = dom[i].map(|d| rpo[d]);
    }
}
