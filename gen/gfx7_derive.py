"""gfx6/gfx7 (GCN1, GCN2 and the PS4) tables, derived by assembling.

llvm-mc-19 cannot disassemble gfx6/gfx7 ("Disassembly not yet supported for subtarget"), so the
sweep of llvm_sweep.py does not apply. It does assemble them, so gfx600's and gfx700's tables are
derived (TARGET below is the one being built):

1. gfx803 is swept as usual: every opcode with its operand list and a sample text.
2. Each sample text (and, for gfx6/gfx7-only instructions, the text of a gfx8 instruction with the
   same operands under the gfx7 name, listed in GFX7_ONLY) is assembled with
   `llvm-mc-19 -mcpu=gfx700 -show-encoding` (or gfx600). What assembles is a gfx7 instruction; its bytes give
   the gfx7 format and opcode. What does not is not a gfx7 instruction.
3. VOP3 modifiers (clamp, omod, neg, abs) are kept only where the assembler takes them on that
   instruction (gfx7 has no integer clamp, for one); the rest are marked ignored.

The result is checked the other way round by crates/disasm/tests/gfx7_reassemble.rs: decoded
random encodings, printed, must assemble back to the same bytes.
"""

import os
import re
import subprocess
import sys

import llvm_sweep as S

# The gfx6/gfx7 target whose tables are being derived (set by generate()).
TARGET = "gfx700"

# gfx6/gfx7 names that gfx8 dropped or renamed, each with a gfx8 instruction of the same operand
# shape whose sample text, renamed, is assembled.
GFX7_ONLY = {
    "v_add_i32": "v_add_u32", "v_sub_i32": "v_sub_u32", "v_subrev_i32": "v_subrev_u32",
    "v_rcp_clamp_f32": "v_rcp_f32", "v_rcp_legacy_f32": "v_rcp_f32", "v_rsq_clamp_f32": "v_rsq_f32",
    "v_rsq_legacy_f32": "v_rsq_f32", "v_log_clamp_f32": "v_log_f32", "v_rcp_clamp_f64": "v_rcp_f64",
    "v_rsq_clamp_f64": "v_rsq_f64", "v_min_legacy_f32": "v_min_f32", "v_max_legacy_f32": "v_max_f32",
    "v_mac_legacy_f32": "v_mac_f32", "v_lshl_b32": "v_lshlrev_b32", "v_lshr_b32": "v_lshrrev_b32",
    "v_ashr_i32": "v_ashrrev_i32", "v_lshl_b64": "v_ldexp_f64", "v_lshr_b64": "v_ldexp_f64",
    "v_ashr_i64": "v_ldexp_f64", "v_mul_lo_i32": "v_mul_lo_u32", "v_mullit_f32": "v_mad_f32",
    "buffer_atomic_fcmpswap": "buffer_atomic_cmpswap", "buffer_atomic_fcmpswap_x2": "buffer_atomic_cmpswap_x2",
    "buffer_atomic_fmin": "buffer_atomic_smin", "buffer_atomic_fmin_x2": "buffer_atomic_smin_x2",
    "buffer_atomic_fmax": "buffer_atomic_smax", "buffer_atomic_fmax_x2": "buffer_atomic_smax_x2",
    "buffer_atomic_rsub": "buffer_atomic_sub", "buffer_atomic_rsub_x2": "buffer_atomic_sub_x2",
    "flat_atomic_fcmpswap": "flat_atomic_cmpswap", "flat_atomic_fcmpswap_x2": "flat_atomic_cmpswap_x2",
    "flat_atomic_fmin": "flat_atomic_smin", "flat_atomic_fmin_x2": "flat_atomic_smin_x2",
    "flat_atomic_fmax": "flat_atomic_smax", "flat_atomic_fmax_x2": "flat_atomic_smax_x2",
    "image_atomic_fcmpswap": "image_atomic_cmpswap", "image_atomic_fmin": "image_atomic_smin",
    "image_atomic_fmax": "image_atomic_smax", "image_atomic_rsub": "image_atomic_sub",
    "buffer_wbinvl1_sc": "buffer_wbinvl1",
}
for _c in ("f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"):
    for _t in ("f32", "f64"):
        GFX7_ONLY["v_cmps_%s_%s" % (_c, _t)] = "v_cmp_%s_%s" % (_c, _t)
        GFX7_ONLY["v_cmpsx_%s_%s" % (_c, _t)] = "v_cmpx_%s_%s" % (_c, _t)

