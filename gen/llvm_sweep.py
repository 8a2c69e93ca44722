#!/usr/bin/env python3
"""Generate rdna's ISA tables by sweeping llvm-mc-19 over each encoding format's opcode space.

Usage:
    python3 gen/llvm_sweep.py --mcpu gfx1030          # rewrite crates/isa/src/generated/gfx1030.rs
    python3 gen/llvm_sweep.py --check --mcpu gfx1030  # exit 1 if the checked-in file is stale
    python3 gen/llvm_sweep.py --all [--check]         # every swept target (SWEPT below)

How it works (the facts come from LLVM's disassembler, the method is ours):
  1. For every format (SOP1, VOP2, DS, ...) the field layout is written down below (bit ranges are
     public ISA facts). For every opcode value we build candidate encodings whose operand fields hold
     distinct register numbers (or zero), ask llvm-mc-19 to disassemble them, and keep the candidate with
     the most non-zero operand fields that LLVM accepts.
  2. Each operand field is then changed to a second value; the printed operand that changes is that
     field's operand, and its text gives the register class (v/s/ttmp) and width (v[16:17] = 2 dwords).
  3. Every other bit of the encoding is flipped one at a time: bits whose flip makes LLVM reject the
     word are recorded as must-be-zero bits for that opcode (LLVM's decoder checks them).
  4. Source fields that accept constants are probed with literals and inline constants to learn how
     LLVM prints constants for that operand (16-, 32- or 64-bit, integer or float).
The result is emitted as Rust tables consumed by rdna-isa / rdna-disasm.
"""
import os
import re
import subprocess
import sys
from itertools import product

MC = os.environ.get("LLVM_MC", "llvm-mc-19")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The targets that get a table of their own, and the encoding family whose layouts each uses. Other
# targets of a family share the table of the nearest swept one (rdna_isa::target).
SWEPT = {"gfx600": "gfx7", "gfx700": "gfx7", "gfx803": "gfx9", "gfx810": "gfx9", "gfx900": "gfx9", "gfx904": "gfx9",
         "gfx906": "gfx9", "gfx908": "gfx9", "gfx90a": "gfx9", "gfx942": "gfx9",
         "gfx1010": "gfx10", "gfx1011": "gfx10", "gfx1012": "gfx10", "gfx1030": "gfx10", "gfx1100": "gfx11", "gfx1150": "gfx11",
         "gfx1200": "gfx12"}
# The target being swept (set by main()): its llvm-mc name, its family and the file it writes.
MCPU, GEN, OUT = None, None, None


def set_target(mcpu):
    global MCPU, GEN, OUT
    MCPU, GEN = mcpu, SWEPT[mcpu]
    OUT = os.path.join(ROOT, "crates", "isa", "src", "generated", mcpu + ".rs")

# ---------------------------------------------------------------------------------------------
# Running llvm-mc on many encodings at once.
# ---------------------------------------------------------------------------------------------
ENC_RE = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]\s*$")
WARN_RE = re.compile(r"^<stdin>:(\d+):(\d+): warning: invalid instruction encoding")


def to_bytes(words):
    return b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in words)


# Each probe is framed as: s_nop 0x4d1, probe, six times s_nop 0x4d2. Whatever LLVM makes of a
# probe's left-over bytes (a MIMG with NSA dwords may swallow four dwords) ends inside the closing
# markers, so each probe's output starts right after its own opening marker.
START = [0xBF8004D1]
START_TEXT = "s_nop 0x4d1"
MARKER = [0xBF8004D2]
MARKER_TEXT = "s_nop 0x4d2"
END_MARKERS = 6
LINES_PER_PROBE = END_MARKERS + 2


def run_mc(encodings, extra=(), mcpu=None):
    """Disassemble each encoding (a list of 32-bit words) on its own line.

    Returns for each one the text LLVM prints for its first instruction, or None when LLVM reports
    an invalid encoding at its first byte. A marker line follows every probe, so whatever LLVM makes
    of left-over bytes cannot shift the results."""
    results = []
    CHUNK = 20000
    for base in range(0, len(encodings), CHUNK):
        chunk = encodings[base:base + CHUNK]
        lines = []
        for e in chunk:
            lines.append(",".join("0x%02x" % b for b in to_bytes(START)))
            lines.append(",".join("0x%02x" % b for b in to_bytes(e)))
            lines.extend([",".join("0x%02x" % b for b in to_bytes(MARKER))] * END_MARKERS)
        proc = subprocess.run([MC, "-arch=amdgcn", "-mcpu=" + (mcpu or MCPU), "--disassemble", *extra],
                              input="\n".join(lines) + "\n", capture_output=True, text=True)
        bad = set()
        for line in proc.stderr.splitlines():
            m = WARN_RE.match(line)
            if m and m.group(2) == "1" and (int(m.group(1)) - 2) % LINES_PER_PROBE == 0:
                bad.add((int(m.group(1)) - 2) // LINES_PER_PROBE)
        groups, inside = [], False
        for line in proc.stdout.splitlines():
            t = line.strip()
            if not t or t == ".text":
                continue
            if t == START_TEXT:
                groups.append([])
                inside = True
            elif t == MARKER_TEXT:
                inside = False
            elif inside:
                groups[-1].append(t)
        if len(groups) != len(chunk):
            raise RuntimeError("llvm-mc output out of step (%d groups for %d probes)" % (len(groups), len(chunk)))
        for i, g in enumerate(groups):
            results.append(None if i in bad or not g else g[0])
    return results


# ---------------------------------------------------------------------------------------------
# Formats: bit layouts (public facts) and probe values.
# Field kinds:  vgpr = 8-bit VGPR number, src9 = 9-bit VALU source, ssrc8 = 8-bit scalar source,
#               sreg7 = 7-bit scalar register, sbase = SMEM base pair (register number / 2),
#               srsrc = buffer resource quad (register number / 4)
# ---------------------------------------------------------------------------------------------
class Fmt:
    def __init__(self, name, words, ident, opbits, fields, prefix=(), suffix=(), opcodes=None, alt_prefix=None):
        self.name, self.words, self.ident, self.opbits = name, words, ident, opbits
        self.alt_prefix = alt_prefix  # tried for opcodes LLVM rejects under `prefix`
        self.fields = fields          # list of (field, lo, width, kind, [probe values])
        self.prefix = prefix          # extra fixed-bit settings (lo, width, value)
        self.suffix = suffix          # extra words after the instruction (DPP/SDWA control words)
        self.opcodes = opcodes

    def encode(self, op, values, extra_bits=()):
        w = 0
        for lo, width, val in [*self.ident, *self.prefix]:
            w |= (val & ((1 << width) - 1)) << lo
        for (lo, width), part in zip(self.opbits, split_op(op, self.opbits)):
            w |= part << lo
        for (fname, lo, width, kind, _), v in zip(self.fields, values):
            w |= (v & ((1 << width) - 1)) << lo
        for lo, width, val in extra_bits:  # overrides whatever the prefix put there
            mask = ((1 << width) - 1) << lo
            w = (w & ~mask) | ((val << lo) & mask)
        return [(w >> (32 * i)) & 0xFFFFFFFF for i in range(self.words)] + list(self.suffix)


def split_op(op, opbits):
    parts, shift = [], 0
    for lo, width in opbits:
        parts.append((op >> shift) & ((1 << width) - 1))
        shift += width
    return parts


V = lambda *n: [x for x in n]  # noqa: E731
S9V = lambda *n: [256 + x for x in n]  # noqa: E731

FORMATS = [
    Fmt("SOP2", 1, [(30, 2, 0b10)], [(23, 7)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("ssrc0", 0, 8, "ssrc8", V(16, 20)), ("ssrc1", 8, 8, "ssrc8", V(24, 28))],
        opcodes=range(0, 0x60)),
    Fmt("SOPK", 1, [(28, 4, 0b1011)], [(23, 5)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("simm16", 0, 16, "imm", V(0x1234, 0x1235))],
        opcodes=range(0, 0x1D)),
    Fmt("SOP1", 1, [(23, 9, 0b101111101)], [(8, 8)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("ssrc0", 0, 8, "ssrc8", V(16, 20))]),
    Fmt("SOPC", 1, [(23, 9, 0b101111110)], [(16, 7)],
        [("ssrc0", 0, 8, "ssrc8", V(16, 20)), ("ssrc1", 8, 8, "ssrc8", V(24, 28))]),
    Fmt("SOPP", 1, [(23, 9, 0b101111111)], [(16, 7)],
        [("simm16", 0, 16, "imm", V(0x0003, 0x0005))]),
    Fmt("SMEM", 2, [(26, 6, 0b111101)], [(18, 8)],
        [("sdata", 6, 7, "sreg7", V(8, 12)), ("sbase", 0, 6, "sbase", V(2, 4)),
         ("offset", 32, 21, "imm", V(0x10, 0x14)), ("soffset", 57, 7, "sreg7", V(0x7D, 20))]),
    Fmt("VOP1", 1, [(25, 7, 0b0111111)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 0, 9, "src9", S9V(16, 20))]),
    Fmt("VOP2", 1, [(31, 1, 0)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 0, 9, "src9", S9V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        opcodes=range(0, 0x3E)),
    Fmt("VOPC", 1, [(25, 7, 0b0111110)], [(17, 8)],
        [("src0", 0, 9, "src9", S9V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))]),
    # The DPP16, DPP8 and SDWA forms of VOP1/VOP2/VOPC: src0 holds 0xFA / 0xE9 / 0xF9 and a second
    # dword carries the real src0 and the controls (held at identity values here; the printer spells
    # them out).
    Fmt("VOP1_DPP16", 2, [(25, 7, 0b0111111), (0, 9, 0xFA)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)]),
    Fmt("VOP2_DPP16", 2, [(31, 1, 0), (0, 9, 0xFA)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)], opcodes=range(0, 0x3E)),
    Fmt("VOP1_DPP8", 2, [(25, 7, 0b0111111), (0, 9, 0xE9)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 24, 0xFAC688)]),
    Fmt("VOP2_DPP8", 2, [(31, 1, 0), (0, 9, 0xE9)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 24, 0xFAC688)], opcodes=range(0, 0x3E)),
    Fmt("VOP1_SDWA", 2, [(25, 7, 0b0111111), (0, 9, 0xF9)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 3, 6), (48, 3, 6)]),
    Fmt("VOP2_SDWA", 2, [(31, 1, 0), (0, 9, 0xF9)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 3, 6), (48, 3, 6), (56, 3, 6)], opcodes=range(0, 0x3E)),
    Fmt("VOPC_SDWA", 2, [(25, 7, 0b0111110), (0, 9, 0xF9)], [(17, 8)],
        [("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(48, 3, 6), (56, 3, 6)]),
    Fmt("VOP3", 2, [(26, 6, 0b110101)], [(16, 10)],
        [("vdst", 0, 8, "vgpr", V(8, 12)), ("sdst", 8, 7, "sreg7", V(40, 44)),
         ("src0", 32, 9, "src9", S9V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))]),
    Fmt("VOP3P", 2, [(23, 9, 0b110011000)], [(16, 7)],
        [("vdst", 0, 8, "vgpr", V(8, 12)),
         ("src0", 32, 9, "src9", S9V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(59, 2, 0b11), (14, 1, 1)]),
    Fmt("DS", 2, [(26, 6, 0b110110)], [(18, 8)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data0", 40, 8, "vgpr", V(24, 28)), ("data1", 48, 8, "vgpr", V(32, 36))],
        alt_prefix=[(17, 1, 1)]),  # the GWS operations and ds_ordered_count exist only with gds
    Fmt("FLAT", 2, [(26, 6, 0b110111), (14, 2, 0)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7D, 0x7D))]),
    Fmt("SCRATCH", 2, [(26, 6, 0b110111), (14, 2, 1)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7D, 0x7D))]),
    Fmt("GLOBAL", 2, [(26, 6, 0b110111), (14, 2, 2)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7D, 0x7D))]),
    Fmt("MUBUF", 2, [(26, 6, 0b111000)], [(18, 8)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("soffset", 56, 8, "ssrc8", V(24, 28))]),
    # MIMG: the 8-bit opcode is split (bits 24:18 and bit 0). dmask, dim and the NSA count are held
    # fixed here (dmask 1, 2D, no NSA); mimg_shapes() sweeps them separately.
    Fmt("MIMG", 2, [(26, 6, 0b111100)], [(18, 7), (0, 1)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("ssamp", 53, 5, "srsrc", V(3, 4))],
        prefix=[(8, 4, 1), (3, 3, 1), (1, 2, 0)]),
    Fmt("VINTRP", 1, [(26, 6, 0b110010)], [(16, 2)],
        [("vdst", 18, 8, "vgpr", V(8, 12)), ("vsrc", 0, 8, "vgpr", V(1, 0))]),
    Fmt("EXP", 2, [(26, 6, 0b111110), (0, 4, 0xF)], [],
        [("vsrc0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 40, 8, "vgpr", V(24, 28)),
         ("vsrc2", 48, 8, "vgpr", V(32, 36)), ("vsrc3", 56, 8, "vgpr", V(40, 44))]),
    Fmt("MTBUF", 2, [(26, 6, 0b111010)], [(16, 3), (53, 1)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("soffset", 56, 8, "ssrc8", V(24, 28))],
        prefix=[(19, 7, 1)]),
]

