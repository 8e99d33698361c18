package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.probe.MachineReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysfsTscTrustTest {
    @TempDir
    Path sysfs;

    private Path available() throws IOException {
        Path dir = sysfs.resolve("devices/system/clocksource/clocksource0");
        Files.createDirectories(dir);
        return dir.resolve("available_clocksource");
    }

    private SysfsTscTrust trust() {
        return new SysfsTscTrust(new MachineReader(sysfs, sysfs.resolve("no-procfs")));
    }

    @Test
    void trustsWhileTscIsListed() throws IOException {
        Files.writeString(available(), "tsc hpet acpi_pm \n");
        assertNull(trust().untrustedReason());
    }

    @Test
    void blamesTheWatchdogOnlyWhenTheListWasReadWithoutTsc() throws IOException {
        Files.writeString(available(), "hpet acpi_pm \n");
        String reason = trust().untrustedReason();
        assertTrue(reason != null && reason.contains("watchdog"), reason);
    }

    @Test
    void anUnreadableListIsToleratedAFewTimesThenReportedAsSuch() throws IOException {
        Path file = available(); // not created: every read fails
        SysfsTscTrust trust = trust();
        for (int i = 1; i < SysfsTscTrust.MAX_CONSECUTIVE_READ_FAILURES; i++) {
            assertNull(trust.untrustedReason(), "read failure " + i + " must not drop the TSC yet");
        }
        String reason = trust.untrustedReason();
        assertTrue(reason != null && reason.contains("could not be re-read") && reason.contains(file.toString())
                && !reason.contains("watchdog"), reason);
    }

    @Test
    void aSuccessfulReadResetsTheFailureCount() throws IOException {
        Path file = available();
        SysfsTscTrust trust = trust();
        for (int round = 0; round < 3; round++) {
            Files.deleteIfExists(file);
            for (int i = 1; i < SysfsTscTrust.MAX_CONSECUTIVE_READ_FAILURES; i++) {
                assertNull(trust.untrustedReason());
            }
            Files.writeString(file, "tsc hpet\n");
            assertNull(trust.untrustedReason());
        }
    }

    @Test
    void garbageCountsAsUnreadableNotAsTscRemoved() throws IOException {
        Files.writeString(available(), "tsc \u0001\u0002 hpet\n");
        SysfsTscTrust trust = trust();
        String reason = null;
        for (int i = 0; i < SysfsTscTrust.MAX_CONSECUTIVE_READ_FAILURES; i++) {
            reason = trust.untrustedReason();
        }
        assertTrue(reason != null && reason.contains("garbage"), reason);
    }
}
