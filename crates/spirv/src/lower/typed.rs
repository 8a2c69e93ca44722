//! Typed buffer accesses (`buffer_load/store_format_*`, `tbuffer_load/store_format_*`), as
//! `rdna_emu::vmem` runs them: the element's format (the resource's for `buffer_*`, the
//! instruction's for `tbuffer_*`) comes from `rdna_emu::bufmt::BufFormat`, and each component
//! is converted as `BufFormat::unpack` and `BufFormat::pack` define it.
//!
//! A format known when recompiling (`tbuffer_*`) gets only its own conversions, with its
//! widths as constants. A format read from the resource at run time is looked up in a table of
//! every format number (one word each, built from `BufFormat`), and each component is converted
//! by every kind's conversion, the kind selecting the result.
//!
//! The conversions are exact: integers widen to f64 exactly, so a UNORM/SNORM division is the
//! emulator's one correctly rounded f64 division followed by its one rounding to f32; stores
//! round to nearest even with `Gen::round_int` (drivers' f64 `RoundEven` is not trusted).

use super::{Gen, Lowered, Place, Target};
use rdna_emu::bufmt::{BufFormat, NumFmt};
use rdna_emu::program::Step;
use rdna_isa::{Format, Generation};
use rspirv::dr::Operand;
use rspirv::spirv::{GLOp, Op, Word};

/// The number kinds in the order a table word numbers them.
const KINDS: [NumFmt; 7] = [NumFmt::Unorm, NumFmt::Snorm, NumFmt::Uscaled, NumFmt::Sscaled, NumFmt::Uint, NumFmt::Sint, NumFmt::Float];

/// Table word of a valid format: bit 31.
const VALID: u32 = 1 << 31;

/// The table word of format number `n`: component widths in 6-bit fields from X (0 for a
/// component the format lacks), the kind's index in [`KINDS`] at bit 24, [`VALID`]; 0 for a
/// number that is not a format.
pub(super) fn table_word(gen: Generation, n: u32) -> u32 {
    BufFormat::from_number(gen, n).map_or(0, |f| {
        let kind = KINDS.iter().position(|&k| k == f.num).unwrap_or(0) as u32;
        f.widths.iter().take(4).enumerate().fold(VALID | kind << 24, |w, (c, &width)| w | width << (6 * c))
    })
}

/// What is known of an element's layout when recompiling.
enum Layout {
    /// The instruction names the format.
    Known(BufFormat),
    /// The resource names it: the format's table word (a u32 id).
    Runtime(Word),
}

/// A component's width: a constant, or a u32 id.
#[derive(Clone, Copy)]
enum Width {
    Known(u32),
    Runtime(Word),
}

impl Gen {
    /// The module's table of format words (one per 7-bit format number), made when the
    /// kernel has a `buffer_*_format_*` access.
    pub(super) fn buffer_format_table(&mut self, gen: Generation) -> Word {
        let words: Vec<u32> = (0..128).map(|n| table_word(gen, n)).collect();
        self.u32_table(&words)
    }

