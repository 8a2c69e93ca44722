#!/usr/bin/env python3
"""Writes the malformed-input corpus next to this script from the bundled SAXPY example.

Run from anywhere: `python3 tests/malformed/make.py`. `expected.tsv` lists, for each file, the
rdna command it is fed to and a piece of the error message it must give; `crates/cli/tests/malformed.rs`
checks them.
"""
import json, os, struct

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
elf = open(os.path.join(root, "examples", "saxpy.hsaco"), "rb").read()

def put(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)

def patched(offset, fmt, value):
    d = bytearray(elf)
    struct.pack_into(fmt, d, offset, value)
    return bytes(d)

# Code objects.
put("elf-truncated-header.hsaco", elf[:40])
put("elf-truncated-half.hsaco", elf[: len(elf) // 2])
put("elf-wrong-machine.hsaco", patched(18, "<H", 0x3E))             # e_machine = x86-64
put("elf-32-bit.hsaco", patched(4, "<B", 1))                        # EI_CLASS = ELFCLASS32
put("elf-big-endian.hsaco", patched(5, "<B", 2))                    # EI_DATA = ELFDATA2MSB
put("elf-unknown-abi-version.hsaco", patched(8, "<B", 9))           # EI_ABIVERSION
put("elf-section-table-past-end.hsaco", patched(0x28, "<Q", 1 << 40))  # e_shoff
put("elf-absurd-section-count.hsaco", patched(0x3C, "<H", 0xFFFF))  # e_shnum
put("elf-not-elf.hsaco", b"this is not an ELF file\n" * 8)
put("elf-empty.hsaco", b"")
# The metadata note's MessagePack, renamed so that no kernel is described (valid MessagePack)...
i = elf.find(b"amdhsa.kernels")
put("elf-metadata-without-kernels.hsaco", elf[:i] + b"amdhsa.kernelz" + elf[i + 14:])
# ... and its first bytes overwritten with a byte MessagePack never uses.
j = elf.find(b"AMDGPU\0\0", elf.find(b"AMDGPU\0\0") if False else 0)
d = bytearray(elf)
d[j + 8 : j + 24] = b"\xc1" * 16
put("elf-bad-metadata.hsaco", bytes(d))

# Dispatch files (against the example's code object and data).
base = {
    "code_object": "../../examples/saxpy.hsaco",
    "kernel": "saxpy",
    "grid": [4096, 1, 1],
    "workgroup": [256, 1, 1],
    "buffers": {"x": {"file": "../../examples/saxpy-data/x.bin"}, "y": {"file": "../../examples/saxpy-data/y.bin"}, "out": {"size": 16384}},
    "args": [{"buffer": "out"}, {"buffer": "x"}, {"buffer": "y"}, {"f32": 2.0}, {"u32": 4096}],
}

def dispatch(name, **changes):
    d = json.loads(json.dumps(base))
    d.update(changes)
    put(name, json.dumps(d, indent=1).encode())

dispatch("dispatch-missing-kernel.json", kernel="nope")
dispatch("dispatch-too-few-args.json", args=[{"buffer": "out"}])
dispatch("dispatch-wrong-arg-type.json", args=[{"buffer": "out"}, {"buffer": "x"}, {"buffer": "y"}, {"f64": 2.0}, {"u32": 4096}])
dispatch("dispatch-unknown-buffer.json", args=[{"buffer": "out"}, {"buffer": "x"}, {"buffer": "zz"}, {"f32": 2.0}, {"u32": 4096}])
dispatch("dispatch-buffer-too-small.json", buffers=dict(base["buffers"], out={"size": 64}))
dispatch("dispatch-absurd-buffer.json", buffers=dict(base["buffers"], out={"size": 1 << 50}))
dispatch("dispatch-absurd-grid.json", grid=[4294967295, 4294967295, 4294967295])
dispatch("dispatch-zero-grid.json", grid=[0, 1, 1])
dispatch("dispatch-huge-workgroup.json", workgroup=[4096, 1, 1])
dispatch("dispatch-missing-code-object.json", code_object="nowhere.hsaco")
dispatch("dispatch-missing-data-file.json", buffers=dict(base["buffers"], x={"file": "nowhere.bin"}))
dispatch("dispatch-small-budget.json")
put("dispatch-not-json.json", b"{ this is not json")
put("dispatch-wrong-shape.json", b'{"code_object": 5, "kernel": [], "grid": "x"}')

# Text that is not assembly.
put("asm-prose.s", b"Dear reader, this is a letter, not a shader.\n")
put("asm-binary.s", bytes(range(256)) * 4)
put("asm-bad-operand.s", b"v_add_f32 v1, v2, v999\n")
put("asm-unclosed-bracket.s", b"s_load_dwordx2 s[0:1, s[4:5], 0x0\n")
dispatch("dispatch-kernel-without-metadata.json", code_object="elf-metadata-without-kernels.hsaco")