# gfx11 (RDNA3): the same families with new opcode numbers, no SDWA, DPP for VOPC and VOP3 (a third
# dword), FLAT with a 13-bit offset and cache bits at 13..15, MUBUF/MTBUF with offen/idxen/tfe in the
# second dword, and m0/null swapped (null is 124, the probe value for "off").
FORMATS_GFX11 = [
    Fmt("SOP2", 1, [(30, 2, 0b10)], [(23, 7)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("ssrc0", 0, 8, "ssrc8", V(16, 20)), ("ssrc1", 8, 8, "ssrc8", V(24, 28))],
        opcodes=range(0, 0x60)),
    Fmt("SOPK", 1, [(28, 4, 0b1011)], [(23, 5)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("simm16", 0, 16, "imm", V(0x1234, 0x1235))],
        opcodes=range(0, 0x1D)),
    Fmt("SOP1", 1, [(23, 9, 0b101111101)], [(8, 8)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("ssrc0", 0, 8, "ssrc8", V(16, 20))]),
    Fmt("SOPC", 1, [(23, 9, 0b101111110)], [(16, 7)],
        [("ssrc0", 0, 8, "ssrc8", V(16, 20)), ("ssrc1", 8, 8, "ssrc8", V(24, 28))]),
    Fmt("SOPP", 1, [(23, 9, 0b101111111)], [(16, 7)],
        [("simm16", 0, 16, "imm", V(0x0003, 0x0005))]),
    Fmt("SMEM", 2, [(26, 6, 0b111101)], [(18, 8)],
        [("sdata", 6, 7, "sreg7", V(8, 12)), ("sbase", 0, 6, "sbase", V(2, 4)),
         ("offset", 32, 21, "imm", V(0x10, 0x14)), ("soffset", 57, 7, "sreg7", V(0x7C, 20))]),
    Fmt("VOP1", 1, [(25, 7, 0b0111111)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 0, 9, "src9", S9V(16, 20))]),
    Fmt("VOP2", 1, [(31, 1, 0)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 0, 9, "src9", S9V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        opcodes=range(0, 0x3E)),
    Fmt("VOPC", 1, [(25, 7, 0b0111110)], [(17, 8)],
        [("src0", 0, 9, "src9", S9V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))]),
    Fmt("VOP1_DPP16", 2, [(25, 7, 0b0111111), (0, 9, 0xFA)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)]),
    Fmt("VOP2_DPP16", 2, [(31, 1, 0), (0, 9, 0xFA)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)], opcodes=range(0, 0x3E)),
    Fmt("VOPC_DPP16", 2, [(25, 7, 0b0111110), (0, 9, 0xFA)], [(17, 8)],
        [("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)]),
    Fmt("VOP1_DPP8", 2, [(25, 7, 0b0111111), (0, 9, 0xE9)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 24, 0xFAC688)]),
    Fmt("VOP2_DPP8", 2, [(31, 1, 0), (0, 9, 0xE9)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 24, 0xFAC688)], opcodes=range(0, 0x3E)),
    Fmt("VOPC_DPP8", 2, [(25, 7, 0b0111110), (0, 9, 0xE9)], [(17, 8)],
        [("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 24, 0xFAC688)]),
    Fmt("VOP3", 2, [(26, 6, 0b110101)], [(16, 10)],
        [("vdst", 0, 8, "vgpr", V(8, 12)), ("sdst", 8, 7, "sreg7", V(40, 44)),
         ("src0", 32, 9, "src9", S9V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))]),
    # VOP3 with DPP: src0 holds 0xFA (DPP16) or 0xE9 (DPP8) and a third dword carries the real src0.
    Fmt("VOP3_DPP16", 3, [(26, 6, 0b110101), (32, 9, 0xFA)], [(16, 10)],
        [("vdst", 0, 8, "vgpr", V(8, 12)), ("sdst", 8, 7, "sreg7", V(40, 44)),
         ("src0", 64, 8, "vgpr", V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(72, 9, 0xE4), (88, 8, 0xFF)]),
    Fmt("VOP3_DPP8", 3, [(26, 6, 0b110101), (32, 9, 0xE9)], [(16, 10)],
        [("vdst", 0, 8, "vgpr", V(8, 12)), ("sdst", 8, 7, "sreg7", V(40, 44)),
         ("src0", 64, 8, "vgpr", V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(72, 24, 0xFAC688)]),
    Fmt("VOP3P", 2, [(23, 9, 0b110011000)], [(16, 7)],
        [("vdst", 0, 8, "vgpr", V(8, 12)),
         ("src0", 32, 9, "src9", S9V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(59, 2, 0b11), (14, 1, 1)]),
    # VOP3P with DPP: as VOP3's, src0 holds 0xFA / 0xE9 and a third dword the real src0.
    Fmt("VOP3P_DPP16", 3, [(23, 9, 0b110011000), (32, 9, 0xFA)], [(16, 7)],
        [("vdst", 0, 8, "vgpr", V(8, 12)),
         ("src0", 64, 8, "vgpr", V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(59, 2, 0b11), (14, 1, 1), (72, 9, 0xE4), (88, 8, 0xFF)]),
    Fmt("VOP3P_DPP8", 3, [(23, 9, 0b110011000), (32, 9, 0xE9)], [(16, 7)],
        [("vdst", 0, 8, "vgpr", V(8, 12)),
         ("src0", 64, 8, "vgpr", V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(59, 2, 0b11), (14, 1, 1), (72, 24, 0xFAC688)]),
    Fmt("DS", 2, [(26, 6, 0b110110)], [(18, 8)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data0", 40, 8, "vgpr", V(24, 28)), ("data1", 48, 8, "vgpr", V(32, 36))],
        alt_prefix=[(17, 1, 1)]),  # the GWS operations and ds_ordered_count exist only with gds
    Fmt("FLAT", 2, [(26, 6, 0b110111), (16, 2, 0)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7C, 0x7C))]),
    Fmt("SCRATCH", 2, [(26, 6, 0b110111), (16, 2, 1)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7C, 0x7C))],
        prefix=[(55, 1, 1)]),
    Fmt("GLOBAL", 2, [(26, 6, 0b110111), (16, 2, 2)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7C, 0x7C))]),
    Fmt("MUBUF", 2, [(26, 6, 0b111000)], [(18, 8)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("soffset", 56, 8, "ssrc8", V(24, 28))]),
    Fmt("MTBUF", 2, [(26, 6, 0b111010)], [(15, 4)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("soffset", 56, 8, "ssrc8", V(24, 28))],
        prefix=[(19, 7, 1)]),
    Fmt("EXP", 2, [(26, 6, 0b111110), (0, 4, 0xF)], [],
        [("vsrc0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 40, 8, "vgpr", V(24, 28)),
         ("vsrc2", 48, 8, "vgpr", V(32, 36)), ("vsrc3", 56, 8, "vgpr", V(40, 44))]),
    # Parameter interpolation (VINTERP: three VGPR sources, wait_exp) and LDS direct/parameter
    # loads (LDSDIR: attribute, channel and wait_vdst fields, printed by dedicated code).
    Fmt("VINTERP", 2, [(24, 8, 0xCD)], [(16, 7)],
        [("vdst", 0, 8, "vgpr", V(8, 12)), ("src0", 32, 9, "src9", S9V(16, 20)),
         ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))]),
    Fmt("LDSDIR", 1, [(24, 8, 0xCE)], [(20, 2)],
        [("vdst", 0, 8, "vgpr", V(8, 12))]),
    # gfx11 MIMG: an 8-bit opcode at 25:18, dim at 4:2, one NSA bit (bit 0: one more dword of up to
    # four addresses), SSAMP at 62:58. dmask 1, 2D, no NSA here; mimg_shapes() sweeps the rest.
    Fmt("MIMG", 2, [(26, 6, 0b111100)], [(18, 8)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("ssamp", 58, 5, "srsrc", V(3, 4))],
        prefix=[(8, 4, 1), (2, 3, 1), (0, 1, 0)]),
]

# gfx12 (RDNA4): gfx11's SOP/VOP/VOPD/VINTERP/DS/EXP layouts; SMEM's opcode at 18:13 with a 24-bit
# signed offset; 96-bit VBUFFER (MUBUF/MTBUF: SOFFSET 6:0, opcode 21:14 (MTBUF: 17:14 under 0b1000),
# VDATA, RSRC as a plain SGPR number at 47:41, the format at 61:55, offen/idxen at 62/63, VADDR at
# 71:64, a 24-bit offset at 95:72) and 96-bit VFLAT/VSCRATCH/VGLOBAL (SADDR 6:0, opcode 21:14,
# segment 25:24, VDST 39:32, DATA 62:55, ADDR 71:64, a 24-bit signed offset at 95:72).
# 96-bit VIMAGE (0b110100) and VSAMPLE (0b111001): dim 2:0, r128 4, d16 5, a16 6, opcode 21:14,
# dmask 25:22, VDATA 39:32, RSRC a 9-bit register field at 49:41, VSAMPLE's SAMP at 63:55, and the
# addresses in the third dword (VIMAGE's fifth in 63:56). Their tables are merged into one MIMG
# table, VSAMPLE's opcodes at 0x100 and up.
_GFX11_KEEP = ("SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "VOP1", "VOP2", "VOPC", "VOP1_DPP16", "VOP2_DPP16",
               "VOPC_DPP16", "VOP1_DPP8", "VOP2_DPP8", "VOPC_DPP8", "VOP3", "VOP3_DPP16", "VOP3_DPP8", "VOP3P",
               "VOP3P_DPP16", "VOP3P_DPP8", "DS", "EXP", "VINTERP", "LDSDIR")
FORMATS_GFX12 = [f for f in FORMATS_GFX11 if f.name in _GFX11_KEEP] + [
    Fmt("SMEM", 2, [(26, 6, 0b111101)], [(13, 6)],
        [("sdata", 6, 7, "sreg7", V(8, 12)), ("sbase", 0, 6, "sbase", V(2, 4)),
         ("offset", 32, 24, "imm", V(0x10, 0x14)), ("soffset", 57, 7, "sreg7", V(0x7C, 20))]),
    Fmt("MUBUF", 3, [(26, 6, 0b110001)], [(14, 8)],
        [("vdata", 32, 8, "vgpr", V(40, 44)), ("vaddr", 64, 8, "vgpr", V(16, 20)),
         ("srsrc", 41, 7, "sreg7", V(8, 12)), ("soffset", 0, 7, "sreg7", V(24, 28))],
        prefix=[(55, 7, 1)], opcodes=range(0, 0x80)),
    Fmt("MTBUF", 3, [(26, 6, 0b110001), (18, 4, 0b1000)], [(14, 4)],
        [("vdata", 32, 8, "vgpr", V(40, 44)), ("vaddr", 64, 8, "vgpr", V(16, 20)),
         ("srsrc", 41, 7, "sreg7", V(8, 12)), ("soffset", 0, 7, "sreg7", V(24, 28))],
        prefix=[(55, 7, 1)]),
    Fmt("FLAT", 3, [(26, 6, 0b111011), (24, 2, 0)], [(14, 8)],
        [("vdst", 32, 8, "vgpr", V(40, 44)), ("addr", 64, 8, "vgpr", V(16, 20)),
         ("data", 55, 8, "vgpr", V(24, 28)), ("saddr", 0, 7, "sreg7", V(0x7C, 0x7C))]),
    Fmt("SCRATCH", 3, [(26, 6, 0b111011), (24, 2, 1)], [(14, 8)],
        [("vdst", 32, 8, "vgpr", V(40, 44)), ("addr", 64, 8, "vgpr", V(16, 20)),
         ("data", 55, 8, "vgpr", V(24, 28)), ("saddr", 0, 7, "sreg7", V(0x7C, 0x7C))],
        prefix=[(49, 1, 1)]),
    Fmt("GLOBAL", 3, [(26, 6, 0b111011), (24, 2, 2)], [(14, 8)],
        [("vdst", 32, 8, "vgpr", V(40, 44)), ("addr", 64, 8, "vgpr", V(16, 20)),
         ("data", 55, 8, "vgpr", V(24, 28)), ("saddr", 0, 7, "sreg7", V(0x7C, 0x7C))]),
    Fmt("MIMG", 3, [(26, 6, 0b110100)], [(14, 8)],
        [("vdata", 32, 8, "vgpr", V(40, 44)), ("vaddr", 64, 8, "vgpr", V(16, 20)),
         ("srsrc", 41, 9, "sreg9", V(8, 12))],
        prefix=[(22, 4, 1), (0, 3, 0)]),
    Fmt("VSAMPLE", 3, [(26, 6, 0b111001)], [(14, 8)],
        [("vdata", 32, 8, "vgpr", V(40, 44)), ("vaddr", 64, 8, "vgpr", V(16, 20)),
         ("srsrc", 41, 9, "sreg9", V(8, 12)), ("ssamp", 55, 9, "sreg9", V(4, 8))],
        prefix=[(22, 4, 1), (0, 3, 0)]),
]
# The merged gfx12 image table: VIMAGE opcodes 0..0xff, VSAMPLE's at 0x100 + opcode.
VSAMPLE_BASE = 0x100

# gfx8 and gfx9 (GCN3, GCN5, CDNA1-3): the VOP and SOP layouts of gfx10, but VOP3 at 0b110100 (VOP3P
# at 0b110100111), SMEM at 0b110000 with glc 16 / imm 17 / soe 14, DS's opcode at 24:17, 7-bit FLAT,
# MUBUF and MIMG opcodes at 24:18, MTBUF's 4-bit opcode at 18:15 with dfmt/nfmt above it, VINTRP as
# a 32-bit format at 0b110101, EXP at 0b110001, DPP16 without DPP8, and 0x7f as FLAT's "off".
FORMATS_GFX9 = [
    Fmt("SOP2", 1, [(30, 2, 0b10)], [(23, 7)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("ssrc0", 0, 8, "ssrc8", V(16, 20)), ("ssrc1", 8, 8, "ssrc8", V(24, 28))],
        opcodes=range(0, 0x60)),
    Fmt("SOPK", 1, [(28, 4, 0b1011)], [(23, 5)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("simm16", 0, 16, "imm", V(0x1234, 0x1235))],
        opcodes=range(0, 0x1D)),
    Fmt("SOP1", 1, [(23, 9, 0b101111101)], [(8, 8)],
        [("sdst", 16, 7, "sreg7", V(8, 12)), ("ssrc0", 0, 8, "ssrc8", V(16, 20))]),
    Fmt("SOPC", 1, [(23, 9, 0b101111110)], [(16, 7)],
        [("ssrc0", 0, 8, "ssrc8", V(16, 20)), ("ssrc1", 8, 8, "ssrc8", V(24, 28))]),
    Fmt("SOPP", 1, [(23, 9, 0b101111111)], [(16, 7)],
        [("simm16", 0, 16, "imm", V(0x0003, 0x0005))]),
    Fmt("SMEM", 2, [(26, 6, 0b110000)], [(18, 8)],
        [("sdata", 6, 7, "sreg7", V(8, 12)), ("sbase", 0, 6, "sbase", V(2, 4)),
         ("offset", 32, 20, "imm", V(0x10, 0x14))],
        prefix=[(17, 1, 1)], alt_prefix=[(17, 1, 0)]),
    Fmt("VOP1", 1, [(25, 7, 0b0111111)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 0, 9, "src9", S9V(16, 20))]),
    Fmt("VOP2", 1, [(31, 1, 0)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 0, 9, "src9", S9V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        opcodes=range(0, 0x3E)),
    Fmt("VOPC", 1, [(25, 7, 0b0111110)], [(17, 8)],
        [("src0", 0, 9, "src9", S9V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))]),
    Fmt("VOP1_DPP16", 2, [(25, 7, 0b0111111), (0, 9, 0xFA)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)]),
    Fmt("VOP2_DPP16", 2, [(31, 1, 0), (0, 9, 0xFA)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 9, 0xE4), (56, 8, 0xFF)], opcodes=range(0, 0x3E)),
    Fmt("VOP1_SDWA", 2, [(25, 7, 0b0111111), (0, 9, 0xF9)], [(9, 8)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20))],
        prefix=[(40, 3, 6), (48, 3, 6)]),
    Fmt("VOP2_SDWA", 2, [(31, 1, 0), (0, 9, 0xF9)], [(25, 6)],
        [("vdst", 17, 8, "vgpr", V(8, 12)), ("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(40, 3, 6), (48, 3, 6), (56, 3, 6)], opcodes=range(0, 0x3E)),
    Fmt("VOPC_SDWA", 2, [(25, 7, 0b0111110), (0, 9, 0xF9)], [(17, 8)],
        [("src0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 9, 8, "vgpr", V(24, 28))],
        prefix=[(48, 3, 6), (56, 3, 6)]),
    Fmt("VOP3", 2, [(26, 6, 0b110100)], [(16, 10)],
        [("vdst", 0, 8, "vgpr", V(8, 12)), ("sdst", 8, 7, "sreg7", V(40, 44)),
         ("src0", 32, 9, "src9", S9V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))]),
    Fmt("VOP3P", 2, [(23, 9, 0b110100111)], [(16, 7)],
        [("vdst", 0, 8, "vgpr", V(8, 12)),
         ("src0", 32, 9, "src9", S9V(16, 20)), ("src1", 41, 9, "src9", S9V(24, 28)), ("src2", 50, 9, "src9", S9V(32, 36))],
        prefix=[(59, 2, 0b11), (14, 1, 1)]),
    Fmt("DS", 2, [(26, 6, 0b110110)], [(17, 8)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data0", 40, 8, "vgpr", V(24, 28)), ("data1", 48, 8, "vgpr", V(32, 36))],
        alt_prefix=[(16, 1, 1)]),  # the GWS operations and ds_ordered_count exist only with gds
    Fmt("FLAT", 2, [(26, 6, 0b110111), (14, 2, 0)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7F, 0x7F))]),
    Fmt("SCRATCH", 2, [(26, 6, 0b110111), (14, 2, 1)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7F, 0x7F))]),
    Fmt("GLOBAL", 2, [(26, 6, 0b110111), (14, 2, 2)], [(18, 7)],
        [("vdst", 56, 8, "vgpr", V(40, 44)), ("addr", 32, 8, "vgpr", V(16, 20)),
         ("data", 40, 8, "vgpr", V(24, 28)), ("saddr", 48, 7, "sreg7", V(0x7F, 0x7F))]),
    Fmt("MUBUF", 2, [(26, 6, 0b111000)], [(18, 7)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("soffset", 56, 8, "ssrc8", V(24, 28))],
        alt_prefix=[(16, 1, 1)]),  # buffer_store_lds_dword exists only with the lds bit
    Fmt("MTBUF", 2, [(26, 6, 0b111010)], [(15, 4)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("soffset", 56, 8, "ssrc8", V(24, 28))],
        prefix=[(19, 4, 1)]),
    Fmt("MIMG", 2, [(26, 6, 0b111100)], [(18, 7)],
        [("vdata", 40, 8, "vgpr", V(40, 44)), ("vaddr", 32, 8, "vgpr", V(16, 20)),
         ("srsrc", 48, 5, "srsrc", V(2, 3)), ("ssamp", 53, 5, "srsrc", V(3, 4))],
        prefix=[(8, 4, 1)]),
    Fmt("VINTRP", 1, [(26, 6, 0b110101)], [(16, 2)],
        [("vdst", 18, 8, "vgpr", V(8, 12)), ("vsrc", 0, 8, "vgpr", V(1, 0))]),
    Fmt("EXP", 2, [(26, 6, 0b110001), (0, 4, 0xF)], [],
        [("vsrc0", 32, 8, "vgpr", V(16, 20)), ("vsrc1", 40, 8, "vgpr", V(24, 28)),
         ("vsrc2", 48, 8, "vgpr", V(32, 36)), ("vsrc3", 56, 8, "vgpr", V(40, 44))]),
]

