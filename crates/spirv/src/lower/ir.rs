//! IR regions ([`rdna_ir::Body`]) to SPIR-V: one arm per IR operation, no wildcard, so an
//! operation added to `rdna_ir::ops` without a lowering here does not compile. Registers enter
//! and leave through the wave's register variables (`rd_s`/`wr_s`, SCC) and, in lane regions
//! (emitted inside a run's loop over the lanes EXEC enables), the lane's VGPRs; a lane's bit of
//! a mask goes where a compare's or carry-out's would (`mask_end`).

use rdna_emu::sem::VOp;
use rdna_ir::{Body, Builder, Op as IrOp, Reg, Type};
use rspirv::spirv::{GLOp, Op, Word};

use super::Gen;

impl Gen {
    fn ir_type(&self, t: Type) -> Word {
        match t {
            Type::Bool => self.t.bool,
            Type::I32 => self.t.u32,
            Type::I64 => self.t.u64,
        }
    }

    /// Emits a verified region. A lane region inside a run of lane-local steps is emitted for
    /// the run's lane; one outside a run gets a loop of its own, with its wave-uniform values
    /// ([`rdna_ir::uniform`]) computed once before it, so every lane sees the wave's registers as
    /// they were when the instruction began.
    pub(super) fn emit_ir(&mut self, body: &Body) -> Result<(), String> {
        let mut ids: Vec<Word> = vec![0; body.insts.len()];
        if !body.per_lane || self.fused.is_some() {
            let lane = if body.per_lane { self.fused } else { None };
            return self.emit_insts(body, &mut ids, &|_| true, lane, &[]);
        }
        let uniform = rdna_ir::uniform(body);
        self.emit_insts(body, &mut ids, &|n| uniform[n], None, &[])?;
        let lp = self.open_run();
        let emitted = self.emit_insts(body, &mut ids, &|n| !uniform[n], self.fused, &[]);
        self.close_run(lp);
        emitted
    }

    /// The constant `v` adds to the argument segment's address, where `v` is computed from the
    /// SGPR pair that holds it here ([`Gen::args`]) by adding constants and clearing the two low
    /// bits, as the lifted `s_load` of an argument computes its address. (Clearing low bits
    /// commutes with adding the segment's address, which the runtime aligns to 256 bytes.)
    fn args_offset(&self, body: &Body, v: rdna_ir::Value) -> Option<u64> {
        let (sgpr, _) = self.args.filter(|_| self.args_intact)?;
        let i = body.inst(v);
        let reads = |v: rdna_ir::Value, r: u16| {
            let i = body.inst(v);
            i.op == IrOp::ReadReg && Reg::from_index(i.imm) == Some(Reg::Sgpr(r as u8))
        };
        match i.op {
            IrOp::IAdd => {
                let [x, y] = [i.args[0], i.args[1]];
                match (body.constant(x), body.constant(y)) {
                    (_, Some(c)) => Some(self.args_offset(body, x)?.wrapping_add(c)),
                    (Some(c), _) => Some(self.args_offset(body, y)?.wrapping_add(c)),
                    _ => None,
                }
            }
            IrOp::And => {
                let m = body.constant(i.args[1])?;
                (m | 3 == u64::MAX).then_some(())?;
                Some(self.args_offset(body, i.args[0])? & m)
            }
            IrOp::Concat => (reads(i.args[0], sgpr) && reads(i.args[1], sgpr + 1)).then_some(0),
            _ => None,
        }
    }

    /// A lifted vector operation ([`rdna_frontend::lift::vector_op`], the operation's one
    /// definition) for `lane`, on sources computed here (DPP, SDWA and modifier forms): its
    /// result; a carry-out sets the lane's bit of the MASK variable.
    pub(super) fn vector_op_ir(&mut self, op: VOp, srcs: [Word; 3], mask_in: Option<Word>, lane: Word) -> Result<Word, String> {
        let wide = rdna_frontend::lift::wide_sources(op);
        let mut inputs: Vec<(Word, Type)> = (0..3).map(|k| (srcs[k], if wide[k] { Type::I64 } else { Type::I32 })).collect();
        if let Some(m) = mask_in {
            inputs.push((self.mask_bit(m, lane), Type::Bool));
        }
        let out = self.ir_function(lane, &inputs, &mut |b, args| {
            let (r, carry) = rdna_frontend::lift::vector_op(b, op, &args[..3], args.get(3).copied())?;
            Ok([r].into_iter().chain(carry).collect())
        })?;
        if let Some(&c) = out.get(1) {
            self.mask_set(lane, c);
        }
        Ok(out[0])
    }

