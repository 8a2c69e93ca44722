// gfx11's f32 atomic add in device memory (global_atomic_add_f32, with and without return).
// Each lane owns acc[i] (so its returned old value does not depend on the order of lanes);
// every lane adds the same value to a shared counter, so the sums do not either.
typedef unsigned int uint;
#define GID ((uint)__builtin_amdgcn_workgroup_id_x() * (uint)__builtin_amdgcn_workgroup_size_x() + (uint)__builtin_amdgcn_workitem_id_x())

__kernel void k_global_fadd(__global const uint *in, __global float *acc, __global float *old, __global float *shared) {
    uint i = GID;
    float v = (float)((int)(in[i] % 2001) - 1000) * 0.125f;
    old[i] = __builtin_amdgcn_global_atomic_fadd_f32(&acc[i], v);
    __builtin_amdgcn_global_atomic_fadd_f32(&shared[i & 1], (i & 1) ? -0.75f : 1.5f);
}
