package io.fastclock.it;

import io.fastclock.it.apps.AgentVerdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Builds and runs a JVM with (or without) the agent, capturing stdout and stderr. */
public final class ForkedJvm {
    private final Jdk jdk;
    private final List<String> jvmArgs = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private String agentArgs;
    private boolean agent = true;
    private String mainClass;
    private final List<String> appArgs = new ArrayList<>();
    private String classPath = testClasses().toString();
    private long timeoutSeconds = 120;
    private Path jar;
    private boolean modular;
    /**
     * Why the JVM gets FASTCLOCK_START=wait, or null: the suite forks JVMs at the product's default
     * (start=background), and a test that needs the verdict before main names it with its reason
     * ({@link #startWait}). The environment is the lowest precedence, so a start= in the agent
     * argument or -Dfastclock.start still wins.
     */
    private String startWaitReason;
    private boolean agentAtStart;
    private boolean endsFirst;

    private ForkedJvm(Jdk jdk) {
        this.jdk = jdk;
    }

    /** A JVM of this JDK; a missing JDK ends the test here (a skip, or a failure where it is required). */
    public static ForkedJvm on(Jdk jdk) {
        jdk.requireAvailable();
        return new ForkedJvm(jdk);
    }

    public static Path agentJar() {
        Path jar = Paths.get(System.getProperty("fastclock.agent.jar", "../agent/target/fastclock.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("agent jar not built: " + jar.toAbsolutePath() + " (run mvn verify from the root)");
        }
        return jar.toAbsolutePath().normalize();
    }

    /**
     * The agent's compiled classes (not shaded): for tests that call the rewriter directly. The jar
     * keeps them where no class path can see them (io.fastclock.entry.PrivateModule).
     */
    public static Path agentClasses() {
        Path classes = Paths.get(System.getProperty("fastclock.agent.classes", "../agent/target/classes"));
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("agent not built: " + classes.toAbsolutePath());
        }
        return classes.toAbsolutePath().normalize();
    }

    /**
     * What an app's "backends" value says when every clock stays the system's: "none" when the
     * runtime was never defined (an inactive verdict defines nothing in the boot loader), or both
     * backends "system" when it was (JNA's adapter needs it, or a copy installed system clocks).
     */
    public static boolean onSystemBackends(String backends) {
        return "none".equals(backends) || "millis=system,nanos=system".equals(backends);
    }

    public static Path slowClockLibrary() {
        Path lib = Paths.get(System.getProperty("fastclock.slowclock.lib", "../native/target/libslowclock.so"));
        if (!Files.isRegularFile(lib)) {
            throw new IllegalStateException("simulator not built: " + lib.toAbsolutePath());
        }
        return lib.toAbsolutePath().normalize();
    }

    public static Path mkdirSpyLibrary() {
        Path lib = Paths.get(System.getProperty("fastclock.mkdirspy.lib", "../native/target/libmkdirspy.so"));
        if (!Files.isRegularFile(lib)) {
            throw new IllegalStateException("mkdir spy not built: " + lib.toAbsolutePath());
        }
        return lib.toAbsolutePath().normalize();
    }

    /**
     * A test-only libfastclock with an injected fault (native/build.sh, target/faults/): "crosscpu"
     * (the cross-CPU check reports a backward TSC step), "calib" (calibration never converges) or
     * "dearjni" (the coarse currentTimeMillis read spins a few us inside its JNI function).
     */
    public static Path faultLibrary(String fault) {
        Path lib = Paths.get(System.getProperty("fastclock.fault." + fault + ".lib",
                "../native/target/faults/libfastclock-" + fault + ".so"));
        if (!Files.isRegularFile(lib)) {
            throw new IllegalStateException("fault-injection library not built: " + lib.toAbsolutePath());
        }
        return lib.toAbsolutePath().normalize();
    }

    public static Path testClasses() {
        return Paths.get(System.getProperty("fastclock.test.classes", "target/test-classes")).toAbsolutePath();
    }

    public ForkedJvm agentArgs(String args) {
        this.agentArgs = args;
        return this;
    }

    /**
     * FASTCLOCK_START=wait: the verdict before main, where the test needs it there.
     *
     * @param reason why this test cannot run at the default (kept in the command's description)
     */
    public ForkedJvm startWait(String reason) {
        if (reason == null || reason.trim().isEmpty()) {
            throw new IllegalArgumentException("start=wait needs its reason");
        }
        this.startWaitReason = reason;
        return this;
    }

