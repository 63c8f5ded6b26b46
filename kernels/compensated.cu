// A weighted count's compensated (sum, error) pairs rounded once
// (nx_tricount/algorithms/counts.py, round_pairs), one thread per vertex:
// rounded = sum + error in IEEE round to nearest and residual its exact error
// (Knuth's TwoSum, as common.cu's add_value), 0 where the rounded sum is not
// finite; integer pairs add exactly and leave no residual. The pairs may be
// strided (the interleaved output of a count): sums[i * sum_step] and
// errors[i * error_step]. WEIGHT: double or long long.
#include "common.cu"

__device__ __forceinline__ void round_pair(double sum, double error, double& rounded,
                                           double& residual) {
    double total = __dadd_rn(sum, error);
    double error_part = __dsub_rn(total, sum);
    double rest = __dadd_rn(__dsub_rn(sum, __dsub_rn(total, error_part)), __dsub_rn(error, error_part));
    rounded = total;
    residual = isfinite(total) ? rest : 0.0;
}

__device__ __forceinline__ void round_pair(long long sum, long long error, long long& rounded,
                                           long long& residual) {
    rounded = (long long)((u64)sum + (u64)error);  // two's complement, as NumPy wraps
    residual = 0;
}

extern "C" __global__ void __launch_bounds__(256)
round_pairs(const WEIGHT* __restrict__ sums, long long sum_step, const WEIGHT* __restrict__ errors,
            long long error_step, long long n, WEIGHT* rounded, WEIGHT* residual) {
    long long i = global_thread();
    if (i < n) round_pair(sums[i * sum_step], errors[i * error_step], rounded[i], residual[i]);
}
