// The least and the greatest id of two id arrays of one length
// (nx_tricount/preprocess/gpu_ops.py, id_range), in one launch without a
// synchronisation: each block writes its own to extremes[2 * block] and
// extremes[2 * block + 1], pinned host memory that the host reduces (no copy to queue).
#include "common.cu"

#define LARGEST_ID 0x7fffffffffffffffll
#define SMALLEST_ID (-LARGEST_ID - 1)

extern "C" __global__ void __launch_bounds__(256)
id_range(const VID* __restrict__ src, const VID* __restrict__ dst, long long size,
         long long* extremes) {
    __shared__ long long warp_low[32], warp_high[32];
    long long low = LARGEST_ID, high = SMALLEST_ID;
    for (long long i = global_thread(); i < size; i += (long long)gridDim.x * blockDim.x) {
        long long a = (long long)src[i], b = (long long)dst[i];
        low = min(low, min(a, b));
        high = max(high, max(a, b));
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        low = min(low, __shfl_down_sync(FULL_MASK, low, offset));
        high = max(high, __shfl_down_sync(FULL_MASK, high, offset));
    }
    if (lane_id() == 0) {
        warp_low[threadIdx.x / 32] = low;
        warp_high[threadIdx.x / 32] = high;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < (int)(blockDim.x / 32); ++w) {
            low = min(low, warp_low[w]);
            high = max(high, warp_high[w]);
        }
        extremes[2 * blockIdx.x] = low;
        extremes[2 * blockIdx.x + 1] = high;
    }
}
