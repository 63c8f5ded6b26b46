// Transitive triples of a directed graph, NetworkX's numerator of its directed
// transitivity, counted on the oriented graph of its arc pairs: one thread per
// oriented arc e = u -> v merges N+(u) and N+(v) as merge.cu does. Each arc's
// state (one byte) says which directions its pair has in the directed graph: bit
// 0 u -> v, bit 1 v -> u. A triangle u -> v, u -> a, v -> a holds one transitive triple
// for each way of choosing one present direction per pair that is not a cycle.
#include "common.cu"

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

extern "C" __global__ void transitive_total(const long long* indptr, const VID* indices,
                                            const VID* rows, long long m, int ascending,
                                            const unsigned char* states, u64* total) {
    long long e = global_thread();
    u64 found = 0;
    if (e < m) {
        VID u = rows[e];
        VID v = indices[e];
        ArcLists lists = arc_lists(indptr, e, u, v, ascending);
        unsigned uv = states[e];
        merge_common(indices, lists.i, lists.i_end, lists.j, lists.j_end,
                     [&](long long i, long long j, VID) {
                         found += transitive_triples(uv, states[i], states[j]);
                     });
    }
    block_add(total, found);
}
