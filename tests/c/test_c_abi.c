/* Smoke test of the C ABI against an installed rpncomm-windows:
 *   cc test_c_abi.c $(pkg-config --cflags --libs rpncomm-windows) -o test_c_abi
 *   rpnrun -n 2 ./test_c_abi        (also runs as a one-PE job without rpnrun)
 * Exits 0 when every check passed on this PE, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpncomm_windows.h"

#define N 16
#define S(str) str, strlen(str)

static int me = -1, errors = 0;

/* Whether the page at addr is mapped from one of the library's shared-memory files: a window
 * over the caller's array is zero-copy (the array's pages are the window's shared memory). */
static int mapped_from_window(const void *addr)
{
    char line[512];
    int found = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return 0;
    while (!found && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= (unsigned long)addr && (unsigned long)addr < hi)
            found = strstr(line, "/rpncomm-") != NULL;
    }
    fclose(maps);
    return found;
}

/* How many mappings of the library's shared-memory files this process has. */
static int window_mappings(void)
{
    char line[512];
    int n = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return 0;
    while (fgets(line, sizeof line, maps)) n += strstr(line, "/rpncomm-") != NULL;
    fclose(maps);
    return n;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        errors++;
        fprintf(stderr, "test_c_abi: PE %d: FAILED: %s\n", me, what);
    }
}

