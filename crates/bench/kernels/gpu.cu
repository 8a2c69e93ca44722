// The peer of kernels/gpu.cl: the same five algorithms in CUDA, timed with CUDA events after a
// warm-up (best of REPS launches), and the device's copy bandwidth (cudaMemcpy device to device).
// Built and run by `rdna-bench --only gpu` where nvcc is on PATH; prints `name milliseconds`.
//
//   nvcc -O3 -arch=native -o gpu-cuda gpu.cu && ./gpu-cuda SAXPY_N REDUCE_N MATMUL_N TRANSPOSE_N ALU_GROUPS ALU_ITERS
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

typedef unsigned int uint;

__global__ void saxpy(float *out, const float *x, const float *y, float a, uint n) {
    uint i = blockIdx.x * 256 + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}

__global__ void reduce(const uint *in, uint *out) {
    __shared__ uint tile[256];
    uint lid = threadIdx.x, base = blockIdx.x * 1024;
    tile[lid] = in[base + lid] + in[base + 256 + lid] + in[base + 512 + lid] + in[base + 768 + lid];
    __syncthreads();
    for (uint s = 128; s > 0; s >>= 1) {
        if (lid < s) tile[lid] += tile[lid + s];
        __syncthreads();
    }
    if (lid == 0) out[blockIdx.x] = tile[0];
}

__global__ void matmul(const float *a, const float *b, float *c, uint n) {
    __shared__ float ta[16][16];
    __shared__ float tb[16][16];
    uint tx = threadIdx.x, ty = threadIdx.y;
    uint row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (uint t = 0; t < n; t += 16) {
        ta[ty][tx] = a[row * n + t + tx];
        tb[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (uint k = 0; k < 16; k++) acc = fmaf(ta[ty][k], tb[k][tx], acc);
        __syncthreads();
    }
    c[row * n + col] = acc;
}

__global__ void transpose(const uint *in, uint *out, uint n) {
    __shared__ uint tile[32][33];
    uint tx = threadIdx.x, ty = threadIdx.y;
    uint bx = blockIdx.x * 32, by = blockIdx.y * 32;
    for (uint j = 0; j < 32; j += 8) tile[ty + j][tx] = in[(by + ty + j) * n + bx + tx];
    __syncthreads();
    for (uint j = 0; j < 32; j += 8) out[(bx + ty + j) * n + by + tx] = tile[tx][ty + j];
}

__global__ void alu(uint *out, uint iters) {
    uint x = blockIdx.x * 256 + threadIdx.x, y = x * 2654435761u;
    float f = (float)x;
    for (uint i = 0; i < iters; i++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
        f = fmaf(f, 0.999f, (float)(y & 255));
    }
    out[blockIdx.x * 256 + threadIdx.x] = x ^ y ^ __float_as_uint(f);
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
static const int REPS = 10;

template <typename F> static float best_ms(F launch) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch();  // warm-up
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (ms < best) best = ms;
    }
    CHECK(cudaGetLastError());
    return best;
}

static void *zeroed(size_t bytes) {
    void *p;
    CHECK(cudaMalloc(&p, bytes));
    CHECK(cudaMemset(p, 1, bytes));
    return p;
}

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: %s SAXPY_N REDUCE_N MATMUL_N TRANSPOSE_N ALU_GROUPS ALU_ITERS\n", argv[0]); return 2; }
    uint sn = atoi(argv[1]), rn = atoi(argv[2]), mn = atoi(argv[3]), tn = atoi(argv[4]), ag = atoi(argv[5]), ai = atoi(argv[6]);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device %s\n", prop.name);
    {
        float *o = (float *)zeroed(4ull * sn), *x = (float *)zeroed(4ull * sn), *y = (float *)zeroed(4ull * sn);
        printf("saxpy %.6f\n", best_ms([&] { saxpy<<<(sn + 255) / 256, 256>>>(o, x, y, 2.5f, sn); }));
        // Copy bandwidth: one buffer of saxpy's copied to another (bytes read + written = 8n).
        printf("copy %.6f\n", best_ms([&] { CHECK(cudaMemcpyAsync(o, x, 4ull * sn, cudaMemcpyDeviceToDevice)); }));
        CHECK(cudaFree(o)); CHECK(cudaFree(x)); CHECK(cudaFree(y));
    }
    {
        uint *in = (uint *)zeroed(4ull * rn), *out = (uint *)zeroed(rn / 256);
        printf("reduce %.6f\n", best_ms([&] { reduce<<<rn / 1024, 256>>>(in, out); }));
        CHECK(cudaFree(in)); CHECK(cudaFree(out));
    }
    {
        size_t b = 4ull * mn * mn;
        float *a = (float *)zeroed(b), *bb = (float *)zeroed(b), *c = (float *)zeroed(b);
        printf("matmul %.6f\n", best_ms([&] { matmul<<<dim3(mn / 16, mn / 16), dim3(16, 16)>>>(a, bb, c, mn); }));
        CHECK(cudaFree(a)); CHECK(cudaFree(bb)); CHECK(cudaFree(c));
    }
    {
        size_t b = 4ull * tn * tn;
        uint *in = (uint *)zeroed(b), *out = (uint *)zeroed(b);
        printf("transpose %.6f\n", best_ms([&] { transpose<<<dim3(tn / 32, tn / 32), dim3(32, 8)>>>(in, out, tn); }));
        CHECK(cudaFree(in)); CHECK(cudaFree(out));
    }
    {
        uint *out = (uint *)zeroed(1024ull * ag);
        printf("alu %.6f\n", best_ms([&] { alu<<<ag, 256>>>(out, ai); }));
        CHECK(cudaFree(out));
    }
    return 0;
}
