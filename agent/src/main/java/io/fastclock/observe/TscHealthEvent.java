package io.fastclock.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** The running TSC clock against CLOCK_MONOTONIC: periodic, at most once a second, while it runs. */
@Name("fastclock.TscHealth")
@Category("fastclock")
@Label("fastclock TSC Health")
@Description("How far the TSC clock is from CLOCK_MONOTONIC and how its rate moved; emitted while the TSC clock runs")
@StackTrace(false)
@Period("1 s")
final class TscHealthEvent extends Event {
    @Label("Offset From CLOCK_MONOTONIC")
    @Description("The TSC clock's value minus CLOCK_MONOTONIC at the last re-anchor (positive: ahead)")
    @Timespan(Timespan.NANOSECONDS)
    long offset;

    @Label("Worst Offset")
    @Description("The largest such distance since start")
    @Timespan(Timespan.NANOSECONDS)
    long worstOffset;

    @Label("Rate Change (ppm)")
    @Description("The TSC's measured rate against its start-up calibration, in parts per million")
    double rateChangePpm;

    @Label("Re-anchors")
    @Description("Re-anchors against CLOCK_MONOTONIC since start (a count; about four a second)")
    long reanchors;

    @Label("Late Extensions")
    @Description("Segments extended by readers because the anchor thread was late (a count)")
    long lateExtensions;
}
