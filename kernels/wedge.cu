// WeTriC's wedge-parallel count (wetric-wedge-parallel.md §3, §5).
//
// Wedge k of the graph is the pair (i, j), i < j, of positions in N+(v) of its base
// vertex v; prefix[v] counts the wedges of the vertices before v (64-bit). A thread
// takes `spread` consecutive wedges (§5.2):
//   phase 1  find v by binary search over prefix (step a), turn k - prefix[v] into
//            (i, j) by the triangular-number mapping (step b), then step through its
//            wedges, writing their arc positions to shared memory;
//   phase 2  the block reads the wedges back in their global order, thread t taking
//            slots t, t + blockDim, ... (cooperation, §5.3), so neighbouring lanes
//            search the same list for neighbouring targets, and checks whether the
//            closing arc w -> u exists (step c).
// The closing arc is looked up in a bitmap when w is one of the last `bitmap_rows`
// vertices (§5.4; only with orientation "id", where N+(w) lies above w), else by
// binary search of N+(w); where a hit needs the closing arc's position (per edge,
// weighted), the bitmap's ranks give it (ranked_arc) instead of a search. Orientations
// other than "id" may close a wedge either way (both = 1): u -> w is searched too.
// A block takes blockDim * spread consecutive wedges.
// The graph of a task of a 2D partition is tripartite (nx_tricount/preprocess/
// partition.py): sources, middles and sinks, arcs only from a block to a later one,
// so only a wedge of a source's middle and sink can close. The *_cross entries
// enumerate those alone: the pairs (i, j), i < split <= j, of a source's row whose
// first `split` arcs go to middles, split * (d - split) of them, row by row. Their
// bitmap is a rectangle: the last middles' arcs to the last sinks, `words` words a
// row (where ids ascend by degree within each block, the densest of both).
// Per node and per edge, a triangle is counted on two arcs of its base vertex:
// v -> u in phase 2 (neighbouring lanes hold consecutive arcs: coalesced atomics),
// and v -> w in phase 3, where each thread walks its own wedges again, now with
// their hits, and adds up each row of wedges that shares v -> w before one atomic.
// Per node, wedge_arc_credit then turns the arcs' counts into vertex counts.
// A directed graph's transitive triples (wedge_transitive) are counted on its
// oriented arc pairs, each arc's state the directions its pair has (common.cu,
// transitive_triples): a wedge's two arcs give two states, its closing arc the third,
// from a bitmap of two planes (bit 0 and bit 1 of the states) or the state at the
// closing arc's position.
#include "common.cu"

// The wedge count's own modes beside common.cu's four: a directed graph's transitive
// triples, one total; and per node with small arc values (1 to 3: a directed graph's
// pair counts), each triangle adding the product of its three values where a plain
// count adds 1, to the same 32-bit arc counters (the caller keeps 27 n below 2^32).
#define MODE_TRANSITIVE 4
#define MODE_PER_NODE_VALUES 5

#ifndef EID
#define EID long long  // arc position in shared memory: unsigned int when m < 2^32
#endif

