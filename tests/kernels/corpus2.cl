// More of the emulator's corpus: calls, constant tables, LDS float atomics, and the AMDGPU
// builtins that reach single instructions (see crates/emu/tests/corpus.rs).
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef unsigned int uint;
typedef unsigned long ulong;
#define LID (uint)__builtin_amdgcn_workitem_id_x()
#define GID ((uint)__builtin_amdgcn_workgroup_id_x() * (uint)__builtin_amdgcn_workgroup_size_x() + LID)
#define BARRIER() do { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); __builtin_amdgcn_s_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); } while (0)

__constant uint TABLE[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};

__attribute__((noinline)) uint mix(uint x, uint y, __global const uint *t) {
    uint arr[12];
    for (uint i = 0; i < 12; i++) arr[i] = x * (i + 1) ^ t[i % 4];
    return arr[y % 12] + arr[(y / 12) % 12];
}

__kernel void k_call_const(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint v = in[i];
    out[i] = mix(v, v >> 3, in) + TABLE[v & 15];
}

__kernel void k_lds_fadd(__global const float *in, __global float *out) {
    __local float acc[4];
    uint lid = LID;
    if (lid < 4) acc[lid] = 0.0f;
    BARRIER();
    // Exact in any order, so that waves may add in any order (as on hardware): the addends are
    // small integers made from the input's bits.
    float v = (float)((int)(__builtin_bit_cast(uint, in[GID]) % 1000u) - 500);
    __atomic_fetch_add(&acc[lid & 3], v, __ATOMIC_RELAXED);
    BARRIER();
    if (lid < 4) out[__builtin_amdgcn_workgroup_id_x() * 4 + lid] = acc[lid];
}

__kernel void k_builtins_int(__global const uint *a, __global const uint *b, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i];
    out[10 * i + 0] = __builtin_amdgcn_ubfe(x, y & 31, (y >> 5) & 31);
    out[10 * i + 1] = (uint)__builtin_amdgcn_sbfe((int)x, y & 31, (y >> 5) & 31);
    out[10 * i + 2] = __builtin_amdgcn_alignbit(x, y, y >> 27);
    out[10 * i + 3] = __builtin_amdgcn_alignbyte(x, y, y >> 30);
    out[10 * i + 4] = __builtin_amdgcn_perm(x, y, 0x0c050a01);
    out[10 * i + 5] = __builtin_amdgcn_sad_u8(x, y, 77);
    out[10 * i + 6] = __builtin_amdgcn_msad_u8(x, y, 5);
    out[10 * i + 7] = __builtin_amdgcn_lerp(x, y, 0x01000100);
    out[10 * i + 8] = (uint)__builtin_amdgcn_udot4(x, y, 1000u, false);
#ifdef __gfx1030__
    out[10 * i + 9] = (uint)__builtin_amdgcn_sdot2(__builtin_bit_cast(short2, x), __builtin_bit_cast(short2, y), -5, false);
#else  // gfx11 has no v_dot2_i32_i16: the same sum, spelled out
    out[10 * i + 9] = (uint)((int)(short)x * (int)(short)y + (int)(short)(x >> 16) * (int)(short)(y >> 16) - 5);
#endif
}

__kernel void k_builtins_float(__global const float *a, __global const float *b, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i];
    out[8 * i + 0] = __builtin_bit_cast(uint, __builtin_amdgcn_fmed3f(x, y, 0.25f));
    out[8 * i + 1] = __builtin_bit_cast(uint, __builtin_amdgcn_frexp_mantf(x));
    out[8 * i + 2] = (uint)__builtin_amdgcn_frexp_expf(x);
    out[8 * i + 3] = __builtin_bit_cast(uint, __builtin_amdgcn_ldexpf(x, (int)(y * 4.0f)));
    out[8 * i + 4] = __builtin_bit_cast(uint, __builtin_amdgcn_fractf(x));
    out[8 * i + 5] = (uint)__builtin_amdgcn_classf(x, 0x0f0);
    out[8 * i + 6] = __builtin_bit_cast(uint, __builtin_amdgcn_cubema(x, y, 1.5f));
    out[8 * i + 7] = __builtin_bit_cast(uint, __builtin_amdgcn_cvt_pkrtz(x, y));
}

