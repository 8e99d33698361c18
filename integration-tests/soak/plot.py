#!/usr/bin/env python3
"""Plots a soak CSV (SoakApp) to PNG: deviation of the rewritten clocks against time."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

src, dst = sys.argv[1], sys.argv[2]
title = sys.argv[3] if len(sys.argv) > 3 else "fastclock soak"
rows = list(csv.DictReader(open(src)))
t = [float(r["t_s"]) / 60 for r in rows]
dev = [int(r["nanos_max_dev_ns"]) for r in rows]
off = [int(r["nanos_offset_ns"]) for r in rows]
rate = [float(r["rate_err_ppm"]) for r in rows]
behind = [int(r["millis_behind_ms"]) for r in rows]
ahead = [int(r["millis_ahead_ms"]) for r in rows]

fig, ax = plt.subplots(3, 1, figsize=(10, 9), sharex=True)
# Axes scale to the data (the contract bounds would flatten everything); bounds are in the labels.
ax[0].plot(t, dev, lw=0.8, label="max deviation outside [before, after] (ns); contract 100000 ns, worst %d" % max(dev))
ax[0].plot(t, off, lw=0.8, label="offset at the narrowest window (ns), range %d..%d" % (min(off), max(off)))
ax[0].set_ylabel("ns")
ax[0].legend(loc="upper right", fontsize=8)
ax[0].set_title(title)
ax[1].plot(t, rate, lw=0.8, label="rate error over the last ~1 s (ppm); contract 50, worst %.3f" % max(rate, key=abs))
ax[1].set_ylabel("ppm")
ax[1].legend(loc="upper right", fontsize=8)
ax[2].plot(t, behind, lw=0.8, label="millis behind System.currentTimeMillis (ms); contract 1")
ax[2].plot(t, ahead, "o", ms=1.5, label="millis ahead (ms); contract 1")
ax[2].set_ylim(-0.5, 2)
ax[2].set_ylabel("ms")
ax[2].set_xlabel("minutes")
ax[2].legend(loc="upper right", fontsize=8)
fig.tight_layout()
fig.savefig(dst, dpi=90)
print("plot:", dst)
