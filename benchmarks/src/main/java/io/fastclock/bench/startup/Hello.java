package io.fastclock.bench.startup;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;

/**
 * The hello-world child of {@link io.fastclock.bench.StartupCost}: prints one line, calls both clocks
 * once (so an active agent has a call site to rewrite), then prints VmHWM and VmRSS (kB) from
 * /proc/self/status as "rss VmHWM VmRSS".
 */
public final class Hello {
    private Hello() {}

    public static void main(String[] args) throws IOException {
        long t = System.currentTimeMillis() + System.nanoTime();
        System.out.println("hello " + (t != 0));
        long hwm = -1;
        long rss = -1;
        try (BufferedReader r = new BufferedReader(new FileReader("/proc/self/status"))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("VmHWM:")) {
                    hwm = kb(line);
                } else if (line.startsWith("VmRSS:")) {
                    rss = kb(line);
                }
            }
        }
        System.out.println("rss " + hwm + " " + rss);
    }

    private static long kb(String line) {
        String v = line.substring(line.indexOf(':') + 1).trim();
        int sp = v.indexOf(' ');
        return Long.parseLong(sp < 0 ? v : v.substring(0, sp));
    }
}