__kernel void k_lane_ops(__global const uint *in, __global uint *out) {
    uint v = in[GID];
    uint lane = __builtin_amdgcn_mbcnt_lo(~0u, 0);
    lane = __builtin_amdgcn_mbcnt_hi(~0u, lane);
    out[4 * GID + 0] = __builtin_amdgcn_readlane(v, 3);
    uint t = 12345u, s = __builtin_amdgcn_readfirstlane(v);
    __asm__("v_writelane_b32 %0, %1, 5" : "+v"(t) : "s"(s));
    out[4 * GID + 1] = t;
    out[4 * GID + 2] = __builtin_amdgcn_permlane16(0u, v, 0x01234567u, 0x89abcdefu, false, false);
    out[4 * GID + 3] = __builtin_amdgcn_mov_dpp8(v, 0x0000fac6) + lane;  // lanes 6,0,3,7,... within 8
}

__kernel void k_f64_ops(__global const double *a, __global double *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    double x = a[i];
    out[4 * i + 0] = (double)(long)(x * 1e3);
    out[4 * i + 1] = (double)(ulong)__builtin_fabs(x);
    out[4 * i + 2] = __builtin_ceil(x) - __builtin_trunc(x / 3.0);
    out[4 * i + 3] = __builtin_fmax(x, -x * 0.5);
}

__kernel void k_u64_div(__global const ulong *a, __global ulong *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    ulong x = a[i], y = a[(i + 7) % n] >> (i % 60) | 1;
    out[2 * i] = x / y;
    out[2 * i + 1] = (ulong)((long)x % (long)(y | 0x100));
}

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k_half2(__global const half2 *a, __global const half2 *b, __global half2 *out, __global short2 *iout, uint n) {
    uint i = GID;
    if (i >= n) return;
    half2 x = a[i], y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x * y;
    out[4 * i + 2] = __builtin_elementwise_fma(x, y, (half2)(0.5h, -0.25h));
    out[4 * i + 3] = __builtin_elementwise_max(x, y) - __builtin_elementwise_min(x, (half2)1.0h);
    short2 s = __builtin_bit_cast(short2, x), t = __builtin_bit_cast(short2, y);
    iout[i] = s + t * (short2)(3, -2);
}

// A __local pointer argument (LDS sized by the dispatch: {"local": bytes}).
__kernel void k_local_arg(__global uint *out, __local uint *tmp, uint n) {
    uint l = LID;
    tmp[l] = l * 3 + (uint)__builtin_amdgcn_workgroup_id_x();
    BARRIER();
    out[GID] = tmp[(l + 1) % n];
}

// Lane masks read whole and bit by bit around a compare and a carry-out that write them (the
// recompiler runs neighbouring VALU steps lane by lane and must keep these exact).
#if __AMDGCN_WAVEFRONT_SIZE == 64
#define VCC "vcc"
#else
#define VCC "vcc_lo"
#endif
__kernel void k_mask_hazards(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = in[i], r0, r1, r2, r3, r4;
    __asm__ volatile(
        "s_mov_b32 vcc_lo, 0x5a5a1234\n\t"
        "v_mov_b32 %0, vcc_lo\n\t"
        "v_cmp_lt_u32_e32 " VCC ", 50, %5\n\t"
        "v_mov_b32 %1, vcc_lo\n\t"
        "v_cndmask_b32_e64 %2, 0, 1, " VCC "\n\t"
        "v_add_co_u32 %3, " VCC ", vcc_lo, %5\n\t"
        "v_cndmask_b32_e64 %4, 0, 1, " VCC
        : "=&v"(r0), "=&v"(r1), "=&v"(r2), "=&v"(r3), "=&v"(r4)
        : "v"(x)
        : "vcc");
    out[5 * i + 0] = r0;
    out[5 * i + 1] = r1;
    out[5 * i + 2] = r2;
    out[5 * i + 3] = r3;
    out[5 * i + 4] = r4;
}

// More DPP16 controls: row rotate, half mirror, row xmask under row and bank masks (disabled
// lanes keep the old value), row share.
__kernel void k_dpp_more(__global const uint *in, __global uint *out) {
    uint v = in[GID];
    out[4 * GID + 0] = __builtin_amdgcn_update_dpp(0xdeadu, v, 0x123, 0xf, 0xf, 0);  // row_ror:3
    out[4 * GID + 1] = __builtin_amdgcn_update_dpp(0xdeadu, v, 0x141, 0xf, 0xf, 0);  // row_half_mirror
    out[4 * GID + 2] = __builtin_amdgcn_update_dpp(0xdeadu, v, 0x165, 0x5, 0xa, 0);  // row_xmask:5
    out[4 * GID + 3] = __builtin_amdgcn_update_dpp(0xdeadu, v, 0x153, 0xf, 0xf, 0);  // row_share:3
}

