/* rpncomm-windows MPI transport: the thin MPI-facing layer (see rpncomm_mpi_shim.h).
 * Compiled per MPI with its wrapper (mpicc.openmpi, mpicc.mpich, ...) by build.rs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "rpncomm_mpi_shim.h"

struct rpnmpi_comm {
    MPI_Comm comm;
    int owned;          /* 1: a duplicate made here (freed on release); 0: the caller's */
};

struct rpnmpi_win {
    MPI_Win win;
    int posted;         /* group mode: MPI_Win_post / MPI_Win_start done at open */
    int started;
    int locked_all;     /* in a lock_all epoch (rpnmpi_lock_all), ended by rpnmpi_win_free at the latest */
    struct cached_group { int *ranks, n; MPI_Group group; } from, to;   /* of the last group epoch */
};

static void forget_group(struct cached_group *c);

static MPI_Datatype datatype_of(int code) {
    switch (code) {
    case 1: return MPI_INT32_T;    /* C integer types: every operator applies (LAND ...) */
    case 2: return MPI_FLOAT;
    case 3: return MPI_INT64_T;
    case 4: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;
    }
}

static MPI_Op op_of(int code) {
    switch (code) {
    case 1: return MPI_SUM;
    case 2: return MPI_PROD;
    case 3: return MPI_MIN;
    case 4: return MPI_MAX;
    case 5: return MPI_BAND;
    case 6: return MPI_BOR;
    case 7: return MPI_BXOR;
    case 8: return MPI_LAND;
    case 9: return MPI_LOR;
    case 10: return MPI_LXOR;
    case 11: return MPI_REPLACE;
    case 12: return MPI_NO_OP;
    case 13: return MPI_MAXLOC;
    case 14: return MPI_MINLOC;
    default: return MPI_OP_NULL;
    }
}

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
/* Open MPI 4 between nodes without RDMA hardware (TCP): osc/rdma has no path and only osc/pt2pt
 * can make windows, but Debian's openmpi-mca-params.conf excludes it ("osc = ^ucx,pt2pt"), so
 * every window creation fails with MPI_ERR_WIN. Before MPI_Init, when the user chose nothing
 * (no OMPI_MCA_osc in the environment, which is also what `mpirun --mca osc` sets), read the
 * configured exclusion list through MPI_T and take pt2pt off it through OMPI_MCA_osc: pt2pt has
 * the lowest priority, so it is only used where sm, rdma and ucx cannot make the window.
 * An inclusion list (someone chose components) is left as it is. *osc_set = 1 when changed. */
static void allow_osc_pt2pt(int *osc_set) {
    int provided = 0, index = 0, count = 0, len = 0;
    MPI_T_cvar_handle handle;
    char *value = NULL, *kept = NULL, *item, *save = NULL;
    *osc_set = 0;
    if (getenv("OMPI_MCA_osc")) return;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return;
    if (MPI_T_cvar_get_index("osc", &index) == MPI_SUCCESS &&
        MPI_T_cvar_handle_alloc(index, NULL, &handle, &count) == MPI_SUCCESS) {
        value = calloc((size_t)count + 2, 1);
        kept = calloc((size_t)count + 2, 1);
        if (value && kept && MPI_T_cvar_read(handle, value) == MPI_SUCCESS && value[0] == '^' &&
            strstr(value, "pt2pt")) {
            for (item = strtok_r(value + 1, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
                if (strcmp(item, "pt2pt") == 0 || item[0] == '\0') continue;
                len += snprintf(kept + len, (size_t)count + 2 - (size_t)len, "%s%s", len ? "," : "^", item);
            }
            /* "^" alone would be an error: an empty value selects every component */
            if (setenv("OMPI_MCA_osc", kept, 1) == 0) *osc_set = 1;
        }
        MPI_T_cvar_handle_free(&handle);
    }
    free(value);
    free(kept);
    MPI_T_finalize();
}
#endif

/* atexit: a PE that leaves (exit, Fortran STOP or ERROR STOP) with MPI initialised and not
 * finalized is a PE gone in the middle of the job. Open MPI ends the job then, but MPICH's hydra
 * does not when that PE is on another node than some others (it ends only the PEs of that node):
 * the rest would wait for it forever. MPI_Abort ends the whole job, on every node. */
static int leaving_quietly = 0;

static void abort_unless_finalized(void) {
    int initialized = 0, finalized = 0, rank = -1;
    if (leaving_quietly) return;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) return;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "RPN_COMM: PE %d: the program ends without MPI_Finalize (RPN_COMM_finalize): MPI_Abort ends the job\n", rank);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* A PE that found a fault (a refused halo exchange: it printed why) ends with `status` without
 * MPI_Abort's banner. Open MPI's mpirun ends the whole job when a rank exits non-zero. MPICH's
 * hydra ends only the ranks of that rank's node, so there MPI_Abort still ends the job, its own
 * line silenced (this rank's stderr closed first). */
void rpnmpi_exit_quietly(int status) {
    fflush(NULL);
#if defined(OPEN_MPI)
    leaving_quietly = 1;
    exit(status);
#else
    {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 2);
        MPI_Abort(MPI_COMM_WORLD, status);
        exit(status);
    }
#endif
}

static const int thread_levels[4] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};

static int level_code(int level) {
    int i;
    for (i = 3; i > 0; i--)
        if (level == thread_levels[i]) return i;
    return 0;
}

int rpnmpi_init(int required, int *started, int *provided) {
    static int exit_watched = 0;
    int flag = 0, level = MPI_THREAD_SINGLE, rc, osc_set = 0;
    *started = 0;
    *provided = 0;
    if (required < 0 || required > 3) return RPNMPI_E_BAD_ARG;
    MPI_Finalized(&flag);
    if (flag) return RPNMPI_E_FINALIZED;
    if (!exit_watched && atexit(abort_unless_finalized) == 0) exit_watched = 1;
    MPI_Initialized(&flag);
    if (flag) {
        rc = MPI_Query_thread(&level);
    } else {
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
        allow_osc_pt2pt(&osc_set);
#endif
        rc = MPI_Init_thread(NULL, NULL, thread_levels[required], &level);
        if (rc == MPI_SUCCESS) *started = osc_set ? 2 : 1;
    }
    *provided = level_code(level);
    return rc;
}

int rpnmpi_finalize(void) {
    return MPI_Finalize();
}

