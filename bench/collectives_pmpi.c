/* collectives_pmpi.c -- counts the MPI collectives a program makes between
 * collectives_count_start() and collectives_count_stop(n) (bench/collectives_count.F90, part 2
 * of bench/collectives.sh). Linked into the program, its definitions take the place of the MPI
 * library's for every caller in the executable and pass on to the PMPI_ entry points:
 *   - the C functions (this library's MPI shim calls them; so do MPICH's Fortran bindings), and
 *   - the Fortran bindings mpi_<name>_ (the original RPN_COMM calls them; Open MPI's pass on to
 *     PMPI_<Name>, not to MPI_<Name>, so the C wrappers alone would not see them). A Fortran call
 *     sets `in_fortran` so that a C wrapper it reaches (MPICH) does not count it twice.
 * Counted: MPI_Allreduce, MPI_Allgather, MPI_Iallgather, MPI_Bcast, MPI_Barrier, MPI_Reduce,
 * MPI_Gather, MPI_Igather (calls, and the bytes of the call's own contribution: count x type size
 * of the send buffer, of the buffer for MPI_Bcast whatever the rank), and, from C only,
 * MPI_Gatherv, MPI_Igatherv, MPI_Scatterv, MPI_Iscatterv (the bytes received: the blocks differ on
 * the root), MPI_Alltoall, MPI_Ialltoall, MPI_Alltoallv (calls only) and the
 * point-to-point and one-sided calls a library may make instead (MPI_Send, MPI_Isend, MPI_Recv,
 * MPI_Irecv, MPI_Put, MPI_Get, MPI_Accumulate, MPI_Win_fence, MPI_Win_sync, MPI_Win_flush), so that
 * an allreduce made without any collective still shows what it cost.
 * collectives_count_stop(n) ends the count and prints, from rank 0 of MPI_COMM_WORLD, one line
 * per function called by any rank:
 *   COUNT <ranks> <function> <calls per op: min mean max over ranks> <bytes per op: min mean max>
 * where an op is one of the n operations the program made between the markers. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum {
    ALLREDUCE, ALLGATHER, IALLGATHER, BCAST, BARRIER, REDUCE, GATHER, IGATHER,
    GATHERV, IGATHERV, SCATTERV, ISCATTERV, ALLTOALL, IALLTOALL, ALLTOALLV,
    SEND, ISEND, RECV, IRECV, PUT, GET, ACCUMULATE, WIN_FENCE, WIN_SYNC, WIN_FLUSH, NFUNC
};
static const char *names[NFUNC] = {
    "MPI_Allreduce", "MPI_Allgather", "MPI_Iallgather", "MPI_Bcast", "MPI_Barrier", "MPI_Reduce",
    "MPI_Gather", "MPI_Igather", "MPI_Gatherv", "MPI_Igatherv", "MPI_Scatterv", "MPI_Iscatterv",
    "MPI_Alltoall", "MPI_Ialltoall", "MPI_Alltoallv", "MPI_Send", "MPI_Isend", "MPI_Recv", "MPI_Irecv", "MPI_Put",
    "MPI_Get", "MPI_Accumulate", "MPI_Win_fence", "MPI_Win_sync", "MPI_Win_flush"
};
static long long calls[NFUNC], bytes[NFUNC];
static int on;
static _Thread_local int in_fortran;

static void note(int k, long long n, MPI_Datatype t) {
    int size = 0;
    if (!on || in_fortran) return;
    calls[k]++;
    if (n > 0 && t != MPI_DATATYPE_NULL && PMPI_Type_size(t, &size) == MPI_SUCCESS) bytes[k] += n * size;
}

void collectives_count_start(void) {
    memset(calls, 0, sizeof calls);
    memset(bytes, 0, sizeof bytes);
    on = 1;
}

void collectives_count_stop(const int *nops) {
    long long mine[2 * NFUNC], lo[2 * NFUNC], hi[2 * NFUNC], sum[2 * NFUNC];
    int rank = 0, size = 1, k, n = *nops > 0 ? *nops : 1;
    on = 0;
    memcpy(mine, calls, sizeof calls);
    memcpy(mine + NFUNC, bytes, sizeof bytes);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Reduce(mine, lo, 2 * NFUNC, MPI_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    PMPI_Reduce(mine, hi, 2 * NFUNC, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    PMPI_Reduce(mine, sum, 2 * NFUNC, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0) return;
    for (k = 0; k < NFUNC; k++) {
        if (hi[k] == 0) continue;
        printf("COUNT %d %s %.2f %.2f %.2f %.1f %.1f %.1f\n", size, names[k], (double)lo[k] / n,
               (double)sum[k] / n / size, (double)hi[k] / n, (double)lo[NFUNC + k] / n,
               (double)sum[NFUNC + k] / n / size, (double)hi[NFUNC + k] / n);
    }
    printf("COUNT %d end\n", size);
    fflush(stdout);
}

/* the Fortran names of the markers (gfortran, -fno-second-underscore or not) */
void collectives_count_start_(void) { collectives_count_start(); }
void collectives_count_stop_(const int *nops) { collectives_count_stop(nops); }

