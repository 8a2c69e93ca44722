//! What each instruction does, resolved once from its mnemonic: the emulator's one description
//! of semantics, grouped by family. Encodings (`_e32`, `_e64`, `_dpp`, `_sdwa`) of one operation
//! share one entry; the operands come from the decoder's tables.

use rdna_disasm::Inst;
use rdna_isa::Format;

/// Boolean operations of SALU logic and `s_*_saveexec`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logic {
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
    /// `~a & b` (`s_andn1_saveexec`: ~EXEC & S0 in saveexec terms).
    Andn1,
    Orn1,
}

impl Logic {
    #[inline]
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Logic::And => a & b,
            Logic::Or => a | b,
            Logic::Xor => a ^ b,
            Logic::Andn2 => a & !b,
            Logic::Orn2 => a | !b,
            Logic::Nand => !(a & b),
            Logic::Nor => !(a | b),
            Logic::Xnor => !(a ^ b),
            Logic::Andn1 => !a & b,
            Logic::Orn1 => !a | b,
        }
    }

    fn from(s: &str) -> Option<Logic> {
        Some(match s {
            "and" => Logic::And,
            "or" => Logic::Or,
            "xor" => Logic::Xor,
            "andn2" => Logic::Andn2,
            "orn2" => Logic::Orn2,
            "nand" => Logic::Nand,
            "nor" => Logic::Nor,
            "xnor" => Logic::Xnor,
            "andn1" => Logic::Andn1,
            "orn1" => Logic::Orn1,
            _ => return None,
        })
    }
}

/// Number types of compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    F16,
    F32,
    F64,
    I16,
    I32,
    I64,
    U16,
    U32,
    U64,
}

impl Num {
    fn from(s: &str) -> Option<Num> {
        Some(match s {
            "f16" => Num::F16,
            "f32" => Num::F32,
            "f64" => Num::F64,
            "i16" => Num::I16,
            "i32" => Num::I32,
            "i64" => Num::I64,
            "u16" => Num::U16,
            "u32" => Num::U32,
            "u64" => Num::U64,
            _ => return None,
        })
    }
}

/// Compare conditions, as the sets (less, equal, greater, unordered) for which they hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cond {
    pub lt: bool,
    pub eq: bool,
    pub gt: bool,
    pub unord: bool,
}

impl Cond {
    fn from(s: &str, float: bool) -> Option<Cond> {
        let c = |lt, eq, gt, unord| Cond { lt, eq, gt, unord };
        Some(match s {
            "f" => c(false, false, false, false),
            "lt" => c(true, false, false, false),
            "eq" => c(false, true, false, false),
            "le" => c(true, true, false, false),
            "gt" => c(false, false, true, false),
            "lg" if float => c(true, false, true, false),
            "ne" | "lg" => c(true, false, true, false),
            "ge" => c(false, true, true, false),
            "o" => c(true, true, true, false),
            "u" => c(false, false, false, true),
            "nge" => c(true, false, false, true),
            "nlg" => c(false, true, false, true),
            "ngt" => c(true, true, false, true),
            "nle" => c(false, false, true, true),
            "neq" => c(true, false, true, true),
            "nlt" => c(false, true, true, true),
            "tru" | "t" => c(true, true, true, true),
            _ => return None,
        })
    }
}

/// Scalar branch conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchIf {
    Always,
    Scc0,
    Scc1,
    Vccz,
    Vccnz,
    Execz,
    Execnz,
}

/// Scalar memory loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Smem {
    pub dwords: u8,
    /// `s_buffer_load_*`: the base is a buffer resource.
    pub buffer: bool,
}

/// Vector memory operations (FLAT, GLOBAL, SCRATCH, MUBUF, DS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    /// Load `bytes` per lane; `sext` sign-extends sub-dword data; `d16` writes a 16-bit half
    /// (`hi` selects which) and keeps the other.
    Load { bytes: u8, sext: bool, d16: bool, hi: bool },
    Store { bytes: u8, hi: bool },
    Atomic { op: Atomic, x2: bool },
    /// `global_load_dword_addtid` / `global_store_dword_addtid`: SADDR + offset + 4 × lane.
    Addtid { store: bool },
    /// Typed buffer accesses: `comps` components converted through the buffer format (from the
    /// resource for `buffer_*_format_*`, from the instruction for `tbuffer_*`); `d16` packs two
    /// components per register (`hi`: the single component goes to the high half).
    Format { store: bool, comps: u8, d16: bool, hi: bool },
}

/// Read-modify-write operations shared by DS, FLAT/GLOBAL and buffer atomics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atomic {
    Swap,
    /// Compare-and-swap: FLAT/buffer take {data, cmp}; DS cmpst takes cmp in data0, new in data1.
    CmpSwap,
    Add,
    Sub,
    Rsub,
    SMin,
    UMin,
    SMax,
    UMax,
    And,
    Or,
    Xor,
    Inc,
    Dec,
    FMin,
    FMax,
    FAdd,
    FCmpSwap,
    /// `(old & ~mask) | data` (DS only).
    Mskor,
    /// `ds_condxchg32_rtn_b64`.
    CondXchg32,
    /// `buffer/global_atomic_csub`: saturating subtract.
    CSub,
    /// `ds_wrap_rtn_b32`.
    Wrap,
}

/// LDS instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsKind {
    Read { bytes: u8, sext: bool, d16: bool, hi: bool },
    Write { bytes: u8, hi: bool },
    /// `ds_read2*`: two reads of `bytes` at offset0/offset1 × stride.
    Read2 { bytes: u8, st64: bool },
    Write2 { bytes: u8, st64: bool },
    Atomic { op: Atomic, x2: bool, rtn: bool },
    /// `ds_wrxchg2*_rtn`.
    Xchg2 { bytes: u8, st64: bool },
    /// gfx11 `ds_cmpstore*`: DATA0 is the new value, DATA1 the compare value.
    CmpStore { op: Atomic, x2: bool, rtn: bool },
    Swizzle,
    Permute,
    Bpermute,
    Append,
    Consume,
    ReadAddtid,
    WriteAddtid,
    Nop,
}

/// Everything an instruction can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bytes that are not an instruction: executing them faults.
    Invalid(u32),
    /// A known instruction the emulator does not implement; executing it faults with the reason.
    Unsupported(&'static str),
    /// No architectural effect in this model (waits, hints, cache controls).
    Nop,
    EndPgm,
    Barrier,
    Branch(BranchIf),
    Salu(Salu),
    /// `s_<op>_saveexec`: save EXEC to SDST, then EXEC = op(S0, EXEC) (`wrexec`: op(EXEC, S0)
    /// also written to SDST).
    SaveExec { op: Logic, wrexec: bool },
    /// Bitwise SALU operations, 32- or 64-bit.
    SLogic { op: Logic, wide: bool },
    Smem(Smem),
    Valu(VOp),
    Vcmp { ty: Num, cond: Cond, x: bool },
    VcmpClass { ty: Num, x: bool },
    /// FLAT/GLOBAL/SCRATCH/MUBUF vector memory.
    Mem(MemKind),
    Ds(DsKind),
    /// gfx11 dual issue: two VALU operations reading the registers before either writes.
    Vopd,
    /// `s_sendmsg`: only messages without effect on a compute dispatch are accepted.
    Sendmsg,
}