// v_fract_f32 and v_med3_f32 on ordinary and special values.
__kernel void k_fract_med3(__global const float *a, __global const float *b, __global const float *c, __global float *out) {
    uint i = GID;
    out[2 * i] = __builtin_amdgcn_fractf(a[i]);
    out[2 * i + 1] = __builtin_amdgcn_fmed3f(a[i], b[i], c[i]);
}

// v_permlane16_b32 in divergent flow: a lane whose source lane is disabled keeps the old value,
// and disabled lanes are not written.
__kernel void k_permlane_divergent(__global const uint *in, __global uint *out) {
    uint v = in[GID], l = LID, r = 0xdead;
    if ((l ^ (l >> 2)) & 1) r = __builtin_amdgcn_permlane16(0xbeef, v, 0x89abcdef, 0x01234567, false, false);
    out[GID] = r;
}

// f64 fma on crafted operands: the exact error of a product, random addends (some cancel),
// subnormal and overflowing results, and an addend far above the product. The recompiler
// builds fma from plain f64 steps, since a driver's Fma may round twice.
static double with_exp(ulong b, int e) { return as_double((b & 0x800fffffffffffffUL) | ((ulong)(1023 + e) << 52)); }
__kernel void k_fma64(__global const ulong *in, __global double *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    ulong a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    double x = with_exp(a, (int)(a >> 52 & 63) - 32), y = with_exp(b, (int)(b >> 52 & 63) - 32);
    double z = with_exp(c, (int)(c >> 52 & 127) - 64);
    out[5 * i + 0] = __builtin_fma(x, y, -(x * y));
    out[5 * i + 1] = __builtin_fma(x, y, z);
    out[5 * i + 2] = __builtin_fma(x * 0x1p-1000, y * 0x1p-40, z * 0x1p-1050);
    out[5 * i + 3] = __builtin_fma(x * 0x1p900, y * 0x1p100, -z * 0x1p1000);
    out[5 * i + 4] = __builtin_fma(x, y, z * 0x1p200);
}

// SDWA (gfx10 only): byte and word source selection with sign extension, and each way of
// writing part of VDST (preserve the rest, sign-extend upward, zero it).
__kernel void k_sdwa(__global const uint *in, __global uint *out) {
#ifdef __gfx1030__
    uint a = in[2 * GID], b = in[2 * GID + 1];
    uint r0 = b, r1, r2, r3;
    __asm__ volatile("v_add_nc_u32_sdwa %0, %1, %2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:WORD_0" : "+v"(r0) : "v"(a), "v"(b));
    __asm__ volatile("v_max_i32_sdwa %0, sext(%1), sext(%2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_2" : "=v"(r1) : "v"(a), "v"(b));
    __asm__ volatile("v_mov_b32_sdwa %0, %1 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3" : "=v"(r2) : "v"(a));
    __asm__ volatile("v_sub_nc_u32_sdwa %0, sext(%1), %2 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_1" : "=v"(r3) : "v"(a), "v"(b));
    out[4 * GID + 0] = r0;
    out[4 * GID + 1] = r1;
    out[4 * GID + 2] = r2;
    out[4 * GID + 3] = r3;
#endif
}

// Rounding to integers near the end of the fraction bits (2^20 to 2^55) and at small halves:
// drivers get these wrong (lavapipe's f64 RoundEven(3.5) is 3; above 2^50 its Trunc keeps the
// fraction), so the recompiler computes them itself.
__kernel void k_round64(__global const ulong *in, __global double *out, __global float *fout, uint n) {
    uint i = GID;
    if (i >= n) return;
    ulong a = in[i];
    double x = with_exp(a, 20 + (int)(a >> 52 & 31) + 4);
    double h = (double)(int)(a & 0xff) - 127.5;
    float f = (float)with_exp(a, (int)(a >> 52 & 7) + 18);
    out[4 * i + 0] = __builtin_rint(x);
    out[4 * i + 1] = __builtin_trunc(x);
    out[4 * i + 2] = __builtin_rint(h);
    out[4 * i + 3] = __builtin_trunc(h * 0.25);
    fout[2 * i + 0] = __builtin_rintf(f);
    fout[2 * i + 1] = __builtin_truncf(-f);
}

