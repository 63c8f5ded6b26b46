// Edge-parallel binary-search baseline (wetric-wedge-parallel.md §6.2): one thread
// per oriented arc e = u -> v; the shorter of N+(u), N+(v) is searched element by
// element in the longer (search_arc in common.cu).
#include "common.cu"

struct Search {
    template <int MODE>
    static __device__ __forceinline__ unsigned count(const long long* __restrict__ indptr,
                                                     const VID* __restrict__ indices, long long e,
                                                     VID u, VID v, int ascending,
                                                     const WEIGHT* __restrict__ values,
                                                     void* out) {
        return search_arc<MODE>(indptr, indices, e, u, v, ascending, values, out);
    }
};

ARC_ENTRIES(edge, Search)
