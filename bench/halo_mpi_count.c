/* halo_mpi_count.c -- counts the MPI calls a program makes between rpn_count_start() and
 * rpn_count_stop() (bench/halo_scale.F90, bench/halo_scale.sh): linked into the program, its
 * definitions of the MPI functions below take the place of the MPI library's for every caller in
 * the executable (the library's MPI shim included) and pass on to the PMPI_ entry points.
 * Point-to-point (MPI_Isend, MPI_Recv, MPI_Iprobe, MPI_Test) and every collective or RMA
 * synchronisation the library may call are counted. */
#include <mpi.h>
#include <string.h>

enum { ISEND, RECV, IPROBE, TEST, BARRIER, ALLGATHER, ALLREDUCE, BCAST, FENCE, WINPSCW, WINCREATE, NCOUNT };
static long long counts[NCOUNT];
static long long bytes_sent;
static int on;

void rpn_count_start(void) { memset(counts, 0, sizeof counts); bytes_sent = 0; on = 1; }
void rpn_count_stop(void) { on = 0; }
/* out: isend, recv, iprobe, test, collectives (barrier, allgather, allreduce, bcast, window
 * creation, fence, post/start/complete/wait), bytes sent */
void rpn_count_get(long long out[6]) {
    out[0] = counts[ISEND];
    out[1] = counts[RECV];
    out[2] = counts[IPROBE];
    out[3] = counts[TEST];
    out[4] = counts[BARRIER] + counts[ALLGATHER] + counts[ALLREDUCE] + counts[BCAST] + counts[FENCE] + counts[WINPSCW] + counts[WINCREATE];
    out[5] = bytes_sent;
}
#define COUNT(k) do { if (on) counts[k]++; } while (0)

int MPI_Isend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request *r) {
    int size = 0;
    COUNT(ISEND);
    if (on) { MPI_Type_size(t, &size); bytes_sent += (long long)size * n; }
    return PMPI_Isend(b, n, t, d, tag, c, r);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Status *st) { COUNT(RECV); return PMPI_Recv(b, n, t, s, tag, c, st); }
int MPI_Iprobe(int s, int tag, MPI_Comm c, int *f, MPI_Status *st) { COUNT(IPROBE); return PMPI_Iprobe(s, tag, c, f, st); }
int MPI_Test(MPI_Request *r, int *f, MPI_Status *st) { COUNT(TEST); return PMPI_Test(r, f, st); }
int MPI_Barrier(MPI_Comm c) { COUNT(BARRIER); return PMPI_Barrier(c); }
int MPI_Allgather(const void *a, int b, MPI_Datatype c, void *d, int e, MPI_Datatype f, MPI_Comm g) { COUNT(ALLGATHER); return PMPI_Allgather(a, b, c, d, e, f, g); }
int MPI_Allreduce(const void *a, void *b, int c, MPI_Datatype d, MPI_Op e, MPI_Comm f) { COUNT(ALLREDUCE); return PMPI_Allreduce(a, b, c, d, e, f); }
int MPI_Bcast(void *a, int b, MPI_Datatype c, int d, MPI_Comm e) { COUNT(BCAST); return PMPI_Bcast(a, b, c, d, e); }
int MPI_Win_fence(int a, MPI_Win w) { COUNT(FENCE); return PMPI_Win_fence(a, w); }
int MPI_Win_post(MPI_Group g, int a, MPI_Win w) { COUNT(WINPSCW); return PMPI_Win_post(g, a, w); }
int MPI_Win_start(MPI_Group g, int a, MPI_Win w) { COUNT(WINPSCW); return PMPI_Win_start(g, a, w); }
int MPI_Win_create(void *b, MPI_Aint s, int u, MPI_Info i, MPI_Comm c, MPI_Win *w) { COUNT(WINCREATE); return PMPI_Win_create(b, s, u, i, c, w); }
