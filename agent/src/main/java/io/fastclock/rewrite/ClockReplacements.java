package io.fastclock.rewrite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * What gets replaced by what: the one table the rewriter reads. Every row swaps a static method
 * reference for one with the same descriptor, so a rewrite changes owners (and names) in the
 * constant pool and nothing else: no stack map frame, max stack or local changes.
 *
 * <table>
 *   <tr><th>JDK method</th><th>fastclock method</th><th>served by</th></tr>
 *   <tr><td>System.currentTimeMillis()J</td><td>FastClock.currentTimeMillis()J</td><td>the millis backend</td></tr>
 *   <tr><td>System.nanoTime()J</td><td>FastClock.nanoTime()J</td><td>the nanos backend</td></tr>
 *   <tr><td>jdk.internal.misc.VM.getNanoTimeAdjustment(J)J</td><td>FastClock.nanoTimeAdjustment(J)J</td>
 *       <td>the epoch backend (java.time's system clock; only JDK classes can call it)</td></tr>
 * </table>
 *
 * Which rows apply is the agent's decision (decide.JavaTimeCoverage), given here as the reads served
 * ({@link #serving}).
 *
 * <p>The millis row applies inside the JDK's time classes as everywhere else. There it also feeds
 * {@code Clock.currentInstant()} (JDK 17+), {@code Clock$SystemClock.instant()} (JDK 11) and
 * their static initialisers, which call currentTimeMillis only to seed the offset (seconds) that
 * getNanoTimeAdjustment is asked relative to, and again when it answers -1. The Instant they build is
 * {@code offset + getNanoTimeAdjustment(offset)}, whatever offset was chosen (it only needs to be
 * within 2^32 s of now): a coarse millis there, next to the JDK's fine adjustment, moves the offset
 * by at most a tick and never the Instant.
 */
public final class ClockReplacements {
    public static final String FAST_CLOCK = "io/fastclock/runtime/FastClock";

    /** Which backend serves a row. */
    public enum Served {
        MILLIS, NANOS, EPOCH
    }

    /** One row: {@code owner.name desc} becomes {@code newOwner.newName desc}. */
    public static final class Row {
        public final String owner;
        public final String name;
        public final String descriptor;
        public final String newOwner;
        public final String newName;
        public final Served servedBy;

        public Row(String owner, String name, String descriptor, String newOwner, String newName, Served servedBy) {
            this.owner = owner;
            this.name = name;
            this.descriptor = descriptor;
            this.newOwner = newOwner;
            this.newName = newName;
            this.servedBy = servedBy;
        }

        boolean matches(String owner, String name, String descriptor) {
            return this.owner.equals(owner) && this.name.equals(name) && this.descriptor.equals(descriptor);
        }

        @Override
        public String toString() {
            return owner + "." + name + descriptor + " -> " + newOwner + "." + newName;
        }
    }

    /** The whole table. */
    public static final List<Row> TABLE = Collections.unmodifiableList(List.of(
            new Row("java/lang/System", "currentTimeMillis", "()J", FAST_CLOCK, "currentTimeMillis", Served.MILLIS),
            new Row("java/lang/System", "nanoTime", "()J", FAST_CLOCK, "nanoTime", Served.NANOS),
            new Row("jdk/internal/misc/VM", "getNanoTimeAdjustment", "(J)J", FAST_CLOCK, "nanoTimeAdjustment",
                    Served.EPOCH)));

    private static final ClockReplacements ALL = new ClockReplacements(TABLE);

    private final Row[] rows;
    private final String[] owners;

    private ClockReplacements(List<Row> rows) {
        this.rows = rows.toArray(new Row[0]);
        List<String> o = new ArrayList<>();
        for (Row r : rows) {
            if (!o.contains(r.owner)) {
                o.add(r.owner);
            }
        }
        this.owners = o.toArray(new String[0]);
    }

    /** Every row. */
    public static ClockReplacements all() {
        return ALL;
    }

    /** These rows (the runtime's switch has rows of its own). */
    public static ClockReplacements of(List<Row> rows) {
        return new ClockReplacements(rows);
    }

    /** Every row served by one of {@code served}: what premain rewrites before the verdict says which clocks switch. */
    public static ClockReplacements serving(Set<Served> served) {
        List<Row> rows = new ArrayList<>();
        for (Row r : TABLE) {
            if (served.contains(r.servedBy)) {
                rows.add(r);
            }
        }
        return new ClockReplacements(rows);
    }

    /** Whether this table has every row of {@code other}. */
    public boolean covers(ClockReplacements other) {
        for (Row r : other.rows) {
            if (find(r.owner, r.name, r.descriptor) == null) {
                return false;
            }
        }
        return true;
    }

    /** Whether a row served by this backend is rewritten. */
    public boolean serves(Served served) {
        for (Row r : rows) {
            if (r.servedBy == served) {
                return true;
            }
        }
        return false;
    }

    /** The row for this method reference, or null. */
    public Row find(String owner, String name, String descriptor) {
        for (Row r : rows) {
            if (r.matches(owner, name, descriptor)) {
                return r;
            }
        }
        return null;
    }

    /** Whether some row's owner is {@code owner}. */
    public boolean hasOwner(String owner) {
        for (String o : owners) {
            if (o.equals(owner)) {
                return true;
            }
        }
        return false;
    }

    /** The owners (internal names) whose methods some row replaces. */
    public String[] owners() {
        return owners.clone();
    }

    public boolean isEmpty() {
        return rows.length == 0;
    }

    public List<Row> rows() {
        return List.of(rows);
    }
}
