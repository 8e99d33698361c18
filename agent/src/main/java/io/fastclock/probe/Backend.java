package io.fastclock.probe;

/** Where a rewritten clock gets its time. */
public enum Backend {
    /** The JDK's own clock: nothing is rewritten for this clock. */
    SYSTEM("system"),
    /** {@code clock_gettime} with a {@code _COARSE} clock through the JNI library. */
    COARSE("coarse"),
    /** A clock computed from the CPU's time-stamp counter, read through the JNI library. */
    TSC("tsc"),
    /** {@code CLOCK_REALTIME_COARSE} through JNA, where the JNI library cannot load. */
    JNA_COARSE("jna-coarse");

    private final String settingName;

    Backend(String settingName) {
        this.settingName = settingName;
    }

    /** The name used in settings and messages. */
    public String settingName() {
        return settingName;
    }
}
