// Helpers shared by the counting kernels; each kernel file includes this one.
//
// Compile-time types (nx_tricount/algorithms/gpu.py sets them per graph):
//   VID    vertex id of the CSR's indices/rows: int, or long long when n >= 2^31
//   WEIGHT arc value for weighted per-node sums: double or long long
//
// Every counting kernel exists in four modes, one extern "C" entry each:
//   total     one 64-bit counter, reduced per block before a single atomic
//   per_node  triangles at each vertex (unsigned long long atomics)
//   per_edge  triangles on each arc, in CSR order
//   weighted  per-vertex sums of the product of a triangle's three arc values,
//             as compensated (sum, error) pairs (add_value)
#ifndef NX_TRICOUNT_COMMON_CU
#define NX_TRICOUNT_COMMON_CU

#ifndef VID
#define VID int
#endif
#ifndef WEIGHT
#define WEIGHT double
#endif

typedef unsigned long long u64;

#define MODE_TOTAL 0
#define MODE_PER_NODE 1
#define MODE_PER_EDGE 2
#define MODE_WEIGHTED 3

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ long long global_thread() {
    return (long long)blockIdx.x * blockDim.x + threadIdx.x;
}

// Directed transitivity (kernels/transitive.cu, the wedge count's transitive
// entry): each arc of the undirected pairs carries one byte, the directions its
// pair has in the directed graph: bit 0 along the oriented arc, bit 1 against it.
__device__ __forceinline__ unsigned directions(unsigned state) {
    return (state & 1) + (state >> 1);
}

// Transitive triples on the triangle of pairs uv, ua, va: every choice of one
// present direction per pair, less the two cycles u->v->a->u and u->a->v->u.
__device__ __forceinline__ unsigned transitive_triples(unsigned uv, unsigned ua, unsigned va) {
    unsigned choices = directions(uv) * directions(ua) * directions(va);
    unsigned cycles = (uv & va & (ua >> 1) & 1) + ((uv >> 1) & (va >> 1) & ua & 1);
    return choices - cycles;
}

// Position of x in the sorted a[lo:hi), or -1: a branch-free binary search with a
// 32-bit length (a neighbour list is shorter than 2^31), so lanes that search the
// same list stay in step. Positions are of type Pos: with a 32-bit unsigned Pos
// (fewer than 2^32 arcs) each step's address is one wide multiply-add.
template <typename Pos>
__device__ __forceinline__ long long find(const VID* __restrict__ a, Pos lo, Pos hi, VID x) {
    unsigned len = (unsigned)(hi - lo);
    if (len == 0) return -1;
    Pos pos = lo;  // a[pos] <= x < a[pos + len], if x is in the list
    while (len > 1) {
        unsigned half = len >> 1;
        pos = a[pos + half] <= x ? pos + half : pos;
        len -= half;
    }
    return a[pos] == x ? (long long)pos : -1;
}

// The sum of every thread's value, in thread 0 (the others get partial sums): warp
// shuffles, then the warps' sums. All threads of the block must call it.
__device__ u64 block_sum(u64 value) {
    __shared__ u64 warp_sums[32];
    for (int offset = 16; offset > 0; offset >>= 1) {
        value += __shfl_down_sync(FULL_MASK, value, offset);
    }
    unsigned warp = threadIdx.x >> 5;
    if (lane_id() == 0) warp_sums[warp] = value;
    __syncthreads();
    value = 0;
    if (warp == 0) {
        unsigned warps = (blockDim.x + 31) >> 5;
        value = lane_id() < warps ? warp_sums[lane_id()] : 0;
        for (int offset = 16; offset > 0; offset >>= 1) {
            value += __shfl_down_sync(FULL_MASK, value, offset);
        }
    }
    return value;
}

// The inclusive prefix sum of value over the warp's lanes (lane i gets the sum of
// lanes 0..i). All 32 lanes must call it.
template <typename T>
__device__ __forceinline__ T warp_inclusive_sum(T value) {
    for (int offset = 1; offset < 32; offset <<= 1) {
        T below = __shfl_up_sync(FULL_MASK, value, offset);
        if ((int)lane_id() >= offset) value += below;
    }
    return value;
}