// Cube-map coordinates: face id, s and t coordinates and twice the major axis.
__kernel void k_cube(__global const float *a, __global float *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    float x = a[3 * i], y = a[3 * i + 1], z = a[3 * i + 2];
    out[4 * i + 0] = __builtin_amdgcn_cubeid(x, y, z);
    out[4 * i + 1] = __builtin_amdgcn_cubesc(x, y, z);
    out[4 * i + 2] = __builtin_amdgcn_cubetc(x, y, z);
    out[4 * i + 3] = __builtin_amdgcn_cubema(x, y, z);
}

// v_sin/v_cos, f32 and f16, on values in revolutions: the documented range [-256, 256] and, from
// the raw input bits, any value at all (huge, tiny, infinite, NaN).
__kernel void k_trig(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint bits = in[i];
    float wide = as_float(bits);
    float near = (float)(int)(bits >> 8) * 0x1p-15f - 256.0f;
    half h = as_half((ushort)bits);
    out[5 * i + 0] = as_uint(__builtin_amdgcn_sinf(wide));
    out[5 * i + 1] = as_uint(__builtin_amdgcn_cosf(wide));
    out[5 * i + 2] = as_uint(__builtin_amdgcn_sinf(near));
    out[5 * i + 3] = as_uint(__builtin_amdgcn_cosf(near));
    out[5 * i + 4] = as_ushort(__builtin_amdgcn_sinh(h)) | (uint)as_ushort(__builtin_amdgcn_cosh(h)) << 16;
}

// 16-bit halves of registers: d16 loads into the high half (global and LDS), d16_hi stores.
__kernel void k_d16(__global const half *in, __global half *out, __global const char *bytes, __global half *hi, uint n) {
    half priv[8];
    __local half tile[512];
    uint i = GID;
    if (i >= n) return;
    half2 v = (half2)(in[2 * i + 1], in[(3 * i) % n]);
    v = v * (half2)(2.0h, 0.5h);
    short2 s = (short2)(bytes[i], (short)(uchar)bytes[i + 1]);
    tile[2 * LID] = v.y;
    tile[2 * LID + 1] = v.x;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); __builtin_amdgcn_s_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    half2 w = (half2)(tile[(2 * LID + 3) % 512], tile[(2 * LID + 6) % 512]);
    w = w + as_half2(s);
    out[4 * i] = w.y;
    out[4 * i + 1] = w.x;
    out[4 * i + 2] = v.y;
    out[4 * i + 3] = v.x;
    for (uint k = 0; k < 8; k++) priv[k] = (k & 1) ? w.y : v.x + (half)k;
    half2 p = (half2)(priv[i & 7], priv[(i >> 3) & 7]);
    p = p * w;
    hi[3 * i] = p.y;
    hi[3 * i + 1] = (half)(p.x - v.y);
    hi[3 * i + 2] = as_half((short)bytes[i + 2]);
}

// v_exp_f32/v_exp_f16 (2^x): the range where 2^x is a finite nonzero f32 and, from the raw input
// bits, any value at all.
__kernel void k_exp2(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint bits = in[i] * 0x9e3779b1u;
    float wide = as_float(bits);
    float near = (float)(int)(bits >> 8) * 0x1p-15f - 152.0f;
    half h = as_half((ushort)bits);
    out[3 * i + 0] = as_uint(__builtin_amdgcn_exp2f(wide));
    out[3 * i + 1] = as_uint(__builtin_amdgcn_exp2f(near));
    out[3 * i + 2] = as_ushort(__builtin_elementwise_exp2(h));
}

// v_log_f32/v_log_f16 (log2 x): values near 1, positive values of every exponent and, from the
// raw input bits, any value at all (negative, zero, infinite, NaN).
__kernel void k_log2(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint bits = in[i] * 0x85ebca6bu;
    float wide = as_float(bits);
    float near = 1.0f + ((float)(bits >> 8) * 0x1p-24f - 0.5f) * 0x1p-6f;
    float positive = as_float(bits & 0x7fffffffu);
    half h = as_half((ushort)bits);
    out[4 * i + 0] = as_uint(__builtin_amdgcn_logf(wide));
    out[4 * i + 1] = as_uint(__builtin_amdgcn_logf(near));
    out[4 * i + 2] = as_uint(__builtin_amdgcn_logf(positive));
    out[4 * i + 3] = as_ushort(__builtin_elementwise_log2(h));
}