    private void putEnvironment(ProcessBuilder pb) {
        if (startWaitReason != null) { // also where the test gives -javaagent itself, or attaches later
            pb.environment().put("FASTCLOCK_START", "wait");
        }
        if ((agent || agentAtStart) && !endsFirst) {
            pb.environment().put(AgentVerdict.ENV, "1");
        }
        pb.environment().putAll(env);
    }

    /**
     * The test gives the agent at start itself (a -javaagent of its own among the JVM arguments, or
     * JAVA_TOOL_OPTIONS): the program waits for its verdict as with {@link #on}'s agent ({@link AgentVerdict}).
     */
    public ForkedJvm agentGivenByTheTest() {
        this.agentAtStart = true;
        return this;
    }

    /** The program does not wait for the verdict ({@link AgentVerdict}): a test of a JVM that may end before it. */
    public ForkedJvm programEndsFirst() {
        this.endsFirst = true;
        return this;
    }

    public ForkedJvm withoutAgent() {
        this.agent = false;
        return this;
    }

    public ForkedJvm jvmArg(String... args) {
        jvmArgs.addAll(Arrays.asList(args));
        return this;
    }

    public ForkedJvm env(String key, String value) {
        env.put(key, value);
        return this;
    }

    /** Runs under the slow-clocksource simulator (every fine clock read becomes a syscall). */
    public ForkedJvm slowClocksource(long spinNanos) {
        env.put("LD_PRELOAD", slowClockLibrary().toString());
        env.put("SLOWCLOCK_SPIN_NS", Long.toString(spinNanos));
        return this;
    }

    /**
     * Runs with the mkdir spy (native/src/test/c/mkdirspy.c) preloaded: every directory the JVM
     * creates is logged to the file, with the mode asked for and the mode, owner and type it got.
     */
    public ForkedJvm mkdirSpy(Path log) {
        env.put("LD_PRELOAD", mkdirSpyLibrary().toString());
        env.put("MKDIRSPY_LOG", log.toString());
        return this;
    }

    public ForkedJvm classPath(String cp) {
        this.classPath = cp;
        return this;
    }

    public ForkedJvm timeoutSeconds(long seconds) {
        this.timeoutSeconds = seconds;
        return this;
    }

    public ForkedJvm main(Class<?> main, String... args) {
        this.mainClass = main.getName();
        appArgs.addAll(Arrays.asList(args));
        return this;
    }

    /** The main module and class are among the JVM arguments (-p ... -m ...): no -cp, no main class. */
    public ForkedJvm modularMain() {
        this.modular = true;
        return this;
    }

    /** java -jar JAR args (no -cp, no main class). */
    public ForkedJvm jar(Path executableJar, String... args) {
        this.jar = executableJar;
        appArgs.addAll(Arrays.asList(args));
        return this;
    }

    public ForkedJvm mainClassName(String name, String... args) {
        this.mainClass = name;
        appArgs.addAll(Arrays.asList(args));
        return this;
    }

