//! The reference as a static site: an index of generations, per generation an index by format with
//! a search box, and one page per instruction with its bit layout drawn in CSS.

use std::fmt::Write as _;
use std::path::Path;

use rdna_isa::Isa;

use crate::{all_pages, generation_of, EncodingPage, Page, Reference};

const STYLE: &str = r#"body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
a{color:#0550ae}code,pre{font-family:ui-monospace,monospace}pre{background:#f4f4f4;padding:.6em;white-space:pre-wrap}
.layout{display:flex;margin:.2em 0;font-size:.8em;border:1px solid #888}
.layout div{border-right:1px solid #888;text-align:center;padding:.3em 0;overflow:hidden;white-space:nowrap}
.layout div:last-child{border-right:none}
.layout .encoding{background:#e8e8e8}.layout .opcode{background:#ffe2a8}.layout .operand{background:#cfe8ff}
.layout .modifier{background:#d8f5d0}.layout .unassigned{background:#fff;color:#888}
.layout b{display:block}.layout small{color:#555}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
.hidden{display:none}#q{font-size:1.1em;width:30em;padding:.3em}
.cat{color:#666}"#;

const SEARCH_JS: &str = r#"function search(){var q=document.getElementById('q').value.toLowerCase().split(/[^a-z0-9]+/).filter(function(w){return w});
var n=0;document.querySelectorAll('li[data-text]').forEach(function(li){var t=li.getAttribute('data-text').split(/[^a-z0-9]+/);
var ok=q.every(function(w){return t.indexOf(w)>=0});li.classList.toggle('hidden',!ok);if(ok)n++;});
document.querySelectorAll('section').forEach(function(s){s.classList.toggle('hidden',!s.querySelector('li:not(.hidden)'))});
document.getElementById('count').textContent=n+' instructions';}
window.addEventListener('DOMContentLoaded',function(){var m=/[?&]q=([^&]*)/.exec(location.search);
if(m){document.getElementById('q').value=decodeURIComponent(m[1].replace(/\+/g,' '));search();}});"#;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A page's file name: instruction names are lowercase letters, digits and underscores.
pub fn file_name(name: &str) -> String {
    format!("{}.html", name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect::<String>())
}

fn head(title: &str, up: &str) -> String {
    format!("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><link rel=\"stylesheet\" href=\"{up}style.css\"></head><body>", esc(title))
}

/// The bit layout as rows of 32 bits, each field a box as wide as its bits.
fn layout_html(e: &EncodingPage) -> String {
    let mut s = String::new();
    for row in (0..e.width / 32).rev() {
        let (top, bottom) = (32 * row + 31, 32 * row);
        let _ = write!(s, "<div class=\"layout\" title=\"bits {top}:{bottom}\">");
        for seg in &e.layout {
            let hi = seg.hi.min(top);
            let lo = seg.lo.max(bottom);
            if hi < lo || seg.lo > top || seg.hi < bottom {
                continue;
            }
            let n = hi - lo + 1;
            let label = match &seg.bits {
                Some(b) => {
                    let k = (seg.hi - hi) as usize;
                    format!("{}<small> {}</small>", esc(&seg.name), &b[k..k + n as usize])
                }
                None => esc(&seg.name),
            };
            let range = if hi == lo { format!("{hi}") } else { format!("{hi}:{lo}") };
            let _ = write!(s, "<div class=\"{}\" style=\"flex:{n}\" title=\"{} {range}\"><b>{label}</b><small>{range}</small></div>", esc(&seg.kind), esc(&seg.name));
        }
        s.push_str("</div>");
    }
    s
}

/// One instruction page.
pub fn page_html(p: &Page, linked: &[Isa]) -> String {
    let mut s = head(&format!("{} ({} {})", p.name, p.generation, p.arch), "../");
    let _ = write!(
        s,
        "<p><a href=\"../index.html\">All generations</a> › <a href=\"index.html\">{} {}</a></p><h1>{}</h1><p class=\"cat\">{}</p><p id=\"description\">{}</p>",
        esc(&p.generation),
        esc(&p.arch),
        esc(&p.name),
        esc(&p.category),
        esc(&p.description)
    );
    for e in &p.encodings {
        let _ = write!(
            s,
            "<h2>Encoding {} <code>{}</code></h2><table class=\"facts\"><tr><th>Format</th><td>{}</td></tr><tr><th>Width</th><td>{} bits</td></tr><tr><th>Opcode</th><td>{} ({:#x})</td></tr><tr><th>Identifier</th><td><code>{}</code></td></tr></table>",
            esc(&e.format),
            esc(&e.mnemonic),
            esc(&e.format),
            e.width,
            e.opcode,
            e.opcode,
            esc(&e.identifier)
        );
        s.push_str(&layout_html(e));
        if !e.operands.is_empty() {
            s.push_str("<h3>Operands</h3><table class=\"operands\"><tr><th>Field</th><th>Access</th><th>Names</th><th>Field bits</th><th>Data</th></tr>");
            for o in &e.operands {
                let _ = write!(s, "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", esc(&o.field), esc(&o.access), esc(&o.class), o.field_bits, esc(&o.data));
            }
            s.push_str("</table>");
        }
        if let Some(x) = &e.example {
            let _ = write!(s, "<h3>Example</h3><pre class=\"example\">{}  ; encoding: {}</pre>", esc(&x.text), esc(&x.encoding));
        }
        if let Some(n) = &e.example_note {
            let _ = write!(s, "<p class=\"note\">No example: {}.</p>", esc(n));
        }
    }
    let _ = write!(
        s,
        "<h2>Behaviour</h2><pre id=\"behaviour\">{}</pre><p><small>{}</small></p>",
        esc(&p.behaviour.text),
        if p.behaviour.source == "emulator" { "Rendered from the emulator's semantics." } else { "Written by the project; the emulator does not run this instruction." }
    );
    let _ = write!(s, "<h2>Targets</h2><p id=\"targets\">{}</p>", esc(&p.targets.join(" ")));
    s.push_str("<h2>Other generations</h2><ul id=\"generations\">");
    for g in &p.generations {
        let other = Isa::ALL.into_iter().find(|i| i.name() == g.arch);
        let label = format!("{} {}", g.generation, g.arch);
        let link = match other {
            Some(i) if linked.contains(&i) => format!("<a href=\"../{}/{}\">{}</a>", esc(&g.arch), file_name(&p.name), esc(&label)),
            _ => esc(&label),
        };
        let how = if g.differs.is_empty() { "laid out the same".to_string() } else { format!("differs: {}", g.differs.join(", ")) };
        let _ = write!(s, "<li>{link}: {} — {}</li>", esc(&g.encodings.join(", ")), esc(&how));
    }
    s.push_str("</ul></body></html>\n");
    s
}

/// A generation's index: every instruction by format, with a search box.
fn index_html(isa: Isa, pages: &[Page]) -> String {
    let mut s = head(&format!("{} {} instructions", generation_of(isa), isa.name()), "../");
    let _ = write!(
        s,
        "<script src=\"../search.js\"></script><p><a href=\"../index.html\">All generations</a></p><h1>{} ({}): {} instructions</h1><input id=\"q\" type=\"search\" placeholder=\"Search names and descriptions (whole words)\" oninput=\"search()\" autofocus> <span id=\"count\">{} instructions</span>",
        esc(generation_of(isa)),
        isa.name(),
        pages.len(),
        pages.len()
    );
    let mut formats: Vec<&str> = pages.iter().map(|p| p.encodings[0].format.as_str()).collect();
    formats.sort_unstable();
    formats.dedup();
    for f in formats {
        let _ = write!(s, "<section><h2 id=\"{}\">{}</h2><ul>", esc(f), esc(f));
        for p in pages.iter().filter(|p| p.encodings[0].format == f) {
            let key = Reference::search_key(isa, &p.name).map(|(k, _)| k).unwrap_or_default();
            let _ = write!(s, "<li data-text=\"{}\"><a href=\"{}\">{}</a> — {}</li>", esc(&key), file_name(&p.name), esc(&p.name), esc(&p.description));
        }
        s.push_str("</ul></section>");
    }
    s.push_str("</body></html>\n");
    s
}

/// Writes the site for `isas` into `dir`; returns the number of instruction pages.
pub fn write_site(reference: &mut Reference, isas: &[Isa], dir: &Path) -> Result<usize, String> {
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::write(dir.join("style.css"), STYLE).map_err(io)?;
    std::fs::write(dir.join("search.js"), SEARCH_JS).map_err(io)?;
    let mut top = head("rdna ISA reference", "");
    top.push_str("<h1>rdna ISA reference</h1><p>Every instruction of every generation rdna decodes, from its own model: layouts learned from the decoder and printer, operands from tables swept from llvm-mc-19, behaviour from the emulator.</p><ul id=\"generations\">");
    let mut count = 0;
    reference.prepare(isas);
    for &isa in isas {
        let pages = all_pages(reference, isa);
        let sub = dir.join(isa.name());
        std::fs::create_dir_all(&sub).map_err(io)?;
        for p in &pages {
            std::fs::write(sub.join(file_name(&p.name)), page_html(p, isas)).map_err(io)?;
        }
        std::fs::write(sub.join("index.html"), index_html(isa, &pages)).map_err(io)?;
        reference.release(isa);
        let _ = write!(top, "<li><a href=\"{}/index.html\">{} {}</a> — {} instructions</li>", isa.name(), esc(generation_of(isa)), isa.name(), pages.len());
        count += pages.len();
    }
    top.push_str("</ul></body></html>\n");
    std::fs::write(dir.join("index.html"), top).map_err(io)?;
    Ok(count)
}
