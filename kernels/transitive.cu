// Transitive triples of a directed graph, NetworkX's numerator of its directed
// transitivity, counted on the oriented graph of its arc pairs: one thread per
// oriented arc e = u -> v merges N+(u) and N+(v) as merge.cu does. Each arc's
// state (one byte) says which directions its pair has in the directed graph: bit
// 0 u -> v, bit 1 v -> u. A triangle u -> v, u -> a, v -> a holds one transitive triple
// for each way of choosing one present direction per pair that is not a cycle.
#include "common.cu"

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
