package io.fastclock.it.apps;

import java.lang.reflect.Field;
import java.time.Clock;
import java.time.Instant;

/**
 * Makes java.time re-seed the offset its epoch read is asked relative to, again and again, and checks
 * each Instant.now() against CLOCK_REALTIME read through JNA around it. The JDK calls
 * System.currentTimeMillis() only there (Clock.currentInstant() on 17+, Clock$SystemClock.instant()
 * on 11): once getNanoTimeAdjustment answers -1 because the offset is 2^33 s away, the offset is
 * re-seeded from currentTimeMillis, which the agent may have moved onto a coarse clock, and the
 * adjustment asked again. Needs --add-opens java.base/java.time=ALL-UNNAMED.
 *
 * <p>Prints {@code reseeds} (reads after which the offset had been re-seeded), {@code outside} (reads
 * outside [reference - lag, reference + 1 ms]) and the first such read, and {@code done=ok}.
 *
 * <p>args: reads lag-ms
 */
public final class InstantReseedApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        int reads = Integer.parseInt(args[0]);
        long lagMs = Long.parseLong(args[1]);
        Offset offset = Offset.find();
        long reseeds = 0;
        long outside = 0;
        String first = null;
        for (int i = 0; i < reads; i++) {
            long far = System.currentTimeMillis() / 1000 - (1L << 33);
            offset.set(far);
            long beforeMs = Math.floorDiv(JnaClocks.realtimeNanos(), 1_000_000L);
            long v = Instant.now().toEpochMilli();
            long afterMs = Math.floorDiv(JnaClocks.realtimeNanos(), 1_000_000L);
            if (offset.get() != far) {
                reseeds++;
            }
            if (v < beforeMs - lagMs || v > afterMs + 1) {
                outside++;
                if (first == null) {
                    first = v + " not in [" + beforeMs + " - " + lagMs + ", " + afterMs + " + 1]";
                }
            }
        }
        System.out.println("reseeds=" + reseeds);
        System.out.println("outside=" + outside);
        System.out.println("firstOutside=" + first);
        System.out.println("epoch=" + JTimeCoverageApp.epochBackend());
        System.out.println("done=ok");
    }

    /** java.time's offset: Clock.offset (static, 17+) or Clock$SystemClock.offset of Clock.systemUTC() (11). */
    private static final class Offset {
        private final Field field;
        private final Object owner;

        private Offset(Field field, Object owner) {
            this.field = field;
            this.owner = owner;
        }

        static Offset find() throws ReflectiveOperationException {
            try {
                Field f = Clock.class.getDeclaredField("offset");
                f.setAccessible(true);
                return new Offset(f, null);
            } catch (NoSuchFieldException e) {
                Field f = Class.forName("java.time.Clock$SystemClock").getDeclaredField("offset");
                f.setAccessible(true);
                return new Offset(f, Clock.systemUTC());
            }
        }

        long get() throws IllegalAccessException {
            return field.getLong(owner);
        }

        void set(long seconds) throws IllegalAccessException {
            field.setLong(owner, seconds);
        }
    }
}
