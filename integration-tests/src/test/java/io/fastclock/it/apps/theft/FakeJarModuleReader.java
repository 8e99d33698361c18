package io.fastclock.it.apps.theft;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.module.ModuleReader;
import java.net.URI;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Template of a fake {@code io.fastclock.entry.PrivateModule$JarModuleReader} (TheftIT renames it):
 * the reader the agent's module is defined from at 447fee3, here serving a fake
 * {@code io.fastclock.agent.Launch} ({@link FakeLaunch}'s bytes, renamed).
 */
public final class FakeJarModuleReader implements ModuleReader {
    public FakeJarModuleReader(File jar) {}

    @Override
    public Optional<URI> find(String name) {
        return Optional.empty();
    }

    @Override
    public Optional<InputStream> open(String name) {
        return name.equals("io/fastclock/agent/Launch.class")
                ? Optional.of(new ByteArrayInputStream(BackgroundRaceApp.fakeLaunch))
                : Optional.empty();
    }

    @Override
    public Stream<String> list() {
        return Stream.empty();
    }

    @Override
    public void close() {}
}
