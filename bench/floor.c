/* floor.c -- the hardware floor the windows benchmark is compared with (same definitions as
 * /work/shared/ANCHORS.md):
 *   memcpy bandwidth at 8 KiB, 1 MiB and 16 MiB, one process (the same buffers copied over and over);
 *   a cache line's round trip between two processes through shared memory: fork, a shared anonymous
 *   mapping, ping-pong on two cache lines (one written by each process), nothing pinned.
 * Also (information, not a floor of ANCHORS.md): memcpy by two processes at once ("memcpy2_*", the
 * slower one's bandwidth), which is what each PE gets when two PEs move data at the same time; and
 * the floor of a halo exchange by packed messages in shared memory, the case of bench/halo_models.sh
 * at 2 PEs (64 x 64 x 80 4-byte words per PE, halo 4, the east and west faces to the one neighbour):
 * "halo_ew_local" packs both faces into a buffer and unpacks them into the halos in one process (the
 * two copies alone; "halo_ew_local_cold" the same over 24 arrays in turn, their faces from memory,
 * as in halo_models' fields case), "halo_ew_exchange" is two processes, each packing into a buffer
 * of shared memory, publishing a count, waiting for the other's, unpacking from its buffer, then
 * counting it released (what the library's channels do, with nothing else: no header, no check); microseconds
 * per exchange, the mean of batches of 24 (as halo_models times them).
 * The single-copy alternative, by Linux cross-memory attach: "halo_ew_cma" is the same exchange with
 * each process reading the other's two faces straight from its array into its own halos with
 * process_vm_readv (one iovec per 16-byte row, 1024 per call), after the other has published that
 * its array is ready; "halo_ns_cma" reads a north/south face instead (4 whole rows per level: 80
 * runs of 1,152 bytes) and "halo_ns_local" is that face's pack and unpack in one process, the two
 * copies it would replace. Where the kernel refuses process_vm_readv these print "refused".
 *
 *   floor [trials] [ms]      (default 11 trials of about 5 ms each)
 *
 * Output, one line per figure (median over the trials, then min and max):
 *   FLOOR <key> <median> <min> <max> <unit> <iterations> <errors>
 * Every copy and every round trip is checked; errors make the exit status non-zero.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/uio.h>
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

/* The halo exchange floor (see the header): arrays of (N + 2H)^2 x NK words, faces of H words per row. */
#define HX_N 64
#define HX_H 4
#define HX_NK 80
#define HX_L (HX_N + 2 * HX_H)
#define HX_MSG ((size_t)2 * HX_NK * HX_N * HX_H * 4)
#define HX_BATCH 24

struct hx_counts {
    volatile uint32_t posted;
    char pad[60];
    volatile uint32_t released;
    char pad2[60];
};

static inline void hx_row(void *to, const void *from) { memcpy(to, from, HX_H * 4); }

/* pack the west (i = 1..H) and east (i = N-H+1..N) faces of a into buf, or unpack buf into the
 * east and west halos (the neighbour's west face fills our east halo) */
static void hx_copy(int *a, unsigned char *buf, int pack)
{
    size_t at = 0;
    for (int s = 0; s < 2; s++) {
        int i0 = pack ? (s ? HX_N - HX_H + 1 : 1) : (s ? 1 - HX_H : HX_N + 1);
        for (int k = 0; k < HX_NK; k++)
            for (int j = 1; j <= HX_N; j++) {
                int *p = a + ((size_t)k * HX_L + (j - 1 + HX_H)) * HX_L + (i0 - 1 + HX_H);
                if (pack) hx_row(buf + at, p); else hx_row(p, buf + at);
                at += HX_H * 4;
            }
    }
}

static void hx_wait(volatile uint32_t *w, uint32_t want)
{
    for (long spins = 0; (int32_t)(*w - want) < 0; spins++) {
        __builtin_ia32_pause();
        if (spins % 256 == 255) sched_yield();   /* on a loaded machine the other may need our core */
    }
}

