// Each vertex's clustering coefficient from the per-vertex terms it is made of
// (nx_tricount/algorithms/coefficients.py), one thread per vertex, in one pass:
// the numerator t = 2 sums[v] and the denominator deg (deg - 1), or for a
// directed graph (Fagiolo) 2 (d_tot (d_tot - 1) - 2 d_recip); the ratio t /
// denominator in float64, as NumPy divides (both sides converted, one IEEE
// division), 0.0 where t is 0; and whether t is nonzero.
//
// WEIGHT is the type of the sums: long long (triangles, unweighted arc values)
// or double (weighted).
#include "common.cu"

extern "C" __global__ void __launch_bounds__(256)
clustering_coefficients(const WEIGHT* __restrict__ sums, const long long* __restrict__ degree,
                        const long long* __restrict__ reciprocal, long long n, int directed,
                        double* __restrict__ ratio, bool* __restrict__ nonzero) {
    long long v = global_thread();
    if (v >= n) return;
    WEIGHT t = 2 * sums[v];
    long long d = degree[v];
    long long denominator = directed ? 2 * (d * (d - 1) - 2 * reciprocal[v]) : d * (d - 1);
    bool counted = t != 0;
    // A vertex with a triangle has a nonzero denominator; the others are 0.0.
    ratio[v] = counted ? (double)t / (double)denominator : 0.0;
    nonzero[v] = counted;
}
