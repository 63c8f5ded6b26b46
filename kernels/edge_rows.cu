// The preprocessing's one-pass primitives over edge rows, ids and packed keys
// (nx_tricount/preprocess/gpu_ops.py), one thread per item. VID is the type of
// the ids read or written (int or long long); keys are kernels/keys.cu's, degrees
// and counts u64 (atomicAdd has no signed 64-bit form), values any 8-byte type,
// moved as their bits.
#include "common.cu"
#include "keys.cu"

// Keys of the undirected edges min - max, KEY_SENTINEL for self-loops.
extern "C" __global__ void __launch_bounds__(256)
edge_keys(const VID* __restrict__ src, const VID* __restrict__ dst, long long m, long long n,
          long long* keys) {
    long long i = global_thread();
    if (i >= m) return;
    long long a = src[i], b = dst[i];
    keys[i] = a == b ? KEY_SENTINEL : pack_key(min(a, b), max(a, b), n);
}

extern "C" __global__ void __launch_bounds__(256)
packed_keys(const VID* __restrict__ a, const VID* __restrict__ b, long long m, long long n,
            long long* keys) {
    long long i = global_thread();
    if (i < m) keys[i] = pack_key(a[i], b[i], n);
}

extern "C" __global__ void __launch_bounds__(256)
unpack_keys(const long long* __restrict__ keys, long long m, long long n, VID* a, VID* b) {
    long long i = global_thread();
    if (i >= m) return;
    long long x, y;
    unpack_key(keys[i], n, x, y);
    a[i] = (VID)x;
    b[i] = (VID)y;
}

// The arc key of each edge lo - hi (kernels/keys.cu's arc_key); rank and degree
// are read only with relabel and by_degree.
extern "C" __global__ void __launch_bounds__(256)
oriented_keys(const VID* __restrict__ lo, const VID* __restrict__ hi, long long m,
              const VID* __restrict__ rank, const long long* __restrict__ degree, int relabel,
              int by_degree, long long n, long long* keys) {
    long long i = global_thread();
    if (i < m) keys[i] = arc_key(lo[i], hi[i], rank, degree, relabel, by_degree, n);
}

// The same from the edges' sorted keys, of which only the kept are edges (the
// others become KEY_SENTINEL and sort last).
extern "C" __global__ void __launch_bounds__(256)
oriented_kept_keys(const long long* __restrict__ edges, const bool* __restrict__ kept, long long m,
                   const VID* __restrict__ rank, const long long* __restrict__ degree, int relabel,
                   int by_degree, long long n, long long* keys) {
    long long i = global_thread();
    if (i >= m) return;
    long long u, v;
    unpack_key(edges[i], n, u, v);
    keys[i] = kept[i] ? arc_key(u, v, rank, degree, relabel, by_degree, n) : KEY_SENTINEL;
}

// Occurrences of each id in a and b together. With a_sorted, a run of equal ids
// of a adds its end at its last row and subtracts its start at its first: one
// atomic per run instead of one per row on the same counter (a hub's rows would
// serialise).
extern "C" __global__ void __launch_bounds__(256)
endpoint_counts(const VID* __restrict__ a, const VID* __restrict__ b, long long m, int a_sorted,
                u64* counts) {
    long long i = global_thread();
    if (i >= m) return;
    long long v = a[i];
    if (!a_sorted) {
        atomicAdd(counts + v, 1ull);
    } else {
        if (i + 1 == m || a[i + 1] != v) atomicAdd(counts + v, (u64)(i + 1));
        if (i == 0 || a[i - 1] != v) atomicAdd(counts + v, (u64)0 - (u64)i);
    }
    atomicAdd(counts + b[i], 1ull);
}

// Occurrences of each id, or (sums) the sums of the weights at each id.
extern "C" __global__ void __launch_bounds__(256)
vertex_counts(const VID* __restrict__ ids, long long m, u64* counts) {
    long long i = global_thread();
    if (i < m) atomicAdd(counts + ids[i], 1ull);
}

extern "C" __global__ void __launch_bounds__(256)
vertex_sums(const VID* __restrict__ ids, const double* __restrict__ weights, long long m,
            double* sums) {
    long long i = global_thread();
    if (i < m) atomicAdd(sums + ids[i], weights[i]);
}

