// Listing triangles (nx_tricount/algorithms/listing.py): one thread per arc
// e = u -> v of the range lo .. hi - 1 merges N+(u) and N+(v) (as kernels/merge.cu
// counts) and writes each triangle (u, v, w) to its slots, from offsets[e - lo]
// on, in the three rows of `out` (row length `slots`).
#include "common.cu"

extern "C" __global__ void list_arcs(const long long* __restrict__ indptr,
                                     const VID* __restrict__ indices,
                                     const VID* __restrict__ rows, long long lo, long long hi,
                                     const long long* __restrict__ offsets, long long slots,
                                     int ascending, VID* out) {
    const long long e = lo + global_thread();
    if (e >= hi) return;
    const VID u = rows[e], v = indices[e];
    ArcLists lists = arc_lists(indptr, e, u, v, ascending);
    long long i = lists.i, j = lists.j;
    long long slot = offsets[e - lo];
    while (i < lists.i_end && j < lists.j_end) {
        const VID a = indices[i], b = indices[j];
        if (a < b) {
            ++i;
        } else if (a > b) {
            ++j;
        } else {
            out[slot] = u;
            out[slots + slot] = v;
            out[2 * slots + slot] = a;
            ++slot;
            ++i;
            ++j;
        }
    }
}