    /// Emits, for `lane`, a computation `build` writes in the IR on arguments standing for
    /// `inputs` (ids computed here, with their IR types); returns the ids of the values it
    /// returns. How code outside the IR uses an IR definition.
    pub(super) fn ir_function(&mut self, lane: Word, inputs: &[(Word, Type)], build: &mut dyn FnMut(&mut Builder, &[rdna_ir::Value]) -> Result<Vec<rdna_ir::Value>, String>) -> Result<Vec<Word>, String> {
        let mut b = Builder::per_lane();
        let args: Vec<_> = inputs.iter().enumerate().map(|(k, &(_, t))| b.arg(k as u64, t)).collect();
        let results = build(&mut b, &args)?;
        let body = b.peek();
        rdna_ir::verify(body).map_err(|e| format!("internal: {e}"))?;
        let words: Vec<Word> = inputs.iter().map(|&(w, _)| w).collect();
        let mut ids: Vec<Word> = vec![0; body.insts.len()];
        self.emit_insts(body, &mut ids, &|_| true, Some(lane), &words)?;
        Ok(results.iter().map(|v| ids[v.0 as usize]).collect())
    }

    /// Emits the instructions `pick` selects, in order (`ids` holds the values emitted so far),
    /// for `lane` where the region is a lane region; `inputs` are the region's arguments.
    fn emit_insts(&mut self, body: &Body, ids: &mut [Word], pick: &dyn Fn(usize) -> bool, lane: Option<Word>, inputs: &[Word]) -> Result<(), String> {
        let the_lane = || lane.ok_or_else(|| "internal: a lane operation outside a loop over the lanes".to_string());
        for (n, i) in body.insts.iter().enumerate() {
            if !pick(n) {
                continue;
            }
            let ty = self.ir_type(i.ty);
            let a: Vec<Word> = i.args().iter().map(|v| ids[v.0 as usize]).collect();
            let arg_ty = i.args().first().map_or(i.ty, |&v| body.ty(v));
            let wide = arg_ty == Type::I64;
            let id = match i.op {
                IrOp::Const => match i.ty {
                    Type::Bool if i.imm != 0 => self.b.constant_true(ty),
                    Type::Bool => self.b.constant_false(ty),
                    Type::I32 => self.c32(i.imm as u32),
                    Type::I64 => self.c64(i.imm),
                },
                IrOp::ReadReg => match Reg::from_index(i.imm) {
                    Some(Reg::Sgpr(r)) => self.rd_s(r as u16),
                    Some(Reg::Vgpr(r)) => self.rd_v(r as u16, the_lane()?)?,
                    _ => self.rd_scc(),
                },
                IrOp::WriteReg => {
                    match Reg::from_index(i.imm) {
                        Some(Reg::Sgpr(r)) => self.wr_s(r as u16, a[0]),
                        Some(Reg::Vgpr(r)) => self.wr_v(r as u16, the_lane()?, a[0])?,
                        _ => self.wr_scc(a[0]),
                    }
                    0
                }
                IrOp::WriteLaneBit => {
                    let l = the_lane()?;
                    self.mask_begin();
                    self.mask_set(l, a[0]);
                    self.mask_end(i.imm as u16);
                    0
                }
                IrOp::LaneId => the_lane()?,
                IrOp::Load32 if lane.is_some() => self.load_global(a[0]),
                IrOp::Load32 => match self.args_offset(body, i.args[0]) {
                    Some(offset) => self.load_argument(offset),
                    None => self.load_scalar(a[0]),
                },
                IrOp::LdsCheck | IrOp::LdsLoad | IrOp::LdsStore if self.lds_bytes == 0 => return Err("a DS instruction in a kernel without LDS".into()),
                IrOp::LdsCheck => {
                    self.lds_check(a[0], i.imm as u32);
                    0
                }
                IrOp::LdsLoad => self.lds_read32(a[0]),
                IrOp::LdsStore => {
                    self.lds_write(a[0], a[1], i.imm as u32);
                    0
                }
                IrOp::Store32 if lane.is_some() => {
                    self.store_global(a[0], a[1]);
                    0
                }
                IrOp::Store32 => {
                    self.store_scalar(a[0], a[1]);
                    0
                }
                IrOp::ReadLane => self.rd_v(i.imm as u16, a[0])?,
                IrOp::WriteLane => {
                    self.wr_v(i.imm as u16, a[0], a[1])?;
                    0
                }
                IrOp::SafeAddress => self.slot,
                IrOp::Arg => *inputs.get(i.imm as usize).ok_or("internal: a region argument not supplied")?,
                IrOp::CodeAddress => {
                    let at = self.c64(self.text_in_image + i.imm);
                    self.op(Op::IAdd, ty, &[self.image, at])
                }
                IrOp::IAdd => self.op(Op::IAdd, ty, &a),
                IrOp::ISub => self.op(Op::ISub, ty, &a),
                IrOp::IMul => self.op(Op::IMul, ty, &a),
                IrOp::And => self.op(if i.ty == Type::Bool { Op::LogicalAnd } else { Op::BitwiseAnd }, ty, &a),
                IrOp::Or => self.op(if i.ty == Type::Bool { Op::LogicalOr } else { Op::BitwiseOr }, ty, &a),
                IrOp::Xor => self.op(if i.ty == Type::Bool { Op::LogicalNotEqual } else { Op::BitwiseXor }, ty, &a),
                IrOp::UMin => self.gl(GLOp::UMin, ty, &a),
                IrOp::Shl | IrOp::LShr | IrOp::AShr => {
                    // SPIR-V leaves amounts of the width or more undefined; the IR takes them
                    // modulo the width.
                    let bits = i.ty.bits() as u64;
                    let amount = match body.constant(i.args[1]) {
                        Some(k) if wide => self.c64(k % bits),
                        Some(k) => self.c32((k % bits) as u32),
                        None => {
                            let m = if wide { self.c64(bits - 1) } else { self.c32(bits as u32 - 1) };
                            self.op(Op::BitwiseAnd, ty, &[a[1], m])
                        }
                    };
                    let code = match i.op {
                        IrOp::Shl => Op::ShiftLeftLogical,
                        IrOp::LShr => Op::ShiftRightLogical,
                        _ => Op::ShiftRightArithmetic,
                    };
                    self.op(code, ty, &[a[0], amount])
                }
                IrOp::Not => self.op(Op::Not, ty, &a),
                // Vulkan's bit instructions take 32-bit operands: 64-bit ones go by halves.
                IrOp::BitReverse if wide => {
                    let (lo, hi) = self.split64(a[0]);
                    let u = self.t.u32;
                    let (lo, hi) = (self.op(Op::BitReverse, u, &[lo]), self.op(Op::BitReverse, u, &[hi]));
                    self.join64(hi, lo)
                }
                IrOp::BitReverse => self.op(Op::BitReverse, ty, &a),
                IrOp::BitCount if wide => {
                    let (lo, hi) = self.split64(a[0]);
                    let u = self.t.u32;
                    let (x, y) = (self.op(Op::BitCount, u, &[lo]), self.op(Op::BitCount, u, &[hi]));
                    self.op(Op::IAdd, u, &[x, y])
                }
                IrOp::BitCount => self.op(Op::BitCount, ty, &a),
                IrOp::FindLsb => self.first_bit(a[0], wide),
                IrOp::FindMsb => self.find_msb(a[0], wide),
                IrOp::Eq => self.op(Op::IEqual, ty, &a),
                IrOp::Ne => self.op(Op::INotEqual, ty, &a),
                IrOp::ULt => self.op(Op::ULessThan, ty, &a),
                IrOp::ULe => self.op(Op::ULessThanEqual, ty, &a),
                IrOp::UGt => self.op(Op::UGreaterThan, ty, &a),
                IrOp::UGe => self.op(Op::UGreaterThanEqual, ty, &a),
                IrOp::SLt => self.op(Op::SLessThan, ty, &a),
                IrOp::SLe => self.op(Op::SLessThanEqual, ty, &a),
                IrOp::SGt => self.op(Op::SGreaterThan, ty, &a),
                IrOp::SGe => self.op(Op::SGreaterThanEqual, ty, &a),
                IrOp::FAdd | IrOp::FSub | IrOp::FMul => {
                    let code = match i.op {
                        IrOp::FAdd => Op::FAdd,
                        IrOp::FSub => Op::FSub,
                        _ => Op::FMul,
                    };
                    if wide {
                        let (x, y) = (self.as_f64(a[0]), self.as_f64(a[1]));
                        let ft = self.f64t();
                        let r = self.op(code, ft, &[x, y]);
                        self.from_f64(r)
                    } else {
                        let (x, y) = (self.as_f32(a[0]), self.as_f32(a[1]));
                        let r = self.op(code, self.t.f32, &[x, y]);
                        self.from_f32(r)
                    }
                }
                IrOp::Fma if wide => {
                    let (x, y, z) = (self.as_f64(a[0]), self.as_f64(a[1]), self.as_f64(a[2]));
                    let r = self.fma64(x, y, z);
                    self.from_f64(r)
                }
                IrOp::Fma => {
                    let (x, y, z) = (self.as_f32(a[0]), self.as_f32(a[1]), self.as_f32(a[2]));
                    self.fma32(x, y, z)
                }
                IrOp::FMin | IrOp::FMax => self.fminmax(wide, a[0], a[1], i.op == IrOp::FMax),
                IrOp::FClamp01 if wide => {
                    let x = self.as_f64(a[0]);
                    let r = self.clamp01(x, true);
                    self.from_f64(r)
                }
                IrOp::FClamp01 => {
                    let x = self.as_f32(a[0]);
                    let r = self.clamp01(x, false);
                    self.from_f32(r)
                }
                IrOp::FToS | IrOp::FToU => {
                    let x = if wide { self.as_f64(a[0]) } else { self.as_f32(a[0]) };
                    self.f_to_int_sat(x, wide, i.op == IrOp::FToS)
                }
                IrOp::FTrunc | IrOp::FFloor | IrOp::FCeil | IrOp::FRndne | IrOp::FSqrt | IrOp::FRcp | IrOp::FFract | IrOp::FLdexp | IrOp::FMulLegacy | IrOp::FMed3 => {
                    self.float32_op(i.op, &a)
                }
                IrOp::HalfToF32 => {
                    let x = self.f16_to_f32(a[0]);
                    self.from_f32(x)
                }
                IrOp::F32ToHalf => {
                    let x = self.as_f32(a[0]);
                    self.f32_to_f16(x)
                }
                IrOp::SToF | IrOp::UToF => {
                    let r = self.op(if i.op == IrOp::SToF { Op::ConvertSToF } else { Op::ConvertUToF }, self.t.f32, &[a[0]]);
                    self.from_f32(r)
                }
                IrOp::FLt | IrOp::FEq | IrOp::FGt | IrOp::FUnord => {
                    let (x, y) = if wide { (self.as_f64(a[0]), self.as_f64(a[1])) } else { (self.as_f32(a[0]), self.as_f32(a[1])) };
                    match i.op {
                        IrOp::FLt => self.op(Op::FOrdLessThan, ty, &[x, y]),
                        IrOp::FEq => self.op(Op::FOrdEqual, ty, &[x, y]),
                        IrOp::FGt => self.op(Op::FOrdGreaterThan, ty, &[x, y]),
                        _ => {
                            let (nx, ny) = (self.op(Op::IsNan, ty, &[x]), self.op(Op::IsNan, ty, &[y]));
                            self.op(Op::LogicalOr, ty, &[nx, ny])
                        }
                    }
                }
                IrOp::Select => self.op(Op::Select, ty, &a),
                IrOp::ZExt => self.op(Op::UConvert, ty, &a),
                IrOp::SExt => self.op(Op::SConvert, ty, &a),
                IrOp::Lo => self.op(Op::UConvert, ty, &a),
                IrOp::Hi => self.split64(a[0]).1,
                IrOp::Concat => self.join64(a[0], a[1]),
                IrOp::BoolToInt => self.bool_to_u32(a[0]),
            };
            ids[n] = id;
        }
        Ok(())
    }

