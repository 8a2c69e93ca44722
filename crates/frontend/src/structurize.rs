//! Structured control flow from a [`Cfg`]: the tree of loops, selections and breakable blocks
//! that SPIR-V's structured constructs are built from.
//!
//! Reducible functions (everything clang-19 emits) follow the dominator tree: a block's
//! dominator-tree children with two or more forward in-edges ("merge" blocks) are placed after
//! it, each behind a breakable block that the branches to it leave; a loop header wraps its
//! subtree in a loop that back edges continue; any other forward target is nested at its
//! branch. This is the construction of N. Ramsey, "Beyond Relooper" (ICFP 2022); every block
//! appears exactly once and no flag variables are introduced.
//!
//! An irreducible function has no such tree; it becomes a [`Node::Dispatch`]: a loop that runs
//! the block named by a state variable and sets it to the block's successor. Slower, and exact.

use crate::cfg::{BlockId, Cfg, Exit};
use crate::structure::Structure;
use rdna_emu::sem::BranchIf;

/// One piece of structured control flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The instructions of a block, its terminator excluded.
    Code(BlockId),
    /// Two-way choice on the condition of `block`'s branch.
    If { block: BlockId, cond: BranchIf, then: Vec<Node>, otherwise: Vec<Node> },
    /// Repeats `body`; [`Node::Continue`]`(header)` starts it again. The body never runs off its end.
    Loop { header: BlockId, body: Vec<Node> },
    /// Runs `body` once; [`Node::Break`]`(follow)` leaves it, and what comes after it in the
    /// enclosing list (the code of `follow`) runs next.
    Block { follow: BlockId, body: Vec<Node> },
    Break(BlockId),
    Continue(BlockId),
    /// The call at the end of `block` to function `callee` (index into [`Cfg::functions`]).
    Call { block: BlockId, callee: usize },
    Return,
    End,
    /// The fallback for irreducible flow: a state machine over the function's blocks,
    /// starting at `entry`.
    Dispatch { entry: BlockId, blocks: Vec<BlockId> },
}

/// Structured flow of each function of `cfg` (indexed like [`Cfg::functions`]).
pub fn structurize(cfg: &Cfg, st: &Structure) -> Vec<Vec<Node>> {
    let n = cfg.blocks.len();
    let mut order = vec![usize::MAX; n];
    for rpo in &st.rpo {
        for (i, &b) in rpo.iter().enumerate() {
            order[b] = i;
        }
    }
    let preds = cfg.predecessors();
    let merge: Vec<bool> = (0..n).map(|b| preds[b].iter().filter(|&&p| order[p] < order[b]).count() >= 2).collect();
    let header: Vec<bool> = (0..n).map(|b| st.loops.iter().any(|l| l.header == b)).collect();
    let mut children = vec![Vec::new(); n];
    for b in 0..n {
        if let Some(d) = st.idom[b] {
            children[d].push(b);
        }
    }
    let irreducible_fn: Vec<bool> = (0..cfg.functions.len()).map(|f| st.irreducible.iter().any(|&(u, _)| cfg.blocks[u].func == f)).collect();
    let s = Structurizer { cfg, order, merge, header, children };
    cfg.functions
        .iter()
        .enumerate()
        .map(|(f, func)| if irreducible_fn[f] { vec![Node::Dispatch { entry: func.entry, blocks: func.blocks.clone() }] } else { s.tree(func.entry) })
        .collect()
}

struct Structurizer<'a> {
    cfg: &'a Cfg,
    /// Reverse-postorder position of each block within its function.
    order: Vec<usize>,
    /// Blocks with two or more forward in-edges.
    merge: Vec<bool>,
    header: Vec<bool>,
    /// Dominator-tree children.
    children: Vec<Vec<BlockId>>,
}

