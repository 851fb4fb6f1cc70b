#!/usr/bin/env python3
"""Turns the raw output of bench/run.sh into the results table (terminal), results.json and
results.csv, comparing every figure with the hardware floor, with the original RPN_COMM over
Open MPI (figures of /work/shared/ANCHORS.md), with this library's own MPI transport when
bench/run.sh ran it (raw mpi_np*.txt), and with the project's targets.

    report.py RAW_DIR OUT_DIR

RAW_DIR holds floor.txt (FLOOR lines of bench/floor.c), np*.txt / mem_*.txt (RESULT and MEM
lines of bench/rpncomm_bench.F90), raw_np*.txt (RESULT lines of bench/raw_mpi.c, the raw MPI-3
baseline), rep4_*.txt (the repeated 4-PE runs on 2 cores) and place_*.txt (4 PEs pinned 2+2 and 3+1
on 2 CPUs). Only the standard library is used.
Exit status: 0, or 1 when a measurement reported data errors (the table is written anyway).
"""
import csv
import glob
import json
import os
import platform
import subprocess
import sys
import time

# --------------------------------------------------------------------------- reference figures
# ANCHORS.md: original RPN_COMM windows over Open MPI 4.1.4 (np2) and Open MPI np4 (oversubscribed).
ORIGINAL = {  # key: (np2, np4)
    "passive_put": (1.49, 6.0),
    "passive_get": (1.49, 6.1),
    "passive_acc": (0.38, 5.9),
    "passive_fetch": (1.95, 9.4),
    "fence_empty": (0.33, 10.2),
    "fence_put": (1.84, 13.8),
    "group_put": (0.76, 5.9),
    "bw_8k": (3640.0, 548.0),
    "bw_1m": (16700.0, 7580.0),
    "bw_16m": (8840.0, 3980.0),
    "req_fresh": (9.8, 178.0),
    "req_kept": (5.7, 116.0),
}
ANCHOR_FLOOR = {"memcpy_8k": 162000.0, "memcpy_1m": 64000.0, "memcpy_16m": 38000.0, "cacheline_rtt": 82.0}

LABEL = {
    "passive_put": "passive put_r, 1 element",
    "passive_get": "passive get_r, 1 element",
    "passive_acc": "passive getacc_r SUM, 1 element",
    "passive_fetch": "passive getacc_r SUM + fetch",
    "passive_cas": "passive cas_r, 1 element (swaps)",
    "passive_fop": "passive fetchop_r SUM, 1 element",
    "hot_fop": "fetchop_r SUM, all PEs, 1 element",
    "hot_cas": "cas_r +1 loop, all PEs, 1 element",
    "fence_empty": "fence, empty epoch",
    "fence_put": "fence, epoch with one put_r",
    "group_empty": "group epoch, empty",
    "group_put": "group epoch with one put_r",
    "bw_8k": "fence put_r 8 KiB",
    "bw_1m": "fence put_r 1 MiB",
    "bw_16m": "fence put_r 16 MiB",
    "req_fresh": "request/reply round, fresh slots",
    "req_kept": "request/reply round, kept slots",
}
ORDER = list(LABEL)
BW_FLOOR = {"bw_8k": "memcpy_8k", "bw_1m": "memcpy_1m", "bw_16m": "memcpy_16m"}
LATENCY_OPS = {"passive_put", "passive_get", "passive_acc", "passive_fetch", "passive_cas", "passive_fop"}
# one-element atomics on another PE's element: within this factor of the cache-line round trip
# measured in the same run (issue 20), on 2 PEs
ATOMIC_OPS = {"passive_cas", "passive_fop", "hot_fop", "hot_cas"}
ATOMIC_RTT = 1.5
EPOCH_OPS = ["fence_empty", "fence_put", "group_empty", "group_put", "req_fresh", "req_kept"]
# the raw MPI-3 baseline (bench/raw_mpi.c): its operation, and ours that does the same (window)
RAW_MPI = [("fence_empty", "MPI_Win_fence x2 (empty epoch)", "fence_empty", "user"),
           ("fence_put", "fence + MPI_Put + fence", "fence_put", "user"),
           ("pscw_put", "post/start + MPI_Put + complete/wait", "group_put", "user"),
           ("lock_put", "lock + MPI_Put + unlock", "passive_put", "user"),
           ("lock_get", "lock + MPI_Get + unlock", "passive_get", "user"),
           ("fetch_op", "MPI_Fetch_and_op + flush (lock_all)", "passive_fetch", "user"),
           ("lock_fetch", "lock + MPI_Fetch_and_op + unlock", "passive_fetch", "user"),
           ("cas_op", "MPI_Compare_and_swap + flush (lock_all)", "passive_cas", "user"),
           ("lock_cas", "lock + MPI_Compare_and_swap + unlock", "passive_cas", "user"),
           ("bw_8k", "fence + MPI_Put 8 KiB + fence", "bw_8k", "internal"),
           ("bw_1m", "fence + MPI_Put 1 MiB + fence", "bw_1m", "internal"),
           ("bw_16m", "fence + MPI_Put 16 MiB + fence", "bw_16m", "internal")]
