// One round of the k-truss's peeling on the GPU (nx_tricount/algorithms/truss.py):
// one warp per frontier arc e = u -> v. Its lanes take the entries of the shorter
// of u's and v's whole neighbour lists (sym_*, sorted, with the arc to each
// neighbour) and search each in the longer: a common neighbour w closes the
// triangle (e, e1, e2) with the arcs e1 and e2 to w.
//
// A triangle with a removed arc was taken off the supports when that arc went.
// Otherwise each of its arcs outside the frontier loses one triangle, once: only
// the frontier arc of smallest position among the triangle's acts. An arc whose
// support falls from `threshold` to below it (one thread sees that) joins the
// next frontier.
#include "common.cu"

#define ALIVE 0
#define FRONTIER 1
#define REMOVED 2

__device__ __forceinline__ void lose_triangle(long long x, long long* support,
                                              long long threshold, long long* next,
                                              u64* next_size) {
    long long before = (long long)atomicAdd((u64*)(support + x), ~0ull);  // -1
    if (before == threshold) next[atomicAdd(next_size, 1ull)] = x;
}

extern "C" __global__ void truss_round(const long long* __restrict__ sym_ptr,
                                       const VID* __restrict__ sym_nbr,
                                       const long long* __restrict__ sym_arc,
                                       const VID* __restrict__ rows,
                                       const VID* __restrict__ cols,
                                       const long long* __restrict__ frontier,
                                       long long frontier_size,
                                       const unsigned char* __restrict__ state,
                                       long long* support, long long threshold, long long* next,
                                       u64* next_size) {
    const long long k = global_thread() >> 5;
    if (k >= frontier_size) return;
    const long long e = frontier[k];
    const VID u = rows[e], v = cols[e];
    long long a = sym_ptr[u], a_end = sym_ptr[u + 1];
    long long b = sym_ptr[v], b_end = sym_ptr[v + 1];
    if (a_end - a > b_end - b) {  // walk the shorter list
        long long t = a, t_end = a_end;
        a = b;
        a_end = b_end;
        b = t;
        b_end = t_end;
    }
    for (long long i = a + lane_id(); i < a_end; i += 32) {
        const long long j = find<long long>(sym_nbr, b, b_end, sym_nbr[i]);
        if (j < 0) continue;
        const long long e1 = sym_arc[i], e2 = sym_arc[j];
        const unsigned char s1 = state[e1], s2 = state[e2];
        if (s1 == REMOVED || s2 == REMOVED) continue;
        if ((s1 == FRONTIER && e1 < e) || (s2 == FRONTIER && e2 < e)) continue;
        if (s1 == ALIVE) lose_triangle(e1, support, threshold, next, next_size);
        if (s2 == ALIVE) lose_triangle(e2, support, threshold, next, next_size);
    }
}
