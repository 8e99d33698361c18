package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

import java.lang.invoke.MethodHandle;

/**
 * The JDK's own read, {@code jdk.internal.misc.VM.getNanoTimeAdjustment}. The handle is looked up by
 * the agent (whose module java.base exports jdk.internal.misc to), so the runtime needs no access
 * of its own to JDK internals; a static final handle costs what a direct call costs once compiled.
 */
public final class SystemEpoch extends EpochClock {
    private final MethodHandle getNanoTimeAdjustment;

    /** @param getNanoTimeAdjustment a handle of type (long)long */
    public SystemEpoch(MethodHandle getNanoTimeAdjustment) {
        this.getNanoTimeAdjustment = getNanoTimeAdjustment;
    }

    @Override
    public long nanoTimeAdjustment(long offsetSeconds) {
        try {
            return (long) getNanoTimeAdjustment.invokeExact(offsetSeconds);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public String name() {
        return BackendNames.SYSTEM;
    }
}