/* C */
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
    note(ALLREDUCE, n, t);
    return PMPI_Allreduce(s, r, n, t, o, c);
}
int MPI_Allgather(const void *s, int n, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, MPI_Comm c) {
    note(ALLGATHER, n, t);
    return PMPI_Allgather(s, n, t, r, rn, rt, c);
}
int MPI_Iallgather(const void *s, int n, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, MPI_Comm c, MPI_Request *q) {
    note(IALLGATHER, n, t);
    return PMPI_Iallgather(s, n, t, r, rn, rt, c, q);
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
    note(BCAST, n, t);
    return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Barrier(MPI_Comm c) {
    note(BARRIER, 0, MPI_DATATYPE_NULL);
    return PMPI_Barrier(c);
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) {
    note(REDUCE, n, t);
    return PMPI_Reduce(s, r, n, t, o, root, c);
}
int MPI_Gather(const void *s, int n, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
    note(GATHER, n, t);
    return PMPI_Gather(s, n, t, r, rn, rt, root, c);
}
int MPI_Igather(const void *s, int n, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *q) {
    note(IGATHER, n, t);
    return PMPI_Igather(s, n, t, r, rn, rt, root, c, q);
}
int MPI_Gatherv(const void *s, int n, MPI_Datatype t, void *r, const int *rn, const int *rd, MPI_Datatype rt, int root, MPI_Comm c) {
    note(GATHERV, n, t);
    return PMPI_Gatherv(s, n, t, r, rn, rd, rt, root, c);
}
int MPI_Igatherv(const void *s, int n, MPI_Datatype t, void *r, const int *rn, const int *rd, MPI_Datatype rt, int root, MPI_Comm c,
                 MPI_Request *q) {
    note(IGATHERV, n, t);
    return PMPI_Igatherv(s, n, t, r, rn, rd, rt, root, c, q);
}
int MPI_Scatterv(const void *s, const int *sn, const int *sd, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
    note(SCATTERV, rn, rt);
    return PMPI_Scatterv(s, sn, sd, t, r, rn, rt, root, c);
}
int MPI_Iscatterv(const void *s, const int *sn, const int *sd, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c,
                  MPI_Request *q) {
    note(ISCATTERV, rn, rt);
    return PMPI_Iscatterv(s, sn, sd, t, r, rn, rt, root, c, q);
}
int MPI_Alltoall(const void *s, int n, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, MPI_Comm c) {
    note(ALLTOALL, 0, MPI_DATATYPE_NULL);
    return PMPI_Alltoall(s, n, t, r, rn, rt, c);
}
int MPI_Ialltoall(const void *s, int n, MPI_Datatype t, void *r, int rn, MPI_Datatype rt, MPI_Comm c, MPI_Request *q) {
    note(IALLTOALL, 0, MPI_DATATYPE_NULL);
    return PMPI_Ialltoall(s, n, t, r, rn, rt, c, q);
}
int MPI_Alltoallv(const void *s, const int *sn, const int *sd, MPI_Datatype t, void *r, const int *rn, const int *rd, MPI_Datatype rt,
                  MPI_Comm c) {
    note(ALLTOALLV, 0, MPI_DATATYPE_NULL);
    return PMPI_Alltoallv(s, sn, sd, t, r, rn, rd, rt, c);
}
int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
    note(SEND, n, t);
    return PMPI_Send(b, n, t, d, tag, c);
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request *q) {
    note(ISEND, n, t);
    return PMPI_Isend(b, n, t, d, tag, c, q);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Status *st) {
    note(RECV, 0, MPI_DATATYPE_NULL);
    return PMPI_Recv(b, n, t, s, tag, c, st);
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Request *q) {
    note(IRECV, 0, MPI_DATATYPE_NULL);
    return PMPI_Irecv(b, n, t, s, tag, c, q);
}
int MPI_Put(const void *b, int n, MPI_Datatype t, int d, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win w) {
    note(PUT, n, t);
    return PMPI_Put(b, n, t, d, disp, tn, tt, w);
}
int MPI_Get(void *b, int n, MPI_Datatype t, int d, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win w) {
    note(GET, 0, MPI_DATATYPE_NULL);
    return PMPI_Get(b, n, t, d, disp, tn, tt, w);
}
int MPI_Accumulate(const void *b, int n, MPI_Datatype t, int d, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Op o, MPI_Win w) {
    note(ACCUMULATE, n, t);
    return PMPI_Accumulate(b, n, t, d, disp, tn, tt, o, w);
}
int MPI_Win_fence(int a, MPI_Win w) {
    note(WIN_FENCE, 0, MPI_DATATYPE_NULL);
    return PMPI_Win_fence(a, w);
}
int MPI_Win_sync(MPI_Win w) {
    note(WIN_SYNC, 0, MPI_DATATYPE_NULL);
    return PMPI_Win_sync(w);
}
int MPI_Win_flush(int r, MPI_Win w) {
    note(WIN_FLUSH, 0, MPI_DATATYPE_NULL);
    return PMPI_Win_flush(r, w);
}

