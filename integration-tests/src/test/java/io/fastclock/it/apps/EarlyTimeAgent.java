package io.fastclock.it.apps;

import java.lang.instrument.Instrumentation;
import java.time.Instant;
import java.util.Date;

/**
 * An agent that runs before fastclock (given first on the command line) and uses java.time and
 * java.util.Date in its premain, so that the JDK classes behind them are loaded, initialised and
 * already called before fastclock starts: fastclock can then cover them only by retransformation.
 */
public final class EarlyTimeAgent {
    private EarlyTimeAgent() {}

    public static void premain(String args, Instrumentation inst) {
        long sum = Instant.now().toEpochMilli() + new Date().getTime();
        if (sum == 0) {
            System.err.println("early-agent: impossible clock values");
        }
    }
}