void rpnmpi_error_string(int code, char *buf, int len) {
    const char *text = NULL;
    int n = 0;
    char mpi_text[MPI_MAX_ERROR_STRING];
    if (len <= 0) return;
    switch (code) {
    case RPNMPI_E_BAD_COMM: text = "not a valid MPI communicator handle"; break;
    case RPNMPI_E_INTERCOMM: text = "an intercommunicator (windows need an intracommunicator)"; break;
    case RPNMPI_E_NOMEM: text = "out of memory"; break;
    case RPNMPI_E_BAD_ARG: text = "bad datatype, operator or operation code"; break;
    case RPNMPI_E_FINALIZED: text = "MPI was already finalized"; break;
    default:
        if (MPI_Error_string(code, mpi_text, &n) == MPI_SUCCESS) {
            mpi_text[n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1] = '\0';
            text = mpi_text;
        } else {
            text = "unknown MPI error";
        }
    }
    strncpy(buf, text, (size_t)len - 1);
    buf[len - 1] = '\0';
}

void rpnmpi_library_version(char *buf, int len) {
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    char *nl;
    if (len <= 0) return;
    if (MPI_Get_library_version(v, &n) != MPI_SUCCESS) n = 0;
    v[n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    nl = strchr(v, '\n');
    if (nl) *nl = '\0';
    strncpy(buf, v, (size_t)len - 1);
    buf[len - 1] = '\0';
}

int rpnmpi_library_mentions(const char *word) {
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    if (MPI_Get_library_version(v, &n) != MPI_SUCCESS) return 0;
    v[n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    return strstr(v, word) != NULL;
}

/* RPN_COMM_world_set: the communicator the job is made of when the library starts (unset:
 * MPI_COMM_WORLD). A Fortran handle, as the caller gave it. */
static int world_is_set = 0;
static MPI_Fint world_f = 0;

void rpnmpi_world_set_f(int fcomm) {
    world_f = (MPI_Fint)fcomm;
    world_is_set = 1;
}

int rpnmpi_world_get_f(void) {
    return world_is_set ? (int)world_f : (int)MPI_Comm_c2f(MPI_COMM_WORLD);
}

int rpnmpi_comm_world(rpnmpi_comm **out) {
    rpnmpi_comm *c = malloc(sizeof *c);
    int rc;
    if (!c) return RPNMPI_E_NOMEM;
    /* Our own duplicate: our collectives never match the caller's, and its errors return. */
    rc = MPI_Comm_dup(world_is_set ? MPI_Comm_f2c(world_f) : MPI_COMM_WORLD, &c->comm);
    if (rc != MPI_SUCCESS) { free(c); return rc; }
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    c->owned = 1;
    *out = c;
    return MPI_SUCCESS;
}

int rpnmpi_comm_from_fortran(int fcomm, rpnmpi_comm **out) {
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)fcomm);
    MPI_Errhandler saved;
    int inter = 0, rc;
    rpnmpi_comm *c;
    /* Open MPI returns a null pointer for an index outside its table */
    if (comm == (MPI_Comm)0 || comm == MPI_COMM_NULL) return RPNMPI_E_BAD_COMM;
    /* An invalid handle is reported through MPI_COMM_WORLD's error handler (fatal by default):
     * make it return for the one call that validates the handle. */
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Comm_test_inter(comm, &inter);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
    MPI_Errhandler_free(&saved);
    if (rc != MPI_SUCCESS) return RPNMPI_E_BAD_COMM;
    if (inter) return RPNMPI_E_INTERCOMM;
    c = malloc(sizeof *c);
    if (!c) return RPNMPI_E_NOMEM;
    /* Not duplicated: wrapping is a local call, and MPI_Comm_dup would make it collective.
     * Our collectives on it (barrier, allgather, window creation) come in program order. */
    c->comm = comm;
    c->owned = 0;
    *out = c;
    return MPI_SUCCESS;
}

void rpnmpi_comm_release(rpnmpi_comm *c) {
    int finalized = 0;
    if (!c) return;
    MPI_Finalized(&finalized);
    if (c->owned && !finalized) MPI_Comm_free(&c->comm);
    free(c);
}

int rpnmpi_comm_split(const rpnmpi_comm *parent, int color, int key, rpnmpi_comm **out) {
    rpnmpi_comm *c = malloc(sizeof *c);
    MPI_Comm comm = MPI_COMM_NULL;
    int rc;
    *out = NULL;
    if (!c) return RPNMPI_E_NOMEM;
    rc = MPI_Comm_split(parent->comm, color < 0 ? MPI_UNDEFINED : color, key, &comm);
    if (rc != MPI_SUCCESS || comm == MPI_COMM_NULL) { free(c); return rc; }
    /* Errors on it return, as on our duplicate of MPI_COMM_WORLD it comes from. */
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    c->comm = comm;
    c->owned = 1;
    *out = c;
    return MPI_SUCCESS;
}

int rpnmpi_comm_rank_size(const rpnmpi_comm *c, int *rank, int *size) {
    int rc = MPI_Comm_rank(c->comm, rank);
    return rc != MPI_SUCCESS ? rc : MPI_Comm_size(c->comm, size);
}

int rpnmpi_barrier(const rpnmpi_comm *c) {
    return MPI_Barrier(c->comm);
}

int rpnmpi_win_create(const rpnmpi_comm *c, void *base, size_t bytes, int disp_unit,
                      void **local, rpnmpi_win **out) {
    rpnmpi_win *w = calloc(1, sizeof *w);
    MPI_Errhandler saved;
    int rc;
    if (!w) return RPNMPI_E_NOMEM;
    /* A failed creation is reported on the communicator, which may be the caller's (fatal by
     * default): make it return for this call. */
    MPI_Comm_get_errhandler(c->comm, &saved);
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    if (base) {
        rc = MPI_Win_create(base, (MPI_Aint)bytes, disp_unit, MPI_INFO_NULL, c->comm, &w->win);
        *local = base;
    } else {
        void *mem = NULL;
        rc = MPI_Win_allocate((MPI_Aint)bytes, disp_unit, MPI_INFO_NULL, c->comm, &mem, &w->win);
        *local = mem;
    }
    MPI_Comm_set_errhandler(c->comm, saved);
    MPI_Errhandler_free(&saved);
    if (rc != MPI_SUCCESS) { free(w); return rc; }
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
    *out = w;
    return MPI_SUCCESS;
}

