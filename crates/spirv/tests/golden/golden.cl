// Small kernels whose SPIR-V is kept as golden text (see ../golden.rs); rebuild the code
// objects with ./build.sh.
typedef unsigned int uint;
#define LID (uint)__builtin_amdgcn_workitem_id_x()
#define GID ((uint)__builtin_amdgcn_workgroup_id_x() * (uint)__builtin_amdgcn_workgroup_size_x() + LID)

// A compare, a select and a carry chain (64-bit address arithmetic).
__kernel void clamp_add(__global const uint *a, __global uint *out, uint limit) {
    uint i = GID;
    uint v = a[i] + 7;
    out[i] = v > limit ? limit : v;
}

// LDS and a barrier: the workgroup reversed.
__kernel void lds_reverse(__global const uint *a, __global uint *out) {
    __local uint tmp[64];
    uint l = LID, i = GID;
    tmp[l] = a[i];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    out[i] = tmp[63 - l];
}

// A loop whose trip count differs by lane.
__kernel void loop_sum(__global const uint *a, __global uint *out) {
    uint i = GID, s = 0;
    for (uint k = 0; k < (a[i] & 15); k++) s += k * a[i];
    out[i] = s;
}

// A loop on a scalar trip count: its back edge is what the subgroup model counts against the
// iteration limit (exits that only go forward count nothing).
__kernel void hash_rounds(__global uint *out, uint rounds) {
    uint x = GID;
    for (uint r = 0; r < rounds; r++) x = (x ^ (x >> 7)) * 2654435761u + r;
    out[GID] = x;
}
