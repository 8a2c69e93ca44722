// A call whose callee returns 4 bytes past its return point, skipping the `s_branch` there.
// The emulator follows it (it lands on an instruction); the recompiler follows calls and
// returns only, so its run must stop with an error rather than differ.
    .amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
    .text
    .globl stray_return
    .p2align 8
    .type stray_return,@function
stray_return:
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_getpc_b64 s[4:5]
    s_add_u32 s4, s4, callee@rel32@lo+4
    s_addc_u32 s5, s5, callee@rel32@hi+12
    s_swappc_b64 s[30:31], s[4:5]
    s_branch done
    v_mov_b32 v0, 7
    v_mov_b32 v1, 0
    s_waitcnt lgkmcnt(0)
    global_store_dword v1, v0, s[2:3]
done:
    s_endpgm
callee:
    s_add_u32 s30, s30, 4
    s_addc_u32 s31, s31, 0
    s_setpc_b64 s[30:31]

    .rodata
    .p2align 6
    .amdhsa_kernel stray_return
        .amdhsa_next_free_vgpr 2
        .amdhsa_next_free_sgpr 40
        .amdhsa_user_sgpr_kernarg_segment_ptr 1
        .amdhsa_wavefront_size32 1
        .amdhsa_float_denorm_mode_32 3
    .end_amdhsa_kernel

    .amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: stray_return
    .symbol: stray_return.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 40
    .vgpr_count: 2
    .max_flat_workgroup_size: 32
    .args:
      - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
    .end_amdgpu_metadata