    /// Lowest set bit index or all ones, 32 or 64 bits wide (the IR's `findlsb`).
    pub(super) fn first_bit(&mut self, v: Word, wide: bool) -> Word {
        if !wide {
            return self.gl(GLOp::FindILsb, self.t.u32, &[v]);
        }
        let (u, boolt) = (self.t.u32, self.t.bool);
        let (lo, hi) = self.split64(v);
        let l0 = self.gl(GLOp::FindILsb, u, &[lo]);
        let l1 = self.gl(GLOp::FindILsb, u, &[hi]);
        let c32 = self.c32(32);
        let l1b = self.op(Op::IAdd, u, &[l1, c32]);
        let z = self.c32(0);
        let none = self.c32(u32::MAX);
        let hi_set = self.op(Op::INotEqual, boolt, &[hi, z]);
        let lo_set = self.op(Op::INotEqual, boolt, &[lo, z]);
        let r = self.sel(u, hi_set, l1b, none);
        self.sel(u, lo_set, l0, r)
    }

    /// Highest set bit index or all ones, 32 or 64 bits wide (the IR's `findmsb`).
    fn find_msb(&mut self, v: Word, wide: bool) -> Word {
        if !wide {
            return self.gl(GLOp::FindUMsb, self.t.u32, &[v]);
        }
        let (u, boolt) = (self.t.u32, self.t.bool);
        let (lo, hi) = self.split64(v);
        let ml = self.gl(GLOp::FindUMsb, u, &[lo]);
        let mh = self.gl(GLOp::FindUMsb, u, &[hi]);
        let c32 = self.c32(32);
        let from_hi = self.op(Op::IAdd, u, &[mh, c32]);
        let z = self.c32(0);
        let hi_set = self.op(Op::INotEqual, boolt, &[hi, z]);
        self.sel(u, hi_set, from_hi, ml)
    }

