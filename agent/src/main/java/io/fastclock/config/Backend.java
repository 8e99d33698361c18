package io.fastclock.config;

/**
 * Where a rewritten clock gets its time. Its name is {@link BackendNames}': the settings' values
 * ({@code millis=}, {@code nanos=}), each clock's {@code name()}, the published state
 * ({@code fastclock.millis}, {@code fastclock.nanos}, {@code fastclock.epoch}) and the lines all
 * spell a backend as {@link #settingName()} or BackendNames has it.
 */
public enum Backend {
    /** The JDK's own clock: nothing is rewritten for this clock. */
    SYSTEM(BackendNames.SYSTEM),
    /** {@code clock_gettime} with a {@code _COARSE} clock through the JNI library. */
    COARSE(BackendNames.COARSE),
    /** A clock computed from the CPU's time-stamp counter, read through the JNI library. */
    TSC(BackendNames.TSC),
    /** {@code CLOCK_REALTIME_COARSE} through JNA, where the JNI library cannot load. */
    JNA_COARSE(BackendNames.JNA_COARSE);

    private final String settingName;

    Backend(String settingName) {
        this.settingName = settingName;
    }

    /** The name used in settings and messages. */
    public String settingName() {
        return settingName;
    }
}
