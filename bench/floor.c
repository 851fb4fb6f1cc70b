/* floor.c -- the hardware floor the windows benchmark is compared with (same definitions as
 * /work/shared/ANCHORS.md):
 *   memcpy bandwidth at 8 KiB, 1 MiB and 16 MiB, one process (the same buffers copied over and over);
 *   a cache line's round trip between two processes through shared memory: fork, a shared anonymous
 *   mapping, ping-pong on two cache lines (one written by each process), nothing pinned.
 * Also (information, not a floor of ANCHORS.md): memcpy by two processes at once ("memcpy2_*", the
 * slower one's bandwidth), which is what each PE gets when two PEs move data at the same time.
 *
 *   floor [trials] [ms]      (default 11 trials of about 5 ms each)
 *
 * Output, one line per figure (median over the trials, then min and max):
 *   FLOOR <key> <median> <min> <max> <unit> <iterations> <errors>
 * Every copy and every round trip is checked; errors make the exit status non-zero.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *key, double *v, int n, const char *unit, long iters, long errors)
{
    qsort(v, n, sizeof *v, cmp_double);
    printf("FLOOR %s %.6e %.6e %.6e %s %ld %ld\n", key, v[(n - 1) / 2], v[0], v[n - 1], unit, iters, errors);
    fflush(stdout);
}

/* ----------------------------------------------------------------------------- memcpy */
/* nproc = 1: one process copies; nproc = 2: two processes (fork) copy their own buffers at the same
 * time, trial by trial, and the slower one's bandwidth counts (what each of two PEs can expect when
 * both move data at once, as in the benchmark where every PE puts to its neighbour). */
struct pair_sync {
    volatile int arrived;            /* incremented by both processes before each trial */
    volatile double child_t[128];    /* the child's time of each trial */
    volatile long child_errors;
};

static void arrive_and_wait(struct pair_sync *ps, int want)
{
    __atomic_add_fetch(&ps->arrived, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&ps->arrived, __ATOMIC_SEQ_CST) < want) __builtin_ia32_pause();
}

static long copies_for(unsigned char *dst, unsigned char *src, size_t bytes, double target_s)
{
    long reps = 1;
    for (;;) {
        double t0 = now();
        for (long r = 0; r < reps; r++) {
            memcpy(dst, src, bytes);
            __asm__ __volatile__("" ::: "memory");
        }
        double t = now() - t0;
        if (t > target_s / 4 || reps > (1L << 30)) {
            reps = (long)(reps * target_s / (t > 1e-9 ? t : 1e-9));
            return reps < 3 ? 3 : reps;
        }
        reps *= 4;
    }
}

static long memcpy_bw(const char *key, size_t bytes, int trials, double target_s, int nproc)
{
    unsigned char *src = aligned_alloc(4096, bytes), *dst = aligned_alloc(4096, bytes);
    double *v = calloc(trials, sizeof *v);
    long errors = 0;
    if (!src || !dst || !v || trials > 128) { perror("floor: memory"); exit(2); }
    for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)(i * 7 + 3);
    memset(dst, 0, bytes);
    long reps = copies_for(dst, src, bytes, target_s);   /* the same in both processes (forked after) */

    struct pair_sync *ps = NULL;
    pid_t child = -1;
    if (nproc == 2) {
        ps = mmap(NULL, sizeof *ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (ps == MAP_FAILED) { perror("floor: mmap"); exit(2); }
        ps->arrived = 0;
        ps->child_errors = 0;
        child = fork();
        if (child < 0) { perror("floor: fork"); exit(2); }
    }
    for (int k = 0; k < trials; k++) {
        src[k % bytes] ^= 0x5a;                     /* a different content each trial */
        if (ps) arrive_and_wait(ps, 2 * (k + 1));
        double t0 = now();
        for (long r = 0; r < reps; r++) {
            memcpy(dst, src, bytes);
            __asm__ __volatile__("" ::: "memory");
        }
        double t = now() - t0;
        if (memcmp(dst, src, bytes) != 0) errors++;
        if (child == 0) {
            ps->child_t[k] = t;
        } else {
            v[k] = t;
        }
    }
    if (child == 0) {
        ps->child_errors = errors;
        _exit(0);
    }
    if (ps) {
        int status = 0;
        waitpid(child, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) errors++;
        errors += ps->child_errors;
        for (int k = 0; k < trials; k++)
            if (ps->child_t[k] > v[k]) v[k] = ps->child_t[k];
        munmap(ps, sizeof *ps);
    }
    for (int k = 0; k < trials; k++) v[k] = (double)bytes * reps / v[k] / 1e6;   /* MB/s */
    report(key, v, trials, "MB/s", reps, errors);
    free(src); free(dst); free(v);
    return errors;
}

