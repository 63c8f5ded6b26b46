// Vertex-parallel binary-search baseline (wetric-wedge-parallel.md §6.2): one
// thread per vertex u (first <= u < end: all, or a share's base vertices) walks its
// out-arcs e = u -> v and intersects each by binary search (search_arc in common.cu).
#include "common.cu"

template <int MODE>
__device__ __forceinline__ void vertex_arcs(const long long* __restrict__ indptr,
                                            const VID* __restrict__ indices,
                                            long long first, long long end, int id_oriented,
                                            const WEIGHT* __restrict__ values, void* out) {
    long long u = first + global_thread();
    u64 at_u = 0;
    ArcSum u_sum;  // weighted: the terms of u's arcs, credited to u once
    if (u < end) {
        for (long long e = indptr[u]; e < indptr[u + 1]; ++e) {
            VID v = indices[e];
            ArcSum arc;
            unsigned found = search_arc<MODE>(indptr, indices, e, (VID)u, v, id_oriented,
                                              values, out, arc);
            if (found == 0) continue;
            at_u += found;
            // Other threads credit v and e too (as a third vertex or closing arc).
            if (MODE == MODE_PER_NODE) atomicAdd((u64*)out + v, (u64)found);
            if (MODE == MODE_PER_EDGE) atomicAdd((u64*)out + e, (u64)found);
            if (MODE == MODE_WEIGHTED) {
                add_pair((WEIGHT*)out, v, arc.sum, arc.error);
                merge_pair(u_sum.sum, u_sum.error, arc.sum, arc.error);
            }
        }
    }
    if (MODE == MODE_TOTAL) block_add((u64*)out, at_u);
    if (MODE == MODE_PER_NODE && at_u != 0) atomicAdd((u64*)out + u, at_u);
    if (MODE == MODE_WEIGHTED && u < end) add_pair((WEIGHT*)out, u, u_sum.sum, u_sum.error);
}

#define VERTEX_ENTRY(name, MODE)                                                             \
    extern "C" __global__ void name(const long long* indptr, const VID* indices,            \
                                    long long first, long long end, int id_oriented,        \
                                    const WEIGHT* values, void* out) {                      \
        vertex_arcs<MODE>(indptr, indices, first, end, id_oriented, values, out);           \
    }

VERTEX_ENTRY(vertex_total, MODE_TOTAL)
VERTEX_ENTRY(vertex_per_node, MODE_PER_NODE)
VERTEX_ENTRY(vertex_per_edge, MODE_PER_EDGE)
VERTEX_ENTRY(vertex_weighted, MODE_WEIGHTED)