    /// The f32 operations with lowerings of their own (`ftrunc` … `fmed3`), on the arguments'
    /// ids; each follows the emulator's arm of the same operation.
    fn float32_op(&mut self, op: IrOp, args: &[Word]) -> Word {
        let (u, u64t, f, boolt) = (self.t.u32, self.t.u64, self.t.f32, self.t.bool);
        let one32 = self.c32(1);
        let (a, b, c) = (args[0], args.get(1).copied().unwrap_or(0), args.get(2).copied().unwrap_or(0));
        let f32un = |g: &mut Gen, fun: GLOp, x: Word| {
            let x = g.as_f32(x);
            let r = g.gl(fun, f, &[x]);
            g.from_f32(r)
        };
        match op {
            IrOp::FTrunc => self.round_int(a, false, true),
            IrOp::FFloor => f32un(self, GLOp::Floor, a),
            IrOp::FCeil => f32un(self, GLOp::Ceil, a),
            IrOp::FRndne => self.round_int(a, false, false),
            IrOp::FSqrt => {
                // Correctly rounded, as the emulator's `f32::sqrt`: through f64, then checked
                // against the squares of the half-ulp neighbours (exact in f64) and moved by an
                // ulp if the driver's f64 root was not exact. Specials as x86 gives them: a
                // negative input the default NaN 0xffc00000, a NaN input quietened, ±0 and +∞
                // themselves.
                let boolt = self.t.bool;
                let x = self.as_f32(a);
                let ft = self.f64t();
                let xd = self.op(Op::FConvert, ft, &[x]);
                let root = self.gl(GLOp::Sqrt, ft, &[xd]);
                let r = self.op(Op::FConvert, f, &[root]);
                let rb = self.from_f32(r);
                let (c23, m8, bias) = (self.c32(23), self.c32(0xff), self.c32(872));
                let e = self.op(Op::ShiftRightLogical, u, &[rb, c23]);
                let e = self.op(Op::BitwiseAnd, u, &[e, m8]);
                let e = self.op(Op::IAdd, u, &[e, bias]);
                let e = self.op(Op::UConvert, u64t, &[e]);
                let c52 = self.c64(52);
                let half = self.op(Op::ShiftLeftLogical, u64t, &[e, c52]);
                let half = self.op(Op::Bitcast, ft, &[half]);
                let rd = self.op(Op::FConvert, ft, &[r]);
                let lo = self.op(Op::FSub, ft, &[rd, half]);
                let hi = self.op(Op::FAdd, ft, &[rd, half]);
                let lo2 = self.op(Op::FMul, ft, &[lo, lo]);
                let hi2 = self.op(Op::FMul, ft, &[hi, hi]);
                let below = self.op(Op::FOrdLessThan, boolt, &[xd, lo2]);
                let above = self.op(Op::FOrdGreaterThan, boolt, &[xd, hi2]);
                let down = self.op(Op::ISub, u, &[rb, one32]);
                let up = self.op(Op::IAdd, u, &[rb, one32]);
                let fixed = self.sel(u, above, up, rb);
                let fixed = self.sel(u, below, down, fixed);
                let zero = self.cf32(0.0);
                let neg = self.op(Op::FOrdLessThan, boolt, &[x, zero]);
                let is_zero = self.op(Op::FOrdEqual, boolt, &[x, zero]);
                let inf = self.op(Op::IsInf, boolt, &[x]);
                let nan = self.op(Op::IsNan, boolt, &[x]);
                let keep = self.op(Op::LogicalOr, boolt, &[is_zero, inf]);
                let r = self.sel(u, keep, a, fixed);
                let default_nan = self.c32(0xffc0_0000);
                let r = self.sel(u, neg, default_nan, r);
                let quiet = self.c32(0x40_0000);
                let quieted = self.op(Op::BitwiseOr, u, &[a, quiet]);
                self.sel(u, nan, quieted, r)
            }
            IrOp::FRcp => {
                // The emulator's reciprocal: 1/x in f64, rounded once to f32.
                let x = self.as_f32(a);
                let ft = self.f64t();
                let w = self.op(Op::FConvert, ft, &[x]);
                let one = self.cf64(1.0);
                let q = self.op(Op::FDiv, ft, &[one, w]);
                let r = self.op(Op::FConvert, f, &[q]);
                self.from_f32(r)
            }
            IrOp::FLdexp => {
                let x = self.as_f32(a);
                let ft = self.f64t();
                let w = self.op(Op::FConvert, ft, &[x]);
                let (lo, hi) = (self.c32(-400i32 as u32), self.c32(400));
                let n = self.gl(GLOp::SClamp, u, &[b, lo, hi]);
                let q = self.scale_f64(w, n);
                let r = self.op(Op::FConvert, f, &[q]);
                self.from_f32(r)
            }
            IrOp::FMulLegacy => {
                // DX9 rule: a zero factor gives +0 whatever the other (even inf or NaN).
                let (x, y) = (self.as_f32(a), self.as_f32(b));
                let p = self.op(Op::FMul, f, &[x, y]);
                let z = self.cf32(0.0);
                let (xz, yz) = (self.op(Op::FOrdEqual, boolt, &[x, z]), self.op(Op::FOrdEqual, boolt, &[y, z]));
                let either = self.op(Op::LogicalOr, boolt, &[xz, yz]);
                let r = self.sel(f, either, z, p);
                self.from_f32(r)
            }
            // The emulator's median: with a NaN, the minimum of all three; else the larger of
            // the two that are not the maximum.
            IrOp::FMed3 => {
                let boolt = self.t.bool;
                let nans: Vec<Word> = [a, b, c].iter().map(|&v| {
                    let f = self.as_f32(v);
                    self.op(Op::IsNan, boolt, &[f])
                }).collect();
                let any = self.op(Op::LogicalOr, boolt, &[nans[0], nans[1]]);
                let any = self.op(Op::LogicalOr, boolt, &[any, nans[2]]);
                let lo = self.fminmax(false, a, b, false);
                let with_nan = self.fminmax(false, lo, c, false);
                let hi = self.fminmax(false, a, b, true);
                let mx = self.fminmax(false, hi, c, true);
                let (is_a, is_b) = (self.op(Op::IEqual, boolt, &[mx, a]), self.op(Op::IEqual, boolt, &[mx, b]));
                let (bc, ac) = (self.fminmax(false, b, c, true), self.fminmax(false, a, c, true));
                let r = self.sel(u, is_b, ac, hi);
                let r = self.sel(u, is_a, bc, r);
                self.sel(u, any, with_nan, r)
            }
            IrOp::FFract => {
                let boolt = self.t.bool;
                let x = self.as_f32(a);
                let fl = self.gl(GLOp::Floor, f, &[x]);
                let d = self.op(Op::FSub, f, &[x, fl]);
                let bound = self.cf32(f32::from_bits(0x3f7f_ffff));
                let below = self.op(Op::FOrdLessThan, boolt, &[d, bound]);
                let r = self.sel(f, below, d, bound);
                let r = self.from_f32(r);
                let inf = self.op(Op::IsInf, boolt, &[x]);
                let nan = self.c32(0x7fc0_0000);
                self.sel(u, inf, nan, r)
            }
            _ => unreachable!("float32_op is called for its own operations"),
        }
    }
}