// The rows src - dst that are no self-loop, in their order, as lo = min and
// hi = max (the edge list of a graph whose edges are distinct), with their values
// (8-byte, or none when values is null) and both ends' degrees: a stable
// compaction in two launches of one grid (common.cu's chunk_total, scan_chunk).
__device__ __forceinline__ long long not_loop(const VID* __restrict__ src,
                                              const VID* __restrict__ dst, long long i) {
    return src[i] != dst[i];
}

extern "C" __global__ void __launch_bounds__(256)
loop_free_totals(const VID* __restrict__ src, const VID* __restrict__ dst, long long m,
                 long long chunk, long long* totals) {
    chunk_total(m, chunk, totals, [&](long long i) { return not_loop(src, dst, i); });
}

template <typename Id>
__device__ __forceinline__ void loop_free_rows(const VID* __restrict__ src,
                                               const VID* __restrict__ dst,
                                               const u64* __restrict__ values, long long m,
                                               long long chunk, const long long* __restrict__ totals,
                                               Id* lo, Id* hi, u64* kept_values, u64* degree) {
    scan_chunk(m, chunk, totals, [&](long long i) { return not_loop(src, dst, i); },
               [&](long long i, long long at, long long kept) {
                   if (!kept) return;
                   long long a = src[i], b = dst[i];
                   lo[at] = (Id)min(a, b);
                   hi[at] = (Id)max(a, b);
                   if (values != nullptr) kept_values[at] = values[i];
                   atomicAdd(degree + a, 1ull);
                   atomicAdd(degree + b, 1ull);
               });
}

// The CSR's ids are int below 2^31 vertices, else long long, whatever the rows' VID.
extern "C" __global__ void __launch_bounds__(256)
loop_free_rows_int(const VID* __restrict__ src, const VID* __restrict__ dst,
                   const u64* __restrict__ values, long long m, long long chunk,
                   const long long* __restrict__ totals, int* lo, int* hi, u64* kept_values,
                   u64* degree) {
    loop_free_rows(src, dst, values, m, chunk, totals, lo, hi, kept_values, degree);
}

extern "C" __global__ void __launch_bounds__(256)
loop_free_rows_long(const VID* __restrict__ src, const VID* __restrict__ dst,
                    const u64* __restrict__ values, long long m, long long chunk,
                    const long long* __restrict__ totals, long long* lo, long long* hi,
                    u64* kept_values, u64* degree) {
    loop_free_rows(src, dst, values, m, chunk, totals, lo, hi, kept_values, degree);
}

// The kept of the sorted edge keys (kernels/distinct.cu's), in their order: the
// deduplication's compaction, in two launches of one grid.
extern "C" __global__ void __launch_bounds__(256)
kept_totals(const bool* __restrict__ kept, long long m, long long chunk, long long* totals) {
    chunk_total(m, chunk, totals, [&](long long i) { return (long long)kept[i]; });
}

extern "C" __global__ void __launch_bounds__(256)
kept_keys(const long long* __restrict__ keys, const bool* __restrict__ kept, long long m,
          long long chunk, const long long* __restrict__ totals, long long* out) {
    scan_chunk(m, chunk, totals, [&](long long i) { return (long long)kept[i]; },
               [&](long long i, long long at, long long c) {
                   if (c) out[at] = keys[i];
               });
}

// The kept of the edge keys sorted by a stable argsort (sorted[i] = keys[order[i]])
// as edges lo - hi (Id: the CSR's id type) with the values of their last rows: a
// repeated edge's rows keep their order, so its kept last place holds its last
// row. The compaction of gpu_ops.py's valued_graph, the second launch after
// kept_totals.
template <typename Id>
__device__ __forceinline__ void kept_edges(const long long* __restrict__ sorted,
                                           const bool* __restrict__ kept,
                                           const long long* __restrict__ order,
                                           const u64* __restrict__ values, long long m, long long n,
                                           long long chunk, const long long* __restrict__ totals,
                                           Id* lo, Id* hi, u64* kept_values) {
    scan_chunk(m, chunk, totals, [&](long long i) { return (long long)kept[i]; },
               [&](long long i, long long at, long long c) {
                   if (!c) return;
                   long long a, b;
                   unpack_key(sorted[i], n, a, b);
                   lo[at] = (Id)a;
                   hi[at] = (Id)b;
                   kept_values[at] = values[order[i]];
               });
}

