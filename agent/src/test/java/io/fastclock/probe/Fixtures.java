package io.fastclock.probe;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The fixture machines under src/test/resources/fixtures. */
public final class Fixtures {
    private Fixtures() {}

    public static Path root(String machine) {
        URL url = Fixtures.class.getResource("/fixtures/" + machine);
        if (url == null) {
            throw new IllegalArgumentException("no fixture machine " + machine);
        }
        try {
            return Paths.get(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static MachineFacts read(String machine) {
        return read(machine, "amd64");
    }

    public static MachineFacts read(String machine, String arch) {
        Path root = root(machine);
        return new MachineReader(root.resolve("sys"), root.resolve("proc"), arch, "0.0-fallback").read();
    }
}