macro_rules! ops {
    ($(#[$m:meta])* $name:ident { $($v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($v,)* }
        impl $name {
            pub fn from_name(n: &str) -> Option<$name> {
                Some(match n { $($s => $name::$v,)* _ => return None })
            }
            pub const ALL: &'static [(&'static str, $name)] = &[$(($s, $name::$v),)*];
        }
    };
}

ops! {
    /// Scalar ALU operations (SOP1, SOP2, SOPK, SOPC) other than logic/saveexec.
    Salu {
        MovB32 = "s_mov_b32", MovB64 = "s_mov_b64", CmovB32 = "s_cmov_b32", CmovB64 = "s_cmov_b64",
        NotB32 = "s_not_b32", NotB64 = "s_not_b64", WqmB32 = "s_wqm_b32", WqmB64 = "s_wqm_b64",
        BrevB32 = "s_brev_b32", BrevB64 = "s_brev_b64", Bcnt0B32 = "s_bcnt0_i32_b32", Bcnt0B64 = "s_bcnt0_i32_b64",
        Bcnt1B32 = "s_bcnt1_i32_b32", Bcnt1B64 = "s_bcnt1_i32_b64", Ff0B32 = "s_ff0_i32_b32", Ff0B64 = "s_ff0_i32_b64",
        Ff1B32 = "s_ff1_i32_b32", Ff1B64 = "s_ff1_i32_b64", FlbitB32 = "s_flbit_i32_b32", FlbitB64 = "s_flbit_i32_b64",
        FlbitI32 = "s_flbit_i32", FlbitI64 = "s_flbit_i32_i64", SextI8 = "s_sext_i32_i8", SextI16 = "s_sext_i32_i16",
        Bitset0B32 = "s_bitset0_b32", Bitset0B64 = "s_bitset0_b64", Bitset1B32 = "s_bitset1_b32", Bitset1B64 = "s_bitset1_b64",
        GetPc = "s_getpc_b64", SetPc = "s_setpc_b64", SwapPc = "s_swappc_b64", CallB64 = "s_call_b64",
        QuadmaskB32 = "s_quadmask_b32", QuadmaskB64 = "s_quadmask_b64", MovrelsB32 = "s_movrels_b32", MovrelsB64 = "s_movrels_b64",
        MovreldB32 = "s_movreld_b32", MovreldB64 = "s_movreld_b64", AbsI32 = "s_abs_i32", BitreplicateB64 = "s_bitreplicate_b64_b32",
        AddU32 = "s_add_u32", SubU32 = "s_sub_u32", AddI32 = "s_add_i32", SubI32 = "s_sub_i32", AddcU32 = "s_addc_u32", SubbU32 = "s_subb_u32",
        MinI32 = "s_min_i32", MinU32 = "s_min_u32", MaxI32 = "s_max_i32", MaxU32 = "s_max_u32", CselectB32 = "s_cselect_b32", CselectB64 = "s_cselect_b64",
        LshlB32 = "s_lshl_b32", LshlB64 = "s_lshl_b64", LshrB32 = "s_lshr_b32", LshrB64 = "s_lshr_b64", AshrI32 = "s_ashr_i32", AshrI64 = "s_ashr_i64",
        BfmB32 = "s_bfm_b32", BfmB64 = "s_bfm_b64", MulI32 = "s_mul_i32", BfeU32 = "s_bfe_u32", BfeI32 = "s_bfe_i32", BfeU64 = "s_bfe_u64", BfeI64 = "s_bfe_i64",
        AbsdiffI32 = "s_absdiff_i32", Lshl1AddU32 = "s_lshl1_add_u32", Lshl2AddU32 = "s_lshl2_add_u32", Lshl3AddU32 = "s_lshl3_add_u32", Lshl4AddU32 = "s_lshl4_add_u32",
        PackLl = "s_pack_ll_b32_b16", PackLh = "s_pack_lh_b32_b16", PackHh = "s_pack_hh_b32_b16", PackHl = "s_pack_hl_b32_b16", MulHiU32 = "s_mul_hi_u32", MulHiI32 = "s_mul_hi_i32",
        MovkI32 = "s_movk_i32", CmovkI32 = "s_cmovk_i32", AddkI32 = "s_addk_i32", MulkI32 = "s_mulk_i32",
        CmpkEqI32 = "s_cmpk_eq_i32", CmpkLgI32 = "s_cmpk_lg_i32", CmpkGtI32 = "s_cmpk_gt_i32", CmpkGeI32 = "s_cmpk_ge_i32", CmpkLtI32 = "s_cmpk_lt_i32", CmpkLeI32 = "s_cmpk_le_i32",
        CmpkEqU32 = "s_cmpk_eq_u32", CmpkLgU32 = "s_cmpk_lg_u32", CmpkGtU32 = "s_cmpk_gt_u32", CmpkGeU32 = "s_cmpk_ge_u32", CmpkLtU32 = "s_cmpk_lt_u32", CmpkLeU32 = "s_cmpk_le_u32",
        CmpEqI32 = "s_cmp_eq_i32", CmpLgI32 = "s_cmp_lg_i32", CmpGtI32 = "s_cmp_gt_i32", CmpGeI32 = "s_cmp_ge_i32", CmpLtI32 = "s_cmp_lt_i32", CmpLeI32 = "s_cmp_le_i32",
        CmpEqU32 = "s_cmp_eq_u32", CmpLgU32 = "s_cmp_lg_u32", CmpGtU32 = "s_cmp_gt_u32", CmpGeU32 = "s_cmp_ge_u32", CmpLtU32 = "s_cmp_lt_u32", CmpLeU32 = "s_cmp_le_u32",
        CmpEqU64 = "s_cmp_eq_u64", CmpLgU64 = "s_cmp_lg_u64", Bitcmp0B32 = "s_bitcmp0_b32", Bitcmp1B32 = "s_bitcmp1_b32", Bitcmp0B64 = "s_bitcmp0_b64", Bitcmp1B64 = "s_bitcmp1_b64",
        GetregB32 = "s_getreg_b32", SetregB32 = "s_setreg_b32", SetregImm32B32 = "s_setreg_imm32_b32",
        RoundMode = "s_round_mode", DenormMode = "s_denorm_mode", Version = "s_version",
        Memtime = "s_memtime", Memrealtime = "s_memrealtime", Movrelsd2B32 = "s_movrelsd_2_b32",
        SendmsgRtnB32 = "s_sendmsg_rtn_b32", SendmsgRtnB64 = "s_sendmsg_rtn_b64",
    }
}

