package io.fastclock.it.apps;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A program that runs without the agent and gets fastclock attached (and maybe detached) while it
 * runs. Clock threads read nanoTime and currentTimeMillis all along, through small methods (a
 * retransformed method takes effect at its next call), checking that nanoTime never goes backwards
 * across threads and that millis stays within its bounds of a reference read around it. Loader
 * threads (optional) define generated classes that call the clocks, before, during and after the
 * attach. The test drives the phases through trigger files:
 *
 * <p>args: loaderThreads TRIGGER:PHASE [TRIGGER:PHASE ...], PHASE = run (clocks keep running) or
 * count (then the counted window: {@value #READS} nanoTime and currentTimeMillis calls, and every
 * generated class's run()).
 * Prints "ready", "waiting=N" before each trigger, and the figures at the end, among them
 * {@code phases=} (the phases whose trigger came) and {@code countedWindows=} (the counted windows
 * that ran), so that a test cannot pass on a window that never ran; main returns.
 */
public final class AttachTargetApp {
    public static final int READS = 100_000;
    static final int MAX_CLASSES = 1500;
    private static volatile boolean stopClocks;
    private static volatile boolean stopLoaders;
    private static long sink;

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        int loaderThreads = Integer.parseInt(args[0]);
        AtomicLong backwards = new AtomicLong();
        AtomicLong millisAheadMax = new AtomicLong(Long.MIN_VALUE);
        AtomicLong millisBehindMax = new AtomicLong(Long.MIN_VALUE);
        AtomicLong published = new AtomicLong(Long.MIN_VALUE);
        AtomicLong clockReads = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>("none");
        List<Method> generated = new CopyOnWriteArrayList<>();

        for (int i = 0; i < 20_000; i++) {
            readNanos();
            readMillis();
        }
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            Thread t = new Thread(() -> {
                long n = 0;
                while (!stopClocks) {
                    long seen = published.get();
                    long now = readNanos();
                    if (now < seen) {
                        backwards.incrementAndGet();
                    }
                    published.accumulateAndGet(now, Math::max);
                    long before = ReferenceClocks.millis();
                    long millis = readMillis();
                    long after = ReferenceClocks.millis();
                    millisAheadMax.accumulateAndGet(millis - after, Math::max);
                    millisBehindMax.accumulateAndGet(before - millis, Math::max);
                    n++;
                }
                clockReads.addAndGet(n);
            }, "clock-" + c);
            threads.add(t);
            t.start();
        }
        List<Thread> loaders = new ArrayList<>();
        for (int l = 0; l < loaderThreads; l++) {
            final int thread = l;
            Thread t = new Thread(() -> {
                ConcurrentLoadApp.GenLoader loader = null;
                for (int i = 0; !stopLoaders && generated.size() < MAX_CLASSES; i++) {
                    if (loader == null || i % 10 == 0) {
                        loader = new ConcurrentLoadApp.GenLoader(i % 20 < 10 ? AttachTargetApp.class.getClassLoader() : null);
                    }
                    String name = "gen/a" + thread + "/Clocked" + i;
                    try {
                        Class<?> c = loader.define(name.replace('/', '.'), ConcurrentLoadApp.generate(name, i % 2 == 0));
                        Method run = c.getMethod("run");
                        run.invoke(null);
                        generated.add(run);
                        Thread.sleep(1);
                    } catch (Throwable e) {
                        errors.incrementAndGet();
                        firstError.compareAndSet("none", name + ": " + e);
                    }
                }
            }, "loader-" + l);
            loaders.add(t);
            t.start();
        }
        System.out.println("pid=" + ProcessHandle.current().pid());
        System.out.println("ready");
        System.out.flush();

        int phases = 0;
        int countedWindows = 0;
        for (int phase = 1; phase < args.length; phase++) {
            String[] triggerAndPhase = args[phase].split(":");
            System.out.println("waiting=" + phase);
            System.out.flush();
            if (!await(Paths.get(triggerAndPhase[0]))) {
                System.out.println("trigger=timeout");
                break;
            }
            phases++;
            Thread.sleep(300); // the clock threads run across the switch and after it
            if (triggerAndPhase[1].equals("count")) {
                stopLoaders = true;
                for (Thread t : loaders) {
                    t.join();
                }
                for (Method m : generated) {
                    m.invoke(null); // once outside the window: nothing first-time is counted
                }
                CountedWindow.run(1, () -> {
                    for (int i = 0; i < READS; i++) {
                        readNanos();
                        sink += readMillis();
                    }
                    for (Method m : generated) {
                        try {
                            sink += (long) m.invoke(null);
                        } catch (ReflectiveOperationException e) {
                            errors.incrementAndGet();
                            firstError.compareAndSet("none", m + ": " + e);
                        }
                    }
                });
                countedWindows++;
            }
        }
        stopLoaders = true;
        stopClocks = true;
        for (Thread t : loaders) {
            t.join();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("generated=" + generated.size());
        System.out.println("errors=" + errors.get());
        System.out.println("firstError=" + firstError.get());
        System.out.println("clockReads=" + clockReads.get());
        System.out.println("backwards=" + backwards.get());
        System.out.println("millisAheadMax=" + millisAheadMax.get());
        System.out.println("millisBehindMax=" + millisBehindMax.get());
        System.out.println("sinkNonZero=" + (sink != 0));
        System.out.println("phases=" + phases);
        System.out.println("countedWindows=" + countedWindows);
        System.out.println("finished=true");
    }

    private static boolean await(Path trigger) throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(trigger)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    static long readNanos() {
        long n = System.nanoTime();
        sink += n;
        return n;
    }

    static long readMillis() {
        return System.currentTimeMillis();
    }
}
