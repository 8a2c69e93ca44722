// ds_wrxchg2_rtn_b32/b64 and ds_wrxchg2st64_rtn_b32: each wave fills its own 1 KiB of LDS,
// then its lanes exchange at two addresses each, eight lanes sharing every address (so the
// lanes' order decides what each returns) and the b64 form naming one address twice; the
// returned values and the LDS contents afterwards go to out[64 lane + k].
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_readfirstlane_b32 s10, v0
    s_lshl_b32 s10, s10, 5
    v_and_b32 v6, 7, v0
    v_lshlrev_b32 v6, 3, v6
    v_add_nc_u32 v6, s10, v6
    v_and_b32 v7, 31, v0
    v_lshlrev_b32 v7, 2, v7
    v_add_nc_u32 v7, s10, v7
    ds_write_b32 v7, v1
    ds_write_b32 v7, v2 offset:128
    ds_write_b32 v7, v3 offset:256
    s_waitcnt lgkmcnt(0)
    ds_wrxchg2_rtn_b32 v[8:9], v6, v2, v3 offset0:1 offset1:3
    ds_wrxchg2st64_rtn_b32 v[10:11], v6, v3, v1 offset1:1
    ds_wrxchg2_rtn_b64 v[12:15], v6, v[1:2], v[2:3] offset0:2 offset1:2
    s_waitcnt lgkmcnt(0)
    global_store_dwordx4 v5, v[8:11], s[2:3]
    global_store_dwordx4 v5, v[12:15], s[2:3] offset:16
    ds_read_b32 v8, v7
    ds_read_b32 v9, v7 offset:128
    ds_read_b32 v10, v7 offset:256
    ds_read_b32 v11, v7 offset:384
    s_waitcnt lgkmcnt(0)
    global_store_dwordx4 v5, v[8:11], s[2:3] offset:32
    s_endpgm
