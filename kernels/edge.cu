// Edge-parallel binary-search baseline (wetric-wedge-parallel.md §6.2): one thread
// per oriented arc e = u -> v; the shorter of N+(u), N+(v) is searched element by
// element in the longer (search_arc in common.cu).
#include "common.cu"

struct Search {
    template <int MODE>
    static __device__ __forceinline__ unsigned count(ARC_INTERSECTION) {
        return search_arc<MODE>(indptr, indices, e, u, v, ascending, values, out, arc);
    }
};

ARC_ENTRIES(edge, Search)
