package io.fastclock.it.apps;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs while the simulator steps the wall clock (SLOWCLOCK_STEPS). Compares the rewritten clocks
 * with the JDK's (ReferenceClocks, which the simulator steps too) and prints key=value lines:
 *
 * <ul>
 *   <li>refSteps: steps of more than one second seen in the reference wall clock;
 *   <li>millis.longestOffMs: the longest stretch (in CLOCK_MONOTONIC ms) during which the rewritten
 *       currentTimeMillis was more than toleranceMs away from [before, after] of the reference;
 *   <li>millis.stepNFollowMs: for step N, the time from the reference showing it to the rewritten
 *       clock being back within the tolerance;
 *   <li>nanos.worstDeviationNs, nanos.backwards: the rewritten nanoTime against System.nanoTime.
 * </ul>
 *
 * args: seconds toleranceMs
 */
public final class StepApp {
    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        long toleranceMs = Long.parseLong(args[1]);
        AgentVerdict.await();
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        long start = ReferenceClocks.nanos();
        long end = start + (long) (seconds * 1e9);

        long previousRef = ReferenceClocks.millis();
        long previousFastNanos = Long.MIN_VALUE;
        long nanosWorst = 0;
        long nanosBackwards = 0;
        long offSince = -1;
        long longestOff = 0;
        long millisWorstOff = 0;
        List<Long> stepSeenAt = new ArrayList<>();
        List<Long> stepDelta = new ArrayList<>();
        List<Long> stepFollowedAfter = new ArrayList<>();
        long reads = 0;
        long now;
        while ((now = ReferenceClocks.nanos()) < end) {
            long before = ReferenceClocks.millis();
            long fast = System.currentTimeMillis();
            long after = ReferenceClocks.millis();
            // The step may land between two iterations or inside this one's [before, after].
            long refJump = Math.abs(before - previousRef) > Math.abs(after - before) ? before - previousRef : after - before;
            previousRef = after;
            boolean stepInThisRead = Math.abs(refJump) > 1000;
            if (stepInThisRead) {
                stepSeenAt.add(now);
                stepDelta.add(refJump);
                stepFollowedAfter.add(-1L);
            }
            long off = fast < before - toleranceMs ? before - fast : (fast > after + toleranceMs ? fast - after : 0);
            millisWorstOff = Math.max(millisWorstOff, off);
            if (off > 0) {
                if (offSince < 0) {
                    offSince = now;
                }
                longestOff = Math.max(longestOff, (now - offSince) / 1_000_000);
            } else {
                offSince = -1;
                int last = stepSeenAt.size() - 1;
                // A read whose window straddles the step is within it whichever side it took.
                if (last >= 0 && stepFollowedAfter.get(last) < 0 && !stepInThisRead) {
                    stepFollowedAfter.set(last, (now - stepSeenAt.get(last)) / 1_000_000);
                }
            }

            long nBefore = ReferenceClocks.nanos();
            long fastNanos = System.nanoTime();
            long nAfter = ReferenceClocks.nanos();
            long dev = fastNanos < nBefore ? nBefore - fastNanos : (fastNanos > nAfter ? fastNanos - nAfter : 0);
            nanosWorst = Math.max(nanosWorst, dev);
            if (fastNanos < previousFastNanos) {
                nanosBackwards++;
            }
            previousFastNanos = fastNanos;
            reads++;
        }
        if (offSince >= 0) {
            longestOff = Math.max(longestOff, (end - offSince) / 1_000_000);
        }
        System.out.println("reads=" + reads);
        System.out.println("refSteps=" + stepSeenAt.size());
        for (int i = 0; i < stepSeenAt.size(); i++) {
            System.out.println("millis.step" + i + "DeltaMs=" + stepDelta.get(i));
            System.out.println("millis.step" + i + "AtMs=" + (stepSeenAt.get(i) - start) / 1_000_000);
            System.out.println("millis.step" + i + "FollowMs=" + stepFollowedAfter.get(i));
        }
        System.out.println("millis.longestOffMs=" + longestOff);
        System.out.println("millis.worstOffMs=" + millisWorstOff);
        System.out.println("nanos.worstDeviationNs=" + nanosWorst);
        System.out.println("nanos.backwards=" + nanosBackwards);
        System.out.println("done=ok");
    }
}