static long halo_floor(int trials, double target_s)
{
    size_t words = (size_t)HX_L * HX_L * HX_NK;
    double *v = calloc(trials, sizeof *v), *loc = calloc(trials, sizeof *loc);
    unsigned char *sh = mmap(NULL, 4096 + 2 * HX_MSG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    long *errs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!v || !loc || sh == MAP_FAILED || errs == MAP_FAILED) { perror("floor: mmap"); exit(2); }
    struct hx_counts *cnt = (struct hx_counts *)sh;   /* cnt[p]: PE p's posted, and released by the other */
    int *a = malloc(words * sizeof *a), *b = malloc(words * sizeof *b);
    unsigned char *tmp = malloc(HX_MSG);
    if (!a || !b || !tmp) { perror("floor: malloc"); exit(2); }

    /* local: the two copies in one process */
    for (size_t i = 0; i < words; i++) b[i] = 7;
    long n = 50;
    for (int k = 0; k < trials; k++) {
        double t0 = now();
        for (long r = 0; r < n; r++) { hx_copy(b, tmp, 1); hx_copy(b, tmp, 0); }
        loc[k] = (now() - t0) / n * 1e6;
    }
    /* the same copies from and into HX_BATCH arrays in turn (halo_models' fields case): their
     * faces come from memory, as the first copy of a model's exchange finds them */
    double *cold = calloc(trials, sizeof *cold);
    int **many = calloc(HX_BATCH, sizeof *many);
    if (!cold || !many) { perror("floor: calloc"); exit(2); }
    for (int f = 0; f < HX_BATCH; f++) {
        if (!(many[f] = malloc(words * sizeof *a))) { perror("floor: malloc"); exit(2); }
        for (size_t i = 0; i < words; i++) many[f][i] = f;
    }
    for (int k = 0; k < trials; k++) {
        double t0 = now();
        for (long r = 0; r < 4; r++)
            for (int f = 0; f < HX_BATCH; f++) { hx_copy(many[f], tmp, 1); hx_copy(many[f], tmp, 0); }
        cold[k] = (now() - t0) / (4 * HX_BATCH) * 1e6;
    }
    for (int f = 0; f < HX_BATCH; f++) free(many[f]);
    free(many);

    long batches = (long)(target_s / 50e-6 / HX_BATCH) + 1;
    pid_t child = fork();
    if (child < 0) { perror("floor: fork"); exit(2); }
    int me = child == 0, peer = 1 - me;
    for (size_t i = 0; i < words; i++) a[i] = me + 1;
    unsigned char *mine = sh + 4096 + me * HX_MSG, *theirs = sh + 4096 + peer * HX_MSG;
    uint32_t r = 0;
    for (int k = -1; k < trials; k++) {          /* k = -1: warm-up */
        double best = 1e30;
        for (long bt = 0; bt < batches; bt++) {
            double t0 = now();
            for (int c = 0; c < HX_BATCH; c++) {
                r++;
                hx_wait(&cnt[me].released, r - 1);   /* our previous message taken */
                hx_copy(a, mine, 1);
                __atomic_store_n(&cnt[me].posted, r, __ATOMIC_RELEASE);
                hx_wait(&cnt[peer].posted, r);
                __atomic_thread_fence(__ATOMIC_ACQUIRE);
                hx_copy(a, theirs, 0);
                __atomic_store_n(&cnt[peer].released, r, __ATOMIC_RELEASE);
            }
            double t = (now() - t0) / HX_BATCH * 1e6;
            if (t < best) best = t;
        }
        if (k >= 0 && !me) v[k] = best;          /* the best batch of each trial */
    }
    /* every halo point holds the neighbour's value */
    long e = 0;
    for (int k = 0; k < HX_NK; k++)
        for (int j = 1; j <= HX_N; j++)
            for (int i = 1 - HX_H; i <= HX_N + HX_H; i++)
                if ((i < 1 || i > HX_N) && a[((size_t)k * HX_L + (j - 1 + HX_H)) * HX_L + (i - 1 + HX_H)] != peer + 1) e++;
    if (me) { errs[0] = e; _exit(0); }
    int status = 0;
    waitpid(child, &status, 0);
    long errors = e + errs[0] + (!WIFEXITED(status) || WEXITSTATUS(status) != 0);
    report("halo_ew_local", loc, trials, "us", n, 0);
    report("halo_ew_local_cold", cold, trials, "us", 4 * HX_BATCH, 0);
    free(cold);
    report("halo_ew_exchange", v, trials, "us", batches * HX_BATCH, errors);
    munmap(sh, 4096 + 2 * HX_MSG);
    munmap(errs, 4096);
    free(v); free(loc); free(a); free(b); free(tmp);
    return errors;
}

/* One face read from the peer by process_vm_readv, 1024 iovecs per call (IOV_MAX). */
static long hx_cma_read(pid_t peer, struct iovec *local, struct iovec *remote, int n)
{
    long got = 0;
    for (int at = 0; at < n; at += 1024) {
        int c = n - at < 1024 ? n - at : 1024;
        ssize_t r = process_vm_readv(peer, local + at, c, remote + at, c, 0);
        if (r < 0) return -errno;
        got += r;
    }
    return got;
}

/* iovecs of a face: ew = the west and east faces (rows of H words), else the north face (H rows of
 * L words per level); from = the face's first column or row, to = where it lands in the reader. */
static int hx_face_iov(int *a, int ew, struct iovec *iov, int pack)
{
    int n = 0;
    if (ew) {
        for (int s = 0; s < 2; s++) {
            int i0 = pack ? (s ? HX_N - HX_H + 1 : 1) : (s ? 1 - HX_H : HX_N + 1);
            for (int k = 0; k < HX_NK; k++)
                for (int j = 1; j <= HX_N; j++) {
                    iov[n].iov_base = a + ((size_t)k * HX_L + (j - 1 + HX_H)) * HX_L + (i0 - 1 + HX_H);
                    iov[n++].iov_len = HX_H * 4;
                }
        }
    } else {
        int j0 = pack ? HX_N - HX_H + 1 : 1 - HX_H;
        for (int k = 0; k < HX_NK; k++) {
            iov[n].iov_base = a + ((size_t)k * HX_L + (j0 - 1 + HX_H)) * HX_L;
            iov[n++].iov_len = (size_t)HX_H * HX_L * 4;
        }
    }
    return n;
}

