/* Which threads may call the MPI transport (docs/windows.md, "Threads"), over MPI only. Every PE puts into
 * its right neighbour's window in a passive epoch from a second thread (pthread, no OpenMP); the
 * neighbour checks what landed after the close. Exits 0 when every check passed on this PE.
 *   RPNCOMM_NODE_SPLIT=1 mpirun -n 2 ./test_thread_level refused
 *       every PE its own node, so the put is an MPI call; RPNCOMM_MPI_THREADS unset: MPI is at
 *       MPI_THREAD_SINGLE and the put from the second thread is refused (RPN_COMM_ERROR, nothing
 *       moved, one line on stderr); the main thread's own put still works
 *   RPNCOMM_NODE_SPLIT=1 RPNCOMM_MPI_THREADS=serialized mpirun -n 2 ./test_thread_level works
 *       the same put from the second thread works (one MPI call at a time)
 *   mpirun -n 2 ./test_thread_level works
 *       one node: the put is a store in shared memory, no MPI call, from any thread */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpncomm_windows.h"

#define S(str) str, strlen(str)

static int me = -1, npes = 0, errors = 0;
static rpncomm_handle win;
static int value[1];

static void check(int ok, const char *what)
{
    if (!ok) {
        errors++;
        fprintf(stderr, "test_thread_level: PE %d: FAILED: %s\n", me, what);
    }
}

static void *put_from_thread(void *status)
{
    *(int *)status = rpncomm_win_put_r(&win, value, (me + 1) % npes, 0, 1);
    return NULL;
}

int main(int argc, char **argv)
{
    int works = argc > 1 && strcmp(argv[1], "works") == 0;
    int box[1] = {-1}, status = 12345;
    rpncomm_handle dtype, com;
    pthread_t thread;

    memset(&win, 0, sizeof win);
    check(rpncomm_init(&me, &npes) == 0, "rpncomm_init");
    check(rpncomm_comm(S("GRID"), &com) == 0, "rpncomm_comm GRID");
    check(rpncomm_datyp(S("MPI_INTEGER"), &dtype) == 0, "rpncomm_datyp");
    check(rpncomm_win_create(&win, &dtype, 1, &com, box) == 0, "rpncomm_win_create");

    value[0] = 100 + me;
    check(rpncomm_win_open(&win, 0) == 0, "open passive");
    check(pthread_create(&thread, NULL, put_from_thread, &status) == 0 && pthread_join(thread, NULL) == 0, "thread");
    if (works) {
        check(status == 0, "put_r from a second thread works");
    } else {
        check(status == -1, "put_r from a second thread is refused");
        value[0] = 200 + me;
        check(rpncomm_win_put_r(&win, value, (me + 1) % npes, 0, 1) == 0, "put_r from the main thread");
    }
    check(rpncomm_win_close(&win) == 0, "close");
    int left = (me + npes - 1) % npes;
    check(box[0] == (works ? 100 : 200) + left, "the value that landed");
    check(rpncomm_win_free(&win) == 0, "rpncomm_win_free");
    check(rpncomm_finalize() == 0, "rpncomm_finalize");
    if (errors == 0) printf("test_thread_level: PE %d: OK (%s)\n", me, works ? "works" : "refused");
    return errors != 0;
}