impl Structurizer<'_> {
    /// The code for `x` and the part of the dominator tree below it.
    fn tree(&self, x: BlockId) -> Vec<Node> {
        let mut merges: Vec<BlockId> = self.children[x].iter().copied().filter(|&c| self.merge[c]).collect();
        // The merge block placed last is the outermost breakable block.
        merges.sort_by_key(|&c| std::cmp::Reverse(self.order[c]));
        let inner = self.within(x, &merges);
        if self.header[x] {
            vec![Node::Loop { header: x, body: inner }]
        } else {
            inner
        }
    }

    fn within(&self, x: BlockId, merges: &[BlockId]) -> Vec<Node> {
        match merges.split_first() {
            None => {
                let mut v = vec![Node::Code(x)];
                v.extend(self.exit(x));
                v
            }
            Some((&y, rest)) => {
                let mut v = vec![Node::Block { follow: y, body: self.within(x, rest) }];
                v.extend(self.tree(y));
                v
            }
        }
    }

    fn exit(&self, x: BlockId) -> Vec<Node> {
        match self.cfg.blocks[x].exit {
            Exit::Goto(t) => self.branch(x, t),
            Exit::Branch { cond, taken, next } => {
                vec![Node::If { block: x, cond, then: self.branch(x, taken), otherwise: self.branch(x, next) }]
            }
            Exit::Call { callee, ret } => {
                let mut v = vec![Node::Call { block: x, callee: self.cfg.blocks[callee].func }];
                v.extend(self.branch(x, ret));
                v
            }
            Exit::Return => vec![Node::Return],
            Exit::End => vec![Node::End],
        }
    }

    fn branch(&self, from: BlockId, to: BlockId) -> Vec<Node> {
        if self.order[to] <= self.order[from] {
            vec![Node::Continue(to)]
        } else if self.merge[to] {
            vec![Node::Break(to)]
        } else {
            self.tree(to)
        }
    }
}

/// How a walk through structured code ended.
enum Outcome {
    /// Ran off the end of a list.
    Normal,
    Break(BlockId),
    Continue(BlockId),
    Return,
    End,
    /// The step limit was reached.
    Limit,
}

/// Walks one function's structured code, taking branch outcomes from `decide` (called once per
/// conditional branch, with the block), and returns the blocks whose code ran, in order, at
/// most `limit` of them. Calls are not entered. This is the reference semantics of the tree,
/// used to check it against the graph.
pub fn walk(nodes: &[Node], cfg: &Cfg, decide: &mut dyn FnMut(BlockId) -> bool, limit: usize) -> Vec<BlockId> {
    let mut seen = Vec::new();
    walk_list(nodes, cfg, decide, limit, &mut seen);
    seen
}

fn walk_list(nodes: &[Node], cfg: &Cfg, decide: &mut dyn FnMut(BlockId) -> bool, limit: usize, seen: &mut Vec<BlockId>) -> Outcome {
    for node in nodes {
        let o = match node {
            Node::Code(b) => {
                if seen.len() == limit {
                    return Outcome::Limit;
                }
                seen.push(*b);
                Outcome::Normal
            }
            Node::If { block, then, otherwise, .. } => {
                if decide(*block) {
                    walk_list(then, cfg, decide, limit, seen)
                } else {
                    walk_list(otherwise, cfg, decide, limit, seen)
                }
            }
            Node::Loop { header, body } => loop {
                match walk_list(body, cfg, decide, limit, seen) {
                    Outcome::Continue(h) if h == *header => continue,
                    Outcome::Normal => panic!("the body of the loop at block {header} ran off its end"),
                    other => break other,
                }
            },
            Node::Block { follow, body } => match walk_list(body, cfg, decide, limit, seen) {
                Outcome::Break(f) if f == *follow => Outcome::Normal,
                Outcome::Normal => panic!("the block followed by {follow} ran off its end"),
                other => other,
            },
            Node::Break(b) => Outcome::Break(*b),
            Node::Continue(b) => Outcome::Continue(*b),
            Node::Call { .. } => Outcome::Normal,
            Node::Return => Outcome::Return,
            Node::End => Outcome::End,
            Node::Dispatch { entry, .. } => {
                let mut b = *entry;
                loop {
                    if seen.len() == limit {
                        break Outcome::Limit;
                    }
                    seen.push(b);
                    b = match cfg.blocks[b].exit {
                        Exit::Goto(t) => t,
                        Exit::Branch { taken, next, .. } => {
                            if decide(b) {
                                taken
                            } else {
                                next
                            }
                        }
                        Exit::Call { ret, .. } => ret,
                        Exit::Return => break Outcome::Return,
                        Exit::End => break Outcome::End,
                    };
                }
            }
        };
        if !matches!(o, Outcome::Normal) {
            return o;
        }
    }
    Outcome::Normal
}

/// Walks the graph itself the same way as [`walk`]: the reference the tree must reproduce.
pub fn walk_graph(cfg: &Cfg, entry: BlockId, decide: &mut dyn FnMut(BlockId) -> bool, limit: usize) -> Vec<BlockId> {
    walk(&[Node::Dispatch { entry, blocks: Vec::new() }], cfg, decide, limit)
}
