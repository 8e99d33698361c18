package io.fastclock.it.apps;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Collections;
import java.util.Date;
import java.util.GregorianCalendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Every entry point of java.time's system clock and the legacy date APIs (reach.java-time in docs/CONTRACT.md),
 * each as one operation that returns a long. Names only java.* classes, so that JTimeCoverageApp can
 * also define it in a loader whose parent is the bootstrap loader. Built for release 11:
 * InstantSource (17+) is reached through a method handle, and left out where it does not exist.
 *
 * <p>An operation whose value is an instant returns epoch milliseconds (see {@link #isEpochMillis}),
 * so that the caller can check it against a reference; the others return a value derived from the
 * result, only so that the JIT cannot drop the call.
 */
public final class JTimeOps {
    private static final ZoneId ZONE = ZoneId.of("Europe/Paris");
    private static final Clock UTC = Clock.systemUTC();
    private static final Clock DEFAULT_ZONE = Clock.systemDefaultZone();
    private static final Clock PARIS = Clock.system(ZONE);
    private static final Map<String, LongSupplier> OPS = ops();
    private static final List<String> EPOCH_MILLIS = Collections.unmodifiableList(List.of("Instant.now",
            "Clock.systemUTC.instant", "Clock.systemUTC.millis", "Clock.systemDefaultZone.instant",
            "Clock.systemDefaultZone.millis", "Clock.system(zone).instant", "Clock.system(zone).millis",
            "InstantSource.system.instant", "InstantSource.system.millis", "ZonedDateTime.now",
            "ZonedDateTime.now(zone)", "OffsetDateTime.now", "OffsetDateTime.now(zone)", "new Date",
            "Calendar.getInstance", "new GregorianCalendar"));

    private static long sink;

    private JTimeOps() {}

    private static Map<String, LongSupplier> ops() {
        Map<String, LongSupplier> ops = new LinkedHashMap<>();
        ops.put("Instant.now", () -> Instant.now().toEpochMilli());
        ops.put("Clock.systemUTC.instant", () -> UTC.instant().toEpochMilli());
        ops.put("Clock.systemUTC.millis", () -> UTC.millis());
        ops.put("Clock.systemDefaultZone.instant", () -> DEFAULT_ZONE.instant().toEpochMilli());
        ops.put("Clock.systemDefaultZone.millis", () -> DEFAULT_ZONE.millis());
        ops.put("Clock.system(zone).instant", () -> PARIS.instant().toEpochMilli());
        ops.put("Clock.system(zone).millis", () -> PARIS.millis());
        MethodHandle[] source = instantSource();
        if (source != null) {
            ops.put("InstantSource.system.instant", () -> invoke(source[0]));
            ops.put("InstantSource.system.millis", () -> invoke(source[1]));
        }
        ops.put("LocalDate.now", () -> LocalDate.now().toEpochDay());
        ops.put("LocalDate.now(zone)", () -> LocalDate.now(ZONE).toEpochDay());
        ops.put("LocalTime.now", () -> LocalTime.now().toNanoOfDay());
        ops.put("LocalTime.now(zone)", () -> LocalTime.now(ZONE).toNanoOfDay());
        ops.put("LocalDateTime.now", () -> LocalDateTime.now().getNano());
        ops.put("LocalDateTime.now(zone)", () -> LocalDateTime.now(ZONE).getNano());
        ops.put("ZonedDateTime.now", () -> ZonedDateTime.now().toInstant().toEpochMilli());
        ops.put("ZonedDateTime.now(zone)", () -> ZonedDateTime.now(ZONE).toInstant().toEpochMilli());
        ops.put("OffsetDateTime.now", () -> OffsetDateTime.now().toInstant().toEpochMilli());
        ops.put("OffsetDateTime.now(zone)", () -> OffsetDateTime.now(ZONE).toInstant().toEpochMilli());
        ops.put("OffsetTime.now", () -> OffsetTime.now().getNano());
        ops.put("OffsetTime.now(zone)", () -> OffsetTime.now(ZONE).getNano());
        ops.put("Year.now", () -> Year.now().getValue());
        ops.put("Year.now(zone)", () -> Year.now(ZONE).getValue());
        ops.put("YearMonth.now", () -> YearMonth.now().getMonthValue());
        ops.put("YearMonth.now(zone)", () -> YearMonth.now(ZONE).getMonthValue());
        ops.put("MonthDay.now", () -> MonthDay.now().getDayOfMonth());
        ops.put("MonthDay.now(zone)", () -> MonthDay.now(ZONE).getDayOfMonth());
        ops.put("new Date", () -> new Date().getTime());
        ops.put("Calendar.getInstance", () -> Calendar.getInstance().getTimeInMillis());
        ops.put("new GregorianCalendar", () -> new GregorianCalendar().getTimeInMillis());
        return ops;
    }

    /** {instant() as epoch millis, millis()} of InstantSource.system(), or null before JDK 17. */
    private static MethodHandle[] instantSource() {
        try {
            Class<?> type = Class.forName("java.time.InstantSource");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Object system = lookup.findStatic(type, "system", MethodType.methodType(type)).invoke();
            MethodHandle instant = lookup.findVirtual(type, "instant", MethodType.methodType(Instant.class)).bindTo(system);
            MethodHandle toEpochMilli = lookup.findVirtual(Instant.class, "toEpochMilli", MethodType.methodType(long.class));
            MethodHandle millis = lookup.findVirtual(type, "millis", MethodType.methodType(long.class)).bindTo(system);
            return new MethodHandle[] {MethodHandles.filterReturnValue(instant, toEpochMilli), millis};
        } catch (ClassNotFoundException e) {
            return null;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static long invoke(MethodHandle h) {
        try {
            return (long) h.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The operations' names, in a fixed order. */
    public static List<String> names() {
        return new ArrayList<>(OPS.keySet());
    }

    public static boolean isEpochMillis(String name) {
        return EPOCH_MILLIS.contains(name);
    }

    /** Runs the operation {@code times} times; returns the last value. */
    public static long run(String name, int times) {
        LongSupplier op = OPS.get(name);
        if (op == null) {
            throw new IllegalArgumentException("no operation " + name);
        }
        long value = 0;
        for (int i = 0; i < times; i++) {
            value = op.getAsLong();
            sink += value;
        }
        return value;
    }
}
