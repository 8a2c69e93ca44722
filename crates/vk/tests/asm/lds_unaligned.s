// LDS accesses at every byte alignment: each lane owns 32 bytes of LDS and writes and reads
// them at an address that is 0, 1, 2 or 3 past a multiple of four (lane & 3), in dwords, a
// qword, halfwords and bytes, so both the whole-dword path and the straddling one of the
// recompiled code are taken; then the lane's 32 bytes are read back aligned. Results go to
// out[64 lane + k].
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_lshlrev_b32 v6, 5, v0
    v_and_b32 v4, 3, v0
    v_add_nc_u32 v7, v6, v4
    ds_write_b32 v7, v1
    ds_write_b16 v7, v2 offset:9
    ds_write_b8 v7, v3 offset:14
    ds_write_b64 v7, v[1:2] offset:16
    ds_write_b32 v6, v3 offset:28
    s_waitcnt lgkmcnt(0)
    ds_read_b32 v8, v7 offset:2
    ds_read_b64 v[9:10], v7 offset:15
    ds_read_u16 v11, v7 offset:9
    s_waitcnt lgkmcnt(0)
    global_store_dwordx4 v5, v[8:11], s[2:3]
    ds_read2_b32 v[8:9], v7 offset0:1 offset1:5
    ds_read_u8 v10, v7 offset:14
    ds_read_i16 v11, v7 offset:17
    s_waitcnt lgkmcnt(0)
    global_store_dwordx4 v5, v[8:11], s[2:3] offset:16
    ds_read_b128 v[8:11], v6
    ds_read_b128 v[12:15], v6 offset:16
    s_waitcnt lgkmcnt(0)
    global_store_dwordx4 v5, v[8:11], s[2:3] offset:32
    global_store_dwordx4 v5, v[12:15], s[2:3] offset:48
    s_endpgm
