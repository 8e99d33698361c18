package io.fastclock.it.apps;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Does what some frameworks do at shutdown: interrupts every live thread (the keys of
 * Thread.getAllStackTraces, all but its own) again and again for a while, then sits idle and
 * counts the CPU the whole process used meanwhile (ProcessHandle's total CPU time: utime + stime of
 * /proc/self/stat). A thread that loops on a wait with its interrupt flag set uses a whole core for
 * the window; an idle JVM next to nothing. Args: interrupting ms, idle window ms.
 *
 * <p>Prints {@code idleCpuMillis}, {@code idleWallMillis}, the fastclock threads alive before and
 * after, and the threads that used CPU in the window (from /proc/self/task/N/stat, in clock ticks:
 * for diagnosis only). Uses nothing of java.management: its platform server would end the watcher
 * thread the agent starts for it.
 */
public final class InterruptEveryThreadApp {
    private InterruptEveryThreadApp() {}

    public static void main(String[] args) throws Exception {
        long interruptMillis = Long.parseLong(args[0]);
        long idleMillis = Long.parseLong(args[1]);
        Thread me = Thread.currentThread();
        AgentVerdict.await();
        awaitStartThreadsEnd();
        System.out.println("fastclockThreadsBefore=" + fastclockThreads());

        int rounds = 0;
        long interrupts = 0;
        long end = System.nanoTime() + interruptMillis * 1_000_000L;
        while (System.nanoTime() < end) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t != me) {
                    t.interrupt();
                    interrupts++;
                }
            }
            rounds++;
            Thread.sleep(10);
        }
        System.out.println("rounds=" + rounds);
        System.out.println("interrupts=" + interrupts);

        Map<String, Long> tasksBefore = taskTicks();
        Duration cpuBefore = processCpu();
        long wallBefore = System.nanoTime();
        Thread.sleep(idleMillis);
        Duration cpuAfter = processCpu();
        long wallAfter = System.nanoTime();
        Map<String, Long> tasksAfter = taskTicks();

        System.out.println("idleCpuMillis=" + cpuAfter.minus(cpuBefore).toMillis());
        System.out.println("idleWallMillis=" + (wallAfter - wallBefore) / 1_000_000L);
        List<String> busy = new ArrayList<>();
        for (Map.Entry<String, Long> e : tasksAfter.entrySet()) {
            long used = e.getValue() - tasksBefore.getOrDefault(e.getKey(), 0L);
            if (used > 0) {
                busy.add(e.getKey() + ":" + used);
            }
        }
        System.out.println("busyTasksTicks=" + (busy.isEmpty() ? "none" : String.join(",", busy)));
        System.out.println("fastclockThreadsAfter=" + fastclockThreads());
        System.out.println("done=1");
    }

    /**
     * The agent's start thread publishes the verdict, then starts the threads that keep running (the
     * coarse clock's lag watch among them) and ends: the test is of those, so it waits for it, 10 s at most.
     */
    private static void awaitStartThreadsEnd() throws InterruptedException {
        long start = System.nanoTime();
        while (fastclockThreads().contains("fastclock-start") && System.nanoTime() - start < 10_000_000_000L) {
            Thread.sleep(5);
        }
    }

    private static Duration processCpu() {
        return ProcessHandle.current().info().totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no process CPU time on this system"));
    }

    private static String fastclockThreads() {
        TreeSet<String> names = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("fastclock")) {
                names.add(t.getName());
            }
        }
        return names.isEmpty() ? "none" : String.join(",", names);
    }

    /** "tid/comm" to utime + stime in clock ticks, for every thread of this process. */
    private static Map<String, Long> taskTicks() {
        Map<String, Long> ticks = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = new String(Files.readAllBytes(task.resolve("stat")), StandardCharsets.UTF_8);
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    String[] fields = stat.substring(close + 2).trim().split(" ");
                    // fields[0] is the state (field 3 of stat); utime and stime are fields 14 and 15.
                    long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    ticks.put(task.getFileName() + "/" + stat.substring(open + 1, close).replace(' ', '_'), used);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // diagnosis only
        }
        return ticks;
    }
}