# Where each generation keeps the MIMG fields that decide how many registers LLVM prints:
# (lo, width) of dim and of the NSA count, and the a16, d16 and tfe bits.
MIMG_BITS = {
    "gfx9": dict(dim=(3, 0), nsa=(1, 0), a16=15, d16=63, tfe=16),
    "gfx10": dict(dim=(3, 3), nsa=(1, 2), a16=62, d16=63, tfe=16),
    "gfx11": dict(dim=(2, 3), nsa=(0, 1), a16=16, d16=17, tfe=53),
    "gfx12": dict(dim=(0, 3), nsa=(0, 0), a16=6, d16=5, tfe=55),  # VSAMPLE's tfe: bit 3
}

REG_RE = re.compile(r"^(v|s|ttmp|a)(\d+)$|^(v|s|ttmp|a)\[(\d+):(\d+)\]$")
# A true16 VGPR half (gfx11's v_mov_b16): v1.h is encoded as register 129 (bit 7: the high half).
REG16_RE = re.compile(r"^v(\d+)\.([hl])$")


def parse_reg(tok):
    m16 = REG16_RE.match(tok)
    if m16:
        return "v16", int(m16.group(1)) + (128 if m16.group(2) == "h" else 0), 1
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(1):
        return m.group(1), int(m.group(2)), 1
    return m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1


