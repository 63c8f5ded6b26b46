// Edge-parallel binary-search baseline (wetric-wedge-parallel.md §6.2): one thread
// per oriented arc e = u -> v; the shorter of N+(u), N+(v) is searched element by
// element in the longer (search_arc in common.cu).
#include "common.cu"

template <int MODE>
__device__ __forceinline__ void edge_arc(const long long* __restrict__ indptr,
                                         const VID* __restrict__ indices,
                                         const VID* __restrict__ rows, long long m,
                                         int id_oriented, const WEIGHT* __restrict__ values,
                                         void* out) {
    long long e = global_thread();
    unsigned found = 0;
    VID u = 0, v = 0;
    if (e < m) {
        u = rows[e];
        v = indices[e];
        found = search_arc<MODE>(indptr, indices, e, u, v, id_oriented, values, out);
    }
    finish_arc<MODE>(out, e < m ? e : 0, u, v, found);
}

#define EDGE_ENTRY(name, MODE)                                                               \
    extern "C" __global__ void name(const long long* indptr, const VID* indices,            \
                                    const VID* rows, long long m, int id_oriented,          \
                                    const WEIGHT* values, void* out) {                      \
        edge_arc<MODE>(indptr, indices, rows, m, id_oriented, values, out);                 \
    }

EDGE_ENTRY(edge_total, MODE_TOTAL)
EDGE_ENTRY(edge_per_node, MODE_PER_NODE)
EDGE_ENTRY(edge_per_edge, MODE_PER_EDGE)
EDGE_ENTRY(edge_weighted, MODE_WEIGHTED)