// The inclusive prefix sum of value over the block's threads in thread order: within
// the warps, then over the warps' totals, kept in warp_totals (shared memory, one per
// warp). All threads of the block must call it; blockDim.x is a multiple of 32.
__device__ __forceinline__ long long block_inclusive_sum(long long value,
                                                         long long* warp_totals) {
    unsigned lane = lane_id(), warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    value = warp_inclusive_sum(value);
    if (lane == 31) warp_totals[warp] = value;
    __syncthreads();
    if (warp == 0) {
        long long sum = warp_inclusive_sum(lane < warps ? warp_totals[lane] : 0ll);
        if (lane < warps) warp_totals[lane] = sum;
    }
    __syncthreads();
    return warp > 0 ? value + warp_totals[warp - 1] : value;
}

// Walk the sorted a[i:i_end) and a[j:j_end) together (a two-pointer merge) and call
// on_common(i, j, x) at each value x the two share; returns how many they share (the
// merge, transitive and inline merge kernels).
template <typename T, typename Pos, typename OnCommon>
__device__ __forceinline__ unsigned merge_common(const T* __restrict__ a, Pos i, Pos i_end,
                                                 Pos j, Pos j_end, OnCommon on_common) {
    unsigned found = 0;
    if (i < i_end && j < j_end) {
        T x = a[i];
        T y = a[j];
        while (true) {
            if (x < y) {
                if (++i == i_end) break;
                x = a[i];
            } else if (x > y) {
                if (++j == j_end) break;
                y = a[j];
            } else {
                on_common(i, j, x);
                ++found;
                if (++i == i_end || ++j == j_end) break;
                x = a[i];
                y = a[j];
            }
        }
    }
    return found;
}

// Add every thread's value into *total, with one atomic per block. All threads of
// the block must call it.
__device__ void block_add(u64* total, u64 value) {
    value = block_sum(value);
    if (threadIdx.x == 0 && value != 0) atomicAdd(total, value);
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

// Chunked scans in two launches of one grid (stable compactions, row pointers):
// block b owns the items [b * chunk, min(n, (b + 1) * chunk)). The first launch
// writes each block's sum of count(i) to totals[b] (chunk_total); the second scans
// each chunk after the totals of the blocks before it (scan_chunk). count(i) is a
// non-negative long long; all threads of the block must call both.
template <typename Count>
__device__ void chunk_total(long long n, long long chunk, long long* totals, Count count) {
    long long begin = min(n, (long long)blockIdx.x * chunk), end = min(n, begin + chunk);
    u64 sum = 0;
    for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) sum += (u64)count(i);
    sum = block_sum(sum);
    if (threadIdx.x == 0) totals[blockIdx.x] = (long long)sum;
}

// visit(i, before, c) for every item i of the block's chunk, c = count(i) and
// before = the sum of count over the items before i in the whole grid's order.
template <typename Count, typename Visit>
__device__ void scan_chunk(long long n, long long chunk, const long long* __restrict__ totals,
                           Count count, Visit visit) {
    __shared__ long long warp_totals[32];
    __shared__ long long offset;
    u64 earlier = 0;
    for (unsigned b = threadIdx.x; b < blockIdx.x; b += blockDim.x) earlier += (u64)totals[b];
    earlier = block_sum(earlier);
    if (threadIdx.x == 0) offset = (long long)earlier;
    __syncthreads();
    long long running = offset;
    long long begin = min(n, (long long)blockIdx.x * chunk), end = min(n, begin + chunk);
    for (long long base = begin; base < end; base += blockDim.x) {
        long long i = base + threadIdx.x;
        long long c = i < end ? count(i) : 0;
        long long inclusive = block_inclusive_sum(c, warp_totals);
        if (i < end) visit(i, running + inclusive - c, c);
        running += warp_totals[(blockDim.x >> 5) - 1];  // the tile's sum
        __syncthreads();  // before the next tile overwrites warp_totals
    }
}

// The run of neighbouring lanes holding the same idx that this lane belongs to
// (lanes take consecutive wedges or arcs, so they mostly credit the same base
// vertex, middle vertex or source): whether this lane heads its run, and the lane
// its run ends before. All lanes of the warp must call it together; Index is any
// integer type (narrower ones shuffle in one step).
template <typename Index>
__device__ __forceinline__ bool lane_run(Index idx, unsigned& end) {
    unsigned lane = lane_id();
    Index before = __shfl_up_sync(FULL_MASK, idx, 1);
    bool head = lane == 0 || before != idx;
    unsigned heads = __ballot_sync(FULL_MASK, head);
    unsigned later = heads & ~((2u << lane) - 1u);  // run heads after this lane
    end = later ? __ffs(later) - 1 : 32;
    return head;
}

