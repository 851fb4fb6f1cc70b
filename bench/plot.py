#!/usr/bin/env python3
"""Plot of the rpncomm-windows benchmark (bench/run.sh): reads results.json, writes a PNG with
three panels: latency per operation (2 and 4 PEs, user-array and internal windows, with the
original over Open MPI and the targets), fence put_r bandwidth per size (with memcpy), and the
cost of a fence empty epoch and of a request/reply round against the number of PEs.

    plot.py results.json bench.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAT_OPS = ["passive_put", "passive_get", "passive_acc", "passive_fetch", "fence_empty", "fence_put",
           "group_put", "req_kept", "req_fresh"]
SHORT = {"passive_put": "put_r", "passive_get": "get_r", "passive_acc": "getacc_r",
         "passive_fetch": "getacc_r\n+fetch", "fence_empty": "fence\nempty", "fence_put": "fence\n+put",
         "group_put": "group\n+put", "req_kept": "req/reply\nkept", "req_fresh": "req/reply\nfresh"}
BW = [("bw_8k", 8 * 1024, "memcpy_8k"), ("bw_1m", 1 << 20, "memcpy_1m"), ("bw_16m", 16 << 20, "memcpy_16m")]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    doc = json.load(open(src))
    res = {(r["op"], r["npes"], r["window"]): r for r in doc["results"]}
    floor = doc.get("floor", {})
    orig = doc["anchors"]["original_openmpi_np2_np4"]

    fig, axes = plt.subplots(1, 3, figsize=(20, 6.5), gridspec_kw={"width_ratios": [2.2, 1, 1]})

    # ---------------------------------------------------------------- latency per operation
    ax = axes[0]
    series = [(2, "user", "#1f77b4"), (2, "internal", "#6baed6"), (4, "user", "#d62728"), (4, "internal", "#fc9272")]
    width = 0.8 / len(series)
    for j, (n, w, color) in enumerate(series):
        xs, ys, lo, hi = [], [], [], []
        for i, op in enumerate(LAT_OPS):
            r = res.get((op, n, w))
            if r:
                xs.append(i + (j - 1.5) * width)
                ys.append(r["median"])
                lo.append(r["median"] - r["min"])
                hi.append(r["max"] - r["median"])
        ax.bar(xs, ys, width, color=color, label="np%d %s" % (n, w), yerr=[lo, hi], capsize=2,
               error_kw={"elinewidth": 0.8})
    for i, op in enumerate(LAT_OPS):
        if op in orig:
            ax.plot([i - 0.4, i], [orig[op][0]] * 2, color="black", lw=2)
            ax.plot([i, i + 0.4], [orig[op][1]] * 2, color="black", lw=2, ls=":")
        for r in (res.get((op, 2, "user")), res.get((op, 4, "user"))):
            if r and r.get("target"):
                half = (-0.4, 0) if r["npes"] == 2 else (0, 0.4)
                ax.plot([i + half[0], i + half[1]], [r["target"]["value"]] * 2, color="green", lw=1.5, ls="--")
    rtt = floor.get("cacheline_rtt", {}).get("median")
    if rtt:
        ax.axhline(rtt / 1000.0, color="grey", lw=1, ls="-.")
        ax.text(-0.45, rtt / 1000.0, "cache-line round trip %.0f ns" % rtt, va="bottom", ha="left",
                fontsize=7, color="grey")
    ax.plot([], [], color="black", lw=2, label="original, Open MPI np2")
    ax.plot([], [], color="black", lw=2, ls=":", label="original, Open MPI np4")
    ax.plot([], [], color="green", lw=1.5, ls="--", label="target (np2 left, np4 right)")
    ax.set_yscale("log")
    ax.set_xticks(range(len(LAT_OPS)))
    ax.set_xticklabels([SHORT[o] for o in LAT_OPS], fontsize=8)
    ax.set_ylabel("µs per operation / epoch / round (median, slowest PE)")
    ax.set_title("Latency per operation")
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    ax.grid(axis="y", which="both", alpha=0.3)

    # ---------------------------------------------------------------- bandwidth per size
    ax = axes[1]
    sizes = [b for _, b, _ in BW]
    for n, w, color, ls in [(2, "internal", "#1f77b4", "-"), (2, "user", "#1f77b4", "--"),
                            (4, "internal", "#d62728", "-"), (4, "user", "#d62728", "--")]:
        pts = [(b, res[(op, n, w)]) for op, b, _ in BW if (op, n, w) in res]
        if pts:
            ax.errorbar([b for b, _ in pts], [r["median"] / 1e3 for _, r in pts],
                        yerr=[[(r["median"] - r["min"]) / 1e3 for _, r in pts],
                              [(r["max"] - r["median"]) / 1e3 for _, r in pts]],
                        color=color, ls=ls, marker="o", capsize=3, label="np%d %s" % (n, w))
    mc = [(b, floor[f]["median"] / 1e3) for _, b, f in BW if f in floor]
    if mc:
        ax.plot([b for b, _ in mc], [v for _, v in mc], color="grey", marker="s", label="memcpy, 1 process")
    mc2 = [(b, floor[f.replace("memcpy", "memcpy2")]["median"] / 1e3) for _, b, f in BW
           if f.replace("memcpy", "memcpy2") in floor]
    if mc2:
        ax.plot([b for b, _ in mc2], [v for _, v in mc2], color="grey", ls=":", marker="s",
                label="memcpy, 2 processes at once")
    ax.plot(sizes, [orig[op][0] / 1e3 for op, _, _ in BW], color="black", marker="x", label="original, Open MPI np2")
    ax.plot(sizes, [orig[op][1] / 1e3 for op, _, _ in BW], color="black", ls=":", marker="x",
            label="original, Open MPI np4")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sizes)
    ax.set_xticklabels(["8 KiB", "1 MiB", "16 MiB"])
    ax.set_xlabel("put_r size (fence epoch, 16 MiB window)")
    ax.set_ylabel("GB/s")
    ax.set_title("Fence put_r bandwidth")
    ax.legend(fontsize=7)
    ax.grid(which="both", alpha=0.3)

    # ---------------------------------------------------------------- cost against PEs
    ax = axes[2]
    for op, color in [("fence_empty", "#2ca02c"), ("req_kept", "#9467bd"), ("req_fresh", "#8c564b")]:
        pts = sorted((n, r) for (o, n, w), r in res.items() if o == op and w == "user")
        if pts:
            ax.errorbar([n for n, _ in pts], [r["median"] for _, r in pts],
                        yerr=[[r["median"] - r["min"] for _, r in pts], [r["max"] - r["median"] for _, r in pts]],
                        color=color, marker="o", capsize=3, label=op.replace("_", " ") + " (user window)")
            ax.plot([2, 4], list(orig[op]), color=color, ls=":", marker="x")
    ax.plot([], [], color="black", ls=":", marker="x", label="original, Open MPI np2 / np4")
    ncpu = doc.get("meta", {}).get("ncpu", 2)
    ax.axvspan(ncpu + 0.5, 32, color="grey", alpha=0.1)
    ax.text(ncpu + 0.7, ax.get_ylim()[0] if False else 0.12, "oversubscribed", fontsize=8, color="grey")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlim(0.8, 20)
    ax.set_xticks([1, 2, 4, 8, 16])
    ax.set_xticklabels(["1", "2", "4", "8", "16"])
    ax.set_xlabel("PEs (%d CPUs)" % ncpu)
    ax.set_ylabel("µs")
    ax.set_title("Cost against number of PEs")
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(which="both", alpha=0.3)

    m = doc.get("meta", {})
    fig.suptitle("rpncomm-windows (shared memory) — %s, %s, commit %s; medians over %s trials, bars = min..max"
                 % (m.get("date", ""), m.get("cpu", ""), m.get("git_commit", ""), m.get("trials", "")), fontsize=10)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main()
