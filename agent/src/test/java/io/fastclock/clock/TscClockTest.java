package io.fastclock.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The segment logic of {@link TscClock} against a simulated counter whose true rate the test sets,
 * so every step is deterministic. The contract tests on a real JVM live in integration-tests.
 */
class TscClockTest {
    /** A counter the test moves by hand; CLOCK_MONOTONIC is ticks * trueNanosPerTick + offset. */
    static final class ManualTicks extends TickSource {
        long ticks = 1_000_000_000L;
        double trueNanosPerTick;
        long monotonicOffset = 5_000_000_000L;
        long realtimeOffset = 1_700_000_000_000_000_000L;
        /** Runs once, inside the next ticks() call: a reader preempted between its loads. */
        Runnable beforeNextTick;
        /** The read window sample() reports, and how far its tick sits from the true instant. */
        long sampleWindowTicks = 10;
        long sampleTickError;

        ManualTicks(double trueNanosPerTick) {
            this.trueNanosPerTick = trueNanosPerTick;
        }

        long monotonic() {
            return monotonicOffset + (long) (ticks * trueNanosPerTick);
        }

        @Override
        public long ticks() {
            Runnable hook = beforeNextTick;
            if (hook != null) {
                beforeNextTick = null;
                hook.run();
            }
            return ticks;
        }

        @Override
        public long systemNanos() {
            return monotonic();
        }

        @Override
        public long systemMillis() {
            return (monotonic() + realtimeOffset) / 1_000_000L;
        }

        @Override
        public int sample(long[] out) {
            out[0] = ticks + sampleTickError;
            out[1] = monotonic();
            out[2] = sampleWindowTicks;
            out[3] = out[1] + realtimeOffset;
            return 0;
        }

        void advanceNanos(long nanos) {
            ticks += (long) (nanos / trueNanosPerTick);
        }
    }

    static final class RecordingLog implements RuntimeLog {
        final List<String> lines = new ArrayList<>();

        @Override
        public void warn(String message) {
            lines.add(message);
        }
    }

    private static TscClock clock(ManualTicks source, double calibratedNanosPerTick, TscTrust trust, RecordingLog log) {
        return new TscClock(source, calibration(source, calibratedNanosPerTick), new TscClock.Tuning(), trust, log);
    }

    /** A clock calibrated at the counter's true rate, always trusted (for other runtime tests). */
    static TscClock newClock(ManualTicks source) {
        return clock(source, source.trueNanosPerTick, TscTrust.ALWAYS, new RecordingLog());
    }

    private static TscCalibration calibration(ManualTicks source, double calibratedNanosPerTick) {
        return TscCalibrations.of(calibratedNanosPerTick, source.ticks, source.monotonic(),
                source.monotonic() + source.realtimeOffset);
    }

