/* The thin MPI-facing layer of rpncomm-windows (MPI transport), compiled with the MPI's own
 * compiler wrapper (mpicc). It hides every MPI handle behind an opaque pointer and every MPI
 * constant behind a small integer, so the Rust side (src/transport/mpi/) does not depend on
 * the handle ABI of Open MPI or MPICH.
 *
 * Every function returns 0 on success, an MPI error code (> 0, see rpnmpi_error_string), or one
 * of the RPNMPI_E_* codes below. No function aborts on an MPI error: the objects created here
 * carry MPI_ERRORS_RETURN. */
#ifndef RPNCOMM_MPI_SHIM_H
#define RPNCOMM_MPI_SHIM_H

#include <stddef.h>
#include <stdint.h>

#define RPNMPI_E_BAD_COMM   (-1)   /* not a valid (intra)communicator handle */
#define RPNMPI_E_INTERCOMM  (-2)   /* an intercommunicator: windows need an intracommunicator */
#define RPNMPI_E_NOMEM      (-3)
#define RPNMPI_E_BAD_ARG    (-4)   /* unknown datatype / operator / kind code */
#define RPNMPI_E_FINALIZED  (-5)   /* MPI was finalized by someone else */

/* datatype codes = ElementType::code(): 1 int32, 2 real32, 3 int64, 4 real64 */
/* operator codes = Operator::code(): 1 SUM 2 PROD 3 MIN 4 MAX 5 BAND 6 BOR 7 BXOR 8 LAND 9 LOR
 * 10 LXOR 11 REPLACE 12 NO_OP */

/* kinds of rpnmpi_rma */
#define RPNMPI_PUT     1
#define RPNMPI_GET     2
#define RPNMPI_ACC     3   /* MPI_Accumulate */
#define RPNMPI_GETACC  4   /* MPI_Get_accumulate (MPI_Fetch_and_op for one element) */

/* lock kinds of rpnmpi_rma */
#define RPNMPI_NO_LOCK    0   /* inside an active-mode epoch */
#define RPNMPI_SHARED     1
#define RPNMPI_EXCLUSIVE  2
#define RPNMPI_FLUSH      3   /* inside a lock_all epoch: no lock, MPI_Win_flush(target) after */
/* inside an active-mode epoch, a put made as MPI_Accumulate(MPI_REPLACE) and a get as
 * MPI_Get_accumulate(MPI_NO_OP) (same result): MPICH 4.0's ch4:ucx does not complete its
 * MPI_Put/MPI_Get between nodes at the fence or PSCW close that ends their epoch (the data
 * lands later), but does complete its accumulates there (src/transport/mpi/windows/window.rs) */
#define RPNMPI_ACTIVE_ACC 4

typedef struct rpnmpi_comm rpnmpi_comm;
typedef struct rpnmpi_win rpnmpi_win;

/* MPI_Init_thread asking for thread level `required` (0 SINGLE, 1 FUNNELED, 2 SERIALIZED,
 * 3 MULTIPLE) unless MPI is already initialised; *started = 1 if this call started it, 2 if it
 * started it and also allowed Open MPI 4's osc/pt2pt component, which the installed configuration
 * had excluded (the only one-sided path over TCP between nodes; see shim.c); *provided = the level
 * MPI gives (MPI_Query_thread when the program initialised it). Also makes a process that exits
 * with MPI initialised and not finalized call MPI_Abort (atexit), which ends the whole job on
 * every node. */
int rpnmpi_init(int required, int *started, int *provided);
/* Ends this rank with `status` after a fault it reported, without MPI_Abort's banner: exit (Open MPI's
 * mpirun ends the job), or on other MPIs MPI_Abort with this rank's stderr closed. Does not return. */
void rpnmpi_exit_quietly(int status);
/* MPI_Finalize (only call it when rpnmpi_init started MPI). */
int rpnmpi_finalize(void);
/* Text of an error code (MPI's or RPNMPI_E_*), NUL-terminated, truncated to len. */
void rpnmpi_error_string(int code, char *buf, int len);
/* Library name and version, e.g. "Open MPI v4.1.4 ..." (first line only). */
void rpnmpi_library_version(char *buf, int len);
/* Whether MPI_Get_library_version's whole text (all its lines) contains `word`. */
int rpnmpi_library_mentions(const char *word);

