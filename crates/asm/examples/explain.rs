//! Development aid: the learned model of the opcode a text names, and what solving it gives.
//! `cargo run --release -p rdna-asm --example explain -- gfx1030 'v_add_f32_e32 v1, v2, v3'`
use rdna_asm::model::{render, Model, Render};
use rdna_disasm::Decoder;
use rdna_isa::{Format, Target};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = Target::from_name(&args[1]).unwrap();
    let text = &args[2];
    let dec = Decoder::new(target);
    let stmt = rdna_asm::syntax::split(&rdna_asm::syntax::strip_block_comments(text), 0).unwrap();
    let mut buf = String::new();
    for f in Format::ALL {
        for e in target.isa.tables().get(f).entries.iter().filter(|e| e.name == stmt.mnemonic || (f == Format::Vopd && stmt.mnemonic.starts_with("v_dual"))) {
            println!("== {f:?} op {}", e.op);
            let Some(m) = Model::learn(&dec, target.isa, f, e) else {
                println!("  no valid encoding found");
                continue;
            };
            println!("  base {:08x?} nwords {} text {}", &m.base[..m.nwords], m.nwords, m.base_stmt.render());
            for g in &m.groups {
                println!("  {:?} bits {:?} slots {:?}", g.kind, g.bits, g.slots);
            }
            let sol = m.solve(&dec, &stmt, &m.base, &mut buf);
            if let Render::Text(s, _) = render(&dec, f, e, &sol.words, &mut buf) {
                println!("  solved {:08x?} -> {} (missing {:?})", &sol.words, s.render(), sol.missing);
            }
            let mut sol = sol;
            for round in 2..5 {
                let again = m.relearn(&dec, &sol.words, &mut buf);
                for g in again.groups.iter().skip(m.groups.len()) {
                    println!("  new group {:?} bits {:?} slots {:?}", g.kind, g.bits, g.slots);
                }
                sol = again.solve(&dec, &stmt, &sol.words, &mut buf);
                if let Render::Text(s, _) = render(&dec, f, e, &sol.words, &mut buf) {
                    println!("  round {round} {:08x?} -> {} (missing {:?})", &sol.words, s.render(), sol.missing);
                }
            }
        }
    }
}
