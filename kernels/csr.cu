// The CSR of sorted arc keys (nx_tricount/preprocess/gpu_ops.py,
// csr_of_sorted_keys), in one launch of max(m, n + 1) threads; the arcs' values
// put in CSR order (values_by_arc); and the rows of a CSR's arcs from its row
// pointers (rows_of).
#include "common.cu"
#include "keys.cu"

// keys: m sorted arc keys, KEY_SENTINELs (keys that are not arcs) last. Thread i
// unpacks key i into rows[i] -> indices[i], and finds row i's start indptr[i] as
// the first key of a row >= i by binary search (the gaps of empty rows would
// serialise a thread that filled them).
extern "C" __global__ void __launch_bounds__(256)
csr_of_sorted_keys(const long long* __restrict__ keys, long long m, long long n, VID* rows,
                   VID* indices, long long* indptr) {
    long long i = global_thread();
    if (i < m && keys[i] != KEY_SENTINEL) {
        long long a, b;
        unpack_key(keys[i], n, a, b);
        rows[i] = a;
        indices[i] = b;
    }
    if (i <= n) {
        long long first = i == n ? KEY_SENTINEL : pack_key(i, 0, n);
        long long low = 0, high = m;
        while (low < high) {
            long long mid = (low + high) / 2;
            if (keys[mid] < first) low = mid + 1; else high = mid;
        }
        indptr[i] = low;
    }
}

// Each values[i] (8 bytes, moved as bits) at the CSR position of arc keys[i] (m
// keys in any order, KEY_SENTINEL for none), found by a search of its target among
// its row's: log2 of the row's length in steps, where a search of all the sorted
// keys took log2 m (R-MAT 22's weighted preparation on one H200: 14.2 -> 11.2 ms).
extern "C" __global__ void __launch_bounds__(256)
values_by_arc(const long long* __restrict__ keys, const u64* __restrict__ values, long long m,
              long long n, const long long* __restrict__ indptr, const VID* __restrict__ indices,
              u64* out) {
    long long i = global_thread();
    if (i >= m || keys[i] == KEY_SENTINEL) return;
    long long a, b;
    unpack_key(keys[i], n, a, b);
    out[lower_bound(indices, indptr[a], indptr[a + 1], (VID)b)] = values[i];
}

// indptr: n + 1 row pointers of m arcs. A block writes the rows of blockDim.x *
// span consecutive arcs, its threads side by side (coalesced stores), each row the
// last whose start is at most the arc. Thread 0 first finds the rows of the
// block's first and last arcs, so that each arc's search covers only the few row
// pointers between them, close together in the cache; and each thread's next
// search starts at its last row. A thread writing span arcs of its own, after a
// search of every row pointer, took 5 ms (H200) for R-MAT 25's 5.2e8 arcs. A
// thread per row would serialise on a long row.
extern "C" __global__ void __launch_bounds__(256)
rows_of_pointers(const long long* __restrict__ indptr, long long n, long long m, long long span,
                 VID* rows) {
    __shared__ long long block_rows[2];
    long long block_begin = (long long)blockIdx.x * blockDim.x * span;
    if (block_begin >= m) return;  // the whole block
    if (threadIdx.x == 0) {
        long long block_end = min(m, block_begin + (long long)blockDim.x * span);
        block_rows[0] = last_at_most(indptr, n + 1, block_begin);
        block_rows[1] = last_at_most(indptr, n + 1, block_end - 1);
    }
    __syncthreads();
    long long row = block_rows[0], last = block_rows[1];
    for (long long j = 0; j < span; ++j) {
        long long i = block_begin + threadIdx.x + j * blockDim.x;
        if (i >= m) break;
        row += last_at_most(indptr + row, last - row + 1, i);
        rows[i] = (VID)row;
    }
}
