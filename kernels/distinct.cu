// The deduplication's passes over the sorted edge keys of an edge list
// (packed by kernels/keys.cu's pack_key): which keys are the distinct edges,
// the degrees of the simple graph, and how many edges it has, without a scan,
// so that nothing waits for the host.
#include "common.cu"
#include "keys.cu"

// kept[i]: keys[i] is the last of its run of equal keys and not a self-loop.
// Each kept edge a - b adds 1 to degree[a]; the low ends a come sorted, so
// neighbouring lanes mostly share theirs and add it with one atomic per run (a
// hub's low-end rows would otherwise serialise on its counter). The high ends
// are counted apart, by high_end_counts. *count gets the number of kept keys, one
// atomic per block.
extern "C" __global__ void __launch_bounds__(256)
distinct_edges(const long long* __restrict__ keys, long long m, long long n, bool* kept,
               u64* degree, u64* count) {
    long long i = global_thread();
    bool keep = false;
    long long a = n, b = 0;  // lanes with nothing to keep add nothing
    if (i < m) {
        long long key = keys[i];
        keep = key != KEY_SENTINEL && (i + 1 == m || keys[i + 1] != key);
        kept[i] = keep;
        if (keep) unpack_key(key, n, a, b);
    }
    warp_add(degree, a, keep ? 1u : 0u);
    block_add(count, keep ? 1ull : 0ull);
}

// One pass of the high ends' counts: each kept key whose high end b lies in
// [low, high) adds 1 to counts[b]. The high ends fall anywhere, so each pass
// takes a range of counters about the size of the L2 cache, where its atomics
// mostly hit; keys and marks are read as streaming loads, which leave the
// counters there.
template <typename Counter>
__device__ __forceinline__ void count_high_ends(const long long* __restrict__ keys,
                                                const bool* __restrict__ kept, long long m,
                                                long long n, long long low, long long high,
                                                Counter* counts) {
    long long i = global_thread();
    if (i >= m || !__ldcs(reinterpret_cast<const unsigned char*>(kept + i))) return;
    long long a, b;
    unpack_key(__ldcs(keys + i), n, a, b);
    if (b >= low && b < high) atomicAdd(counts + b, (Counter)1);
}

// 32-bit counters, for n <= 2^32 (a simple graph's degrees are below n).
extern "C" __global__ void __launch_bounds__(256)
high_end_counts(const long long* __restrict__ keys, const bool* __restrict__ kept, long long m,
                long long n, long long low, long long high, unsigned* counts) {
    count_high_ends(keys, kept, m, n, low, high, counts);
}

extern "C" __global__ void __launch_bounds__(256)
high_end_counts_wide(const long long* __restrict__ keys, const bool* __restrict__ kept, long long m,
                     long long n, long long low, long long high, u64* counts) {
    count_high_ends(keys, kept, m, n, low, high, counts);
}

// degree[v] += counts[v]: the high ends' 32-bit counts added to the degrees.
extern "C" __global__ void __launch_bounds__(256)
add_counts(const unsigned* __restrict__ counts, long long n, u64* degree) {
    long long v = global_thread();
    if (v < n) degree[v] += counts[v];
}
