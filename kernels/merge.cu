// Polak's forward algorithm (polak-forward.md §II-C): one thread per oriented arc
// e = u -> v counts |N+(u) ∩ N+(v)| by a two-pointer merge of the two sorted lists.
//
// With orientation "id" every common out-neighbour lies after v in N+(u), so the
// merge starts at e + 1 instead of the start of N+(u) (id_oriented = 1).
#include "common.cu"

template <int MODE>
__device__ __forceinline__ void merge_arc(const long long* __restrict__ indptr,
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
        long long i = id_oriented ? e + 1 : indptr[u];
        long long i_end = indptr[u + 1];
        long long j = indptr[v];
        long long j_end = indptr[v + 1];
        if (i < i_end && j < j_end) {
            VID a = indices[i];
            VID b = indices[j];
            while (true) {
                if (a < b) {
                    if (++i == i_end) break;
                    a = indices[i];
                } else if (a > b) {
                    if (++j == j_end) break;
                    b = indices[j];
                } else {
                    credit_third<MODE>(out, values, e, i, j, u, v, a);
                    ++found;
                    if (++i == i_end || ++j == j_end) break;
                    a = indices[i];
                    b = indices[j];
                }
            }
        }
    }
    finish_arc<MODE>(out, e < m ? e : 0, u, v, found);
}

#define MERGE_ENTRY(name, MODE)                                                              \
    extern "C" __global__ void name(const long long* indptr, const VID* indices,            \
                                    const VID* rows, long long m, int id_oriented,          \
                                    const WEIGHT* values, void* out) {                      \
        merge_arc<MODE>(indptr, indices, rows, m, id_oriented, values, out);                \
    }

MERGE_ENTRY(merge_total, MODE_TOTAL)
MERGE_ENTRY(merge_per_node, MODE_PER_NODE)
MERGE_ENTRY(merge_per_edge, MODE_PER_EDGE)
MERGE_ENTRY(merge_weighted, MODE_WEIGHTED)
