// Bit-wise intersection (bitwise-2d-partition.md §3.3, Algorithm 1): one thread per
// oriented arc e = u -> v counts |N+(u) ∩ N+(v)| slice by slice. A slice is 32
// consecutive ids (slice k holds w with w >> 5 == k); for each slice where u has a
// neighbour, the thread ORs u's run of neighbours in it into a word, advances in the
// sorted N+(v) to the same slice, builds v's word, ANDs them and counts with __popc.
// Each set bit b of the AND word is a third vertex 32 k + b, found at the start of
// slice k's run in each list plus the popcount of that list's word below b.
//
// Divergence: lanes take consecutive arcs, mostly of one source u, so they walk
// the same N+(u) (from their own arc on with ascending = 1) against different
// N+(v); the three inner loops run as many times as the lane's runs are long, and
// a warp takes as long as its busiest lane, as in merge.cu.
//
// With every arc going to a higher id (ascending = 1), every common out-neighbour
// lies after v in N+(u), so u's walk starts at e + 1 instead of the start of N+(u).
#include "common.cu"

#define SLICE_SHIFT 5  // 32 ids per slice: one 32-bit word
#define SLICE_MASK 31

struct BitSlices {
    template <int MODE>
    static __device__ __forceinline__ unsigned count(ARC_INTERSECTION) {
        ArcLists lists = arc_lists(indptr, e, u, v, ascending);
        long long i = lists.i, i_end = lists.i_end, j = lists.j, j_end = lists.j_end;
        unsigned found = 0;
        while (i < i_end && j < j_end) {
            // u's word of the slice of its next neighbour.
            VID a = indices[i];
            VID k = a >> SLICE_SHIFT;
            long long u_start = i;
            unsigned u_word = 0;
            do {
                u_word |= 1u << (a & SLICE_MASK);
                if (++i == i_end) break;
                a = indices[i];
            } while ((a >> SLICE_SHIFT) == k);
            // v's word of the same slice, after skipping its neighbours in earlier slices.
            VID b = indices[j];
            while ((b >> SLICE_SHIFT) < k && ++j < j_end) b = indices[j];
            long long v_start = j;
            unsigned v_word = 0;
            while (j < j_end && (b >> SLICE_SHIFT) == k) {
                v_word |= 1u << (b & SLICE_MASK);
                if (++j < j_end) b = indices[j];
            }
            unsigned common = u_word & v_word;
            found += __popc(common);
            if (MODE != MODE_TOTAL) {
                while (common != 0) {
                    int bit = __ffs(common) - 1;
                    unsigned below = (1u << bit) - 1u;
                    credit_third<MODE>(out, values, e, u_start + __popc(u_word & below),
                                       v_start + __popc(v_word & below), u, v,
                                       (k << SLICE_SHIFT) | bit, arc);
                    common &= common - 1u;
                }
            }
        }
        return found;
    }
};

ARC_ENTRIES(bitmap, BitSlices)