// out[idx] += count for every lane of the warp, with one atomic per run of
// neighbouring lanes that hold the same idx (lane_run): the run's first lane adds
// the run's sum, found by a segmented shuffle reduction. All lanes of the warp must
// call it together; lanes with count == 0 add nothing. Counter is u64 or unsigned.
template <typename Counter, typename Index>
__device__ __forceinline__ void warp_add(Counter* out, Index idx, unsigned count) {
    if (__ballot_sync(FULL_MASK, count != 0) == 0) return;
    unsigned lane = lane_id(), end;
    bool head = lane_run(idx, end);
    for (unsigned offset = 1; offset < 32; offset <<= 1) {
        unsigned next = __shfl_down_sync(FULL_MASK, count, offset);
        if (lane + offset < end) count += next;
    }
    if (head && count != 0) atomicAdd(out + idx, (Counter)count);
}

// Weighted sums are (sum, compensation) pairs: out[2 idx] and out[2 idx + 1].
// atomicAdd returns the sum it added x to and stores that sum plus x rounded once
// (IEEE round to nearest), so the thread recomputes the same rounding and gets its
// exact error (Knuth's TwoSum), which the compensation collects: the pair's sum is
// within one rounding of the exact sum, plus a second-order term, whatever the
// number of terms or their order (docs/algorithms.md, "What is exact").
__device__ __forceinline__ void add_value(double* out, long long idx, double x) {
    double before = atomicAdd(out + 2 * idx, x);
    double sum = __dadd_rn(before, x);
    double x_part = __dsub_rn(sum, before);
    double error = __dadd_rn(__dsub_rn(before, __dsub_rn(sum, x_part)), __dsub_rn(x, x_part));
    // An infinite sum has no finite error: it would make the compensation NaN.
    if (error != 0.0 && isfinite(sum)) atomicAdd(out + 2 * idx + 1, error);
}

__device__ __forceinline__ void add_value(long long* out, long long idx, long long x) {
    atomicAdd((u64*)(out + 2 * idx), (u64)x);  // two's complement: exact; no compensation
}

// A thread's own (sum, error) pair of terms bound for one vertex, added to the
// output once instead of term by term: TwoSum as in add_value, exact for integers.
__device__ __forceinline__ void local_add(double& sum, double& error, double x) {
    double total = __dadd_rn(sum, x);
    double x_part = __dsub_rn(total, sum);
    double rounding = __dadd_rn(__dsub_rn(sum, __dsub_rn(total, x_part)), __dsub_rn(x, x_part));
    if (isfinite(total)) error = __dadd_rn(error, rounding);
    sum = total;
}

__device__ __forceinline__ void local_add(long long& sum, long long& error, long long x) {
    sum += x;
}

__device__ __forceinline__ void add_error(double* out, long long idx, double error) {
    if (error != 0.0 && isfinite(error)) atomicAdd(out + 2 * idx + 1, error);
}

__device__ __forceinline__ void add_error(long long* out, long long idx, long long error) {}

// Add a thread's (sum, error) pair into vertex idx's pair: one add_value (none for a
// zero sum) and one compensation atomic.
template <typename Value>
__device__ __forceinline__ void add_pair(Value* out, long long idx, Value sum, Value error) {
    if (sum != 0) add_value(out, idx, sum);
    add_error(out, idx, error);
}

// Merge the pair (other_sum, other_error) into (sum, error).
template <typename Value>
__device__ __forceinline__ void merge_pair(Value& sum, Value& error, Value other_sum,
                                           Value other_error) {
    local_add(sum, error, other_sum);
    error += other_error;
}

// The pairs of every lane of the warp merged into lane 0's (a shuffle reduction).
template <typename Value>
__device__ __forceinline__ void warp_reduce_pair(Value& sum, Value& error) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        Value other_sum = __shfl_down_sync(FULL_MASK, sum, offset);
        Value other_error = __shfl_down_sync(FULL_MASK, error, offset);
        merge_pair(sum, error, other_sum, other_error);
    }
}

// The pairs of the lanes from this one up to `end` (exclusive) merged into this
// lane's: a segmented shuffle reduction, after which each run's first lane (lane_run)
// holds the run's pair. All lanes of the warp must call it together.
template <typename Value>
__device__ __forceinline__ void run_reduce_pair(Value& sum, Value& error, unsigned end) {
    unsigned lane = lane_id();
    for (unsigned offset = 1; offset < 32; offset <<= 1) {
        Value other_sum = __shfl_down_sync(FULL_MASK, sum, offset);
        Value other_error = __shfl_down_sync(FULL_MASK, error, offset);
        if (lane + offset < end) merge_pair(sum, error, other_sum, other_error);
    }
}