def split_top(text, sep=", "):
    """Split on sep outside parentheses and brackets."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if text.startswith("/*", i):  # LLVM's /*...*/ annotations stay with their operand
            end = text.find("*/", i)
            end = len(text) if end < 0 else end + 2
            cur += text[i:end]
            i = end
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            out.append(cur)
            cur = ""
            i += len(sep)
            continue
        cur += c
        i += 1
    out.append(cur)
    return out


def split_text(text):
    """mnemonic, operand tokens, trailing modifier text."""
    parts = text.split(None, 1)
    mnem = parts[0]
    if len(parts) == 1:
        return mnem, [], ""
    ops = split_top(parts[1])
    last = split_top(ops[-1], " ")
    ops[-1] = last[0]
    mods = " ".join(last[1:])
    return mnem, ops, mods


def sweep(fmt):
    opcodes = fmt.opcodes if fmt.opcodes is not None else range(1 << sum(w for _, w in fmt.opbits))
    nf = len(fmt.fields)
    # Stage 1: candidate baselines: every subset of operand fields set to zero.
    masks = sorted(product([1, 0], repeat=nf), key=lambda m: -sum(m))
    cands = []
    for op in opcodes:
        for m in masks:
            vals = [f[4][0] if keep else 0 for f, keep in zip(fmt.fields, m)]
            cands.append((op, m, vals))
    res = run_mc([fmt.encode(op, vals) for op, m, vals in cands])
    base = {}
    for (op, m, vals), r in zip(cands, res):
        if r is not None and op not in base:
            base[op] = (m, vals, r)
    # A probe register of the wrong class shows as an "Invalid register" comment: retry those
    # opcodes with scalar registers in the source fields.
    SGPR_ALT = {"src9": (40, 44), "ssrc8": (40, 44), "vgpr": None}
    retry = []
    for op, (m, vals, text) in base.items():
        if "/*Invalid register" not in text:
            continue
        srcs = [i for i, f in enumerate(fmt.fields) if f[3] in ("src9",) and m[i]]
        for choice in product([0, 1], repeat=len(srcs)):
            if not any(choice):
                continue
            v = list(vals)
            for i, c in zip(srcs, choice):
                if c:
                    v[i] = SGPR_ALT[fmt.fields[i][3]][0]
            retry.append((op, m, v))
    for (op, m, vals), r in zip(retry, run_mc([fmt.encode(op, v) for op, m, v in retry])):
        if r is not None and "/*Invalid register" not in r and "/*Invalid register" in base[op][2]:
            base[op] = (m, vals, r)
    # Stage 2: per opcode, alternative field values and bit flips.
    fixed_bits = set()
    for lo, width, _ in fmt.ident + list(fmt.prefix):
        fixed_bits.update(range(lo, lo + width))
    for lo, width in fmt.opbits:
        fixed_bits.update(range(lo, lo + width))
    for fname, lo, width, kind, _ in fmt.fields:
        if fname == "saddr":
            fixed_bits.update(range(lo, lo + width))
    probes, keys = [], []
    for op, (m, vals, text) in base.items():
        for i, f in enumerate(fmt.fields):
            if m[i]:
                alt = list(vals)
                alt[i] = f[4][1] if vals[i] != 40 else 44
                probes.append(fmt.encode(op, alt))
                keys.append((op, "alt", i))
        for bit in range(32 * fmt.words):
            if bit in fixed_bits:
                continue
            enc = fmt.encode(op, vals)
            enc[bit // 32] ^= 1 << (bit % 32)
            probes.append(enc)
            keys.append((op, "flip", bit))
        for i, f in enumerate(fmt.fields):
            # SDWA sources become scalar sources (constants included) with their S0/S1 bit set.
            sbit = {"src0": 55, "vsrc1": 63}.get(f[0]) if fmt.name.endswith("_SDWA") else None
            if sbit is not None and m[i]:
                for ic in (0xF0, 0xF8):
                    alt = list(vals)
                    alt[i] = ic
                    probes.append(fmt.encode(op, alt, extra_bits=[(sbit, 1, 1)]))
                    keys.append((op, "ic%02x" % ic, i))
            if f[3] in ("src9", "ssrc8") and m[i]:
                for lit in (0x12345678, 0x3FF00000, 0xFFFF8000):
                    alt = list(vals)
                    alt[i] = 0xFF
                    probes.append(fmt.encode(op, alt) + [lit])
                    keys.append((op, "lit%08x" % lit, i))
                for ic in (0xF0, 0xF8):
                    alt = list(vals)
                    alt[i] = ic
                    probes.append(fmt.encode(op, alt))
                    keys.append((op, "ic%02x" % ic, i))
    SIMM_VALUES = (0, 3, 0x41, 0xFFF0, 0x1234)
    for op, (m, vals, text) in base.items():
        for i, f in enumerate(fmt.fields):
            if f[0] == "simm16":
                for v in SIMM_VALUES:
                    alt = list(vals)
                    alt[i] = v
                    probes.append(fmt.encode(op, alt) + [0x11223344])
                    keys.append((op, "simm%04x" % v, i))
    pres = run_mc(probes)
    info = {op: {"alt": {}, "flip": {}, "imm": {}} for op in base}
    for (op, kind, arg), r in zip(keys, pres):
        if kind == "alt":
            info[op]["alt"][arg] = r
        elif kind == "flip":
            info[op]["flip"][arg] = r
        elif kind.startswith("simm"):
            info[op].setdefault("simm", {})[int(kind[4:], 16)] = r
        else:
            info[op]["imm"].setdefault(arg, {})[kind] = r
    entries = []
    for op in sorted(base):
        m, vals, text = base[op]
        mnem, toks, mods = split_text(text)
        operands = []
        for i, f in enumerate(fmt.fields):
            if not m[i]:
                continue
            alt = info[op]["alt"].get(i)
            if alt is None:
                continue
            _, atoks, amods = split_text(alt)
            changed = [j for j, (a, b) in enumerate(zip(toks, atoks)) if a != b]
            if not changed and f[0] == "simm16" and toks and mods != amods:
                changed = [len(toks) - 1]  # a structured immediate printed as several words
            if len(changed) != 1:
                continue  # the field is not printed as an operand (ignored or shown as modifier)
            j = changed[0]
            reg = parse_reg(toks[j].split("/*")[0])
            if reg and not names_probe(f[3], vals[i], reg):
                continue  # the change showed elsewhere (e.g. SDST bits are modifiers here)
            cls, width = (reg[0], reg[2]) if reg else ("x", 1)
            ty = imm_type(info[op]["imm"].get(i, {}), width)
            operands.append((j, f[0], f[3], cls, width, ty))
        operands.sort()
        must_zero = ignored = sext = 0
        for bit, r in info[op]["flip"].items():
            if r is not None and "sext(" in r and "sext(" not in text:
                sext |= 1 << bit
            if r is None:
                must_zero |= 1 << bit
            elif r == text:
                ignored |= 1 << bit
        entries.append(dict(op=op, name=mnem, text=text, ntok=len(toks), toks=toks, mods=mods, vals=vals,
                            operands=operands, must_zero=must_zero, ignored=ignored, sext=sext,
                            simm=simm_kind(mnem, info[op].get("simm"))))
    probe_value_classes(fmt, entries)
    probe_lane_masks(fmt, entries)
    probe_high_vgprs(fmt, entries)
    return entries


def probe_high_vgprs(fmt, entries):
    """VGPR operands limited to v0..v127 (gfx11's 16-bit operations): LLVM prints v200 there with
    an "Invalid register, operand has 'X' register class" note; record X."""
    probes, keys = [], []
    fidx = {f[0]: i for i, f in enumerate(fmt.fields)}
    for e in entries:
        for k, (j, fname, kind, cls, width, ty) in enumerate(e["operands"]):
            if cls != "v" or kind not in ("vgpr", "src9"):
                continue
            vals = list(e["vals"])
            vals[fidx[fname]] = 200 + (256 if kind == "src9" else 0)
            probes.append(fmt.encode(e["op"], vals))
            keys.append((e, k, j))
    for (e, k, j), r in zip(keys, run_mc(probes) if probes else []):
        if r is None:
            continue
        _, toks, _ = split_text(r)
        m = re.search(r"v200/\*Invalid register, operand has '(\w+)' register class\*/", toks[j] if j < len(toks) else "")
        if m:
            e.setdefault("lo128", {})[k] = m.group(1)


def probe_lane_masks(fmt, entries):
    """Operands that are lane masks: one dword in wave32, two in wave64 (VOP3B sdst, v_cndmask's
    mask, compare destinations...)."""
    res = run_mc([fmt.encode(e["op"], e["vals"]) for e in entries], extra=["-mattr=+wavefrontsize64"])
    for e, r in zip(entries, res):
        e["mask"] = set()
        if r is None:
            continue
        _, toks, _ = split_text(r)
        for k, (j, fname, kind, cls, width, ty) in enumerate(e["operands"]):
            reg = parse_reg(toks[j].split("/*")[0]) if j < len(toks) else None
            if reg and reg[0] != "v" and reg[2] == 2 * width:
                e["mask"].add(k)


def raw_scalar(v):
    """The encoding of scalar register v of gfx10's numbering (the classes' numbering) on the target:
    gfx11 swapped m0 (124) and null (125); gfx8's ttmp registers start at 112."""
    if GEN in ("gfx11", "gfx12"):
        return {124: 125, 125: 124}.get(v, v)
    if MCPU in ("gfx803", "gfx810") and 108 <= v <= 119:
        return v + 4
    return v