int rpnmpi_win_free(rpnmpi_win **w) {
    int rc;
    if (!w || !*w) return MPI_SUCCESS;
    if ((*w)->locked_all) rpnmpi_unlock_all(*w);
    forget_group(&(*w)->from);
    forget_group(&(*w)->to);
    rc = MPI_Win_free(&(*w)->win);
    free(*w);
    *w = NULL;
    return rc;
}

int rpnmpi_fence(rpnmpi_win *w, int closing) {
    return MPI_Win_fence(closing ? MPI_MODE_NOSUCCEED : MPI_MODE_NOPRECEDE, w->win);
}

/* The MPI group of `ranks` of the window, from the cache when the last group epoch had the same
 * (a program runs its epochs with the same groups, and building one is MPI_Win_get_group +
 * MPI_Group_incl + MPI_Group_free per epoch and side, a quarter of a PSCW epoch's cost). */
static int group_of(MPI_Win win, struct cached_group *c, const int *ranks, int n, MPI_Group *out) {
    MPI_Group all;
    int rc;
    if (c->ranks && c->n == n && memcmp(c->ranks, ranks, n * sizeof *ranks) == 0) {
        *out = c->group;
        return MPI_SUCCESS;
    }
    if ((rc = MPI_Win_get_group(win, &all)) != MPI_SUCCESS) return rc;
    rc = MPI_Group_incl(all, n, ranks, out);
    MPI_Group_free(&all);
    if (rc != MPI_SUCCESS) return rc;
    int *copy = malloc(n * sizeof *ranks);
    if (!copy) {
        MPI_Group_free(out);
        return RPNMPI_E_NOMEM;
    }
    memcpy(copy, ranks, n * sizeof *ranks);
    if (c->ranks) {
        free(c->ranks);
        MPI_Group_free(&c->group);
    }
    c->ranks = copy;
    c->n = n;
    c->group = *out;
    return MPI_SUCCESS;
}

static void forget_group(struct cached_group *c) {
    if (!c->ranks) return;
    free(c->ranks);
    MPI_Group_free(&c->group);
    c->ranks = NULL;
}

int rpnmpi_group_open(rpnmpi_win *w, const int *from, int nfrom, const int *to, int nto) {
    MPI_Group g;
    int rc;
    w->posted = w->started = 0;
    if (nfrom > 0) {
        if ((rc = group_of(w->win, &w->from, from, nfrom, &g)) != MPI_SUCCESS) return rc;
        if ((rc = MPI_Win_post(g, 0, w->win)) != MPI_SUCCESS) return rc;
        w->posted = 1;
    }
    if (nto > 0) {
        if ((rc = group_of(w->win, &w->to, to, nto, &g)) != MPI_SUCCESS) return rc;
        if ((rc = MPI_Win_start(g, 0, w->win)) != MPI_SUCCESS) return rc;
        w->started = 1;
    }
    return MPI_SUCCESS;
}

int rpnmpi_group_close(rpnmpi_win *w) {
    int rc = MPI_SUCCESS, rc2 = MPI_SUCCESS;
    if (w->started) rc = MPI_Win_complete(w->win);
    if (w->posted) rc2 = MPI_Win_wait(w->win);
    w->posted = w->started = 0;
    return rc != MPI_SUCCESS ? rc : rc2;
}

