package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import io.fastclock.rewrite.ClockReplacements.Grain;
import io.fastclock.rewrite.ClockReplacements.Served;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.JdkScope;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Who serves the clock reads made inside the JDK (java.time's epoch read; the millisecond reads of
 * Date, the calendars and Clock.millis()) for a decision and the settings, and why: the rows of
 * {@link ClockReplacements} that apply, the JDK scope that is worth changing, and the sentence the
 * start line and the doctor print. One answer for all three, so they cannot disagree.
 */
public final class JavaTimeCoverage {
    private final ClockReplacements table;
    private final JdkScope asked;
    private final JdkScope scope;
    private final Backend millis;
    private final boolean tscClock;
    private final Settings.InstantClock instant;
    private final long coarseResolutionNs;

    private JavaTimeCoverage(ClockReplacements table, JdkScope asked, Backend millis, boolean tscClock,
            Settings.InstantClock instant, long coarseResolutionNs) {
        this.table = table;
        this.asked = asked;
        this.scope = asked == JdkScope.TIME && !table.serves(Served.MILLIS) && !table.serves(Served.EPOCH)
                ? JdkScope.NONE : asked;
        this.millis = millis;
        this.tscClock = tscClock;
        this.instant = instant;
        this.coarseResolutionNs = coarseResolutionNs;
    }

    /**
     * @param coarseResolutionNs clock_getres of CLOCK_REALTIME_COARSE, or -1 if unknown (for the text)
     */
    public static JavaTimeCoverage of(Decision decision, Settings settings, long coarseResolutionNs) {
        Backend millis = decision.millis().backend();
        Backend nanos = decision.nanos().backend();
        boolean tscClock = millis == Backend.TSC || nanos == Backend.TSC;
        Map<Served, Grain> grains = new EnumMap<>(Served.class);
        grains.put(Served.MILLIS, grainOf(millis));
        grains.put(Served.NANOS, grainOf(nanos));
        // java.time's epoch read: the TSC clock's where it runs, else the coarse clock millis is on.
        grains.put(Served.EPOCH, tscClock ? Grain.FINE : grainOf(millis) == Grain.COARSE ? Grain.COARSE : Grain.JDK);
        Set<Served> named = EnumSet.noneOf(Served.class);
        if (settings.nanos() == Settings.Nanos.COARSE) {
            named.add(Served.NANOS);
        }
        if (settings.instant() == Settings.InstantClock.COARSE) {
            named.add(Served.EPOCH);
        }
        return new JavaTimeCoverage(ClockReplacements.forClocks(grains, named), settings.jdk(), millis, tscClock,
                settings.instant(), coarseResolutionNs);
    }

    private static Grain grainOf(Backend backend) {
        switch (backend) {
            case TSC:
                return Grain.FINE;
            case COARSE:
            case JNA_COARSE:
                return Grain.COARSE;
            default:
                return Grain.JDK;
        }
    }

    /** The rows to rewrite, in the application's classes and in the JDK's. */
    public ClockReplacements table() {
        return table;
    }

    /** The JDK classes worth changing: jdk=time changes none when none of its reads is served. */
    public JdkScope scope() {
        return scope;
    }

    /** Whether java.time's epoch read is handed over. */
    public boolean servesEpoch() {
        return table.serves(Served.EPOCH) && scope != JdkScope.NONE;
    }

    /** The backend serving java.time's epoch read: tsc, coarse, jna-coarse, or "jdk" (the JDK's own). */
    public String epochBackend() {
        return !servesEpoch() ? "jdk" : tscClock ? Backend.TSC.settingName() : millis.settingName();
    }

    /** The backend serving the JDK's millisecond reads (Date, the calendars, Clock.millis()), or "jdk". */
    public String millisReadsBackend() {
        return table.serves(Served.MILLIS) && scope != JdkScope.NONE ? millis.settingName() : "jdk";
    }

    /** What is served and why (the doctor's line). */
    public String account() {
        return account(scope, "");
    }

    /**
     * @param used the scope in force (the agent narrows it to none where java.base cannot read the runtime)
     * @param changed what was changed (the start line's counts), said after the JDK classes served; "" for none
     */
    public String account(JdkScope used, String changed) {
        String jdk = Reasons.jdkScope(used);
        String text;
        if (used == JdkScope.NONE) {
            text = asked == JdkScope.NONE ? Reasons.NO_JDK_CLASS_CHANGED : Reasons.dateApisOnJdk(scope == JdkScope.NONE);
        } else if (servesEpoch() && tscClock) {
            text = Reasons.javaTimeOnTsc(jdk, changed);
        } else if (servesEpoch()) {
            text = Reasons.javaTimeOnCoarse(millis.settingName(), coarseResolutionNs, jdk, changed);
        } else if (table.serves(Served.MILLIS)) {
            text = Reasons.onlyMillisReadsServed(millis.settingName(), coarseResolutionNs, jdk, changed);
        } else {
            text = Reasons.nothingServed(jdk, changed);
        }
        String unused = instantCoarseUnused();
        return unused == null ? text : Reasons.joined(text, unused);
    }

    /** Why instant=coarse, named, does nothing here; null when it is not named or does something. */
    String instantCoarseUnused() {
        if (instant != Settings.InstantClock.COARSE || servesEpoch() && !tscClock) {
            return null;
        }
        if (tscClock) {
            return Reasons.INSTANT_COARSE_UNUSED_TSC;
        }
        if (grainOf(millis) != Grain.COARSE) {
            return Reasons.INSTANT_COARSE_UNUSED_MILLIS;
        }
        return Reasons.INSTANT_COARSE_UNUSED_NO_JDK_CLASS;
    }
}