# Representative values of each kind of source operand (see rdna_isa::src::value_class).
VALUE_CLASSES = [256, 0, 108, 106, 107, 124, 125, 126, 127, 128, 240, 255, 235, 251, 254]
LIT = 0x12345678


def probe_value_classes(fmt, entries):
    """For every register or source operand, which kinds of value LLVM refuses to decode (reject) and
    which it prints with an "Invalid register/immediate" comment (flag), and the register-class name
    that comment names."""
    probes, keys = [], []
    fidx = {f[0]: i for i, f in enumerate(fmt.fields)}
    for e in entries:
        for k, (j, fname, kind, cls, width, ty) in enumerate(e["operands"]):
            if kind == "vgpr" and cls == "s":
                kind = "ssrc8"  # an 8-bit VGPR field that this opcode reads as a scalar destination
            if kind not in ("src9", "ssrc8", "sreg7", "sreg9", "sbase", "srsrc"):
                continue
            i = fidx[fname]
            scale = {"sbase": 2, "srsrc": 4}.get(kind, 1)
            limit = {"src9": 512, "sreg9": 512, "ssrc8": 256}.get(kind, 128 * scale)
            for c, v in enumerate(VALUE_CLASSES):
                if v % scale or v >= limit:
                    continue
                vals = list(e["vals"])
                vals[i] = raw_scalar(v) // scale
                enc = fmt.encode(e["op"], vals)
                if v == 255:
                    enc = enc + [LIT]
                probes.append(enc)
                keys.append((e, k, c, j))
    res = run_mc(probes)
    for (e, k, c, j), r in zip(keys, res):
        info = e.setdefault("vclass", {}).setdefault(k, [0, 0, ""])
        if r is None:
            info[0] |= 1 << c
            continue
        _, toks, _ = split_text(r)
        tok = toks[j] if j < len(toks) else ""
        m = re.search(r"/\*Invalid register, operand has '(\w+)' register class\*/", tok)
        if m:
            info[1] |= 1 << c
            info[2] = m.group(1)
        elif "/*Invalid immediate*/" in tok:
            info[1] |= 1 << c