/* --------------------------------------------------------------- cache-line round trip */
struct pingpong {
    _Alignas(128) volatile uint64_t ping;   /* written by the parent */
    char pad1[120];
    _Alignas(128) volatile uint64_t pong;   /* written by the child */
    char pad2[120];
};

static long cacheline_rtt(int trials, double target_s)
{
    struct pingpong *pp = mmap(NULL, sizeof *pp, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    double *v = calloc(trials, sizeof *v);
    long errors = 0;
    if (pp == MAP_FAILED || !v) { perror("floor: mmap"); exit(2); }
    pp->ping = 0;
    pp->pong = 0;

    pid_t child = fork();
    if (child < 0) { perror("floor: fork"); exit(2); }
    if (child == 0) {
        /* echo every value of ping back in pong; 0 ends */
        uint64_t last = 0;
        for (;;) {
            uint64_t x;
            while ((x = pp->ping) == last) __builtin_ia32_pause();
            if (x == UINT64_MAX) _exit(0);
            pp->pong = x;
            last = x;
        }
    }

    uint64_t seq = 0;
    long n = 1000;
    /* one round: ping seq+1, wait for pong seq+1 */
#define ROUNDS(count)                                             \
    for (long i_ = 0; i_ < (count); i_++) {                       \
        uint64_t want = ++seq;                                    \
        pp->ping = want;                                          \
        uint64_t got;                                             \
        while ((got = pp->pong) != want) {                        \
            if (got > want) { errors++; break; }                  \
            __builtin_ia32_pause();                               \
        }                                                         \
    }
    for (int c = 0; c < 3; c++) {            /* warm-up and calibration */
        double t0 = now();
        ROUNDS(n);
        double t = now() - t0;
        n = (long)(n * target_s / (t > 1e-9 ? t : 1e-9));
        if (n < 100) n = 100;
        if (n > 50000000) n = 50000000;
    }
    for (int k = 0; k < trials; k++) {
        double t0 = now();
        ROUNDS(n);
        v[k] = (now() - t0) / n * 1e9;       /* ns per round trip */
    }
    pp->ping = UINT64_MAX;
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) errors++;
    report("cacheline_rtt", v, trials, "ns", n, errors);
    munmap(pp, sizeof *pp);
    free(v);
    return errors;
}

int main(int argc, char **argv)
{
    int trials = argc > 1 ? atoi(argv[1]) : 11;
    double target_s = (argc > 2 ? atof(argv[2]) : 5.0) * 1e-3;
    if (trials < 1) trials = 1;
    if (target_s <= 0) target_s = 5e-3;
    long errors = 0;
    errors += memcpy_bw("memcpy_8k", 8 << 10, trials, target_s, 1);
    errors += memcpy_bw("memcpy_1m", 1 << 20, trials, target_s, 1);
    errors += memcpy_bw("memcpy_16m", 16 << 20, trials, target_s * 4, 1);
    errors += memcpy_bw("memcpy2_8k", 8 << 10, trials, target_s, 2);
    errors += memcpy_bw("memcpy2_1m", 1 << 20, trials, target_s, 2);
    errors += memcpy_bw("memcpy2_16m", 16 << 20, trials, target_s * 4, 2);
    errors += cacheline_rtt(trials, target_s);
    if (errors) fprintf(stderr, "floor: %ld verification errors\n", errors);
    return errors ? 1 : 0;
}
