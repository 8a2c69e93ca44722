// SAXPY with a bounds check: out[i] = a * x[i] + y[i]. Built with examples/build.sh.
__kernel void saxpy(__global float *out, __global const float *x, __global const float *y, float a, uint n) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        out[i] = a * x[i] + y[i];
}

// A workgroup reduction through LDS with barriers.
__kernel void reduce_sum(__global const uint *in, __global uint *out) {
    __local uint tile[256];
    uint lid = __builtin_amdgcn_workitem_id_x();
    uint gid = __builtin_amdgcn_workgroup_id_x() * 256 + lid;
    tile[lid] = in[gid];
    __builtin_amdgcn_s_barrier();
    for (uint s = 128; s > 0; s >>= 1) {
        if (lid < s)
            tile[lid] += tile[lid + s];
        __builtin_amdgcn_s_barrier();
    }
    if (lid == 0)
        __atomic_fetch_add(out, tile[0], __ATOMIC_RELAXED);
}