int rpnmpi_sync_self(rpnmpi_win *w, int rank) {
    int rc = MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Win_sync(w->win);
    int rc2 = MPI_Win_unlock(rank, w->win);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int rpnmpi_rma(rpnmpi_win *w, int kind, int lock, const void *src, void *result, int n,
               int dtype, int target, int64_t disp, int op) {
    MPI_Datatype t = datatype_of(dtype);
    MPI_Op o = op_of(op);
    MPI_Aint d = (MPI_Aint)disp;
    int rc, rc2;
    if (t == MPI_DATATYPE_NULL || n < 0) return RPNMPI_E_BAD_ARG;
    if ((kind == RPNMPI_ACC || kind == RPNMPI_GETACC) && o == MPI_OP_NULL) return RPNMPI_E_BAD_ARG;
    if (n == 0 || (kind == RPNMPI_ACC && o == MPI_NO_OP)) return MPI_SUCCESS;
    if (lock == RPNMPI_SHARED || lock == RPNMPI_EXCLUSIVE) {
        rc = MPI_Win_lock(lock == RPNMPI_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, target, 0, w->win);
        if (rc != MPI_SUCCESS) return rc;
    }
    switch (kind) {
    case RPNMPI_PUT:
        if (lock == RPNMPI_ACTIVE_ACC)
            rc = MPI_Accumulate(src, n, t, target, d, n, t, MPI_REPLACE, w->win);
        else
            rc = MPI_Put(src, n, t, target, d, n, t, w->win);
        break;
    case RPNMPI_GET:
        if (lock == RPNMPI_ACTIVE_ACC)
            rc = MPI_Get_accumulate(NULL, 0, t, result, n, t, target, d, n, t, MPI_NO_OP, w->win);
        else
            rc = MPI_Get(result, n, t, target, d, n, t, w->win);
        break;
    case RPNMPI_ACC:
        rc = MPI_Accumulate(src, n, t, target, d, n, t, o, w->win);
        break;
    case RPNMPI_GETACC:
        if (n == 1)
            rc = MPI_Fetch_and_op(src, result, t, target, d, o, w->win);
        else
            rc = MPI_Get_accumulate(src, n, t, result, n, t, target, d, n, t, o, w->win);
        break;
    default:
        rc = RPNMPI_E_BAD_ARG;
    }
    if (lock == RPNMPI_SHARED || lock == RPNMPI_EXCLUSIVE) {
        rc2 = MPI_Win_unlock(target, w->win);
        if (rc == MPI_SUCCESS) rc = rc2;
    } else if (lock == RPNMPI_FLUSH && rc == MPI_SUCCESS) {
        rc = MPI_Win_flush(target, w->win);
    }
    return rc;
}

int rpnmpi_cas(rpnmpi_win *w, int lock, const void *value, const void *compare, void *result,
               int dtype, int target, int64_t disp) {
    MPI_Datatype t = datatype_of(dtype);
    int rc, rc2;
    if (t != MPI_INT32_T && t != MPI_INT64_T) return RPNMPI_E_BAD_ARG;
    if (lock == RPNMPI_SHARED || lock == RPNMPI_EXCLUSIVE) {
        rc = MPI_Win_lock(lock == RPNMPI_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, target, 0, w->win);
        if (rc != MPI_SUCCESS) return rc;
    }
    rc = MPI_Compare_and_swap(value, compare, result, t, target, (MPI_Aint)disp, w->win);
    if (lock == RPNMPI_SHARED || lock == RPNMPI_EXCLUSIVE) {
        rc2 = MPI_Win_unlock(target, w->win);
        if (rc == MPI_SUCCESS) rc = rc2;
    } else if (lock == RPNMPI_FLUSH && rc == MPI_SUCCESS) {
        rc = MPI_Win_flush(target, w->win);
    }
    return rc;
}

int rpnmpi_rma_box(rpnmpi_win *w, int kind, int lock, void *buf, const int lshape[3], const int lstart[3],
                   const int count[3], int dtype, int target, int64_t disp, const int tshape[3],
                   const int tstart[3]) {
    MPI_Datatype t = datatype_of(dtype), local, remote;
    int rc, rc2;
    if (t == MPI_DATATYPE_NULL || (kind != RPNMPI_PUT && kind != RPNMPI_GET)) return RPNMPI_E_BAD_ARG;
    if ((rc = MPI_Type_create_subarray(3, lshape, count, lstart, MPI_ORDER_FORTRAN, t, &local)) != MPI_SUCCESS)
        return rc;
    if ((rc = MPI_Type_create_subarray(3, tshape, count, tstart, MPI_ORDER_FORTRAN, t, &remote)) != MPI_SUCCESS) {
        MPI_Type_free(&local);
        return rc;
    }
    if ((rc = MPI_Type_commit(&local)) == MPI_SUCCESS) rc = MPI_Type_commit(&remote);
    if (rc == MPI_SUCCESS && (lock == RPNMPI_SHARED || lock == RPNMPI_EXCLUSIVE))
        rc = MPI_Win_lock(lock == RPNMPI_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, target, 0, w->win);
    if (rc == MPI_SUCCESS) {
        if (kind == RPNMPI_PUT && lock == RPNMPI_ACTIVE_ACC)
            rc = MPI_Accumulate(buf, 1, local, target, (MPI_Aint)disp, 1, remote, MPI_REPLACE, w->win);
        else if (kind == RPNMPI_PUT)
            rc = MPI_Put(buf, 1, local, target, (MPI_Aint)disp, 1, remote, w->win);
        else if (lock == RPNMPI_ACTIVE_ACC)
            rc = MPI_Get_accumulate(NULL, 0, t, buf, 1, local, target, (MPI_Aint)disp, 1, remote, MPI_NO_OP, w->win);
        else
            rc = MPI_Get(buf, 1, local, target, (MPI_Aint)disp, 1, remote, w->win);
        if (lock == RPNMPI_SHARED || lock == RPNMPI_EXCLUSIVE) {
            rc2 = MPI_Win_unlock(target, w->win);
            if (rc == MPI_SUCCESS) rc = rc2;
        } else if (lock == RPNMPI_FLUSH && rc == MPI_SUCCESS) {
            rc = MPI_Win_flush(target, w->win);
        }
    }
    MPI_Type_free(&local);
    MPI_Type_free(&remote);
    return rc;
}

int rpnmpi_bounded_increment(rpnmpi_win *w, int target, int limit, int *old) {
    int one = 1, minus_one = -1, rc, rc2;
    rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, w->win);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Fetch_and_op(&one, old, MPI_INT, target, 0, MPI_SUM, w->win);
    if (rc == MPI_SUCCESS) rc = MPI_Win_flush(target, w->win);
    if (rc == MPI_SUCCESS && (*old < 1 || *old >= limit))
        rc = MPI_Accumulate(&minus_one, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, w->win);
    rc2 = MPI_Win_unlock(target, w->win);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* ---- Node-aware data path (src/transport/mpi/node.rs) ------------------------------------ */

int rpnmpi_node_comm(const rpnmpi_comm *c, int split, rpnmpi_comm **out) {
    MPI_Comm node, part;
    int rank = 0, node_rank = 0, rc;
    rpnmpi_comm *n = malloc(sizeof *n);
    *out = NULL;
    if (!n) return RPNMPI_E_NOMEM;
    if ((rc = MPI_Comm_rank(c->comm, &rank)) != MPI_SUCCESS) { free(n); return rc; }
    /* key = rank: the node's ranks keep the communicator's order */
    rc = MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS) { free(n); return rc; }
    if (split > 0) {
        /* testing knob: node = floor(node rank / split) */
        MPI_Comm_rank(node, &node_rank);
        rc = MPI_Comm_split(node, node_rank / split, node_rank, &part);
        MPI_Comm_free(&node);
        if (rc != MPI_SUCCESS) { free(n); return rc; }
        node = part;
    }
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    n->comm = node;
    n->owned = 1;
    *out = n;
    return MPI_SUCCESS;
}

int rpnmpi_progress(void) {
    int flag = 0, finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return MPI_SUCCESS;
    /* probing for nothing on MPI_COMM_SELF runs the progress engine (Open MPI, MPICH) and
     * takes no message of the program's */
    return MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
}

/* ---- Emulated logical accumulates (src/transport/mpi/windows/logical.rs) -------------------
 * Open MPI 4.1's osc/rdma drops MPI_LAND/LOR/LXOR accumulates: those are done as read-modify-write
 * under an exclusive lock, and in active mode deferred to the end of the epoch (see logical.rs). */

int rpnmpi_lock(rpnmpi_win *w, int exclusive, int target) {
    return MPI_Win_lock(exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, target, 0, w->win);
}

int rpnmpi_unlock(rpnmpi_win *w, int target) {
    return MPI_Win_unlock(target, w->win);
}

int rpnmpi_flush(rpnmpi_win *w, int target) {
    return MPI_Win_flush(target, w->win);
}

int rpnmpi_lock_all(rpnmpi_win *w) {
    int rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win);
    w->locked_all = rc == MPI_SUCCESS;
    return rc;
}

int rpnmpi_unlock_all(rpnmpi_win *w) {
    if (!w->locked_all) return MPI_SUCCESS;
    w->locked_all = 0;
    return MPI_Win_unlock_all(w->win);
}

int rpnmpi_win_unified(rpnmpi_win *w, int *unified) {
    int *model = NULL, flag = 0;
    int rc = MPI_Win_get_attr(w->win, MPI_WIN_MODEL, &model, &flag);
    *unified = rc == MPI_SUCCESS && flag && *model == MPI_WIN_UNIFIED;
    return rc;
}

int rpnmpi_win_sync(rpnmpi_win *w) {
    return MPI_Win_sync(w->win);
}