V = S.V
# gfx7 layouts (public facts): SMRD is a 32-bit format (op 26:22, SDST 21:15, SBASE 14:9, imm 8,
# OFFSET 7:0; OFFSET 0xff without imm: a literal dword follows); VOP3's opcode is 9 bits at 25:17
# with clamp at bit 11; DS's opcode at 25:18 and gds at 17; MUBUF has addr64 (bit 15) and keeps slc
# at bit 54; MTBUF's opcode is 3 bits at 18:16; FLAT has no offset and no segment. Only name and
# opcode bits are used here (the tables are derived, not swept); the fields document the layout.
FORMATS_GFX7 = [
    S.Fmt("SOP2", 1, [(30, 2, 0b10)], [(23, 7)], []),
    S.Fmt("SOPK", 1, [(28, 4, 0b1011)], [(23, 5)], []),
    S.Fmt("SOP1", 1, [(23, 9, 0b101111101)], [(8, 8)], []),
    S.Fmt("SOPC", 1, [(23, 9, 0b101111110)], [(16, 7)], []),
    S.Fmt("SOPP", 1, [(23, 9, 0b101111111)], [(16, 7)], []),
    S.Fmt("SMEM", 1, [(27, 5, 0b11000)], [(22, 5)],
          [("sdata", 15, 7, "sreg7", V()), ("sbase", 9, 6, "sbase", V()), ("offset", 0, 8, "imm", V())]),
    S.Fmt("VOP1", 1, [(25, 7, 0b0111111)], [(9, 8)], []),
    S.Fmt("VOP2", 1, [(31, 1, 0)], [(25, 6)], []),
    S.Fmt("VOPC", 1, [(25, 7, 0b0111110)], [(17, 8)], []),
    S.Fmt("VOP3", 2, [(26, 6, 0b110100)], [(17, 9)], []),
    S.Fmt("DS", 2, [(26, 6, 0b110110)], [(18, 8)], []),
    S.Fmt("FLAT", 2, [(26, 6, 0b110111)], [(18, 7)], []),
    S.Fmt("MUBUF", 2, [(26, 6, 0b111000)], [(18, 7)], []),
    S.Fmt("MTBUF", 2, [(26, 6, 0b111010)], [(16, 3)], []),
    S.Fmt("MIMG", 2, [(26, 6, 0b111100)], [(18, 7)], []),
    S.Fmt("VINTRP", 1, [(26, 6, 0b110010)], [(16, 2)], []),
    S.Fmt("EXP", 2, [(26, 6, 0b111110)], [], []),
]
BY_NAME = {f.name: f for f in FORMATS_GFX7}


def classify(words):
    """The gfx7 format and opcode of an encoding."""
    w = words[0]
    if w >> 31 == 0:
        if w >> 25 == 0x3F:
            return "VOP1", (w >> 9) & 0xFF
        if w >> 25 == 0x3E:
            return "VOPC", (w >> 17) & 0xFF
        return "VOP2", (w >> 25) & 0x3F
    if w >> 30 == 0b10:
        top = w >> 23
        if top == 0x17D:
            return "SOP1", (w >> 8) & 0xFF
        if top == 0x17E:
            return "SOPC", (w >> 16) & 0x7F
        if top == 0x17F:
            return "SOPP", (w >> 16) & 0x7F
        if w >> 28 == 0b1011:
            return "SOPK", (w >> 23) & 0x1F
        return "SOP2", (w >> 23) & 0x7F
    if w >> 27 == 0b11000:
        return "SMEM", (w >> 22) & 0x1F
    top = w >> 26
    return {
        0b110100: ("VOP3", (w >> 17) & 0x1FF),
        0b110010: ("VINTRP", (w >> 16) & 3),
        0b111110: ("EXP", 0),
        0b110110: ("DS", (w >> 18) & 0xFF),
        0b110111: ("FLAT", (w >> 18) & 0x7F),
        0b111000: ("MUBUF", (w >> 18) & 0x7F),
        0b111010: ("MTBUF", (w >> 16) & 7),
        0b111100: ("MIMG", (w >> 18) & 0x7F),
    }.get(top, (None, None))


ENC_RE = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")
ERR_RE = re.compile(r"^<stdin>:(\d+):\d+: error:")