ops! {
    /// Vector ALU operations (VOP1, VOP2, VOP3, VOP3P, with their DPP/SDWA forms).
    VOp {
        MovB32 = "v_mov_b32", CndmaskB32 = "v_cndmask_b32", ReadfirstlaneB32 = "v_readfirstlane_b32", ReadlaneB32 = "v_readlane_b32", WritelaneB32 = "v_writelane_b32",
        AddF32 = "v_add_f32", SubF32 = "v_sub_f32", SubrevF32 = "v_subrev_f32", MulF32 = "v_mul_f32", MulLegacyF32 = "v_mul_legacy_f32",
        MinF32 = "v_min_f32", MaxF32 = "v_max_f32", MacF32 = "v_mac_f32", FmacF32 = "v_fmac_f32", FmacLegacyF32 = "v_fmac_legacy_f32", MadF32 = "v_mad_f32", FmaF32 = "v_fma_f32", FmaLegacyF32 = "v_fma_legacy_f32",
        MadmkF32 = "v_madmk_f32", MadakF32 = "v_madak_f32", FmamkF32 = "v_fmamk_f32", FmaakF32 = "v_fmaak_f32", LdexpF32 = "v_ldexp_f32",
        MulI32I24 = "v_mul_i32_i24", MulHiI32I24 = "v_mul_hi_i32_i24", MulU32U24 = "v_mul_u32_u24", MulHiU32U24 = "v_mul_hi_u32_u24",
        MinI32 = "v_min_i32", MaxI32 = "v_max_i32", MinU32 = "v_min_u32", MaxU32 = "v_max_u32",
        LshrrevB32 = "v_lshrrev_b32", AshrrevI32 = "v_ashrrev_i32", LshlrevB32 = "v_lshlrev_b32", AndB32 = "v_and_b32", OrB32 = "v_or_b32", XorB32 = "v_xor_b32", XnorB32 = "v_xnor_b32", NotB32 = "v_not_b32",
        AddNcU32 = "v_add_nc_u32", SubNcU32 = "v_sub_nc_u32", SubrevNcU32 = "v_subrev_nc_u32", AddNcI32 = "v_add_nc_i32", SubNcI32 = "v_sub_nc_i32",
        AddCoU32 = "v_add_co_u32", SubCoU32 = "v_sub_co_u32", SubrevCoU32 = "v_subrev_co_u32", AddCoCiU32 = "v_add_co_ci_u32", SubCoCiU32 = "v_sub_co_ci_u32", SubrevCoCiU32 = "v_subrev_co_ci_u32",
        CvtF32I32 = "v_cvt_f32_i32", CvtF32U32 = "v_cvt_f32_u32", CvtU32F32 = "v_cvt_u32_f32", CvtI32F32 = "v_cvt_i32_f32", CvtF16F32 = "v_cvt_f16_f32", CvtF32F16 = "v_cvt_f32_f16",
        CvtRpiI32F32 = "v_cvt_rpi_i32_f32", CvtFlrI32F32 = "v_cvt_flr_i32_f32", CvtOffF32I4 = "v_cvt_off_f32_i4", CvtF32F64 = "v_cvt_f32_f64", CvtF64F32 = "v_cvt_f64_f32",
        CvtF32Ubyte0 = "v_cvt_f32_ubyte0", CvtF32Ubyte1 = "v_cvt_f32_ubyte1", CvtF32Ubyte2 = "v_cvt_f32_ubyte2", CvtF32Ubyte3 = "v_cvt_f32_ubyte3",
        CvtU32F64 = "v_cvt_u32_f64", CvtI32F64 = "v_cvt_i32_f64", CvtF64I32 = "v_cvt_f64_i32", CvtF64U32 = "v_cvt_f64_u32",
        CvtF16U16 = "v_cvt_f16_u16", CvtF16I16 = "v_cvt_f16_i16", CvtU16F16 = "v_cvt_u16_f16", CvtI16F16 = "v_cvt_i16_f16",
        FractF32 = "v_fract_f32", TruncF32 = "v_trunc_f32", CeilF32 = "v_ceil_f32", RndneF32 = "v_rndne_f32", FloorF32 = "v_floor_f32",
        ExpF32 = "v_exp_f32", LogF32 = "v_log_f32", RcpF32 = "v_rcp_f32", RcpIflagF32 = "v_rcp_iflag_f32", RsqF32 = "v_rsq_f32", SqrtF32 = "v_sqrt_f32", SinF32 = "v_sin_f32", CosF32 = "v_cos_f32",
        RcpF64 = "v_rcp_f64", RsqF64 = "v_rsq_f64", SqrtF64 = "v_sqrt_f64", TruncF64 = "v_trunc_f64", CeilF64 = "v_ceil_f64", RndneF64 = "v_rndne_f64", FloorF64 = "v_floor_f64", FractF64 = "v_fract_f64",
        FrexpExpI32F64 = "v_frexp_exp_i32_f64", FrexpMantF64 = "v_frexp_mant_f64", FrexpExpI32F32 = "v_frexp_exp_i32_f32", FrexpMantF32 = "v_frexp_mant_f32",
        BfrevB32 = "v_bfrev_b32", FfbhU32 = "v_ffbh_u32", FfblB32 = "v_ffbl_b32", FfbhI32 = "v_ffbh_i32",
        AddF64 = "v_add_f64", MulF64 = "v_mul_f64", MinF64 = "v_min_f64", MaxF64 = "v_max_f64", FmaF64 = "v_fma_f64", LdexpF64 = "v_ldexp_f64",
        DivScaleF32 = "v_div_scale_f32", DivScaleF64 = "v_div_scale_f64", DivFmasF32 = "v_div_fmas_f32", DivFmasF64 = "v_div_fmas_f64", DivFixupF32 = "v_div_fixup_f32", DivFixupF64 = "v_div_fixup_f64",
        TrigPreopF64 = "v_trig_preop_f64",
        MadU32U24 = "v_mad_u32_u24", MadI32I24 = "v_mad_i32_i24", BfeU32 = "v_bfe_u32", BfeI32 = "v_bfe_i32", BfiB32 = "v_bfi_b32", BfmB32 = "v_bfm_b32",
        AlignbitB32 = "v_alignbit_b32", AlignbyteB32 = "v_alignbyte_b32",
        Min3F32 = "v_min3_f32", Min3I32 = "v_min3_i32", Min3U32 = "v_min3_u32", Max3F32 = "v_max3_f32", Max3I32 = "v_max3_i32", Max3U32 = "v_max3_u32",
        Med3F32 = "v_med3_f32", Med3I32 = "v_med3_i32", Med3U32 = "v_med3_u32",
        SadU8 = "v_sad_u8", SadHiU8 = "v_sad_hi_u8", SadU16 = "v_sad_u16", SadU32 = "v_sad_u32", MsadU8 = "v_msad_u8", LerpU8 = "v_lerp_u8",
        MulLoU32 = "v_mul_lo_u32", MulHiU32 = "v_mul_hi_u32", MulHiI32 = "v_mul_hi_i32", MadU64U32 = "v_mad_u64_u32", MadI64I32 = "v_mad_i64_i32",
        LshlrevB64 = "v_lshlrev_b64", LshrrevB64 = "v_lshrrev_b64", AshrrevI64 = "v_ashrrev_i64",
        XadU32 = "v_xad_u32", LshlAddU32 = "v_lshl_add_u32", AddLshlU32 = "v_add_lshl_u32", Add3U32 = "v_add3_u32", LshlOrB32 = "v_lshl_or_b32", AndOrB32 = "v_and_or_b32", Or3B32 = "v_or3_b32", Xor3B32 = "v_xor3_b32",
        PermB32 = "v_perm_b32", BcntU32B32 = "v_bcnt_u32_b32", MbcntLoU32B32 = "v_mbcnt_lo_u32_b32", MbcntHiU32B32 = "v_mbcnt_hi_u32_b32",
        CvtPkrtzF16F32 = "v_cvt_pkrtz_f16_f32", CvtPkU16U32 = "v_cvt_pk_u16_u32", CvtPkI16I32 = "v_cvt_pk_i16_i32", CvtPkU8F32 = "v_cvt_pk_u8_f32",
        CvtPknormI16F32 = "v_cvt_pknorm_i16_f32", CvtPknormU16F32 = "v_cvt_pknorm_u16_f32", PackB32F16 = "v_pack_b32_f16",
        AddF16 = "v_add_f16", SubF16 = "v_sub_f16", SubrevF16 = "v_subrev_f16", MulF16 = "v_mul_f16", FmacF16 = "v_fmac_f16", FmaF16 = "v_fma_f16", MinF16 = "v_min_f16", MaxF16 = "v_max_f16", LdexpF16 = "v_ldexp_f16",
        FmamkF16 = "v_fmamk_f16", FmaakF16 = "v_fmaak_f16",
        SqrtF16 = "v_sqrt_f16", RcpF16 = "v_rcp_f16", RsqF16 = "v_rsq_f16", LogF16 = "v_log_f16", ExpF16 = "v_exp_f16", FloorF16 = "v_floor_f16", CeilF16 = "v_ceil_f16", TruncF16 = "v_trunc_f16", RndneF16 = "v_rndne_f16", FractF16 = "v_fract_f16",
        SinF16 = "v_sin_f16", CosF16 = "v_cos_f16", FrexpMantF16 = "v_frexp_mant_f16", FrexpExpI16F16 = "v_frexp_exp_i16_f16",
        Min3F16 = "v_min3_f16", Max3F16 = "v_max3_f16", Med3F16 = "v_med3_f16", DivFixupF16 = "v_div_fixup_f16",
        AddNcU16 = "v_add_nc_u16", SubNcU16 = "v_sub_nc_u16", AddNcI16 = "v_add_nc_i16", SubNcI16 = "v_sub_nc_i16", MulLoU16 = "v_mul_lo_u16",
        LshlrevB16 = "v_lshlrev_b16", LshrrevB16 = "v_lshrrev_b16", AshrrevI16 = "v_ashrrev_i16",
        MinI16 = "v_min_i16", MaxI16 = "v_max_i16", MinU16 = "v_min_u16", MaxU16 = "v_max_u16",
        Min3I16 = "v_min3_i16", Max3I16 = "v_max3_i16", Med3I16 = "v_med3_i16", Min3U16 = "v_min3_u16", Max3U16 = "v_max3_u16", Med3U16 = "v_med3_u16",
        MadU16 = "v_mad_u16", MadI16 = "v_mad_i16", MadU32U16 = "v_mad_u32_u16", MadI32I16 = "v_mad_i32_i16",
        PkAddF16 = "v_pk_add_f16", PkMulF16 = "v_pk_mul_f16", PkFmaF16 = "v_pk_fma_f16", PkFmacF16 = "v_pk_fmac_f16", PkMinF16 = "v_pk_min_f16", PkMaxF16 = "v_pk_max_f16",
        PkAddU16 = "v_pk_add_u16", PkAddI16 = "v_pk_add_i16", PkSubU16 = "v_pk_sub_u16", PkSubI16 = "v_pk_sub_i16", PkMulLoU16 = "v_pk_mul_lo_u16",
        PkLshlrevB16 = "v_pk_lshlrev_b16", PkLshrrevB16 = "v_pk_lshrrev_b16", PkAshrrevI16 = "v_pk_ashrrev_i16",
        PkMinI16 = "v_pk_min_i16", PkMaxI16 = "v_pk_max_i16", PkMinU16 = "v_pk_min_u16", PkMaxU16 = "v_pk_max_u16", PkMadU16 = "v_pk_mad_u16", PkMadI16 = "v_pk_mad_i16",
        FmaMixF32 = "v_fma_mix_f32", FmaMixloF16 = "v_fma_mixlo_f16", FmaMixhiF16 = "v_fma_mixhi_f16",
        Dot2F32F16 = "v_dot2_f32_f16", Dot2I32I16 = "v_dot2_i32_i16", Dot2U32U16 = "v_dot2_u32_u16", Dot4I32I8 = "v_dot4_i32_i8", Dot4U32U8 = "v_dot4_u32_u8",
        Dot8I32I4 = "v_dot8_i32_i4", Dot8U32U4 = "v_dot8_u32_u4", Dot2cF32F16 = "v_dot2c_f32_f16", Dot4cI32I8 = "v_dot4c_i32_i8",
        Permlane16B32 = "v_permlane16_b32", Permlanex16B32 = "v_permlanex16_b32",
        MovrelsB32 = "v_movrels_b32", MovreldB32 = "v_movreld_b32", MovrelsdB32 = "v_movrelsd_b32", Movrelsd2B32 = "v_movrelsd_2_b32", SwapB32 = "v_swap_b32", SwaprelB32 = "v_swaprel_b32",
        Nop = "v_nop", Pipeflush = "v_pipeflush", Clrexcp = "v_clrexcp",
        CubeidF32 = "v_cubeid_f32", CubescF32 = "v_cubesc_f32", CubetcF32 = "v_cubetc_f32", CubemaF32 = "v_cubema_f32",
        CvtNormI16F16 = "v_cvt_norm_i16_f16", CvtNormU16F16 = "v_cvt_norm_u16_f16", CvtPknormI16F16 = "v_cvt_pknorm_i16_f16", CvtPknormU16F16 = "v_cvt_pknorm_u16_f16",
        SatPkU8I16 = "v_sat_pk_u8_i16", QsadPkU16U8 = "v_qsad_pk_u16_u8", MqsadPkU16U8 = "v_mqsad_pk_u16_u8", MqsadU32U8 = "v_mqsad_u32_u8",
        MullitF32 = "v_mullit_f32",
        MaxminF32 = "v_maxmin_f32", MinmaxF32 = "v_minmax_f32", MaxminI32 = "v_maxmin_i32", MinmaxI32 = "v_minmax_i32",
        MaxminU32 = "v_maxmin_u32", MinmaxU32 = "v_minmax_u32", MaxminF16 = "v_maxmin_f16", MinmaxF16 = "v_minmax_f16",
        AndB16 = "v_and_b16", OrB16 = "v_or_b16", XorB16 = "v_xor_b16", NotB16 = "v_not_b16", CndmaskB16 = "v_cndmask_b16",
        Permlane64B32 = "v_permlane64_b32",
        CvtI32I16 = "v_cvt_i32_i16", CvtU32U16 = "v_cvt_u32_u16", MovB16 = "v_mov_b16", CvtPkI16F32 = "v_cvt_pk_i16_f32",
        CvtPkU16F32 = "v_cvt_pk_u16_f32", Dot2F16F16 = "v_dot2_f16_f16",
        WmmaF32F16 = "v_wmma_f32_16x16x16_f16", WmmaF32Bf16 = "v_wmma_f32_16x16x16_bf16", WmmaF16F16 = "v_wmma_f16_16x16x16_f16",
        WmmaBf16Bf16 = "v_wmma_bf16_16x16x16_bf16", WmmaI32Iu8 = "v_wmma_i32_16x16x16_iu8", WmmaI32Iu4 = "v_wmma_i32_16x16x16_iu4",
        Dot2F32Bf16 = "v_dot2_f32_bf16", Dot2Bf16Bf16 = "v_dot2_bf16_bf16", Dot4I32Iu8 = "v_dot4_i32_iu8", Dot8I32Iu4 = "v_dot8_i32_iu4",
    }
}

