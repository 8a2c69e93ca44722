//! The IR's verifier, passes and text form on hand-built bodies.

use rdna_ir::{dce, fold, optimize, run, verify, Body, Builder, Inst, Op, Reg, Type, Value};

fn inst(op: Op, ty: Type, args: &[u32], imm: u64) -> Inst {
    let mut a = [Value(0); 3];
    for (i, &v) in args.iter().enumerate() {
        a[i] = Value(v);
    }
    Inst { op, ty, args: a, imm }
}

#[test]
fn builder_constructs_ssa_over_registers() {
    let mut b = Builder::new();
    let x = b.read(Reg::Sgpr(1));
    let one = b.c32(1);
    let y = b.op(Op::IAdd, &[x, one]);
    b.write(Reg::Sgpr(1), y);
    // A read after the write is the written value, not a second read.
    assert_eq!(b.read(Reg::Sgpr(1)), y);
    let z = b.op(Op::IAdd, &[y, one]);
    b.write(Reg::Sgpr(1), z);
    let body = b.finish();
    verify(&body).unwrap();
    assert_eq!(body.insts.iter().filter(|i| i.op == Op::ReadReg).count(), 1);
    assert_eq!(body.insts.iter().filter(|i| i.op == Op::WriteReg).count(), 1);
    assert_eq!(run(&body, |_| 41, 0), vec![(Reg::Sgpr(1), 43)]);
    assert_eq!(body.to_string(), "%0 = read.i32 s1\n%1 = const.i32 0x1\n%2 = iadd.i32 %0, %1\n%3 = iadd.i32 %2, %1\nwrite s1, %3\n");
}

#[test]
fn verifier_rejects_broken_bodies() {
    let cases: Vec<(Body, &str)> = vec![
        (Body { insts: vec![inst(Op::IAdd, Type::I32, &[0, 0], 0)], per_lane: false }, "not defined before"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::Const, Type::I64, &[], 1), inst(Op::IAdd, Type::I32, &[0, 1], 0)], per_lane: false }, "break the rule"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::Eq, Type::I32, &[0, 0], 0)], per_lane: false }, "break the rule"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1 << 40)], per_lane: false }, "break the rule"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::WriteReg, Type::I32, &[0], 3), inst(Op::WriteReg, Type::I32, &[0], 3)], per_lane: false }, "written twice"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::WriteReg, Type::I32, &[0], 3), inst(Op::ReadReg, Type::I32, &[], 3)], per_lane: false }, "after its write"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::WriteReg, Type::I32, &[0], 128)], per_lane: false }, "break the rule"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::WriteReg, Type::I32, &[0], 500)], per_lane: false }, "no register"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::WriteReg, Type::I32, &[0], 3), inst(Op::Not, Type::I32, &[0], 0)], per_lane: false }, "after the region's writes"),
        (Body { insts: vec![inst(Op::Const, Type::I32, &[], 1), inst(Op::WriteReg, Type::I32, &[0], 3), inst(Op::WriteReg, Type::I32, &[1], 4)], per_lane: false }, "has no result"),
        (Body { insts: vec![inst(Op::Const, Type::I64, &[], 1), inst(Op::ZExt, Type::I64, &[0], 0)], per_lane: false }, "break the rule"),
    ];
    for (body, want) in cases {
        let e = verify(&body).expect_err(&body.to_string());
        assert!(e.to_string().contains(want), "{e} (wanted {want:?})\n{body}");
    }
}

#[test]
fn fold_and_dce_shrink_to_the_computed_constants() {
    // s2 = (5 << 33 mod 32) + s0*0 dead parts; scc = s2 != 0 from constants only.
    let mut b = Builder::new();
    let five = b.c32(5);
    let sh = b.c32(33);
    let x = b.op(Op::Shl, &[five, sh]);
    let unused = b.read(Reg::Sgpr(0));
    let _dead = b.op(Op::Not, &[unused]);
    let z = b.c32(0);
    let nz = b.op(Op::Ne, &[x, z]);
    let y = b.read(Reg::Sgpr(7));
    let pick = b.op(Op::Select, &[nz, x, y]);
    b.write(Reg::Sgpr(2), pick);
    b.write(Reg::Scc, nz);
    // Writing a register its own value changes nothing.
    b.write(Reg::Sgpr(7), y);
    let body = b.finish();
    verify(&body).unwrap();
    let folded = fold(&body);
    verify(&folded).unwrap();
    let opt = dce(&folded);
    verify(&opt).unwrap();
    assert_eq!(opt.to_string(), "%0 = const.i32 0xa\n%1 = const.bool 0x1\nwrite s2, %0\nwrite scc, %1\n");
    assert_eq!(run(&opt, |_| 0, 0), run(&body, |_| 0, 0).into_iter().filter(|(r, _)| *r != Reg::Sgpr(7)).collect::<Vec<_>>());
}