def names_probe(kind, val, reg):
    """Whether a printed register is the one the field's probe value names."""
    cls, num, width = reg
    if cls == "ttmp":
        num += 108
    scale = {"sbase": 2, "srsrc": 4}.get(kind, 1)
    want = val * scale
    if kind == "src9" and val >= 256:
        return cls in ("v", "v16", "a") and num == val - 256
    if kind == "vgpr":
        return cls in ("v", "v16", "a", "s", "ttmp") and num == val or (cls == "s" and (num == val & ~1 or num == val & ~3))
    return num in (want, want & ~1, want & ~3)


def imm_type(probe, width):
    """How LLVM prints constants for this operand, learned from probes."""
    if not probe:
        return "none"
    def t(k):
        return probe.get(k)
    lit = t("lit12345678")
    if lit is None:
        ic = t("icf0")
        if ic is not None:  # inline constants only (SDWA): only 16-bit integers print differently
            return "i16" if "0x3800" in ic else "b32"
        return "noimm"
    if "0x5678" in lit and "0x12345678" not in lit:
        ic = t("icf0") or ""
        return "i16" if "0x3800" in ic else "f16"
    one = t("lit3ff00000") or ""
    if width == 2:
        return "f64" if ", 1.0" in one or " 1.0" in one else "b64"
    return "b32"


SIMM_KINDS = {
    "Hex": lambda v: "0x%x" % v,
    "Dec": lambda v: "%d" % v,
    "U16": lambda v: "%d" % v if v <= 64 else "0x%x" % v,
}


def simm_kind(mnem, probe):
    """How a SOPP/SOPK 16-bit immediate prints: one of SIMM_KINDS, DecOpt (omitted when 0), or Special
    (hwreg, sendmsg, waitcnt and friends, printed by dedicated code)."""
    if not probe:
        return "NoSimm"
    if any(probe.get(v) is None for v in probe):
        return "Special"
    last = {v: split_text(t)[1][-1] if split_text(t)[1] else "" for v, t in probe.items()}
    for kind, render in SIMM_KINDS.items():
        if all(last[v] == render(v) for v in probe):
            return kind
    if split_text(probe[0])[1] == [] and all(last[v] == "%d" % v for v in probe if v):
        return "DecOpt"
    return "Special"


def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(all_entries):
    out = []
    target = " --mcpu " + MCPU
    out.append("// @generated by gen/llvm_sweep.py from llvm-mc-19 -mcpu=%s — do not edit." % MCPU)
    out.append("// Regenerate with: python3 gen/llvm_sweep.py%s   (check: python3 gen/llvm_sweep.py --check%s)" % (target, target))
    out.append("")
    out.append("use crate::table::{Class::*, Field::*, ImmTy::*, OpEntry, OpTable, Operand, Simm, TableSet};")
    out.append("use crate::Format;")
    out.append("")
    for fmt, entries in all_entries:
        fname = fmt.name
        out.append("pub static %s_ENTRIES: &[OpEntry] = &[" % fname)
        for e in entries:
            vc = e.get("vclass", {})
            ops = ", ".join(
                "Operand { field: %s, class: %s, width: %d, imm: %s, reject: 0x%x, flag: 0x%x, rc: %s, mask: %s, lo128: %s }" % (
                    FIELD_RS[f], CLASS_RS[c], w, IMM_RS[ty], vc.get(k, [0, 0, ""])[0], vc.get(k, [0, 0, ""])[1],
                    rust_str(vc.get(k, [0, 0, ""])[2]), "true" if k in e.get("mask", ()) else "false",
                    rust_str(e.get("lo128", {}).get(k, "")))
                for k, (_, f, kind, c, w, ty) in enumerate(e["operands"]))
            mapped = {o[0] for o in e["operands"]}
            toks = ", ".join(rust_str("" if j in mapped else ("<literal>" if tok == "0x%x" % MARKER[0] else tok))
                             for j, tok in enumerate(e["toks"]))
            out.append("    OpEntry { op: 0x%03x, name: %s, operands: &[%s], tokens: &[%s], must_zero: 0x%x, ignored: 0x%x, sext: 0x%x, simm: Simm::%s }," % (
                e["op"], rust_str(e["name"]), ops, toks, e["must_zero"] & M64, e["ignored"] & M64, e["sext"] & M64, e["simm"]))
        out.append("];")
        nops = 1 << sum(w for _, w in fmt.opbits)
        idx = ["0xffff"] * nops
        for k, e in enumerate(entries):
            idx[e["op"]] = str(k)
        out.append("static %s_INDEX: [u16; %d] = [" % (fname, nops))
        for k in range(0, nops, 16):
            out.append("    " + ", ".join(idx[k:k + 16]) + ",")
        out.append("];")
        out.append("pub static %s: OpTable = OpTable { entries: %s_ENTRIES, index: &%s_INDEX };" % (fname, fname, fname))
        out.append("")
    return "\n".join(out) + "\n"