/* MPI_COMM_WORLD. */
int rpnmpi_comm_world(rpnmpi_comm **comm);
/* A Fortran communicator handle (MPI_Comm_f2c), validated: an intracommunicator of this job. */
int rpnmpi_comm_from_fortran(int fcomm, rpnmpi_comm **comm);
void rpnmpi_comm_release(rpnmpi_comm *comm);
/* Collective over parent (MPI_Comm_split): the ranks of one color >= 0 form a new communicator,
 * ranked by key; a negative color (MPI_UNDEFINED) gets none (*comm = NULL). */
int rpnmpi_comm_split(const rpnmpi_comm *parent, int color, int key, rpnmpi_comm **comm);
int rpnmpi_comm_rank_size(const rpnmpi_comm *comm, int *rank, int *size);
int rpnmpi_barrier(const rpnmpi_comm *comm);

/* Collective over comm: a window of `bytes` bytes with displacement unit `disp_unit`.
 * base != NULL: over the caller's memory (MPI_Win_create); base == NULL: memory MPI allocates
 * (MPI_Win_allocate), whose address is returned in *local. */
int rpnmpi_win_create(const rpnmpi_comm *comm, void *base, size_t bytes, int disp_unit,
                      void **local, rpnmpi_win **win);
/* Collective: MPI_Win_free, then releases *win and sets it to NULL. */
int rpnmpi_win_free(rpnmpi_win **win);

/* Active mode, fence: open = MPI_Win_fence(NOPRECEDE), close = MPI_Win_fence(NOSUCCEED). */
int rpnmpi_fence(rpnmpi_win *win, int closing);
/* Active mode, group: open = MPI_Win_post(from) then MPI_Win_start(to) (post first, so the
 * epoch cannot deadlock); close = MPI_Win_complete then MPI_Win_wait. Ranks are in the window's
 * communicator; an empty list skips its half. */
int rpnmpi_group_open(rpnmpi_win *win, const int *from, int nfrom, const int *to, int nto);
int rpnmpi_group_close(rpnmpi_win *win);
/* Makes this rank's local stores and the window's public copy agree (lock self, MPI_Win_sync,
 * unlock): used around passive-mode epochs and local initialisation. */
int rpnmpi_sync_self(rpnmpi_win *win, int rank);

/* One remote operation of `n` elements of `dtype` at element displacement `disp` of `target`.
 * lock != RPNMPI_NO_LOCK: the operation is its own passive-target epoch (lock, op, unlock) and
 * is complete at the target and at the origin on return. */
int rpnmpi_rma(rpnmpi_win *win, int kind, int lock, const void *src, void *result, int n,
               int dtype, int target, int64_t disp, int op);

/* One MPI_Compare_and_swap on the element at displacement `disp` of `target` (an integer
 * `dtype`): it becomes *value if it equals *compare; *result receives it from before. `lock` as
 * for rpnmpi_rma; the three buffers must stay valid until the operation completes. */
int rpnmpi_cas(rpnmpi_win *win, int lock, const void *value, const void *compare, void *result,
               int dtype, int target, int64_t disp);

/* Sub-array (3-D box) put or get (kind RPNMPI_PUT or RPNMPI_GET) as ONE MPI operation: the box
 * of extents count[3] at start lstart[3] of the local array `buf` of shape lshape[3], and at
 * tstart[3] of `target`'s window seen from element displacement `disp` as an array of shape
 * tshape[3] (Fortran order, 0-based starts, every count >= 1). Both sides are
 * MPI_Type_create_subarray types, freed once the operation is started (MPI keeps them alive until
 * it completes). `lock` as for rpnmpi_rma. */
int rpnmpi_rma_box(rpnmpi_win *win, int kind, int lock, void *buf, const int lshape[3], const int lstart[3],
                   const int count[3], int dtype, int target, int64_t disp, const int tshape[3],
                   const int tstart[3]);

/* Request/reply slot claim on an integer window (disp_unit 4): under an exclusive lock on
 * `target`, one MPI_Fetch_and_op(+1) on integer 0; if the old value was not in [1, limit) the
 * increment is taken back before the unlock, so nobody ever sees the counter out of range.
 * *old receives the old value. */
int rpnmpi_bounded_increment(rpnmpi_win *win, int target, int limit, int *old);

/* Node-aware data path: the ranks of `comm` on this rank's node, a new communicator ranked in
 * `comm`'s order (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)); release it with rpnmpi_comm_release. split > 0 is a testing knob: the node's ranks are
 * cut into pretend nodes of `split` consecutive node ranks (node = floor(node rank / split)).
 * Collective over comm. */
int rpnmpi_node_comm(const rpnmpi_comm *comm, int split, rpnmpi_comm **node);