    @Test
    void startsAtCalibrationAnchorWithSameOriginAsMonotonic() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = clock(source, 1 / 3.0, TscTrust.ALWAYS, new RecordingLog());
        assertEquals(source.monotonic(), clock.nanoTime());
        source.advanceNanos(1_000_000);
        assertEquals(source.monotonic(), clock.nanoTime(), 2.0);
    }

    @Test
    void slewsA50ppmCalibrationErrorAwayWithoutStepsOrReversals() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        // Calibrated 50 ppm fast: the clock must converge on CLOCK_MONOTONIC by slewing.
        TscClock clock = clock(source, (1 / 3.0) * (1 + 50e-6), TscTrust.ALWAYS, new RecordingLog());
        long previous = clock.nanoTime();
        long lastError = 0;
        for (int step = 0; step < 40_000; step++) {
            source.advanceNanos(1_000_000); // 40 s in 1 ms steps
            if (step % 50 == 0) {
                clock.anchorRound();
            }
            long now = clock.nanoTime();
            assertTrue(now >= previous, "went backwards at step " + step + ": " + previous + " -> " + now);
            previous = now;
            lastError = now - source.monotonic();
        }
        assertTrue(Math.abs(lastError) < 2_000, "still " + lastError + " ns off CLOCK_MONOTONIC after 40 s");
        assertFalse(clock.hasFallenBack());
    }

    @Test
    void readersExtendTheClockAtItsRateWhenTheAnchorThreadIsStarved() {
        ManualTicks source = new ManualTicks(0.4);
        TscClock clock = clock(source, 0.4, TscTrust.ALWAYS, new RecordingLog());
        long previous = clock.nanoTime();
        for (int i = 0; i < 100; i++) { // 10 s without a single re-anchor
            source.advanceNanos(100_000_000);
            long now = clock.nanoTime();
            assertTrue(now > previous);
            assertEquals(source.monotonic(), now, 50.0, "fixed-point rounding only");
            previous = now;
        }
        assertTrue(clock.lateExtensions() > 0);
    }

    @Test
    void aSegmentPublishedAheadStillAnswersTicksOfTheOneBefore() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = clock(source, (1 / 3.0) * (1 - 200e-6), TscTrust.ALWAYS, new RecordingLog());
        source.advanceNanos(10_000_000);
        long before = clock.nanoTime();
        clock.anchorRound(); // publishes the next segment, which starts in the future
        long same = clock.nanoTime();
        assertEquals(before, same, "publishing a future segment changed the present");
    }

    /** A clock calibrated at {@code calibratedError} off the counter's rate, its end samples read in {@code windowTicks}. */
    private static TscClock calibratedWithWindows(ManualTicks source, double calibratedError, long windowTicks, RecordingLog log) {
        // 12,000,000 ticks at 3 per ns: a 4 ms calibration, as TscChecks makes
        return new TscClock(source, TscCalibrations.withWindows(source.trueNanosPerTick * (1 + calibratedError), source.ticks,
                source.monotonic(), source.monotonic() + source.realtimeOffset, 12_000_000L, windowTicks),
                new TscClock.Tuning(), TscTrust.ALWAYS, log);
    }

    /**
     * A sample's tick is its read window's middle, within half the window of the instant read; under a
     * slow, serialised CLOCK_MONOTONIC the windows are a read's cost or more. FirstReadIT once saw a sound
     * TSC disabled ("moved 1805 ppm") right after the verdict, when the first re-anchor comes as the anchor
     * thread starts. A baseline too short for the windows waits for a longer one while the first segment
     * lasts; then it is judged allowing what the windows leave unsure, and published before the segment ends.
     */
    @Test
    void aBaselineTooShortForItsReadWindowsWaitsForALongerOneWhileTheSegmentLasts() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = calibratedWithWindows(source, -700e-6, 9_000, new RecordingLog()); // 3 us: 750 ppm unsure
        source.advanceNanos(10_000_000);
        source.sampleWindowTicks = 90_000; // 30 us
        source.sampleTickError = -45_000; // half of it: 15 us over 10 ms, 1500 ppm, plus the calibration's 700
        long sleep = clock.anchorRound();
        assertFalse(clock.hasFallenBack(), clock.fallbackReason());
        assertEquals(0, clock.reanchors(), "a rate 1650 ppm unsure was used");
        assertTrue(sleep > 0 && sleep <= 5_000_000L, "the next try comes soon: " + sleep);

        source.advanceNanos(35_000_000); // 45 ms: the first segment ends in 5; the same windows leave 367 ppm unsure
        long next = clock.anchorRound();
        assertFalse(clock.hasFallenBack(), clock.fallbackReason());
        assertEquals(1, clock.reanchors(), "not published before the first segment ended");
        assertTrue(clock.lastRateChangePpm() > 1000, "the case needs a change the 1000 ppm bound alone refuses: "
                + clock.lastRateChangePpm());
        assertTrue(next > 5_000_000L, "" + next);
    }

    /**
     * The anchor thread's loop, driven as it runs (sleeping what each round answers, half a ms late),
     * with 5 us read windows (1250 ppm unsure over the calibration) and every sample's tick half a
     * window off, alternately early and late: the clock stays within nanos.origin's 100 us of
     * CLOCK_MONOTONIC, its segments stay ahead of its readers, and it keeps the TSC.
     */
    @Test
    void withWideReadWindowsTheClockStaysWithinTheContractAndAheadOfItsReaders() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        TscClock clock = calibratedWithWindows(source, -500e-6, 15_000, log);
        source.sampleWindowTicks = 15_000;
        long worst = runAnchorLoop(clock, source, log, 3_000, round -> round % 2 == 0 ? 7_500L : -7_500L);
        assertTrue(worst <= 100_000, "worst " + worst + " ns from CLOCK_MONOTONIC");
        assertEquals(0, clock.lateExtensions(), "a reader extended the clock: the anchor thread fell behind");
        assertTrue(clock.reanchors() >= 12, "re-anchors: " + clock.reanchors());
    }

    /**
     * Windows so wide (30 us) that no re-anchor can resolve the rate before the first segment ends,
     * every tick a half-window early: the segment published then is only as long as that rate is
     * good for. Published whole, it took the clock past 100 us from CLOCK_MONOTONIC by its end.
     */
    @Test
    void aRatePublishedUnsureHoldsOnlyAsLongAsItIsGoodFor() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        TscClock clock = calibratedWithWindows(source, -700e-6, 9_000, log);
        source.sampleWindowTicks = 90_000;
        long worst = runAnchorLoop(clock, source, log, 1_000, round -> -45_000L);
        assertTrue(worst <= 100_000, "worst " + worst + " ns from CLOCK_MONOTONIC");
        assertEquals(0, clock.lateExtensions(), "a reader extended the clock: the anchor thread fell behind");
    }

    /**
     * Read windows of 100 us, and the anchor thread woken early every round (an interrupt, a spurious
     * return from parkNanos, a trust re-check due): each segment, short ones too, is still published
     * before its predecessor ends.
     */
    @Test
    void anAnchorThreadWokenEarlyStillPublishesBeforeAShortSegmentEnds() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        TscClock clock = calibratedWithWindows(source, -700e-6, 9_000, log);
        source.sampleWindowTicks = 300_000;
        runAnchorLoop(clock, source, log, 1_000, round -> round % 2 == 0 ? 150_000L : -150_000L, true);
        assertEquals(0, clock.lateExtensions(), "a reader extended the clock: the anchor thread woke past a segment's end");
        assertTrue(clock.reanchors() >= 4, "re-anchors: " + clock.reanchors());
    }

    private static long runAnchorLoop(TscClock clock, ManualTicks source, RecordingLog log, int millis,
            java.util.function.IntToLongFunction tickErrorOfRound) {
        return runAnchorLoop(clock, source, log, millis, tickErrorOfRound, false);
    }

    /**
     * The anchor thread's loop as it runs (sleeping what each round answers, half a ms late, the first
     * round half a ms after the calibration), readers every ms: never backwards, never a fallback.
     *
     * @param wokenEarly whether the thread also wakes halfway through each sleep
     * @return the clock's largest distance from CLOCK_MONOTONIC, ns
     */
    private static long runAnchorLoop(TscClock clock, ManualTicks source, RecordingLog log, int millis,
            java.util.function.IntToLongFunction tickErrorOfRound, boolean wokenEarly) {
        long previous = clock.nanoTime();
        long worst = 0;
        long untilRound = 500_000;
        int rounds = 0;
        boolean early = false;
        for (int step = 0; step < millis; step++) {
            if (untilRound <= 0) {
                source.sampleTickError = tickErrorOfRound.applyAsLong(rounds++);
                long sleep = clock.anchorRound();
                assertTrue(sleep >= 0, "fell back: " + log.lines);
                early = wokenEarly && !early && sleep > 2_000_000;
                untilRound = early ? sleep / 2 : sleep + 500_000; // after an early wake, the whole sleep
            }
            source.advanceNanos(1_000_000);
            untilRound -= 1_000_000;
            long now = clock.nanoTime();
            assertTrue(now >= previous, "went backwards at step " + step);
            previous = now;
            worst = Math.max(worst, Math.abs(now - source.monotonic()));
        }
        return worst;
    }

    /** While it waits for a longer baseline, the clock's distance from CLOCK_MONOTONIC is still checked. */
    @Test
    void waitingForALongerBaselineStillChecksTheDrift() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        TscClock clock = calibratedWithWindows(source, -0.1, 9_000, log); // a TSC 10% off its calibration
        source.advanceNanos(30_000_000);
        source.sampleWindowTicks = 900_000; // 300 us: thousands of ppm unsure over 30 ms
        assertTrue(clock.anchorRound() < 0, "waited with the clock 3 ms off");
        assertTrue(log.lines.get(0).contains("drifted"), log.lines.toString());
    }

    /**
     * The bound is 1000 ppm plus what the calibration's and the re-anchor's read windows leave unsure.
     * A change within it keeps the clock, one beyond it disables it: the calibration's share (750 ppm,
     * the re-anchor's 5), then the re-anchor's (90 ppm, the calibration's 2.5).
     */
    @Test
    void aRateChangeWithinWhatTheReadWindowsLeaveUnsureKeepsTheClock() {
        TscClock calibrationUnsure = rateJudged(-1600e-6, 9_000, 30, 300_000_000L, new RecordingLog());
        assertTrue(calibrationUnsure.lastRateChangePpm() > 1500, "" + calibrationUnsure.lastRateChangePpm());
        assertFalse(calibrationUnsure.hasFallenBack(), calibrationUnsure.fallbackReason());
        assertEquals(1, calibrationUnsure.reanchors());

        TscClock sampleUnsure = rateJudged(-1050e-6, 30, 21_570, 40_000_000L, new RecordingLog());
        assertTrue(sampleUnsure.lastRateChangePpm() > 1040, "" + sampleUnsure.lastRateChangePpm());
        assertFalse(sampleUnsure.hasFallenBack(), sampleUnsure.fallbackReason());
        assertEquals(1, sampleUnsure.reanchors());
    }

    @Test
    void aRateChangeBeyondWhatTheReadWindowsLeaveUnsureDisablesTheClock() {
        RecordingLog log = new RecordingLog();
        assertTrue(rateJudged(-1900e-6, 9_000, 30, 300_000_000L, log).hasFallenBack());
        assertTrue(log.lines.get(0).contains("the TSC rate moved 19"), log.lines.toString());
        log.lines.clear();
        assertTrue(rateJudged(-1150e-6, 30, 21_570, 40_000_000L, log).hasFallenBack());
        assertTrue(log.lines.get(0).contains("the TSC rate moved 11"), log.lines.toString());
    }

    /** A clock calibrated {@code calibratedError} off, after one round {@code afterNanos} on, its sample read in {@code sampleWindowTicks}. */
    private static TscClock rateJudged(double calibratedError, long calibrationWindowTicks, long sampleWindowTicks,
            long afterNanos, RecordingLog log) {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = calibratedWithWindows(source, calibratedError, calibrationWindowTicks, log);
        source.advanceNanos(afterNanos);
        source.sampleWindowTicks = sampleWindowTicks;
        clock.anchorRound();
        return clock;
    }

    /** Narrow windows leave the 1000 ppm bound as it was: 1500 ppm of real change disables the clock. */
    @Test
    void withNarrowReadWindowsTheBoundIsTheTunedOne() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = calibratedWithWindows(source, -1500e-6, 30, new RecordingLog());
        source.advanceNanos(10_000_000);
        assertTrue(clock.anchorRound() < 0);
        assertTrue(clock.fallbackReason().contains("rate moved"), clock.fallbackReason());
    }

    @Test
    void fallsBackWithoutGoingBackwardsAndSaysWhyOnce() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        String[] distrust = {null};
        TscClock clock = clock(source, 1 / 3.0, () -> distrust[0], log);
        source.advanceNanos(2_000_000_000L);
        clock.anchorRound();
        long highest = clock.nanoTime();
        distrust[0] = "tsc is no longer listed in available_clocksource";
        source.advanceNanos(2_000_000_000L); // past the re-check period
        highest = Math.max(highest, clock.nanoTime());
        assertTrue(clock.anchorRound() < 0);
        assertTrue(clock.hasFallenBack());
        assertEquals(1, log.lines.size());
        assertTrue(log.lines.get(0).contains("available_clocksource"));
        long after = clock.nanoTime();
        assertTrue(after >= highest, "fallback went backwards: " + highest + " -> " + after);
        clock.fallBack("again");
        assertEquals(1, log.lines.size(), "a second fallback must not log again");
        assertNotNull(clock.fallbackReason());
    }

    /**
     * The fallback listener (the agent's JFR event and published state) hears it once, with the
     * reason and the clock's distance from CLOCK_MONOTONIC at that moment: here the TSC was
     * calibrated 100 ppm slow and never re-anchored, so after 2 s the clock is 200 us behind.
     */
    @Test
    void fallbackListenersHearItOnceWithTheReasonAndTheErrorAtThatMoment() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = clock(source, 1 / 3.0 * (1 - 100e-6), TscTrust.ALWAYS, new RecordingLog());
        List<String> heard = new ArrayList<>();
        clock.addFallbackListener((reason, errorNanos) -> heard.add(reason + "|" + errorNanos));
        clock.addFallbackListener((reason, errorNanos) -> {
            throw new IllegalStateException("a broken listener");
        });
        source.advanceNanos(2_000_000_000L);
        clock.fallBack("test: demoted");
        clock.fallBack("again");
        assertEquals(1, heard.size(), heard.toString());
        String[] parts = heard.get(0).split("\\|");
        assertEquals("test: demoted", parts[0]);
        assertEquals(-200_000L, Long.parseLong(parts[1]), 10.0, heard.toString());
        assertEquals(Long.parseLong(parts[1]), clock.fallbackErrorNanos());
    }

    /**
     * The anchor thread's loop in simulated time: each round answers how long the thread sleeps,
     * and every wake-up comes 50 us late. The kernel is asked every recheck period (here 100 ms,
     * well under the 250 ms segments), not only when a segment is due, so a demotion right after
     * a re-check is seen one period later.
     */
    @Test
    void reChecksTheKernelEveryRecheckPeriodWhateverTheSegmentTiming() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        long start = source.monotonic();
        List<Long> checkedAt = new ArrayList<>();
        String[] distrust = {null};
        long[] demotedAt = {0};
        TscTrust trust = () -> {
            long now = source.monotonic();
            checkedAt.add(now);
            String answer = distrust[0];
            if (demotedAt[0] == 0 && now - start >= 5_000_000_000L) {
                // The kernel demotes the TSC just after this re-check answered: the worst case.
                distrust[0] = "tsc is no longer listed in available_clocksource";
                demotedAt[0] = now;
            }
            return answer;
        };
        TscClock.Tuning tuning = new TscClock.Tuning();
        tuning.recheckNanos = 100_000_000L;
        TscClock clock = new TscClock(source, calibration(source, 1 / 3.0), tuning, trust, log);
        long previous = clock.nanoTime();
        long sleep;
        while ((sleep = clock.anchorRound()) >= 0) {
            assertTrue(source.monotonic() - start < 10_000_000_000L, "no fallback 5 s after the demotion");
            source.advanceNanos(sleep + 50_000);
            long now = clock.nanoTime();
            assertTrue(now >= previous, "went backwards: " + previous + " -> " + now);
            previous = now;
        }
        long period = tuning.recheckNanos + 50_000;
        assertTrue(checkedAt.size() >= 50, "only " + checkedAt.size() + " re-checks in 5 s");
        for (int i = 1; i < checkedAt.size(); i++) {
            long gap = checkedAt.get(i) - checkedAt.get(i - 1);
            assertEquals(period, gap, 1_000.0, "re-check " + i + " came " + gap / 1e6 + " ms after the one before");
        }
        long latency = source.monotonic() - demotedAt[0];
        assertEquals(period, latency, 1_000.0, "fell back " + latency / 1e6 + " ms after the demotion");
        assertEquals(1, log.lines.size(), log.lines.toString());
        // Re-anchoring keeps its own pace: a short first segment (its first round, at the calibration's
        // instant, has no baseline and comes back before the segment ends), then one every 250 ms, each
        // published about 240 ms ahead.
        assertEquals(22, clock.reanchors(), 1.0, "re-anchors in 5.1 s");
        assertEquals(0, clock.lateExtensions());
    }

    @Test
    void afterAFallbackNanoTimeStaysWithinMicrosecondsOfTheSystemClock() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = clock(source, 1 / 3.0, TscTrust.ALWAYS, new RecordingLog());
        source.advanceNanos(60_000_000);
        clock.anchorRound(); // the next segment now reaches ~300 ms into the future
        source.advanceNanos(10_000_000);
        long before = clock.nanoTime();
        clock.fallBack("test");
        long after = clock.nanoTime();
        assertTrue(after >= before, "fallback went backwards: " + before + " -> " + after);
        long aheadOfSystem = after - source.monotonic();
        assertTrue(aheadOfSystem <= TscClock.IN_FLIGHT_MARGIN_NANOS + 50,
                "nanoTime " + aheadOfSystem + " ns ahead of the system clock right after the fallback");
        source.advanceNanos(1_000_000);
        assertEquals(source.monotonic(), clock.nanoTime(), "1 ms later it is the system clock");
    }

    @Test
    void aReaderWhoseTickFollowsTheFallbackDoesNotHandOutATscValue() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        TscClock clock = clock(source, 1 / 3.0, TscTrust.ALWAYS, new RecordingLog());
        source.advanceNanos(10_000_000);
        source.monotonicOffset -= 500_000; // the TSC clock now leads the system clock by 0.5 ms
        // The reader loads its segment, then stalls before its tick read; meanwhile the clock
        // falls back and 1 ms passes.
        source.beforeNextTick = () -> {
            clock.fallBack("test");
            source.advanceNanos(1_000_000);
        };
        long stalled = clock.nanoTime();
        long next = clock.nanoTime();
        assertTrue(next >= stalled, "the read after the stalled one went backwards: " + stalled + " -> " + next);
    }

    @Test
    void aTickOlderThanTheSegmentsHeldFallsBackWithoutGoingBackwards() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        TscClock clock = clock(source, 1 / 3.0, TscTrust.ALWAYS, log);
        for (int i = 0; i < 3; i++) { // two segments published past the first
            source.advanceNanos(300_000_000);
            clock.anchorRound();
        }
        long highest = clock.nanoTime();
        source.ticks -= (long) (2_000_000_000L * 3.0); // the counter jumps 2 s back
        long after = clock.nanoTime();
        assertTrue(after >= highest, "went backwards with the TSC: " + highest + " -> " + after);
        assertTrue(clock.hasFallenBack());
        assertEquals(1, log.lines.size());
        assertTrue(log.lines.get(0).contains("went backwards"), log.lines.get(0));
    }

    @Test
    void givesUpOnTheTscWhenItDriftsFarFromMonotonic() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        RecordingLog log = new RecordingLog();
        TscClock clock = clock(source, 1 / 3.0, TscTrust.ALWAYS, log);
        source.advanceNanos(300_000_000);
        clock.anchorRound();
        source.monotonicOffset += 50_000_000; // CLOCK_MONOTONIC jumps 50 ms relative to the TSC
        source.advanceNanos(300_000_000);
        clock.anchorRound();
        assertTrue(clock.hasFallenBack(), "a 50 ms disagreement must disable the TSC");
        assertTrue(log.lines.get(0).contains("drifted") || log.lines.get(0).contains("rate"), log.lines.get(0));
    }

    @Test
    void millisFollowTheRealtimeOffsetSampledAtEachReanchor() {
        ManualTicks source = new ManualTicks(0.5);
        TscClock clock = clock(source, 0.5, TscTrust.ALWAYS, new RecordingLog());
        long expected = (source.monotonic() + source.realtimeOffset) / 1_000_000L;
        assertEquals(expected, clock.currentTimeMillis(), 1.0);
        source.realtimeOffset -= 60_000_000_000L; // the wall clock is stepped back one minute
        source.advanceNanos(300_000_000);
        clock.anchorRound();
        expected = (source.monotonic() + source.realtimeOffset) / 1_000_000L;
        assertEquals(expected, clock.currentTimeMillis(), 1.0);
    }

    /** The millis tick source: the same counter as ticks, read through a hook and counted. */
    static final class MillisTicks extends TickSource {
        final ManualTicks counter;
        int reads;
        /** Added to the counter's value: a read the CPU executed that many ticks early (negative) or late. */
        long skewTicks;
        Runnable beforeNextTick;

        MillisTicks(ManualTicks counter) {
            this.counter = counter;
        }

        @Override
        public long ticks() {
            reads++;
            Runnable hook = beforeNextTick;
            if (hook != null) {
                beforeNextTick = null;
                hook.run();
            }
            return counter.ticks + skewTicks;
        }
    }

    private static TscClock clockWithMillisSource(ManualTicks source, MillisTicks millis, RecordingLog log) {
        return new TscClock(source, millis, calibration(source, source.trueNanosPerTick), new TscClock.Tuning(),
                TscTrust.ALWAYS, log);
    }

    private static long referenceMillis(ManualTicks source) {
        return (source.monotonic() + source.realtimeOffset) / 1_000_000L;
    }

    @Test
    void millisReadTheirOwnTickSourceAndNanoTimeNeverDoes() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        MillisTicks millis = new MillisTicks(source);
        TscClock clock = clockWithMillisSource(source, millis, new RecordingLog());
        for (int i = 0; i < 5; i++) {
            source.advanceNanos(100_000_000);
            clock.anchorRound();
            clock.nanoTime();
        }
        assertEquals(0, millis.reads, "nanoTime must only use the ordered source");
        for (int i = 0; i < 10; i++) {
            source.advanceNanos(1_234_567);
            assertEquals(referenceMillis(source), clock.currentTimeMillis(), 1.0);
        }
        assertEquals(10, millis.reads, "each millis read takes one tick from the millis source");
    }

    @Test
    void anUnorderedMillisTickReadEarlyOrLateStaysWithinTheMillisBounds() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        MillisTicks millis = new MillisTicks(source);
        TscClock clock = clockWithMillisSource(source, millis, new RecordingLog());
        for (int i = 0; i < 3; i++) { // a segment published ahead, so early ticks meet the one before
            source.advanceNanos(300_000_000);
            clock.anchorRound();
        }
        // A few thousand ticks either way: far more than an out-of-order window, far less than 1 ms.
        for (long skew : new long[] {-3_000, 3_000}) {
            millis.skewTicks = skew;
            long value = clock.currentTimeMillis();
            long reference = referenceMillis(source);
            assertTrue(value >= reference - 1 && value <= reference + 1, "skew " + skew + ": " + value + " vs " + reference);
        }
    }

    @Test
    void aMillisTickReadAfterTheFallbackIsStillWithinTheMillisBounds() {
        ManualTicks source = new ManualTicks(1 / 3.0);
        MillisTicks millis = new MillisTicks(source);
        TscClock clock = clockWithMillisSource(source, millis, new RecordingLog());
        source.advanceNanos(10_000_000);
        // The unordered tick read executes after the fallback has been published (and 0.3 ms later).
        millis.beforeNextTick = () -> {
            clock.fallBack("test");
            source.advanceNanos(300_000);
        };
        long value = clock.currentTimeMillis();
        long reference = referenceMillis(source);
        assertTrue(value >= reference - 1 && value <= reference + 1, value + " vs " + reference);
        assertEquals(reference, clock.currentTimeMillis(), "after the fallback: the system clock");
    }

    @Test
    void scaleIsExactForLongDistances() {
        long mult = Math.round(0.3 * (1L << 32));
        long ticks = 3_000_000_000L * 3600 * 24 * 365; // a year at 3 GHz
        long expected = java.math.BigInteger.valueOf(ticks).multiply(java.math.BigInteger.valueOf(mult))
                .shiftRight(32).longValueExact();
        assertEquals(expected, TscClock.scale(ticks, mult));
    }
}
