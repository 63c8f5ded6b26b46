// The CSR of sorted arc keys (nx_tricount/preprocess/gpu_ops.py,
// csr_of_sorted_keys), in one launch of max(m, n + 1) threads; and the rows of a
// CSR's arcs from its row pointers (rows_of).
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

// indptr: n + 1 row pointers of m arcs. Thread t writes the rows of the span
// arcs from t * span: a binary search for the first one's row (the
// last whose start is at most it), then a walk along the row pointers. A search
// per arc cost 25 steps each on R-MAT 25; a thread per row would serialise on a
// long row.
extern "C" __global__ void __launch_bounds__(256)
rows_of_pointers(const long long* __restrict__ indptr, long long n, long long m, long long span,
                 VID* rows) {
    long long begin = global_thread() * span;
    if (begin >= m) return;
    long long end = min(m, begin + span);
    long long row = last_at_most(indptr, n + 1, begin);
    for (long long i = begin; i < end; ++i) {
        while (indptr[row + 1] <= i) ++row;
        rows[i] = (VID)row;
    }
}
