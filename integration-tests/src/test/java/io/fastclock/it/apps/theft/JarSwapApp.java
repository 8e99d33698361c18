package io.fastclock.it.apps.theft;

import io.fastclock.it.apps.AgentVerdict;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

/**
 * An application that can write the directory of fastclock.jar (a jar shipped in its own lib/, a
 * container run as root): at main's first instruction it renames over the agent's jar a copy whose
 * entry classes are its fakes, then waits for the verdict and reports whether any fake was defined
 * ({@code stolen}: a fake handed the Instrumentation; {@code swapped}: a fake defined at all).
 * args: the agent's jar, the swapped copy.
 */
public final class JarSwapApp {
    private JarSwapApp() {}

    public static void main(String[] args) throws Exception {
        Files.move(Paths.get(args[1]), Paths.get(args[0]), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("swappedAtMain=1");
        AgentVerdict.await();
        // The entry publishes a fast host's verdict to the agent properties 100 ms after premain.
        Thread.sleep(500);
        Loot.report();
        System.out.println("swapped=" + System.getProperties().get(Loot.SWAPPED));
        System.out.println("active=" + System.getProperty("fastclock.active"));
        System.out.println("done=1");
    }
}
