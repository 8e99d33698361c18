package io.fastclock.doctor;

import io.fastclock.decide.JavaTimeCoverage;
import io.fastclock.probe.MachineProbe;
import io.fastclock.measure.MillisLagMeter;
import io.fastclock.measure.TscRead;
import io.fastclock.measure.TscReadChoice;
import io.fastclock.decide.Decision;
import io.fastclock.probe.MachineFacts;
import io.fastclock.decide.Reasons;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The doctor's report as text, from {@link DoctorFacts} alone. */
public final class DoctorText {
    private final DoctorFacts facts;
    private final MachineProbe probe;
    private final Map<String, Double> javaCosts;
    private final Map<String, Double> nativeCosts;
    private final DoctorFacts.MillisLag millisLag;

    private DoctorText(DoctorFacts facts) {
        this.facts = facts;
        this.probe = facts.probe;
        this.javaCosts = facts.javaCosts;
        this.nativeCosts = facts.nativeCosts;
        this.millisLag = facts.millisLag;
    }

    /** The report as the doctor prints it. */
    public static String render(DoctorFacts facts) {
        return new DoctorText(facts).text();
    }

    private String text() {
        MachineFacts f = probe.facts;
        StringBuilder out = new StringBuilder();
        out.append("fastclock doctor: what this machine's clocks cost and what the agent would do\n\n");
        out.append("Machine\n");
        line(out, "kernel", f.kernel());
        line(out, "arch", f.arch());
        line(out, "clocksource", f.clocksourceForDisplay() + " (available: "
                + (f.availableClocksourcesKnown() ? String.join(" ", f.availableClocksources()) : "unknown") + ")");
        line(out, "known slow", f.clocksourceKnownSlow() ? "yes: fine clock reads are syscalls and hardware accesses" : "no");
        line(out, "CPU TSC flags", tscFlags(f));
        line(out, "native library", probe.nativeResult.loaded() ? "loaded (" + probe.nativeResult.how + ")"
                : "not loaded: " + probe.nativeResult.problem);
        if (probe.extractionNotice != null) {
            line(out, "extracted to", probe.extractionNotice);
        }
        line(out, "JNA (fallback)", jnaLine());
        if (probe.nativeResult.loaded()) {
            line(out, "CPUID", facts.cpuid());
            line(out, "coarse resolution", "CLOCK_REALTIME_COARSE " + ms(facts.realtimeCoarseResolutionNs)
                    + ", CLOCK_MONOTONIC_COARSE " + ms(facts.monotonicCoarseResolutionNs)
                    + " (one kernel tick)");
        }
        for (String problem : f.problems()) {
            line(out, "could not read", problem);
        }
        out.append("\nTSC checks\n");
        if (probe.tscChecks == null) {
            line(out, "not run", probe.nativeResult.loaded() ? "not an x86_64 CPU" : "needs the native library");
        } else {
            line(out, "cross-CPU", probe.tscChecks.crossCpuOk()
                    ? "passed: " + probe.tscChecks.crossCpuCpus + " CPUs, " + probe.tscChecks.crossCpuReads
                            + " interleaved reads, never backwards"
                    : probe.tscChecks.crossCpuCutShortByBusyCpus
                            ? "could not measure: the CPUs were busy (" + probe.tscChecks.crossCpuProblem
                                    + "); run the doctor again when they are not"
                            : "FAILED: " + probe.tscChecks.crossCpuProblem);
            if (probe.tscChecks.calibration == null) {
                line(out, "calibration", "not run");
            } else if (probe.tscChecks.calibration.converged) {
                line(out, "calibration", String.format(Locale.ROOT,
                        "converged in %.1f ms: %.4f GHz (%.4f ns/tick), halves agree within %.1f ppm",
                        probe.tscChecks.calibration.elapsedNanos / 1e6, 1 / probe.tscChecks.calibration.nanosPerTick,
                        probe.tscChecks.calibration.nanosPerTick, probe.tscChecks.calibration.disagreementPpm));
            } else {
                line(out, "calibration", "FAILED: " + probe.tscChecks.calibration.problem);
            }
        }
        if (probe.tscChecks != null) {
            TscReadChoice reads = probe.tscChecks.reads;
            line(out, "TSC reads", "nanoTime: " + reads.nanos.label + ", the cheapest ordered read offered here ("
                    + readCosts(reads) + "); currentTimeMillis: " + reads.millis.label
                    + String.format(Locale.ROOT, " %.1f ns", reads.cost(reads.millis)));
            for (Map.Entry<TscRead, String> e : reads.notOffered.entrySet()) {
                line(out, "", "not offered: " + e.getKey().label + ": " + e.getValue());
            }
            line(out, "LFENCE", facts.lfence());
        }
        List<String> tscBlockers = facts.tscStaticBlockers;
        if (!tscBlockers.isEmpty()) {
            line(out, "TSC not used", "by the agent, for " + (tscBlockers.size() == 1 ? "this reason:" : "each of these reasons:"));
            for (String why : tscBlockers) {
                line(out, "", why);
            }
        }
        if (facts.tscRunning) {
            line(out, "TSC clock", String.format(Locale.ROOT, "running%s; after %d re-anchors it is %.1f us from CLOCK_MONOTONIC",
                    tscBlockers.isEmpty() ? "" : " (for the measurements below only)", facts.tscReanchors,
                    facts.tscLastErrorNanos / 1e3));
        } else if (tscBlockers.isEmpty() && facts.tscStartProblem != null) {
            line(out, "TSC clock", "not usable: " + facts.tscStartProblem);
        }

        out.append("\nCost per call, ns (JIT-compiled Java, best of ").append(DoctorFacts.ROUNDS).append(" rounds of ")
                .append(DoctorFacts.ROUND_NANOS / 1_000_000).append(" ms; \"start-up\": what auto timed in a few ms\n")
                .append("  when this report started, the figures its verdicts below quote)\n");
        Map<String, Double> startup = facts.startupCosts();
        for (Map.Entry<String, Double> e : javaCosts.entrySet()) {
            Double atStart = startup.get(e.getKey());
            out.append(String.format(Locale.ROOT, "  %-44s %8.1f", e.getKey(), e.getValue()))
                    .append(atStart == null ? "" : startupText(atStart)).append('\n');
        }
        for (String read : new String[] {DoctorFacts.TSC_NANOS_READ, DoctorFacts.TSC_MILLIS_READ}) {
            Double ns = startup.get(read);
            if (ns != null) {
                out.append(String.format(Locale.ROOT, "  %-44s %8s", read, "-")).append(startupText(ns)).append('\n');
            }
        }
        if (!nativeCosts.isEmpty()) {
            out.append("\nCost per call, ns, timed in C (how the agent judges whether the system clocks are slow)\n");
            for (Map.Entry<String, Double> e : nativeCosts.entrySet()) {
                out.append(String.format(Locale.ROOT, "  %-44s %8.1f%n", e.getKey(), e.getValue()));
            }
        }

        limitText(out);

        millisLagText(out);

        out.append("\nWhat -javaagent:fastclock.jar would do here\n");
        decision(out, "auto (the default)", facts.auto, facts.autoJavaTime);
        decision(out, "mode=on (forced)", facts.forced, facts.forcedJavaTime);
        return out.toString();
    }

