// RDNA3 WMMA through the clang builtins, fragments laid out as AMD documents them (wave32):
// lane l holds row l % 16 of A and column l % 16 of B; C/D element v of lane l is row 2v + l / 16,
// column l % 16. Only built for gfx11 (crates/emu/tests/wmma.rs).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef unsigned int uint;

__kernel void k_wmma_f16(__global const half *A, __global const half *B, __global const float *C, __global float *D) {
    uint l = __builtin_amdgcn_workitem_id_x();
    half16 a, b;
    float8 c;
    for (uint k = 0; k < 16; k++) {
        ((half *)&a)[k] = A[16 * (l % 16) + k];
        ((half *)&b)[k] = B[16 * k + l % 16];
    }
    for (uint v = 0; v < 8; v++) ((float *)&c)[v] = C[16 * (2 * v + l / 16) + l % 16];
    float8 d = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c);
    for (uint v = 0; v < 8; v++) D[16 * (2 * v + l / 16) + l % 16] = ((float *)&d)[v];
}

__kernel void k_wmma_iu8(__global const char *A, __global const uchar *B, __global const int *C, __global int *D) {
    uint l = __builtin_amdgcn_workitem_id_x();
    int4 a, b;
    int8 c;
    for (uint k = 0; k < 16; k++) {
        ((char *)&a)[k] = A[16 * (l % 16) + k];
        ((uchar *)&b)[k] = B[16 * k + l % 16];
    }
    for (uint v = 0; v < 8; v++) ((int *)&c)[v] = C[16 * (2 * v + l / 16) + l % 16];
    // A signed, B unsigned, no clamp.
    int8 d = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a, false, b, c, false);
    for (uint v = 0; v < 8; v++) D[16 * (2 * v + l / 16) + l % 16] = ((int *)&d)[v];
}

// bf16 in, bf16 out: C and D in the low halves of their registers (op_sel clear).
__kernel void k_wmma_bf16(__global const ushort *A, __global const ushort *B, __global const ushort *C, __global ushort *D) {
    uint l = __builtin_amdgcn_workitem_id_x();
    short16 a, b, c;
    for (uint k = 0; k < 16; k++) {
        ((ushort *)&a)[k] = A[16 * (l % 16) + k];
        ((ushort *)&b)[k] = B[16 * k + l % 16];
        ((ushort *)&c)[k] = 0;
    }
    for (uint v = 0; v < 8; v++) ((ushort *)&c)[2 * v] = C[16 * (2 * v + l / 16) + l % 16];
    short16 d = __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32(a, b, c, false);
    for (uint v = 0; v < 8; v++) D[16 * (2 * v + l / 16) + l % 16] = ((ushort *)&d)[2 * v];
}
