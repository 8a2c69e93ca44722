//! The VALU fast path must equal the general path on every operation it covers: each case runs
//! twice on the same random registers, once with the fast path and once without.

mod common;

use common::asm_for;
use rdna_emu::snippet::Snippet;

fn asm(text: &str) -> Vec<u8> {
    asm_for("gfx1030", text, false)
}

#[test]
fn fast_path_equals_general_path() {
    let ops2 = [
        "v_add_nc_u32_e32", "v_sub_nc_u32_e32", "v_subrev_nc_u32_e32", "v_and_b32_e32", "v_or_b32_e32", "v_xor_b32_e32",
        "v_lshlrev_b32_e32", "v_lshrrev_b32_e32", "v_ashrrev_i32_e32", "v_min_u32_e32", "v_max_u32_e32", "v_min_i32_e32",
        "v_max_i32_e32", "v_mul_u32_u24_e32", "v_add_f32_e32", "v_sub_f32_e32", "v_subrev_f32_e32", "v_mul_f32_e32",
        "v_fmac_f32_e32", "v_mul_lo_u32", "v_mul_hi_u32", "v_bcnt_u32_b32",
    ];
    let ops1 = ["v_mov_b32_e32", "v_not_b32_e32", "v_cvt_f32_u32_e32", "v_cvt_f32_i32_e32", "v_cvt_f32_ubyte0_e32", "v_cvt_f32_ubyte3_e32"];
    let ops3 = ["v_mad_u32_u24", "v_lshl_or_b32", "v_and_or_b32", "v_or3_b32", "v_xor3_b32", "v_add3_u32", "v_lshl_add_u32", "v_add_lshl_u32", "v_xad_u32", "v_bfe_u32", "v_bfi_b32", "v_fma_f32"];
    let mut text = String::new();
    for (i, op) in ops2.iter().enumerate() {
        text.push_str(&format!("{op} v{}, v1, v2\n", 10 + i));
    }
    for (i, op) in ops1.iter().enumerate() {
        text.push_str(&format!("{op} v{}, v1\n", 40 + i));
    }
    for (i, op) in ops3.iter().enumerate() {
        text.push_str(&format!("{op} v{}, v1, v2, v3\n", 50 + i));
    }
    text.push_str("v_add_nc_u32_e32 v70, 5, v2\nv_mul_f32_e32 v71, s4, v2\nv_xor_b32_e32 v72, 0x12345678, v2\n");
    // Compares, carries and selects: their masks land in SGPRs/VCC, their values in v73.. .
    text.push_str(
        "v_cmp_lt_u32_e32 vcc_lo, v1, v2\nv_cndmask_b32_e32 v73, v1, v2, vcc_lo\n\
         v_cmp_gt_i32_e64 s10, v1, v3\nv_cndmask_b32_e64 v74, v2, v3, s10\n\
         v_cmp_nlt_f32_e64 s11, v1, v2\nv_cmp_eq_u32_e32 vcc_lo, 7, v3\n\
         v_add_co_u32 v75, s12, v1, v2\nv_add_co_ci_u32_e64 v76, s13, v2, v3, s12\n\
         v_sub_co_u32 v77, vcc_lo, v1, v3\nv_subrev_co_ci_u32_e32 v78, vcc_lo, v2, v1, vcc_lo\n\
         v_add_co_ci_u32_e32 v79, vcc_lo, 0, v2, vcc_lo\n\
         v_mad_u64_u32 v[80:81], s14, v1, v2, v[2:3]\nv_mad_i64_i32 v[82:83], s15, v1, v3, v[1:2]\n\
         v_mad_u64_u32 v[84:85], null, v2, s4, 0x3c6ef35f\nv_mad_i64_i32 v[86:87], s16, v3, -1, s[4:5]\n",
    );
    let code = asm(&text);
    // Every instruction here must take the fast path when it is on, or the test compares nothing.
    let dec = rdna_disasm::Decoder::new(rdna_isa::Target::from_name("gfx1030").unwrap());
    let prog = rdna_emu::program::Program::decode(&dec, &code, 0);
    let slow: Vec<String> = prog.steps.iter().filter(|s| !s.fast).map(|s| s.text()).collect();
    assert!(slow.is_empty(), "not on the fast path: {slow:?}");
    let mut x = 0x9e37_79b9u64;
    for wave64 in [false, true] {
        for round in 0..20 {
            let mut runs = Vec::new();
            for fast in [true, false] {
                let mut s = Snippet::new(wave64);
                s.fast = fast;
                for r in 1..4 {
                    s.set_v(r, |l| {
                        let mut y = x ^ ((r * 64 + l) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        y ^= y << 13;
                        y ^= y >> 7;
                        y ^= y << 17;
                        let v = y as u32;
                        // Mix in small, special and float-looking values.
                        match (l + round) % 5 {
                            0 => v & 0xff,
                            1 => (v as f32 / 3.0).to_bits(),
                            2 => v | 0x8000_0000,
                            _ => v,
                        }
                    });
                }
                s.wave.s[4] = 0x4040_0000;
                s.wave.s[5] = 0x8765_4321;
                s.wave.set_exec(if round % 2 == 0 { s.wave.lane_mask } else { 0x5555_5555_5555_5555 & s.wave.lane_mask });
                s.run(&code).unwrap();
                runs.push((s.wave.v.clone(), s.wave.s));
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            for r in 10..88 {
                let (a, b) = (&runs[0].0[r * 64..r * 64 + 64], &runs[1].0[r * 64..r * 64 + 64]);
                assert_eq!(a, b, "v{r} differs between the fast and general paths (wave64 {wave64}, round {round})");
            }
            assert_eq!(runs[0].1, runs[1].1, "SGPRs (masks, carries, EXEC) differ (wave64 {wave64}, round {round})");
        }
    }
}