    /// `buffer/tbuffer_load/store_format_*`: `comps` components, with `d16` two to a register
    /// (`hi`: the one component in the high half).
    pub(super) fn typed_buffer(&mut self, st: &Step, store: bool, comps: u8, d16: bool, hi: bool) -> Lowered {
        let raw = st.inst.raw;
        let mut place = self.vmem_place(st, 0)?;
        let Place::Buffer { rs, size, .. } = &mut place else {
            return Err("internal: a typed access without a buffer resource".into());
        };
        let word3 = rs[3];
        let layout = if st.inst.format == Format::Mtbuf {
            let n = (raw >> 19 & 0x7f) as u32;
            match BufFormat::from_number(st.inst.gen, n) {
                Some(f) => {
                    *size = Some(self.c32(f.bytes() as u32));
                    Layout::Known(f)
                }
                None => {
                    // The emulator faults here, whichever lanes are enabled.
                    self.fail(crate::STATUS_BUFFER_FORMAT);
                    return Ok(());
                }
            }
        } else {
            let u = self.t.u32;
            let (c12, m7f) = (self.c32(12), self.c32(0x7f));
            let n = self.op(Op::ShiftRightLogical, u, &[word3, c12]);
            let n = self.op(Op::BitwiseAnd, u, &[n, m7f]);
            let p = self.b.access_chain(self.t.fn_u32, None, self.format_table, [n]).unwrap();
            let word = self.b.load(u, None, p, None, []).unwrap();
            let valid = self.c32(VALID);
            let v = self.op(Op::BitwiseAnd, u, &[word, valid]);
            let z = self.c32(0);
            let invalid = self.op(Op::IEqual, self.t.bool, &[v, z]);
            self.if_then(invalid, &mut |g: &mut Gen| g.fail(crate::STATUS_BUFFER_FORMAT));
            // Bytes per element: the widths' sum, rounded up to bytes.
            let mut bits = z;
            for c in 0..4 {
                let w = self.runtime_width(word, c);
                bits = self.op(Op::IAdd, u, &[bits, w]);
            }
            let c7 = self.c32(7);
            let c3 = self.c32(3);
            let b = self.op(Op::IAdd, u, &[bits, c7]);
            *size = Some(self.op(Op::ShiftRightLogical, u, &[b, c3]));
            Layout::Runtime(word)
        };
        let size = match &place {
            Place::Buffer { size: Some(s), .. } => *s,
            _ => unreachable!("set above"),
        };
        let data = (raw >> 40 & 0xff) as u16;
        let lay = &layout;
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let Target { addr, live, .. } = g.vmem_addr(&place, lane)?;
            let live = live.ok_or("internal: a buffer access without a range check")?;
            let max_bytes = match lay {
                Layout::Known(f) => f.bytes() as u32,
                Layout::Runtime(_) => 16,
            };
            // The element's bytes (a dropped access reads zeros), as four little-endian words.
            let mut inside = Vec::with_capacity(max_bytes as usize);
            let mut d = [g.c32(0); 4];
            let (u, u64t, boolt) = (g.t.u32, g.t.u64, g.t.bool);
            let (u8t, p8) = g.psb_u8();
            for i in 0..max_bytes {
                let ok = match lay {
                    Layout::Known(_) => live,
                    Layout::Runtime(_) => {
                        let ci = g.c32(i);
                        let within = g.op(Op::ULessThan, boolt, &[ci, size]);
                        g.op(Op::LogicalAnd, boolt, &[within, live])
                    }
                };
                inside.push(ok);
                let oi = g.c64(i as u64);
                let a = g.op(Op::IAdd, u64t, &[addr, oi]);
                let a = g.sel(u64t, ok, a, g.slot);
                let a = g.guard(a, 1);
                let p = g.b.convert_u_to_ptr(p8, None, a).unwrap();
                let x = g.b.load(u8t, None, p, Some(rspirv::spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(1)]).unwrap();
                let x = g.op(Op::UConvert, u, &[x]);
                let z = g.c32(0);
                let x = g.sel(u, ok, x, z);
                let sh = g.c32(8 * (i % 4));
                let x = g.op(Op::ShiftLeftLogical, u, &[x, sh]);
                d[i as usize / 4] = g.op(Op::BitwiseOr, u, &[d[i as usize / 4], x]);
            }
            let int_format = g.is_integer_format(lay);
            if store {
                for c in 0..comps as usize {
                    let v = if d16 {
                        let r = g.rd_v(data + c as u16 / 2, lane)?;
                        let shift = g.c32(if hi || c % 2 == 1 { 16 } else { 0 });
                        let h = g.op(Op::ShiftRightLogical, u, &[r, shift]);
                        let m16 = g.c32(0xffff);
                        let h = g.op(Op::BitwiseAnd, u, &[h, m16]);
                        // 16-bit data: integer formats take the low bits, float ones widen an f16.
                        let f = g.f16_to_f32(h);
                        let f = g.from_f32(f);
                        g.sel(u, int_format, h, f)
                    } else {
                        g.rd_v(data + c as u16, lane)?
                    };
                    g.store_component(lay, &mut d, c, v);
                }
                let mut body = |g: &mut Gen| {
                    for i in 0..max_bytes {
                        let sh = g.c32(8 * (i % 4));
                        let x = g.op(Op::ShiftRightLogical, u, &[d[i as usize / 4], sh]);
                        let x = g.op(Op::UConvert, u8t, &[x]);
                        let oi = g.c64(i as u64);
                        let a = g.op(Op::IAdd, u64t, &[addr, oi]);
                        let put = |g: &mut Gen| {
                            let a = g.guard(a, 1);
                            let p = g.b.convert_u_to_ptr(p8, None, a).unwrap();
                            g.b.store(p, x, Some(rspirv::spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(1)]).unwrap();
                        };
                        match lay {
                            Layout::Known(_) => put(g),
                            Layout::Runtime(_) => g.if_then(inside[i as usize], &mut |g: &mut Gen| put(g)),
                        }
                    }
                };
                match lay {
                    Layout::Known(_) => g.if_then(live, &mut body),
                    Layout::Runtime(_) => body(g),
                }
                return Ok(());
            }
            // Load: the components (missing ones 0, 0, 0 and one), then the resource's
            // destination selects.
            let (one_f, one_i) = (g.c32(1.0f32.to_bits()), g.c32(1));
            let one = g.sel(u, int_format, one_i, one_f);
            let mut vals = [0; 4];
            for (c, v) in vals.iter_mut().enumerate() {
                let missing = if c == 3 { one } else { g.c32(0) };
                *v = g.load_component(lay, &d, c, missing);
            }
            let picked: Vec<Word> = (0..comps as u32)
                .map(|c| {
                    let sh = g.c32(3 * c);
                    let m7 = g.c32(7);
                    let s = g.op(Op::ShiftRightLogical, u, &[word3, sh]);
                    let s = g.op(Op::BitwiseAnd, u, &[s, m7]);
                    // `rdna_emu::bufmt::dst_sel`: 1 = one, 4..7 = X..W, else 0.
                    let mut r = g.c32(0);
                    for (k, &val) in [(1, &one), (4, &vals[0]), (5, &vals[1]), (6, &vals[2]), (7, &vals[3])] {
                        let kc = g.c32(k);
                        let is = g.op(Op::IEqual, boolt, &[s, kc]);
                        r = g.sel(u, is, val, r);
                    }
                    r
                })
                .collect();
            if !d16 {
                for (c, &v) in picked.iter().enumerate() {
                    g.wr_v(data + c as u16, lane, v)?;
                }
                return Ok(());
            }
            // 16-bit results: integer formats keep the low bits, float ones round to f16.
            let half = |g: &mut Gen, v: Word| {
                let m16 = g.c32(0xffff);
                let lo = g.op(Op::BitwiseAnd, u, &[v, m16]);
                let f = g.as_f32(v);
                let h = g.f32_to_f16(f);
                g.sel(u, int_format, lo, h)
            };
            if hi {
                let h = half(g, picked[0]);
                let old = g.rd_v(data, lane)?;
                let v = g.merge_half(old, h, true);
                return g.wr_v(data, lane, v);
            }
            for r in 0..(comps as usize).div_ceil(2) {
                let lo = half(g, picked[2 * r]);
                let hi16 = match picked.get(2 * r + 1) {
                    Some(&v) => half(g, v),
                    None => g.c32(0),
                };
                let c16 = g.c32(16);
                let hi16 = g.op(Op::ShiftLeftLogical, u, &[hi16, c16]);
                let v = g.op(Op::BitwiseOr, u, &[lo, hi16]);
                g.wr_v(data + r as u16, lane, v)?;
            }
            Ok(())
        })
    }

    /// Component `c`'s width from a table word.
    fn runtime_width(&mut self, word: Word, c: u32) -> Word {
        let (at, six) = (self.c32(6 * c), self.c32(6));
        self.op(Op::BitFieldUExtract, self.t.u32, &[word, at, six])
    }

    /// The number kind's index in [`KINDS`] from a table word.
    fn runtime_kind(&mut self, word: Word) -> Word {
        let (at, three) = (self.c32(24), self.c32(3));
        self.op(Op::BitFieldUExtract, self.t.u32, &[word, at, three])
    }

    /// Whether the format's components are integers (UINT/SINT: W defaults to 1, 16-bit data
    /// is not a half).
    fn is_integer_format(&mut self, lay: &Layout) -> Word {
        match lay {
            Layout::Known(f) => {
                let int = matches!(f.num, NumFmt::Uint | NumFmt::Sint);
                if int {
                    self.b.constant_true(self.t.bool)
                } else {
                    self.b.constant_false(self.t.bool)
                }
            }
            Layout::Runtime(word) => {
                let k = self.runtime_kind(*word);
                let (uint, sint) = (self.c32(4), self.c32(5));
                let a = self.op(Op::IEqual, self.t.bool, &[k, uint]);
                let b = self.op(Op::IEqual, self.t.bool, &[k, sint]);
                self.op(Op::LogicalOr, self.t.bool, &[a, b])
            }
        }
    }

    /// Component `c`'s width and bit position in the element, and whether the format has it.
    fn component_place(&mut self, lay: &Layout, c: usize) -> (Width, Word, Word) {
        match lay {
            Layout::Known(f) => {
                let w = f.widths.get(c).copied().unwrap_or(0);
                let pos: u32 = f.widths.iter().take(c).sum();
                let has = if w > 0 { self.b.constant_true(self.t.bool) } else { self.b.constant_false(self.t.bool) };
                (Width::Known(w), self.c32(pos), has)
            }
            Layout::Runtime(word) => {
                let u = self.t.u32;
                let mut pos = self.c32(0);
                for k in 0..c as u32 {
                    let w = self.runtime_width(*word, k);
                    pos = self.op(Op::IAdd, u, &[pos, w]);
                }
                let w = self.runtime_width(*word, c as u32);
                let z = self.c32(0);
                let has = self.op(Op::INotEqual, self.t.bool, &[w, z]);
                (Width::Runtime(w), pos, has)
            }
        }
    }

    /// The element word holding bit `pos` (no component crosses a word), and the bit within it.
    fn element_word(&mut self, d: &[Word; 4], pos: Word) -> (Word, Word, Word) {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let (c5, m31) = (self.c32(5), self.c32(31));
        let idx = self.op(Op::ShiftRightLogical, u, &[pos, c5]);
        let off = self.op(Op::BitwiseAnd, u, &[pos, m31]);
        let mut word = d[0];
        for (k, &dk) in d.iter().enumerate().skip(1) {
            let kc = self.c32(k as u32);
            let is = self.op(Op::IEqual, boolt, &[idx, kc]);
            word = self.sel(u, is, dk, word);
        }
        (word, idx, off)
    }

    fn width_id(&mut self, w: Width) -> Word {
        match w {
            Width::Known(w) => self.c32(w),
            Width::Runtime(w) => w,
        }
    }

    /// Component `c` of a loaded element as a register value (`BufFormat::unpack`), or
    /// `missing` where the format has no such component.
    fn load_component(&mut self, lay: &Layout, d: &[Word; 4], c: usize, missing: Word) -> Word {
        let u = self.t.u32;
        let (w, pos, has) = self.component_place(lay, c);
        if let Width::Known(0) = w {
            return missing;
        }
        let (word, _, off) = self.element_word(d, pos);
        let wid = self.width_id(w);
        let v = self.op(Op::BitFieldUExtract, u, &[word, off, wid]);
        let z = self.c32(0);
        let s = self.op(Op::BitFieldSExtract, u, &[v, z, wid]);
        let r = self.by_kind(lay, &mut |g: &mut Gen, kind| g.unpack_value(kind, w, v, s));
        self.sel(u, has, r, missing)
    }

    /// Replaces component `c` of an element with the register value `v` (`BufFormat::pack`);
    /// a component the format lacks is not stored.
    fn store_component(&mut self, lay: &Layout, d: &mut [Word; 4], c: usize, v: Word) {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let (w, pos, has) = self.component_place(lay, c);
        if let Width::Known(0) = w {
            return;
        }
        // The emulator refuses stores to 11- and 10-bit floats.
        let refused = match (lay, w) {
            (Layout::Known(f), Width::Known(w)) => (f.num == NumFmt::Float && w != 32 && w != 16).then(|| self.b.constant_true(boolt)),
            (Layout::Runtime(word), Width::Runtime(wid)) => {
                let k = self.runtime_kind(*word);
                let f = self.c32(6);
                let is_float = self.op(Op::IEqual, boolt, &[k, f]);
                let (c32, c16) = (self.c32(32), self.c32(16));
                let a = self.op(Op::INotEqual, boolt, &[wid, c32]);
                let b = self.op(Op::INotEqual, boolt, &[wid, c16]);
                let odd = self.op(Op::LogicalAnd, boolt, &[a, b]);
                let odd = self.op(Op::LogicalAnd, boolt, &[odd, has]);
                Some(self.op(Op::LogicalAnd, boolt, &[odd, is_float]))
            }
            _ => None,
        };
        if let Some(r) = refused {
            self.if_then(r, &mut |g: &mut Gen| g.fail(crate::STATUS_BUFFER_FORMAT));
        }
        let enc = self.by_kind(lay, &mut |g: &mut Gen, kind| g.pack_value(kind, w, v));
        let (_, idx, off) = self.element_word(d, pos);
        let wid = self.width_id(w);
        for (k, dk) in d.iter_mut().enumerate() {
            let kc = self.c32(k as u32);
            let is = self.op(Op::IEqual, boolt, &[idx, kc]);
            let is = self.op(Op::LogicalAnd, boolt, &[is, has]);
            let put = self.op(Op::BitFieldInsert, u, &[*dk, enc, off, wid]);
            *dk = self.sel(u, is, put, *dk);
        }
    }

    /// `f(kind)` for the layout's kind: the one kind of a known format, else every kind's
    /// value, chosen by the table word's kind.
    fn by_kind(&mut self, lay: &Layout, f: &mut dyn FnMut(&mut Gen, NumFmt) -> Word) -> Word {
        match lay {
            Layout::Known(fmt) => f(self, fmt.num),
            Layout::Runtime(word) => {
                let k = self.runtime_kind(*word);
                let vals: Vec<Word> = KINDS.iter().map(|&kind| f(self, kind)).collect();
                let mut r = vals[KINDS.len() - 1];
                for (i, &v) in vals.iter().enumerate().rev().skip(1) {
                    let ic = self.c32(i as u32);
                    let is = self.op(Op::IEqual, self.t.bool, &[k, ic]);
                    r = self.sel(self.t.u32, is, v, r);
                }
                r
            }
        }
    }

    /// `2^w - 1` (`signed`: `2^(w-1) - 1`) as an f64, for a width of at least 1.
    fn norm_scale(&mut self, w: Width, signed: bool) -> Word {
        match w {
            Width::Known(w) => {
                let bits = if signed { w - 1 } else { w };
                self.cf64(((1u64 << bits) - 1) as f64)
            }
            Width::Runtime(w) => {
                let (u, u64t) = (self.t.u32, self.t.u64);
                let one = self.c32(1);
                let w = self.gl(GLOp::UMax, u, &[w, one]);
                let bits = if signed { self.op(Op::ISub, u, &[w, one]) } else { w };
                let bits = self.op(Op::UConvert, u64t, &[bits]);
                let one64 = self.c64(1);
                let p = self.op(Op::ShiftLeftLogical, u64t, &[one64, bits]);
                let m = self.op(Op::ISub, u64t, &[p, one64]);
                let ft = self.f64t();
                self.op(Op::ConvertUToF, ft, &[m])
            }
        }
    }

    /// One component's bits `v` (`s`: sign-extended) as `BufFormat::unpack` converts them.
    fn unpack_value(&mut self, kind: NumFmt, w: Width, v: Word, s: Word) -> Word {
        let (f32t, ft) = (self.t.f32, self.f64t());
        let narrow = |g: &mut Gen, x: Word| {
            let r = g.op(Op::FConvert, f32t, &[x]);
            g.from_f32(r)
        };
        match kind {
            NumFmt::Unorm => {
                let x = self.op(Op::ConvertUToF, ft, &[v]);
                let m = self.norm_scale(w, false);
                let q = self.op(Op::FDiv, ft, &[x, m]);
                narrow(self, q)
            }
            NumFmt::Snorm => {
                let x = self.op(Op::ConvertSToF, ft, &[s]);
                let m = self.norm_scale(w, true);
                let q = self.op(Op::FDiv, ft, &[x, m]);
                let minus1 = self.cf64(-1.0);
                let below = self.op(Op::FOrdLessThan, self.t.bool, &[q, minus1]);
                let q = self.sel(ft, below, minus1, q);
                narrow(self, q)
            }
            NumFmt::Uscaled => {
                let x = self.op(Op::ConvertUToF, ft, &[v]);
                narrow(self, x)
            }
            NumFmt::Sscaled => {
                let x = self.op(Op::ConvertSToF, ft, &[s]);
                narrow(self, x)
            }
            NumFmt::Uint => v,
            NumFmt::Sint => s,
            NumFmt::Float => match w {
                Width::Known(32) => v,
                Width::Known(16) => {
                    let f = self.f16_to_f32(v);
                    self.from_f32(f)
                }
                Width::Known(w) => self.small_float(v, Width::Known(w)),
                Width::Runtime(wid) => {
                    let u = self.t.u32;
                    let h = self.f16_to_f32(v);
                    let h = self.from_f32(h);
                    let small = self.small_float(v, w);
                    let (c32, c16) = (self.c32(32), self.c32(16));
                    let is32 = self.op(Op::IEqual, self.t.bool, &[wid, c32]);
                    let is16 = self.op(Op::IEqual, self.t.bool, &[wid, c16]);
                    let r = self.sel(u, is16, h, small);
                    self.sel(u, is32, v, r)
                }
            },
        }
    }

    /// The unsigned 11- or 10-bit float `v` (5 exponent bits, `w - 5` mantissa bits) as f32
    /// bits, exactly as `rdna_emu::bufmt` widens it.
    fn small_float(&mut self, v: Word, w: Width) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let five = self.c32(5);
        let mant = match w {
            Width::Known(w) => self.c32(w.saturating_sub(5)),
            Width::Runtime(w) => {
                let w = self.gl(GLOp::UMax, u, &[w, five]);
                self.op(Op::ISub, u, &[w, five])
            }
        };
        let e = self.op(Op::ShiftRightLogical, u, &[v, mant]);
        let m31 = self.c32(31);
        let e = self.op(Op::BitwiseAnd, u, &[e, m31]);
        let z = self.c32(0);
        let m = self.op(Op::BitFieldUExtract, u, &[v, z, mant]);
        // Normal: the exponent rebiased (15 → 127), the mantissa at the top of f32's.
        let bias = self.c32(112);
        let eb = self.op(Op::IAdd, u, &[e, bias]);
        let c23 = self.c32(23);
        let eb = self.op(Op::ShiftLeftLogical, u, &[eb, c23]);
        let up = self.op(Op::ISub, u, &[c23, mant]);
        let mb = self.op(Op::ShiftLeftLogical, u, &[m, up]);
        let normal = self.op(Op::BitwiseOr, u, &[eb, mb]);
        // Zero exponent: m · 2^(-14 - mant), exact in f32 (2^-20 is normal).
        let mf = self.op(Op::ConvertUToF, self.t.f32, &[m]);
        let (s6, s5) = (self.cf32(2f32.powi(-20)), self.cf32(2f32.powi(-19)));
        let c6 = self.c32(6);
        let six = self.op(Op::IEqual, boolt, &[mant, c6]);
        let scale = self.sel(self.t.f32, six, s6, s5);
        let small = self.op(Op::FMul, self.t.f32, &[mf, scale]);
        let small = self.from_f32(small);
        let (inf, nan) = (self.c32(0x7f80_0000), self.c32(f32::NAN.to_bits()));
        let has_m = self.op(Op::INotEqual, boolt, &[m, z]);
        let special = self.sel(u, has_m, nan, inf);
        let is_zero_e = self.op(Op::IEqual, boolt, &[e, z]);
        let is_top = self.op(Op::IEqual, boolt, &[e, m31]);
        let r = self.sel(u, is_zero_e, small, normal);
        self.sel(u, is_top, special, r)
    }

    /// A register value `v` encoded as one component (`BufFormat::pack`), as u32 bits (the
    /// caller keeps the component's low `w` bits).
    fn pack_value(&mut self, kind: NumFmt, w: Width, v: Word) -> Word {
        let (u, boolt, ft) = (self.t.u32, self.t.bool, self.f64t());
        let x = self.as_f32(v);
        let x = self.op(Op::FConvert, ft, &[x]);
        let nan = self.op(Op::IsNan, boolt, &[x]);
        let zero = self.cf64(0.0);
        let x = self.sel(ft, nan, zero, x);
        let rint = |g: &mut Gen, x: Word| {
            let b = g.from_f64(x);
            let r = g.round_int(b, true, false);
            g.as_f64(r)
        };
        let clamp = |g: &mut Gen, x: Word, lo: Word, hi: Word| {
            let below = g.op(Op::FOrdLessThan, boolt, &[x, lo]);
            let x = g.sel(ft, below, lo, x);
            let above = g.op(Op::FOrdGreaterThan, boolt, &[x, hi]);
            g.sel(ft, above, hi, x)
        };
        match kind {
            NumFmt::Unorm | NumFmt::Snorm => {
                let signed = kind == NumFmt::Snorm;
                let (lo, hi) = (self.cf64(if signed { -1.0 } else { 0.0 }), self.cf64(1.0));
                let x = clamp(self, x, lo, hi);
                let m = self.norm_scale(w, signed);
                let x = self.op(Op::FMul, ft, &[x, m]);
                let r = rint(self, x);
                self.op(if signed { Op::ConvertFToS } else { Op::ConvertFToU }, u, &[r])
            }
            NumFmt::Uscaled | NumFmt::Sscaled => {
                let signed = kind == NumFmt::Sscaled;
                let r = rint(self, x);
                let m = self.norm_scale(w, signed);
                let lo = if signed {
                    let one = self.cf64(1.0);
                    let neg = self.op(Op::FNegate, ft, &[m]);
                    self.op(Op::FSub, ft, &[neg, one])
                } else {
                    zero
                };
                let r = clamp(self, r, lo, m);
                self.op(if signed { Op::ConvertFToS } else { Op::ConvertFToU }, u, &[r])
            }
            NumFmt::Uint | NumFmt::Sint => v,
            NumFmt::Float => match w {
                Width::Known(16) => {
                    let f = self.as_f32(v);
                    self.f32_to_f16(f)
                }
                Width::Runtime(wid) => {
                    let f = self.as_f32(v);
                    let h = self.f32_to_f16(f);
                    let c16 = self.c32(16);
                    let is16 = self.op(Op::IEqual, boolt, &[wid, c16]);
                    self.sel(u, is16, h, v)
                }
                // 32 bits; 11- and 10-bit floats are refused before this.
                Width::Known(_) => v,
            },
        }
    }
}