/// The operation name without the encoding suffixes LLVM adds (`_e32`, `_e64`, `_dpp`,
/// `_sdwa`, and gfx11's `_e64_dpp`).
pub fn base_name(name: &str) -> &str {
    let mut n = name;
    for suffix in ["_dpp", "_sdwa", "_e32", "_e64"] {
        if let Some(b) = n.strip_suffix(suffix) {
            n = b;
        }
    }
    n
}

/// Resolves what an instruction does.
pub fn classify(inst: &Inst) -> Kind {
    if inst.format == Format::Vopd {
        return Kind::Vopd;
    }
    // Classifying goes by name (string matching); a kernel repeats few mnemonics, so each
    // thread remembers what each opcode-table entry's name in each format and generation is.
    type Key = (rdna_isa::Generation, usize, usize, Format);
    thread_local! {
        static KNOWN: std::cell::RefCell<rustc_hash::FxHashMap<Key, Kind>> = Default::default();
    }
    let key = (inst.gen, inst.entry.name.as_ptr() as usize, inst.entry.name.len(), inst.format);
    if let Some(k) = KNOWN.with(|m| m.borrow().get(&key).copied()) {
        return k;
    }
    // gfx11 swapped the operands of the LDS compare-store (DATA0 is the new value): CmpStore.
    let k = classify_in(inst.gen, base_name(inst.entry.name), inst.format);
    KNOWN.with(|m| m.borrow_mut().insert(key, k));
    k
}

