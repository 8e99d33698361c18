package io.fastclock.agent;

import io.fastclock.clock.LagCheckedMillis;
import io.fastclock.clock.TscClock;
import io.fastclock.config.Backend;
import io.fastclock.decide.Decision;
import io.fastclock.measure.CompiledCostMeter;
import io.fastclock.measure.TscRead;
import io.fastclock.probe.MachineProbe;

/**
 * A backend the decision took unconfirmed (its cost from compiled Java not measured, the CPUs busy,
 * against a system clock dear in C: decide.Choice.unconfirmed) is timed again on the daemon thread
 * {@value #THREAD_NAME}, at BusyRetry's delays. If it costs compiled Java no less than the system clock,
 * its clock goes back to the system clock (the TSC clock falls back, never going backwards; the coarse
 * millis moves as its lag watch would move it), with one line. Only the candidate is timed: the system
 * clock's cost is the one measured in C, which compiled Java pays too where it is that dear, so the
 * timing's own reads of a slow clock are its batches' two timing reads each.
 */
final class Confirmation implements Runnable {
    static final String THREAD_NAME = "fastclock-confirm";
    /** Rounds beyond CompiledCostMeter.MIN_ROUNDS, as at start. */
    static final int EXTRA_ROUNDS = 50;
    static final long BUDGET_NANOS = 60_000_000L;

    private final Decision decision;
    private final MachineProbe probe;
    private final TscClock tsc;
    private final LagCheckedMillis coarseMillis;
    private final AgentLog log;

    private Confirmation(Decision decision, MachineProbe probe, TscClock tsc, LagCheckedMillis coarseMillis, AgentLog log) {
        this.decision = decision;
        this.probe = probe;
        this.tsc = tsc;
        this.coarseMillis = coarseMillis;
        this.log = log;
    }

    /** Starts the thread where the decision took a backend unconfirmed. */
    static void scheduleIfNeeded(Decision decision, MachineProbe probe, TscClock tsc, LagCheckedMillis coarseMillis, AgentLog log) {
        if (!decision.unconfirmed()) {
            return;
        }
        Thread t = new Thread(new Confirmation(decision, probe, tsc, coarseMillis, log), THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        for (int attempt = 0; attempt < BusyRetry.ATTEMPTS; attempt++) {
            pause(BusyRetry.delayMillis(attempt));
            if (confirmed()) {
                return;
            }
        }
        log.debug("the backends taken unconfirmed were still not timed from compiled Java after " + BusyRetry.ATTEMPTS
                + " tries (the CPUs stayed busy); they stay");
    }

    /** @return false while busy CPUs keep the candidate from being timed */
    private boolean confirmed() {
        boolean tscUnconfirmed = tsc != null && (decision.millis().unconfirmed() && decision.millis().backend() == Backend.TSC
                || decision.nanos().unconfirmed() && decision.nanos().backend() == Backend.TSC);
        if (tscUnconfirmed) {
            TscRead read = probe.tscChecks == null ? null : probe.tscChecks.reads.nanos;
            if (read == null) {
                return true;
            }
            double ns = timed(CompiledCostMeter.of(read));
            if (Double.isNaN(ns)) {
                return false;
            }
            double system = Math.min(probe.measurements.realtimeNs(), probe.measurements.monotonicNs());
            if (ns >= system) {
                String why = "measured again, the TSC clock costs " + Math.round(ns) + " ns a read from compiled Java, no less than "
                        + Math.round(system) + " ns for the system clock";
                tsc.fallBack(why);
            } else {
                log.debug("confirmed: the TSC clock costs " + Math.round(ns) + " ns a read from compiled Java, against "
                        + Math.round(system) + " ns for the system clock");
            }
        }
        if (coarseMillis != null && decision.millis().unconfirmed() && decision.millis().backend() == Backend.COARSE) {
            double ns = timed(CompiledCostMeter.REALTIME_COARSE);
            if (Double.isNaN(ns)) {
                return false;
            }
            double system = probe.measurements.realtimeNs();
            if (ns >= system) {
                coarseMillis.moveToSystemClock();
                String why = "measured again, the coarse clock costs " + Math.round(ns) + " ns a read from compiled Java, no less"
                        + " than " + Math.round(system) + " ns for System.currentTimeMillis; currentTimeMillis is back on the"
                        + " system clock";
                LiveAgentState.millisOnSystemClock(why);
                log.info(why);
            } else {
                log.debug("confirmed: the coarse clock costs " + Math.round(ns) + " ns a read from compiled Java, against "
                        + Math.round(system) + " ns for System.currentTimeMillis");
            }
        }
        return true;
    }

    /** Sleeps that long, whatever interrupts the thread meanwhile (an interrupt only wakes it early). */
    private static void pause(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            try {
                Thread.sleep(Math.max(1, left / 1_000_000L));
            } catch (InterruptedException e) {
                // not addressed to this thread: sleep out the delay
            }
        }
    }

    private static double timed(int clock) {
        return CompiledCostMeter.nanosPerCall(new int[] {clock}, BUDGET_NANOS, EXTRA_ROUNDS,
                CompiledCostMeter.callsPerBatch(Double.NaN))[0];
    }
}
