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

// A directed edge list's arcs merged into undirected pairs around one sort:
// direction_keys gives every row its direction key, the sort puts the rows of an
// arc and of its reverse arc in neighbouring runs, direction_runs reads each arc at
// the last row of its run (a repeated arc keeps its last row's value, as NetworkX
// keeps an edge's last data), and kept_pairs compacts the pairs in key order.

// The key of the arc between lo < hi, with its direction as the lowest bit (0:
// lo -> hi, 1: hi -> lo): sorted by (lo, hi, direction). Ids below 2^31 (the
// caller checks n <= 2^31), so lo << 32 | hi << 1 | direction fits.
__device__ __forceinline__ long long direction_key(long long lo, long long hi, long long direction) {
    return (lo << 32) | (hi << 1) | direction;
}

extern "C" __global__ void __launch_bounds__(256)
direction_keys(const VID* __restrict__ src, const VID* __restrict__ dst, long long m,
               long long* keys) {
    long long i = global_thread();
    if (i >= m) return;
    long long a = src[i], b = dst[i];
    keys[i] = a == b ? KEY_SENTINEL : direction_key(min(a, b), max(a, b), a > b ? 1 : 0);
}

// The value of the arc whose run ends at sorted position p: its last row's value
// (values sorted with the keys), its direction's code (codes: 1 along lo -> hi, 2
// against, so a pair's codes add up to the directions it has), or 1.
__device__ __forceinline__ WEIGHT arc_value(const WEIGHT* __restrict__ values, int codes,
                                            long long key, long long p) {
    if (values != nullptr) return values[p];
    return codes ? (WEIGHT)(1 + (key & 1)) : (WEIGHT)1;
}

// The ends of the run of key that holds position q of the sorted keys: a short walk,
// then a binary search where the run is long (a row repeated many times), so that no
// thread walks far.
#define RUN_WALK 32

__device__ __forceinline__ long long run_last(const long long* __restrict__ sorted, long long m,
                                              long long q, long long key) {
    for (int step = 0; step < RUN_WALK; ++step, ++q) {
        if (q + 1 == m || sorted[q + 1] != key) return q;
    }
    return last_at_most(sorted, m, key);
}

__device__ __forceinline__ long long run_first(const long long* __restrict__ sorted, long long m,
                                               long long q, long long key) {
    for (int step = 0; step < RUN_WALK; ++step, --q) {
        if (q == 0 || sorted[q - 1] != key) return q;
    }
    return last_at_most(sorted, m, key - 1) + 1;
}

// One thread per position p of the sorted direction keys; the last of each run is
// an arc, counted at both ends' total degree. The pair lo < hi is kept at its arc
// lo -> hi, whose reverse arc's run (if any) follows; or at hi -> lo when that arc
// is alone (its run follows no run of lo -> hi). kept[p] says which positions hold
// a pair, pair_values[p] its value: the arc's value plus the reverse arc's. A pair
// with both arcs counts at both ends' reciprocal degree; *count gets the number of
// pairs.
extern "C" __global__ void __launch_bounds__(256)
direction_runs(const long long* __restrict__ sorted, long long m, const WEIGHT* __restrict__ values,
               int codes, bool* kept, WEIGHT* pair_values, u64* total_degree,
               u64* reciprocal_degree, u64* count) {
    long long p = global_thread();
    bool pair = false;
    if (p < m) {
        long long key = sorted[p];
        if (key != KEY_SENTINEL && (p + 1 == m || sorted[p + 1] != key)) {
            long long lo = key >> 32, hi = (key & 0xFFFFFFFFLL) >> 1;
            atomicAdd(total_degree + lo, 1ull);
            atomicAdd(total_degree + hi, 1ull);
            if ((key & 1) == 0) {
                long long reverse = key | 1;
                bool both = p + 1 < m && sorted[p + 1] == reverse;
                WEIGHT reverse_value = 0;
                if (both) {
                    long long last = run_last(sorted, m, p + 1, reverse);
                    reverse_value = arc_value(values, codes, reverse, last);
                }
                pair = true;
                pair_values[p] = arc_value(values, codes, key, p) + reverse_value;
                if (both) {
                    atomicAdd(reciprocal_degree + lo, 1ull);
                    atomicAdd(reciprocal_degree + hi, 1ull);
                }
            } else {
                long long s = run_first(sorted, m, p, key);
                if (s == 0 || sorted[s - 1] != (key ^ 1)) {
                    pair = true;
                    // + 0 as for a pair without its reverse arc (and the host): -0.0 becomes 0.0
                    pair_values[p] = arc_value(values, codes, key, p) + (WEIGHT)0;
                }
            }
        }
        kept[p] = pair;
    }
    block_add(count, pair ? 1ull : 0ull);
}

// The kept pairs in their order: pair_keys[at] the pair's pack_key, pair_values[at]
// its value (8 bytes, copied as bits). The second launch of a stable compaction
// whose first is edge_rows.cu's kept_totals.
extern "C" __global__ void __launch_bounds__(256)
kept_pairs(const long long* __restrict__ sorted, const bool* __restrict__ kept,
           const u64* __restrict__ values, long long m, long long n, long long chunk,
           const long long* __restrict__ totals, long long* pair_keys, u64* pair_values) {
    scan_chunk(m, chunk, totals, [&](long long i) { return (long long)kept[i]; },
               [&](long long i, long long at, long long c) {
                   if (!c) return;
                   long long key = sorted[i];
                   pair_keys[at] = pack_key(key >> 32, (key & 0xFFFFFFFFLL) >> 1, n);
                   pair_values[at] = values[i];
               });
}
