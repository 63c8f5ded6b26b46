// A small graph's oriented CSR without a sort (nx_tricount/preprocess/hashed_csr.py):
// degree orientation on the ids as given, the same arrays as the sorting pipeline's.
// One cooperative launch runs the steps one after the other, each over the whole
// grid and a grid-wide barrier after it:
//   zero        the table, degrees, row pointers, sums and cursors
//   insert      every edge row into a hash table of undirected edges, which drops
//               repeats and self-loops; a new edge counts both degrees
//   out counts  each distinct edge directed from its lower-degree end (ties: the
//               smaller id), counted at its source
//   scan        the counts into row pointers: each block adds its share of the
//               vertices, then scans it after the sums of the blocks before it;
//               sum d (d - 1) over the degrees beside it
//   fill        each arc into its source's row, at an atomic cursor
//   sort rows   each arc to its rank in its row (a row is short under degree
//               orientation: at most about sqrt(2m) arcs)
//   count       optionally, the triangles as merge.cu counts them on the CSR
// A small graph's steps take a few microseconds of GPU time each: as separate
// launches their host time and the gaps between them were most of the preparation.
// VID is the edge rows' id type; the CSR's ids are int (the caller keeps n < 2^31).
// A slot's key is the edge's packed ends plus one, so 0 is an empty slot.
#include <cooperative_groups.h>

#include "common.cu"

#define SLOT_HASH 0x9E3779B97F4A7C15ull

// The words of the zeroed buffer `words` (u64), in this order:
//   table[slots], degree[n], indptr[n + 1], pair_sum, triangles, block_sums[gridDim.x],
//   then the cursors: n unsigned in (n + 1) / 2 words.
// indptr[n] (the arcs), pair_sum and triangles go to the host's pinned `totals`.
struct HashedBuffers {
    u64* table;
    long long* degree;
    long long* indptr;
    u64* pair_sum;
    u64* triangles;
    u64* block_sums;
    unsigned* cursor;
    long long words;
};

__device__ __forceinline__ HashedBuffers hashed_buffers(u64* words, long long slots, long long n) {
    HashedBuffers b;
    b.table = words;
    b.degree = (long long*)(words + slots);
    b.indptr = (long long*)(words + slots + n);
    b.pair_sum = words + slots + 2 * n + 1;
    b.triangles = b.pair_sum + 1;
    b.block_sums = b.triangles + 1;
    b.cursor = (unsigned*)(b.block_sums + gridDim.x);
    b.words = slots + 2 * n + 3 + gridDim.x + (n + 1) / 2;
    return b;
}

// A grid-wide barrier; a grid of one block needs only the block's own, which
// costs a fraction of the grid's (atomics and fences in global memory).
__device__ __forceinline__ void barrier(cooperative_groups::grid_group& grid) {
    if (gridDim.x == 1) {
        __syncthreads();
    } else {
        grid.sync();
    }
}

__device__ __forceinline__ long long grid_threads() { return (long long)gridDim.x * blockDim.x; }

__device__ __forceinline__ void slot_ends(u64 key, long long& lo, long long& hi) {
    key -= 1;
    lo = (long long)(key >> 32);
    hi = (long long)(key & 0xffffffffull);
}

__device__ __forceinline__ void insert_row(const VID* __restrict__ src, const VID* __restrict__ dst,
                                           long long r, u64* table, int shift, long long* degree) {
    long long a = (long long)src[r], b = (long long)dst[r];
    if (a == b) return;
    long long lo = a < b ? a : b, hi = a < b ? b : a;
    u64 key = (((u64)lo << 32) | (u64)hi) + 1;
    u64 mask = (~0ull) >> shift;
    for (u64 s = (key * SLOT_HASH) >> shift;; s = (s + 1) & mask) {
        u64 held = atomicCAS(&table[s], 0ull, key);
        if (held == 0ull) {
            atomicAdd((u64*)&degree[lo], 1ull);
            atomicAdd((u64*)&degree[hi], 1ull);
            return;
        }
        if (held == key) return;
    }
}

// The arc from -> to of the edge in slot s, if the slot holds one.
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

