package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fastclock.it.apps.ContractApp;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * fastclock on a real kernel's clocksource: one guest boot (integration-tests/guest/guest-lab.sh, Debian's
 * stock kernel under QEMU) per clocksource, each running guest-checks.sh: the doctor once, then ContractApp,
 * EpochContractApp and LoggingApp with the agent at its defaults, on one JDK per guest (the kernel is what
 * a guest proves; the JDKs are spread so that each meets a real slow kernel): acpi_pm on QEMU's default CPU
 * model (no constant_tsc, no rdtscp) with JDK 11, hpet on an Intel model (constant_tsc, the real HPET path)
 * with JDK 25, and the Intel model's own tsc as the lighter control with JDK 17 (only when named,
 * -Dit.guestClocksources=tsc: the host runs every other test on a real kernel's tsc). The guests boot at
 * once (one emulator thread each). Every finding of a boot is reported together.
 *
 * <p>Proves, in docs/CONTRACT.md, on a real kernel: millis.lag (against the lag L the start line states),
 * nanos.monotonic (one thread and across threads), epoch.bounds, epoch.agrees-with-millis (Instant.now() and
 * new Date()), reach.java-time (Logback and Log4j2 stamps right), and that no backend the agent chooses costs
 * more than the system clock it replaces (the doctor's compiled costs).
 *
 * <p>Run alone: {@code mvn -B verify -pl integration-tests -Dit.test=GuestIT} (after packaging);
 * {@code -Dit.guestClocksources=hpet} boots only that guest.
 */
class GuestIT {
    static final Pattern LAG = Pattern.compile("currentTimeMillis resolution ([0-9]+) ms, lag up to ([0-9]+) ms");
    static final int[] ALL_JDKS = {11, 17, 25};

    /** The guests: clocksource, CPU model, JDK. */
    static List<Arguments> guests() {
        return List.of(Arguments.of("acpi_pm", "default", "11"), Arguments.of("hpet", "intel", "25"), Arguments.of("tsc", "intel", "17"));
    }

    private static final Map<String, Future<GuestLab.Boot>> BOOTS = new HashMap<>();

    @ParameterizedTest(name = "{0} ({1} CPU model)")
    @MethodSource("guests")
    void theAgentKeepsTheContractOnARealKernel(String clocksource, String cpu, String jdkChoice) throws Exception {
        GuestLab.requireChosen(clocksource);
        if (clocksource.equals("tsc")) {
            // The control: a real kernel on tsc is what the host itself runs every other test on.
            GuestLab.requireNamed(clocksource);
        }
        GuestLab.requireAvailable();
        List<Jdk> jdks = jdks(jdkChoice);
        Path out = out(clocksource);
        GuestLab.Boot boot = awaitBoot(clocksource);
        System.out.print("[GuestIT] " + boot.labLines());
        assertEquals(0, boot.exitCode, boot.toString());
        assertEquals(clocksource, read(out.resolve("clocksource")).trim(), "the guest runs on another clocksource");

        List<Executable> checks = new ArrayList<>();
        JsonNode doctor = doctor(out, checks, !clocksource.equals("tsc"));
        for (Jdk jdk : jdks) {
            String where = clocksource + ", JDK " + jdk.feature + ": ";
            ForkedJvm.Result contract = result(out, "jdk" + jdk.feature + "-contract");
            ForkedJvm.Result epoch = result(out, "jdk" + jdk.feature + "-epoch");
            ForkedJvm.Result loggingRun = logging(clocksource) ? result(out, "jdk" + jdk.feature + "-logging") : null;
            System.out.println("[GuestIT] " + where + "contract " + contract.stdout.replace('\n', ' '));
            System.out.println("[GuestIT] " + where + "epoch " + epoch.stdout.replace('\n', ' '));
            System.out.println("[GuestIT] " + where + "finding: reads past the start line's L: millis "
                    + contract.value("millis.beyondStatedLag") + " of " + contract.value("millis.reads") + " (worst "
                    + contract.value("millis.worstBehindMs") + " ms behind); Instant.now() pairs " + epoch.value("agreement.beyondLag")
                    + ", new Date() pairs " + epoch.value("date.beyondLag") + " of " + EPOCH_PAIRS);
            checks.add(() -> checkContract(where, clocksource, contract, boot.emulated()));
            checks.add(() -> checkEpoch(where, epoch, lagMs(epoch), boot.emulated()));
            if (loggingRun != null) {
                checks.add(() -> checkLogging(where, loggingRun));
            }
            // Emulated tsc reads cost about the 100 ns threshold: there the doctor and the agent, each measuring,
            // may rightly decide apart. On hpet and acpi_pm the clocks cost several times the threshold.
            if (doctor != null && jdk == jdks.get(0) && !clocksource.equals("tsc")) {
                String doctorChose = doctor.path("auto").path("millis").path("backend").asText() + ","
                        + doctor.path("auto").path("nanos").path("backend").asText();
                if (lagStraddlesTheCap(doctor, doctorChose, contract)) {
                    System.out.println("[GuestIT] " + where + "finding: the doctor chose " + doctorChose + ", the agent "
                            + decidedBackends(contract) + ": one of them measured the coarse clock's lag over the cap");
                } else {
                    checks.add(() -> assertEquals(doctorChose, decidedBackends(contract),
                            where + "the doctor's verdict is not what the agent decided\n" + contract));
                }
            }
        }
        assertAll(clocksource, checks);
    }

    /**
     * The doctor's verdict and reasons; each backend it would choose no slower than the clock it
     * replaces, by the doctor's own table of compiled costs. On the slow clocksources the clocks are
     * several times apart and that holds; on the emulated tsc guest it is printed, not asserted.
     * There the verdict's short compiled-cost loop can run interpreted (C1 slower than its budget under
     * TCG), where System.currentTimeMillis pays a native call as the JNI candidate does, and the
     * verdict once chose the coarse clock at 613 ns a read while the table put it at 385 ns against
     * 214 ns for the system clock (154 ns in C). A fair fix needs the loop's own per-call cost, which
     * the verdict does not measure (a floor at the C cost turned auto off on this host: DESIGN-NOTES 17).
     *
     * @param costsAsserted whether a chosen backend dearer than the system clock fails the test
     */
    private static JsonNode doctor(Path out, List<Executable> checks, boolean costsAsserted) throws Exception {
        ForkedJvm.Result r = result(out, "doctor");
        if (r.exitCode != 0) {
            checks.add(() -> assertEquals(0, r.exitCode, "the doctor failed in the guest\n" + r + hsErr(r)));
            return null;
        }
        JsonNode doctor = new ObjectMapper().readTree(r.stdout);
        System.out.println("[GuestIT] doctor: " + doctor.path("auto").path("summary").asText());
        String clocksource = read(out.resolve("clocksource")).trim();
        checks.add(() -> assertEquals(clocksource, doctor.path("machine").path("currentClocksource").asText(), r.toString()));
        for (String clock : new String[] {"millis", "nanos"}) {
            JsonNode decision = doctor.path("auto").path(clock);
            String backend = decision.path("backend").asText();
            checks.add(() -> assertTrue(decision.path("reason").asText().length() > 20, "no reason for " + clock + "\n" + r));
            if (!backend.equals("system")) {
                String system = clock.equals("millis") ? "System.currentTimeMillis()" : "System.nanoTime()";
                String fast = (clock.equals("millis") ? "FastClock.currentTimeMillis() -> " : "FastClock.nanoTime() -> ") + backend;
                JsonNode costs = doctor.path("javaNanosPerCall");
                checks.add(() -> assertTrue(costs.has(fast) && costs.has(system),
                        "the doctor gives no compiled cost for " + fast + "\n" + r));
                boolean dearer = costs.has(fast) && costs.has(system) && costs.get(fast).asDouble() > costs.get(system).asDouble();
                String finding = fast + " costs " + costs.get(fast) + " ns, more than " + system + " at " + costs.get(system) + " ns";
                if (costsAsserted) {
                    checks.add(() -> assertTrue(!dearer, finding));
                } else if (dearer) {
                    System.out.println("[GuestIT] finding (not asserted on this guest): auto chose " + backend + "; " + finding);
                }
            }
        }
        return doctor;
    }

    /**
     * The start line states L; every rewritten millis read within [ref - L, ref + 1 ms]; nanoTime never backwards.
     *
     * <p>Under pure emulation the guest kernel's tick arrives late (a vCPU waits for the emulator's one
     * thread, and longest while the guest hammers an emulated HPET or ACPI PM timer), so
     * CLOCK_REALTIME_COARSE stalls now and then: seen 9-25 ms behind with 4 ms ticks where the quiet
     * start-up measure saw 6, in 0-14% of reads depending on the workload, and 48 ms once with the host
     * loaded. No L stated at start holds through such stalls, and the agent's watch (about 20 reads a
     * second) sees a stall of a few ms only by chance: a CI run alone on its machine saw reads 25 ms
     * behind in 3% of them and the watch none. So under emulation a coarse clock is held to
     * {@link #EMULATED_STALL_BOUND_MS}, far past any stall seen and far short of what a wrong clock gives
     * (another clock id, a unit off, a frozen value over the one-second run); the share past the start
     * line's L is printed as a finding. What the watch does with a read past L is proved with the
     * simulator, where the lag is the test's to set (CoarseLagIT). Under KVM, and for every clock that is
     * not a tick's, every read keeps the start line's L.
     */
    static final long EMULATED_STALL_BOUND_MS = 250;

    /** The pairs EpochContractApp compares (its first argument in guest-checks.sh). */
    static final long EPOCH_PAIRS = 20_000;

    private static boolean coarseUnderEmulation(ForkedJvm.Result r, boolean emulated) {
        return emulated && (backends(r).startsWith("coarse,") || backends(r).startsWith("jna-coarse,"));
    }

    /** Whether a coarse clock seen behindMs behind an emulated kernel's CLOCK_REALTIME is one a late tick explains. */
    private static boolean withinEmulatedStall(long behindMs) {
        return behindMs <= EMULATED_STALL_BOUND_MS;
    }

    private static void checkContract(String where, String clocksource, ForkedJvm.Result r, boolean emulated) {
        assertEquals(0, r.exitCode, where + "ContractApp failed\n" + r + hsErr(r));
        List<String> starts = new ArrayList<>();
        for (String line : r.agentLines()) {
            if (line.startsWith("fastclock: active:") || line.startsWith("fastclock: inactive:")) {
                starts.add(line);
            }
        }
        assertEquals(1, starts.size(), where + "not one start line\n" + r);
        // "(clocksource tsc; ..." when active or fast, "(clocksource tsc)" or "(clocksource hpet, known to be slow)"
        // when inactive for want of a faster clock: which one an emulated tsc gets depends on its measured cost.
        assertTrue(Pattern.compile("\\(clocksource " + Pattern.quote(clocksource) + "[;),]").matcher(starts.get(0)).find(),
                where + "the start line names another clocksource\n" + r);
        if (starts.get(0).startsWith("fastclock: active:")) {
            assertTrue(r.stderr.contains("fastclock: rewrote " + ContractApp.class.getName() + " ("), where + "ContractApp not rewritten\n" + r);
        } else {
            assertEquals("system,system", backends(r), where + "an inactive agent installed a backend\n" + r);
        }
        long lagMs = lagMs(r);
        assertAll(where + "contract",
                // A starved guest made 899 reads in its second once; a hundred still show the clock at work.
                () -> assertTrue(r.longValue("millis.reads") > 100, r.toString()),
                () -> assertTrue(coarseUnderEmulation(r, emulated) ? withinEmulatedStall(r.longValue("millis.worstBehindMs"))
                                : r.longValue("millis.worstBehindMs") <= lagMs,
                        where + "millis.lag: a read " + r.value("millis.worstBehindMs") + " ms behind CLOCK_REALTIME, past the "
                                + (coarseUnderEmulation(r, emulated) ? "bound of a late emulated tick (" + EMULATED_STALL_BOUND_MS + " ms)" : "stated " + lagMs + " ms")
                                + "\n" + r),
                () -> assertTrue(r.longValue("millis.worstAheadMs") <= 1, where + "millis ran ahead of CLOCK_REALTIME\n" + r),
                () -> assertEquals(0, r.longValue("nanos.backwardsSingleThread"), where + "nanoTime backwards in one thread\n" + r),
                () -> assertEquals(0, r.longValue("nanos.backwardsAcrossThreads"), where + "nanoTime backwards across threads\n" + r),
                () -> assertTrue(r.longValue("nanos.crossThreadReads") > 1000, r.toString()));
    }

    /** Instant.now() within 1 ms of CLOCK_REALTIME; Instant.now() and new Date() agree with currentTimeMillis within L. */
    private static void checkEpoch(String where, ForkedJvm.Result r, long lagMs, boolean emulated) {
        assertEquals(0, r.exitCode, where + "EpochContractApp failed\n" + r + hsErr(r));
        assertEquals("ok", r.value("done"), r.toString());
        long bound = Math.max(lagMs, 1);
        assertAll(where + "epoch",
                () -> assertEquals(0, r.longValue("bounds.outside"), where + "Instant.now() outside [ref - 1 ms, ref + 1 ms]\n" + r),
                () -> assertEquals(0, r.longValue("resolution.backwards"), where + "Instant.now() went backwards\n" + r),
                () -> assertTrue(coarseUnderEmulation(r, emulated) ? withinEmulatedStall(-r.longValue("agreement.minDiffMs"))
                                && r.longValue("agreement.maxDiffMs") <= bound
                                : Math.abs(r.longValue("agreement.minDiffMs")) <= bound && Math.abs(r.longValue("agreement.maxDiffMs")) <= bound,
                        where + "currentTimeMillis and Instant.now() differ by more than L = " + bound + " ms\n" + r),
                // Both on the coarse clock: a stalled tick that catches up between the two reads puts them
                // up to the stall apart, either way.
                () -> assertTrue(coarseUnderEmulation(r, emulated)
                                ? withinEmulatedStall(Math.max(-r.longValue("date.minDiffMs"), r.longValue("date.maxDiffMs")))
                                : Math.abs(r.longValue("date.minDiffMs")) <= bound && Math.abs(r.longValue("date.maxDiffMs")) <= bound,
                        where + "currentTimeMillis and new Date() differ by more than L = " + bound + " ms\n" + r),
                () -> assertStderrFromAgentOnly(where, r));
    }

    /** Logback (and Log4j2) run with the agent and stamp each event right against CLOCK_REALTIME. */
    private static void checkLogging(String where, ForkedJvm.Result r) {
        assertEquals(0, r.exitCode, where + "LoggingApp failed\n" + r + hsErr(r));
        assertEquals("ok", r.value("done"), r.toString());
        List<Executable> checks = new ArrayList<>();
        for (String framework : new String[] {"logback", "log4j2"}) {
            checks.add(() -> assertTrue(r.longValue(framework + ".checked") > 0 && r.longValue(framework + ".formatted") > 0, r.toString()));
            checks.add(() -> assertEquals(0, r.longValue(framework + ".wrongMillis"), where + framework + " event millis wrong\n" + r));
            checks.add(() -> assertEquals(0, r.longValue(framework + ".wrongInstant"), where + framework + " event instant wrong\n" + r));
        }
        checks.add(() -> assertStderrFromAgentOnly(where, r));
        assertAll(where + "logging", checks);
    }

    private static void assertStderrFromAgentOnly(String where, ForkedJvm.Result r) {
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), where + "stderr line not from the agent: " + line + "\n" + r);
        }
    }

    /** "millis,nanos" backends of a run; an inactive agent installs none ("system,system"). */
    static String backends(ForkedJvm.Result r) {
        String backends = r.value("backends");
        return backends.equals("none") ? "system,system" : backends.replace("millis=", "").replace("nanos=", "");
    }

    /** How a reason says the coarse clock's measured lag, with a tick of margin, was over the cap. */
    static final String LAG_OVER_THE_CAP = "with a tick of margin) is over the";

    /**
     * The doctor and the agent each measure the coarse clock's lag, at different moments: on a loaded
     * host a kernel tick held up in one measurement and not the other puts one over the cap and the
     * other under it, and both verdicts follow the rule. Only millis may differ, and only so.
     */
    static boolean lagStraddlesTheCap(JsonNode doctor, String doctorChose, ForkedJvm.Result agent) {
        String[] d = doctorChose.split(",");
        String[] a = decidedBackends(agent).split(",");
        if (!d[1].equals(a[1])) {
            return false;
        }
        boolean doctorOver = doctor.path("auto").path("millis").path("reason").asText().contains(LAG_OVER_THE_CAP);
        boolean agentOver = agent.stderr.contains(LAG_OVER_THE_CAP);
        return d[0].equals("system") && a[0].equals("coarse") && doctorOver
                || d[0].equals("coarse") && a[0].equals("system") && agentOver;
    }

    static final Pattern DECIDED = Pattern.compile("^fastclock: active: currentTimeMillis -> (\\S+), nanoTime -> (\\S+) ", Pattern.MULTILINE);

    /**
     * The backends the start line says the agent chose, "millis,nanos" ("system,system" when
     * inactive): what the doctor's verdict is compared with. The backends at the end may differ for a
     * reason of their own: a coarse clock given up after a stall in the guest past the cap (its line
     * says so, and checkContract judges the reads).
     */
    static String decidedBackends(ForkedJvm.Result r) {
        Matcher m = DECIDED.matcher(r.stderr);
        return m.find() ? m.group(1) + "," + m.group(2) : "system,system";
    }

    /** L from the start line; 0 where currentTimeMillis stays on the system clock. */
    static long lagMs(ForkedJvm.Result r) {
        if (r.exitCode != 0 || !r.stdout.contains("backends=") || backends(r).startsWith("system,")) {
            return 0;
        }
        Matcher m = LAG.matcher(r.stderr);
        assertTrue(m.find(), "the start line states no lag\n" + r);
        return Long.parseLong(m.group(2));
    }

    /** What one JVM run in the guest left: OUT/NAME.cmd, .rc, .out, .err. */
    private static ForkedJvm.Result result(Path out, String name) throws Exception {
        Path rc = out.resolve(name + ".rc");
        assertTrue(Files.exists(rc), name + " did not run in the guest (no " + rc + ")");
        System.out.println("[GuestIT] " + out.getFileName() + " " + name + ": " + read(out.resolve(name + ".secs")).trim() + " s in the guest");
        return new ForkedJvm.Result(Arrays.asList(read(out.resolve(name + ".cmd")).trim().split(" ")),
                Integer.parseInt(read(rc).trim()), read(out.resolve(name + ".out")), read(out.resolve(name + ".err")));
    }

    /** A JVM crash leaves no hs_err file (the guest's working directory is read-only): say so. */
    private static String hsErr(ForkedJvm.Result r) {
        return r.exitCode > 128 ? "\n(killed by signal " + (r.exitCode - 128) + ")" : "";
    }

    private static Path out(String clocksource) {
        return Paths.get("target", "guest", clocksource).toAbsolutePath();
    }

    /**
     * This guest's boot. The first call starts every guest this run will judge at once (requireAvailable
     * has fetched the kernel and built the initramfs by then): each emulator runs on one host thread,
     * so on this 2-core machine two guests take the longer one's time instead of both together.
     */
    private static GuestLab.Boot awaitBoot(String clocksource) throws Exception {
        Future<GuestLab.Boot> boot;
        synchronized (BOOTS) {
            if (BOOTS.isEmpty()) {
                ExecutorService pool = Executors.newCachedThreadPool();
                for (Arguments guest : guests()) {
                    Object[] row = guest.get();
                    String name = (String) row[0];
                    if (GuestLab.isChosen(name) && (!name.equals("tsc") || GuestLab.isNamed(name))) {
                        BOOTS.put(name, pool.submit(() -> boot(name, (String) row[1], (String) row[2])));
                    }
                }
                pool.shutdown();
            }
            boot = BOOTS.get(clocksource);
        }
        try {
            return boot.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error) {
                throw (Error) e.getCause(); // an assertion in the boot's preparation
            }
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    private static GuestLab.Boot boot(String clocksource, String cpu, String jdkChoice) throws Exception {
        Path out = out(clocksource);
        deleteTree(out);
        List<String> command = new ArrayList<>(List.of(GuestLab.script().resolveSibling("guest-checks.sh").toString(),
                out.toString(), ForkedJvm.agentJar().toString(), classPath()));
        // The logging frameworks' stamps on the real HPET path only: under emulation their start is the
        // slowest run of a boot (36-50 s), and the stamps are java.time's, which LoggingIT runs on every JDK.
        if (logging(clocksource)) {
            command.add("+logging");
        }
        for (Jdk jdk : jdks(jdkChoice)) {
            command.add(jdk.feature + "=" + jdk.javaHome);
        }
        return GuestLab.boot(clocksource, cpu, out, command);
    }

    private static boolean logging(String clocksource) {
        return clocksource.equals("hpet");
    }

    private static List<Jdk> jdks(String choice) {
        List<Jdk> chosen = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            boolean wanted = choice.equals("all") ? Arrays.stream(ALL_JDKS).anyMatch(f -> f == jdk.feature)
                    : Integer.toString(jdk.feature).equals(choice);
            if (!wanted) {
                continue;
            }
            if (jdk.missing != null) {
                if (Jdk.isRequired(jdk.feature)) {
                    jdk.requireAvailable();
                }
                System.out.println("[GuestIT] SKIPPED in the guest: " + jdk + ": " + jdk.missing);
                continue;
            }
            chosen.add(jdk);
        }
        org.junit.jupiter.api.Assumptions.assumeFalse(chosen.isEmpty(), "no JDK for the guest among " + choice);
        return chosen;
    }

    static String classPath() throws Exception {
        return String.join(File.pathSeparator, AgentJars.classPathWithJna(),
                AgentJars.jarOf(ch.qos.logback.classic.LoggerContext.class),
                AgentJars.jarOf(ch.qos.logback.core.AppenderBase.class),
                AgentJars.jarOf(org.slf4j.LoggerFactory.class),
                AgentJars.jarOf(org.apache.logging.log4j.LogManager.class),
                AgentJars.jarOf(org.apache.logging.log4j.core.LoggerContext.class));
    }

    private static String read(Path p) throws Exception {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