// Add the pairs of every lane of the warp into vertex idx's pair: warp_reduce_pair,
// then one add_pair.
template <typename Value>
__device__ __forceinline__ void warp_add_pair(Value* out, long long idx, Value sum, Value error) {
    warp_reduce_pair(sum, error);
    if (lane_id() == 0) add_pair(out, idx, sum, error);
}

// Each triangle of a weighted count adds the same term, the product of its three arc
// values, to its three vertices. An arc e = u -> v finds its triangles one by one, so
// its thread sums their terms in its own pair and credits u and v once per arc
// (finish_arc): per triangle only the third vertex takes atomics.
struct ArcSum {
    WEIGHT sum = 0, error = 0;
};

// Add the pairs of every run of neighbouring lanes that hold the same idx
// (lane_run) into idx's pair, one add_pair per run, as
// warp_add does for counts. All lanes of the warp must call it together.
template <typename Value, typename Index>
__device__ __forceinline__ void warp_add_pair_runs(Value* out, Index idx, Value sum,
                                                   Value error) {
    if (__ballot_sync(FULL_MASK, sum != 0 || error != 0) == 0) return;
    unsigned end;
    bool head = lane_run(idx, end);
    run_reduce_pair(sum, error, end);
    if (head) add_pair(out, idx, sum, error);
}

// Credit one triangle found on arc e = u -> v with third vertex a, where
// indices[i] = a in N+(u) and indices[j] = a in N+(v) (the merge, edge, bitmap and
// vertex kernels). The caller credits u and v (or e) once per arc with its count,
// weighted with the arc's pair `arc`, to which the term is added here.
template <int MODE>
__device__ __forceinline__ void credit_third(void* out, const WEIGHT* __restrict__ values,
                                             long long e, long long i, long long j, VID u, VID v,
                                             VID a, ArcSum& arc) {
    if (MODE == MODE_PER_NODE) {
        atomicAdd((u64*)out + a, 1ull);
    } else if (MODE == MODE_PER_EDGE) {
        atomicAdd((u64*)out + i, 1ull);
        atomicAdd((u64*)out + j, 1ull);
    } else if (MODE == MODE_WEIGHTED) {
        WEIGHT x = values[e] * values[i] * values[j];
        add_value((WEIGHT*)out, a, x);
        local_add(arc.sum, arc.error, x);
    }
}

// Credit the `found` triangles of arc e = u -> v to u and v (per node; weighted, the
// arc's pair `arc`) or to e (per edge), or add them to the total. Every thread of the
// block must call it.
template <int MODE>
__device__ __forceinline__ void finish_arc(void* out, long long e, VID u, VID v, unsigned found,
                                           const ArcSum& arc) {
    if (MODE == MODE_TOTAL) {
        block_add((u64*)out, found);
    } else if (MODE == MODE_PER_NODE) {
        warp_add((u64*)out, u, found);
        warp_add((u64*)out, v, found);
    } else if (MODE == MODE_PER_EDGE) {
        warp_add((u64*)out, e, found);
    } else if (MODE == MODE_WEIGHTED) {
        warp_add_pair_runs((WEIGHT*)out, u, arc.sum, arc.error);  // lanes mostly share u
        add_pair((WEIGHT*)out, v, arc.sum, arc.error);
    }
}

// First position in the sorted a[lo:hi) whose value is >= x (hi if none), on
// 32-bit offsets as in find.
__device__ __forceinline__ long long lower_bound(const VID* __restrict__ a, long long lo,
                                                 long long hi, VID x) {
    const VID* list = a + lo;
    int left = 0, right = (int)(hi - lo);
    while (left < right) {
        int mid = (left + right) >> 1;
        if (list[mid] < x) {
            left = mid + 1;
        } else {
            right = mid;
        }
    }
    return lo + left;
}

// The ranges [i, i_end) of N+(u) and [j, j_end) of N+(v) that the intersection of
// arc e = u -> v walks. With every arc going to a higher id (ascending), every common
// out-neighbour lies after v in N+(u), so u's range starts after e.
struct ArcLists {
    long long i, i_end, j, j_end;
};

