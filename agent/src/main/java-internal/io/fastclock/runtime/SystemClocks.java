package io.fastclock.runtime;

/**
 * The JDK's own clocks as backends: what a clock that is not switched is served by, and the names
 * {@link FastClock} reports until the switch repoints it. Their name is written out, as the boot
 * runtime names no class of the agent, not even for a constant (javac leaves the constant's class
 * in the constant pool): BackendTest holds it to config.BackendNames.SYSTEM.
 */
public final class SystemClocks {
    public static final MillisClock MILLIS = new MillisClock() {
        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public String name() {
            return "system";
        }
    };

    public static final NanosClock NANOS = new NanosClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public String name() {
            return "system";
        }
    };

    private SystemClocks() {}

    public static String millisBackend() {
        return "system";
    }

    public static String nanosBackend() {
        return "system";
    }

    /** Null: java.time's epoch read is the JDK's, and was never handed over. */
    public static String epochBackend() {
        return null;
    }
}