/* ---- Point-to-point channels (src/transport/mpi/channels/channel.rs) ---------------------------
 * Messages of bytes on the job's communicator, one tag: nonblocking sends; receives posted ahead
 * where the receiver knows the length to expect (rpnmpi_chan_irecv), else by probe (the receiver
 * learns a message's length before it takes it). */

struct rpnmpi_req {
    MPI_Request request;
    /* A gatherv's or scatterv's: a block longer than its count ends the request like the
     * others (rpnmpi_test), its slot left as it was, for the caller to name the PEs. */
    int truncation_ends;
};

int rpnmpi_chan_isend(const rpnmpi_comm *c, const void *buf, int bytes, int dest, int tag, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Isend(buf, bytes, MPI_BYTE, dest, tag, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    *out = q;
    return MPI_SUCCESS;
}

/* A nonblocking get of the first `bytes` bytes of `target`'s memory in a window held in a lock_all
 * epoch (what a PE of another node announced: src/transport/mpi/channels/far_entries.rs). */
int rpnmpi_rget_bytes(rpnmpi_win *w, void *buf, int bytes, int target, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Rget(buf, bytes, MPI_BYTE, target, 0, bytes, MPI_BYTE, w->win, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    *out = q;
    return MPI_SUCCESS;
}

int rpnmpi_iallgather(const rpnmpi_comm *c, const void *mine, void *all, int bytes, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Iallgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    *out = q;
    return MPI_SUCCESS;
}

int rpnmpi_test(rpnmpi_req **req, int *done) {
    int flag = 0, rc;
    *done = 0;
    if (!*req) { *done = 1; return MPI_SUCCESS; }
    if ((*req)->truncation_ends) {
        /* Open MPI 4.1 reports a nonblocking collective's error through MPI_COMM_WORLD's handler
         * (fatal by default), not the communicator's: it returns for this test alone. */
        int class = MPI_SUCCESS;
        MPI_Errhandler saved;
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        rc = MPI_Test(&(*req)->request, &flag, MPI_STATUS_IGNORE);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
        MPI_Errhandler_free(&saved);
        if (rc != MPI_SUCCESS) MPI_Error_class(rc, &class);
        if (class == MPI_ERR_TRUNCATE) { free(*req); *req = NULL; *done = 1; return MPI_SUCCESS; }
    } else {
        rc = MPI_Test(&(*req)->request, &flag, MPI_STATUS_IGNORE);
    }
    if (rc != MPI_SUCCESS) return rc;
    if (flag) { free(*req); *req = NULL; *done = 1; }
    return MPI_SUCCESS;
}

int rpnmpi_request_free(rpnmpi_req **req) {
    int rc = MPI_SUCCESS, finalized = 0;
    if (!*req) return MPI_SUCCESS;
    MPI_Finalized(&finalized);
    if (!finalized) rc = MPI_Request_free(&(*req)->request);
    free(*req);
    *req = NULL;
    return rc;
}

int rpnmpi_iprobe(const rpnmpi_comm *c, int src, int tag, int *found, int *bytes) {
    MPI_Status status;
    int rc = MPI_Iprobe(src, tag, c->comm, found, &status);
    *bytes = 0;
    if (rc == MPI_SUCCESS && *found) rc = MPI_Get_count(&status, MPI_BYTE, bytes);
    return rc;
}

int rpnmpi_chan_recv(const rpnmpi_comm *c, void *buf, int bytes, int src, int tag) {
    return MPI_Recv(buf, bytes, MPI_BYTE, src, tag, c->comm, MPI_STATUS_IGNORE);
}

int rpnmpi_chan_irecv(const rpnmpi_comm *c, void *buf, int bytes, int src, int tag, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Irecv(buf, bytes, MPI_BYTE, src, tag, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    *out = q;
    return MPI_SUCCESS;
}

/* A message longer than the receive is an error of its request (MPI_ERR_TRUNCATE), reported as
 * *truncated: its bytes are lost (MPICH leaves the receive buffer untouched). */
int rpnmpi_chan_test_recv(rpnmpi_req **req, int *done, int *bytes, int *truncated) {
    MPI_Status status;
    MPI_Errhandler saved;
    int flag = 0, rc, class = MPI_SUCCESS;
    *done = 0;
    *bytes = 0;
    *truncated = 0;
    if (!*req) return RPNMPI_E_BAD_ARG;
    status.MPI_ERROR = MPI_SUCCESS;
    /* MPICH reports a request's error through MPI_COMM_WORLD's handler (fatal by default), not
     * the communicator's: make it return for this call. */
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Test(&(*req)->request, &flag, &status);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
    MPI_Errhandler_free(&saved);
    if (rc == MPI_ERR_IN_STATUS) rc = status.MPI_ERROR;
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &class);
        if (class != MPI_ERR_TRUNCATE) return rc;
        flag = 1;
        *truncated = 1;
    }
    if (!flag) return MPI_SUCCESS;
    if (!*truncated) rc = MPI_Get_count(&status, MPI_BYTE, bytes);
    free(*req);
    *req = NULL;
    *done = 1;
    return *truncated ? MPI_SUCCESS : rc;
}

int rpnmpi_chan_cancel(rpnmpi_req **req) {
    int rc = MPI_SUCCESS, finalized = 0;
    if (!*req) return MPI_SUCCESS;
    MPI_Finalized(&finalized);
    if (!finalized) {
        MPI_Status status;
        MPI_Errhandler saved;
        int class = MPI_SUCCESS;
        rc = MPI_Cancel(&(*req)->request);
        if (rc == MPI_SUCCESS) {
            /* A receive that took a longer message completed in error, which MPICH reports
             * through MPI_COMM_WORLD's handler (fatal by default): that is no error here. */
            MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            rc = MPI_Wait(&(*req)->request, &status);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
            MPI_Errhandler_free(&saved);
            if (rc == MPI_ERR_IN_STATUS) rc = status.MPI_ERROR;
            if (rc != MPI_SUCCESS) MPI_Error_class(rc, &class);
            if (class == MPI_ERR_TRUNCATE) rc = MPI_SUCCESS;
        }
    }
    free(*req);
    *req = NULL;
    return rc;
}

/* ---- The MPI-facing routines GEM calls (src/transport/mpi/p2p.rs) ------------------------- */

int rpnmpi_comm_c2f(const rpnmpi_comm *c) {
    return (int)MPI_Comm_c2f(c->comm);
}

int rpnmpi_comm_null_f(void) {
    return (int)MPI_Comm_c2f(MPI_COMM_NULL);
}

/* RPN_COMM_split_by_socket on the caller's communicator `forig`: its PEs of one node (key: rank),
 * that node cut into `spaces` consecutive parts by node rank (ceil(node size / spaces) PEs each,
 * the original's "sockets"), and the PEs of `forig` of equal rank in their part. out[] = node,
 * socket and peer communicators (Fortran handles, the caller's to free), node rank, socket rank,
 * peer rank, socket size. */
int rpnmpi_split_by_socket_f(int forig, int spaces, int *out) {
    MPI_Comm orig = MPI_Comm_f2c((MPI_Fint)forig), node, sock, peer;
    int rank, noderank, nodepop, per, sockrank, isiz, peerrank, rc;
    /* MPI_COMM_NULL would raise MPI_COMM_WORLD's error handler (fatal by default) */
    if (spaces < 1 || orig == MPI_COMM_NULL) return RPNMPI_E_BAD_ARG;
    if ((rc = MPI_Comm_rank(orig, &rank)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_split_type(orig, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_rank(node, &noderank)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_size(node, &nodepop)) != MPI_SUCCESS) return rc;
    per = (nodepop + spaces - 1) / spaces;
    if ((rc = MPI_Comm_split(node, noderank / per, noderank, &sock)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_rank(sock, &sockrank)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_size(sock, &isiz)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_split(orig, sockrank, rank, &peer)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_rank(peer, &peerrank)) != MPI_SUCCESS) return rc;
    out[0] = (int)MPI_Comm_c2f(node);
    out[1] = (int)MPI_Comm_c2f(sock);
    out[2] = (int)MPI_Comm_c2f(peer);
    out[3] = noderank;
    out[4] = sockrank;
    out[5] = peerrank;
    out[6] = isiz;
    return MPI_SUCCESS;
}

/* RPN_COMM_split_by_node on the caller's communicator `forig`: its PEs of one node (key: rank)
 * and the PEs of `forig` of equal node rank. out[] = node and peer communicators (Fortran
 * handles, the caller's to free). */
int rpnmpi_split_by_node_f(int forig, int split, int *out) {
    MPI_Comm orig = MPI_Comm_f2c((MPI_Fint)forig), node, peer, part;
    int rank, noderank, rc;
    if (orig == MPI_COMM_NULL) return RPNMPI_E_BAD_ARG;
    if ((rc = MPI_Comm_rank(orig, &rank)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_split_type(orig, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_rank(node, &noderank)) != MPI_SUCCESS) return rc;
    if (split > 0) {
        /* the pretend nodes of the testing knob, as the library's windows see them (rpnmpi_node_comm) */
        rc = MPI_Comm_split(node, noderank / split, noderank, &part);
        MPI_Comm_free(&node);
        if (rc != MPI_SUCCESS) return rc;
        node = part;
        if ((rc = MPI_Comm_rank(node, &noderank)) != MPI_SUCCESS) return rc;
    }
    if ((rc = MPI_Comm_split(orig, noderank, rank, &peer)) != MPI_SUCCESS) return rc;
    out[0] = (int)MPI_Comm_c2f(node);
    out[1] = (int)MPI_Comm_c2f(peer);
    return MPI_SUCCESS;
}

/* Rank and size of the caller's communicator `fcomm` (not MPI_COMM_NULL). */
int rpnmpi_comm_rank_size_f(int fcomm, int *rank, int *size) {
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)fcomm);
    int rc;
    if (comm == MPI_COMM_NULL) return RPNMPI_E_BAD_COMM;
    if ((rc = MPI_Comm_rank(comm, rank)) != MPI_SUCCESS) return rc;
    return MPI_Comm_size(comm, size);
}

/* The group of the caller's communicator `fcomm` (MPI_GROUP_NULL's for MPI_COMM_NULL). */
int rpnmpi_comm_group_f(int fcomm, int *fgroup) {
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)fcomm);
    MPI_Group g = MPI_GROUP_NULL;
    int rc = MPI_SUCCESS;
    if (comm != MPI_COMM_NULL) rc = MPI_Comm_group(comm, &g);
    *fgroup = (int)MPI_Group_c2f(rc == MPI_SUCCESS ? g : MPI_GROUP_NULL);
    return rc;
}

