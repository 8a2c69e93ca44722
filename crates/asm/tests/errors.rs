//! Text that is not valid assembly: each gives an error naming the line, the column, the token
//! and what was expected; no text makes the assembler panic.

use rdna_asm::Assembler;
use rdna_isa::Target;

fn error(source: &str) -> String {
    let mut asm = Assembler::new(Target::from_name("gfx1030").unwrap());
    match asm.assemble(source) {
        Ok(o) => panic!("{source:?} assembled to {:02x?}", o.bytes),
        Err(e) => e.to_string(),
    }
}

#[test]
fn invalid_text_gets_a_clear_error() {
    let table: &[(&str, &str)] = &[
        ("v_bogus v1", "1:1: unknown instruction 'v_bogus' for gfx1030"),
        ("v_add_f32_e32 v1, v2, v300", "1:23: invalid 'v300': operand 3 of v_add_f32_e32 takes a VGPR"),
        ("v_add_f32 v1, v2", "1:17: missing operand 3 of v_add_f32_e32"),
        ("s_nop 0\ns_load_dword s0, s[0:1], 0x10 bogus", "2:31: invalid 'bogus': not a modifier s_load_dword takes here"),
        ("v_add_f32_e32 v1, v2, v3 v4", "1:26: invalid 'v4'"),
        ("s_branch nowhere", "1:1: unknown label"),
        (".foo 1", "1:1: unsupported directive '.foo'"),
        ("x:\nx:", "2:1: label 'x' defined twice"),
        (".long xyz", "1:7: expected a number, found 'xyz'"),
        ("buffer_load_dword v1, off, s[4:7], s1 offset:99999", "invalid 'offset:99999'"),
        ("s_mov_b32 s0, s1, s2", "invalid 's2'"),
    ];
    for (source, want) in table {
        let got = error(source);
        assert!(got.contains(want), "{source:?}:\n  got  {got}\n  want {want}");
    }
}

#[test]
fn no_text_makes_it_panic() {
    // Pieces of real syntax and noise, shuffled: every outcome is a result, never a panic.
    let pieces = [
        "v_add_f32", "v1", "s[0:1]", ",", " ", "[", "]", "(", ")", "|", "-", "::", "offset:", "0x", "99999999999999999999",
        "hwreg(", "vmcnt(", ":", "\u{0}", "é", "1.5e400", "s_waitcnt", "buffer_load_dword", "dpp8:[", ".long", "label:", "\n",
        "v_dual_add_f32", "/*", "*/", ";", "a[0:3]", "ttmp[4:7]", "exec", "neg(", "sext(", "v[255:256]",
    ];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut asm = Assembler::new(Target::from_name("gfx1100").unwrap());
    for _ in 0..3000 {
        let mut s = String::new();
        for _ in 0..(x % 12) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push_str(pieces[(x % pieces.len() as u64) as usize]);
        }
        x = x.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
        let _ = asm.assemble(&s);
    }
}
