// The deduplication's pass over the sorted edge keys of an edge list
// (packed by kernels/keys.cu's pack_key): which keys are the
// distinct edges, the degrees of the simple graph, and how many edges it has,
// in one launch and without a scan, so that nothing waits for the host.
#include "common.cu"
#include "keys.cu"

// kept[i]: keys[i] is the last of its run of equal keys and not a self-loop.
// Each kept edge a - b adds 1 to degree[a] and degree[b]; the low ends a come
// sorted, so neighbouring lanes mostly share theirs and add it with one atomic
// per run (a hub's low-end rows would otherwise serialise on its counter).
// *count gets the number of kept keys, one atomic per block.
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
    if (keep) atomicAdd(degree + b, 1ull);
    block_add(count, keep ? 1ull : 0ull);
}
