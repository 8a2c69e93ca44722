//! Text and Graphviz forms of a graph and its structured tree (`rdna cfg`).

use std::fmt::Write;

use rdna_emu::program::Program;
use rdna_emu::sem::{BranchIf, Kind};

use crate::cfg::{Cfg, Exit};
use crate::structurize::Node;

fn cond_name(c: BranchIf) -> &'static str {
    match c {
        BranchIf::Always => "always",
        BranchIf::Scc0 => "scc0",
        BranchIf::Scc1 => "scc1",
        BranchIf::Vccz => "vccz",
        BranchIf::Vccnz => "vccnz",
        BranchIf::Execz => "execz",
        BranchIf::Execnz => "execnz",
    }
}

fn text(prog: &Program, i: usize) -> String {
    match prog.steps[i].kind {
        Kind::Invalid(w) => format!(".long {w:#010x}"),
        _ => prog.steps[i].text(),
    }
}

/// Each function's blocks with their instructions (addresses offset by `base`) and exits.
pub fn blocks(cfg: &Cfg, prog: &Program, base: u64) -> String {
    let mut s = String::new();
    for (f, func) in cfg.functions.iter().enumerate() {
        let what = if f == 0 { "kernel" } else { "called function" };
        let _ = writeln!(s, "function {f} ({what}, entry bb{}):", func.entry);
        for &b in &func.blocks {
            let blk = &cfg.blocks[b];
            let _ = writeln!(s, "  bb{b}:  ; {:#x}", base + prog.steps[blk.first].pc as u64);
            for i in blk.first..=blk.last {
                let _ = writeln!(s, "    {}", text(prog, i));
            }
            let exit = match blk.exit {
                Exit::Goto(t) => format!("goto bb{t}"),
                Exit::Branch { cond, taken, next } => format!("if {} goto bb{taken} else bb{next}", cond_name(cond)),
                Exit::Call { callee, ret } => format!("call bb{callee} (function {}), then bb{ret}", cfg.blocks[callee].func),
                Exit::Return => "return".into(),
                Exit::End => "end".into(),
            };
            let _ = writeln!(s, "    -> {exit}");
        }
    }
    s
}

/// The structured tree of one function, indented.
pub fn tree(nodes: &[Node]) -> String {
    let mut s = String::new();
    write_nodes(&mut s, nodes, 1);
    s
}

fn write_nodes(s: &mut String, nodes: &[Node], depth: usize) {
    let pad = "  ".repeat(depth);
    for n in nodes {
        match n {
            Node::Code(b) => _ = writeln!(s, "{pad}bb{b}"),
            Node::If { block, cond, then, otherwise } => {
                let _ = writeln!(s, "{pad}if {} (bb{block}) {{", cond_name(*cond));
                write_nodes(s, then, depth + 1);
                let _ = writeln!(s, "{pad}}} else {{");
                write_nodes(s, otherwise, depth + 1);
                let _ = writeln!(s, "{pad}}}");
            }
            Node::Loop { header, body } => {
                let _ = writeln!(s, "{pad}loop bb{header} {{");
                write_nodes(s, body, depth + 1);
                let _ = writeln!(s, "{pad}}}");
            }
            Node::Block { follow, body } => {
                let _ = writeln!(s, "{pad}block {{  ; break bb{follow} leaves it");
                write_nodes(s, body, depth + 1);
                let _ = writeln!(s, "{pad}}}");
            }
            Node::Break(b) => _ = writeln!(s, "{pad}break bb{b}"),
            Node::Continue(b) => _ = writeln!(s, "{pad}continue bb{b}"),
            Node::Call { callee, .. } => _ = writeln!(s, "{pad}call function {callee}"),
            Node::Return => _ = writeln!(s, "{pad}return"),
            Node::End => _ = writeln!(s, "{pad}end"),
            Node::Dispatch { entry, blocks } => {
                let list: Vec<String> = blocks.iter().map(|b| format!("bb{b}")).collect();
                let _ = writeln!(s, "{pad}dispatch from bb{entry} over {}  ; irreducible: a state machine", list.join(" "));
            }
        }
    }
}

/// The graph in Graphviz's dot language: a node per block with its instructions.
pub fn dot(cfg: &Cfg, prog: &Program, base: u64, name: &str) -> String {
    let esc = |t: &str| t.replace('\\', "\\\\").replace('"', "\\\"");
    let mut s = format!("digraph \"{}\" {{\n  node [shape=box fontname=monospace];\n", esc(name));
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let mut label = format!("bb{b}  {:#x}\\l", base + prog.steps[blk.first].pc as u64);
        for i in blk.first..=blk.last {
            label.push_str(&esc(&text(prog, i)));
            label.push_str("\\l");
        }
        let _ = writeln!(s, "  bb{b} [label=\"{label}\"];");
        match blk.exit {
            Exit::Goto(t) => _ = writeln!(s, "  bb{b} -> bb{t};"),
            Exit::Branch { cond, taken, next } => {
                let _ = writeln!(s, "  bb{b} -> bb{taken} [label=\"{}\"];", cond_name(cond));
                let _ = writeln!(s, "  bb{b} -> bb{next} [style=dashed];");
            }
            Exit::Call { callee, ret } => {
                let _ = writeln!(s, "  bb{b} -> bb{callee} [label=call style=dotted];");
                let _ = writeln!(s, "  bb{b} -> bb{ret};");
            }
            Exit::Return | Exit::End => {}
        }
    }
    s.push_str("}\n");
    s
}