// Generic (flat) pointers: each lane picks a global, LDS or private array at run time, so clang
// reaches them with flat_load/flat_store (the address's aperture decides where they go). Each
// lane touches only its own global element, so workgroups do not race.
__kernel void k_flat(__global uint *g, __global uchar *gb, __global uint *out, uint n) {
    __local uint tile[64];
    __local uchar tb[64];
    uint priv[20];
    uchar pb[20];
    uint l = LID, i = GID;
    uint mine = g[i];
    tile[l] = mine ^ 0x5a5a5a5au;
    tb[l] = gb[i];
    for (uint k = 0; k < 20; k++) { priv[k] = mine * (k + 1) + k; pb[k] = (uchar)(gb[i] + k); }
    BARRIER();
    uint which = (mine >> 3) % 3;
    uint *p = which == 0 ? (uint *)g : which == 1 ? (uint *)tile : priv;
    uchar *b = which == 0 ? (uchar *)gb : which == 1 ? (uchar *)tb : pb;
    uint k = which == 0 ? i : which == 1 ? (l + 1) % 64 : (i * 5 + (mine >> 8)) % 20;
    p[k] = p[k] * 3u + (uint)b[k] + 1u;
    ((ushort *)p)[2 * k + 1] ^= (ushort)k;
    b[k] = (uchar)(b[k] + 7u);
    BARRIER();
    uint j = (i * 5 + (mine >> 8)) % 20;
    out[3 * i] = tile[l];
    out[3 * i + 1] = priv[j] + priv[(j + 1) % 20] + pb[j];
    out[3 * i + 2] = tb[l];
}

// One function called three times through an address computed once (clang keeps it in SGPRs
// across the calls), with a global, an LDS and a private pointer in turn.
__attribute__((noinline)) void bump(uint *p, uint k, uchar *bytes) {
    p[k] = p[k] * 3u + (uint)bytes[k] + 1u;
    ((ushort *)p)[2 * k + 1] ^= (ushort)k;
    bytes[k] = (uchar)(bytes[k] + 7u);
}

__kernel void k_call_reuse(__global uint *g, __global uchar *gb, __global uint *out, uint n) {
    __local uint tile[64];
    __local uchar tb[64];
    uint priv[8];
    uchar pb[8];
    uint l = LID, i = GID;
    uint mine = g[i];
    tile[l] = mine ^ 0x5a5a5a5au;
    tb[l] = gb[i];
    for (uint k = 0; k < 8; k++) { priv[k] = mine * (k + 1) + k; pb[k] = (uchar)(gb[i] + k); }
    BARRIER();
    bump(g, i, gb);
    bump(tile, (l + 1) % 64, tb);
    bump(priv, (mine >> 8) % 8, pb);
    BARRIER();
    out[3 * i] = tile[l];
    out[3 * i + 1] = priv[(mine >> 8) % 8] + priv[i % 8] + pb[(mine >> 8) % 8];
    out[3 * i + 2] = tb[l];
}