// counts[0:n) (indptr + 1) into running sums in place, and *pair_sum = sum d (d - 1)
// (below 2^54: d < 2^17 and n <= 2^20). Block b takes the b-th share of the
// vertices; two grid-wide barriers: after the shares' sums, and after the scans.
__device__ void scan_counts(cooperative_groups::grid_group& grid, long long* counts, long long n,
                            const long long* __restrict__ degree, u64* pair_sum, u64* block_sums) {
    __shared__ long long warp_totals[32];
    __shared__ u64 before;
    long long share = (n + gridDim.x - 1) / gridDim.x;
    long long begin = min(n, (long long)blockIdx.x * share), end = min(n, begin + share);
    u64 sum = 0, pairs = 0;
    for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) {
        sum += (u64)counts[i];
        pairs += (u64)degree[i] * (u64)(degree[i] - 1);  // 0 where d = 0
    }
    sum = block_sum(sum);
    __syncthreads();  // block_sum's shared sums are read before they are written again
    block_add(pair_sum, pairs);
    if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
    barrier(grid);
    u64 earlier = 0;
    for (unsigned b = threadIdx.x; b < blockIdx.x; b += blockDim.x) earlier += block_sums[b];
    earlier = block_sum(earlier);
    if (threadIdx.x == 0) before = earlier;
    __syncthreads();
    long long running = (long long)before;
    for (long long base = begin; base < end; base += blockDim.x) {
        long long i = base + threadIdx.x;
        long long value = i < end ? counts[i] : 0;
        long long inclusive = block_inclusive_sum(value, warp_totals);
        if (i < end) counts[i] = running + inclusive;
        running += warp_totals[(blockDim.x >> 5) - 1];  // the tile's sum
        __syncthreads();  // before the next tile overwrites warp_totals
    }
}

// The oriented CSR of the edge rows src, dst (ids in 0..n-1) into words (see
// HashedBuffers; any contents) and arcs: rows[m], unsorted[m], indices[m] (int, each
// `rows` long). slots: a power of two, 2^(64 - shift), at least twice the rows (the
// table's load stays at most one half, so the linear probes are short). With count,
// also the triangles as merge.cu counts them. totals (pinned host memory) receives
// the arcs, sum d (d - 1) and the triangles (0 without count): the host reads them
// after the launch, with no copy to queue. Launched cooperatively, every block
// resident.
extern "C" __global__ void __launch_bounds__(256, 2)
hashed_csr(const VID* __restrict__ src, const VID* __restrict__ dst, long long rows, long long n,
           u64* words, long long slots, int shift, int* arcs, int count, u64* totals) {
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    HashedBuffers b = hashed_buffers(words, slots, n);
    int* arc_rows = arcs;
    int* unsorted = arcs + rows;
    int* indices = arcs + 2 * rows;
    long long first = global_thread(), step = grid_threads();

    for (long long w = first; w < b.words; w += step) words[w] = 0ull;
    barrier(grid);
    for (long long r = first; r < rows; r += step) insert_row(src, dst, r, b.table, shift, b.degree);
    barrier(grid);
    long long from, to;
    for (long long s = first; s < slots; s += step) {
        if (slot_arc(b.table, s, b.degree, from, to)) atomicAdd((u64*)&b.indptr[from + 1], 1ull);
    }
    barrier(grid);
    scan_counts(grid, b.indptr + 1, n, b.degree, b.pair_sum, b.block_sums);
    barrier(grid);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        totals[0] = (u64)b.indptr[n];
        totals[1] = *b.pair_sum;
        totals[2] = 0ull;
    }
    for (long long s = first; s < slots; s += step) {
        if (!slot_arc(b.table, s, b.degree, from, to)) continue;
        long long pos = b.indptr[from] + atomicAdd(&b.cursor[from], 1u);
        arc_rows[pos] = (int)from;
        unsorted[pos] = (int)to;
    }
    barrier(grid);
    long long m = b.indptr[n];
    for (long long p = first; p < m; p += step) {
        int v = unsorted[p];
        long long begin = b.indptr[arc_rows[p]], end = b.indptr[arc_rows[p] + 1], rank = 0;
        for (long long q = begin; q < end; ++q) rank += unsorted[q] < v;
        indices[begin + rank] = v;
    }
    if (!count) return;
    barrier(grid);
    u64 found = 0;
    for (long long e = first; e < m; e += step) {
        ArcLists lists = arc_lists(b.indptr, e, arc_rows[e], indices[e], 0);
        found += merge_common(indices, lists.i, lists.i_end, lists.j, lists.j_end,
                              [](long long, long long, int) {});
    }
    block_add(b.triangles, found);
    barrier(grid);
    if (blockIdx.x == 0 && threadIdx.x == 0) totals[2] = *b.triangles;
}