#[test]
fn value_numbering_merges_repeated_computations() {
    let mut b = Builder::new();
    let x = b.read(Reg::Sgpr(0));
    let y = b.read(Reg::Sgpr(1));
    let p = b.op(Op::IMul, &[x, y]);
    let q = b.op(Op::IMul, &[x, y]);
    let r = b.op(Op::Xor, &[p, q]);
    b.write(Reg::Sgpr(2), r);
    let opt = optimize(&b.finish());
    verify(&opt).unwrap();
    assert_eq!(opt.insts.iter().filter(|i| i.op == Op::IMul).count(), 1);
    assert_eq!(run(&opt, |r| if r == Reg::Sgpr(0) { 6 } else { 7 }, 0), vec![(Reg::Sgpr(2), 0)]);
}

#[test]
fn every_operation_has_a_text_name_and_a_rule() {
    let mut names: Vec<&str> = Op::ALL.iter().map(|o| o.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), Op::ALL.len(), "operation names are distinct");
}

#[test]
fn eval_follows_amd_shift_and_count_conventions() {
    use rdna_ir::eval;
    assert_eq!(eval(Op::Shl, Type::I32, Type::I32, &[1, 33], 0), Some(2), "amount modulo 32");
    assert_eq!(eval(Op::AShr, Type::I64, Type::I64, &[1 << 63, 64 + 63], 0), Some(u64::MAX));
    assert_eq!(eval(Op::FindMsb, Type::I32, Type::I64, &[1 << 40], 0), Some(40));
    assert_eq!(eval(Op::FindLsb, Type::I32, Type::I32, &[0], 0), Some(u32::MAX as u64));
    assert_eq!(eval(Op::BitReverse, Type::I32, Type::I32, &[1], 0), Some(0x8000_0000));
    assert_eq!(eval(Op::SLt, Type::Bool, Type::I32, &[0xffff_ffff, 0], 0), Some(1));
    assert_eq!(eval(Op::ReadReg, Type::I32, Type::I32, &[], 0), None);
}

#[test]
fn uniformity_separates_wave_values_from_lane_values() {
    let mut b = Builder::per_lane();
    let s = b.read(Reg::Sgpr(4));
    let k = b.c32(3);
    let scaled = b.op(Op::Shl, &[s, k]);
    let v = b.read(Reg::Vgpr(1));
    let sum = b.op(Op::IAdd, &[v, scaled]);
    let lane = b.lane_id();
    let z = b.c32(0);
    let first = b.op(Op::Eq, &[lane, z]);
    b.write(Reg::Vgpr(2), sum);
    b.write_lane_bit(106, first);
    let body = b.finish();
    verify(&body).unwrap();
    let u = rdna_ir::uniform(&body);
    let by_op = |op: Op| body.insts.iter().enumerate().filter(|(_, i)| i.op == op).map(|(n, _)| u[n]).collect::<Vec<_>>();
    assert_eq!(by_op(Op::Shl), vec![true], "SGPR arithmetic is the wave's");
    assert_eq!(by_op(Op::IAdd), vec![false], "a VGPR makes it the lane's");
    assert_eq!(by_op(Op::Eq), vec![false], "so does the lane index");
    assert!(body.to_string().starts_with("per lane:\n"));
    assert!(body.to_string().contains("write_lane_bit s106, %"));
}

#[test]
fn lane_rules_are_checked() {
    // A wave region may not touch VGPRs or lanes; a lane region may not write wave state.
    let mut b = Builder::new();
    let v = b.read(Reg::Vgpr(0));
    b.write(Reg::Sgpr(0), v);
    assert!(verify(&b.finish()).unwrap_err().to_string().contains("in a wave region"));
    let mut b = Builder::per_lane();
    let v = b.read(Reg::Vgpr(0));
    b.write(Reg::Sgpr(0), v);
    assert!(verify(&b.finish()).unwrap_err().to_string().contains("a lane region writing s0"));
    // A mask read after the region set the lane's bit of it would miss the bit.
    let body = Body {
        insts: vec![inst(Op::Const, Type::Bool, &[], 1), inst(Op::WriteLaneBit, Type::Bool, &[0], 106), inst(Op::ReadReg, Type::I32, &[], 106)],
        per_lane: true,
    };
    assert!(verify(&body).is_err());
}

#[test]
fn identities_fold_away() {
    let mut b = Builder::new();
    let x = b.read(Reg::Sgpr(0));
    let z = b.c32(0);
    let ones = b.c32(u32::MAX);
    let one = b.c32(1);
    let a = b.op(Op::Or, &[z, x]);
    let a = b.op(Op::And, &[a, ones]);
    let a = b.op(Op::IMul, &[one, a]);
    let a = b.op(Op::Shl, &[a, z]);
    b.write(Reg::Sgpr(1), a);
    let f = false_is_identity(&mut b);
    b.write(Reg::Scc, f);
    let opt = optimize(&b.finish());
    verify(&opt).unwrap();
    // scc = false | scc writes SCC its own value: no write at all.
    assert_eq!(opt.to_string(), "%0 = read.i32 s0\nwrite s1, %0\n");
}

fn false_is_identity(b: &mut Builder) -> Value {
    let f = b.bool(false);
    let c = b.read(Reg::Scc);
    b.op(Op::Or, &[f, c])
}
