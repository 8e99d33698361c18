package io.fastclock.runtime;

/**
 * What FastClock serves when nothing was installed: the JDK's own clocks. Their name is written out,
 * as the boot runtime names no class of the agent, not even for a constant (javac leaves the
 * constant's class in the constant pool): BackendTest holds it to config.BackendNames.SYSTEM.
 */
final class SystemClocks {
    static final MillisClock MILLIS = new MillisClock() {
        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public String name() {
            return "system";
        }
    };

    static final NanosClock NANOS = new NanosClock() {
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
}
