// ds_condxchg32_rtn_b64 through inline assembly: two chained conditional exchanges per lane, as in
// the hardware measurement of seed 003 (the second one feeds the initial value back as data).
typedef unsigned int uint;
typedef unsigned long ulong;

__kernel void k_condxchg(__global const ulong *init, __global const ulong *data, __global ulong *out) {
    __local ulong lds[64];
    uint lid = __builtin_amdgcn_workitem_id_x();
    lds[lid] = init[lid];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    uint addr = (uint)(size_t)&lds[lid];
    ulong d = data[lid], first, second;
    __asm__ volatile("ds_condxchg32_rtn_b64 %0, %1, %2\n\ts_waitcnt lgkmcnt(0)" : "=v"(first) : "v"(addr), "v"(d) : "memory");
    __asm__ volatile("ds_condxchg32_rtn_b64 %0, %1, %2 offset:0\n\ts_waitcnt lgkmcnt(0)" : "=v"(second) : "v"(addr), "v"(init[lid]) : "memory");
    out[3 * lid + 0] = first;
    out[3 * lid + 1] = second;
    out[3 * lid + 2] = lds[lid];
}
