package io.fastclock.doctor;

import io.fastclock.decide.JavaTimeCoverage;
import io.fastclock.probe.MachineProbe;
import io.fastclock.measure.MillisLagMeter;
import io.fastclock.measure.TscRead;
import io.fastclock.decide.Choice;
import io.fastclock.decide.Decision;
import io.fastclock.probe.MachineFacts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The doctor's report as JSON ({@code --json}), from {@link DoctorFacts} alone. */
public final class DoctorJson {
    /**
     * The JSON report's schema, documented field by field in the README. Adding a field keeps the
     * version; removing or renaming one, or changing its type or unit, bumps it.
     */
    public static final String SCHEMA = "fastclock-doctor/1";

    private final DoctorFacts facts;
    private final MachineProbe probe;

    private DoctorJson(DoctorFacts facts) {
        this.facts = facts;
        this.probe = facts.probe;
    }

    /** The report as the map {@link Json} writes: the fields docs/JSON.md documents under {@link #SCHEMA}. */
    public static Map<String, Object> render(DoctorFacts facts) {
        return new DoctorJson(facts).map();
    }

    /** What --json prints when the report could not be completed: the schema and the one line that says why. */
    public static Map<String, Object> error(String line) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("schema", SCHEMA);
        error.put("error", line);
        return error;
    }

    private Map<String, Object> map() {
        MachineFacts f = probe.facts;
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("kernel", f.kernel());
        machine.put("arch", f.arch());
        machine.put("currentClocksource", f.currentClocksource());
        machine.put("availableClocksources", new ArrayList<>(f.availableClocksources()));
        machine.put("clocksourceKnownSlow", f.clocksourceKnownSlow());
        machine.put("cpuFlags", tscFlagList(f));
        machine.put("problems", new ArrayList<>(f.problems()));
        root.put("machine", machine);

        Map<String, Object> nat = new LinkedHashMap<>();
        nat.put("loaded", probe.nativeResult.loaded());
        nat.put("problem", probe.nativeResult.problem);
        if (probe.nativeResult.loaded()) {
            nat.put("realtimeCoarseResolutionNs", facts.realtimeCoarseResolutionNs);
            nat.put("monotonicCoarseResolutionNs", facts.monotonicCoarseResolutionNs);
            nat.put("cpuid", facts.cpuid());
        }
        root.put("native", nat);

        Map<String, Object> jnaMap = new LinkedHashMap<>();
        jnaMap.put("available", probe.nativeStatus.jnaAvailable());
        jnaMap.put("problem", probe.nativeStatus.jnaProblem());
        if (probe.jna != null) {
            jnaMap.put("loadMs", probe.jna.elapsedNanos / 1e6);
        }
        root.put("jna", jnaMap);

        Map<String, Object> tscMap = new LinkedHashMap<>();
        tscMap.put("checked", probe.tscChecks != null);
        if (probe.tscChecks != null) {
            tscMap.put("crossCpuOk", probe.tscChecks.crossCpuOk());
            tscMap.put("crossCpuProblem", probe.tscChecks.crossCpuProblem);
            tscMap.put("crossCpuBusy", probe.tscChecks.crossCpuCutShortByBusyCpus);
            tscMap.put("crossCpuCpus", probe.tscChecks.crossCpuCpus);
            tscMap.put("crossCpuReads", probe.tscChecks.crossCpuReads);
            if (probe.tscChecks.calibration != null) {
                tscMap.put("calibrationConverged", probe.tscChecks.calibration.converged);
                tscMap.put("calibrationProblem", probe.tscChecks.calibration.problem);
                tscMap.put("nanosPerTick", probe.tscChecks.calibration.nanosPerTick);
                tscMap.put("calibrationMs", probe.tscChecks.calibration.elapsedNanos / 1e6);
            }
        }
        tscMap.put("usableProblem", facts.tscStartProblem);
        tscMap.put("staticProblems", new ArrayList<Object>(facts.tscStaticBlockers));
        root.put("tsc", tscMap);

        root.put("javaNanosPerCall", new LinkedHashMap<String, Object>(facts.javaCosts));
        root.put("nativeNanosPerCall", new LinkedHashMap<String, Object>(facts.nativeCosts));
        root.put("limitNanosPerCall", new LinkedHashMap<String, Object>(facts.limits()));
        if (probe.tscChecks != null) {
            Map<String, Object> reads = new LinkedHashMap<>();
            reads.put("nanos", probe.tscChecks.reads.nanos.label);
            reads.put("millis", probe.tscChecks.reads.millis.label);
            Map<String, Object> costs = new LinkedHashMap<>();
            for (Map.Entry<TscRead, Double> e : probe.tscChecks.reads.costNanos.entrySet()) {
                costs.put(e.getKey().label, e.getValue());
            }
            reads.put("costNanos", costs);
            reads.put("lfence", facts.lfence());
            root.put("tscReads", reads);
        }
        root.put("millisLag", millisLagMap());
        root.put("auto", decisionMap(facts.auto, facts.autoJavaTime));
        root.put("forcedOn", decisionMap(facts.forced, facts.forcedJavaTime));
        return root;
    }

    private Map<String, Object> millisLagMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reference", facts.millisLag.reference);
        m.put("durationMs", DoctorFacts.LAG_NANOS / 1_000_000);
        m.put("aheadBoundNs", MillisLagMeter.AHEAD_BOUND_NS);
        Map<String, Object> backends = new LinkedHashMap<>();
        for (MillisLagMeter.Result r : facts.millisLag.results) {
            long stated = facts.millisLag.statedLagNs.get(r.backend);
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("reads", r.reads);
            b.put("worstBehindNs", r.reads == 0 ? null : r.worstBehindNs);
            b.put("statedLagNs", stated < 0 ? null : stated);
            b.put("worstAheadNs", r.reads == 0 ? null : r.worstAheadNs);
            b.put("withinContract", stated < 0 ? null : facts.millisLag.kept(r));
            backends.put(r.backend, b);
        }
        m.put("backends", backends);
        return m;
    }

    private static List<String> tscFlagList(MachineFacts f) {
        List<String> flags = new ArrayList<>();
        for (String flag : DoctorFacts.TSC_FLAGS) {
            if (f.hasFlag(flag)) {
                flags.add(flag);
            }
        }
        return flags;
    }

    private static Map<String, Object> decisionMap(Decision d, JavaTimeCoverage javaTime) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("active", d.active());
        m.put("summary", d.summary());
        m.put("millis", choiceMap(d.millis()));
        m.put("nanos", choiceMap(d.nanos()));
        m.put("warnings", new ArrayList<>(d.warnings()));
        Map<String, Object> jt = new LinkedHashMap<>();
        jt.put("epoch", d.active() ? javaTime.epochBackend() : "jdk");
        jt.put("millisReads", d.active() ? javaTime.millisReadsBackend() : "jdk");
        jt.put("reason", d.active() ? javaTime.account() : "fastclock would be inactive: no JDK class changed");
        m.put("javaTime", jt);
        return m;
    }

    private static Map<String, Object> choiceMap(Choice c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", c.backend().settingName());
        m.put("reason", c.reason());
        m.put("lagNs", c.lagNs());
        return m;
    }
}
