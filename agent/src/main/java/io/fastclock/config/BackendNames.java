package io.fastclock.config;

/**
 * The backends' names ({@link Backend#settingName()}) as constants, for what need not load
 * {@link Backend} (the clocks' {@code name()}, the settings' values, the published state). Written
 * out in two more places only, whose class loaders cannot see the agent's classes: the boot
 * runtime's SystemClocks and the JNA adapter; BackendTest holds them to these.
 */
public final class BackendNames {
    public static final String SYSTEM = "system";
    public static final String COARSE = "coarse";
    public static final String TSC = "tsc";
    public static final String JNA_COARSE = "jna-coarse";

    private BackendNames() {}
}