/* Lets MPI progress (one MPI_Iprobe on MPI_COMM_SELF; nothing once MPI is finalized): called
 * while a PE waits in shared memory, where PEs of other nodes may need it to act inside MPI. */
int rpnmpi_progress(void);

/* Emulated logical accumulates (Open MPI 4.1's osc/rdma drops MPI_LAND/LOR/LXOR): a passive-target
 * epoch held across several operations (rpnmpi_rma with RPNMPI_NO_LOCK in between). */
int rpnmpi_lock(rpnmpi_win *win, int exclusive, int target);
int rpnmpi_unlock(rpnmpi_win *win, int target);
int rpnmpi_flush(rpnmpi_win *win, int target);
/* A shared lock on every rank held across operations (MPI_Win_lock_all with MPI_MODE_NOCHECK:
 * nobody takes an exclusive lock on that window), for rpnmpi_rma with RPNMPI_FLUSH. */
int rpnmpi_lock_all(rpnmpi_win *win);
int rpnmpi_unlock_all(rpnmpi_win *win);
/* Whether `win` has the unified memory model (*unified = 1): there, inside a lock_all epoch,
 * MPI_Win_sync makes the operations other ranks completed on this rank's memory visible to its
 * loads (MPI-3.1 11.4). */
int rpnmpi_win_unified(rpnmpi_win *win, int *unified);
int rpnmpi_win_sync(rpnmpi_win *win);

/* Point-to-point channels (src/transport/mpi/channels/channel.rs): messages of `bytes` bytes on `comm`.
 * rpnmpi_chan_isend: MPI_Isend; *req is completed by rpnmpi_test (*done = 1, *req freed and NULL) or
 * given up by rpnmpi_request_free (MPI_Request_free: the send still completes). rpnmpi_iprobe: is
 * a message from `src` with `tag` there (*found), of *bytes bytes; rpnmpi_chan_recv then takes it. */
typedef struct rpnmpi_req rpnmpi_req;
int rpnmpi_chan_isend(const rpnmpi_comm *comm, const void *buf, int bytes, int dest, int tag, rpnmpi_req **req);
int rpnmpi_test(rpnmpi_req **req, int *done);
/* MPI_Iallgather of `bytes` bytes per rank, completed by rpnmpi_test (the agreement's allgather:
 * waited on by tests that yield, src/transport/mpi/wait.rs). */
int rpnmpi_iallgather(const rpnmpi_comm *comm, const void *mine, void *all, int bytes, rpnmpi_req **req);
int rpnmpi_request_free(rpnmpi_req **req);
int rpnmpi_iprobe(const rpnmpi_comm *comm, int src, int tag, int *found, int *bytes);
int rpnmpi_chan_recv(const rpnmpi_comm *comm, void *buf, int bytes, int src, int tag);
/* rpnmpi_chan_irecv: MPI_Irecv of at most `bytes` bytes, posted before the message comes;
 * rpnmpi_chan_test_recv: whether it came (*done; then *req is freed and NULL), its length (*bytes),
 * or *truncated = 1 when the message was longer than `bytes` (its first `bytes` bytes are in buf);
 * rpnmpi_chan_cancel: cancels a receive still posted (at finalize) and frees it. */
int rpnmpi_chan_irecv(const rpnmpi_comm *comm, void *buf, int bytes, int src, int tag, rpnmpi_req **req);
int rpnmpi_chan_test_recv(rpnmpi_req **req, int *done, int *bytes, int *truncated);
int rpnmpi_chan_cancel(rpnmpi_req **req);
/* ---- The MPI-facing routines GEM calls (src/transport/mpi/p2p.rs) ---------------------------
 * Real MPI handles for the caller's own MPI calls: communicators, datatypes and requests as Fortran
 * integers (MPI_Comm_c2f, MPI_Type_c2f, MPI_Request_c2f). `fcomm` arguments are Fortran
 * communicator handles; `code` is a datatype code of rpnmpi_type_f's table (runtime/p2p/mpi_handles.rs). */
int rpnmpi_comm_c2f(const rpnmpi_comm *comm);
int rpnmpi_comm_null_f(void);
/* RPN_COMM_split_by_socket: node, socket (node cut into `spaces` parts) and peer communicators of
 * the Fortran communicator `forig`, out[7] = their handles, node rank, socket rank, peer rank,
 * socket size */