// Last v in [lo, hi) with prefix[v] <= k, given prefix[lo] <= k < prefix[hi]
// (vertex ids in VID: 32-bit arithmetic on all but the prefix sums when n < 2^31).
__device__ __forceinline__ VID base_of(const long long* __restrict__ prefix, VID lo, VID hi,
                                       long long k) {
    while (hi - lo > 1) {
        VID mid = lo + ((hi - lo) >> 1);
        if (prefix[mid] <= k) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Positions (i, j), i < j, of wedge k of a base vertex with out-degree d. Wedges are
// numbered row by row, (0,1), (0,2), ..., (1,2), ...; counted from the end,
// r = C(d,2) - 1 - k = b(b-1)/2 + a with b = d-1-i, a = d-1-j, and b is the largest
// integer with b(b-1)/2 <= r (the CPU's wedge_pair, with a float estimate of the root).
__device__ __forceinline__ void wedge_pair(long long k, long long d, int& i, int& j) {
    long long r = d * (d - 1) / 2 - 1 - k;
    // A single-precision root: off by about b / 2^23, a step or two for out-degrees
    // below 2^22; the loops correct it.
    long long b = (long long)((1.0f + sqrtf(1.0f + 8.0f * (float)r)) * 0.5f);
    while (b * (b - 1) / 2 > r) --b;
    while ((b + 1) * b / 2 <= r) ++b;
    long long a = r - b * (b - 1) / 2;
    i = (int)(d - 1 - b);
    j = (int)(d - 1 - a);
}

// The first vertex after v that has a wedge: a few steps, then binary search (runs
// of vertices with out-degree < 2 can be long among the low ids).
__device__ __forceinline__ VID next_base(const long long* __restrict__ prefix, VID v, VID n) {
    long long k = prefix[v + 1];
    for (int step = 0; step < 4; ++step) {
        ++v;
        if (prefix[v + 1] > k) return v;
    }
    return base_of(prefix, v + 1, n, k);
}

// The bitmap is upper triangular (columns > row only, as arcs point to higher ids):
// row r keeps the words from r / 32 to words - 1, so rows 32q .. 32q + 31 hold
// words - q words each. Returns the position of row r's first word; the word
// holding column c > r is then bitmap[row_start(r) + c / 32 - r / 32].
// 32-bit arithmetic: the bitmap has at most 2^17 rows (nx_tricount/algorithms/wedge.py).
__device__ __forceinline__ unsigned row_start(unsigned r, unsigned words) {
    unsigned q = r >> 5;
    return 32 * (q * words - q * (q - 1) / 2) + (r & 31) * (words - q);
}

__device__ __forceinline__ bool bit_set(const unsigned* __restrict__ bitmap, unsigned words,
                                        unsigned row, unsigned col) {
    return (bitmap[row_start(row, words) + (col >> 5) - (row >> 5)] >> (col & 31)) & 1u;
}

// The CSR position of arc w -> u, whose ends are bitmap row `row` and column `col`
// (w's arcs start at w_first), or -1 for none: row w holds exactly N+(w), so u's
// position is its bit's rank, the rank of its word (`ranks`, wedge_bitmap_ranks) and
// the bits below it in the word. A load and a popcount where a search of N+(w) takes
// a dependent load per halving.
__device__ __forceinline__ long long ranked_arc(const unsigned* __restrict__ bitmap,
                                                const unsigned* __restrict__ ranks,
                                                unsigned words, unsigned row, unsigned col,
                                                long long w_first) {
    unsigned at = row_start(row, words) + (col >> 5) - (row >> 5);
    unsigned word = bitmap[at], bit = col & 31;
    if (!((word >> bit) & 1u)) return -1;
    return w_first + __ldg(ranks + at) + __popc(word & ((1u << bit) - 1));
}

// The state of pair (row, col) in a bitmap of two planes, word by word (a uint2 per
// word of row_start's layout: bit 0 of the states or small values, then bit 1); 0
// for no pair.
__device__ __forceinline__ unsigned state_bits(const unsigned* __restrict__ bitmap,
                                               unsigned words, unsigned row, unsigned col) {
    uint2 cell = ((const uint2*)bitmap)[row_start(row, words) + (col >> 5) - (row >> 5)];
    unsigned shift = col & 31;
    return ((cell.x >> shift) & 1u) | (((cell.y >> shift) & 1u) << 1);
}

// A wedge's transitive triples: its arcs v -> w (state along) and v -> u (state
// across) closed by w -> u, or by u -> w where arcs may point to lower ids (`both`),
// whose state `closing` is then read as the triangle v -> u, v -> w, u -> w.
__device__ __forceinline__ unsigned wedge_triples(unsigned along, unsigned across,
                                                  unsigned closing, bool reversed) {
    if (closing == 0) return 0;
    return reversed ? transitive_triples(across, along, closing)
                    : transitive_triples(along, across, closing);
}

// A task graph's rectangular bitmap: row r holds `words` words.
__device__ __forceinline__ bool cross_bit_set(const unsigned* __restrict__ bitmap,
                                              unsigned words, unsigned row, unsigned col) {
    return (bitmap[(size_t)row * words + (col >> 5)] >> (col & 31)) & 1u;
}

// The two arcs of a wedge, v -> w and v -> u, as CSR positions: one shared-memory
// access per wedge, free of bank conflicts for odd spreads.
struct __align__(2 * sizeof(EID)) WedgeArcs {
    EID to_w;
    EID to_u;
};

// Phase 3: add the hits of a thread's own wedges (to_u holds each one's hit, 0 or 1,
// after phase 2) to their arcs v -> w. Consecutive wedges share v -> w along a row,
// so a thread adds once per row it meets, and its last row (which the next lanes
// mostly continue) through the warp's aggregation. All lanes of the warp must call it.
template <typename Counter>
__device__ __forceinline__ void credit_rows(const WedgeArcs* own, int count, Counter* out) {
    EID row = count > 0 ? own[0].to_w : 0;
    unsigned row_hits = 0;
    for (int s = 0; s < count; ++s) {
        WedgeArcs arcs = own[s];
        if (arcs.to_w != row) {
            if (row_hits) atomicAdd(out + row, (Counter)row_hits);
            row = arcs.to_w;
            row_hits = 0;
        }
        row_hits += (unsigned)arcs.to_u;
    }
    warp_add(out, row, row_hits);
}

// Phase 3 of a weighted count: the triangle's term x = values of its three arcs
// goes to w through arc v -> w's pair (`terms`, per arc), to u through arc v -> u's
// (phase 2), and to v itself. Phase 2 left each of the thread's wedges its arc v -> w
// in `rows_w` and its term (0: no triangle) over its slot in `own`, so this reads no
// values again (docs/algorithms.md, "wedge: weighted sums by arcs"). A thread's wedges
// run along rows v -> w of one base v: it adds each row's terms, and each base's, in
// pairs of its own (TwoSum) before one add_pair, its last row and base (which the next
// lanes mostly continue) through the warp's runs. All lanes of the warp must call it.
__device__ __forceinline__ void credit_weighted_rows(const WedgeArcs* own, const EID* rows_w,
                                                     int count, const VID* __restrict__ rows,
                                                     WEIGHT* terms, WEIGHT* out) {
    EID row = count > 0 ? rows_w[0] : 0;
    VID base = count > 0 ? rows[row] : 0;
    WEIGHT row_sum = 0, row_error = 0, base_sum = 0, base_error = 0;
    for (int s = 0; s < count; ++s) {
        EID to_w = rows_w[s];
        if (to_w != row) {
            add_pair(terms, row, row_sum, row_error);
            row_sum = row_error = 0;
            row = to_w;
            VID next = rows[row];
            if (next != base) {
                add_pair(out, base, base_sum, base_error);
                base_sum = base_error = 0;
                base = next;
            }
        }
        WEIGHT x = *reinterpret_cast<const WEIGHT*>(own + s);
        if (x != 0) {
            local_add(row_sum, row_error, x);
            local_add(base_sum, base_error, x);
        }
    }
    warp_add_pair_runs(terms, row, row_sum, row_error);
    warp_add_pair_runs(out, base, base_sum, base_error);
}

template <int MODE, bool CROSS>
__device__ __forceinline__ void wedge_count(const long long* __restrict__ indptr,
                                            const VID* __restrict__ indices,
                                            const VID* __restrict__ rows,
                                            const long long* __restrict__ prefix,
                                            const VID* __restrict__ splits, VID n,
                                            long long first_wedge, long long wedges,
                                            int spread, int both,
                                            const unsigned* __restrict__ bitmap,
                                            VID first_row, VID first_col, unsigned words,
                                            const WEIGHT* __restrict__ values,
                                            const unsigned char* __restrict__ states,
                                            const unsigned* __restrict__ ranks,
                                            unsigned* arc_hits, void* out) {
    extern __shared__ unsigned char shared[];
    // Per edge and weighted, a hit needs its closing arc's position, which `ranks`
    // (when given) reads off the bitmap.
    constexpr bool NEEDS_CLOSING = MODE == MODE_PER_EDGE || MODE == MODE_WEIGHTED;
    WedgeArcs* slots = (WedgeArcs*)shared;
    // Weighted: each wedge's arc v -> w after the slots, once phase 2 has put its term in
    // its slot (8 bytes, a WedgeArcs' first: its alignment is at least a double's).
    EID* rows_w = (EID*)(slots + blockDim.x * spread);
    // The block's wedges, [chunk_first, chunk_first + chunk_wedges) of the launch's,
    // which are the graph's from first_wedge on (a share's, nx_tricount/algorithms/
    // shares.py): per-wedge arithmetic below is 32-bit (a chunk has at most 256 * spread
    // wedges).
    int chunk_size = blockDim.x * spread;
    long long chunk_first = (long long)blockIdx.x * chunk_size;
    int chunk_wedges = (int)min((long long)chunk_size, wedges - chunk_first);

    // Phase 1: this thread's wedges, written to its slots.
    int first = threadIdx.x * spread;
    int count = max(0, min(spread, chunk_wedges - first));
    if (count > 0) {
        long long k = first_wedge + chunk_first + first;
        VID v = base_of(prefix, 0, n, k);
        long long start = indptr[v];
        int d = (int)(indptr[v + 1] - start);
        int i, j, split = 0;
        if (CROSS) {
            split = (int)splits[v];
            long long r = k - prefix[v];
            i = (int)(r / (d - split));
            j = split + (int)(r % (d - split));
        } else {
            wedge_pair(k - prefix[v], d, i, j);
        }
        EID base = (EID)start;
        WedgeArcs* own = slots + first;
        for (int s = 0;;) {
            own[s] = WedgeArcs{base + i, base + j};
            if (++s == count) break;
            if (++j == d) {
                if (++i == (CROSS ? split : d - 1)) {
                    v = next_base(prefix, v, n);
                    start = indptr[v];
                    base = (EID)start;
                    d = (int)(indptr[v + 1] - start);
                    if (CROSS) split = (int)splits[v];
                    i = 0;
                }
                j = CROSS ? split : i + 1;
            }
        }
    }
    __syncthreads();

    // Phase 2: slot s * blockDim + t holds the chunk's wedge s * blockDim + t.
    unsigned found = 0;
    for (int slot = threadIdx.x; slot < chunk_size; slot += blockDim.x) {
        unsigned hit = 0;
        EID pi = 0, pj = 0;
        long long closing = -1;
        VID w = 0, u = 0;
        if (slot < chunk_wedges) {
            WedgeArcs arcs = slots[slot];
            pi = arcs.to_w;
            pj = arcs.to_u;
            w = indices[pi];
            u = indices[pj];
            if (MODE == MODE_TRANSITIVE) {
                unsigned along = states[pi], across = states[pj], closing_state = 0;
                bool reversed = false;
                if (w >= first_row) {
                    closing_state = state_bits(bitmap, words, (unsigned)(w - first_row),
                                               (unsigned)(u - first_row));
                } else {
                    closing = find(indices, (EID)indptr[w], (EID)indptr[w + 1], u);
                    if (closing < 0 && both) {
                        closing = find(indices, (EID)indptr[u], (EID)indptr[u + 1], w);
                        reversed = true;
                    }
                    closing_state = closing >= 0 ? states[closing] : 0;
                }
                hit = wedge_triples(along, across, closing_state, reversed);
            } else if (MODE == MODE_PER_NODE_VALUES) {
                unsigned closing_value = 0;
                if (w >= first_row) {
                    closing_value = state_bits(bitmap, words, (unsigned)(w - first_row),
                                               (unsigned)(u - first_row));
                } else {
                    closing = find(indices, (EID)indptr[w], (EID)indptr[w + 1], u);
                    if (closing < 0 && both) {
                        closing = find(indices, (EID)indptr[u], (EID)indptr[u + 1], w);
                    }
                    closing_value = closing >= 0 ? (unsigned)values[closing] : 0;
                }
                hit = (unsigned)(values[pi] * values[pj]) * closing_value;
            } else if (NEEDS_CLOSING && !CROSS && ranks != nullptr && w >= first_row) {
                closing = ranked_arc(bitmap, ranks, words, (unsigned)(w - first_row),
                                     (unsigned)(u - first_row), indptr[w]);
                hit = closing >= 0;
            } else if (w >= first_row && (!CROSS || u >= first_col)) {
                // Without CROSS, u > w: w >= first_row puts u in the bitmap too.
                hit = CROSS ? cross_bit_set(bitmap, words, (unsigned)(w - first_row),
                                            (unsigned)(u - first_col))
                            : bit_set(bitmap, words, (unsigned)(w - first_row),
                                      (unsigned)(u - first_row));
                if (hit && MODE != MODE_TOTAL && MODE != MODE_PER_NODE) {
                    closing = find(indices, (EID)indptr[w], (EID)indptr[w + 1], u);
                }
            } else {
                closing = find(indices, (EID)indptr[w], (EID)indptr[w + 1], u);
                hit = closing >= 0;
            }
            if (both && MODE != MODE_TRANSITIVE && MODE != MODE_PER_NODE_VALUES) {
                // Acyclic orientations close a wedge one way at most; the arcs of
                // a directed graph may close it both ways, and the total counts both.
                if (MODE == MODE_TOTAL) {
                    hit += find(indices, (EID)indptr[u], (EID)indptr[u + 1], w) >= 0;
                } else if (!hit) {
                    closing = find(indices, (EID)indptr[u], (EID)indptr[u + 1], w);
                    hit = closing >= 0;
                }
            }
        }
        if (MODE == MODE_TOTAL || MODE == MODE_TRANSITIVE) {
            found += hit;
        } else if (MODE == MODE_PER_NODE || MODE == MODE_PER_NODE_VALUES) {
            // The triangle counts on its arcs v -> u here (consecutive lanes hold
            // consecutive arcs of one row: coalesced) and v -> w in phase 3.
            if (hit) atomicAdd(arc_hits + pj, hit);
            if (slot < chunk_wedges) slots[slot].to_u = hit;
        } else if (MODE == MODE_PER_EDGE) {
            if (hit) {
                atomicAdd((u64*)out + pj, 1ull);
                atomicAdd((u64*)out + closing, 1ull);
            }
            if (slot < chunk_wedges) slots[slot].to_u = hit;
        } else {  // MODE_WEIGHTED
            WEIGHT x = hit ? values[pi] * values[pj] * values[closing] : 0;
            if (hit) add_value((WEIGHT*)arc_hits, pj, x);
            if (slot < chunk_wedges) {
                rows_w[slot] = pi;
                *reinterpret_cast<WEIGHT*>(slots + slot) = x;
            }
        }
    }
    if (MODE == MODE_TOTAL || MODE == MODE_TRANSITIVE) block_add((u64*)out, found);
    if (MODE == MODE_WEIGHTED) {
        __syncthreads();
        credit_weighted_rows(slots + first, rows_w + first, count, rows, (WEIGHT*)arc_hits,
                             (WEIGHT*)out);
    }
    if (MODE == MODE_PER_NODE || MODE == MODE_PER_NODE_VALUES) {
        __syncthreads();
        credit_rows(slots + first, count, arc_hits);
    } else if (MODE == MODE_PER_EDGE) {
        __syncthreads();
        credit_rows(slots + first, count, (u64*)out);
    }
}

#define WEDGE_ENTRY(name, MODE, CROSS, BLOCKS)                                              \
    extern "C" __global__ void __launch_bounds__(256, BLOCKS)                                \
        name(const long long* indptr, const VID* indices, const VID* rows,                   \
             const long long* prefix, const VID* splits, VID n, long long first_wedge,       \
             long long wedges, int spread, int both, const unsigned* bitmap, VID first_row,  \
             VID first_col, unsigned words, const WEIGHT* values, const unsigned* ranks,     \
             unsigned* arc_hits, void* out) {                                                \
        wedge_count<MODE, CROSS>(indptr, indices, rows, prefix, splits, n, first_wedge,      \
                                 wedges, spread, both, bitmap, first_row, first_col, words,  \
                                 values, nullptr, ranks, arc_hits, out);                     \
    }

// Blocks of at most 256 threads (nx_tricount/algorithms/wedge.py launches 128);
// registers capped at 32 so that 2048 threads fit on a multiprocessor (full
// occupancy: the searches are latency-bound). Per node runs with six blocks' bound
// (measured: docs/algorithms.md, 'wedge: per-node launch bounds and hub counters').
WEDGE_ENTRY(wedge_total, MODE_TOTAL, false, 8)
WEDGE_ENTRY(wedge_per_node, MODE_PER_NODE, false, 6)
WEDGE_ENTRY(wedge_per_edge, MODE_PER_EDGE, false, 8)
WEDGE_ENTRY(wedge_weighted, MODE_WEIGHTED, false, 8)
WEDGE_ENTRY(wedge_cross_total, MODE_TOTAL, true, 8)
WEDGE_ENTRY(wedge_cross_per_node, MODE_PER_NODE, true, 6)
WEDGE_ENTRY(wedge_cross_per_edge, MODE_PER_EDGE, true, 8)
WEDGE_ENTRY(wedge_cross_weighted, MODE_WEIGHTED, true, 8)
WEDGE_ENTRY(wedge_per_node_values, MODE_PER_NODE_VALUES, false, 6)

// A directed graph's transitive triples on its oriented arc pairs (`states`, one
// byte an arc), added to total[0]; `bitmap` of two planes (wedge_state_bitmap).
extern "C" __global__ void __launch_bounds__(256, 8)
    wedge_transitive(const long long* indptr, const VID* indices, const long long* prefix,
                     VID n, long long wedges, int spread, int both, const unsigned* bitmap,
                     VID first_row, unsigned words, const unsigned char* states, u64* total) {
    wedge_count<MODE_TRANSITIVE, false>(indptr, indices, nullptr, prefix, nullptr, n, 0,
                                        wedges, spread, both, bitmap, first_row, first_row, words,
                                        nullptr, states, nullptr, nullptr, total);
}

// The wedge prefix sums phase 1 searches, in a chunked scan (common.cu's chunk_total
// and scan_chunk; one CuPy cumsum had cost 90 us of host time): prefix[0] = 0 and
// prefix[v + 1] = prefix[v] + C(d+(v), 2), the wedges of vertex v.
__device__ __forceinline__ long long vertex_wedges(const long long* __restrict__ indptr, long long v) {
    long long d = indptr[v + 1] - indptr[v];
    return d * (d - 1) / 2;
}

extern "C" __global__ void __launch_bounds__(256)
wedge_prefix_totals(const long long* __restrict__ indptr, long long n, long long chunk,
                    long long* totals) {
    chunk_total(n, chunk, totals, [&](long long v) { return vertex_wedges(indptr, v); });
}

extern "C" __global__ void __launch_bounds__(256)
wedge_prefix_scan(const long long* __restrict__ indptr, long long n, long long chunk,
                  const long long* __restrict__ totals, long long* prefix) {
    if (blockIdx.x == 0 && threadIdx.x == 0) prefix[0] = 0;
    scan_chunk(n, chunk, totals, [&](long long v) { return vertex_wedges(indptr, v); },
               [&](long long v, long long before, long long c) { prefix[v + 1] = before + c; });
}

// The cross wedges of a task graph: for each of the `sources` first vertices, its
// split (the arcs to middles, ids below middle_end, lead its sorted row) and
// pairs[v + 1] = split * (d - split); no other vertex has one.
extern "C" __global__ void wedge_cross_pairs(const long long* indptr, const VID* indices,
                                             long long n, long long sources,
                                             long long middle_end, VID* splits,
                                             long long* pairs) {
    long long v = global_thread();
    if (v == 0) pairs[0] = 0;
    if (v >= n) return;
    long long wedges = 0;
    if (v < sources) {
        long long start = indptr[v], end = indptr[v + 1];
        long long split = lower_bound(indices, start, end, (VID)middle_end) - start;
        splits[v] = (VID)split;
        wedges = split * (end - start - split);
    }
    pairs[v + 1] = wedges;
}

// Count the vertices of out-degree at least min_out_degree into *heavy: as many
// bitmap rows as wedge_layout takes (a binary search of such a list takes five
// steps or more). One ballot and atomic a warp.
extern "C" __global__ void wedge_heavy_rows(const long long* indptr, long long n,
                                            long long min_out_degree, unsigned long long* heavy) {
    long long v = global_thread();
    bool is_heavy = v < n && indptr[v + 1] - indptr[v] >= min_out_degree;
    unsigned ballot = __ballot_sync(0xffffffffu, is_heavy);
    if ((threadIdx.x & 31) == 0 && ballot != 0) {
        atomicAdd(heavy, (unsigned long long)__popc(ballot));
    }
}

// Thread 0: what the host needs to know before the count, for a single transfer:
// layout[0] the number of wedges, layout[1] the bitmap's rows (on entry the count
// of wedge_heavy_rows, 0 without a bitmap; at most `largest`: the last ids, where
// degrees ascend with the ids) and layout[2] the CSR position of their first arc.
extern "C" __global__ void wedge_layout(const long long* prefix, const long long* indptr,
                                        long long n, long long largest, long long* layout) {
    if (global_thread() != 0) return;
    long long rows = min(largest, layout[1]);
    layout[0] = prefix[n];
    layout[1] = rows;
    layout[2] = indptr[n - rows];
}

// Set bit (w - first_row, u - first_row), in the layout of row_start, for every arc
// w -> u of the last rows: with orientation "id", the arcs from indptr[first_row] on.
extern "C" __global__ void wedge_bitmap(const VID* indices, const VID* rows, long long first_arc,
                                        long long m, long long first_row, long long words,
                                        unsigned* bitmap) {
    long long p = first_arc + global_thread();
    if (p >= m) return;
    unsigned row = (unsigned)(rows[p] - first_row);
    unsigned col = (unsigned)(indices[p] - first_row);
    atomicOr(bitmap + row_start(row, words) + (col >> 5) - (row >> 5), 1u << (col & 31));
}

// wedge_bitmap of two planes (state_bits): each arc's state, or small value, in
// the two planes of its word.
template <typename Value>
__device__ __forceinline__ void plane_bitmap(const VID* indices, const VID* rows,
                                             const Value* values, long long first_arc,
                                             long long m, long long first_row, long long words,
                                             unsigned* bitmap) {
    long long p = first_arc + global_thread();
    if (p >= m) return;
    unsigned row = (unsigned)(rows[p] - first_row);
    unsigned col = (unsigned)(indices[p] - first_row);
    unsigned* cell = bitmap + 2 * (row_start(row, words) + (col >> 5) - (row >> 5));
    unsigned value = (unsigned)values[p], bit = 1u << (col & 31);
    if (value & 1) atomicOr(cell, bit);
    if (value & 2) atomicOr(cell + 1, bit);
}

extern "C" __global__ void wedge_state_bitmap(const VID* indices, const VID* rows,
                                              const unsigned char* states, long long first_arc,
                                              long long m, long long first_row, long long words,
                                              unsigned* bitmap) {
    plane_bitmap(indices, rows, states, first_arc, m, first_row, words, bitmap);
}

extern "C" __global__ void wedge_value_bitmap(const VID* indices, const VID* rows,
                                              const WEIGHT* values, long long first_arc,
                                              long long m, long long first_row, long long words,
                                              unsigned* bitmap) {
    plane_bitmap(indices, rows, values, first_arc, m, first_row, words, bitmap);
}

// The hub block (totals, unweighted per node): a vertex v of the bitmap whose wedges
// outnumber the words of its arcs' rows is counted by intersecting rows instead. Its
// out-neighbours lie above it, in the bitmap too, so the triangles v -> w -> u are
// the bits of row v AND row w (row w holds columns above w alone): one 32-bit AND
// and popcount per word, on rows the densest vertices share (the bit-wise paper's
// dense block, bitwise-2d-partition.md §3.2). hub_kept is C(d+(v), 2), or 0 for a
// hub vertex, whose wedges the wedge count then skips; the bitmap's `rows` are the
// last ids, `(rows + 31) / 32` words a row.
// Per node a hub vertex keeps a counter per arc in shared memory: out-degrees above
// max_degree keep their wedges. hub_words >= 1.
// A warp sums the words of v's rows: the bitmap's vertices have the longest lists,
// and a thread summing one alone held up each launch that needs them (R-MAT 20: about
// 0.1 ms each). Every lane calls it with the same v and gets the same answer; an upper
// bound decides most hubs without reading their lists (every out-neighbour lies above
// v, so its row has at most the words of row v + 1).
__device__ __forceinline__ long long hub_kept(const long long* __restrict__ indptr,
                                              const VID* __restrict__ indices, long long n,
                                              long long rows, long long hub_words,
                                              long long max_degree, long long v) {
    long long start = indptr[v], d = indptr[v + 1] - start;
    long long wedges = d * (d - 1) / 2, first_row = n - rows, words = (rows + 31) / 32;
    if (v < first_row || wedges == 0 || d > max_degree) return wedges;
    // A hub: its rows' words fewer than hub_words * wedges (saturated, no overflow).
    const long long most = 0x7fffffffffffffffLL;
    long long limit = wedges > most / hub_words ? most : hub_words * wedges;
    if (d * (words - (v + 1 - first_row) / 32) < limit) return 0;
    long long row_words = 0;
    for (long long a = start + lane_id(); a < start + d; a += 32) {
        row_words += words - ((long long)indices[a] - first_row) / 32;
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        row_words += __shfl_xor_sync(FULL_MASK, row_words, offset);
    }
    return row_words < limit ? 0 : wedges;
}

// hub_kept of each of the bitmap's `rows` vertices (the last ids) into kept, a warp
// each, for the hub prefix sums below.
extern "C" __global__ void __launch_bounds__(256)
wedge_hub_kept(const long long* __restrict__ indptr, const VID* __restrict__ indices, long long n,
               long long rows, long long hub_words, long long max_degree, long long* kept) {
    long long row = global_thread() >> 5;
    if (row >= rows) return;  // whole warps: launched with 32 threads a row
    long long value = hub_kept(indptr, indices, n, rows, hub_words, max_degree, n - rows + row);
    if (lane_id() == 0) kept[row] = value;
}

// The hub count's prefix sums, the wedges with kept's in place of the bitmap's, in a
// chunked scan as wedge_prefix_scan's.
__device__ __forceinline__ long long hub_wedges(const long long* __restrict__ indptr,
                                                const long long* __restrict__ kept, long long n,
                                                long long rows, long long v) {
    return v >= n - rows ? kept[v - (n - rows)] : vertex_wedges(indptr, v);
}

extern "C" __global__ void __launch_bounds__(256)
wedge_hub_totals(const long long* __restrict__ indptr, const long long* __restrict__ kept,
                 long long rows, long long n, long long chunk, long long* totals) {
    chunk_total(n, chunk, totals, [&](long long v) { return hub_wedges(indptr, kept, n, rows, v); });
}

extern "C" __global__ void __launch_bounds__(256)
wedge_hub_scan(const long long* __restrict__ indptr, const long long* __restrict__ kept,
               long long rows, long long n, long long chunk, const long long* __restrict__ totals,
               long long* hub_prefix) {
    if (blockIdx.x == 0 && threadIdx.x == 0) hub_prefix[0] = 0;
    scan_chunk(
        n, chunk, totals, [&](long long v) { return hub_wedges(indptr, kept, n, rows, v); },
        [&](long long v, long long before, long long c) { hub_prefix[v + 1] = before + c; });
}

// The wedges the hub block takes off, added into *taken, before the host knows the
// bitmap: its rows are read on the GPU from layout[1] (wedge_layout's), so that the
// host reads the sum with the graph's work (nx_tricount/algorithms/work.py). A warp
// per vertex of the last `largest` ids (at least the bitmap's), each writing its
// hub_kept into kept[v - (n - largest)], which the hub prefix sums then read in place
// of wedge_hub_kept's (C(d+, 2) for the ids below the bitmap).
extern "C" __global__ void __launch_bounds__(256)
wedge_hub_taken(const long long* __restrict__ indptr, const VID* __restrict__ indices, long long n,
                long long largest, const long long* __restrict__ layout, long long hub_words,
                long long max_degree, long long* kept, u64* taken) {
    long long rows = layout[1], first = n - min(n, largest), v = first + (global_thread() >> 5);
    u64 wedges = 0;
    if (v < n) {  // the same for the warp's lanes
        long long value = hub_kept(indptr, indices, n, rows, hub_words, max_degree, v);
        if (lane_id() == 0) {
            kept[v - first] = value;
            wedges = (u64)(vertex_wedges(indptr, v) - value);
        }
    }
    block_add(taken, wedges);
}

// Each base vertex's cost in a count, to cut its shares by
// (nx_tricount/algorithms/wedge_layout.py, gpu_vertex_costs), in wedges searched: its
// wedges whose middle is below the bitmap at 1, those whose middle is a bitmap row
// (their last k arcs, into the bitmap: k (k - 1) / 2 wedges) at bitmap_wedge, and its
// arcs at arc; a vertex the hub block takes (hub_prefix, when given, leaves out its
// wedges) its arcs at arc and its out-degree times a row's words at hub_word.
extern "C" __global__ void __launch_bounds__(256)
wedge_base_costs(const long long* __restrict__ indptr, const VID* __restrict__ indices,
                 const long long* __restrict__ hub_prefix, long long n, long long first_row,
                 long long words, double bitmap_wedge, double arc, double hub_word, double* costs) {
    long long v = global_thread();
    if (v >= n) return;
    long long start = indptr[v], end = indptr[v + 1];
    double d = (double)(end - start), wedges = d * (d - 1) / 2;
    if (hub_prefix != nullptr && hub_prefix[v + 1] - hub_prefix[v] < (end - start) * (end - start - 1) / 2) {
        costs[v] = arc * d + hub_word * d * (double)words;
        return;
    }
    long long low = start, high = end;  // the first arc into the bitmap
    while (low < high) {
        long long mid = (low + high) >> 1;
        if ((long long)indices[mid] < first_row) low = mid + 1; else high = mid;
    }
    double k = (double)(end - low), in_bitmap = k * (k - 1) / 2;
    costs[v] = arc * d + (wedges - in_bitmap) + bitmap_wedge * in_bitmap;
}

// The first arc of v (CSR positions start .. end, sorted targets) whose target's row
// holds fewer than 32 words: a target column of 32 (words - 31) or more.
__device__ __forceinline__ long long first_short_arc(const VID* indices, long long start,
                                                     long long end, VID first_row,
                                                     unsigned words) {
    if (words < 32) return start;
    long long limit = (long long)first_row + 32 * ((long long)words - 31);
    if (limit > (long long)indices[end - 1]) return end;
    return lower_bound(indices, start, end, (VID)limit);
}

// Each of a bitmap row's `count` words gets its rank: the set bits of the words before
// it (an exclusive scan of their popcounts). One whole warp, 32 words at a time.
__device__ __forceinline__ void rank_words(const unsigned* bits, unsigned count, unsigned* rank) {
    unsigned lane = lane_id(), carry = 0;
    for (unsigned first = 0; first < count; first += 32) {
        unsigned q = first + lane;
        unsigned set = q < count ? __popc(bits[q]) : 0;
        unsigned through = warp_inclusive_sum(set);
        if (q < count) rank[q] = carry + through - set;
        carry += __shfl_sync(FULL_MASK, through, 31);
    }
}

// Row v AND row w over the words of w's row, from word q on in steps of `step`: the
// number of triangles v -> w -> u. Per node (counts non-null) each one also adds 1 to
// counts[position of u in N+(v)]: row v holds exactly N+(v), in CSR order, so that
// position is the rank of u's bit, the set bits of the words before it (rank) and of
// its own word below it.
template <bool PER_NODE>
__device__ __forceinline__ unsigned and_rows(const unsigned* row_v, const unsigned* rank,
                                             unsigned first_word, const unsigned* row_w,
                                             unsigned q, unsigned words, unsigned step,
                                             unsigned* counts) {
    unsigned found = 0;
    for (; q < words; q += step) {
        unsigned own = row_v[q - first_word], both = own & __ldg(row_w + q);
        found += __popc(both);
        if (PER_NODE) {
            for (; both; both &= both - 1) {
                unsigned below = own & ((1u << (__ffs(both) - 1)) - 1);
                atomicAdd(counts + rank[q - first_word] + __popc(below), 1u);
            }
        }
    }
    return found;
}

// One block per bitmap row from vertex first_vertex on (a share's rows alone), to the
// last row or the share's end: a hub vertex's row goes to shared memory, then it is
// ANDed with each out-neighbour w's row, over the words above w. Arcs ascend by
// target, so those lengths descend along the row: arcs of at least 32 words take a
// warp each (coalesced words), the others a lane each (a lane's words share sectors),
// so that no lane idles on short rows.
// Per node the vertex's arcs get the counts the wedge count would give them (it skips
// the vertex): arc v -> w the triangles v -> w -> u, arc v -> u one for each w that
// closes it. They gather in shared memory, one per arc, and are stored once: no other
// kernel writes v's arcs. Shared memory: the row, and per node its ranks (an exclusive
// scan of its words' popcounts) and d+(v) counts.
template <bool PER_NODE>
__device__ __forceinline__ void hub_count(const long long* indptr, const VID* indices,
                                          const long long* prefix, const long long* hub_prefix,
                                          const unsigned* __restrict__ bitmap, VID first_row,
                                          VID first_vertex, unsigned words, void* out) {
    extern __shared__ unsigned hub_shared[];
    VID v = first_vertex + (VID)blockIdx.x;
    bool hub = prefix[v + 1] > prefix[v] && hub_prefix[v + 1] == hub_prefix[v];
    if (!hub) return;
    unsigned r = (unsigned)(v - first_row), first_word = r >> 5, own = words - first_word;
    unsigned *row_v = hub_shared, *rank = row_v + own, *counts = rank + own;
    long long start = indptr[v], end = indptr[v + 1];
    const unsigned* row = bitmap + row_start(r, words);
    for (unsigned q = threadIdx.x; q < own; q += blockDim.x) row_v[q] = row[q];
    if (PER_NODE) {
        for (long long i = threadIdx.x; i < end - start; i += blockDim.x) counts[i] = 0;
    }
    __syncthreads();
    unsigned lane = lane_id(), warps = blockDim.x >> 5;
    if (PER_NODE) {
        if (threadIdx.x < 32) rank_words(row_v, own, rank);
        __syncthreads();
    }
    long long long_end = first_short_arc(indices, start, end, first_row, words);
    unsigned total = 0;
    for (long long a = start + (threadIdx.x >> 5); a < long_end; a += warps) {
        unsigned c = (unsigned)(indices[a] - first_row), w_word = c >> 5;
        const unsigned* row_w = bitmap + row_start(c, words) - w_word;
        unsigned found =
            and_rows<PER_NODE>(row_v, rank, first_word, row_w, w_word + lane, words, 32, counts);
        if (PER_NODE) {  // the loop over arcs is uniform across the warp
            found = __reduce_add_sync(FULL_MASK, found);
            if (lane == 0 && found) atomicAdd(counts + (a - start), found);
        }
        total += found;
    }
    for (long long a = long_end + threadIdx.x; a < end; a += blockDim.x) {
        unsigned c = (unsigned)(indices[a] - first_row), w_word = c >> 5;
        const unsigned* row_w = bitmap + row_start(c, words) - w_word;
        unsigned found =
            and_rows<PER_NODE>(row_v, rank, first_word, row_w, w_word, words, 1, counts);
        if (PER_NODE && found) atomicAdd(counts + (a - start), found);
        total += found;
    }
    if (PER_NODE) {
        __syncthreads();
        unsigned* arc_hits = (unsigned*)out;
        for (long long i = threadIdx.x; i < end - start; i += blockDim.x) {
            arc_hits[start + i] = counts[i];
        }
    } else {
        block_add((u64*)out, total);
    }
}

// The hub block of wedge_transitive, on its bitmap of two planes (A: bit 0 of the
// states, B: bit 1). For arc v -> w of state vw, the triangles v -> w -> u add
// d(vw) d(vu) d(wu) less the two cycles (transitive_triples): summed over u, d(vw)
// times popc(Av & Aw) + popc(Av & Bw) + popc(Bv & Aw) + popc(Bv & Bw), less
// [vw bit 0] popc(Aw & Bv) and [vw bit 1] popc(Bw & Av). Each u's part is a
// triangle's triples, never negative, so every lane's partial sum is one too.
__device__ __forceinline__ unsigned and_state_rows(const uint2* row_v, unsigned first_word,
                                                   const uint2* row_w, unsigned q,
                                                   unsigned words, unsigned step,
                                                   unsigned vw) {
    unsigned pairs = 0, cycles = 0;
    for (; q < words; q += step) {
        uint2 own = row_v[q - first_word], other = __ldg(row_w + q);
        pairs += __popc(own.x & other.x) + __popc(own.x & other.y) + __popc(own.y & other.x) +
                 __popc(own.y & other.y);
        cycles += (vw & 1) * __popc(other.x & own.y) + (vw >> 1) * __popc(other.y & own.x);
    }
    return directions(vw) * pairs - cycles;
}

// hub_count's total for wedge_transitive: a block per bitmap row, the hub vertex's
// row (both planes) in shared memory, a warp per long row of an out-neighbour and a
// lane per short one.
extern "C" __global__ void __launch_bounds__(256)
    wedge_hub_transitive(const long long* indptr, const VID* indices, const long long* prefix,
                         const long long* hub_prefix, const unsigned* __restrict__ bitmap,
                         VID first_row, unsigned words, const unsigned char* states, u64* out) {
    extern __shared__ uint2 hub_planes[];
    VID v = first_row + (VID)blockIdx.x;
    bool hub = prefix[v + 1] > prefix[v] && hub_prefix[v + 1] == hub_prefix[v];
    if (!hub) return;
    unsigned r = (unsigned)blockIdx.x, first_word = r >> 5, own = words - first_word;
    const uint2* planes = (const uint2*)bitmap;
    const uint2* row = planes + row_start(r, words);
    for (unsigned q = threadIdx.x; q < own; q += blockDim.x) hub_planes[q] = row[q];
    __syncthreads();
    long long start = indptr[v], end = indptr[v + 1];
    long long long_end = first_short_arc(indices, start, end, first_row, words);
    unsigned lane = lane_id(), warps = blockDim.x >> 5;
    u64 total = 0;
    for (long long a = start + (threadIdx.x >> 5); a < long_end; a += warps) {
        unsigned c = (unsigned)(indices[a] - first_row), w_word = c >> 5;
        const uint2* row_w = planes + row_start(c, words) - w_word;
        total += and_state_rows(hub_planes, first_word, row_w, w_word + lane, words, 32, states[a]);
    }
    for (long long a = long_end + threadIdx.x; a < end; a += blockDim.x) {
        unsigned c = (unsigned)(indices[a] - first_row), w_word = c >> 5;
        const uint2* row_w = planes + row_start(c, words) - w_word;
        total += and_state_rows(hub_planes, first_word, row_w, w_word, words, 1, states[a]);
    }
    block_add(out, total);
}

#define HUB_ENTRY(name, PER_NODE)                                                           \
    extern "C" __global__ void __launch_bounds__(256)                                        \
        name(const long long* indptr, const VID* indices, const long long* prefix,          \
             const long long* hub_prefix, const unsigned* bitmap, VID first_row,             \
             VID first_vertex, unsigned words, void* out) {                                 \
        hub_count<PER_NODE>(indptr, indices, prefix, hub_prefix, bitmap, first_row,          \
                            first_vertex, words, out);                                      \
    }

HUB_ENTRY(wedge_hub_total, false)
HUB_ENTRY(wedge_hub_per_node, true)

// Each word's rank in its bitmap row: the set bits of the row's words before it (a
// warp per row, rows of row_start's layout). Row w holds exactly N+(w), so the
// position of u in N+(w) is indptr[w] + the rank of u's word + the bits below u's in
// it (the weighted hub block).
extern "C" __global__ void wedge_bitmap_ranks(const unsigned* __restrict__ bitmap, long long rows,
                                              unsigned words, unsigned* ranks) {
    long long r = global_thread() >> 5;
    if (r >= rows) return;  // the whole warp
    unsigned first = row_start((unsigned)r, words);
    rank_words(bitmap + first, words - ((unsigned)r >> 5), ranks + first);
}

// A warp's share of a weighted hub block: each lane holds one word q of the row of an
// arc v -> w (`row_first`, `w_first`, `b_vw`; `has_word` false: none), and each set bit
// of row v AND row w there is a triangle v -> w -> u whose term x = b(v -> w) b(v -> u)
// b(w -> u) goes to w and v through arc v -> w's pair, and to u through the pair of
// the closing arc w -> u in `terms` (its target is u). Rows hold exactly the
// out-neighbourhoods, in CSR order: u's position in N+(v) is its bit's rank in row v
// (the set bits of the words before it, `rank`, and of its word below it), and in
// N+(w) likewise (`ranks`). The warp's set bits are dealt out a term a lane, in order
// (lanes walking their own words' bits left two thirds of them idle: R-MAT 22, one
// H200). With `one_arc` every lane's word is of the same arc and each lane adds the
// terms it takes to its (sum, error); otherwise each lane's pair gets its own arc's
// terms, summed by runs of lanes that took them. Crediting u through the closing arc
// rather than v's arc to u: lanes take different arcs v -> w, or different words of
// one, so their closing arcs differ, where many would add to the same v -> u at once
// (R-MAT 22: 79 ms against 102, one H200). A share of a count (CLOSING false)
// credits v's arc to u instead: its `terms` hold its own arcs alone. All lanes of
// the warp must call it together.
template <bool CLOSING>
__device__ __forceinline__ void weighted_words(bool has_word, unsigned q, long long row_first,
                                               long long w_first, WEIGHT b_vw, bool one_arc,
                                               const unsigned* row_v, const unsigned* rank,
                                               unsigned first_word, long long v_first,
                                               const unsigned* __restrict__ bitmap,
                                               const unsigned* __restrict__ ranks,
                                               const WEIGHT* __restrict__ values, WEIGHT* terms,
                                               WEIGHT& sum, WEIGHT& error) {
    unsigned lane = lane_id();
    unsigned both = has_word ? row_v[q - first_word] & __ldg(bitmap + row_first + q) : 0;
    unsigned count = __popc(both), through = warp_inclusive_sum(count);
    unsigned total = __shfl_sync(FULL_MASK, through, 31), before_me = through - count;
    for (unsigned first = 0; first < total; first += 32) {
        unsigned item = first + lane, owner = 0;  // the lanes whose bits all come before item
        for (unsigned step = 16; step > 0; step >>= 1) {
            if (__shfl_sync(FULL_MASK, through, owner + step - 1) <= item) owner += step;
        }
        bool live = item < total;
        unsigned from = live ? owner : lane;
        unsigned word = __shfl_sync(FULL_MASK, q, from);
        unsigned bits = __shfl_sync(FULL_MASK, both, from);
        unsigned skipped = __shfl_sync(FULL_MASK, before_me, from);
        long long row = __shfl_sync(FULL_MASK, row_first, from);
        long long w_arcs = __shfl_sync(FULL_MASK, w_first, from);
        WEIGHT b = __shfl_sync(FULL_MASK, b_vw, from);
        WEIGHT x = 0;
        if (live) {
            unsigned below = (1u << __fns(bits, 0, (int)(item - skipped) + 1)) - 1;
            unsigned bits_w = __ldg(bitmap + row + word);
            long long closing = w_arcs + __ldg(ranks + row + word) + __popc(bits_w & below);
            long long to_u = v_first + rank[word - first_word] + __popc(row_v[word - first_word] & below);
            x = b * values[to_u] * values[closing];
            add_value(terms, CLOSING ? closing : to_u, x);
        }
        if (one_arc) {
            if (live) local_add(sum, error, x);
            continue;
        }
        // Each run of lanes with one owner sums its terms into its first lane, from
        // which the owner takes them.
        WEIGHT run_sum = x, run_error = 0;
        unsigned end;
        lane_run(live ? owner : 32u, end);
        run_reduce_pair(run_sum, run_error, end);
        bool taking = count > 0 && through > first && before_me < first + 32;
        unsigned head = taking ? max(before_me, first) - first : lane;
        WEIGHT took_sum = __shfl_sync(FULL_MASK, run_sum, head);
        WEIGHT took_error = __shfl_sync(FULL_MASK, run_error, head);
        if (taking) merge_pair(sum, error, took_sum, took_error);
    }
}

// hub_count of a weighted per-node count: a block per bitmap row, the hub vertex v's
// row and its ranks in shared memory; a warp per out-neighbour's long row (its lanes
// on consecutive words), and a warp per 32 short rows (a lane each, walking their
// words side by side), weighted_words dealing out their terms. Each arc v -> w's pair
// goes to `terms` (to w, by wedge_arc_terms) and into the thread's pair of v's terms,
// added to out once per warp. `ranks`: each bitmap word's rank in its row
// (wedge_bitmap_ranks).
template <bool CLOSING>
__device__ __forceinline__ void hub_weighted(const long long* indptr, const VID* indices,
                                             const long long* prefix, const long long* hub_prefix,
                                             const unsigned* __restrict__ bitmap,
                                             const unsigned* __restrict__ ranks, VID first_row,
                                             VID first_vertex, unsigned words,
                                             const WEIGHT* __restrict__ values, WEIGHT* terms,
                                             WEIGHT* out) {
    extern __shared__ unsigned hub_row_shared[];
    VID v = first_vertex + (VID)blockIdx.x;
    bool hub = prefix[v + 1] > prefix[v] && hub_prefix[v + 1] == hub_prefix[v];
    if (!hub) return;
    unsigned r = (unsigned)(v - first_row), first_word = r >> 5, own = words - first_word;
    unsigned *row_v = hub_row_shared, *rank = row_v + own;
    long long start = indptr[v], end = indptr[v + 1];
    unsigned first = row_start(r, words);
    for (unsigned q = threadIdx.x; q < own; q += blockDim.x) {
        row_v[q] = bitmap[first + q];
        rank[q] = ranks[first + q];
    }
    __syncthreads();
    unsigned lane = lane_id(), warps = blockDim.x >> 5;
    WEIGHT base_sum = 0, base_error = 0;
    long long long_end = first_short_arc(indices, start, end, first_row, words);
    for (long long a = start + (threadIdx.x >> 5); a < long_end; a += warps) {
        unsigned c = (unsigned)(indices[a] - first_row), w_word = c >> 5;
        long long row_first = (long long)row_start(c, words) - w_word;
        long long w_first = indptr[indices[a]];
        WEIGHT b_vw = values[a], sum = 0, error = 0;
        for (unsigned q = w_word; q < words; q += 32) {  // the same rounds in every lane
            weighted_words<CLOSING>(q + lane < words, q + lane, row_first, w_first, b_vw, true,
                                    row_v, rank, first_word, start, bitmap, ranks, values, terms,
                                    sum, error);
        }
        warp_reduce_pair(sum, error);
        if (lane == 0) {
            add_pair(terms, a, sum, error);
            merge_pair(base_sum, base_error, sum, error);
        }
    }
    // Short rows: warp-wide rounds, a lane's arc a = its warp's first + lane.
    for (long long first_arc = long_end + (threadIdx.x & ~31u); first_arc < end;
         first_arc += blockDim.x) {
        long long a = first_arc + lane;
        bool has_arc = a < end;
        unsigned w_word = words;
        long long row_first = 0, w_first = 0;
        WEIGHT b_vw = 0, sum = 0, error = 0;
        if (has_arc) {
            unsigned c = (unsigned)(indices[a] - first_row);
            w_word = c >> 5;
            row_first = (long long)row_start(c, words) - w_word;
            w_first = indptr[indices[a]];
            b_vw = values[a];
        }
        for (unsigned q = w_word; __any_sync(FULL_MASK, q < words); ++q) {
            weighted_words<CLOSING>(q < words, q, row_first, w_first, b_vw, false, row_v, rank,
                                    first_word, start, bitmap, ranks, values, terms, sum, error);
        }
        if (has_arc) {
            add_pair(terms, a, sum, error);
            merge_pair(base_sum, base_error, sum, error);
        }
    }
    warp_add_pair(out, (long long)v, base_sum, base_error);
}

#define HUB_WEIGHTED_ENTRY(name, CLOSING)                                                   \
    extern "C" __global__ void __launch_bounds__(256)                                        \
        name(const long long* indptr, const VID* indices, const long long* prefix,          \
             const long long* hub_prefix, const unsigned* bitmap, const unsigned* ranks,     \
             VID first_row, VID first_vertex, unsigned words, const WEIGHT* values,         \
             WEIGHT* terms, WEIGHT* out) {                                                   \
        hub_weighted<CLOSING>(indptr, indices, prefix, hub_prefix, bitmap, ranks, first_row,  \
                              first_vertex, words, values, terms, out);                     \
    }

HUB_WEIGHTED_ENTRY(wedge_hub_weighted, true)
HUB_WEIGHTED_ENTRY(wedge_hub_weighted_share, false)

// Per node: every triangle (v; w, u) was counted once on each of its arcs v -> w
// and v -> u (arc_hits, 32-bit: an arc is in fewer than n triangles). Adding each
// arc's count to its source gives twice the triangles at their base v, adding it
// twice to its target twice those at w and u: out holds twice the per-node counts,
// halved by the caller. Sources are sorted (runs of lanes share them: warp_add);
// targets scatter, and under ascending-degree ids most arcs point to the last ids,
// whose global counters then serialise the atomics. So each block keeps the counts
// of the last HUB_VERTICES ids in shared memory while it strides over the arcs and
// adds them once at its end (measured: docs/algorithms.md, 'wedge: per-node launch
// bounds and hub counters').
#define HUB_VERTICES 2048
extern "C" __global__ void __launch_bounds__(256)
    wedge_arc_credit(const VID* indices, const VID* rows, const unsigned* arc_hits,
                     long long m, VID n, u64* out) {
    VID first_hub = n > HUB_VERTICES ? n - HUB_VERTICES : 0;
    __shared__ u64 hubs[HUB_VERTICES];
    for (int h = threadIdx.x; h < HUB_VERTICES; h += blockDim.x) hubs[h] = 0;
    __syncthreads();
    long long stride = (long long)gridDim.x * blockDim.x;
    // Every lane runs the same rounds: warp_add needs the whole warp.
    for (long long round = (long long)blockIdx.x * blockDim.x; round < m; round += stride) {
        long long p = round + threadIdx.x;
        unsigned hits = p < m ? arc_hits[p] : 0;
        warp_add(out, p < m ? rows[p] : 0, hits);
        if (hits) {
            VID target = indices[p];
            if (target >= first_hub) {
                atomicAdd(hubs + (target - first_hub), 2ull * hits);
            } else {
                atomicAdd(out + target, 2ull * hits);
            }
        }
    }
    __syncthreads();
    for (int h = threadIdx.x; h < HUB_VERTICES; h += blockDim.x) {
        if (hubs[h]) atomicAdd(out + first_hub + h, hubs[h]);
    }
}

// Weighted: each arc's pair of terms (phases 2 and 3) to its target's pair, once
// per arc. Arcs with terms point mostly to the last ids: neighbouring lanes sharing
// a target add through the warp's runs.
extern "C" __global__ void __launch_bounds__(256)
    wedge_arc_terms(const VID* indices, const WEIGHT* terms, long long m, WEIGHT* out) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long round = (long long)blockIdx.x * blockDim.x; round < m; round += stride) {
        long long p = round + threadIdx.x;
        WEIGHT sum = 0, error = 0;
        VID target = 0;
        if (p < m) {
            sum = __ldcg(terms + 2 * p);
            error = __ldcg(terms + 2 * p + 1);
            target = indices[p];
        }
        warp_add_pair_runs(out, target, sum, error);
    }
}

// A task graph's rectangle: set bit (w - first_row, u - first_col) for every arc
// w -> u of the last middles (CSR positions first_arc .. end_arc) to a sink u >= first_col.
extern "C" __global__ void wedge_cross_bitmap(const VID* indices, const VID* rows,
                                              long long first_arc, long long end_arc,
                                              long long first_row, long long first_col,
                                              long long words, unsigned* bitmap) {
    long long p = first_arc + global_thread();
    if (p >= end_arc) return;
    long long col = indices[p] - first_col;
    if (col < 0) return;
    long long row = rows[p] - first_row;
    atomicOr(bitmap + row * words + (col >> 5), 1u << (col & 31));
}
