// sum d (d - 1) over a degree array, exact (nx_tricount/preprocess/gpu_ops.py,
// pair_sum): each term's high and low 32 bits are summed apart, so neither sum can
// wrap below 2^32 degrees. One launch of a bounded grid; each thread sums a stride
// of the degrees, then each block adds its two sums with one atomic each.
#include "common.cu"

extern "C" __global__ void __launch_bounds__(256)
pair_sum_halves(const long long* __restrict__ degree, long long n, u64* halves) {
    u64 high = 0, low = 0;
    for (long long v = global_thread(); v < n; v += (long long)gridDim.x * blockDim.x) {
        u64 d = degree[v] > 1 ? (u64)degree[v] : 1ull;
        u64 pairs = d * (d - 1);
        high += pairs >> 32;
        low += pairs & 0xFFFFFFFFull;
    }
    block_add(halves, high);
    __syncthreads();  // block_add's shared sums are read before they are reused
    block_add(halves + 1, low);
}