/// What an operation (by name without encoding suffix) does in a generation.
pub fn classify_in(gen: rdna_isa::Generation, base: &str, format: Format) -> Kind {
    let k = classify_base(gen, base, format);
    // gfx11's VOP3P with DPP (v_fma_mix*_e64_dpp, v_dot2_f32_f16_e64_dpp) is decoded but its DPP
    // dword is not wired into the VALU yet: refused rather than run without its lane selection.
    if matches!(format, Format::Vop3pDpp16 | Format::Vop3pDpp8) && !matches!(k, Kind::Invalid(_)) {
        return Kind::Unsupported("VOP3P with DPP is not emulated yet");
    }
    // VGPR-indexed moves with DPP or SDWA: what the lane permutation or selection does to an
    // indexed register is not modelled (running them as plain moves would silently ignore it).
    if let Kind::Valu(VOp::MovrelsB32 | VOp::MovreldB32 | VOp::MovrelsdB32 | VOp::Movrelsd2B32 | VOp::SwaprelB32) = k {
        if format.is_dpp16() || format.is_dpp8() || format.is_sdwa() {
            return Kind::Unsupported("DPP and SDWA forms of VGPR-indexed moves are not emulated");
        }
    }
    k
}

fn classify_base(gen: rdna_isa::Generation, base: &str, format: Format) -> Kind {
    if gen == rdna_isa::Generation::Gfx11 {
        if base.starts_with("ds_cmpstore") {
            let x2 = base.ends_with("64");
            let op = if base.ends_with("_f32") || base.ends_with("_f64") { Atomic::FCmpSwap } else { Atomic::CmpSwap };
            return Kind::Ds(DsKind::CmpStore { op, x2, rtn: base.contains("_rtn") });
        }
        if base == "s_sendmsg" {
            return Kind::Sendmsg;
        }
        return classify_name(&gfx11_to_gfx10(base), format);
    }
    classify_name(base, format)
}