    private static String startupText(double ns) {
        return Double.isNaN(ns) ? "   start-up unmeasured" : String.format(Locale.ROOT, "   start-up %.1f", ns);
    }

    /** Each read through JNI against what JNI allows: the transition (a no-op call) plus the read in C. */
    private void limitText(StringBuilder out) {
        Map<String, Double> limits = facts.limits();
        if (limits.isEmpty()) {
            return;
        }
        out.append("\nAgainst the limit: ns per call, and the LIMIT = the JNI transition (no-op call, ")
                .append(String.format(Locale.ROOT, "%.1f ns", javaCosts.get(DoctorFacts.JNI_NOOP)))
                .append(") + the read timed in C\n");
        out.append(String.format(Locale.ROOT, "  %-44s %8s %8s %8s  %s%n", "clock", "cost", "LIMIT", "over", "read"));
        for (Map.Entry<String, Double> e : limits.entrySet()) {
            double cost = javaCosts.get(e.getKey());
            out.append(String.format(Locale.ROOT, "  %-44s %8.1f %8.1f %7.0f%%  %s%n", e.getKey(), cost, e.getValue(),
                    (cost / e.getValue() - 1) * 100, limitRead(e.getKey())));
        }
    }

    private String limitRead(String clock) {
        switch (clock) {
            case DoctorFacts.TSC_NANOS:
                return probe.tscChecks.reads.nanos.label;
            case DoctorFacts.TSC_MILLIS:
                return probe.tscChecks.reads.millis.label;
            default:
                return "clock_gettime(CLOCK_REALTIME_COARSE)";
        }
    }