/* Fortran (mpif.h / use mpi): the handles are MPI_Fint, passed on to the MPI library's own
 * pmpi_<name>_ binding */
#define FNOTE(k, n, t) do { if (on) { calls[k]++; bytes_of(k, n, t); } } while (0)
static void bytes_of(int k, const MPI_Fint *n, const MPI_Fint *t) {
    int size = 0;
    if (*n > 0 && PMPI_Type_size(MPI_Type_f2c(*t), &size) == MPI_SUCCESS) bytes[k] += (long long)*n * size;
}
void pmpi_allreduce_(void *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void pmpi_allgather_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void pmpi_iallgather_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void pmpi_bcast_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void pmpi_barrier_(MPI_Fint *, MPI_Fint *);
void pmpi_reduce_(void *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void pmpi_gather_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void pmpi_igather_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

void mpi_allreduce_(void *s, void *r, MPI_Fint *n, MPI_Fint *t, MPI_Fint *o, MPI_Fint *c, MPI_Fint *e) {
    FNOTE(ALLREDUCE, n, t);
    in_fortran++; pmpi_allreduce_(s, r, n, t, o, c, e); in_fortran--;
}
void mpi_allgather_(void *s, MPI_Fint *n, MPI_Fint *t, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *c, MPI_Fint *e) {
    FNOTE(ALLGATHER, n, t);
    in_fortran++; pmpi_allgather_(s, n, t, r, rn, rt, c, e); in_fortran--;
}
void mpi_iallgather_(void *s, MPI_Fint *n, MPI_Fint *t, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *c, MPI_Fint *q, MPI_Fint *e) {
    FNOTE(IALLGATHER, n, t);
    in_fortran++; pmpi_iallgather_(s, n, t, r, rn, rt, c, q, e); in_fortran--;
}
void mpi_bcast_(void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *root, MPI_Fint *c, MPI_Fint *e) {
    FNOTE(BCAST, n, t);
    in_fortran++; pmpi_bcast_(b, n, t, root, c, e); in_fortran--;
}
void mpi_barrier_(MPI_Fint *c, MPI_Fint *e) {
    if (on) calls[BARRIER]++;
    in_fortran++; pmpi_barrier_(c, e); in_fortran--;
}
void mpi_reduce_(void *s, void *r, MPI_Fint *n, MPI_Fint *t, MPI_Fint *o, MPI_Fint *root, MPI_Fint *c, MPI_Fint *e) {
    FNOTE(REDUCE, n, t);
    in_fortran++; pmpi_reduce_(s, r, n, t, o, root, c, e); in_fortran--;
}
void mpi_gather_(void *s, MPI_Fint *n, MPI_Fint *t, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *root, MPI_Fint *c, MPI_Fint *e) {
    FNOTE(GATHER, n, t);
    in_fortran++; pmpi_gather_(s, n, t, r, rn, rt, root, c, e); in_fortran--;
}
void mpi_igather_(void *s, MPI_Fint *n, MPI_Fint *t, void *r, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *root, MPI_Fint *c, MPI_Fint *q, MPI_Fint *e) {
    FNOTE(IGATHER, n, t);
    in_fortran++; pmpi_igather_(s, n, t, r, rn, rt, root, c, q, e); in_fortran--;
}
