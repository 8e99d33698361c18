package io.fastclock.it.apps;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.stream.Collectors;

/** HelloApp, plus where the libfastclock.so mapped into this process came from (/proc/self/maps). */
public final class MapsApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        HelloApp.main(args);
        String mapped = Files.readAllLines(Paths.get("/proc/self/maps")).stream()
                .filter(l -> l.contains("libfastclock"))
                .map(l -> l.substring(l.indexOf('/')))
                .distinct()
                .collect(Collectors.joining("|"));
        System.out.println("mappedLibrary=" + (mapped.isEmpty() ? "none" : mapped));
    }
}