# the repeated runs (4 PEs on 2 cores): the slowest run's median within this factor of the fastest's
REPEAT_SPREAD = 2.0
# the same 4 PEs pinned 3+1 on 2 CPUs: within this factor of 2+2
PLACEMENT_SPREAD = 2.0


def target_of(op, npes, window):
    """(kind, value, text): kind 'max_us' (median <= value), 'min_frac' (median >= value x memcpy)
    or 'max_rtt' (median <= value x the cache-line round trip of the same run)."""
    if npes == 2 and op in ATOMIC_OPS:
        return ("max_rtt", ATOMIC_RTT, "<= %gx RTT" % ATOMIC_RTT)
    if npes == 2:
        t = {
            "passive_put": 0.15, "passive_get": 0.15, "passive_acc": 0.15, "passive_fetch": 0.2,
            "fence_empty": 0.25, "fence_put": 0.3, "group_put": 0.3, "req_kept": 1.0, "req_fresh": 1.5,
        }
        if op in t:
            return ("max_us", t[op], "<= %g us" % t[op])
        frac = {("bw_1m", "internal"): 0.6, ("bw_16m", "internal"): 0.5,
                ("bw_1m", "user"): 0.4, ("bw_16m", "user"): 0.4}.get((op, window))
        if frac:
            return ("min_frac", frac, ">= %d%% memcpy" % round(frac * 100))
    if npes == 4:
        t = {"passive_put": 0.3, "passive_get": 0.3, "passive_acc": 0.3, "passive_fetch": 0.3,
             "fence_empty": 5.0, "req_kept": 20.0, "req_fresh": 20.0}
        if op in t:
            return ("max_us", t[op], "<= %g us" % t[op])
    return None


def parse(raw_dir):
    floor, results, memory, errors, load = {}, [], {}, [], {}
    path = os.path.join(raw_dir, "floor.txt")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) >= 8 and f[0] == "FLOOR":
                floor[f[1]] = {"median": float(f[2]), "min": float(f[3]), "max": float(f[4]),
                               "unit": f[5], "iterations": int(f[6]), "errors": int(f[7])}
                if int(f[7]):
                    errors.append("floor %s: %s errors" % (f[1], f[7]))
    path = os.path.join(raw_dir, "load.txt")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) >= 4 and f[0] == "LOAD":
                load[f[1]] = {"foreign_cpus": float(f[2]), "wall_s": float(f[3])}
    mpi = {}
    for path in sorted(glob.glob(os.path.join(raw_dir, "mpi_np*.txt"))):
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) >= 9 and f[0] == "RESULT":
                op, _, window = f[1].partition(".")
                mpi[(op, window, int(f[2]))] = {"median": float(f[3]), "min": float(f[4]), "max": float(f[5]),
                                                "unit": f[6], "errors": int(f[8])}
                if int(f[8]):
                    errors.append("MPI %s.%s np%s: %s data errors" % (op, window, f[2], f[8]))
            elif line.startswith("BENCH ERROR"):
                errors.append("MPI " + line.strip())
    for path in sorted(glob.glob(os.path.join(raw_dir, "np*.txt")) + glob.glob(os.path.join(raw_dir, "mem_*.txt"))):
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) >= 9 and f[0] == "RESULT":
                op, _, window = f[1].partition(".")
                r = {"op": op, "window": window, "npes": int(f[2]), "median": float(f[3]),
                     "min": float(f[4]), "max": float(f[5]), "unit": f[6], "niter": int(f[7]),
                     "errors": int(f[8]), "source": os.path.basename(path)}
                if len(f) >= 11:  # single-epoch tails (epochs and request/reply rounds)
                    r["p99"], r["pmax"] = float(f[9]), float(f[10])
                results.append(r)
                if r["errors"]:
                    errors.append("%s.%s np%d: %d data errors" % (op, window, r["npes"], r["errors"]))
            elif len(f) >= 5 and f[0] == "MEM":
                what, _, field = f[1].partition(".")
                memory.setdefault(what, {"npes": int(f[2])})[field] = {"value": int(f[3]), "unit": f[4]}
                if field == "errors" and int(f[3]):
                    errors.append("%s: %s data errors" % (what, f[3]))
            elif line.startswith("BENCH ERROR"):
                errors.append(line.strip())
    for r in results:
        r["foreign_cpus"] = load.get(r["source"][:-4], {}).get("foreign_cpus")
        r["raw_mpi"] = None
        m = mpi.get((r["op"], r["window"], r["npes"]))
        r["mpi"] = None
        if m and m["median"] > 0 and r["median"] > 0:
            # shm against MPI, as "x faster": time ratio for latencies, rate ratio for bandwidths
            x = (m["median"] / r["median"]) if r["unit"] == "us" else (r["median"] / m["median"])
            r["mpi"] = {"value": m["median"], "x_faster": x,
                        "text": "%.1fx faster" % x if x >= 1 else "%.1fx SLOWER" % (1 / x)}
    return floor, results, memory, errors, load


