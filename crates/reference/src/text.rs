//! A page as terminal text.

use std::fmt::Write;

use crate::Page;

/// The page as plain text, laid out like a reference page: header, description, each encoding's
/// layout and operands, behaviour, example, targets and how other generations differ.
pub fn render_text(p: &Page) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}  [{}]  {} ({})", p.name, p.category, p.arch, p.generation);
    let _ = writeln!(s, "{}", p.description);
    for e in &p.encodings {
        let _ = writeln!(s, "\nEncoding {} ({}): {} bits, opcode {} ({:#x}), identifier {}", e.format, e.mnemonic, e.width, e.opcode, e.opcode, e.identifier);
        for seg in &e.layout {
            let bits = if seg.hi == seg.lo { format!("{}", seg.hi) } else { format!("{}:{}", seg.hi, seg.lo) };
            let value = seg.bits.as_deref().map(|b| format!(" = {b}")).unwrap_or_default();
            let _ = writeln!(s, "  {bits:>7}  {}{value}", seg.name);
        }
        if !e.operands.is_empty() {
            let _ = writeln!(s, "  operands:");
            for o in &e.operands {
                let _ = writeln!(s, "    {:<8} {:<8} {}, {}-bit field, {}", o.field, o.access, o.class, o.field_bits, o.data);
            }
        }
        if let Some(x) = &e.example {
            let _ = writeln!(s, "  example: {:<40}; encoding: {}", x.text, x.encoding);
        }
        if let Some(n) = &e.example_note {
            let _ = writeln!(s, "  no example: {n}");
        }
    }
    let _ = writeln!(s, "\nBehaviour ({}):\n  {}", if p.behaviour.source == "emulator" { "from the emulator's semantics" } else { "not run by the emulator" }, p.behaviour.text);
    let _ = writeln!(s, "\nTargets: {}", p.targets.join(" "));
    let differ: Vec<String> = p
        .generations
        .iter()
        .filter(|g| !g.differs.is_empty())
        .map(|g| format!("{} {} ({}: {})", g.generation, g.arch, g.encodings.join(", "), g.differs.join(", ")))
        .collect();
    let same: Vec<String> = p.generations.iter().filter(|g| g.differs.is_empty()).map(|g| format!("{} {}", g.generation, g.arch)).collect();
    if !differ.is_empty() {
        let _ = writeln!(s, "Not the same in every generation: {}.", differ.join("; "));
    }
    if !same.is_empty() {
        let _ = writeln!(s, "The same in: {}.", same.join(", "));
    }
    s
}
