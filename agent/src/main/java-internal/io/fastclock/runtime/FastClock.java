package io.fastclock.runtime;

import jdk.internal.misc.VM;

/**
 * The entry points rewritten call sites link to, each with the descriptor of the JDK method it
 * replaces (io.fastclock.rewrite.ClockReplacements). As defined, each serves the JDK's own clock: from
 * premain on, classes are rewritten to call these before the agent has decided anything. When the
 * verdict switches a clock, the agent retransforms this class, and its call of the JDK's clock (and of
 * the name below) is repointed at io.fastclock.boot.InstalledClocks, whose backends are static finals
 * (io.fastclock.boot.ClockSwitch). The JIT folds this through to the backend and, when the class is
 * retransformed, deoptimises whatever inlined it, loops already running included: the switch costs
 * nothing per read, before it or after.
 *
 * <p>Compiled with the JDK's internal packages in view ({@code agent/pom.xml}, jdk-internal-calls):
 * java.time's epoch read calls {@link VM#getNanoTimeAdjustment} through here. At run time java.base
 * exports jdk.internal.misc to this module alone, which opens nothing to anyone.
 */
public final class FastClock {
    private FastClock() {}

    /** Replaces {@code System.currentTimeMillis()}. */
    public static long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    /** Replaces {@code System.nanoTime()}. */
    public static long nanoTime() {
        return System.nanoTime();
    }

    /** Replaces {@code jdk.internal.misc.VM.getNanoTimeAdjustment(long)} inside java.time. */
    public static long nanoTimeAdjustment(long offsetSeconds) {
        return VM.getNanoTimeAdjustment(offsetSeconds);
    }

    /** Read-only: the name of the backend behind currentTimeMillis. */
    public static String millisBackend() {
        return SystemClocks.millisBackend();
    }

    /** Read-only: the name of the backend behind nanoTime. */
    public static String nanosBackend() {
        return SystemClocks.nanosBackend();
    }

    /** Null while java.time's epoch read is not handed to fastclock. */
    public static String epochBackend() {
        return SystemClocks.epochBackend();
    }
}
