package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.ClockRead;
import io.fastclock.config.JdkSetting;
import io.fastclock.config.Settings;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Who serves the clock reads (currentTimeMillis's, nanoTime's, and those made inside the JDK:
 * java.time's epoch read; the millisecond reads of Date, the calendars and Clock.millis()) for a
 * decision and the settings, and why: the reads rewritten, the JDK scope that is worth changing, and
 * the sentence the start line and the doctor print. One answer for all three, so they cannot disagree.
 *
 * <p>A read is rewritten only where its backend is not the JDK's own clock (rewriting it to run the same
 * clock one call deeper buys nothing), and, where that backend is a coarse clock, only by default for
 * currentTimeMillis (millis.lag: every millisecond read may lag by L, the JDK's too), for nanoTime and
 * the epoch read only when the user names the coarse clock (nanos=coarse, instant=coarse).
 */
public final class JavaTimeCoverage {
    /** What kind of clock serves a read. */
    private enum Grain {
        /** The JDK's own clock: nothing to rewrite. */
        JDK,
        /** A coarse clock: one kernel tick of resolution. */
        COARSE,
        /** A fine clock (the TSC clock). */
        FINE
    }

    private final Set<ClockRead> served;
    private final JdkSetting asked;
    private final JdkSetting scope;
    private final Backend millis;
    private final boolean tscClock;
    private final Settings.InstantClock instant;
    private final long coarseResolutionNs;

    private JavaTimeCoverage(Set<ClockRead> served, JdkSetting asked, Backend millis, boolean tscClock,
            Settings.InstantClock instant, long coarseResolutionNs) {
        this.served = served;
        this.asked = asked;
        this.scope = asked == JdkSetting.TIME && !served.contains(ClockRead.MILLIS) && !served.contains(ClockRead.EPOCH)
                ? JdkSetting.NONE : asked;
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
        Map<ClockRead, Grain> grains = new EnumMap<>(ClockRead.class);
        grains.put(ClockRead.MILLIS, grainOf(millis));
        grains.put(ClockRead.NANOS, grainOf(nanos));
        // java.time's epoch read: the TSC clock's where it runs, else the coarse clock millis is on.
        grains.put(ClockRead.EPOCH, tscClock ? Grain.FINE : grainOf(millis) == Grain.COARSE ? Grain.COARSE : Grain.JDK);
        Set<ClockRead> named = EnumSet.noneOf(ClockRead.class);
        if (settings.nanos() == Settings.Nanos.COARSE) {
            named.add(ClockRead.NANOS);
        }
        if (settings.instant() == Settings.InstantClock.COARSE) {
            named.add(ClockRead.EPOCH);
        }
        Set<ClockRead> served = EnumSet.noneOf(ClockRead.class);
        for (Map.Entry<ClockRead, Grain> e : grains.entrySet()) {
            Grain grain = e.getValue();
            if (grain == Grain.FINE || grain == Grain.COARSE && (e.getKey() == ClockRead.MILLIS || named.contains(e.getKey()))) {
                served.add(e.getKey());
            }
        }
        return new JavaTimeCoverage(Collections.unmodifiableSet(served), settings.jdk(), millis, tscClock, settings.instant(),
                coarseResolutionNs);
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

    /** The reads rewritten, in the application's classes and in the JDK's. */
    public Set<ClockRead> served() {
        return served;
    }

    public boolean serves(ClockRead read) {
        return served.contains(read);
    }

    /** The JDK classes worth changing: jdk=time changes none when none of its reads is served. */
    public JdkSetting scope() {
        return scope;
    }

    /** Whether java.time's epoch read is handed over. */
    public boolean servesEpoch() {
        return served.contains(ClockRead.EPOCH) && scope != JdkSetting.NONE;
    }

    /** The backend serving java.time's epoch read: tsc, coarse, jna-coarse, or "jdk" (the JDK's own). */
    public String epochBackend() {
        return !servesEpoch() ? "jdk" : tscClock ? Backend.TSC.settingName() : millis.settingName();
    }

    /** The backend serving the JDK's millisecond reads (Date, the calendars, Clock.millis()), or "jdk". */
    public String millisReadsBackend() {
        return served.contains(ClockRead.MILLIS) && scope != JdkSetting.NONE ? millis.settingName() : "jdk";
    }

    /** What is served and why (the doctor's line). */
    public String account() {
        return account(scope, "");
    }

    /**
     * @param used the scope in force (the agent narrows it to none where java.base cannot read the runtime)
     * @param changed what was changed (the start line's counts), said after the JDK classes served; "" for none
     */
    public String account(JdkSetting used, String changed) {
        String jdk = Reasons.jdkScope(used);
        String text;
        if (used == JdkSetting.NONE) {
            text = asked == JdkSetting.NONE ? Reasons.NO_JDK_CLASS_CHANGED : Reasons.dateApisOnJdk(scope == JdkSetting.NONE);
        } else if (servesEpoch() && tscClock) {
            text = Reasons.javaTimeOnTsc(jdk, changed);
        } else if (servesEpoch()) {
            text = Reasons.javaTimeOnCoarse(millis.settingName(), coarseResolutionNs, jdk, changed);
        } else if (served.contains(ClockRead.MILLIS)) {
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