/// The gfx10 name of a gfx11 operation that behaves the same (gfx11 renamed most memory
/// operations and a few ALU ones); names gfx11 added are returned as they are.
pub fn gfx11_to_gfx10(n: &str) -> String {
    const EXACT: &[(&str, &str)] = &[
        ("s_and_not1_b32", "s_andn2_b32"),
        ("s_and_not1_b64", "s_andn2_b64"),
        ("s_or_not1_b32", "s_orn2_b32"),
        ("s_or_not1_b64", "s_orn2_b64"),
        ("s_and_not1_saveexec_b32", "s_andn2_saveexec_b32"),
        ("s_and_not1_saveexec_b64", "s_andn2_saveexec_b64"),
        ("s_or_not1_saveexec_b32", "s_orn2_saveexec_b32"),
        ("s_or_not1_saveexec_b64", "s_orn2_saveexec_b64"),
        ("s_and_not0_saveexec_b32", "s_andn1_saveexec_b32"),
        ("s_and_not0_saveexec_b64", "s_andn1_saveexec_b64"),
        ("s_or_not0_saveexec_b32", "s_orn1_saveexec_b32"),
        ("s_or_not0_saveexec_b64", "s_orn1_saveexec_b64"),
        ("s_and_not0_wrexec_b32", "s_andn1_wrexec_b32"),
        ("s_and_not0_wrexec_b64", "s_andn1_wrexec_b64"),
        ("s_and_not1_wrexec_b32", "s_andn2_wrexec_b32"),
        ("s_and_not1_wrexec_b64", "s_andn2_wrexec_b64"),
        ("s_ctz_i32_b32", "s_ff1_i32_b32"),
        ("s_ctz_i32_b64", "s_ff1_i32_b64"),
        ("s_clz_i32_u32", "s_flbit_i32_b32"),
        ("s_clz_i32_u64", "s_flbit_i32_b64"),
        ("s_cls_i32", "s_flbit_i32"),
        ("s_cls_i32_i64", "s_flbit_i32_i64"),
        ("s_delay_alu", "s_nop"),
        ("s_set_inst_prefetch_distance", "s_nop"),
        ("v_ctz_i32_b32", "v_ffbl_b32"),
        ("v_clz_i32_u32", "v_ffbh_u32"),
        ("v_cls_i32", "v_ffbh_i32"),
        ("v_cvt_pk_rtz_f16_f32", "v_cvt_pkrtz_f16_f32"),
        ("v_cvt_pk_norm_i16_f32", "v_cvt_pknorm_i16_f32"),
        ("v_cvt_pk_norm_u16_f32", "v_cvt_pknorm_u16_f32"),
        ("v_cvt_pk_norm_i16_f16", "v_cvt_pknorm_i16_f16"),
        ("v_cvt_pk_norm_u16_f16", "v_cvt_pknorm_u16_f16"),
        ("v_mul_dx9_zero_f32", "v_mul_legacy_f32"),
        ("v_fma_dx9_zero_f32", "v_fma_legacy_f32"),
        ("v_fmac_dx9_zero_f32", "v_fmac_legacy_f32"),
        ("v_dot2acc_f32_f16", "v_dot2c_f32_f16"),
        ("ds_load_addtid_b32", "ds_read_addtid_b32"),
        ("ds_store_addtid_b32", "ds_write_addtid_b32"),
        ("v_cvt_floor_i32_f32", "v_cvt_flr_i32_f32"),
        ("v_cvt_nearest_i32_f32", "v_cvt_rpi_i32_f32"),
        ("global_load_addtid_b32", "global_load_dword_addtid"),
        ("global_store_addtid_b32", "global_store_dword_addtid"),
        ("s_wait_event", "s_nop"),
    ];
    // buffer_load_d16_format_x (gfx11) is buffer_load_format_d16_x (gfx10).
    for (g11, g10) in [("_d16_hi_format_", "_format_d16_hi_"), ("_d16_format_", "_format_d16_")] {
        if n.contains(g11) {
            return n.replacen(g11, g10, 1);
        }
    }
    if let Some((_, g10)) = EXACT.iter().find(|(g11, _)| *g11 == n) {
        return g10.to_string();
    }
    // Sizes and sub-dword shapes of memory operations.
    const SHAPES: &[(&str, &str)] = &[
        ("b32", "dword"),
        ("b64", "dwordx2"),
        ("b96", "dwordx3"),
        ("b128", "dwordx4"),
        ("b256", "dwordx8"),
        ("b512", "dwordx16"),
        ("u8", "ubyte"),
        ("i8", "sbyte"),
        ("u16", "ushort"),
        ("i16", "sshort"),
        ("d16_b16", "short_d16"),
        ("d16_hi_b16", "short_d16_hi"),
        ("d16_u8", "ubyte_d16"),
        ("d16_hi_u8", "ubyte_d16_hi"),
        ("d16_i8", "sbyte_d16"),
        ("d16_hi_i8", "sbyte_d16_hi"),
    ];
    const STORE_SHAPES: &[(&str, &str)] = &[
        ("b8", "byte"),
        ("b16", "short"),
        ("d16_hi_b8", "byte_d16_hi"),
        ("d16_hi_b16", "short_d16_hi"),
        ("b32", "dword"),
        ("b64", "dwordx2"),
        ("b96", "dwordx3"),
        ("b128", "dwordx4"),
    ];
    for seg in ["global_", "flat_", "scratch_", "buffer_", "s_", "s_buffer_"] {
        if let Some(rest) = n.strip_prefix(seg) {
            if let Some(shape) = rest.strip_prefix("load_") {
                if let Some((_, g10)) = SHAPES.iter().find(|(a, _)| *a == shape) {
                    return format!("{seg}load_{g10}");
                }
            }
            if let Some(shape) = rest.strip_prefix("store_") {
                if let Some((_, g10)) = STORE_SHAPES.iter().find(|(a, _)| *a == shape) {
                    return format!("{seg}store_{g10}");
                }
            }
            if let Some(a) = rest.strip_prefix("atomic_") {
                let (op, ty) = a.rsplit_once('_').unwrap_or((a, ""));
                let x2 = if ty.ends_with("64") { "_x2" } else { "" };
                let g10 = match (op, ty.as_bytes().first()) {
                    ("min", Some(b'i')) => "smin",
                    ("max", Some(b'i')) => "smax",
                    ("min", Some(b'u')) => "umin",
                    ("max", Some(b'u')) => "umax",
                    ("min", Some(b'f')) => "fmin",
                    ("max", Some(b'f')) => "fmax",
                    ("cmpswap", Some(b'f')) => "fcmpswap",
                    ("add", Some(b'f')) => "fadd",
                    (o, _) => o,
                };
                return format!("{seg}atomic_{g10}{x2}");
            }
        }
    }
    if let Some(rest) = n.strip_prefix("ds_") {
        let r = rest
            .replace("load_2addr_stride64_", "read2st64_")
            .replace("load_2addr_", "read2_")
            .replace("store_2addr_stride64_", "write2st64_")
            .replace("store_2addr_", "write2_")
            .replace("storexchg_2addr_stride64_rtn_", "wrxchg2st64_rtn_")
            .replace("storexchg_2addr_rtn_", "wrxchg2_rtn_")
            .replace("storexchg_rtn_", "wrxchg_rtn_");
        let r = if let Some(x) = r.strip_prefix("load_") { format!("read_{x}") } else if let Some(x) = r.strip_prefix("store_") { format!("write_{x}") } else { r };
        // gfx11 puts d16 in the middle (ds_load_u8_d16, ds_store_b8_d16_hi): the gfx10 spelling.
        return format!("ds_{r}");
    }
    n.to_string()
}

/// Resolves an operation by name (without encoding suffix) and format.
pub fn classify_name(n: &str, format: Format) -> Kind {
    use Format as F;
    match format {
        F::Sop1 | F::Sop2 | F::Sopk | F::Sopc | F::Sopp => scalar(n),
        F::Smem => smem(n),
        F::Ds => ds(n),
        F::Flat | F::Global | F::Scratch | F::Mubuf | F::Mtbuf => mem(n),
        F::Mimg => Kind::Unsupported("image instructions are not emulated (compute kernels without images only)"),
        F::Exp => Kind::Unsupported("export is a graphics-pipeline instruction"),
        F::Vintrp => Kind::Unsupported("parameter interpolation is a graphics-pipeline instruction"),
        _ => valu(n),
    }
}

