// What a total count of a prepared graph asks of wedge and of merge
// (nx_tricount/algorithms/work.py), for auto's choice after preparation: one launch
// of a bounded grid, each block adding its sums with one atomic each.
//   sums[0]: wedges, sum C(d+, 2) over the vertices;
//   sums[1]: the wedges of the bitmap's vertices, out-degree at least dense_degree
//            among the ids from bitmap_first;
//   sums[2]: sum d+(u)^2, what merge reads of the arcs' sources;
//   sums[3]: d+(v) summed over `samples` arcs u -> v spread evenly over the CSR,
//            arc i * m / samples (the rest of what merge reads, estimated);
//   sums[4]: the largest d+ (merge's inline layout reads it);
//   sums[6]: the vertices of out-degree at least dense_degree, as wedge_heavy_rows
//            counts them: sums[5..7] are the slots wedge_layout (kernels/wedge.cu)
//            then fills with wedge's layout, for the same single read.
#include "common.cu"

extern "C" __global__ void __launch_bounds__(256)
oriented_work(const long long* __restrict__ indptr, const VID* __restrict__ indices, long long n,
              long long m, long long samples, long long bitmap_first, long long dense_degree,
              u64* sums) {
    u64 wedges = 0, bitmap = 0, squares = 0, heads = 0, widest = 0, heavy = 0;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = global_thread(); v < n; v += stride) {
        u64 d = (u64)(indptr[v + 1] - indptr[v]);
        u64 pairs = d > 1 ? d * (d - 1) / 2 : 0;
        wedges += pairs;
        if (v >= bitmap_first && (long long)d >= dense_degree) bitmap += pairs;
        squares += d * d;
        widest = max(widest, d);
        heavy += (long long)d >= dense_degree;
    }
    for (long long i = global_thread(); i < samples; i += stride) {
        long long v = (long long)indices[i * m / samples];
        heads += (u64)(indptr[v + 1] - indptr[v]);
    }
    block_add(sums, wedges);
    __syncthreads();  // block_add's shared sums are read before they are reused
    block_add(sums + 1, bitmap);
    __syncthreads();
    block_add(sums + 2, squares);
    __syncthreads();
    block_add(sums + 3, heads);
    __syncthreads();
    block_add(sums + 6, heavy);
    __syncthreads();
    block_max(sums + 4, widest);
}