static long halo_cma(int trials, double target_s)
{
    size_t words = (size_t)HX_L * HX_L * HX_NK;
    int maxiov = 2 * HX_NK * HX_N;
    double *v = calloc(trials, sizeof *v), *loc = calloc(trials, sizeof *loc);
    struct hx_counts *cnt = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    long *errs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int *a = malloc(words * sizeof *a);
    unsigned char *tmp = malloc((size_t)HX_H * HX_L * HX_NK * 4);
    struct iovec *from = calloc(maxiov, sizeof *from), *to = calloc(maxiov, sizeof *to);
    if (!v || !loc || cnt == MAP_FAILED || errs == MAP_FAILED || !a || !tmp || !from || !to) { perror("floor: cma"); exit(2); }
    long errors = 0;
    for (int ew = 1; ew >= 0; ew--) {
        const char *key = ew ? "halo_ew_cma" : "halo_ns_cma";
        memset(cnt, 0, 4096);
        memset(errs, 0, 4096);
        pid_t parent = getpid(), child = fork();
        if (child < 0) { perror("floor: fork"); exit(2); }
        int me = child == 0, peer = 1 - me;
        pid_t other = me ? parent : child;
        for (size_t i = 0; i < words; i++) a[i] = me + 1;
        /* both processes have the array at the same address (fork): the peer's face is at our face's address */
        int n = hx_face_iov(a, ew, from, 1);
        hx_face_iov(a, ew, to, 0);
        long batches = (long)(target_s / 200e-6 / HX_BATCH) + 1;
        uint32_t r = 0;
        long refused = 0;
        for (int k = -1; k < trials && !refused; k++) {
            double best = 1e30;
            for (long bt = 0; bt < batches && !refused; bt++) {
                double t0 = now();
                for (int c = 0; c < HX_BATCH; c++) {
                    r++;
                    __atomic_store_n(&cnt[me].posted, r, __ATOMIC_RELEASE);     /* my array is ready */
                    hx_wait(&cnt[peer].posted, r);
                    long got = errs[1] ? 0 : hx_cma_read(other, to, from, n);
                    if (got < 0) {
                        /* refused (under Yama's ptrace_scope 1 only the parent may read): say so,
                         * and move both counts far ahead so that the other's waits end */
                        __sync_val_compare_and_swap(&errs[1], 0, -got);   /* the first refusal's errno */
                        __atomic_store_n(&cnt[me].posted, r + (1u << 30), __ATOMIC_RELEASE);
                        __atomic_store_n(&cnt[peer].released, r + (1u << 30), __ATOMIC_RELEASE);
                    }
                    if (errs[1]) { refused = errs[1]; break; }
                    __atomic_store_n(&cnt[peer].released, r, __ATOMIC_RELEASE); /* done reading its array */
                    hx_wait(&cnt[me].released, r);   /* the peer has read mine: it may change */
                    if (errs[1]) { refused = errs[1]; break; }
                }
                double t = (now() - t0) / HX_BATCH * 1e6;
                if (t < best) best = t;
            }
            if (k >= 0 && !me) v[k] = best;
        }
        if (refused) {
            if (me) _exit(0);
            waitpid(child, NULL, 0);
            printf("FLOOR %s refused (errno %ld)\n", key, refused);
            continue;
        }
        long e = 0;
        for (int k = 0; k < n; k++)
            for (size_t w = 0; w < to[k].iov_len / 4; w++)
                if (((int *)to[k].iov_base)[w] != peer + 1) e++;
        if (me) { errs[0] = e; _exit(0); }
        int status = 0;
        waitpid(child, &status, 0);
        long err = e + errs[0] + (!WIFEXITED(status) || WEXITSTATUS(status) != 0);
        report(key, v, trials, "us", batches * HX_BATCH, err);
        errors += err;
    }
    /* the copies a north face's single read would replace: its pack and unpack in one process */
    long n = 200;
    int nf = hx_face_iov(a, 0, from, 1);
    hx_face_iov(a, 0, to, 0);
    for (int k = 0; k < trials; k++) {
        double t0 = now();
        for (long r = 0; r < n; r++) {
            size_t at = 0;
            for (int f = 0; f < nf; f++) { memcpy(tmp + at, from[f].iov_base, from[f].iov_len); at += from[f].iov_len; }
            at = 0;
            for (int f = 0; f < nf; f++) { memcpy(to[f].iov_base, tmp + at, to[f].iov_len); at += to[f].iov_len; }
        }
        loc[k] = (now() - t0) / n * 1e6;
    }
    report("halo_ns_local", loc, trials, "us", n, 0);
    munmap(cnt, 4096);
    munmap(errs, 4096);
    free(v); free(loc); free(a); free(tmp); free(from); free(to);
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
    errors += halo_floor(trials, target_s);
    errors += halo_cma(trials, target_s);
    if (errors) fprintf(stderr, "floor: %ld verification errors\n", errors);
    return errors ? 1 : 0;
}
