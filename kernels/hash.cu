// TRUST's vertex-centric hashing (trust-hashing.md §3-4).
//
// One task per vertex u with out-degree >= 2: put N+(u) in a hash table once, then
// look up every 2-hop neighbour w in N+(v) for every v in N+(u); a hit closes the
// triangle u -> v -> w, u -> w. Vertices with out-degree above `block_degree` are
// tasks of a whole block, with a larger table and more shared memory; the others are
// tasks of one warp (§4.3). Blocks take one large vertex at a time and warps `chunk`
// small ones from atomic counters (chunked dynamic scheduling, §4.3). One persistent
// grid does both: each block takes large vertices while there are any, then its
// warps take small ones, so the few largest tasks start first and no
// multiprocessor idles at the end.
//
// The table (§3.1-3.2): `buckets` buckets (a power of two) of `levels` entries,
// HASH(w) = w mod buckets. Level l of every bucket is stored together (interleaved,
// so lanes probing neighbouring buckets read neighbouring words); the bucket lengths
// and the first `cached` levels live in shared memory, the rest in a global scratch
// area private to the warp or block. A full bucket passes new entries to the next
// bucket (linear probing); its length then counts past `levels`, which tells a
// lookup to go on to the next bucket too.
//
// The 2-hop neighbours are enumerated by virtual combination (§4.2): for a tile of
// u's out-neighbours (32 for a warp, blockDim for a block), a prefix sum of their
// out-degrees numbers the concatenation of their lists, and thread t takes entries
// t, t + width, ... TRUST finds the list of each entry by a binary search of the
// prefix sums; here a thread steps forward through the lists instead, since its
// entries only grow (fewer instructions per lookup, docs/algorithms.md).
//
// Weighted, a triangle's term goes to u, v and w, and v and w are both in N+(u): the
// task adds their terms to (sum, error) pairs of its own, one per position in N+(u)
// (`terms`, global scratch private to the warp or block), and adds each pair to the
// output once at the end of the task. The hubs' output pairs then take one atomic per
// arc instead of one per triangle from every multiprocessor at once.
#include "common.cu"

#ifndef EID
#define EID long long  // CSR position: unsigned int when m < 2^31 (fewer registers)
#endif

struct Table {
    int* lens;         // shared: entries tried per bucket (> levels: it overflowed)
    VID* cached;       // shared: levels [0, cached_levels), level-major
    VID* spill;        // global: levels [cached_levels, levels), level-major
    int* positions;    // global, all levels: index in N+(u) of each entry; null in
                       // the modes that need only vertices
    int buckets;       // a power of two
    int levels;        // entries a bucket holds
    int cached_levels;
};

__device__ __forceinline__ void table_insert(const Table& t, VID w, int position) {
    int b = (int)(w & (VID)(t.buckets - 1));
    while (true) {
        int level = atomicAdd(t.lens + b, 1);
        if (level < t.levels) {
            if (level < t.cached_levels) {
                t.cached[level * t.buckets + b] = w;
            } else {
                t.spill[(level - t.cached_levels) * t.buckets + b] = w;
            }
            if (t.positions != nullptr) t.positions[level * t.buckets + b] = position;
            return;
        }
        b = (b + 1) & (t.buckets - 1);
    }
}

// The slot (level * buckets + bucket) that holds w, or -1 (a linear search, §3.1).
// Most buckets hold no more than the cached levels: those are searched in shared
// memory alone.
__device__ __forceinline__ int table_find(const Table& t, VID w) {
    int b = (int)(w & (VID)(t.buckets - 1));
    int tried = t.lens[b];
    int cached = min(tried, t.cached_levels);
    for (int level = 0; level < cached; ++level) {
        if (t.cached[level * t.buckets + b] == w) return level * t.buckets + b;
    }
    if (tried <= t.cached_levels) return -1;
    for (int probe = 0; probe < t.buckets; ++probe) {
        int filled = min(tried, t.levels);
        for (int level = probe == 0 ? t.cached_levels : 0; level < filled; ++level) {
            VID x = level < t.cached_levels ? t.cached[level * t.buckets + b]
                                            : t.spill[(level - t.cached_levels) * t.buckets + b];
            if (x == w) return level * t.buckets + b;
        }
        if (tried <= t.levels) return -1;
        b = (b + 1) & (t.buckets - 1);
        tried = t.lens[b];
    }
    return -1;
}

