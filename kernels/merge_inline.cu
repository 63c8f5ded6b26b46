// Polak's forward algorithm (polak-forward.md §II-C) over an inline CSR, for the
// total: merge.cu's count with each vertex's out-neighbours stored right after
// their number, and each out-neighbour named by where its own list starts.
//
// The layout (n + m ints): vertex v's head is h(v) = indptr[v] + v; layout[h(v)]
// holds d+(v) and layout[h(v) + 1 + k] the head of v's k-th out-neighbour. Heads
// grow with the ids, so the lists stay sorted and merging heads finds the common
// out-neighbours. Arc e = u -> v sits at h(u) + 1 + (e - indptr[u]) = e + u + 1.
// Its thread reads v's length and list from one place: where merge.cu reads
// indptr[v] and then N+(v), each mostly a DRAM access on a graph larger than L2,
// this reads one (docs/algorithms.md, "merge: the inline layout").
// The total is a grid-stride loop, each thread adding its arcs' triangles up
// before one block sum: with a grid of a few waves of resident blocks, graphs of
// short, even merges (low out-degrees) save a block and a barrier per 256 arcs;
// others get one thread per arc (nx_tricount/algorithms/merge.py says which).
#include "common.cu"

// The layout of the CSR (indptr, indices, rows), one thread per arc and vertex.
extern "C" __global__ void merge_inline_layout(const long long* __restrict__ indptr,
                                               const VID* __restrict__ indices,
                                               const VID* __restrict__ rows, long long n,
                                               long long m, int* __restrict__ layout) {
    long long i = global_thread();
    if (i < m) {
        VID v = indices[i];
        layout[i + rows[i] + 1] = (int)(indptr[v] + v);
    }
    if (i < n) layout[indptr[i] + i] = (int)(indptr[i + 1] - indptr[i]);
}

// The total: a thread takes arcs e, e + stride, ... of first_arc <= e < end_arc (all, or
// a share's: nx_tricount/algorithms/shares.py). With every arc going to a
// higher id (ascending = 1), the common out-neighbours lie after v in N+(u), and
// u's last arc has none: its target's list is not read.
extern "C" __global__ void merge_inline_total(const int* __restrict__ layout,
                                              const long long* __restrict__ indptr,
                                              const VID* __restrict__ rows, long long first_arc,
                                              long long end_arc, int ascending,
                                              const WEIGHT* values, void* out) {
    u64 found = 0;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = first_arc + global_thread(); e < end_arc; e += stride) {
        VID u = rows[e];
        int head = (int)(indptr[u] + u);
        int end = head + 1 + layout[head];
        int arc = (int)(e + u + 1);
        int i = ascending ? arc + 1 : head + 1;
        if (i == end) continue;
        int target = layout[arc];
        found += merge_common(layout, i, end, target + 1, target + 1 + layout[target],
                              [](int, int, int) {});
    }
    block_add((u64*)out, found);
}