// Atomics through generic pointers (flat_atomic_*): each lane's own global element or its own
// private array, chosen at run time; the old values come back.
__kernel void k_flat_atomics(__global uint *g, __global ulong *g64, __global uint *out, uint n) {
    uint priv[4];
    ulong priv64[2];
    uint i = GID;
    uint mine = g[i];
    for (uint k = 0; k < 4; k++) priv[k] = mine * (k + 3);
    priv64[0] = g64[i];
    priv64[1] = ~g64[i];
    uint k = (mine >> 4) % 4;
    uint *p = (mine & 1) ? (uint *)&g[i] : &priv[k];
    ulong *q = (mine & 2) ? (ulong *)&g64[i] : &priv64[(mine >> 2) & 1];
    uint a = __atomic_fetch_add(p, mine >> 8, __ATOMIC_RELAXED);
    uint b = __atomic_fetch_max(p, 0x40000000u ^ mine, __ATOMIC_RELAXED);
    uint c = __atomic_exchange_n(p, a ^ b, __ATOMIC_RELAXED);
    ulong d = __atomic_fetch_add(q, (ulong)mine << 20, __ATOMIC_RELAXED);
    uint expected = c;
    __atomic_compare_exchange_n(p, &expected, c + 5u, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    out[6 * i + 0] = a;
    out[6 * i + 1] = b;
    out[6 * i + 2] = c ^ expected;
    out[6 * i + 3] = (uint)d;
    out[6 * i + 4] = (uint)(d >> 32);
    out[6 * i + 5] = priv[k] + (uint)priv64[(mine >> 2) & 1];
}

// The correctly rounded f32 division sequence LLVM emits (v_div_scale_f32, v_rcp_f32, fmas,
// v_div_fmas_f32, v_div_fixup_f32), written with the builtins: on raw input bits (every
// exponent, so every scaling case) and on moderate values.
float div_ieee(float a, float b, uint *flags) {
    bool s1, s2;
    float den = __builtin_amdgcn_div_scalef(a, b, false, &s1);
    float num = __builtin_amdgcn_div_scalef(a, b, true, &s2);
    float r = __builtin_amdgcn_rcpf(den);
    float e = __builtin_fmaf(-den, r, 1.0f);
    r = __builtin_fmaf(e, r, r);
    float q = num * r;
    float rem = __builtin_fmaf(-den, q, num);
    q = __builtin_fmaf(rem, r, q);
    rem = __builtin_fmaf(-den, q, num);
    float res = __builtin_amdgcn_div_fmasf(rem, r, q, s2);
    *flags = (uint)s1 | (uint)s2 << 1;
    return __builtin_amdgcn_div_fixupf(res, b, a);
}

__kernel void k_div32(__global const uint *a, __global const uint *b, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = a[i] * 0x9e3779b1u, y = b[i] * 0x85ebca6bu;
    uint f0, f1;
    out[4 * i + 0] = as_uint(div_ieee(as_float(x), as_float(y), &f0));
    out[4 * i + 1] = as_uint(div_ieee((float)(int)x, (float)(y >> 8) + 1.0f, &f1));
    out[4 * i + 2] = f0 | f1 << 2;
    out[4 * i + 3] = as_uint(div_ieee(as_float(x & 0x807fffffu), as_float(y | 0x7e000000u), &f0)) ^ f0;
}

// f64 division as clang emits it (v_div_scale_f64, v_rcp_f64, fmas, v_div_fmas_f64,
// v_div_fixup_f64) on raw bits of every exponent and on moderate values.
__kernel void k_div64(__global const ulong *a, __global const ulong *b, __global ulong *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    ulong x = a[i] * 0x9e3779b97f4a7c15ul, y = b[i] * 0xc2b2ae3d27d4eb4ful;
    out[2 * i + 0] = as_ulong(as_double(x) / as_double(y));
    out[2 * i + 1] = as_ulong((double)(long)x / ((double)(y >> 11) + 1.0));
}

// v_trig_preop_f64: 53-bit windows of 2/π for argument reduction, over any input (exponents past
// 1077 move the window, from 1968 the result is scaled up) and any selector (low 5 bits used).
__kernel void k_trig_preop(__global const ulong *in, __global double *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    // Exponent bits from the index too, so that any input covers the whole range.
    ulong b = in[i] ^ (ulong)(i * 8) << 52;
    double x = as_double(b);
    out[2 * i + 0] = __builtin_amdgcn_trig_preop(x, (int)(b >> 3));
    out[2 * i + 1] = __builtin_amdgcn_trig_preop(x, (int)(i & 31));
}

// The clock (instructions executed, in the emulator) around a loop whose length varies by lane,
// and hardware registers: MODE (whole, and FP_DENORM alone), HW_ID, GPR_ALLOC, LDS_ALLOC.
__kernel void k_clock_hwreg(__global const uint *in, __global ulong *out, __global uint *regs) {
    uint i = GID;
    ulong t0 = __builtin_readcyclecounter();
    uint acc = in[i];
    for (uint k = 0; k < (in[i] & 7); k++) acc = acc * 3 + k;
    ulong t1 = __builtin_readsteadycounter();
    out[3 * i + 0] = t0;
    out[3 * i + 1] = t1;
    out[3 * i + 2] = acc;
    regs[5 * i + 0] = __builtin_amdgcn_s_getreg(1 | 31 << 11);
    regs[5 * i + 1] = __builtin_amdgcn_s_getreg(1 | 4 << 6 | 3 << 11);
    regs[5 * i + 2] = __builtin_amdgcn_s_getreg(4 | 31 << 11);
    regs[5 * i + 3] = __builtin_amdgcn_s_getreg(5 | 31 << 11);
    regs[5 * i + 4] = __builtin_amdgcn_s_getreg(6 | 31 << 11);
}