// A thread's walk over the combined 2-hop list of a tile (virtual combination): entry
// idx lies in list s when prefix[s - 1] <= idx < prefix[s] (inclusive prefix sums of
// the lists' lengths), at CSR position idx + shift. A thread's entries only grow, so
// it steps s forward instead of searching for it.
struct Walk {
    int s;
    EID end;    // prefix[s]
    EID shift;  // firsts[s] - prefix[s - 1] (modulo 2^32 when EID is unsigned)
};

__device__ __forceinline__ Walk walk_start(const EID* prefix, const EID* firsts) {
    return Walk{0, prefix[0], firsts[0]};
}

// The CSR position of entry idx, moving `walk` to its list.
__device__ __forceinline__ EID walk_to(Walk& walk, const EID* prefix, const EID* firsts,
                                       EID idx) {
    while (idx >= walk.end) {
        ++walk.s;
        walk.shift = firsts[walk.s] - walk.end;
        walk.end = prefix[walk.s];
    }
    return idx + walk.shift;
}

// Look up the 2-hop neighbour at CSR position vw (on arc uv = u -> v) in u's table
// and credit the triangle it closes, if any; returns 1 for a triangle. All lanes of
// the warp call it together (`active` false past the end of the tile). Weighted,
// the base vertex u's terms go to the thread's own pair (base_sum, base_error),
// which credit_base adds once per task: every thread of a task shares u; v's and
// w's go to the task's pairs `terms` at their positions in N+(u) (flush_terms).
template <int MODE>
__device__ __forceinline__ unsigned lookup(const Table& t, const VID* __restrict__ indices,
                                           EID u_first, EID uv, VID v, EID vw, bool active,
                                           const WEIGHT* __restrict__ values, void* out,
                                           WEIGHT* terms, WEIGHT& base_sum,
                                           WEIGHT& base_error) {
    unsigned hit = 0;
    if (active) {
        VID w = indices[vw];
        int slot = table_find(t, w);
        hit = slot >= 0;
        if (hit) {
            if (MODE == MODE_PER_NODE) {
                atomicAdd((u64*)out + w, 1ull);
            } else if (MODE == MODE_PER_EDGE) {
                atomicAdd((u64*)out + vw, 1ull);
                atomicAdd((u64*)out + u_first + t.positions[slot], 1ull);
            } else if (MODE == MODE_WEIGHTED) {
                int w_position = t.positions[slot];
                WEIGHT x = values[uv] * values[u_first + w_position] * values[vw];
                local_add(base_sum, base_error, x);
                add_value(terms, uv - u_first, x);
                add_value(terms, w_position, x);
            }
        }
    }
    // Neighbouring lanes mostly share the middle vertex: one atomic per run.
    if (MODE == MODE_PER_NODE) warp_add((u64*)out, v, hit);
    if (MODE == MODE_PER_EDGE) warp_add((u64*)out, uv, hit);
    return hit;
}

// Walk the tile's combined list from entry `first` in steps of `step` and look every
// entry up in u's table; returns this thread's triangles. Every thread of the warp
// (block) calls it together.
template <int MODE>
__device__ __forceinline__ unsigned walk_tile(const Table& t, const VID* __restrict__ indices,
                                              EID u_first, EID tile_arc,
                                              const EID* prefix, const EID* firsts,
                                              const VID* middles, EID work, int first,
                                              int step, const WEIGHT* __restrict__ values,
                                              void* out, WEIGHT* terms, WEIGHT& base_sum,
                                              WEIGHT& base_error) {
    unsigned found = 0;
    Walk walk = walk_start(prefix, firsts);
    for (EID round = 0; round < work; round += step) {
        EID idx = round + first;
        bool active = idx < work;
        EID vw = active ? walk_to(walk, prefix, firsts, idx) : 0;
        VID v = (MODE == MODE_TOTAL || !active) ? 0 : middles[walk.s];
        found += lookup<MODE>(t, indices, u_first, tile_arc + walk.s, v, vw, active, values, out,
                              terms, base_sum, base_error);
    }
    return found;
}