    private static String readCosts(TscReadChoice reads) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<TscRead, Double> e : reads.costNanos.entrySet()) {
            if (e.getKey().ordered) {
                parts.add(String.format(Locale.ROOT, "%s %.1f ns", e.getKey().label, e.getValue()));
            }
        }
        return "timed in C: " + String.join(", ", parts);
    }

    private void millisLagText(StringBuilder out) {
        if (millisLag.results.isEmpty()) {
            return;
        }
        out.append("\nMillis lag against CLOCK_REALTIME (").append(millisLag.reference).append(" before and after each read; ")
                .append(DoctorFacts.LAG_NANOS / 1_000_000).append(" ms of interleaved reads)\n");
        out.append("  A value b stands for the millisecond [b, b+1): behind = reference - (b+1) ms, ahead = b ms - reference;\n"
                + "  0 or less is never. The contract: behind at most the stated lag L, ahead at most 1 ms.\n"
                + "  A coarse clock's L is what the agent states from the lag measured (at start-up, and here): the\n"
                + "  worst plus a tick, at least two ticks. While running it is restated up to ")
                .append(millisLag.capNs < 0 ? "five ticks" : Reasons.ms(millisLag.capNs) + " (five ticks)")
                .append(",\n  beyond which currentTimeMillis goes back to the system clock.\n");
        out.append(String.format(Locale.ROOT, "  %-12s %9s %14s %14s %14s  %s%n", "backend", "reads", "worst behind", "stated lag L",
                "worst ahead", "contract"));
        for (MillisLagMeter.Result r : millisLag.results) {
            long stated = millisLag.statedLagNs.get(r.backend);
            String verdict = r.reads == 0 ? "no reads" : stated < 0 ? "no lag stated (coarse resolution unknown or too coarse)"
                    : millisLag.kept(r) ? "kept"
                    : r.worstAheadNs > MillisLagMeter.AHEAD_BOUND_NS ? "BROKEN: ahead by more than 1 ms"
                    : r.worstBehindNs > stated ? "BROKEN: behind by more than the stated lag"
                    : "BROKEN: its lag is over the " + msPrecise(millisLag.capNs) + " a coarse clock may state; auto does not use it";
            out.append(String.format(Locale.ROOT, "  %-12s %9d %14s %14s %14s  %s%n", r.backend, r.reads,
                    r.reads == 0 ? "-" : msPrecise(r.worstBehindNs), stated < 0 ? "unknown" : msPrecise(stated),
                    r.reads == 0 ? "-" : msPrecise(r.worstAheadNs), verdict));
        }
    }

    /** "4.702 ms", "-17.3 us", "-37 ns": µs precision, in the unit that fits. */
    private static String msPrecise(long nanos) {
        long abs = Math.abs(nanos);
        if (abs >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
        }
        if (abs >= 1_000L) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        return nanos + " ns";
    }

    private String jnaLine() {
        if (probe.jna == null) {
            return "not looked at: " + probe.nativeStatus.jnaProblem();
        }
        if (!probe.jna.available()) {
            return "not usable: " + probe.jna.problem;
        }
        return String.format(Locale.ROOT, "loaded privately in %.1f ms (nested jar, own class loader, stub from a private"
                + " directory); CLOCK_REALTIME_COARSE through it %.0f ns a call as first measured",
                probe.jna.elapsedNanos / 1e6, probe.measurements.jnaCoarseNs());
    }

    private static void decision(StringBuilder out, String title, Decision d, JavaTimeCoverage javaTime) {
        out.append("  ").append(title).append(": ").append(d.active() ? "ACTIVE" : "inactive").append('\n');
        out.append("    currentTimeMillis -> ").append(d.millis().backend().settingName()).append(": ")
                .append(d.millis().reason()).append('\n');
        out.append("    nanoTime          -> ").append(d.nanos().backend().settingName()).append(": ")
                .append(d.nanos().reason()).append('\n');
        if (d.active()) {
            out.append("    JDK clock reads   -> ").append(javaTime.account()).append('\n');
        }
        for (String w : d.warnings()) {
            out.append("    warning: ").append(w).append('\n');
        }
    }

    private static void line(StringBuilder out, String key, String value) {
        out.append(String.format(Locale.ROOT, "  %-18s %s%n", key, value));
    }

    private static String tscFlags(MachineFacts f) {
        List<String> flags = new ArrayList<>();
        for (String flag : DoctorFacts.TSC_FLAGS) {
            flags.add((f.hasFlag(flag) ? "" : "no ") + flag);
        }
        return String.join(", ", flags);
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "unknown" : String.format(Locale.ROOT, "%.3g ms", nanos / 1e6);
    }
}
