// The emulator's kernel corpus: OpenCL C written for rdna, compiled by clang-19 for gfx1030 in
// wave32 and wave64 (see crates/emu/tests/corpus.rs, which computes every expected result in Rust).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

typedef unsigned int uint;
typedef unsigned long ulong;

#define LID (uint)__builtin_amdgcn_workitem_id_x()
#define WG (uint)__builtin_amdgcn_workgroup_id_x()
#define WGSIZE (uint)__builtin_amdgcn_workgroup_size_x()
#define GID (WG * WGSIZE + LID)
#define BARRIER() do { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); __builtin_amdgcn_s_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); } while (0)

__kernel void k_saxpy(__global float *out, __global const float *x, __global const float *y, float a, uint n) {
    uint i = GID;
    if (i < n) out[i] = a * x[i] + y[i];
}

__kernel void k_int_ops(__global uint *out, __global const uint *a, __global const uint *b, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i] | 1;
    int sx = (int)x, sy = (int)(y | 0x100);
    out[8 * i + 0] = x * y + (x >> 3) - (y << 5);
    out[8 * i + 1] = x / y;
    out[8 * i + 2] = x % y;
    out[8 * i + 3] = (uint)(sx / sy);
    out[8 * i + 4] = (uint)(sx % sy);
    out[8 * i + 5] = (uint)(((ulong)x * y) >> 32);
    out[8 * i + 6] = (uint)(sx >> (y & 31)) ^ (x << (y & 31));
    out[8 * i + 7] = (x > y ? x - y : y - x) + (uint)(sx < sy);
}

__kernel void k_i64_ops(__global ulong *out, __global const ulong *a, __global const ulong *b, uint n) {
    uint i = GID;
    if (i >= n) return;
    ulong x = a[i], y = b[i] | 1;
    long sx = (long)x, sy = (long)(y >> 3) | 1;
    out[6 * i + 0] = x * y + (x >> 7);
    out[6 * i + 1] = x / y;
    out[6 * i + 2] = x % (y >> 40 | 3);
    out[6 * i + 3] = (ulong)(sx / sy);
    out[6 * i + 4] = (x << (y & 63)) | (x >> ((y >> 8) & 63));
    out[6 * i + 5] = (ulong)(sx >> (y & 63)) + (ulong)(sx < sy);
}

__kernel void k_f32_math(__global float *out, __global const float *a, __global const float *b, uint n) {
    uint i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i];
    out[6 * i + 0] = x / y;
    out[6 * i + 1] = __builtin_sqrtf(__builtin_fabsf(x));
    out[6 * i + 2] = __builtin_fmaf(x, y, 1.0f);
    out[6 * i + 3] = __builtin_fminf(x, y) + __builtin_fmaxf(x, 2.0f * y);
    out[6 * i + 4] = __builtin_floorf(x) - __builtin_ceilf(y) + __builtin_truncf(x * 3.5f) + __builtin_rintf(y * 0.75f);
    out[6 * i + 5] = __builtin_copysignf(x * y - x, y);
}

__kernel void k_f64_math(__global double *out, __global const double *a, __global const double *b, uint n) {
    uint i = GID;
    if (i >= n) return;
    double x = a[i], y = b[i];
    out[5 * i + 0] = x * y + x;
    out[5 * i + 1] = x / y;
    out[5 * i + 2] = __builtin_sqrt(__builtin_fabs(x));
    out[5 * i + 3] = __builtin_fma(x, y, -1.0);
    out[5 * i + 4] = __builtin_floor(x) + __builtin_fmin(x, y);
}

__kernel void k_f16_math(__global half *out, __global const half *a, __global const half *b, uint n) {
    uint i = GID;
    if (i >= n) return;
    half x = a[i], y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x * y;
    out[4 * i + 2] = x - y * (half)0.5;
    out[4 * i + 3] = (half)((float)x / (float)y);
}