def parse_results(path, prefix):
    """RESULT lines of one file: {(op, npes): {median, min, max, unit, errors[, p99, pmax]}}."""
    out = {}
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) >= 9 and f[0] == "RESULT" and f[1].endswith(prefix):
            r = {"median": float(f[3]), "min": float(f[4]), "max": float(f[5]), "unit": f[6], "errors": int(f[8])}
            if len(f) >= 11:
                r["p99"], r["pmax"] = float(f[9]), float(f[10])
            out[(f[1][:-len(prefix)], int(f[2]))] = r
    return out


def parse_extra(raw_dir, errors):
    """The raw MPI-3 baseline ({(op, npes): result}, plus its library line) and the repeated runs
    ([{op: median} per run])."""
    raw, version = {}, None
    for path in sorted(glob.glob(os.path.join(raw_dir, "raw_np*.txt"))):
        raw.update(parse_results(path, ".raw"))
        for line in open(path, errors="replace"):
            if line.startswith("# raw_mpi:"):
                version = line.split(";", 1)[-1].strip()
            elif line.startswith("BENCH ERROR"):
                errors.append("raw MPI " + line.strip())
    repeats = []
    paths = glob.glob(os.path.join(raw_dir, "rep4_*.txt"))
    for path in sorted(paths, key=lambda p: int(p.rsplit("_", 1)[1][:-4])):
        run = {op: r["median"] for (op, n), r in parse_results(path, ".user").items()}
        if run:
            repeats.append(run)
        for line in open(path, errors="replace"):
            if line.startswith("BENCH ERROR"):
                errors.append("repeat " + line.strip())
    for (op, n), r in raw.items():
        if r["errors"]:
            errors.append("raw MPI %s np%d: %d data errors" % (op, n, r["errors"]))
    # side by side: (ours, raw) figures of the same round, ours on user arrays
    side = []
    for path in glob.glob(os.path.join(raw_dir, "side_ours_*.txt")):
        theirs = path.replace("side_ours_", "side_raw_")
        if os.path.exists(theirs):
            side.append((parse_results(path, ".user"), parse_results(theirs, ".raw")))
    # placements: {placement: [{op: median} per round]}, from place_<placement>_<round>.txt
    placements = {}
    for path in sorted(glob.glob(os.path.join(raw_dir, "place_*_*.txt"))):
        placement = os.path.basename(path)[len("place_"):].rsplit("_", 1)[0]
        run = {op: r["median"] for (op, n), r in parse_results(path, ".user").items()}
        if run:
            placements.setdefault(placement, []).append(run)
        for line in open(path, errors="replace"):
            if line.startswith("BENCH ERROR"):
                errors.append("placement %s %s" % (placement, line.strip()))
    return raw, version, repeats, side, placements