# The tables keep bit masks of the first two dwords (a gfx11 VOP3 DPP's third dword is checked by
# the decoder itself).
M64 = (1 << 64) - 1

FIELD_RS = {f: f[0].upper() + f[1:] for f in
            ["sdst", "ssrc0", "ssrc1", "simm16", "sdata", "sbase", "offset", "soffset", "vdst", "src0", "src1",
             "src2", "vsrc1", "addr", "data0", "data1", "data", "saddr", "vdata", "vaddr", "srsrc",
             "vsrc", "vsrc0", "vsrc2", "vsrc3", "ssamp"]}
CLASS_RS = {"v": "Vgpr", "v16": "Vgpr16", "a": "Agpr", "s": "Sgpr", "ttmp": "Sgpr", "x": "Other"}
IMM_RS = {"none": "NoImm", "noimm": "NoImm", "b32": "B32", "i16": "I16", "f16": "F16", "f64": "F64", "b64": "B64"}


def formats_of(gen):
    return {"gfx9": FORMATS_GFX9, "gfx10": FORMATS, "gfx11": FORMATS_GFX11, "gfx12": FORMATS_GFX12}[gen]


def nsa_count(tok):
    """Address registers in an NSA list: gfx11's last entry may be a range (v[114:115])."""
    regs = [parse_reg(t.strip().split("/*")[0]) for t in tok.strip()[1:-1].split(",")]
    return sum(r[2] if r else 1 for r in regs)


