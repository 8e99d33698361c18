package io.fastclock.boot;

import io.fastclock.runtime.EpochClock;
import jdk.internal.misc.VM;

/**
 * The JDK's own epoch read, {@code jdk.internal.misc.VM.getNanoTimeAdjustment}, as a backend: what
 * the TSC epoch read falls back to. In the runtime's switch package, exported to the agent's module
 * alone; compiled with the JDK's internal packages in view (agent/pom.xml, jdk-internal-calls), and at
 * run time java.base exports jdk.internal.misc to the runtime's module alone.
 */
public final class JdkEpoch extends EpochClock {
    public static final JdkEpoch INSTANCE = new JdkEpoch();

    private JdkEpoch() {}

    @Override
    public long nanoTimeAdjustment(long offsetSeconds) {
        return VM.getNanoTimeAdjustment(offsetSeconds);
    }

    @Override
    public String name() {
        return "system";
    }
}
