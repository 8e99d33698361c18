package io.fastclock.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** The TSC clock stopped being trusted and fastclock moved to the system clocks, for good. */
@Name("fastclock.Fallback")
@Category("fastclock")
@Label("fastclock TSC Fallback")
@Description("The TSC clock was disabled; nanoTime and currentTimeMillis now use the system clocks")
@StackTrace(false)
final class FallbackEvent extends Event {
    @Label("Reason")
    @Description("Why the TSC is no longer trusted; text, no unit")
    String reason;

    @Label("Error At Fallback")
    @Description("The TSC clock's value minus CLOCK_MONOTONIC at the moment it fell back (positive: ahead)")
    @Timespan(Timespan.NANOSECONDS)
    long error;

    @Label("Error At Last Re-anchor")
    @Description("The TSC clock's value minus CLOCK_MONOTONIC at its last re-anchor")
    @Timespan(Timespan.NANOSECONDS)
    long lastError;

    @Label("Worst Error")
    @Description("The largest distance from CLOCK_MONOTONIC seen at a re-anchor since start")
    @Timespan(Timespan.NANOSECONDS)
    long worstError;

    @Label("Re-anchors")
    @Description("Re-anchors against CLOCK_MONOTONIC before the fallback (a count)")
    long reanchors;
}