/* Whether this process is a member of the group `fgroup` (not MPI_GROUP_NULL). */
int rpnmpi_group_member_f(int fgroup, int *member) {
    MPI_Group g = MPI_Group_f2c((MPI_Fint)fgroup);
    int rank = MPI_UNDEFINED, rc;
    *member = 0;
    if (g == MPI_GROUP_NULL) return RPNMPI_E_BAD_ARG;
    rc = MPI_Group_rank(g, &rank);
    *member = rc == MPI_SUCCESS && rank != MPI_UNDEFINED;
    return rc;
}

int rpnmpi_group_null_f(void) {
    return (int)MPI_Group_c2f(MPI_GROUP_NULL);
}

int rpnmpi_info_null_f(void) {
    return (int)MPI_Info_c2f(MPI_INFO_NULL);
}

int rpnmpi_win_null_f(void) {
    return (int)MPI_Win_c2f(MPI_WIN_NULL);
}

/* MPI_STATUS_SIZE of the Fortran bindings: MPI_F_STATUS_SIZE where mpi.h has it (MPI-3), else the
 * size of a C status in Fortran integers, as Open MPI 4 lays out its Fortran status. */
int rpnmpi_status_size_f(void) {
#ifdef MPI_F_STATUS_SIZE
    return (int)MPI_F_STATUS_SIZE;
#else
    return (int)(sizeof(MPI_Status) / sizeof(MPI_Fint));
#endif
}

/* The extent in bytes of the caller's Fortran datatype `ftype` (MPI_Type_get_extent). */
int rpnmpi_type_extent_f(int ftype, long long *extent) {
    MPI_Datatype t = MPI_Type_f2c((MPI_Fint)ftype);
    MPI_Aint lb = 0, ext = 0;
    MPI_Errhandler saved;
    int rc;
    if (t == MPI_DATATYPE_NULL) return RPNMPI_E_BAD_ARG;
    /* an invalid handle is reported through MPI_COMM_WORLD's handler (fatal by default) */
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Type_get_extent(t, &lb, &ext);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
    MPI_Errhandler_free(&saved);
    *extent = (long long)ext;
    return rc;
}

