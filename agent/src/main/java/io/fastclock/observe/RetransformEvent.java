package io.fastclock.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** Classes loaded before the agent (or restored on detach) were retransformed. */
@Name("fastclock.Retransform")
@Category("fastclock")
@Label("fastclock Retransform")
@Description("Loaded classes retransformed to rewrite (or restore) their clock call sites")
@StackTrace(false)
final class RetransformEvent extends Event {
    @Label("Classes")
    @Description("Classes changed (a count)")
    int classes;

    @Label("Call Sites")
    @Description("Clock call sites replaced in them (a count)")
    int callSites;

    @Label("Elapsed")
    @Description("How long the retransformation took")
    @Timespan(Timespan.NANOSECONDS)
    long elapsed;
}