def placement_medians(placements):
    """{placement: {op: median over its rounds}}."""
    out = {}
    for placement, runs in placements.items():
        for op in EPOCH_OPS:
            v = sorted(run[op] for run in runs if op in run)
            if v:
                out.setdefault(placement, {})[op] = v[(len(v) - 1) // 2]
    return out


def own_cores():
    """CPUs this process may run on (the PEs inherit them)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def scaling_checks(results, raw, repeats, ncpu, side=(), placements=None):
    """The ratios of issue 12 as checks: (what, value, criterion, met) with met None where the
    machine cannot tell (too few cores for a core per PE)."""
    by = {(r["op"], r["window"], r["npes"]): r for r in results}
    checks = []
    add = lambda what, value, criterion, met: checks.append(
        {"what": what, "value": value, "criterion": criterion, "met": met})
    big = max([n for (op, w, n) in by if op == "fence_empty" and w == "user"] + [0])
    top = max([n for (op, w, n) in by if op == "fence_empty" and w == "user" and n <= ncpu] + [0])
    for op, limit in (("fence_empty", 2.0), ("group_empty", 2.0), ("group_put", 2.0)):
        base = by.get((op, "user", 2))
        for n in sorted({16, big}):
            r = by.get((op, "user", n))
            if not (base and r) or n <= 2:
                continue
            ratio = r["median"] / base["median"]
            own = n <= ncpu
            add("%s: np%d vs np2%s" % (LABEL[op], n, "" if own else " (oversubscribed: not judged)"),
                "%s vs %s us = %.2fx" % (fmt_num(r["median"]), fmt_num(base["median"]), ratio),
                "<= %gx with a core per PE" % limit, (ratio <= limit) if own else None)
    for n in sorted({16, big}):
        r = by.get(("req_kept", "user", n))
        if r and n > 2:
            own = n <= ncpu
            add("request/reply round, kept slots, np%d%s" % (n, "" if own else " (oversubscribed: not judged)"),
                "%s us" % fmt_num(r["median"]), "<= 20 us with a core per PE", (r["median"] <= 20) if own else None)
    for r in sorted(results, key=lambda r: (r["npes"], r["op"])):
        if r["window"] == "user" and r["op"] in EPOCH_OPS and "p99" in r and 2 <= r["npes"] <= max(top, 2) \
                and r["npes"] <= ncpu:
            add("tail: %s np%d" % (LABEL[r["op"]], r["npes"]),
                "p99 %s us, median %s = %.1fx (max %s)" % (fmt_num(r["p99"]), fmt_num(r["median"]),
                                                        r["p99"] / r["median"], fmt_num(r["pmax"])),
                "p99 <= 3x median with a core per PE", r["p99"] <= 3 * r["median"])
    # against raw MPI: from the side-by-side rounds (ours and raw alternately) where there are,
    # the median of the ratios within a round; else from the two runs above
    pairs = [(o.get(("fence_put", 2)), t.get(("fence_put", 2))) for o, t in side]
    ratios = sorted(t["median"] / o["median"] for o, t in pairs if o and t)
    if ratios:
        x = ratios[(len(ratios) - 1) // 2]
        add("fence epoch with one put, np2: ours vs raw MPI fence-put-fence, %d rounds side by side" % len(ratios),
            "median %.2fx faster (rounds %.2f..%.2f)" % (x, ratios[0], ratios[-1]),
            ">= 1.5x faster (same run)", x >= 1.5)
    else:
        ours, theirs = by.get(("fence_put", "user", 2)), raw.get(("fence_put", 2))
        if ours and theirs:
            x = theirs["median"] / ours["median"]
            add("fence epoch with one put, np2: ours vs raw MPI fence-put-fence",
                "%s vs %s us = %.2fx faster" % (fmt_num(ours["median"]), fmt_num(theirs["median"]), x),
                ">= 1.5x faster (same run)", x >= 1.5)
    if repeats:
        for op in EPOCH_OPS:
            v = [run[op] for run in repeats if op in run]
            if len(v) >= 2:
                add("repeat: %s, np4 on 2 cores, %d runs" % (LABEL[op], len(v)),
                    "%s..%s us = %.2fx" % (fmt_num(min(v)), fmt_num(max(v)), max(v) / min(v)),
                    "slowest <= %gx fastest" % REPEAT_SPREAD, max(v) <= REPEAT_SPREAD * min(v))
        for op in ("req_fresh", "req_kept"):
            v = [run[op] for run in repeats if op in run]
            if v:
                o = ORIGINAL[op][1]
                add("repeat: %s, every run vs the original np4" % LABEL[op],
                    "slowest run %s us, original %s us" % (fmt_num(max(v)), fmt_num(o)),
                    "every run faster", max(v) < o)
    m = placement_medians(placements or {})
    for op in EPOCH_OPS:
        even, lone = m.get("2+2", {}).get(op), m.get("3+1", {}).get(op)
        if even and lone:
            add("placement: %s, np4 3+1 vs 2+2" % LABEL[op],
                "%s vs %s us = %.2fx" % (fmt_num(lone), fmt_num(even), lone / even),
                "3+1 <= %gx 2+2" % PLACEMENT_SPREAD, lone <= PLACEMENT_SPREAD * even)
    return checks


def enrich(floor, results):
    rtt = floor.get("cacheline_rtt", {}).get("median")
    for r in results:
        op, n = r["op"], r["npes"]
        r["label"] = LABEL.get(op, op)
        # floor
        r["floor"] = None
        if r["unit"] == "us" and rtt:
            r["floor"] = {"what": "cache-line round trip", "value": rtt, "unit": "ns",
                          "ratio": r["median"] * 1000.0 / rtt, "text": "%.1fx RTT" % (r["median"] * 1000.0 / rtt)}
        elif op in BW_FLOOR and BW_FLOOR[op] in floor:
            m = floor[BW_FLOOR[op]]["median"]
            r["floor"] = {"what": BW_FLOOR[op], "value": m, "unit": "MB/s", "ratio": r["median"] / m,
                          "text": "%.0f%% memcpy" % (100.0 * r["median"] / m)}
            pair = floor.get(BW_FLOOR[op].replace("memcpy", "memcpy2"))
            if pair:
                r["floor"]["pair_ratio"] = r["median"] / pair["median"]
        # original (Open MPI, np2 or np4 oversubscribed)
        r["original"] = None
        if op in ORIGINAL and n in (2, 4):
            o = ORIGINAL[op][0 if n == 2 else 1]
            faster = (r["median"] / o) if r["unit"] != "us" else (o / r["median"])
            r["original"] = {"value": o, "what": "Open MPI np%d" % n, "x_faster": faster,
                             "text": "%.1fx faster" % faster if faster >= 1 else "%.1fx SLOWER" % (1 / faster)}
        # target
        r["target"] = None
        t = target_of(op, n, r["window"])
        if t:
            kind, value, text = t
            if kind == "max_us":
                met = r["median"] <= value
            elif kind == "max_rtt":
                met = r["floor"] is not None and r["floor"]["ratio"] <= value
            else:
                fl = r["floor"]["value"] if r["floor"] else None
                met = fl is not None and r["median"] >= value * fl
            r["target"] = {"text": text, "kind": kind, "value": value, "met": bool(met)}


# Window-size independence: a one-element operation on a 16 MiB window ("big") may cost at most this
# much more than on a 4 KiB one (two separate measurements on a shared machine differ by 10-20%).
SIZE_NOISE = 1.5


def checks_of(results):
    """The targets that compare measurements with each other: cost against window size (np2,
    'big' vs 'internal' window) and fence cost against PEs (no faster than linear from np4 on,
    where every count is oversubscribed)."""
    by = {(r["op"], r["window"], r["npes"]): r for r in results}
    checks = []
    for op in ("passive_put", "passive_acc", "fence_empty", "fence_put", "group_put"):
        big, small = by.get((op, "big", 2)), by.get((op, "internal", 2))
        if big and small:
            ratio = big["median"] / small["median"]
            checks.append({"what": "%s: 16 MiB window vs 4 KiB window (np2)" % LABEL[op],
                           "value": "%s vs %s us = %.2fx" % (fmt_num(big["median"]), fmt_num(small["median"]), ratio),
                           "criterion": "<= %gx (size-independent within noise)" % SIZE_NOISE,
                           "met": ratio <= SIZE_NOISE})
    base = by.get(("fence_empty", "user", 4))
    for n in (8, 16):
        r = by.get(("fence_empty", "user", n))
        if base and r:
            growth = r["median"] / base["median"]
            checks.append({"what": "fence, empty epoch: np%d vs np4 (oversubscribed)" % n,
                           "value": "%s vs %s us = %.2fx for %dx the PEs" % (fmt_num(r["median"]), fmt_num(base["median"]),
                                                                           growth, n // 4),
                           "criterion": "<= %dx (no faster than linear)" % (n // 4),
                           "met": growth <= n // 4})
    return checks


def fmt_num(x):
    if x >= 1000:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3f" % x


def table(floor, results, memory, meta, extra):
    out = []
    w = out.append
    w("rpncomm-windows benchmark  (%s; %s; %d CPUs; %d trials of ~%s ms; median of the slowest PE, [min..max] over trials)"
      % (meta["date"], meta["cpu"], meta["ncpu"], meta["trials"], meta["ms"]))
    load = meta.get("foreign_load_cpus") or {}
    if load:
        w("CPU used by other processes during each run (in CPUs): " +
          ", ".join("%s %.2f" % (k, v["foreign_cpus"]) for k, v in load.items()))
        busy = [k for k, v in load.items() if v["foreign_cpus"] > 0.25]
        if busy:
            w("WARNING: the machine was busy during %s: those timings measure the sharing of the CPUs more than "
              "the library; rerun when it is idle." % ", ".join(busy))
    w("")
    w("Hardware floor (this run; ANCHORS.md machine in brackets)")
    names = {"memcpy_8k": "memcpy 8 KiB, one process", "memcpy_1m": "memcpy 1 MiB, one process",
             "memcpy_16m": "memcpy 16 MiB, one process", "memcpy2_8k": "memcpy 8 KiB, two processes at once",
             "memcpy2_1m": "memcpy 1 MiB, two processes at once", "memcpy2_16m": "memcpy 16 MiB, two processes at once",
             "cacheline_rtt": "cache-line round trip, two processes"}
    for k in ["memcpy_8k", "memcpy_1m", "memcpy_16m", "memcpy2_8k", "memcpy2_1m", "memcpy2_16m", "cacheline_rtt"]:
        if k not in floor:
            continue
        f = floor[k]
        anch = ANCHOR_FLOOR.get(k)
        if f["unit"] == "MB/s":
            s = "%8.1f GB/s  [%.1f..%.1f]" % (f["median"] / 1e3, f["min"] / 1e3, f["max"] / 1e3)
            a = "  (%g GB/s)" % (anch / 1e3) if anch else ""
        else:
            s = "%8.1f ns    [%.1f..%.1f]" % (f["median"], f["min"], f["max"])
            a = "  (%g ns)" % anch if anch else ""
        w("  %-40s %s%s" % (names[k], s, a))
    w("")
    hdr = "%-34s %3s %-8s %9s  %-19s %-5s %-15s %-22s %-22s %-16s %s" % (
        "operation", "PEs", "window", "median", "[min..max]", "unit", "vs floor", "vs original (Open MPI)",
        "vs our MPI transport", "target", "")
    w(hdr)
    w("-" * len(hdr))
    key = lambda r: (r["npes"], ORDER.index(r["op"]) if r["op"] in ORDER else 99, r["window"] != "user")
    last_n = None
    for r in sorted(results, key=key):
        if last_n is not None and r["npes"] != last_n:
            w("")
        last_n = r["npes"]
        rng = "[%s..%s]" % (fmt_num(r["min"]), fmt_num(r["max"]))
        fl = r["floor"]["text"] if r["floor"] else ""
        orig = ("%s (%s)" % (r["original"]["text"], fmt_num(r["original"]["value"]))) if r["original"] else ""
        if r["target"]:
            tg, met = r["target"]["text"], ("met" if r["target"]["met"] else "MISSED")
        else:
            tg, met = "", ""
        err = "  DATA ERRORS: %d" % r["errors"] if r["errors"] else ""
        vs_mpi = ("%s (%s)" % (r["mpi"]["text"], fmt_num(r["mpi"]["value"]))) if r.get("mpi") else ""
        w("%-34s %3d %-8s %9s  %-19s %-5s %-15s %-22s %-22s %-16s %s%s" % (
            r["label"], r["npes"], r["window"], fmt_num(r["median"]), rng, r["unit"], fl, orig, vs_mpi, tg, met, err))
    # scaling, with the tails
    sc = {}
    for r in results:
        if r["window"] == "user" and r["op"] in EPOCH_OPS:
            sc.setdefault(r["op"], {})[r["npes"]] = r
    if sc:
        npes_list = sorted({n for d in sc.values() for n in d})
        w("")
        w("Scaling (user-array windows; median us, and p99 of single epochs/rounds; %d CPUs here: PEs past %d "
          "share cores)" % (meta["own_cpus"], meta["own_cpus"]))
        w("  %-34s" % "operation" + "".join("%16s" % ("np%d" % n) for n in npes_list))
        for op in EPOCH_OPS:
            if op in sc:
                cell = lambda r: "%s (%s)" % (fmt_num(r["median"]), fmt_num(r["p99"])) if "p99" in r else fmt_num(r["median"])
                w("  %-34s" % LABEL[op] + "".join("%16s" % (cell(sc[op][n]) if n in sc[op] else "-") for n in npes_list))
        w("  Tails, max of single epochs/rounds (us; one preemption shows here):")
        for op in EPOCH_OPS:
            if op in sc:
                w("  %-34s" % LABEL[op] + "".join(
                    "%16s" % (fmt_num(sc[op][n]["pmax"]) if n in sc[op] and "pmax" in sc[op][n] else "-") for n in npes_list))
    # the raw MPI-3 baseline
    raw, version, repeats = extra["raw"], extra["raw_version"], extra["repeats"]
    if raw:
        by = {(r["op"], r["window"], r["npes"]): r for r in results}
        w("")
        w("Raw MPI-3 one-sided baseline (bench/raw_mpi.c, what a user writes by hand; %s), same run" % (version or "?"))
        ranks = sorted({n for (_, n) in raw})
        for n in ranks:
            for op, what, ours_op, ours_w in RAW_MPI:
                t = raw.get((op, n))
                if not t:
                    continue
                o = by.get((ours_op, ours_w, n))
                tail = "  p99 %s max %s us" % (fmt_num(t["p99"]), fmt_num(t["pmax"])) if "p99" in t else ""
                cmp = ""
                if o and o["median"] > 0 and t["median"] > 0:
                    x = (t["median"] / o["median"]) if t["unit"] == "us" else (o["median"] / t["median"])
                    cmp = "  ours (%s, %s) %s: %s" % (LABEL[ours_op], ours_w, fmt_num(o["median"]),
                                                     "%.1fx faster" % x if x >= 1 else "%.1fx SLOWER" % (1 / x))
                w("  np%d %-40s %9s %-5s%s%s" % (n, what, fmt_num(t["median"]), t["unit"], tail, cmp))
    elif extra.get("raw_skipped"):
        w("")
        w("Raw MPI-3 baseline: not run (%s)" % extra["raw_skipped"])
    if repeats:
        w("")
        w("Repeat: %d runs of 4 PEs on 2 cores (median us of each run)" % len(repeats))
        for op in EPOCH_OPS:
            v = [run[op] for run in repeats if op in run]
            if v:
                w("  %-34s %s  spread %.2fx" % (LABEL[op], " ".join(fmt_num(x) for x in v), max(v) / min(v)))
    placements = extra.get("placements") or {}
    if placements:
        m = placement_medians(placements)
        names = sorted(m)
        w("")
        w("Placements: 4 PEs pinned on 2 CPUs (PEs per CPU; median us over %s alternating rounds)"
          % "/".join(str(len(placements[p])) for p in names))
        w("  %-34s" % "" + "".join("%12s" % p for p in names))
        for op in EPOCH_OPS:
            if any(op in m[p] for p in names):
                w("  %-34s" % LABEL[op] + "".join("%12s" % (fmt_num(m[p][op]) if op in m[p] else "-") for p in names))
    # memory
    if memory:
        w("")
        w("Memory (job of %s windows of 1 MiB per PE; RSS counts the pages of a caller's array remapped onto its "
          "region twice, PSS once)" % next(iter(memory.values())).get("windows", {}).get("value", "?"))
        for what, m in sorted(memory.items()):
            g = lambda f: m.get(f, {}).get("value")
            w("  %-20s np%d: shared segment %s per window for %s of data (overhead %s = %s per window per PE);"
              % (what[4:] + " windows", m["npes"], human(g("shm_per_window")), human(g("data_per_window")),
                 human(g("overhead_per_window")), human((g("overhead_per_window") or 0) // max(1, m["npes"]))))
            w("  %-20s       peak RSS per PE %s, PSS after %s (RSS before the windows %s; data of its own windows %s;"
              % ("", human(1024 * (g("peak_rss") or 0)), human(1024 * (g("pss_after") or 0)),
                 human(1024 * (g("hwm_before") or 0)),
                 human((g("data_per_window") or 0) // max(1, m["npes"]) * (g("windows") or 0))))
            w("  %-20s       %s mappings of window regions)" % ("", g("shm_mappings")))
    checks = checks_of(results) + extra["checks"]
    if checks:
        w("")
        w("Window size, PE scaling, tails, raw MPI, repeat and placement checks")
        for c in checks:
            verdict = {True: "met", False: "MISSED", None: "-"}[c["met"]]
            w("  %-66s %-44s %-36s %s" % (c["what"], c["value"], c["criterion"], verdict))
    # targets summary
    tg = [r for r in results if r["target"]]
    met = [r for r in tg if r["target"]["met"]]
    judged = [c for c in checks if c["met"] is not None]
    w("")
    nmet = len(met) + sum(c["met"] for c in judged)
    w("Targets: %d met, %d missed" % (nmet, len(tg) + len(judged) - nmet))
    for c in judged:
        if not c["met"]:
            w("  MISSED: %s: %s (target %s)" % (c["what"], c["value"], c["criterion"]))
    for r in sorted(tg, key=key):
        if not r["target"]["met"]:
            w("  MISSED: np%d %-8s %-34s %s %s (target %s)" % (r["npes"], r["window"], r["label"],
                                                           fmt_num(r["median"]), r["unit"], r["target"]["text"]))
    return "\n".join(out)


def human(b):
    if b is None:
        return "?"
    for unit, f in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(b) >= f:
            return "%.1f %s" % (b / f, unit)
    return "%d B" % b


def meta_info(raw_dir):
    cpu = platform.processor() or "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = "?"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                timeout=10).stdout.strip() or "?"
    except Exception:
        pass
    trials, ms = os.environ.get("BENCH_TRIALS", "11"), os.environ.get("BENCH_MS", "10")
    return {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cpu": cpu, "ncpu": os.cpu_count() or 0, "own_cpus": own_cores(),
            "trials": int(trials), "ms": ms, "git_commit": commit, "host": platform.node(),
            "definitions": "median over trials of the slowest PE's time (all PEs work at once, each on its "
                           "right neighbour); latency/epoch/request windows: 1024 integers; bandwidth "
                           "windows: 16 MiB; MB = 1e6 bytes; see bench/rpncomm_bench.F90"}


def main():
    raw_dir, out_dir = sys.argv[1], sys.argv[2]
    floor, results, memory, errors, load = parse(raw_dir)
    enrich(floor, results)
    meta = meta_info(raw_dir)
    meta["foreign_load_cpus"] = load
    raw, raw_version, repeats, side, placements = parse_extra(raw_dir, errors)
    extra = {"raw": raw, "raw_version": raw_version, "repeats": repeats, "placements": placements,
             "checks": scaling_checks(results, raw, repeats, meta["own_cpus"], side, placements)}
    skipped = os.path.join(raw_dir, "raw_skipped.txt")
    if os.path.exists(skipped):
        extra["raw_skipped"] = open(skipped).read().strip()
    text = table(floor, results, memory, meta, extra)
    print(text)
    tg = [r for r in results if r["target"]]
    checks = [c for c in checks_of(results) + extra["checks"] if c["met"] is not None]
    doc = {"meta": meta, "floor": floor, "anchors": {"original_openmpi_np2_np4": ORIGINAL, "floor": ANCHOR_FLOOR},
           "results": results, "memory": memory, "errors": errors,
           "checks": checks_of(results) + extra["checks"],
           "raw_mpi": {"library": raw_version, "results": [dict(op=k[0], npes=k[1], **v) for k, v in sorted(raw.items())]},
           "repeat_np4_on_2_cores": repeats,
           "placements_np4_on_2_cores": placements,
           "targets": {"met": sum(r["target"]["met"] for r in tg) + sum(c["met"] for c in checks),
                       "missed": sum(not r["target"]["met"] for r in tg) + sum(not c["met"] for c in checks)}}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(out_dir, "results.csv"), "w", newline="") as f:
        c = csv.writer(f)
        c.writerow(["kind", "operation", "npes", "window", "median", "min", "max", "unit", "niter", "errors",
                    "floor_ratio", "original_openmpi", "x_faster_than_original", "mpi_transport",
                    "x_faster_than_mpi_transport", "target", "target_met", "p99_single_us", "max_single_us"])
        for k, v in floor.items():
            c.writerow(["floor", k, 2 if k == "cacheline_rtt" or k.startswith("memcpy2") else 1, "",
                        v["median"], v["min"], v["max"], v["unit"], v["iterations"], v["errors"], "", "", "", "", "", "", ""])
        for r in results:
            c.writerow(["result", r["op"], r["npes"], r["window"], r["median"], r["min"], r["max"], r["unit"],
                        r["niter"], r["errors"], "%.4g" % r["floor"]["ratio"] if r["floor"] else "",
                        r["original"]["value"] if r["original"] else "",
                        "%.4g" % r["original"]["x_faster"] if r["original"] else "",
                        r["mpi"]["value"] if r.get("mpi") else "",
                        "%.4g" % r["mpi"]["x_faster"] if r.get("mpi") else "",
                        r["target"]["text"] if r["target"] else "",
                        ("met" if r["target"]["met"] else "missed") if r["target"] else "",
                        r.get("p99", ""), r.get("pmax", "")])
        for what, m in memory.items():
            for field, v in m.items():
                if field != "npes":
                    c.writerow(["memory", what + "." + field, m["npes"], what[4:], v["value"], "", "", v["unit"],
                                "", "", "", "", "", "", "", "", ""])
    with open(os.path.join(out_dir, "table.txt"), "w") as f:
        f.write(text + "\n")
    if errors:
        print("\nBENCH DATA ERRORS:", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
