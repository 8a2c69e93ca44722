// Integer and float math with divergent control flow, for disassembly tests.
__kernel void mathmix(__global float *f, __global int *i, __global double *d, __global ushort *h, uint n) {
    uint id = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (id >= n) return;
    float x = f[id];
    int k = i[id];
    for (int j = 0; j < (k & 7); ++j) {
        x = x * 1.5f + __builtin_sqrtf(__builtin_fabsf(x)) / (x + 2.0f);
        k = (k << 3) ^ (k >> 2) ^ j;
    }
    f[id] = x > 0.5f ? __builtin_amdgcn_sinf(x) : x * x;
    i[id] = k / 7 + k % 13 + __builtin_popcount(k) + __builtin_clz(k | 1);
    d[id] = d[id] * 3.0 + (double)k / 1.25;
    h[id] = (ushort)(h[id] * 3u + (ushort)k);
}

__kernel void ballot_scan(__global uint *out, __global const uint *in) {
    __local uint lds[64];
    uint lid = __builtin_amdgcn_workitem_id_x();
    uint v = in[lid];
    lds[lid] = v;
    __builtin_amdgcn_s_barrier();
    uint acc = 0;
    for (uint s = 0; s <= lid; ++s) acc += lds[s];
    out[lid] = acc + __builtin_amdgcn_readfirstlane(v) + __builtin_amdgcn_mbcnt_lo(~0u, 0);
    __atomic_fetch_max(&out[64], v, __ATOMIC_RELAXED);
}