int rpnmpi_split_by_socket_f(int forig, int spaces, int *out);
void rpnmpi_world_set_f(int fcomm);
int rpnmpi_world_get_f(void);
int rpnmpi_split_by_node_f(int forig, int split, int *out);
int rpnmpi_comm_rank_size_f(int fcomm, int *rank, int *size);
int rpnmpi_comm_group_f(int fcomm, int *fgroup);
int rpnmpi_group_member_f(int fgroup, int *member);
int rpnmpi_group_null_f(void);
int rpnmpi_info_null_f(void);
int rpnmpi_win_null_f(void);
int rpnmpi_status_size_f(void);
int rpnmpi_type_extent_f(int ftype, long long *extent);
/* Conversions between the Fortran and C handles of an MPI object of kind `kind` (0 datatype,
 * 1 file, 2 group, 3 info, 4 operator, 5 request, 6 window, 7 communicator): *c receives the C
 * handle of the Fortran handle `f`, its bits in an integer (a pointer, or MPICH's int,
 * zero-extended); *f the Fortran handle of such bits. RPNMPI_E_BAD_ARG for another kind. */
int rpnmpi_handle_f2c(int kind, int f, long long *c);
int rpnmpi_handle_c2f(int kind, long long c, int *f);
/* *ftype = the Fortran handle of the MPI datatype of `code` (RPNMPI_E_BAD_ARG for no such code) */
int rpnmpi_type_f(int code, int *ftype);
/* the Fortran handle of the operator of `code` (rpnmpi_rma's codes, 0: MPI_OP_NULL) */
int rpnmpi_op_f(int code, int *fop);
int rpnmpi_send(const void *buf, int count, int code, int dest, int tag, int fcomm);
/* *received = the number of elements received (MPI_Get_count) */
int rpnmpi_recv(void *buf, int count, int code, int source, int tag, int fcomm, int *received);
/* *freq = the Fortran handle of the request */
int rpnmpi_isend(const void *buf, int count, int code, int dest, int tag, int fcomm, int *freq);
int rpnmpi_irecv(void *buf, int count, int code, int source, int tag, int fcomm, int *freq);
/* MPI_Waitall on n Fortran request handles (set to MPI_REQUEST_NULL's as they complete) */
int rpnmpi_waitall(int n, int *freqs);
/* MPI_Testall: *done = 1 when every request completed (then as rpnmpi_waitall) */
int rpnmpi_testall(int n, int *freqs, int *done);
/* MPI_Test of a receive's Fortran request: *done = 1 when complete, *received = its element count */
int rpnmpi_test_count(int *freq, int code, int *done, int *received);
/* MPI_Reduce of n elements (datatype: its code in the original's table, as rpnmpi_type_f's;
 * operator codes as rpnmpi_rma's, MAXLOC and MINLOC added; not REPLACE or NO_OP) into
 * `result` on `root`; MPI_Igather of `bytes` bytes per rank into `all` on `root` (completed by rpnmpi_test) */
int rpnmpi_reduce(const rpnmpi_comm *comm, const void *mine, void *result, int n, int dtype, int op, int root);
int rpnmpi_igather(const rpnmpi_comm *comm, const void *mine, void *all, int bytes, int root, rpnmpi_req **req);
/* MPI_Allreduce of n elements (codes as rpnmpi_reduce's) into `result` on every rank */
int rpnmpi_allreduce(const rpnmpi_comm *comm, const void *mine, void *result, int n, int dtype, int op);
/* MPI_Bcast of `bytes` bytes from `root` */
int rpnmpi_bcast(const rpnmpi_comm *comm, void *buffer, int bytes, int root);
/* MPI_Igatherv and MPI_Iscatterv of byte counts and displacements (read on the root only; completed
 * by rpnmpi_test) */
int rpnmpi_igatherv(const rpnmpi_comm *comm, const void *mine, int bytes, void *all, const int *counts,
                    const int *displs, int root, rpnmpi_req **req);
int rpnmpi_iscatterv(const rpnmpi_comm *comm, const void *send, const int *counts, const int *displs,
                     void *recv, int bytes, int root, rpnmpi_req **req);
/* MPI_Ialltoall of `bytes` bytes per rank (completed by rpnmpi_test); MPI_Alltoallv of byte counts */
int rpnmpi_ialltoall(const rpnmpi_comm *comm, const void *send, void *recv, int bytes, rpnmpi_req **req);
int rpnmpi_alltoallv(const rpnmpi_comm *comm, const void *send, const int *scounts, const int *sdispls,
                     void *recv, const int *rcounts, const int *rdispls);
/* MPI_Finalize unless MPI is finalized already (RPN_COMM_finalize, as the original: whoever
 * initialised MPI) */
int rpnmpi_finalize_once(void);

#endif
