package io.fastclock.it.apps.theft;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Loaded only once fastclock has decided (a new class: its clock calls are rewritten, if at all, as it
 * loads): reads System.nanoTime() and currentTimeMillis() between two reads of the JDK's own (through
 * method handles, which no agent rewrites) and prints how far outside that window its reads fell.
 */
final class ClockCheck {
    private ClockCheck() {}

    static void print() throws Throwable {
        MethodType longResult = MethodType.methodType(long.class);
        MethodHandle jdkNanos = MethodHandles.lookup().findStatic(System.class, "nanoTime", longResult);
        MethodHandle jdkMillis = MethodHandles.lookup().findStatic(System.class, "currentTimeMillis", longResult);
        long nanosOutside = 0;
        long millisOutside = 0;
        long nanos = 0;
        long millis = 0;
        for (int i = 0; i < 200; i++) {
            long before = (long) jdkNanos.invokeExact();
            nanos = System.nanoTime();
            long after = (long) jdkNanos.invokeExact();
            nanosOutside = Math.max(nanosOutside, Math.max(before - nanos, nanos - after));
            long beforeMs = (long) jdkMillis.invokeExact();
            millis = System.currentTimeMillis();
            long afterMs = (long) jdkMillis.invokeExact();
            millisOutside = Math.max(millisOutside, Math.max(beforeMs - millis, millis - afterMs));
        }
        System.out.println("nanoTimeRead=" + nanos);
        System.out.println("millisRead=" + millis);
        System.out.println("nanoTimeOutsideReferenceNanos=" + nanosOutside);
        System.out.println("millisOutsideReferenceMs=" + millisOutside);
    }
}