// Credit the triangles found at u (weighted: the threads' pairs of u's terms): one
// atomic per warp.
template <int MODE>
__device__ __forceinline__ void credit_base(void* out, VID u, unsigned found, WEIGHT base_sum,
                                            WEIGHT base_error) {
    if constexpr (MODE == MODE_PER_NODE) {
        for (int offset = 16; offset > 0; offset >>= 1) {
            found += __shfl_down_sync(FULL_MASK, found, offset);
        }
        if (lane_id() == 0 && found != 0) atomicAdd((u64*)out + u, (u64)found);
    } else if constexpr (MODE == MODE_WEIGHTED) {
        warp_add_pair((WEIGHT*)out, u, base_sum, base_error);
    }
}

// Add the task's pairs `terms` (one per position in N+(u), CSR positions from
// `first`, `count` of them) to the output pairs of the vertices they belong to and
// zero them for the next task: this thread takes positions lane, lane + step, ...
// The pairs were written by atomics in L2, so they are read past L1 (__ldcg). Every
// thread of the task calls it, after a barrier that follows the task's lookups.
__device__ __forceinline__ void flush_terms(WEIGHT* terms, const VID* __restrict__ indices,
                                            EID first, EID count, int lane, int step,
                                            void* out) {
    for (EID p = lane; p < count; p += step) {
        WEIGHT sum = __ldcg(terms + 2 * p), error = __ldcg(terms + 2 * p + 1);
        if (sum == 0 && error == 0) continue;
        add_pair((WEIGHT*)out, indices[first + p], sum, error);
        terms[2 * p] = 0;
        terms[2 * p + 1] = 0;
    }
}

// Shared-memory bytes of one warp's task in the warp phase (8-byte aligned).
__device__ __forceinline__ int warp_shared_bytes(int buckets, int cached_levels) {
    int bytes = 64 * sizeof(EID) + buckets * sizeof(int) +
                (32 + cached_levels * buckets) * sizeof(VID);
    return (bytes + 7) / 8 * 8;
}

// Take the next `chunk` task indices from *next: one atomic per warp, broadcast.
__device__ __forceinline__ long long warp_claim(unsigned long long* next, int chunk) {
    unsigned long long first = 0;
    if (lane_id() == 0) first = atomicAdd(next, (unsigned long long)chunk);
    return (long long)__shfl_sync(FULL_MASK, first, 0);
}

