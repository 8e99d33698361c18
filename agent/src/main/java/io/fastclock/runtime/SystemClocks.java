package io.fastclock.runtime;

/** What FastClock serves when nothing was installed: the JDK's own clocks. */
final class SystemClocks {
    static final LongClock MILLIS = new LongClock() {
        @Override
        public long read() {
            return System.currentTimeMillis();
        }

        @Override
        public String name() {
            return "system";
        }
    };

    static final LongClock NANOS = new LongClock() {
        @Override
        public long read() {
            return System.nanoTime();
        }

        @Override
        public String name() {
            return "system";
        }
    };

    private SystemClocks() {}
}
