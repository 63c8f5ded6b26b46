// Edge values as NetworkX's clustering reads them, on the GPU
// (nx_tricount/preprocess/gpu_values.py; the method is in
// nx_tricount/preprocess/edge_values.py): the largest value and the first edge of
// an edge list whose edges are distinct, the values normalised, and a directed
// graph's arcs merged into undirected pairs with summed values. VID is the rows'
// id type, WEIGHT the type of the pairs' values (double, or long long for counts
// and codes).
#include "common.cu"
#include "keys.cu"

// A double's bits, mapped so that unsigned order is the order of the numbers
// (-0.0 below 0.0); the NaNs are never mapped.
__device__ __forceinline__ u64 ordered_bits(double x) {
    u64 bits = (u64)__double_as_longlong(x);
    return (bits >> 63) ? ~bits : bits | 0x8000000000000000ull;
}

__device__ __forceinline__ u64 warp_max(u64 x) {
    for (int offset = 16; offset > 0; offset >>= 1) x = max(x, __shfl_down_sync(FULL_MASK, x, offset));
    return x;
}

// The block's largest x into *out, one atomic per block. All threads must call it.
__device__ __forceinline__ void block_max(u64* out, u64 x) {
    __shared__ u64 warp_largest[32];
    x = warp_max(x);
    if (lane_id() == 0) warp_largest[threadIdx.x >> 5] = x;
    __syncthreads();
    if (threadIdx.x < 32) {
        x = threadIdx.x < (blockDim.x >> 5) ? warp_largest[threadIdx.x] : 0ull;
        x = warp_max(x);
        if (threadIdx.x == 0 && x != 0ull) atomicMax(out, x);
    }
    __syncthreads();  // warp_largest is free again
}

// extremes[0]: ~(lower << 32 | i) greatest, so that the first row i of the
// smallest lower end (src when directed, else min(src, dst)) is read back from
// it; ids below 2^31 and fewer than 2^32 rows. extremes[1]: the greatest
// ordered_bits of the values that are numbers, 0 without any. Zeroed by the caller.
extern "C" __global__ void __launch_bounds__(256)
edge_value_extremes(const VID* __restrict__ src, const VID* __restrict__ dst,
                    const double* __restrict__ values, long long m, int directed, u64* extremes) {
    u64 first = 0, largest = 0;
    for (long long i = global_thread(); i < m; i += (long long)gridDim.x * blockDim.x) {
        long long lower = directed ? (long long)src[i] : min((long long)src[i], (long long)dst[i]);
        first = max(first, ~(((u64)lower << 32) | (u64)i));
        double x = values[i];
        if (x == x) largest = max(largest, ordered_bits(x));
    }
    block_max(extremes, first);
    block_max(extremes + 1, largest);
}

// cbrt(w / largest) of every value, as NumPy's (and CuPy's) float64 division and
// cube root give it.
extern "C" __global__ void __launch_bounds__(256)
normalised_values(const double* __restrict__ values, long long m, double largest, double* out) {
    long long i = global_thread();
    if (i < m) out[i] = cbrt(values[i] / largest);
}

// A directed edge list's arcs merged into undirected pairs, in three launches
// around two sorts: arc_keys (every row's key, twice), the second copy sorted,
// last_rows (the last row of each distinct arc, where the arcs have values), and
// arc_pairs over the sorted keys. A repeated arc keeps its last row's value, as
// NetworkX keeps an edge's last data.

// keys[i] and sorted[i]: the key of the arc src[i] -> dst[i], KEY_SENTINEL for a
// self-loop.
extern "C" __global__ void __launch_bounds__(256)
arc_keys(const VID* __restrict__ src, const VID* __restrict__ dst, long long m, long long n,
         long long* keys, long long* sorted) {
    long long i = global_thread();
    if (i >= m) return;
    long long a = src[i], b = dst[i];
    long long key = a == b ? KEY_SENTINEL : pack_key(a, b, n);
    keys[i] = key;
    sorted[i] = key;
}

// last[p] = the greatest row i whose key is sorted[p], at the last position p of
// each run of equal keys. Zeroed by the caller.
extern "C" __global__ void __launch_bounds__(256)
last_rows(const long long* __restrict__ keys, long long m, const long long* __restrict__ sorted,
          long long* last) {
    long long i = global_thread();
    if (i < m && keys[i] != KEY_SENTINEL) atomicMax(last + last_at_most(sorted, m, keys[i]), i);
}

// The value of the arc of key, which is at position p of the sorted keys.
__device__ __forceinline__ WEIGHT arc_value(const WEIGHT* __restrict__ values,
                                            const long long* __restrict__ last, long long p) {
    return values != nullptr ? values[last[p]] : (WEIGHT)1;
}

// One thread per position p of the sorted arc keys; the last of each run is an arc
// u -> v. Every arc counts at both ends' total degree. The pair lo < hi is written
// by its arc lo -> hi, or by hi -> lo when that one is alone: pair_keys[p] its key,
// pair_values[p] the arc's value plus the reverse arc's (0 when alone); the other
// positions get KEY_SENTINEL. A pair with both arcs counts at both ends'
// reciprocal degree. *count gets the number of pairs. Values null: every arc is 1.
extern "C" __global__ void __launch_bounds__(256)
arc_pairs(const long long* __restrict__ sorted, long long m, long long n,
          const long long* __restrict__ last, const WEIGHT* __restrict__ values,
          long long* pair_keys, WEIGHT* pair_values, u64* total_degree, u64* reciprocal_degree,
          u64* count) {
    long long p = global_thread();
    bool pair = false;
    if (p < m) {
        long long key = sorted[p], out = KEY_SENTINEL;
        if (key != KEY_SENTINEL && (p + 1 == m || sorted[p + 1] != key)) {
            long long u, v;
            unpack_key(key, n, u, v);
            atomicAdd(total_degree + u, 1ull);
            atomicAdd(total_degree + v, 1ull);
            long long q = last_at_most(sorted, m, pack_key(v, u, n));
            bool both = q >= 0 && sorted[q] == pack_key(v, u, n);
            if (u < v || !both) {
                pair = true;
                out = u < v ? key : pack_key(v, u, n);
                pair_values[p] = arc_value(values, last, p) + (both ? arc_value(values, last, q) : (WEIGHT)0);
            }
            if (u < v && both) {
                atomicAdd(reciprocal_degree + u, 1ull);
                atomicAdd(reciprocal_degree + v, 1ull);
            }
        }
        pair_keys[p] = out;
    }
    block_add(count, pair ? 1ull : 0ull);
}