__kernel void k_convert(__global int *out, __global const float *a, __global const double *d, uint n) {
    uint i = GID;
    if (i >= n) return;
    float x = a[i];
    out[6 * i + 0] = (int)x;
    out[6 * i + 1] = (int)(uint)__builtin_fabsf(x);
    out[6 * i + 2] = __builtin_bit_cast(int, (float)(int)(x * 1000.0f));
    out[6 * i + 3] = __builtin_bit_cast(int, (float)(uint)(i * 2654435761u));
    out[6 * i + 4] = __builtin_bit_cast(int, (float)d[i]);
    out[6 * i + 5] = (int)d[i];
}

__kernel void k_minmax(__global int *out, __global const int *a, __global const int *b, uint n) {
    uint i = GID;
    if (i >= n) return;
    int x = a[i], y = b[i];
    out[4 * i + 0] = x < y ? x : y;
    out[4 * i + 1] = (int)((uint)x > (uint)y ? (uint)x : (uint)y);
    out[4 * i + 2] = x < -100 ? -100 : (x > 100 ? 100 : x);
    out[4 * i + 3] = (x < 0 ? -x : x) + (y < 0);
}

__kernel void k_divergent(__global uint *out, __global const uint *a, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = a[i];
    uint r;
    if (x & 1) {
        r = x * 3 + 1;
        if (x & 4) r ^= 0x5555;
        else r += 77;
    } else if (x & 2) {
        r = x / 7;
    } else {
        r = ~x;
    }
    out[i] = r;
}

__kernel void k_collatz(__global uint *out, __global const uint *a, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = a[i], steps = 0;
    while (x != 1 && steps < 1000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        steps++;
    }
    out[i] = steps;
}

__kernel void k_nested_loops(__global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint acc = 0;
    for (uint j = 0; j < (i % 13); j++)
        for (uint k = 0; k <= j; k++)
            acc += (j * 31 + k) ^ i;
    out[i] = acc;
}

__kernel void k_reduce(__global const uint *in, __global uint *out) {
    __local uint tile[256];
    uint lid = LID;
    tile[lid] = in[GID];
    BARRIER();
    for (uint s = WGSIZE / 2; s > 0; s >>= 1) {
        if (lid < s) tile[lid] += tile[lid + s];
        BARRIER();
    }
    if (lid == 0) out[WG] = tile[0];
}

__kernel void k_scan(__global const uint *in, __global uint *out) {
    __local uint buf[2][256];
    uint lid = LID, n = WGSIZE;
    int p = 0;
    buf[0][lid] = in[GID];
    BARRIER();
    for (uint off = 1; off < n; off <<= 1) {
        uint v = buf[p][lid];
        if (lid >= off) v += buf[p][lid - off];
        buf[1 - p][lid] = v;
        p = 1 - p;
        BARRIER();
    }
    out[GID] = buf[p][lid];
}

__kernel void k_lds_atomics(__global const uint *in, __global uint *out) {
    __local uint bins[16];
    __local uint mx;
    uint lid = LID;
    if (lid < 16) bins[lid] = 0;
    if (lid == 0) mx = 0;
    BARRIER();
    uint v = in[GID];
    __atomic_fetch_add(&bins[v & 15], 1u, __ATOMIC_RELAXED);
    __atomic_fetch_max(&mx, v, __ATOMIC_RELAXED);
    BARRIER();
    if (lid < 16) out[WG * 17 + lid] = bins[lid];
    if (lid == 0) out[WG * 17 + 16] = mx;
}

__kernel void k_histogram(__global const uint *in, __global uint *bins, uint n) {
    uint i = GID;
    if (i < n) __atomic_fetch_add(&bins[in[i] % 64], 1u, __ATOMIC_RELAXED);
}

__kernel void k_atomic64(__global const ulong *in, __global ulong *acc, uint n) {
    uint i = GID;
    if (i >= n) return;
    __atomic_fetch_add(&acc[0], in[i], __ATOMIC_RELAXED);
    __atomic_fetch_xor(&acc[1], in[i], __ATOMIC_RELAXED);
    __atomic_fetch_max(&acc[2], in[i], __ATOMIC_RELAXED);
    __atomic_fetch_min(&acc[3], in[i], __ATOMIC_RELAXED);
}