// Block phase: the vertices in `vertices` (out-degree above block_degree), one block
// each, with a table of `buckets` buckets. Shared memory: prefix and firsts
// (blockDim long long each), lens (buckets int), middles (blockDim VID), cached
// (cached_levels * buckets VID). Returns this thread's triangles.
template <int MODE>
__device__ u64 block_phase(const long long* __restrict__ indptr, const VID* __restrict__ indices,
                           const VID* __restrict__ vertices, long long count,
                           unsigned long long* next, int buckets, int levels, int cached_levels,
                           VID* spill, int* positions, const WEIGHT* __restrict__ values,
                           void* out, WEIGHT* terms, char* shared) {
    __shared__ long long claimed;
    __shared__ long long warp_totals[32];
    const int width_max = blockDim.x;
    EID* prefix = (EID*)shared;
    EID* firsts = prefix + width_max;
    int* lens = (int*)(firsts + width_max);
    VID* middles = (VID*)(lens + buckets);
    Table t{lens, middles + width_max, spill, positions, buckets, levels, cached_levels};

    u64 total = 0;
    while (true) {
        if (threadIdx.x == 0) claimed = (long long)atomicAdd(next, 1ull);
        __syncthreads();
        long long task = claimed;
        __syncthreads();  // everyone has read `claimed` before it is claimed again
        if (task >= count) break;
        VID u = vertices[task];
        EID start = (EID)indptr[u], end = (EID)indptr[u + 1];
        for (int b = threadIdx.x; b < buckets; b += blockDim.x) lens[b] = 0;
        __syncthreads();
        for (EID e = start + threadIdx.x; e < end; e += blockDim.x) {
            table_insert(t, indices[e], (int)(e - start));
        }
        __syncthreads();
        unsigned found = 0;
        WEIGHT base_sum = 0, base_error = 0;
        for (EID tile = start; tile < end; tile += width_max) {
            EID e = tile + threadIdx.x;
            long long degree = 0;
            if (e < end) {
                VID v = indices[e];
                middles[threadIdx.x] = v;
                firsts[threadIdx.x] = (EID)indptr[v];
                degree = indptr[v + 1] - indptr[v];
            }
            prefix[threadIdx.x] = (EID)block_inclusive_sum(degree, warp_totals);
            int width = (int)min((long long)(end - tile), (long long)width_max);
            __syncthreads();
            EID work = prefix[width - 1];
            found += walk_tile<MODE>(t, indices, start, tile, prefix, firsts, middles, work,
                                     threadIdx.x, blockDim.x, values, out, terms, base_sum,
                                     base_error);
            __syncthreads();
        }
        total += found;
        credit_base<MODE>(out, u, found, base_sum, base_error);
        if (MODE == MODE_WEIGHTED) {
            flush_terms(terms, indices, start, end - start, threadIdx.x, blockDim.x, out);
        }
    }
    return total;
}

// Warp phase: the vertices in `vertices` (out-degree 2 to block_degree), one warp
// each, `chunk` at a time, with a table of `buckets` buckets. Shared memory per warp:
// prefix and firsts (32 long long each), lens (buckets int), middles (32 VID),
// cached (cached_levels * buckets VID). Returns this thread's triangles.
template <int MODE>
__device__ u64 warp_phase(const long long* __restrict__ indptr, const VID* __restrict__ indices,
                          const VID* __restrict__ vertices, long long count,
                          unsigned long long* next, int chunk, int buckets, int levels,
                          int cached_levels, VID* spill, int* positions,
                          const WEIGHT* __restrict__ values, void* out, WEIGHT* terms,
                          long long terms_stride, char* shared) {
    const int warp = threadIdx.x >> 5;
    const unsigned lane = lane_id();
    EID* prefix = (EID*)(shared + warp * warp_shared_bytes(buckets, cached_levels));
    EID* firsts = prefix + 32;
    int* lens = (int*)(firsts + 32);
    VID* middles = (VID*)(lens + buckets);
    Table t{lens, middles + 32, spill + warp * buckets * (levels - cached_levels),
            positions == nullptr ? nullptr : positions + warp * buckets * levels, buckets,
            levels, cached_levels};
    terms += warp * terms_stride;

    u64 total = 0;
    while (true) {
        long long first = warp_claim(next, chunk);
        if (first >= count) break;
        long long last = min(first + chunk, count);
        for (long long task = first; task < last; ++task) {
            VID u = vertices[task];
            EID start = (EID)indptr[u], end = (EID)indptr[u + 1];
            for (int b = lane; b < buckets; b += 32) lens[b] = 0;
            __syncwarp();
            for (EID e = start + lane; e < end; e += 32) {
                table_insert(t, indices[e], (int)(e - start));
            }
            __syncwarp();
            unsigned found = 0;
            WEIGHT base_sum = 0, base_error = 0;
            for (EID tile = start; tile < end; tile += 32) {
                EID e = tile + lane;
                EID degree = 0;
                if (e < end) {
                    VID v = indices[e];
                    middles[lane] = v;
                    firsts[lane] = (EID)indptr[v];
                    degree = (EID)(indptr[v + 1] - indptr[v]);
                }
                degree = warp_inclusive_sum(degree);
                prefix[lane] = degree;
                int width = (int)min((long long)(end - tile), 32ll);
                EID work = __shfl_sync(FULL_MASK, degree, width - 1);
                __syncwarp();
                found += walk_tile<MODE>(t, indices, start, tile, prefix, firsts, middles,
                                         work, lane, 32, values, out, terms, base_sum,
                                         base_error);
                __syncwarp();
            }
            total += found;
            credit_base<MODE>(out, u, found, base_sum, base_error);
            if (MODE == MODE_WEIGHTED) {
                flush_terms(terms, indices, start, end - start, lane, 32, out);
            }
        }
    }
    return total;
}