    public List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(jdk.java().toString());
        if (agent) {
            cmd.add("-javaagent:" + agentJar() + (agentArgs == null ? "" : "=" + agentArgs));
        }
        cmd.addAll(jvmArgs);
        if (modular) {
            // -p and -m were given as JVM arguments
        } else if (jar != null) {
            cmd.add("-jar");
            cmd.add(jar.toString());
        } else {
            cmd.add("-cp");
            cmd.add(classPath);
            cmd.add(mainClass);
        }
        cmd.addAll(appArgs);
        return cmd;
    }

    public Result run() throws IOException, InterruptedException {
        Path out = Files.createTempFile("fastclock-it", ".out");
        Path err = Files.createTempFile("fastclock-it", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command());
            putEnvironment(pb);
            pb.redirectOutput(out.toFile());
            pb.redirectError(err.toFile());
            Process process = pb.start();
            if (!exitsInTime(process, timeoutSeconds)) {
                killAfterThreadDump(process);
                throw new AssertionError("JVM did not finish in " + timeoutSeconds + " s: " + command()
                        + "\nstdout (with the thread dump it printed when asked):\n" + read(out) + "\nstderr:\n" + read(err));
            }
            return new Result(command(), process.exitValue(), read(out), read(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Seconds a JVM past its deadline still gets, counted after the deadline: see {@link #exitsInTime}. */
    static final long GRACE_SECONDS = 20;

    /**
     * Whether the JVM exits within timeoutSeconds, or within {@link #GRACE_SECONDS} after them. The
     * grace is for a machine that stalls (a VM descheduled for minutes): every clock in it jumps on
     * resume, the deadline is past at once, and a JVM that needs a second more is not hung. A hung
     * one still fails, the grace later.
     */
    static boolean exitsInTime(Process process, long timeoutSeconds) throws InterruptedException {
        if (process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            return true;
        }
        if (process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
            System.err.println("[ForkedJvm] pid " + process.pid() + " exited after its " + timeoutSeconds
                    + " s, within the grace of " + GRACE_SECONDS + " s (a stalled machine?)");
            return true;
        }
        return false;
    }

    /**
     * A JVM that overran its time: SIGQUIT first, so that HotSpot prints every thread's stack on its
     * stdout (a hang then says where it hangs), then the kill.
     */
    static void killAfterThreadDump(Process process) throws InterruptedException {
        try {
            new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
            process.waitFor(3, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill command: the dump is lost, the kill below still happens
        }
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts the JVM and returns at once (for tests that act on a running JVM, e.g. attach). */
    public Running start() throws IOException {
        Path out = Files.createTempFile("fastclock-it", ".out");
        Path err = Files.createTempFile("fastclock-it", ".err");
        ProcessBuilder pb = new ProcessBuilder(command());
        putEnvironment(pb);
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        return new Running(command(), pb.start(), out, err, timeoutSeconds);
    }

    /** A JVM started by {@link #start()}. */
    public static final class Running implements AutoCloseable {
        private final List<String> command;
        public final Process process;
        private final Path out;
        private final Path err;
        private final long timeoutSeconds;

        Running(List<String> command, Process process, Path out, Path err, long timeoutSeconds) {
            this.command = command;
            this.process = process;
            this.out = out;
            this.err = err;
            this.timeoutSeconds = timeoutSeconds;
        }

        public long pid() {
            return process.pid();
        }

        public String stdout() throws IOException {
            return read(out);
        }

        public String stderr() throws IOException {
            return read(err);
        }

        /** Waits until the JVM has printed {@code line} on stdout; fails if it exits first or takes too long. */
        public void awaitLine(String line) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (System.nanoTime() < deadline) {
                for (String l : stdout().split("\n")) {
                    if (l.equals(line)) {
                        return;
                    }
                }
                if (!process.isAlive()) {
                    throw new AssertionError("the JVM exited (" + process.exitValue() + ") before printing '" + line
                            + "'\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
                }
                Thread.sleep(20);
            }
            throw new AssertionError("the JVM did not print '" + line + "' in " + timeoutSeconds + " s\nstdout:\n"
                    + stdout() + "\nstderr:\n" + stderr());
        }

        /** Waits for the JVM to exit and returns what it did. */
        public Result finish() throws IOException, InterruptedException {
            if (!exitsInTime(process, timeoutSeconds)) {
                killAfterThreadDump(process);
                throw new AssertionError("JVM did not finish in " + timeoutSeconds + " s: " + command
                        + "\nstdout (with the thread dump it printed when asked):\n"
                        + stdout() + "\nstderr:\n" + stderr());
            }
            return new Result(command, process.exitValue(), stdout(), stderr());
        }

        @Override
        public void close() throws IOException {
            if (process.isAlive()) {
                process.destroyForcibly();
                try {
                    process.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    /** What a forked JVM did. */
    public static final class Result {
        public final List<String> command;
        public final int exitCode;
        public final String stdout;
        public final String stderr;

        Result(List<String> command, int exitCode, String stdout, String stderr) {
            this.command = command;
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** key=value lines the test apps print on stdout. */
        public Map<String, String> values() {
            Map<String, String> values = new HashMap<>();
            for (String line : stdout.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith(" ")) {
                    values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
            return values;
        }

        public String value(String key) {
            String v = values().get(key);
            if (v == null) {
                throw new AssertionError("the app printed no '" + key + "'\n" + this);
            }
            return v;
        }

        public long longValue(String key) {
            return Long.parseLong(value(key));
        }

        public double doubleValue(String key) {
            return Double.parseDouble(value(key));
        }

        /** stderr lines that start with the agent's prefix. */
        public List<String> agentLines() {
            List<String> lines = new ArrayList<>();
            for (String line : stderr.split("\n")) {
                if (line.startsWith("fastclock:")) {
                    lines.add(line);
                }
            }
            return lines;
        }

        /**
         * The agent's start line (active or inactive): the first of its lines but where log=debug lists,
         * before it, the classes rewritten as they loaded since premain.
         */
        public String startLine() {
            for (String line : agentLines()) {
                if (line.startsWith("fastclock: active:") || line.startsWith("fastclock: inactive:")) {
                    return line;
                }
            }
            throw new AssertionError("no start line\n" + this);
        }

        @Override
        public String toString() {
            return "command: " + String.join(" ", command) + "\nexit: " + exitCode + "\nstdout:\n" + stdout
                    + "\nstderr:\n" + stderr;
        }
    }
}