def emit_mimg_shapes(entries):
    """How many data and address VGPRs LLVM prints for each MIMG opcode, for every dim (0..7), a16,
    NSA dword count (0..3), number of dmask components (1..4), d16 and tfe. LLVM re-picks the opcode
    variant from these and falls back to the encoded one where no variant fits, so the shapes are
    measured rather than computed. Each shape is a byte data << 5 | addresses (0: rejected); opcodes
    with equal tables share one."""
    fmts = {f.name: f for f in formats_of(GEN)}
    nsa_max = (1 << MIMG_BITS[GEN]["nsa"][1]) - 1

    def fmt_of(e):
        """The format and layout that encode entry e (gfx12's merged VSAMPLE entries)."""
        mb = dict(MIMG_BITS[GEN])
        if GEN == "gfx12" and e["op"] >= VSAMPLE_BASE:
            mb["tfe"] = 3
            return fmts["VSAMPLE"], e["op"] - VSAMPLE_BASE, mb
        return fmts["MIMG"], e["op"], mb
    probes, keys = [], []
    for i, e in enumerate(entries):
        fmt, op, mb = fmt_of(e)
        for dim in range(8):
            for a16 in range(2):
                for nsa in range(4):
                    for comps in range(4):
                        for d16 in range(2):
                            for tfe in range(2):
                                extra = [(mb["dim"][0], mb["dim"][1], dim), (mb["nsa"][0], mb["nsa"][1], min(nsa, nsa_max)),
                                         (mb["a16"], 1, a16), (22 if GEN == "gfx12" else 8, 4, (1 << (comps + 1)) - 1), (mb["d16"], 1, d16),
                                         (mb["tfe"], 1, tfe)]
                                probes.append(fmt.encode(op, e["vals"], extra_bits=extra) + [0x04030201] * min(nsa, nsa_max))
                                # An NSA count or dim the generation cannot encode is recorded as rejected.
                                keys.append((i, nsa > nsa_max or dim >= 1 << mb["dim"][1]))
    # Keyed by position: gfx700's derived entries may share a gfx803 opcode.
    shapes = [[] for e in entries]
    gap = {}
    for (op, unencodable), r in zip(keys, run_mc(probes)):
        if unencodable:
            r = None
        b = 0
        if r is not None and ", [" in r and op not in gap:
            gap[op] = re.match(r"^\S+  ", r) is not None
        if r is not None:
            _, toks, _ = split_text(r)
            if len(toks) > 1:
                data = parse_reg(toks[0].split("/*")[0])
                if toks[1].startswith("["):
                    addr = nsa_count(toks[1])
                else:
                    reg = parse_reg(toks[1].split("/*")[0])
                    addr = reg[2] if reg else 0
                if data and 0 < addr < 32 and data[2] < 8:
                    b = data[2] << 5 | addr
        shapes[op].append(b)
    # The encoded ("original") variant, which LLVM keeps when the re-picked variant's registers would
    # run past v255: measured with the data at v255 (four components cannot fit there) and the
    # address at v200.
    orig_probes = []
    for e in entries:
        fmt, op, mb = fmt_of(e)
        vals = list(e["vals"])
        names = [f[0] for f in fmt.fields]
        vals[names.index("vdata")] = 255
        vals[names.index("vaddr")] = 200
        for nsa in range(4):
            n = min(nsa, nsa_max)
            dmask = (22, 4, 15) if GEN == "gfx12" else (8, 4, 15)
            orig_probes.append(fmt.encode(op, vals, extra_bits=[(mb["nsa"][0], mb["nsa"][1], n), dmask]) + [0x04030201] * n)
    original = {}
    for k, r in enumerate(run_mc(orig_probes)):
        if k % 4 > nsa_max:
            r = None
        b = 0
        if r is not None:
            _, toks, _ = split_text(r)
            data = parse_reg(toks[0].split("/*")[0]) if toks else None
            addr = nsa_count(toks[1]) if len(toks) > 1 and toks[1].startswith("[") else \
                (parse_reg(toks[1].split("/*")[0]) or (0, 0, 0))[2] if len(toks) > 1 else 0
            if data:
                b = data[2] << 5 | addr
        original.setdefault(k // 4, []).append(b)
    tables, index = [], []
    for i, e in enumerate(entries):
        t = shapes[i]
        if t not in tables:
            tables.append(t)
        index.append(tables.index(t))
    out = ["/// Distinct MIMG shape tables: [((dim * 2 + a16) * 4 + nsa) * 16 + (components - 1) * 4 + d16 * 2 + tfe],"]
    out.append("/// each data VGPRs << 5 | address VGPRs, 0 where LLVM rejects the encoding.")
    out.append("pub static MIMG_SHAPE_TABLES: [[u8; 1024]; %d] = [" % len(tables))
    for t in tables:
        out.append("    [")
        for k in range(0, 1024, 32):
            out.append("        " + ", ".join(str(x) for x in t[k:k + 32]) + ",")
        out.append("    ],")
    out.append("];")
    out.append("/// For each entry of MIMG_ENTRIES, the encoded variant's shape per NSA count, which LLVM keeps")
    out.append("/// when the shape from MIMG_SHAPE_TABLES would need registers past v255.")
    out.append("pub static MIMG_ORIGINAL_SHAPES: [[u8; 4]; %d] = [" % len(entries))
    for i, e in enumerate(entries):
        out.append("    [%s], // %s" % (", ".join(map(str, original[i])), e["name"]))
    out.append("];")
    out.append("/// For each entry of MIMG_ENTRIES, whether LLVM prints two spaces after the mnemonic in the NSA form.")
    out.append("pub static MIMG_NSA_GAP: [bool; %d] = [%s];" % (
        len(entries), ", ".join("true" if gap.get(i) else "false" for i in range(len(entries)))))
    out.append("/// For each entry of MIMG_ENTRIES, its table in MIMG_SHAPE_TABLES.")
    out.append("pub static MIMG_SHAPE_INDEX: [u8; %d] = [%s];" % (len(index), ", ".join(map(str, index))))
    return "\n".join(out) + "\n"


def emit_symbol_tables():
    """Names LLVM gives to hwreg ids, message ids and s_version codes on this target."""
    getreg, sendmsg, version = {"gfx9": (0x11, 0x10, None), "gfx10": (0x12, 0x10, 0x01), "gfx11": (0x11, 0x36, 0x01),
                                "gfx12": (0x11, 0x36, 0x01)}[GEN]
    hw = run_mc([[0xB0000000 | getreg << 23 | (8 << 16) | (31 << 11) | i] for i in range(64)])  # s_getreg_b32 s8, hwreg(i, 0, 32)
    hw_names = []
    for r in hw:
        m = re.search(r"hwreg\((HW_REG_\w+)\)", r or "")
        hw_names.append(m.group(1) if m else "")
    # s_sendmsg sendmsg(i, 0, 0) and sendmsg(i, 1, 0): some messages need an operation.
    msg = run_mc([[0xBF800000 | sendmsg << 16 | i | op << 4] for op in (0, 1) for i in range(16)])
    msg_names = []
    for i in range(16):
        m = re.search(r"sendmsg\((MSG_\w+)", msg[i] or "") or re.search(r"sendmsg\((MSG_\w+)", msg[16 + i] or "")
        msg_names.append(m.group(1) if m else "")
    # s_version i (gfx9 has no s_version)
    ver = run_mc([[0xB0000000 | version << 23 | i] for i in range(64)]) if version is not None else [None] * 64
    ver_names = []
    for r in ver:
        m = re.search(r"s_version (UC_VERSION_\w+)", r or "")
        ver_names.append(m.group(1) if m else "")
    out = []
    for name, doc, vals in (("HWREG_NAMES", "hwreg(...) register ids", hw_names),
                            ("SENDMSG_NAMES", "sendmsg(...) message ids", msg_names),
                            ("VERSION_NAMES", "s_version codes (bits 0..5)", ver_names)):
        out.append("/// Symbolic names of %s (empty: printed as a number)." % doc)
        out.append("pub static %s: [&str; %d] = [" % (name, len(vals)))
        for k in range(0, len(vals), 4):
            out.append("    " + " ".join(rust_str(n) + "," for n in vals[k:k + 4]))
        out.append("];")
    return "\n".join(out) + "\n"


def emit_mtbuf_formats():
    """How LLVM prints each 7-bit MTBUF format value (tbuffer_load_format_x v1, off, s[4:7], 0)."""
    probes = [[0xE8000000 | (f << 19), (1 << 40) | (1 << 48) | (0x80 << 56)] for f in range(128)]
    if GEN == "gfx11":  # offen moves to the second dword; the opcode field is 4 bits at 15
        probes = [[0xE8000000 | (f << 19), (1 << 8) | (1 << 16) | (0x80 << 24)] for f in range(128)]
    if GEN == "gfx12":  # tbuffer_load_format_x v1, off, s[4:7], null: the format at 61:55
        probes = [[0xC420007C, 1 | (4 << 9) | (f << 23), 0] for f in range(128)]
    names = []
    for f, r in enumerate(run_mc(probes)):
        m = re.search(r" format:(\S+)", r or "")
        names.append(m.group(1) if m else "")
    out = ["/// The `format:` text of each MTBUF format value (empty: the default, not printed)."]
    out.append("pub static MTBUF_FORMATS: [&str; 128] = [")
    for k in range(0, 128, 4):
        out.append("    " + " ".join(rust_str(n) + "," for n in names[k:k + 4]))
    out.append("];")
    return "\n".join(out) + "\n"


def emit_vopd():
    """gfx11 VOPD: the names of the X operations (4-bit opcode at 22) and Y operations (5-bit opcode
    at 17), learned by pairing each with v_dual_mov_b32 (X 8, Y 8)."""
    def name(words, side):
        r = run_mc([words])[0]
        if r is None or "::" not in r:
            return ""
        half = r.split("::")[side].split()
        return half[0] if half else ""
    # srcx0 = v2, srcy0 = v5, vdstx = v1, vdsty = v2; VSRC1 fields 0 (unary operations need that);
    # a literal follows for the operations that take one.
    base = lambda opx, opy: [0xC8000000 | opx << 22 | opy << 17 | 0x102, 0x01000105 | (1 << 17), 0x41200000]
    xs = [name(base(x, 8), 0) for x in range(16)]
    ys = [name(base(8, y), 1) for y in range(32)]
    out = ["/// VOPD X operations by opcode (empty: not an operation)."]
    out.append("pub static VOPD_X: [&str; 16] = [%s];" % ", ".join(rust_str(n) for n in xs))
    out.append("/// VOPD Y operations by opcode.")
    out.append("pub static VOPD_Y: [&str; 32] = [%s];" % ", ".join(rust_str(n) for n in ys))
    return "\n".join(out) + "\n"


def emit_table_set(all_entries):
    """The target's TableSet: its format lookup and its symbol tables."""
    rust = lambda name: "".join(p.capitalize() for p in name.split("_"))  # VOP1_DPP16 -> Vop1Dpp16
    out = ["/// The opcode table of each format on %s (empty where it lacks the format)." % MCPU]
    out.append("fn table(format: Format) -> &'static OpTable {")
    out.append("    match format {")
    for fmt, _ in all_entries:
        out.append("        Format::%s => &%s," % (rust(fmt.name), fmt.name))
    if GEN in ("gfx11", "gfx12"):
        out.append("        Format::Vopd => &crate::VOPD_TABLE,")
    out.append("        _ => &crate::EMPTY_TABLE,")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("/// Everything the sweep learned about %s." % MCPU)
    out.append("pub static TABLES: TableSet = TableSet {")
    out.append("    mcpu: %s," % rust_str(MCPU))
    out.append("    table,")
    out.append("    mtbuf_formats: &MTBUF_FORMATS,")
    out.append("    hwreg_names: &HWREG_NAMES,")
    out.append("    sendmsg_names: &SENDMSG_NAMES,")
    out.append("    version_names: &VERSION_NAMES,")
    out.append("    vopd: Some((&VOPD_X, &VOPD_Y))," if GEN in ("gfx11", "gfx12") else "    vopd: None,")
    if any(f.name == "MIMG" for f, _ in all_entries):
        out.append("    mimg: Some(crate::table::MimgShapes {")
        out.append("        tables: &MIMG_SHAPE_TABLES,")
        out.append("        original: &MIMG_ORIGINAL_SHAPES,")
        out.append("        nsa_gap: &MIMG_NSA_GAP,")
        out.append("        index: &MIMG_SHAPE_INDEX,")
        out.append("    }),")
    else:
        out.append("    mimg: None,")
    out.append("};")
    return "\n".join(out) + "\n"


def generate():
    if GEN == "gfx7":
        import gfx7_derive  # gfx7 cannot be disassembled by llvm-mc-19: its tables are derived
        return write_or_check(gfx7_derive.generate(MCPU))
    all_entries = []
    for fmt in formats_of(GEN):
        entries = sweep(fmt)
        if fmt.alt_prefix is not None:
            have = {e["op"] for e in entries}
            ops = fmt.opcodes if fmt.opcodes is not None else range(1 << sum(w for _, w in fmt.opbits))
            alt = Fmt(fmt.name, fmt.words, fmt.ident, fmt.opbits, fmt.fields, prefix=fmt.alt_prefix,
                      suffix=fmt.suffix, opcodes=[o for o in ops if o not in have])
            extra = sweep(alt)
            for e in extra:  # prefix bits these opcodes need clear are part of their encoding
                for lo, width, val in fmt.alt_prefix:
                    if val == 0:
                        e["must_zero"] |= ((1 << width) - 1) << lo
            entries = sorted(entries + extra, key=lambda e: e["op"])
        print("%-8s %-10s %4d opcodes" % (MCPU, fmt.name, len(entries)), file=sys.stderr)
        all_entries.append((fmt, entries))
    if GEN == "gfx12":
        # One MIMG table for VIMAGE and VSAMPLE (VSAMPLE's opcodes from VSAMPLE_BASE); its format
        # entry only sizes the index here.
        image = [e for f, e in all_entries if f.name == "MIMG"][0]
        sample = [e for f, e in all_entries if f.name == "VSAMPLE"][0]
        for e in sample:
            e["op"] += VSAMPLE_BASE
        merged = Fmt("MIMG", 3, [], [(14, 9)], [])
        all_entries = [(f, e) for f, e in all_entries if f.name not in ("MIMG", "VSAMPLE")]
        all_entries.append((merged, image + sample))
    mimg = [e for f, e in all_entries if f.name == "MIMG"]
    text = emit(all_entries) + emit_mtbuf_formats() + emit_symbol_tables() + (emit_mimg_shapes(mimg[0]) if mimg else "")
    if GEN in ("gfx11", "gfx12"):
        text += emit_vopd()
    text += "\n" + emit_table_set(all_entries)
    return write_or_check(text)


def write_or_check(text):
    if "--check" in sys.argv:
        with open(OUT) as f:
            if f.read() != text:
                print("generated tables are out of date: run python3 gen/llvm_sweep.py --mcpu " + MCPU, file=sys.stderr)
                return False
        return True
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    return True


def main():
    if "--all" in sys.argv:
        targets = list(SWEPT)
    elif "--mcpu" in sys.argv:
        targets = [sys.argv[sys.argv.index("--mcpu") + 1]]
    else:
        sys.exit("usage: gen/llvm_sweep.py [--check] (--mcpu TARGET | --all); swept targets: " + ", ".join(SWEPT))
    ok = True
    for t in targets:
        if t not in SWEPT:
            sys.exit("%s is not a swept target (%s)" % (t, ", ".join(SWEPT)))
        set_target(t)
        ok &= generate()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
