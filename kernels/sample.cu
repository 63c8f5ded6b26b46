// auto's statistic (nx_tricount/plan.py): the mean endpoint degree of an edge list,
// S = sum(d^2) / sum(d) over the endpoint counts d of its rows, estimated as the mean
// count of `samples` endpoints drawn from the rows (a row's endpoint is a vertex drawn
// with probability proportional to its count, so the mean of their counts is S).
// Endpoint i is side i & 1 of row hash(i / 2) mod rows, and the counts are taken in
// every `skip`-th chunk of 32 rows (the caller multiplies the sum by `skip`), as in
// nx_tricount/preprocess/host_ops.py (sampled_degree_sum), which gives the same sum.
// One launch, without a synchronisation: each block puts the samples in a hash table
// in shared memory, counts their occurrences in its share of the counted rows, and
// writes the sum of each sample's count (times its multiplicity) to partials[block],
// pinned host memory that the host adds up (no zeroed sum, no copy to queue).
#include "common.cu"

#define SAMPLE_SLOTS 2048  // a power of two, at least twice the samples
#define SAMPLE_CHUNK 32    // rows of a counted chunk
#define EMPTY_SLOT (-1ll)

__device__ __forceinline__ long long sample_row(long long i, long long rows) {
    return (long long)(((u64)(i >> 1) * 0x9E3779B97F4A7C15ull) % (u64)rows);
}

__device__ __forceinline__ int sample_slot(long long id) {
    return (int)(((u64)id * 0x9E3779B97F4A7C15ull) >> 53) & (SAMPLE_SLOTS - 1);
}

// ids: non-negative vertex ids. partials: one sum per block, whose total is the sum
// over the samples of their counts in the counted chunks.
extern "C" __global__ void __launch_bounds__(256)
sampled_degree_sum(const VID* __restrict__ src, const VID* __restrict__ dst, long long rows,
                   int samples, long long skip, u64* partials) {
    __shared__ long long ids[SAMPLE_SLOTS];
    __shared__ unsigned counts[SAMPLE_SLOTS];
    __shared__ unsigned multiplicity[SAMPLE_SLOTS];
    for (int s = threadIdx.x; s < SAMPLE_SLOTS; s += blockDim.x) {
        ids[s] = EMPTY_SLOT;
        counts[s] = 0;
        multiplicity[s] = 0;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < samples; i += blockDim.x) {
        long long r = sample_row(i, rows);
        long long id = (i & 1) ? dst[r] : src[r];
        int s = sample_slot(id);
        while (true) {
            long long held = (long long)atomicCAS((u64*)&ids[s], (u64)EMPTY_SLOT, (u64)id);
            if (held == EMPTY_SLOT || held == id) break;
            s = (s + 1) & (SAMPLE_SLOTS - 1);
        }
        atomicAdd(&multiplicity[s], 1u);
    }
    __syncthreads();
    long long counted = (rows + SAMPLE_CHUNK - 1) / SAMPLE_CHUNK;  // chunks in all
    counted = (counted + skip - 1) / skip * SAMPLE_CHUNK;            // rows of counted chunks
    for (long long q = global_thread(); q < counted; q += (long long)gridDim.x * blockDim.x) {
        long long r = q / SAMPLE_CHUNK * skip * SAMPLE_CHUNK + q % SAMPLE_CHUNK;
        if (r >= rows) continue;
        long long ends[2] = {(long long)src[r], (long long)dst[r]};
        for (int side = 0; side < 2; ++side) {
            int s = sample_slot(ends[side]);
            for (; ids[s] != EMPTY_SLOT; s = (s + 1) & (SAMPLE_SLOTS - 1)) {
                if (ids[s] == ends[side]) {
                    atomicAdd(&counts[s], 1u);
                    break;
                }
            }
        }
    }
    __syncthreads();
    u64 sum = 0;
    for (int s = threadIdx.x; s < SAMPLE_SLOTS; s += blockDim.x) {
        sum += (u64)multiplicity[s] * counts[s];
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}
