// Vertex pairs packed into int64 sort keys, shared by the preprocessing's
// kernels (edge_rows.cu, edge_values.cu, distinct.cu, csr.cu). No includes of
// its own.
#ifndef NX_TRICOUNT_KEYS_CU
#define NX_TRICOUNT_KEYS_CU

// A self-loop's key (and a key that is not an arc): sorts after every real key.
#define KEY_SENTINEL 0x7fffffffffffffffLL

// Pairs pack as a << 32 | b while ids fit in 31 bits, else a * n + b.
__device__ __forceinline__ long long pack_key(long long a, long long b, long long n) {
    return n <= 2147483648LL ? (a << 32) | b : a * n + b;
}

__device__ __forceinline__ void unpack_key(long long key, long long n, long long& a, long long& b) {
    if (n <= 2147483648LL) {
        a = key >> 32;
        b = key & 0xFFFFFFFFLL;
    } else {
        a = key / n;
        b = key % n;
    }
}

// Edge u - v (u < v, old ids) becomes the arc between new ids rank[u] and
// rank[v], from the lower new id to the higher, or (by_degree) from the lower
// degree to the higher with ties by new id.
template <class Rank, class Degree>
__device__ __forceinline__ long long arc_key(long long u, long long v, Rank& rank, Degree& degree,
                                             int relabel, int by_degree, long long n) {
    long long a = relabel ? (long long)rank[u] : u, b = relabel ? (long long)rank[v] : v;
    if (a > b) { long long t = a; a = b; b = t; t = u; u = v; v = t; }
    if (by_degree && degree[u] > degree[v]) { long long t = a; a = b; b = t; }
    return pack_key(a, b, n);
}

// Position of the last of the sorted sorted[0:m) that is at most key, or -1: the
// last of key's run where key is there.
__device__ __forceinline__ long long last_at_most(const long long* __restrict__ sorted, long long m,
                                                  long long key) {
    long long low = 0, high = m;  // the first position holding more than key
    while (low < high) {
        long long mid = (low + high) >> 1;
        if (sorted[mid] <= key) low = mid + 1; else high = mid;
    }
    return low - 1;
}

#endif
