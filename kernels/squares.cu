// Square clustering's counts (nx_tricount/algorithms/squares.py has the method):
// one block per target vertex v, with a row of n counters `count` and n stamps
// `seen` of its own, taking the next target from `taken` when done (a persistent
// grid of as many blocks as the rows the memory budget holds).
//
//   1. count[x] += 1 over the wedges v -> w <- x (w in S(v), x in P(w), x != v),
//      so that count[x] = p(v, x) = |S(v) ∩ S(x)|;
//   2. every x of S(v) and of S(u), u in S(v), x != v, the first time its stamp
//      becomes v + 1, adds C(count[x], 2) to the squares; every u of S(v) adds
//      count[u] to the closed wedges;
//   3. the wedges of step 1 set count[x] = 0 again.
//
// Counters and stamps are of the CSR's id type VID: counts stay below n, stamps
// reach n.
#include "common.cu"

__device__ __forceinline__ void increment(int* a) { atomicAdd(a, 1); }
__device__ __forceinline__ void increment(long long* a) { atomicAdd((u64*)a, 1ull); }

__device__ __forceinline__ int exchange(int* a, int x) { return atomicExch(a, x); }
__device__ __forceinline__ long long exchange(long long* a, long long x) {
    return (long long)atomicExch((u64*)a, (u64)x);
}

__device__ __forceinline__ u64 pairs(VID c) { return (u64)c * (u64)(c - 1) / 2; }

extern "C" __global__ void squares(const long long* __restrict__ s_ptr,
                                   const VID* __restrict__ s_idx,
                                   const long long* __restrict__ p_ptr,
                                   const VID* __restrict__ p_idx,
                                   const VID* __restrict__ targets, long long target_count,
                                   long long n, VID* counters, u64* taken,
                                   long long* squares_out, long long* closed_out) {
    __shared__ long long next;
    VID* count = counters + (long long)blockIdx.x * 2 * n;
    VID* seen = count + n;
    const unsigned warp = threadIdx.x >> 5, warps = blockDim.x >> 5, lane = lane_id();
    while (true) {
        if (threadIdx.x == 0) next = (long long)atomicAdd(taken, 1ull);
        __syncthreads();
        const long long t = next;
        __syncthreads();  // every thread has read `next` before it changes
        if (t >= target_count) return;
        const VID v = targets[t];
        const long long first = s_ptr[v], last = s_ptr[v + 1];
        if (last - first < 2) continue;  // NetworkX's coefficient is 0 without counts

        for (long long i = first + warp; i < last; i += warps) {
            const VID w = s_idx[i];
            for (long long j = p_ptr[w] + lane; j < p_ptr[w + 1]; j += 32) {
                const VID x = p_idx[j];
                if (x != v) increment(count + x);
            }
        }
        __syncthreads();

        const VID stamp = v + 1;
        u64 found = 0, closed = 0;
        for (long long i = first + warp; i < last; i += warps) {
            const VID u = s_idx[i];
            if (lane == 0) {
                closed += (u64)count[u];
                if (exchange(seen + u, stamp) != stamp) found += pairs(count[u]);
            }
            for (long long j = s_ptr[u] + lane; j < s_ptr[u + 1]; j += 32) {
                const VID x = s_idx[j];
                if (x != v && exchange(seen + x, stamp) != stamp) found += pairs(count[x]);
            }
        }
        __syncthreads();

        for (long long i = first + warp; i < last; i += warps) {
            const VID w = s_idx[i];
            for (long long j = p_ptr[w] + lane; j < p_ptr[w + 1]; j += 32) count[p_idx[j]] = 0;
        }
        block_add((u64*)(squares_out + t), found);
        __syncthreads();  // block_add's shared sums are free again
        block_add((u64*)(closed_out + t), closed);
    }
}

// Every vertex's whole neighbour list from an oriented CSR (rows[k] -> indices[k]),
// for the squares: row pointers of the degrees (a scan in two launches of one
// grid, common.cu's chunk_total and scan_chunk), then each arc put in both ends'
// lists at atomic cursors, in no order within a list (the counts do not read one).
extern "C" __global__ void __launch_bounds__(256)
degree_totals(const long long* __restrict__ degree, long long n, long long chunk, long long* totals) {
    chunk_total(n, chunk, totals, [&](long long v) { return degree[v]; });
}

// indptr[v] = the degrees before v; indptr[n] = their sum.
extern "C" __global__ void __launch_bounds__(256)
row_starts(const long long* __restrict__ degree, long long n, long long chunk,
           const long long* __restrict__ totals, long long* indptr) {
    scan_chunk(n, chunk, totals, [&](long long v) { return degree[v]; },
               [&](long long v, long long before, long long d) {
                   indptr[v] = before;
                   if (v + 1 == n) indptr[n] = before + d;
               });
}

__device__ __forceinline__ long long row_length(const long long* __restrict__ indptr, long long v) {
    return indptr[v + 1] - indptr[v];
}

// cursor: n zeroed counters.
extern "C" __global__ void __launch_bounds__(256)
fill_neighbours(const VID* __restrict__ rows, const VID* __restrict__ indices, long long m,
                const long long* __restrict__ indptr, u64* cursor, VID* neighbours) {
    long long k = global_thread();
    if (k >= m) return;
    VID u = rows[k], v = indices[k];
    neighbours[indptr[u] + (long long)atomicAdd(cursor + u, 1ull)] = v;
    neighbours[indptr[v] + (long long)atomicAdd(cursor + v, 1ull)] = u;
}

extern "C" __global__ void __launch_bounds__(256) vertex_ids(long long n, VID* ids) {
    long long v = global_thread();
    if (v < n) ids[v] = (VID)v;
}

// Each target v's potential squares on the lists s_ptr, s_idx (successors, or
// neighbours), (d - 1) around - d (d - 1) - closed - found with d its list's
// length and around the sum of its successors' list lengths, as NetworkX's 2-hop
// form (in 64-bit two's complement, as NumPy computes it); defined where d >= 2 and
// the potential is positive; at: its original id (perm[v], or v without perm).
extern "C" __global__ void __launch_bounds__(256)
square_potentials(const long long* __restrict__ s_ptr, const VID* __restrict__ s_idx,
                  const VID* __restrict__ targets, long long count,
                  const long long* __restrict__ found, const long long* __restrict__ closed,
                  const VID* __restrict__ perm, long long* potential, bool* defined, long long* at) {
    long long t = global_thread();
    if (t >= count) return;
    VID v = targets[t];
    u64 d = (u64)row_length(s_ptr, v), around = 0;
    for (long long k = s_ptr[v]; k < s_ptr[v + 1]; ++k) around += (u64)row_length(s_ptr, s_idx[k]);
    u64 p = (d - 1) * around - d * (d - 1) - (u64)closed[t] - (u64)found[t];
    potential[t] = (long long)p;
    defined[t] = (long long)d >= 2 && (long long)p > 0;
    at[t] = perm != nullptr ? (long long)perm[v] : (long long)v;
}