fn scalar(n: &str) -> Kind {
    match n {
        "s_nop" | "s_waitcnt" | "s_waitcnt_vscnt" | "s_waitcnt_vmcnt" | "s_waitcnt_expcnt" | "s_waitcnt_lgkmcnt"
        | "s_waitcnt_depctr" | "s_clause" | "s_inst_prefetch" | "s_icache_inv" | "s_dcache_inv" | "s_gl1_inv"
        | "s_sleep" | "s_setprio" | "s_code_end" | "s_ttracedata" | "s_ttracedata_imm" | "s_incperflevel"
        | "s_decperflevel" | "s_wait_idle" | "s_setkill" | "s_wakeup" | "s_atc_probe" | "s_atc_probe_buffer" => Kind::Nop,
        "s_endpgm" | "s_endpgm_saved" => Kind::EndPgm,
        "s_barrier" => Kind::Barrier,
        "s_branch" => Kind::Branch(BranchIf::Always),
        "s_cbranch_scc0" => Kind::Branch(BranchIf::Scc0),
        "s_cbranch_scc1" => Kind::Branch(BranchIf::Scc1),
        "s_cbranch_vccz" => Kind::Branch(BranchIf::Vccz),
        "s_cbranch_vccnz" => Kind::Branch(BranchIf::Vccnz),
        "s_cbranch_execz" => Kind::Branch(BranchIf::Execz),
        "s_cbranch_execnz" => Kind::Branch(BranchIf::Execnz),
        "s_sendmsg" | "s_sendmsghalt" => Kind::Unsupported("s_sendmsg has no meaning for a compute dispatch here"),
        "s_trap" => Kind::Unsupported("s_trap: the kernel raised a trap"),
        "s_sethalt" => Kind::Unsupported("s_sethalt halts the wave"),
        _ => {
            if let Some(op) = Salu::from_name(n) {
                return Kind::Salu(op);
            }
            // s_<logic>_saveexec_b32/b64, s_andn1_wrexec_b32/b64, s_<logic>_b32/b64
            let parts: Vec<&str> = n.split('_').collect();
            match parts.as_slice() {
                ["s", l, "saveexec", _] => Logic::from(l).map(|op| Kind::SaveExec { op, wrexec: false }),
                ["s", l, "wrexec", _] => Logic::from(l).map(|op| Kind::SaveExec { op, wrexec: true }),
                _ => None,
            }
            .or_else(|| logic_salu(n))
            .unwrap_or(Kind::Unsupported("scalar instruction not emulated"))
        }
    }
}

/// `s_and_b32`, `s_orn2_b64` and the other bitwise SALU operations.
fn logic_salu(n: &str) -> Option<Kind> {
    let rest = n.strip_prefix("s_")?;
    let (l, w) = rest.rsplit_once('_')?;
    let op = Logic::from(l)?;
    let wide = match w {
        "b32" => false,
        "b64" => true,
        _ => return None,
    };
    Some(Kind::SLogic { op, wide })
}

fn smem(n: &str) -> Kind {
    let (buffer, rest) = match n.strip_prefix("s_buffer_load_") {
        Some(r) => (true, r),
        None => match n.strip_prefix("s_load_") {
            Some(r) => (false, r),
            None => {
                return match n {
                    "s_dcache_inv" | "s_gl1_inv" | "s_dcache_wb" | "s_atc_probe" | "s_atc_probe_buffer" => Kind::Nop,
                    "s_memtime" | "s_memrealtime" => Kind::Salu(if n == "s_memtime" { Salu::Memtime } else { Salu::Memrealtime }),
                    _ => Kind::Unsupported("scalar memory instruction not emulated"),
                }
            }
        },
    };
    let dwords = match rest {
        "dword" => 1,
        "dwordx2" => 2,
        "dwordx4" => 4,
        "dwordx8" => 8,
        "dwordx16" => 16,
        _ => return Kind::Unsupported("scalar load form not emulated"),
    };
    Kind::Smem(Smem { dwords, buffer })
}

fn atomic_op(s: &str) -> Option<Atomic> {
    Some(match s {
        "swap" | "wrxchg" => Atomic::Swap,
        "cmpswap" | "cmpst" => Atomic::CmpSwap,
        "add" => Atomic::Add,
        "sub" => Atomic::Sub,
        "rsub" => Atomic::Rsub,
        "smin" => Atomic::SMin,
        "umin" => Atomic::UMin,
        "smax" => Atomic::SMax,
        "umax" => Atomic::UMax,
        "and" => Atomic::And,
        "or" => Atomic::Or,
        "xor" => Atomic::Xor,
        "inc" => Atomic::Inc,
        "dec" => Atomic::Dec,
        "fmin" => Atomic::FMin,
        "fmax" => Atomic::FMax,
        "fcmpswap" => Atomic::FCmpSwap,
        "fadd" => Atomic::FAdd,
        "csub" => Atomic::CSub,
        "mskor" => Atomic::Mskor,
        _ => return None,
    })
}

/// Load/store data shapes shared by FLAT/GLOBAL/SCRATCH/MUBUF names.
fn load_shape(s: &str) -> Option<(u8, bool, bool, bool)> {
    Some(match s {
        "ubyte" => (1, false, false, false),
        "sbyte" => (1, true, false, false),
        "ushort" => (2, false, false, false),
        "sshort" => (2, true, false, false),
        "dword" => (4, false, false, false),
        "dwordx2" => (8, false, false, false),
        "dwordx3" => (12, false, false, false),
        "dwordx4" => (16, false, false, false),
        "ubyte_d16" => (1, false, true, false),
        "ubyte_d16_hi" => (1, false, true, true),
        "sbyte_d16" => (1, true, true, false),
        "sbyte_d16_hi" => (1, true, true, true),
        "short_d16" => (2, false, true, false),
        "short_d16_hi" => (2, false, true, true),
        _ => return None,
    })
}

fn mem(n: &str) -> Kind {
    let rest = n
        .strip_prefix("flat_")
        .or_else(|| n.strip_prefix("global_"))
        .or_else(|| n.strip_prefix("scratch_"))
        .or_else(|| n.strip_prefix("buffer_"))
        .or_else(|| n.strip_prefix("tbuffer_"))
        .unwrap_or(n);
    for (prefix, store) in [("load_format_", false), ("store_format_", true)] {
        if let Some(f) = rest.strip_prefix(prefix) {
            let (f, d16, hi) = match f.strip_prefix("d16_hi_") {
                Some(f) => (f, true, true),
                None => match f.strip_prefix("d16_") {
                    Some(f) => (f, true, false),
                    None => (f, false, false),
                },
            };
            let comps = match f {
                "x" => 1,
                "xy" => 2,
                "xyz" => 3,
                "xyzw" => 4,
                _ => return Kind::Unsupported("buffer format access not emulated"),
            };
            return Kind::Mem(MemKind::Format { store, comps, d16, hi });
        }
    }
    if matches!(rest, "gl0_inv" | "gl1_inv") {
        return Kind::Nop;
    }
    if rest.starts_with("load_lds_") {
        return Kind::Unsupported("buffer loads into LDS are not emulated");
    }
    match rest {
        "load_dword_addtid" => return Kind::Mem(MemKind::Addtid { store: false }),
        "store_dword_addtid" => return Kind::Mem(MemKind::Addtid { store: true }),
        _ => {}
    }
    if let Some(s) = rest.strip_prefix("load_") {
        if let Some((bytes, sext, d16, hi)) = load_shape(s) {
            return Kind::Mem(MemKind::Load { bytes, sext, d16, hi });
        }
    }
    if let Some(s) = rest.strip_prefix("store_") {
        let (bytes, hi) = match s {
            "byte" => (1, false),
            "byte_d16_hi" => (1, true),
            "short" => (2, false),
            "short_d16_hi" => (2, true),
            "dword" => (4, false),
            "dwordx2" => (8, false),
            "dwordx3" => (12, false),
            "dwordx4" => (16, false),
            _ => return Kind::Unsupported("store form not emulated"),
        };
        return Kind::Mem(MemKind::Store { bytes, hi });
    }
    if let Some(s) = rest.strip_prefix("atomic_") {
        let (s, x2) = match s.strip_suffix("_x2") {
            Some(s) => (s, true),
            None => (s, false),
        };
        if let Some(op) = atomic_op(s) {
            return Kind::Mem(MemKind::Atomic { op, x2 });
        }
    }
    Kind::Unsupported("vector memory form not emulated (format conversions, addtid)")
}

