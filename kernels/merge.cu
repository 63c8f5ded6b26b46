// Polak's forward algorithm (polak-forward.md §II-C): one thread per oriented arc
// e = u -> v counts |N+(u) ∩ N+(v)| by a two-pointer merge of the two sorted lists.
//
// With every arc going to a higher id (ascending = 1) every common out-neighbour
// lies after v in N+(u), so the merge starts at e + 1 instead of the start of N+(u).
#include "common.cu"

struct Merge {
    template <int MODE>
    static __device__ __forceinline__ unsigned count(ARC_INTERSECTION) {
        ArcLists lists = arc_lists(indptr, e, u, v, ascending);
        return merge_common(indices, lists.i, lists.i_end, lists.j, lists.j_end,
                            [&](long long i, long long j, VID a) {
                                credit_third<MODE>(out, values, e, i, j, u, v, a, arc);
                            });
    }
};

ARC_ENTRIES(merge, Merge)