// The whole count: `large` vertices by blocks, then `small` ones by warps. `next`
// holds the two task counters; `scratch` and `positions` hold each block's spill
// levels and entry positions (`scratch_stride` and `positions_stride` elements a
// block; `positions` is used by the per-edge and weighted modes only); `terms`,
// weighted only, each block's zeroed pairs: `terms_stride` pairs a warp, and a
// block's task all its warps' (at least the largest block vertex's out-degree).
template <int MODE>
__device__ void hash_count(const long long* __restrict__ indptr, const VID* __restrict__ indices,
                           const VID* __restrict__ large, long long large_count,
                           const VID* __restrict__ small, long long small_count,
                           unsigned long long* next, int chunk, int buckets, int block_levels,
                           int block_cached, int warp_buckets, int warp_levels,
                           int warp_cached,
                           VID* scratch,
                           long long scratch_stride, int* positions, long long positions_stride,
                           WEIGHT* terms, long long terms_stride,
                           const WEIGHT* __restrict__ values, void* out) {
    extern __shared__ long long shared_words[];
    char* shared = (char*)shared_words;
    VID* spill = scratch + blockIdx.x * scratch_stride;
    int* slots = (MODE == MODE_PER_EDGE || MODE == MODE_WEIGHTED)
                     ? positions + blockIdx.x * positions_stride
                     : nullptr;
    WEIGHT* pairs = terms + blockIdx.x * 2 * terms_stride * (blockDim.x >> 5);
    u64 total = block_phase<MODE>(indptr, indices, large, large_count, next, buckets,
                                  block_levels, block_cached, spill, slots, values, out, pairs,
                                  shared);
    total += warp_phase<MODE>(indptr, indices, small, small_count, next + 1, chunk,
                              warp_buckets, warp_levels, warp_cached, spill, slots, values, out,
                              pairs, 2 * terms_stride, shared);
    if (MODE == MODE_TOTAL) block_add((u64*)out, total);
}

// Blocks of 256 threads a multiprocessor must hold, by registers (set per graph by
// nx_tricount/algorithms/hash.py: 8 caps the registers at 32 a thread, for full
// occupancy on graphs of heavy tasks; 4 leaves 64 for graphs of light ones).
#ifndef HASH_MIN_BLOCKS
#define HASH_MIN_BLOCKS 8
#endif

#define HASH_ENTRY(name, MODE)                                                               \
    extern "C" __global__ void __launch_bounds__(256, HASH_MIN_BLOCKS) name(                 \
        const long long* indptr, const VID* indices, const VID* large, long long large_count, \
        const VID* small, long long small_count, unsigned long long* next, int chunk,        \
        int buckets, int block_levels, int block_cached, int warp_buckets, int warp_levels,  \
        int warp_cached, VID* scratch, long long scratch_stride, int* positions,             \
        long long positions_stride, WEIGHT* terms, long long terms_stride,                   \
        const WEIGHT* values, void* out) {                                                   \
        hash_count<MODE>(indptr, indices, large, large_count, small, small_count, next,      \
                         chunk, buckets, block_levels, block_cached, warp_buckets,           \
                         warp_levels, warp_cached, scratch, scratch_stride, positions,       \
                         positions_stride, terms, terms_stride, values, out);                \
    }

HASH_ENTRY(hash_total, MODE_TOTAL)
HASH_ENTRY(hash_per_node, MODE_PER_NODE)
HASH_ENTRY(hash_per_edge, MODE_PER_EDGE)
HASH_ENTRY(hash_weighted, MODE_WEIGHTED)
