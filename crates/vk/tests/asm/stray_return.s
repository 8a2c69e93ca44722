// A call whose callee returns 4 bytes past its return point, skipping the `s_branch` there.
// The emulator follows it (it lands on an instruction); the recompiler follows calls and
// returns only, so its run must stop with an error rather than differ.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
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
