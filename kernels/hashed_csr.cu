// A small graph's oriented CSR without a sort (nx_tricount/preprocess/hashed_csr.py):
// degree orientation on the ids as given, the same arrays as the sorting pipeline's.
// Five launches, no synchronisation between them:
//   hashed_insert     every edge row into a hash table of undirected edges, which
//                     drops repeats and self-loops; a new edge counts both degrees
//   hashed_out_counts each distinct edge directed from its lower-degree end (ties:
//                     the smaller id), counted at its source
//   hashed_scan       the counts into row pointers (one block)
//   hashed_fill       each arc into its source's row, at an atomic cursor
//   hashed_sort_rows  each arc to its rank in its row (a row is short under degree
//                     orientation: at most about sqrt(2m) arcs)
// VID is the edge rows' id type; the CSR's ids are int (the caller keeps n < 2^31).
// The table, degrees, row pointers and cursors start zeroed (one memset): a slot's key
// is the edge's packed ends plus one, so 0 is an empty slot.
#include "common.cu"

#define SLOT_HASH 0x9E3779B97F4A7C15ull
#define SCAN_THREADS 1024

__device__ __forceinline__ void slot_ends(u64 key, long long& lo, long long& hi) {
    key -= 1;
    lo = (long long)(key >> 32);
    hi = (long long)(key & 0xffffffffull);
}

// slots: a power of two, 2^(64 - shift), at least twice the rows (the table's load
// stays at most one half, so the linear probes are short).
extern "C" __global__ void __launch_bounds__(256)
hashed_insert(const VID* __restrict__ src, const VID* __restrict__ dst, long long rows,
              u64* table, int shift, u64* degree) {
    long long r = global_thread();
    if (r >= rows) return;
    long long a = (long long)src[r], b = (long long)dst[r];
    if (a == b) return;
    long long lo = a < b ? a : b, hi = a < b ? b : a;
    u64 key = (((u64)lo << 32) | (u64)hi) + 1;
    u64 mask = (~0ull) >> shift;
    for (u64 s = (key * SLOT_HASH) >> shift;; s = (s + 1) & mask) {
        u64 held = atomicCAS(&table[s], 0ull, key);
        if (held == 0ull) {
            atomicAdd(&degree[lo], 1ull);
            atomicAdd(&degree[hi], 1ull);
            return;
        }
        if (held == key) return;
    }
}

__device__ __forceinline__ bool slot_arc(const u64* __restrict__ table, long long s,
                                         const long long* __restrict__ degree,
                                         long long& from, long long& to) {
    u64 key = table[s];
    if (key == 0ull) return false;
    long long lo, hi;
    slot_ends(key, lo, hi);
    bool forward = degree[lo] <= degree[hi];  // lo < hi breaks a tie by id
    from = forward ? lo : hi;
    to = forward ? hi : lo;
    return true;
}

// counts: indptr + 1, so that the scan turns them into row ends in place.
extern "C" __global__ void __launch_bounds__(256)
hashed_out_counts(const u64* __restrict__ table, long long slots,
                  const long long* __restrict__ degree, u64* counts) {
    long long s = global_thread(), from, to;
    if (s < slots && slot_arc(table, s, degree, from, to)) atomicAdd(&counts[from], 1ull);
}

// Inclusive scan of values[0:n) in place, by one block of SCAN_THREADS: each thread
// adds a contiguous chunk, the block scans the chunks' sums, and each thread writes its
// chunk's running sums. Beside it, pairs[0] = sum d (d - 1) over the degrees, which
// transitivity divides by (below 2^54: d < 2^17 and n <= 2^20).
extern "C" __global__ void __launch_bounds__(SCAN_THREADS)
hashed_scan(long long* values, long long n, const long long* __restrict__ degree, u64* pairs) {
    __shared__ long long warp_totals[SCAN_THREADS / 32];
    long long chunk = (n + SCAN_THREADS - 1) / SCAN_THREADS;
    long long begin = threadIdx.x * chunk;
    long long end = begin + chunk < n ? begin + chunk : n;
    long long sum = 0;
    u64 pair_sum = 0;
    for (long long i = begin; i < end; ++i) {
        sum += values[i];
        pair_sum += (u64)degree[i] * (u64)(degree[i] - 1);  // 0 where d = 0
    }
    pair_sum = block_sum(pair_sum);
    if (threadIdx.x == 0) pairs[0] = pair_sum;
    long long running = block_inclusive_sum(sum, warp_totals) - sum;  // before the chunk
    for (long long i = begin; i < end; ++i) {
        running += values[i];
        values[i] = running;
    }
}

extern "C" __global__ void __launch_bounds__(256)
hashed_fill(const u64* __restrict__ table, long long slots, const long long* __restrict__ degree,
            const long long* __restrict__ indptr, unsigned* cursor, int* rows, int* unsorted) {
    long long s = global_thread(), from, to;
    if (s >= slots || !slot_arc(table, s, degree, from, to)) return;
    long long pos = indptr[from] + atomicAdd(&cursor[from], 1u);
    rows[pos] = (int)from;
    unsorted[pos] = (int)to;
}

// One thread per arc (items: at least the arcs, indptr[n] of them).
extern "C" __global__ void __launch_bounds__(256)
hashed_sort_rows(const int* __restrict__ rows, const int* __restrict__ unsorted,
                 const long long* __restrict__ indptr, long long n, int* indices) {
    long long p = global_thread();
    if (p >= indptr[n]) return;
    int v = unsorted[p];
    long long begin = indptr[rows[p]], end = indptr[rows[p] + 1], rank = 0;
    for (long long q = begin; q < end; ++q) rank += unsorted[q] < v;
    indices[begin + rank] = v;
}