/* The original's datatype table (MPI_UB and MPI_LB left out: MPI-3 removed them), in the order of
 * MPI_TYPE_NAMES in src/runtime/p2p/mpi_handles.rs: the Fortran datatypes, as a Fortran caller's MPI calls use. */
static MPI_Datatype fortran_datatype(int code) {
    switch (code) {
    case 0: return MPI_BYTE;
    case 1: return MPI_PACKED;
    case 2: return MPI_CHARACTER;
    case 3: return MPI_LOGICAL;
    case 4: return MPI_INTEGER;
    case 5: return MPI_INTEGER1;
    case 6: return MPI_INTEGER2;
    case 7: return MPI_INTEGER4;
    case 8: return MPI_INTEGER8;
    case 9: return MPI_DATATYPE_NULL;
    case 10: return MPI_REAL;
    case 11: return MPI_REAL4;
    case 12: return MPI_REAL8;
    case 13: return MPI_REAL16;
    case 14: return MPI_DOUBLE_PRECISION;
    case 15: return MPI_COMPLEX;
    case 16: return MPI_COMPLEX8;
    case 17: return MPI_COMPLEX16;
    case 18: return MPI_COMPLEX32;
    case 19: return MPI_DOUBLE_COMPLEX;
    case 20: return MPI_2REAL;
    case 21: return MPI_2DOUBLE_PRECISION;
    case 22: return MPI_2INTEGER;
    default: return MPI_DATATYPE_NULL;
    }
}

int rpnmpi_op_f(int code, int *fop) {
    if (code < 0 || code > 14) return RPNMPI_E_BAD_ARG;
    *fop = (int)MPI_Op_c2f(op_of(code));
    return MPI_SUCCESS;
}

/* The datatype a reduction of the table's type `code` combines as: C integer and real types where
 * MPI has them (every operator the library allows applies to them, LAND on integers included),
 * the Fortran types otherwise (MPI_LOGICAL's truth values, the pairs of MAXLOC and MINLOC). */
static MPI_Datatype reduction_datatype(int code) {
    switch (code) {
    case 0: return MPI_BYTE;
    case 3: return MPI_LOGICAL;
    case 4: case 7: return MPI_INT32_T;
    case 5: return MPI_INT8_T;
    case 6: return MPI_INT16_T;
    case 8: return MPI_INT64_T;
    case 10: case 11: return MPI_FLOAT;
    case 12: case 14: return MPI_DOUBLE;
    case 15: case 16: return MPI_C_FLOAT_COMPLEX;
    case 17: case 19: return MPI_C_DOUBLE_COMPLEX;
    case 20: return MPI_2REAL;
    case 21: return MPI_2DOUBLE_PRECISION;
    case 22: return MPI_2INTEGER;
    default: return MPI_DATATYPE_NULL;   /* moved only (character, packed, REAL16, COMPLEX32) */
    }
}

int rpnmpi_type_f(int code, int *ftype) {
    if (code < 0 || code > 22) return RPNMPI_E_BAD_ARG;
    *ftype = (int)MPI_Type_c2f(fortran_datatype(code));
    return MPI_SUCCESS;
}

/* The datatype of `code`, refused when it is none (MPI_DATATYPE_NULL: no data can move). */
static int p2p_type(int code, MPI_Datatype *t) {
    if (code < 0 || code > 22) return RPNMPI_E_BAD_ARG;
    *t = fortran_datatype(code);
    return *t == MPI_DATATYPE_NULL ? RPNMPI_E_BAD_ARG : MPI_SUCCESS;
}

int rpnmpi_send(const void *buf, int count, int code, int dest, int tag, int fcomm) {
    MPI_Datatype t;
    int rc = p2p_type(code, &t);
    if (rc != MPI_SUCCESS) return rc;
    return MPI_Send(buf, count, t, dest, tag, MPI_Comm_f2c((MPI_Fint)fcomm));
}