extern "C" __global__ void __launch_bounds__(256)
kept_edges_int(const long long* __restrict__ sorted, const bool* __restrict__ kept,
               const long long* __restrict__ order, const u64* __restrict__ values, long long m,
               long long n, long long chunk, const long long* __restrict__ totals, int* lo,
               int* hi, u64* kept_values) {
    kept_edges(sorted, kept, order, values, m, n, chunk, totals, lo, hi, kept_values);
}

extern "C" __global__ void __launch_bounds__(256)
kept_edges_long(const long long* __restrict__ sorted, const bool* __restrict__ kept,
                const long long* __restrict__ order, const u64* __restrict__ values, long long m,
                long long n, long long chunk, const long long* __restrict__ totals,
                long long* lo, long long* hi, u64* kept_values) {
    kept_edges(sorted, kept, order, values, m, n, chunk, totals, lo, hi, kept_values);
}

// The keys of the ranges of the key space cut by `cuts` ascending splitters
// (range h holds the keys from splitters[h - 1] up to splitters[h]; KEY_SENTINEL
// is in none), each in order: a stable compaction into every range at once, in
// two launches of one grid that each read the keys once (nx_tricount/preprocess/
// together.py). A pair of launches takes the ranges first .. first + count - 1,
// count at most RANGES_PER_LAUNCH.
#define RANGES_PER_LAUNCH 8

__device__ __forceinline__ int range_of(long long key, const long long* __restrict__ splitters,
                                        int cuts) {
    int h = 0;
    while (h < cuts && key >= splitters[h]) ++h;
    return key == KEY_SENTINEL ? -1 : h;
}

// totals[k * gridDim.x + b]: how many keys of block b's chunk fall in range first + k.
extern "C" __global__ void __launch_bounds__(256)
range_totals(const long long* __restrict__ keys, long long m, const long long* __restrict__ splitters,
             int cuts, int first, int count, long long chunk, long long* totals) {
    u64 counts[RANGES_PER_LAUNCH] = {};
    long long begin = min(m, (long long)blockIdx.x * chunk), end = min(m, begin + chunk);
    for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) {
        int k = range_of(keys[i], splitters, cuts) - first;
#pragma unroll
        for (int r = 0; r < RANGES_PER_LAUNCH; ++r) counts[r] += k == r;
    }
#pragma unroll
    for (int r = 0; r < RANGES_PER_LAUNCH; ++r) {
        if (r < count) {  // the same for the whole block
            u64 sum = block_sum(counts[r]);
            if (threadIdx.x == 0) totals[r * gridDim.x + blockIdx.x] = (long long)sum;
            __syncthreads();  // block_sum's shared sums are read before they are reused
        }
    }
}

// Each key of block b's chunk in range first + k written to outs[k] (a pointer to
// int64), after the keys of that range in the blocks before b (range_totals).
extern "C" __global__ void __launch_bounds__(256)
range_keys(const long long* __restrict__ keys, long long m, const long long* __restrict__ splitters,
           int cuts, int first, int count, long long chunk, const long long* __restrict__ totals,
           const unsigned long long* __restrict__ outs) {
    __shared__ long long warp_totals[32];
    long long running[RANGES_PER_LAUNCH];
#pragma unroll
    for (int r = 0; r < RANGES_PER_LAUNCH; ++r) {
        running[r] = 0;
        if (r < count) {
            u64 earlier = 0;
            for (unsigned b = threadIdx.x; b < blockIdx.x; b += blockDim.x)
                earlier += (u64)totals[r * gridDim.x + b];
            earlier = block_sum(earlier);
            if (threadIdx.x == 0) warp_totals[0] = (long long)earlier;
            __syncthreads();
            running[r] = warp_totals[0];
            __syncthreads();
        }
    }
    long long begin = min(m, (long long)blockIdx.x * chunk), end = min(m, begin + chunk);
    for (long long base = begin; base < end; base += blockDim.x) {
        long long i = base + threadIdx.x;
        long long key = i < end ? keys[i] : KEY_SENTINEL;
        int k = range_of(key, splitters, cuts) - first;
#pragma unroll
        for (int r = 0; r < RANGES_PER_LAUNCH; ++r) {
            if (r < count) {
                long long c = k == r;
                long long inclusive = block_inclusive_sum(c, warp_totals);
                if (c) reinterpret_cast<long long*>(outs[r])[running[r] + inclusive - 1] = key;
                running[r] += warp_totals[(blockDim.x >> 5) - 1];  // the tile's keys in range r
                __syncthreads();  // before the next scan overwrites warp_totals
            }
        }
    }
}
