package io.fastclock.it.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Runs until its trigger file exists (args: TRIGGER), so that a command can read its state; then
 * prints what fastclock left in the process: the mirror of its verdict (also as main began), the libfastclock.so mapped
 * (/proc/self/maps), and the threads whose name starts with "fastclock".
 */
public final class FastMachineApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        System.out.println("activeAtMain=" + System.getProperty("fastclock.active"));
        System.out.println("waiting=1");
        Path trigger = Paths.get(args[0]);
        for (int i = 0; i < 60_000 && !Files.exists(trigger); i++) {
            Thread.sleep(10);
        }
        System.out.println("active=" + System.getProperty("fastclock.active"));
        String mapped = Files.readAllLines(Paths.get("/proc/self/maps")).stream()
                .filter(l -> l.contains("libfastclock"))
                .map(l -> l.substring(l.indexOf('/')))
                .distinct()
                .collect(Collectors.joining("|"));
        System.out.println("mappedLibrary=" + (mapped.isEmpty() ? "none" : mapped));
        TreeSet<String> threads = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("fastclock")).collect(Collectors.toCollection(TreeSet::new));
        System.out.println("threads=" + (threads.isEmpty() ? "none" : String.join(",", threads)));
    }
}