__kernel void k_atomic_minmax_cas(__global const int *in, __global int *acc, uint n) {
    uint i = GID;
    if (i >= n) return;
    __atomic_fetch_min(&acc[0], in[i], __ATOMIC_RELAXED);
    __atomic_fetch_max(&acc[1], in[i], __ATOMIC_RELAXED);
    __atomic_fetch_and(&acc[2], in[i] | 0x10000, __ATOMIC_RELAXED);
    __atomic_fetch_or(&acc[3], in[i] & 0xff00, __ATOMIC_RELAXED);
    int old = __atomic_load_n(&acc[4], __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&acc[4], &old, old + (in[i] & 7), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

__kernel void k_lds_atomic64(__global const ulong *in, __global ulong *out) {
    __local ulong s[3];
    uint lid = LID;
    if (lid == 0) { s[0] = 0; s[1] = ~0ul; s[2] = 0; }
    BARRIER();
    ulong v = in[GID];
    __atomic_fetch_add(&s[0], v, __ATOMIC_RELAXED);
    __atomic_fetch_min(&s[1], v, __ATOMIC_RELAXED);
    ulong old = __atomic_load_n(&s[2], __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&s[2], &old, old ^ (v * 0x9e3779b97f4a7c15ul), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    BARRIER();
    if (lid < 3) out[WG * 3 + lid] = s[lid];
}

__kernel void k_ballot(__global const uint *in, __global ulong *out) {
    uint v = in[GID];
    ulong m = __builtin_amdgcn_ballot_w64(v & 1);
    out[GID] = m;
}

__kernel void k_readfirstlane(__global const uint *in, __global uint *out) {
    uint v = in[GID];
    uint r = v & 4 ? __builtin_amdgcn_readfirstlane(v) : 7;
    out[GID] = r;
}

__kernel void k_mbcnt(__global const uint *in, __global uint *out) {
    uint lo = __builtin_amdgcn_mbcnt_lo(~0u, 0);
    uint all = __builtin_amdgcn_mbcnt_hi(~0u, lo);
    uint r = 0;
    if (in[GID] & 1) r = __builtin_amdgcn_mbcnt_hi(0xaaaaaaaau, __builtin_amdgcn_mbcnt_lo(0x0f0f0f0fu, 100));
    out[2 * GID] = all;
    out[2 * GID + 1] = r;
}

__kernel void k_swizzle(__global const uint *in, __global uint *out) {
    uint v = in[GID];
    // quad permute [3,2,1,0] and bitmask mode (xor 0x5 within 32 lanes)
    out[2 * GID] = __builtin_amdgcn_ds_swizzle(v, 0x801b);
    out[2 * GID + 1] = __builtin_amdgcn_ds_swizzle(v, (0x5 << 10) | 0x1f);
}

__kernel void k_dpp(__global const uint *in, __global uint *out) {
    uint v = in[GID];
    out[3 * GID + 0] = __builtin_amdgcn_update_dpp(0xdeadu, v, 0x111, 0xf, 0xf, 0);    // row_shr:1, keep old
    out[3 * GID + 1] = __builtin_amdgcn_update_dpp(0xdeadu, v, 0x101, 0xf, 0xf, 1);    // row_shl:1, bound_ctrl
    out[3 * GID + 2] = __builtin_amdgcn_update_dpp(0u, v, 0x1b, 0xf, 0xf, 0) + __builtin_amdgcn_mov_dpp(v, 0x140, 0xf, 0xf, 0);
}

__kernel void k_bpermute(__global const uint *in, __global uint *out) {
    uint v = in[GID];
    uint lid = LID;
    out[GID] = __builtin_amdgcn_ds_bpermute((int)(((lid * 7 + 3) % 32) * 4), (int)v);
}

__kernel void k_matmul(__global const float *a, __global const float *b, __global float *c, uint n) {
    __local float ta[16][16];
    __local float tb[16][16];
    uint tx = LID, ty = (uint)__builtin_amdgcn_workitem_id_y();
    uint row = __builtin_amdgcn_workgroup_id_y() * 16 + ty, col = WG * 16 + tx;
    float acc = 0.0f;
    for (uint t = 0; t < n; t += 16) {
        ta[ty][tx] = a[row * n + t + tx];
        tb[ty][tx] = b[(t + ty) * n + col];
        BARRIER();
        for (uint k = 0; k < 16; k++) acc = __builtin_fmaf(ta[ty][k], tb[k][tx], acc);
        BARRIER();
    }
    c[row * n + col] = acc;
}

__kernel void k_bitonic(__global uint *data) {
    __local uint s[256];
    uint lid = LID;
    s[lid] = data[GID];
    BARRIER();
    for (uint k = 2; k <= 256; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            uint p = lid ^ j;
            if (p > lid) {
                uint a = s[lid], b = s[p];
                int up = (lid & k) == 0;
                if ((a > b) == up) { s[lid] = b; s[p] = a; }
            }
            BARRIER();
        }
    }
    data[GID] = s[lid];
}

__kernel void k_bits(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = in[i];
    out[5 * i + 0] = __builtin_popcount(x);
    out[5 * i + 1] = x ? __builtin_clz(x) : 32;
    out[5 * i + 2] = x ? __builtin_ctz(x) : 32;
    out[5 * i + 3] = __builtin_bitreverse32(x);
    out[5 * i + 4] = (x << 13) | (x >> 19);
}

__kernel void k_private_array(__global const uint *in, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint arr[40];
    for (uint k = 0; k < 40; k++) arr[k] = in[(i + k) % n] * (k + 1);
    uint idx = in[i] % 40;
    arr[idx] += 1000;
    uint acc = 0;
    for (uint k = 0; k < 40; k += 1 + (in[i] & 3)) acc += arr[(k * 7 + idx) % 40];
    out[i] = acc;
}

__kernel void k_transpose(__global const uint *in, __global uint *out, uint w, uint h) {
    uint x = WG * WGSIZE + LID;
    uint y = __builtin_amdgcn_workgroup_id_y() * __builtin_amdgcn_workgroup_size_y() + __builtin_amdgcn_workitem_id_y();
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
}

__kernel void k_grid3d(__global uint *out) {
    uint x = WG * WGSIZE + LID;
    uint y = __builtin_amdgcn_workgroup_id_y() * __builtin_amdgcn_workgroup_size_y() + __builtin_amdgcn_workitem_id_y();
    uint z = __builtin_amdgcn_workgroup_id_z() * __builtin_amdgcn_workgroup_size_z() + __builtin_amdgcn_workitem_id_z();
    uint idx = x + 8 * (y + 6 * z);
    out[idx] = x * 100 + y * 10 + z + 1;
}

__kernel void k_float_select(__global const float *a, __global const float *b, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i];
    uint r = 0;
    if (x < y) r |= 1;
    if (x == y) r |= 2;
    if (x != x) r |= 4;
    if (!(x >= y)) r |= 8;
    if (__builtin_isinf(x)) r |= 16;
    out[i] = r;
}

__kernel void k_bytes(__global const uchar *a, __global const short *b, __global uchar *o8, __global short *o16, uint n) {
    uint i = GID;
    if (i >= n) return;
    o8[i] = (uchar)(a[i] * 3 + (uchar)b[i]);
    o16[i] = (short)(b[i] * -2 + (char)a[i]);
}

__kernel void k_vec4(__global const float4 *a, __global float4 *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    float4 v = a[i];
    out[i] = (float4)(v.w, v.z + v.y, v.y * 2.0f, v.x - v.w);
}

__kernel void k_mulhi_mad(__global const uint *a, __global uint *out, uint n) {
    uint i = GID;
    if (i >= n) return;
    uint x = a[i], y = a[(i + 1) % n];
    out[3 * i + 0] = (x & 0xffffff) * (y & 0xffffff) + 17;
    out[3 * i + 1] = (uint)(((long)(int)x * (long)(int)y) >> 32);
    out[3 * i + 2] = (uint)(((ulong)x * y + 12345ul) >> 16);
}