fn ds(n: &str) -> Kind {
    let Some(rest) = n.strip_prefix("ds_") else { return Kind::Unsupported("not a DS instruction") };
    let k = match rest {
        "nop" => DsKind::Nop,
        "swizzle_b32" => DsKind::Swizzle,
        "permute_b32" => DsKind::Permute,
        "bpermute_b32" => DsKind::Bpermute,
        "append" => DsKind::Append,
        "consume" => DsKind::Consume,
        "read_addtid_b32" => DsKind::ReadAddtid,
        "write_addtid_b32" => DsKind::WriteAddtid,
        "condxchg32_rtn_b64" => DsKind::Atomic { op: Atomic::CondXchg32, x2: true, rtn: true },
        "wrap_rtn_b32" => DsKind::Atomic { op: Atomic::Wrap, x2: false, rtn: true },
        "read_b32" => DsKind::Read { bytes: 4, sext: false, d16: false, hi: false },
        "read_b64" => DsKind::Read { bytes: 8, sext: false, d16: false, hi: false },
        "read_b96" => DsKind::Read { bytes: 12, sext: false, d16: false, hi: false },
        "read_b128" => DsKind::Read { bytes: 16, sext: false, d16: false, hi: false },
        "read_u8" => DsKind::Read { bytes: 1, sext: false, d16: false, hi: false },
        "read_i8" => DsKind::Read { bytes: 1, sext: true, d16: false, hi: false },
        "read_u16" => DsKind::Read { bytes: 2, sext: false, d16: false, hi: false },
        "read_i16" => DsKind::Read { bytes: 2, sext: true, d16: false, hi: false },
        "read_u8_d16" => DsKind::Read { bytes: 1, sext: false, d16: true, hi: false },
        "read_u8_d16_hi" => DsKind::Read { bytes: 1, sext: false, d16: true, hi: true },
        "read_i8_d16" => DsKind::Read { bytes: 1, sext: true, d16: true, hi: false },
        "read_i8_d16_hi" => DsKind::Read { bytes: 1, sext: true, d16: true, hi: true },
        "read_u16_d16" => DsKind::Read { bytes: 2, sext: false, d16: true, hi: false },
        "read_u16_d16_hi" => DsKind::Read { bytes: 2, sext: false, d16: true, hi: true },
        "write_b8" => DsKind::Write { bytes: 1, hi: false },
        "write_b8_d16_hi" => DsKind::Write { bytes: 1, hi: true },
        "write_b16" => DsKind::Write { bytes: 2, hi: false },
        "write_b16_d16_hi" => DsKind::Write { bytes: 2, hi: true },
        "write_b32" => DsKind::Write { bytes: 4, hi: false },
        "write_b64" => DsKind::Write { bytes: 8, hi: false },
        "write_b96" => DsKind::Write { bytes: 12, hi: false },
        "write_b128" => DsKind::Write { bytes: 16, hi: false },
        "read2_b32" => DsKind::Read2 { bytes: 4, st64: false },
        "read2_b64" => DsKind::Read2 { bytes: 8, st64: false },
        "read2st64_b32" => DsKind::Read2 { bytes: 4, st64: true },
        "read2st64_b64" => DsKind::Read2 { bytes: 8, st64: true },
        "write2_b32" => DsKind::Write2 { bytes: 4, st64: false },
        "write2_b64" => DsKind::Write2 { bytes: 8, st64: false },
        "write2st64_b32" => DsKind::Write2 { bytes: 4, st64: true },
        "write2st64_b64" => DsKind::Write2 { bytes: 8, st64: true },
        "wrxchg2_rtn_b32" => DsKind::Xchg2 { bytes: 4, st64: false },
        "wrxchg2_rtn_b64" => DsKind::Xchg2 { bytes: 8, st64: false },
        "wrxchg2st64_rtn_b32" => DsKind::Xchg2 { bytes: 4, st64: true },
        "wrxchg2st64_rtn_b64" => DsKind::Xchg2 { bytes: 8, st64: true },
        _ => {
            // ds_<op>[_rtn]_<type>
            let (body, ty) = match rest.rsplit_once('_') {
                Some(x) => x,
                None => return Kind::Unsupported("DS form not emulated"),
            };
            let (body, rtn) = match body.strip_suffix("_rtn") {
                Some(b) => (b, true),
                None => (body, false),
            };
            let x2 = ty.ends_with("64");
            let float = ty.starts_with('f');
            let op = match (body, ty.as_bytes().first()) {
                ("min", Some(b'i')) => Atomic::SMin,
                ("max", Some(b'i')) => Atomic::SMax,
                ("min", Some(b'u')) => Atomic::UMin,
                ("max", Some(b'u')) => Atomic::UMax,
                ("min", Some(b'f')) => Atomic::FMin,
                ("max", Some(b'f')) => Atomic::FMax,
                ("add", Some(b'f')) => Atomic::FAdd,
                ("cmpst", _) if float => Atomic::FCmpSwap,
                (b, _) => match atomic_op(b) {
                    Some(op) => op,
                    None => return Kind::Unsupported("DS form not emulated"),
                },
            };
            DsKind::Atomic { op, x2, rtn }
        }
    };
    Kind::Ds(k)
}

fn valu(n: &str) -> Kind {
    if let Some(op) = VOp::from_name(n) {
        return Kind::Valu(op);
    }
    // v_cmp[x]_<cond>_<type>, v_cmp[x]_class_<type>
    let (rest, x) = match n.strip_prefix("v_cmpx_") {
        Some(r) => (r, true),
        None => match n.strip_prefix("v_cmp_") {
            Some(r) => (r, false),
            None => return Kind::Unsupported("vector instruction not emulated"),
        },
    };
    let Some((cond, ty)) = rest.rsplit_once('_') else { return Kind::Unsupported("compare form not emulated") };
    let Some(ty) = Num::from(ty) else { return Kind::Unsupported("compare type not emulated") };
    if cond == "class" {
        return Kind::VcmpClass { ty, x };
    }
    let float = matches!(ty, Num::F16 | Num::F32 | Num::F64);
    match Cond::from(cond, float) {
        Some(cond) => Kind::Vcmp { ty, cond, x },
        None => Kind::Unsupported("compare condition not emulated"),
    }
}