int rpnmpi_recv(void *buf, int count, int code, int source, int tag, int fcomm, int *received) {
    MPI_Datatype t;
    MPI_Status status;
    int rc = p2p_type(code, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Recv(buf, count, t, source, tag, MPI_Comm_f2c((MPI_Fint)fcomm), &status);
    if (rc != MPI_SUCCESS) return rc;
    return MPI_Get_count(&status, t, received);
}

int rpnmpi_isend(const void *buf, int count, int code, int dest, int tag, int fcomm, int *freq) {
    MPI_Datatype t;
    MPI_Request r;
    int rc = p2p_type(code, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Isend(buf, count, t, dest, tag, MPI_Comm_f2c((MPI_Fint)fcomm), &r);
    if (rc == MPI_SUCCESS) *freq = (int)MPI_Request_c2f(r);
    return rc;
}

int rpnmpi_irecv(void *buf, int count, int code, int source, int tag, int fcomm, int *freq) {
    MPI_Datatype t;
    MPI_Request r;
    int rc = p2p_type(code, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Irecv(buf, count, t, source, tag, MPI_Comm_f2c((MPI_Fint)fcomm), &r);
    if (rc == MPI_SUCCESS) *freq = (int)MPI_Request_c2f(r);
    return rc;
}

/* Runs MPI_Waitall (wait = 1) or MPI_Testall on Fortran request handles, written back. */
static int complete_all(int n, int *freqs, int wait, int *done) {
    MPI_Request *r;
    int i, rc;
    *done = 0;
    if (n <= 0) { *done = 1; return MPI_SUCCESS; }
    r = malloc((size_t)n * sizeof *r);
    if (!r) return RPNMPI_E_NOMEM;
    for (i = 0; i < n; i++) r[i] = MPI_Request_f2c((MPI_Fint)freqs[i]);
    if (wait) {
        rc = MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
        *done = 1;
    } else {
        rc = MPI_Testall(n, r, done, MPI_STATUSES_IGNORE);
    }
    for (i = 0; i < n; i++) freqs[i] = (int)MPI_Request_c2f(r[i]);
    free(r);
    return rc;
}

int rpnmpi_waitall(int n, int *freqs) {
    int done;
    return complete_all(n, freqs, 1, &done);
}

int rpnmpi_testall(int n, int *freqs, int *done) {
    return complete_all(n, freqs, 0, done);
}

int rpnmpi_finalize_once(void) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    return finalized ? MPI_SUCCESS : MPI_Finalize();
}

int rpnmpi_test_count(int *freq, int code, int *done, int *received) {
    MPI_Request r = MPI_Request_f2c((MPI_Fint)*freq);
    MPI_Status status;
    MPI_Datatype t;
    int rc = p2p_type(code, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Test(&r, done, &status);
    *freq = (int)MPI_Request_c2f(r);
    if (rc != MPI_SUCCESS || !*done) return rc;
    return MPI_Get_count(&status, t, received);
}

/* RPN_COMM_reduce and RPN_COMM_gather as the original makes them (MPI_Reduce, MPI_Gather), so that a
 * reduction combines the PEs' values in the same order as there. Codes as rpnmpi_rma's. */
int rpnmpi_reduce(const rpnmpi_comm *c, const void *mine, void *result, int n, int dtype, int op, int root) {
    MPI_Datatype t = reduction_datatype(dtype);
    MPI_Op o = op_of(op);
    if (t == MPI_DATATYPE_NULL || o == MPI_OP_NULL || o == MPI_REPLACE || o == MPI_NO_OP || n < 0) return RPNMPI_E_BAD_ARG;
    return MPI_Reduce(mine, result, n, t, o, root, c->comm);
}

/* RPN_COMM_allreduce as the original makes it (MPI_Allreduce): its order of combination, which can
 * change the last bits of a sum over 3 PEs or more. */
int rpnmpi_allreduce(const rpnmpi_comm *c, const void *mine, void *result, int n, int dtype, int op) {
    MPI_Datatype t = reduction_datatype(dtype);
    MPI_Op o = op_of(op);
    if (t == MPI_DATATYPE_NULL || o == MPI_OP_NULL || o == MPI_REPLACE || o == MPI_NO_OP || n < 0) return RPNMPI_E_BAD_ARG;
    return MPI_Allreduce(mine, result, n, t, o, c->comm);
}

/* RPN_COMM_bcast as the original makes it (one MPI_Bcast), of bytes. */
int rpnmpi_bcast(const rpnmpi_comm *c, void *buffer, int bytes, int root) {
    return MPI_Bcast(buffer, bytes, MPI_BYTE, root, c->comm);
}

int rpnmpi_igather(const rpnmpi_comm *c, const void *mine, void *all, int bytes, int root, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Igather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, root, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    *out = q;
    return MPI_SUCCESS;
}

/* RPN_COMM_gatherv's exchange, as the original makes it (MPI_Gatherv of bytes: `counts` and
 * `displs` read on the root only), started here and completed by rpnmpi_test. */
int rpnmpi_igatherv(const rpnmpi_comm *c, const void *mine, int bytes, void *all, const int *counts,
                    const int *displs, int root, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Igatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, root, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    q->truncation_ends = 1;
    *out = q;
    return MPI_SUCCESS;
}

/* RPN_COMM_scatterv's exchange, as the original makes it (MPI_Scatterv of bytes: `counts` and
 * `displs` read on the root only), started here and completed by rpnmpi_test. */
int rpnmpi_iscatterv(const rpnmpi_comm *c, const void *send, const int *counts, const int *displs,
                     void *recv, int bytes, int root, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Iscatterv(send, counts, displs, MPI_BYTE, recv, bytes, MPI_BYTE, root, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    q->truncation_ends = 1;
    *out = q;
    return MPI_SUCCESS;
}

/* The distribution routines' and RPN_MPI_ez_transpose_xz's exchange: `n` ranks, byte counts and
 * displacements per rank (MPI_Alltoallv, as the original's transposes make it). */
int rpnmpi_alltoallv(const rpnmpi_comm *c, const void *send, const int *scounts, const int *sdispls,
                     void *recv, const int *rcounts, const int *rdispls) {
    return MPI_Alltoallv(send, scounts, sdispls, MPI_BYTE, recv, rcounts, rdispls, MPI_BYTE, c->comm);
}

/* RPN_COMM_transpose's exchange, as the original makes it (MPI_Alltoall), started here and
 * completed by rpnmpi_test. */
int rpnmpi_ialltoall(const rpnmpi_comm *c, const void *send, void *recv, int bytes, rpnmpi_req **out) {
    rpnmpi_req *q = calloc(1, sizeof *q);
    int rc;
    *out = NULL;
    if (!q) return RPNMPI_E_NOMEM;
    rc = MPI_Ialltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, c->comm, &q->request);
    if (rc != MPI_SUCCESS) { free(q); return rc; }
    *out = q;
    return MPI_SUCCESS;
}

/* The bits of a C handle of any kind in one integer, as RPN_COMM_f2c hands them over. */
typedef union {
    long long bits;
    MPI_Datatype type;
    MPI_File file;
    MPI_Group group;
    MPI_Info info;
    MPI_Op op;
    MPI_Request request;
    MPI_Win win;
    MPI_Comm comm;
} rpnmpi_any_handle;

int rpnmpi_handle_f2c(int kind, int f, long long *c) {
    rpnmpi_any_handle h;
    h.bits = 0;
    switch (kind) {
    case 0: h.type = MPI_Type_f2c((MPI_Fint)f); break;
    case 1: h.file = MPI_File_f2c((MPI_Fint)f); break;
    case 2: h.group = MPI_Group_f2c((MPI_Fint)f); break;
    case 3: h.info = MPI_Info_f2c((MPI_Fint)f); break;
    case 4: h.op = MPI_Op_f2c((MPI_Fint)f); break;
    case 5: h.request = MPI_Request_f2c((MPI_Fint)f); break;
    case 6: h.win = MPI_Win_f2c((MPI_Fint)f); break;
    case 7: h.comm = MPI_Comm_f2c((MPI_Fint)f); break;
    default: return RPNMPI_E_BAD_ARG;
    }
    *c = h.bits;
    return MPI_SUCCESS;
}

int rpnmpi_handle_c2f(int kind, long long c, int *f) {
    rpnmpi_any_handle h;
    h.bits = c;
    switch (kind) {
    case 0: *f = (int)MPI_Type_c2f(h.type); break;
    case 1: *f = (int)MPI_File_c2f(h.file); break;
    case 2: *f = (int)MPI_Group_c2f(h.group); break;
    case 3: *f = (int)MPI_Info_c2f(h.info); break;
    case 4: *f = (int)MPI_Op_c2f(h.op); break;
    case 5: *f = (int)MPI_Request_c2f(h.request); break;
    case 6: *f = (int)MPI_Win_c2f(h.win); break;
    case 7: *f = (int)MPI_Comm_c2f(h.comm); break;
    default: return RPNMPI_E_BAD_ARG;
    }
    return MPI_SUCCESS;
}
