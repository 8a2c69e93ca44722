//! Development check: random valid encodings are printed, assembled and printed again; counts
//! the texts that do not come back. `cargo run --release -p rdna-asm --example selfcheck -- gfx1030 20000`
use rdna_disasm::aim::{aimed_for, Fill};
use rdna_disasm::{Decoder, PrintOptions};
use rdna_isa::{Format, Target};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = Target::from_name(&args[1]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let show: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let dec = Decoder::new(target);
    let mut asm = rdna_asm::Assembler::new(target);
    let mut x: u64 = 0x1234_5678_9abc_def1 ^ n as u64;
    let mut rnd = || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    };
    let formats: Vec<Format> = Format::ALL.into_iter().filter(|f| !target.isa.tables().get(*f).entries.is_empty()).collect();
    let (mut total, mut bad, mut shown) = (0, 0, 0);
    let t0 = std::time::Instant::now();
    while total < n {
        let f = formats[rnd() as usize % formats.len()];
        let es = target.isa.tables().get(f).entries;
        let e = &es[rnd() as usize % es.len()];
        let mut fill = Fill::default();
        for w in fill.words.iter_mut() {
            *w = rnd();
        }
        fill.choices = rnd();
        let w = aimed_for(target.isa, f, e.op as u32, fill);
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let Ok((inst, len)) = dec.decode(&bytes) else { continue };
        let text = rdna_disasm::to_text(&inst, PrintOptions::default());
        if text.contains("<unprintable>") {
            continue;
        }
        total += 1;
        match asm.assemble_stmt(&text, 1) {
            Ok(b) => {
                let back = dec.decode(&b).map(|(i, _)| rdna_disasm::to_text(&i, PrintOptions::default()));
                if back.as_deref() != Ok(text.as_str()) {
                    bad += 1;
                    if shown < show {
                        shown += 1;
                        println!("MISMATCH {text}\n   -> {back:?}");
                    }
                }
                let _ = len;
            }
            Err(e) => {
                bad += 1;
                if shown < show {
                    shown += 1;
                    println!("FAIL {:?} {text}\n   {e}", f);
                }
            }
        }
    }
    println!("{}: {}/{} assembled back ({:.3}%), {:.1}s", target.name, total - bad, total, 100.0 * (total - bad) as f64 / total as f64, t0.elapsed().as_secs_f64());
}