int main(void)
{
    int npes = 0, me_x, me_y, is_valid, is_open, siz, i, st;
    int vals[N], back[N], got[4], one[1], fetched[1], total = -1;
    void *ptr = NULL;
    rpncomm_handle dtype, com, oper, win;

    memset(&win, 0, sizeof win);
    check(rpncomm_init(&me, &npes) == 0, "rpncomm_init");
    check(npes >= 1 && me >= 0 && me < npes, "rank/npes in range");
    check(rpncomm_mype(&me, &me_x, &me_y) == 0, "rpncomm_mype");
    check(rpncomm_wtime() >= 0.0, "rpncomm_wtime");
    check(rpncomm_comm(S("GRID"), &com) == 0, "rpncomm_comm GRID");
    check(rpncomm_comm_size(S("GRID"), &siz) == 0 && siz == npes, "rpncomm_comm_size");
    check(rpncomm_datyp(S("MPI_INTEGER"), &dtype) == 0, "rpncomm_datyp MPI_INTEGER");
    check(rpncomm_oper(S("MPI_SUM"), &oper) == 0, "rpncomm_oper MPI_SUM");
    check(rpncomm_valid_oper(&oper) == 1, "rpncomm_valid_oper");

    /* window over library-allocated memory */
    check(rpncomm_win_create(&win, &dtype, N, &com, NULL) == 0, "rpncomm_win_create(array=NULL)");
    check(rpncomm_win_valid(&win, &is_valid) == 0 && is_valid == 1, "rpncomm_win_valid");
    check(rpncomm_win_get_size(&win, &siz) == 0 && siz == N, "rpncomm_win_get_size");
    check(rpncomm_win_get_ptr(&win, 1, &ptr) == 0 && ptr != NULL, "rpncomm_win_get_ptr");
    check(rpncomm_win_check(&win, &is_open) == 0 && is_open == 0, "window not exposed after create");

    /* local put/get while not exposed */
    for (i = 0; i < N; i++) vals[i] = 100 * me + i;
    check(rpncomm_win_put_l(&win, vals, 0, N) == 0, "rpncomm_win_put_l");
    memset(back, 0, sizeof back);
    check(rpncomm_win_get_l(&win, back, 0, N) == 0, "rpncomm_win_get_l");
    check(memcmp(vals, back, sizeof vals) == 0, "get_l returns what put_l wrote");
    if (ptr) check(memcmp(vals, ptr, sizeof vals) == 0, "get_ptr memory holds the window data");

    /* active (fence) epoch: put to the right neighbour, get from the left one */
    {
        int right = (me + 1) % npes, left = (me + npes - 1) % npes, mark = 1000 + me;
        check(rpncomm_win_open(&win, 1) == 0, "rpncomm_win_open(active)");
        check(rpncomm_win_check(&win, &is_open) == 0 && is_open == 1, "window exposed after open");
        check(rpncomm_win_put_r(&win, &mark, right, N / 2, 1) == 0, "rpncomm_win_put_r");
        check(rpncomm_win_get_r(&win, got, left, 0, 4) == 0, "rpncomm_win_get_r");
        fprintf(stderr, "test_c_abi: PE %d: two error lines expected next\n", me);
        check(rpncomm_win_get_r(&win, got, left, N - 1, 2) == -1, "get_r past the end is refused");
        check(rpncomm_win_put_l(&win, vals, 0, 1) == -1, "put_l while exposed is refused");
        check(rpncomm_win_close(&win) == 0, "rpncomm_win_close(active)");
        check(rpncomm_win_get_l(&win, back, 0, N) == 0, "get_l after close");
        check(back[N / 2] == 1000 + left, "put_r from the left neighbour landed");
        for (i = 0; i < 4; i++) check(got[i] == 100 * left + i, "get_r data from the left neighbour");
    }

    /* passive epoch: every PE adds 1 to element 1 of PE 0, fetching the old value */
    check(rpncomm_win_open(&win, 0) == 0, "rpncomm_win_open(passive)");
    one[0] = 1;
    fetched[0] = -1;
    check(rpncomm_win_getacc_r(&win, one, fetched, 1, 0, 1, 1, &oper) == 0, "rpncomm_win_getacc_r");
    check(fetched[0] >= 1 && fetched[0] < 1 + npes, "getacc_r fetched value in range");
    check(rpncomm_win_close(&win) == 0, "rpncomm_win_close(passive)");
    if (me == 0) {
        check(rpncomm_win_get_l(&win, back, 1, 1) == 0, "get_l element 1");
        check(back[0] == 1 + npes, "getacc_r SUM from every PE");
    }

    /* one-element atomics, passive: every PE swaps its mark into element 2 of PE 0 if it still
     * holds what the window started with (one PE wins), and adds 1 to element 3 with fetch-and-op */
    {
        int compare = 2, mark = 5000 + me, old = -1, ticket = -1, winner = 0, winners = 0, atomics_ok = 1;
        rpncomm_handle rwin, rtype;
        check(rpncomm_win_open(&win, 0) == 0, "rpncomm_win_open(passive) for atomics");
        check(rpncomm_win_cas_r(&win, &compare, &mark, &old, 0, 2) == 0, "rpncomm_win_cas_r");
        check(old == 2 || (old >= 5000 && old < 5000 + npes), "cas_r fetched the start value or another PE's mark");
        check(rpncomm_win_fetchop_r(&win, one, &ticket, 0, 3, &oper) == 0, "rpncomm_win_fetchop_r");
        check(ticket >= 3 && ticket < 3 + npes, "fetchop_r ticket in range");
        fprintf(stderr, "test_c_abi: PE %d: two error lines expected next\n", me);
        check(rpncomm_win_cas_r(&win, &compare, &mark, &old, 0, N) == -1, "cas_r past the end is refused");
        check(rpncomm_win_fetchop_r(&win, one, NULL, 0, 3, &oper) == -1, "fetchop_r with a NULL oldval is refused");
        check(rpncomm_win_close(&win) == 0, "rpncomm_win_close after atomics");
        winner = old == 2;
        check(rpncomm_allreduce(&winner, &winners, 1, S("MPI_INTEGER"), S("MPI_SUM"), S("GRID")) == 0 && winners == 1,
              "exactly one PE's cas_r swapped");
        if (me == 0) {
            check(rpncomm_win_get_l(&win, back, 2, 2) == 0, "get_l elements 2 and 3");
            check(back[0] >= 5000 && back[0] < 5000 + npes, "cas_r left a PE's mark");
            check(back[1] == 3 + npes, "fetchop_r SUM from every PE");
        }
        /* compare-and-swap on reals is refused */
        memset(&rwin, 0, sizeof rwin);
        check(rpncomm_datyp(S("MPI_REAL8"), &rtype) == 0, "rpncomm_datyp MPI_REAL8");
        check(rpncomm_win_create(&rwin, &rtype, 1, &com, NULL) == 0, "real window");
        check(rpncomm_win_open(&rwin, 0) == 0, "open the real window");
        {
            double c = 0.0, v = 1.0, o = -1.0;
            fprintf(stderr, "test_c_abi: PE %d: one error line expected next\n", me);
            atomics_ok = rpncomm_win_cas_r(&rwin, &c, &v, &o, 0, 0) == -1 && o == -1.0;
        }
        check(atomics_ok, "cas_r on reals is refused and moves nothing");
        check(rpncomm_win_close(&rwin) == 0 && rpncomm_win_free(&rwin) == 0, "close and free the real window");
        /* elements 2 and 3 of PE 0 back to their start values for the box get below */
        if (me == 0) {
            int start[2] = {2, 3};
            check(rpncomm_win_put_l(&win, start, 2, 2) == 0, "put_l elements 2 and 3 back");
        }
    }

    /* request-based operations, passive: rput_r + flush, rget_r + test, rgetacc_r +
     * flush_all, then a second wait (refused: null request) and a flush outside passive mode */
    {
        int right = (me + 1) % npes, put8[8], get8[8], flag = 0, polls = 0, old = -1;
        rpncomm_handle reqs[8], req;
        check(rpncomm_win_open(&win, 0) == 0, "rpncomm_win_open(passive) for the requests");
        for (i = 0; i < 8; i++) {
            put8[i] = 500 * me + i;
            check(rpncomm_win_rput_r(&win, &put8[i], right, 8 + i, 1, &reqs[i]) == 0, "rpncomm_win_rput_r");
        }
        check(rpncomm_win_flush(&win, right) == 0, "rpncomm_win_flush");
        for (i = 0; i < 8; i++) check(rpncomm_win_wait(&reqs[i]) == 0, "rpncomm_win_wait after the flush");
        memset(get8, 0, sizeof get8);
        check(rpncomm_win_rget_r(&win, get8, right, 8, 8, &req) == 0, "rpncomm_win_rget_r");
        while (!flag && polls++ < 100000) check(rpncomm_win_test(&req, &flag) == 0, "rpncomm_win_test");
        check(flag == 1, "rpncomm_win_test says complete");
        for (i = 0; i < 8; i++) check(get8[i] == 500 * me + i, "rget_r reads back what rput_r wrote");
        one[0] = 1;
        check(rpncomm_win_rgetacc_r(&win, one, &old, 1, right, 15, 1, &oper, &req) == 0, "rpncomm_win_rgetacc_r");
        check(rpncomm_win_flush_all(&win) == 0, "rpncomm_win_flush_all");
        check(old == 500 * me + 7, "rgetacc_r fetched the value before the update");
        check(rpncomm_win_wait(&req) == 0, "rpncomm_win_wait of the accumulate");
        fprintf(stderr, "test_c_abi: PE %d: two error lines expected next\n", me);
        check(rpncomm_win_wait(&req) == -1, "a second wait (null request) is refused");
        check(rpncomm_win_close(&win) == 0, "rpncomm_win_close after the requests");
        check(rpncomm_win_flush_all(&win) == -1, "flush_all outside a passive epoch is refused");
    }

    /* box get: elements 2 and 3 of the left neighbour's window, seen as 2 x 2 x 1 (0-based box
     * start {0, 1, 0}, extents {2, 1, 1}), into elements 1 and 2 of a local 4 x 1 x 1 array */
    {
        int left = (me + npes - 1) % npes, box[4] = {-5, -5, -5, -5};
        const int lshape[3] = {4, 1, 1}, lstart[3] = {1, 0, 0}, count[3] = {2, 1, 1};
        const int tshape[3] = {2, 2, 1}, tstart[3] = {0, 1, 0}, past[3] = {1, 1, 0};
        check(rpncomm_win_open(&win, 1) == 0, "rpncomm_win_open(active) for the box");
        check(rpncomm_win_get_r_box(&win, box, lshape, lstart, count, left, tshape, tstart) == 0, "rpncomm_win_get_r_box");
        fprintf(stderr, "test_c_abi: PE %d: one error line expected next\n", me);
        check(rpncomm_win_get_r_box(&win, box, lshape, lstart, count, left, tshape, past) == -1,
              "get_r_box past dimension 1 of the target's shape is refused");
        check(rpncomm_win_close(&win) == 0, "rpncomm_win_close after the box");
        check(box[0] == -5 && box[1] == 100 * left + 2 && box[2] == 100 * left + 3 && box[3] == -5,
              "get_r_box: the box holds the neighbour's elements 2 and 3, the rest is untouched");
    }

    check(rpncomm_barrier(S("GRID")) == 0, "rpncomm_barrier");
    check(rpncomm_win_free(&win) == 0, "rpncomm_win_free");

    /* window over the caller's page-aligned array: zero-copy (unless told to stage), and the
     * array is private memory again, with the window's last contents, after free. Zero-copy: the
     * array's pages are the window's shared memory wherever the window has some (always under
     * rpnrun; over MPI where PEs share a node); a window over MPI alone (every PE alone on its
     * node) is MPI_Win_create on the array itself, with no shared memory of the library. */
    {
        enum { M = 2048 };
        int *arr = NULL, mark = 7000 + me, right = (me + 1) % npes, left = (me + npes - 1) % npes;
        const char *mode = getenv("RPNCOMM_USER_ARRAYS");
        int staged = mode && strcmp(mode, "staged") == 0;
        rpncomm_handle uwin;
        memset(&uwin, 0, sizeof uwin);
        check(posix_memalign((void **)&arr, 4096, M * sizeof(int)) == 0, "posix_memalign");
        for (i = 0; i < M; i++) arr[i] = me;
        int regions = window_mappings(), under_rpnrun = getenv("RPNCOMM_SEGMENT") != NULL;
        check(rpncomm_win_create(&uwin, &dtype, M, &com, arr) == 0, "rpncomm_win_create(array)");
        if (!staged && (under_rpnrun || window_mappings() > regions))
            check(mapped_from_window(arr), "the caller's array is the window's shared memory (zero-copy)");
        check(rpncomm_win_open(&uwin, 1) == 0, "open the window over the array");
        check(rpncomm_win_put_r(&uwin, &mark, right, M - 1, 1) == 0, "put_r into the neighbour's array");
        check(rpncomm_win_close(&uwin) == 0, "close the window over the array");
        check(arr[M - 1] == 7000 + left && arr[0] == me, "the array holds the neighbour's put and its own data");
        check(rpncomm_win_free(&uwin) == 0, "free the window over the array");
        check(!mapped_from_window(arr), "the array is private memory again after free");
        check(arr[M - 1] == 7000 + left && arr[M - 2] == me, "the array keeps its contents after free");
        free(arr);
    }
    st = rpncomm_win_valid(&win, &is_valid);
    check(st == -1 && is_valid == 0, "freed window is not valid");

    st = rpncomm_allreduce(&errors, &total, 1, S("MPI_INTEGER"), S("MPI_SUM"), S("GRID"));
    check(st == 0 && total >= errors, "rpncomm_allreduce");
    check(rpncomm_finalize() == 0, "rpncomm_finalize");

    printf("test_c_abi: PE %d of %d: %s (%d local errors, %d in total)\n", me, npes,
           errors ? "FAILED" : "OK", errors, total);
    return errors ? 1 : 0;
}
