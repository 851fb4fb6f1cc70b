/* Which threads may call the MPI transport (docs/windows.md, "Threads"), over MPI only. Every PE puts into
 * its right neighbour's window in a passive epoch from a second thread (pthread, no OpenMP); the
 * neighbour checks what landed after the close. Exits 0 when every check passed on this PE.
 *   RPNCOMM_NODE_SPLIT=1 mpirun -n 2 ./test_thread_level one
 *       every PE its own node, so the put is an MPI call; RPNCOMM_MPI_THREADS unset: MPI is at
 *       MPI_THREAD_SINGLE, and the put from the second thread (the main thread waiting for it,
 *       as a program that serialises its calls) is served as the main thread's
 *   RPNCOMM_NODE_SPLIT=1 mpirun -n 2 ./test_thread_level both
 *       still at MPI_THREAD_SINGLE, the main thread and the second one put at the same time, many
 *       times, each into its own element: every put is served (the library makes the MPI calls one
 *       at a time, and says so once)
 *   RPNCOMM_NODE_SPLIT=1 RPNCOMM_MPI_THREADS=serialized mpirun -n 2 ./test_thread_level both
 *       the same at MPI_THREAD_SERIALIZED
 *   mpirun -n 2 ./test_thread_level both
 *       one node: the put is a store in shared memory, no MPI call, from any thread */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpncomm_windows.h"

#define S(str) str, strlen(str)
#define PUTS 2000

static int me = -1, npes = 0, errors = 0;
static rpncomm_handle win;

static void check(int ok, const char *what)
{
    if (!ok) {
        errors++;
        fprintf(stderr, "test_thread_level: PE %d: FAILED: %s\n", me, what);
    }
}

/* PUTS puts of 1000 * (element + 1) + me into `element` of the right neighbour; the count of those
 * that failed */
static int put_many(int element, int times)
{
    int value[1] = {1000 * (element + 1) + me}, failed = 0;
    for (int i = 0; i < times; i++) {
        failed += rpncomm_win_put_r(&win, value, (me + 1) % npes, element, 1) != 0;
    }
    return failed;
}

static void *second_thread(void *times)
{
    static int failed;
    failed = put_many(1, *(int *)times);
    return &failed;
}

int main(int argc, char **argv)
{
    int both = argc > 1 && strcmp(argv[1], "both") == 0;
    int box[2] = {-1, -1}, times = both ? PUTS : 1, main_failed = 0;
    void *thread_failed = NULL;
    rpncomm_handle dtype, com;
    pthread_t thread;

    memset(&win, 0, sizeof win);
    check(rpncomm_init(&me, &npes) == 0, "rpncomm_init");
    check(rpncomm_comm(S("GRID"), &com) == 0, "rpncomm_comm GRID");
    check(rpncomm_datyp(S("MPI_INTEGER"), &dtype) == 0, "rpncomm_datyp");
    check(rpncomm_win_create(&win, &dtype, 2, &com, box) == 0, "rpncomm_win_create");

    check(rpncomm_win_open(&win, 0) == 0, "open passive");
    check(pthread_create(&thread, NULL, second_thread, &times) == 0, "thread");
    if (both) main_failed = put_many(0, times);
    check(pthread_join(thread, &thread_failed) == 0, "join");
    check(*(int *)thread_failed == 0, "every put_r of the second thread served");
    check(main_failed == 0, "every put_r of the main thread served");
    check(rpncomm_win_close(&win) == 0, "close");
    int left = (me + npes - 1) % npes;
    check(box[1] == 2000 + left, "the second thread's value landed");
    check(box[0] == (both ? 1000 + left : -1), "the main thread's value landed");
    check(rpncomm_win_free(&win) == 0, "rpncomm_win_free");
    check(rpncomm_finalize() == 0, "rpncomm_finalize");
    if (errors == 0) printf("test_thread_level: PE %d: OK (%s)\n", me, both ? "both" : "one");
    return errors != 0;
}
