// The GPU benchmark's kernels (`rdna-bench`, section gpu): built for gfx1030 by clang-19, recompiled
// to SPIR-V and run on the Vulkan device. `gpu.cu` beside this file is the same five algorithms
// (with corpus.cl's k_matmul) in CUDA, line for line, built with nvcc on the NVIDIA machine as the peer.
typedef unsigned int uint;
#define LID (uint)__builtin_amdgcn_workitem_id_x()
#define WG (uint)__builtin_amdgcn_workgroup_id_x()
#define BARRIER() do { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); __builtin_amdgcn_s_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); } while (0)

// out = a * x + y over n floats; workgroups of 256.
__kernel void saxpy(__global float *out, __global const float *x, __global const float *y, float a, uint n) {
    uint i = WG * 256 + LID;
    if (i < n) out[i] = a * x[i] + y[i];
}

// Each workgroup of 256 sums 1,024 consecutive words (four coalesced loads a work-item) through
// LDS; out[workgroup] = the sum.
__kernel void reduce(__global const uint *in, __global uint *out) {
    __local uint tile[256];
    uint lid = LID, base = WG * 1024;
    tile[lid] = in[base + lid] + in[base + 256 + lid] + in[base + 512 + lid] + in[base + 768 + lid];
    BARRIER();
    for (uint s = 128; s > 0; s >>= 1) {
        if (lid < s) tile[lid] += tile[lid + s];
        BARRIER();
    }
    if (lid == 0) out[WG] = tile[0];
}

// The tiled matmul is the corpus's own: `k_matmul` in tests/kernels/corpus.cl (16×16 tiles
// through LDS, workgroups of 16×16), built from there rather than written twice.

// out = transpose(in) for an n×n matrix of words, 32×8 work-items moving 32×32 tiles through LDS.
__kernel void transpose(__global const uint *in, __global uint *out, uint n) {
    __local uint tile[32][33];
    uint tx = LID, ty = (uint)__builtin_amdgcn_workitem_id_y();
    uint bx = WG * 32, by = __builtin_amdgcn_workgroup_id_y() * 32;
    for (uint j = 0; j < 32; j += 8) tile[ty + j][tx] = in[(by + ty + j) * n + bx + tx];
    BARRIER();
    for (uint j = 0; j < 32; j += 8) out[(bx + ty + j) * n + by + tx] = tile[tx][ty + j];
}

// An ALU-bound loop: integer hash and float multiply-add, `iters` rounds per work-item.
__kernel void alu(__global uint *out, uint iters) {
    uint x = WG * 256 + LID, y = x * 2654435761u;
    float f = (float)x;
    for (uint i = 0; i < iters; i++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
        f = __builtin_fmaf(f, 0.999f, (float)(y & 255));
    }
    out[WG * 256 + LID] = x ^ y ^ __builtin_bit_cast(uint, f);
}
