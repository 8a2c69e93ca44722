// Kernels for the emulator benchmark (`rdna-bench --only emu`): ALU-bound, memory-bound and LDS/barrier-bound.
typedef unsigned int uint;
#define LID (uint)__builtin_amdgcn_workitem_id_x()
#define GID ((uint)__builtin_amdgcn_workgroup_id_x() * 256 + LID)

__kernel void alu_loop(__global uint *out, uint iters) {
    uint x = GID, y = x * 2654435761u;
    float f = (float)x;
    for (uint i = 0; i < iters; i++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
        f = __builtin_fmaf(f, 0.999f, (float)(y & 255));
    }
    out[GID] = x ^ y ^ __builtin_bit_cast(uint, f);
}

__kernel void copy_scale(__global const float *in, __global float *out, uint n) {
    for (uint i = GID; i < n; i += 256 * 64)
        out[i] = in[i] * 2.0f + 1.0f;
}

__kernel void lds_barrier(__global uint *out, uint rounds) {
    __local uint tile[256];
    uint lid = LID, acc = lid;
    for (uint r = 0; r < rounds; r++) {
        tile[lid] = acc;
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
        __builtin_amdgcn_s_barrier();
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
        acc += tile[(lid + r + 1) & 255];
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
        __builtin_amdgcn_s_barrier();
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    }
    out[GID] = acc;
}