def assemble(lines, with_text=False):
    """Assemble each line for TARGET: its words (and the text llvm-mc-19 prints back), or None
    where llvm-mc-19 rejects it."""
    proc = subprocess.run([S.MC, "-arch=amdgcn", "-mcpu=" + TARGET, "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in map(ERR_RE.match, proc.stderr.splitlines()) if m}
    encs = [(m.group(1), m.group(2)) for m in map(ENC_RE.search, proc.stdout.splitlines()) if m]
    out, it = [], iter(encs)
    for i in range(len(lines)):
        if i in bad:
            out.append(None)
            continue
        text, enc = next(it)
        b = [int(x, 16) for x in enc.split(",")]
        b += [0] * (-len(b) % 4)
        words = [int.from_bytes(bytes(b[k:k + 4]), "little") for k in range(0, len(b), 4)]
        out.append((words, text) if with_text else words)
    return out


def clean(text):
    return re.sub(r"\s*/\*.*?\*/", "", text)


def rename(text, old, new):
    mnem, _, rest = text.partition(" ")
    for suffix in ("", "_e32", "_e64"):
        if mnem == old + suffix:
            return new + suffix + (" " + rest if rest else "")
    return None


def mask(lo, width):
    return ((1 << width) - 1) << lo


# Bits of each gfx7 format that no operand or modifier uses: the disassembler cannot show them.
RESERVED = {
    "VOP3": mask(12, 5),
    "DS": mask(16, 1),
    "MUBUF": mask(17, 1) | mask(25, 1) | mask(53, 1),
    # MTBUF's tfe (bit 55): llvm-mc-19 takes no `tfe` on gfx7 tbuffer instructions, so the text
    # cannot carry it.
    "MTBUF": mask(53, 1) | mask(55, 1),
    "FLAT": mask(0, 16) | mask(25, 1) | mask(48, 8) | mask(55, 1),
    "MIMG": mask(0, 8) | mask(58, 6),
    "EXP": mask(13, 13),
}


def derive(gfx8):
    """gfx7 entries per format from the gfx803 sweep: {format name: {opcode: entry}}."""
    by_name = {}
    for fname, entries in gfx8:
        for e in entries:
            by_name.setdefault(e["name"], (fname, e))
    cands = []  # (gfx7 name, gfx8 format, gfx8 entry, text); gfx7-only names first: they win a slot
    for new, old in GFX7_ONLY.items():
        for suffix in ("", "_e32", "_e64"):
            if old + suffix in by_name:
                f8, e = by_name[old + suffix]
                t = rename(clean(e["text"]), old, new)
                if t:
                    cands.append((new + suffix, f8, e, t))
    for fname, entries in gfx8:
        for e in entries:
            cands.append((e["name"], fname, e, clean(e["text"])))
    # gfx8's VOP3-only operations that gfx7 also has as VOP2/VOP1: their plain text assembles to
    # the short form; the _e64 spelling gives the VOP3 opcode.
    encs = assemble([t for _, _, _, t in cands], with_text=True)
    extra = []
    for (name, f8, e, t), r in zip(cands, encs):
        if r is not None and f8 == "VOP3" and classify(r[0])[0] != "VOP3" and not name.endswith("_e64"):
            extra.append((name + "_e64", f8, e, name + "_e64" + t[len(name):]))
    cands += extra
    encs += assemble([t for _, _, _, t in extra], with_text=True)
    table = {f.name: {} for f in FORMATS_GFX7}
    missing = []
    for (name, f8, e, t), r in zip(cands, encs):
        if r is None:
            if name in GFX7_ONLY or name.rsplit("_e", 1)[0] in GFX7_ONLY:
                missing.append(name)
            continue
        w, echoed = r
        f7, op = classify(w)
        if f7 is None or op in table[f7]:
            continue
        src = e
        if f7 in ("VOP1", "VOP2", "VOPC") and f8 == "VOP3":
            e = short_form(e, f7)
        # The mnemonic as llvm-mc-19 prints it back for gfx7 (with _e32/_e64 where it adds one).
        name = echoed.split()[0]
        n = dict(e, op=op, name=name, text=t, src=src, f8=f8)
        table[f7][op] = n
    # LLVM prints some VOP3 encodings without _e64 (v_nop), and that text assembles to the short
    # form: where a short form exists, the VOP3 entry is named with _e64, which forces VOP3.
    short = {n["name"].rsplit("_e32", 1)[0] for f in ("VOP1", "VOP2", "VOPC") for n in table[f].values()}
    for n in table["VOP3"].values():
        if not n["name"].endswith("_e64") and n["name"] in short:
            n["name"] += "_e64"
            n["text"] = n["name"] + n["text"][n["text"].find(" "):] if " " in n["text"] else n["name"]
    if missing:
        print(TARGET + ": gfx6/gfx7 names that did not assemble: " + " ".join(sorted(set(missing))), file=sys.stderr)
    return table


def short_form(e, f7):
    """A gfx8 VOP3 entry as the VOP1/VOP2 encoding gfx7 also has: SRC1 becomes the VGPR field VSRC1,
    or stays SRC1 where it is a scalar (v_readlane_b32's lane select: an 8-bit scalar source in
    bits 16:9)."""
    ops = []
    vclass = {}
    for k, (j, field, kind, cls, width, ty) in enumerate(e["operands"]):
        if field == "src1" and cls != "s":
            ops.append((j, "vsrc1", "vgpr", "v", width, "none"))
        else:
            ops.append((j, field, kind, cls, width, ty))
            if k in e.get("vclass", {}):
                vclass[len(ops) - 1] = e["vclass"][k]
    return dict(e, operands=ops, vclass=vclass, must_zero=0, ignored=0, sext=0)


def probe_vop3_modifiers(entries):
    """Which VOP3 modifiers llvm-mc-19 takes on each gfx7 instruction; the bits of the others are
    ignored (never printed)."""
    probes, keys = [], []
    for e in entries:
        t = e["text"]
        mnem, toks, mods = S.split_text(t)
        probes.append(t + " clamp")
        keys.append((e["op"], mask(11, 1)))
        probes.append(t + " mul:2")
        keys.append((e["op"], mask(59, 2)))
        for k, (j, field, kind, cls, width, ty) in enumerate(e["operands"]):
            if field not in ("src0", "src1", "src2"):
                continue
            i = {"src0": 0, "src1": 1, "src2": 2}[field]
            for form, bit in (("-%s", 61 + i), ("|%s|", 8 + i)):
                tk = list(toks)
                tk[j] = form % tk[j]
                probes.append(mnem + " " + ", ".join(tk) + (" " + mods if mods else ""))
                keys.append((e["op"], mask(bit, 1)))
    for (op, bits), w in zip(keys, assemble(probes)):
        if w is None:
            for e in entries:
                if e["op"] == op:
                    e["ignored"] |= bits


SAME_LAYOUT = ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "VOP1", "VOP2", "VOPC", "VINTRP", "EXP")


def gfx7_ignored(f7, e):
    """Bits the gfx7 printer leaves out for an entry: fields the instruction does not use and
    reserved bits. Formats laid out as on gfx8 keep what the gfx8 sweep measured."""
    if f7 in SAME_LAYOUT and e["f8"] == f7:
        return e["src"]["ignored"] & S.M64
    pos = {
        "vdst": {"VOP1": (17, 8), "VOP2": (17, 8), "VOP3": (0, 8)}.get(f7, (56, 8)), "sdst": (8, 7),
        "src0": (0, 9) if f7 in ("VOP1", "VOP2", "VOPC") else (32, 9), "src1": (41, 9), "src2": (50, 9),
        "vsrc1": (9, 8), "addr": (32, 8), "data0": (40, 8), "data1": (48, 8), "data": (40, 8),
        "vdata": (40, 8), "vaddr": (32, 8), "srsrc": (48, 5), "ssamp": (53, 5), "soffset": (56, 8),
        "sdata": (15, 7), "sbase": (9, 6), "offset": (0, 9),
    }
    fields = {
        "VOP1": ("vdst", "src0"), "VOP2": ("vdst", "src0", "vsrc1"), "VOPC": ("src0", "vsrc1"),
        "VOP3": ("vdst", "src0", "src1", "src2"), "SMEM": ("sdata", "sbase", "offset"),
        "DS": ("vdst", "addr", "data0", "data1"), "FLAT": ("vdst", "addr", "data"),
        # VADDR is printed from offen/idxen/addr64 (as `off` otherwise), never as a listed operand.
        "MUBUF": ("vdata", "srsrc", "soffset"), "MTBUF": ("vdata", "srsrc", "soffset"),
        "MIMG": ("vdata", "vaddr", "srsrc", "ssamp"),
    }[f7]
    have = {o[1] for o in e["operands"]}
    if f7 == "VOP2" and "src1" in have:
        have.add("vsrc1")  # v_readlane_b32's scalar lane select sits in the VSRC1 bits
    if not have and f7 in ("DS", "FLAT", "MUBUF", "MTBUF", "MIMG"):
        return mask(0, 18) | mask(32, 32) | RESERVED.get(f7, 0)  # no operands: only the opcode shows
    ig = RESERVED.get(f7, 0)
    for name in fields:
        if name not in have:
            ig |= mask(*pos[name])
    if f7 == "SMEM" and "offset" not in have:
        ig |= mask(0, 9)
    if f7 == "VOP3":
        has_sdst = "sdst" in have
        for i, name in enumerate(("src0", "src1", "src2")):
            if name not in have:
                ig |= mask(61 + i, 1) | (0 if has_sdst else mask(8 + i, 1))
    return ig


def symbol_names(gfx8_names, template):
    """Keep the gfx8 names (hwreg, sendmsg) that TARGET assembles."""
    lines = [template % n for n in gfx8_names if n]
    ok = {n for n, w in zip([n for n in gfx8_names if n], assemble(lines)) if w is not None}
    return [n if n in ok else "" for n in gfx8_names]


def generate(target):
    """The text of crates/isa/src/generated/<target>.rs (gfx600 or gfx700)."""
    global TARGET
    TARGET = target
    S.set_target("gfx803")
    gfx8 = []
    for fmt in S.formats_of("gfx9"):
        entries = S.sweep(fmt)
        if fmt.alt_prefix is not None:
            have = {e["op"] for e in entries}
            ops = fmt.opcodes if fmt.opcodes is not None else range(1 << sum(w for _, w in fmt.opbits))
            alt = S.Fmt(fmt.name, fmt.words, fmt.ident, fmt.opbits, fmt.fields, prefix=fmt.alt_prefix,
                        suffix=fmt.suffix, opcodes=[o for o in ops if o not in have])
            entries = entries + S.sweep(alt)
        if fmt.name in BY_NAME:  # SDWA, DPP, VOP3P, GLOBAL and SCRATCH have no gfx7 form
            gfx8.append((fmt.name, entries))
    table = derive(gfx8)
    all_entries = []
    for fmt in FORMATS_GFX7:
        entries = [table[fmt.name][op] for op in sorted(table[fmt.name])]
        for e in entries:
            same = fmt.name in SAME_LAYOUT and e["f8"] == fmt.name
            e["must_zero"] = e["src"]["must_zero"] & S.M64 if same else 0
            e["sext"] = 0
            e["ignored"] = gfx7_ignored(fmt.name, e)
        if fmt.name == "VOP3":
            probe_vop3_modifiers(entries)
        print("%-8s %-10s %4d opcodes" % (TARGET, fmt.name, len(entries)), file=sys.stderr)
        all_entries.append((fmt, entries))
    # MIMG shapes, MTBUF formats and symbol names: measured on gfx803 (same fields), then the
    # symbolic names gfx700 does not take are dropped.
    mimg = [e["src"] for f, es in all_entries if f.name == "MIMG" for e in es]
    S.GEN = "gfx9"
    shapes = S.emit_mimg_shapes(mimg)
    mtbuf = S.emit_mtbuf_formats()
    symbols = S.emit_symbol_tables()
    S.set_target(TARGET)
    symbols = restrict_symbols(symbols)
    text = S.emit(all_entries).replace(
        "from llvm-mc-19 -mcpu=" + TARGET, "from llvm-mc-19 -mcpu=%s (assembled) and -mcpu=gfx803 (swept)" % TARGET)
    text += mtbuf + symbols + shapes + "\n" + S.emit_table_set(all_entries)
    return text


def restrict_symbols(text):
    """Blank the hwreg/sendmsg names of the gfx803 symbol tables that TARGET does not assemble."""
    def names_of(table):
        m = re.search(r"pub static %s: \[&str; \d+\] = \[(.*?)\];" % table, text, re.S)
        return re.findall(r'"([^"]*)"', m.group(1))
    hw = symbol_names(names_of("HWREG_NAMES"), "s_getreg_b32 s1, hwreg(%s)")
    msg = symbol_names(names_of("SENDMSG_NAMES"), "s_sendmsg sendmsg(%s)")
    msg = [n if n else "" for n in msg]
    # Messages that need an operation: try with one.
    msg2 = symbol_names(names_of("SENDMSG_NAMES"), "s_sendmsg sendmsg(%s, 1)")
    msg = [a or b for a, b in zip(msg, msg2)]
    for table, vals in (("HWREG_NAMES", hw), ("SENDMSG_NAMES", msg)):
        m = re.search(r"(pub static %s: \[&str; (\d+)\] = \[)(.*?)(\];)" % table, text, re.S)
        body = "\n" + "".join("    " + " ".join(S.rust_str(n) + "," for n in vals[k:k + 4]) + "\n" for k in range(0, len(vals), 4))
        text = text[:m.start(3)] + body + text[m.end(3):]
    return text