__device__ __forceinline__ ArcLists arc_lists(const long long* __restrict__ indptr, long long e,
                                              VID u, VID v, int ascending) {
    return ArcLists{ascending ? e + 1 : indptr[u], indptr[u + 1], indptr[v], indptr[v + 1]};
}

// |N+(u) ∩ N+(v)| for arc e = u -> v by binary search (the edge and vertex kernels):
// each element of the shorter list is searched in the longer one, whose lower
// bound then moves past it (both lists are sorted). Credits each triangle's third
// vertex as credit_third does (weighted, its term also to `arc`) and returns the count.
template <int MODE>
__device__ __forceinline__ unsigned search_arc(const long long* __restrict__ indptr,
                                               const VID* __restrict__ indices, long long e,
                                               VID u, VID v, int ascending,
                                               const WEIGHT* __restrict__ values, void* out,
                                               ArcSum& arc) {
    ArcLists lists = arc_lists(indptr, e, u, v, ascending);
    long long i = lists.i, i_end = lists.i_end, j = lists.j, j_end = lists.j_end;
    unsigned found = 0;
    if (i_end - i <= j_end - j) {
        for (; i < i_end && j < j_end; ++i) {
            VID a = indices[i];
            j = lower_bound(indices, j, j_end, a);
            if (j < j_end && indices[j] == a) {
                credit_third<MODE>(out, values, e, i, j, u, v, a, arc);
                ++found;
                ++j;
            }
        }
    } else {
        for (; j < j_end && i < i_end; ++j) {
            VID a = indices[j];
            i = lower_bound(indices, i, i_end, a);
            if (i < i_end && indices[i] == a) {
                credit_third<MODE>(out, values, e, i, j, u, v, a, arc);
                ++found;
                ++i;
            }
        }
    }
    return found;
}

// The parameters of an arc intersection, Intersect::count<MODE>(ARC_INTERSECTION):
// arc e = u -> v of the CSR, whether every arc goes to a higher id, and the values,
// output and arc pair that credit_third takes.
#define ARC_INTERSECTION                                                                   \
    const long long* __restrict__ indptr, const VID* __restrict__ indices, long long e,   \
        VID u, VID v, int ascending, const WEIGHT* __restrict__ values, void* out,        \
        ArcSum& arc

// One thread per oriented arc e = u -> v (the merge, edge and bitmap kernels), for
// the arcs first <= e < end (all of them, or those of a share's base vertices:
// nx_tricount/algorithms/shares.py): Intersect::count<MODE>(indptr, indices, e, u,
// v, ascending, values, out, arc) returns |N+(u) ∩ N+(v)|, crediting each third
// vertex as credit_third does, and the thread credits the arc's count (weighted, its
// pair) with finish_arc.
template <int MODE, typename Intersect>
__device__ __forceinline__ void count_arc(const long long* __restrict__ indptr,
                                          const VID* __restrict__ indices,
                                          const VID* __restrict__ rows, long long first,
                                          long long end, int ascending,
                                          const WEIGHT* __restrict__ values, void* out) {
    long long e = first + global_thread();
    unsigned found = 0;
    VID u = 0, v = 0;
    ArcSum arc;
    if (e < end) {
        u = rows[e];
        v = indices[e];
        found = Intersect::template count<MODE>(indptr, indices, e, u, v, ascending, values, out,
                                                arc);
    }
    finish_arc<MODE>(out, e < end ? e : 0, u, v, found, arc);
}

#define ARC_ENTRY(name, MODE, Intersect)                                                     \
    extern "C" __global__ void name(const long long* indptr, const VID* indices,            \
                                    const VID* rows, long long first, long long end,        \
                                    int ascending, const WEIGHT* values, void* out) {       \
        count_arc<MODE, Intersect>(indptr, indices, rows, first, end, ascending, values,    \
                                   out);                                                     \
    }

// The four entry points <prefix>_total, _per_node, _per_edge and _weighted of a
// one-thread-per-arc kernel.
#define ARC_ENTRIES(prefix, Intersect)                                                       \
    ARC_ENTRY(prefix##_total, MODE_TOTAL, Intersect)                                         \
    ARC_ENTRY(prefix##_per_node, MODE_PER_NODE, Intersect)                                   \
    ARC_ENTRY(prefix##_per_edge, MODE_PER_EDGE, Intersect)                                   \
    ARC_ENTRY(prefix##_weighted, MODE_WEIGHTED, Intersect)

#endif  // NX_TRICOUNT_COMMON_CU
