package io.fastclock.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import com.google.gson.GsonBuilder;
import io.fastclock.bench.startup.EmptyAgent;
import io.fastclock.bench.startup.Hello;
import io.fastclock.bench.startup.LoadClasses;
import io.fastclock.bench.startup.VerdictTime;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * What the agent costs a JVM: start-up wall time of a hello-world, the main thread's time before
 * main (the JVM's "Create VM", which includes premain), RSS, when the verdict comes, and the cost of
 * loading classes that call the clock. Children are started alternately (bare, empty agent,
 * fastclock ...) so that drift of a noisy machine spreads over all configurations. With
 * {@code --old-agent} an older fastclock.jar runs in the same rounds, so old and new are compared
 * side by side.
 *
 * <pre>
 * java -cp benchmarks.jar io.fastclock.bench.StartupCost --agent agent/target/fastclock.jar \
 *      [--old-agent OLD.jar --old-name REV] --slowclock native/target/libslowclock.so --runs 15 \
 *      --classes 12000 --out startup.json
 * </pre>
 */
public final class StartupCost {
    private StartupCost() {}

    static final class Config {
        final String name;
        final boolean simulator;
        final List<String> jvmArgs;

        Config(String name, boolean simulator, String... jvmArgs) {
            this.name = name;
            this.simulator = simulator;
            this.jvmArgs = Arrays.asList(jvmArgs);
        }

        /** The same JVM with the start-up phases logged to (a fresh) {@code log}. */
        Config withLog(Path log) throws IOException {
            Files.deleteIfExists(log);
            String[] a = new String[jvmArgs.size() + 1];
            a[0] = "-Xlog:startuptime:file=" + log;
            for (int i = 0; i < jvmArgs.size(); i++) {
                a[i + 1] = jvmArgs.get(i);
            }
            return new Config(name, simulator, a);
        }
    }

    static final class Run {
        long wallNanos;
        long createVmMicros;
        long mainMs = -1;
        long verdictMs = -1;
        long hwmKb;
        long rssKb;
        long loadNanos;
        /** The loading thread's CPU time (schedstat), where the child printed it. */
        long loadCpuNanos = -1;
        String stderr;
        int exit;
    }

    public static void main(String[] args) throws Exception {
        String agent = "agent/target/fastclock.jar";
        String slowclock = "native/target/libslowclock.so";
        String spin = "0";
        int runs = 15;
        // Fewer classes let the JIT's timing and the machine's noise swamp a few µs a class (3000 did).
        int classes = 12000;
        int loadRuns = 10;
        String out = "benchmarks/results/startup.json";
        String java = System.getProperty("java.home") + "/bin/java";
        String oldAgent = null;
        String oldName = "old";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--agent": agent = args[++i]; break;
                case "--slowclock": slowclock = args[++i]; break;
                case "--spin": spin = args[++i]; break;
                case "--runs": runs = Integer.parseInt(args[++i]); break;
                case "--classes": classes = Integer.parseInt(args[++i]); break;
                case "--load-runs": loadRuns = Integer.parseInt(args[++i]); break;
                case "--out": out = args[++i]; break;
                case "--java": java = args[++i]; break;
                case "--old-agent": oldAgent = args[++i]; break;
                case "--old-name": oldName = args[++i]; break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (accepted: --agent --old-agent --old-name --slowclock --spin --runs --classes --load-runs --out --java)");
            }
        }
        File agentJar = new File(agent).getAbsoluteFile();
        if (!agentJar.isFile()) {
            throw new IllegalArgumentException("--agent " + agent + ": no such file (build it: mvn -B -q -DskipTests package)");
        }
        File slow = new File(slowclock).getAbsoluteFile();
        boolean haveSim = slow.isFile();
        if (!haveSim) {
            System.err.println("StartupCost: no simulator at " + slow + "; the simulator rows are skipped");
        }

        File oldJar = oldAgent == null ? null : new File(oldAgent).getAbsoluteFile();
        if (oldJar != null && !oldJar.isFile()) {
            throw new IllegalArgumentException("--old-agent " + oldAgent + ": no such file");
        }

        Path work = Files.createTempDirectory("fastclock-startup");
        Path appDir = work.resolve("app");
        copyClass(Hello.class, appDir);
        copyClass(LoadClasses.class, appDir);
        copyClass(VerdictTime.class, appDir);
        Path vmLog = work.resolve("startuptime.log");
        Path emptyAgent = work.resolve("empty-agent.jar");
        writeEmptyAgentJar(emptyAgent, false);
        Path hookAgent = work.resolve("no-op-transformer.jar");
        writeEmptyAgentJar(hookAgent, true);
        Path genJar = work.resolve("gen.jar");
        writeGeneratedClasses(genJar, classes);

        String fc = "-javaagent:" + agentJar;
        String old = oldJar == null ? null : "-javaagent:" + oldJar;
        String oldLabel = "fastclock " + oldName + " ";
        String empty = "-javaagent:" + emptyAgent;
        List<Config> configs = new ArrayList<>();
        configs.add(new Config("bare", false));
        configs.add(new Config("empty agent", false, empty));
        if (old != null) {
            configs.add(new Config(oldLabel + "auto (inactive on tsc)", false, old));
            configs.add(new Config(oldLabel + "mode=on", false, old + "=mode=on"));
        }
        // The defaults decide in the background (start=background); start=wait is what the defaults were.
        configs.add(new Config("fastclock auto (inactive on tsc)", false, fc));
        configs.add(new Config("fastclock mode=on", false, fc + "=mode=on"));
        configs.add(new Config("fastclock mode=on, start=wait", false, fc + "=mode=on,start=wait"));
        if (haveSim) {
            configs.add(new Config("sim: bare", true));
            configs.add(new Config("sim: empty agent", true, empty));
            if (old != null) {
                configs.add(new Config("sim: " + oldLabel + "auto", true, old));
            }
            configs.add(new Config("sim: fastclock auto", true, fc));
            configs.add(new Config("sim: fastclock auto, start=wait", true, fc + "=start=wait"));
        }

        Map<String, List<Run>> hello = new LinkedHashMap<>();
        for (Config c : configs) {
            hello.put(c.name, new ArrayList<>());
        }
        // One untimed warm-up round (page cache, CDS archive mapping).
        for (Config c : configs) {
            runChild(java, c.withLog(vmLog), slow, spin, appDir.toString(), "io.fastclock.bench.startup.Hello");
        }
        for (int r = 0; r < runs; r++) {
            for (Config c : configs) {
                Run run = runChild(java, c.withLog(vmLog), slow, spin, appDir.toString(), "io.fastclock.bench.startup.Hello");
                run.createVmMicros = createVmMicros(vmLog);
                hello.get(c.name).add(run);
            }
            System.err.print(".");
        }
        System.err.println();

        // When main begins and when the verdict is published (fastclock.active), in ms after the process started.
        List<Config> verdictConfigs = new ArrayList<>();
        verdictConfigs.add(new Config("bare", false));
        for (Config c : configs) {
            if (c.name.contains("auto") && (c.name.startsWith("fastclock") || c.name.startsWith("sim: fastclock"))) {
                verdictConfigs.add(c);
            }
        }
        Map<String, List<Run>> verdict = new LinkedHashMap<>();
        for (Config c : verdictConfigs) {
            verdict.put(c.name, new ArrayList<>());
        }
        for (int r = 0; r < runs; r++) {
            for (Config c : verdictConfigs) {
                verdict.get(c.name).add(runChild(java, c, slow, spin, appDir.toString(),
                        "io.fastclock.bench.startup.VerdictTime", c.name.equals("bare") ? "main" : "await"));
            }
            System.err.print(".");
        }
        System.err.println();

        List<Config> loadConfigs = new ArrayList<>();
        loadConfigs.add(new Config("bare", false));
        loadConfigs.add(new Config("empty agent", false, empty));
        loadConfigs.add(new Config("no-op transformer", false, "-javaagent:" + hookAgent + "=" + EmptyAgent.TRANSFORMER));
        if (old != null) {
            loadConfigs.add(new Config(oldLabel + "mode=on", false, old + "=mode=on"));
        }
        // Waiting: the classes load after the verdict, so each passes the transformer as it loads.
        loadConfigs.add(new Config("fastclock mode=on", false, fc + "=mode=on,start=wait"));
        Map<String, List<Run>> load = new LinkedHashMap<>();
        for (Config c : loadConfigs) {
            load.put(c.name, new ArrayList<>());
        }
        String loadCp = appDir + File.pathSeparator + genJar;
        for (Config c : loadConfigs) {
            runChild(java, c, slow, spin, loadCp, "io.fastclock.bench.startup.LoadClasses", String.valueOf(classes));
        }
        for (int r = 0; r < loadRuns; r++) {
            for (Config c : loadConfigs) {
                load.get(c.name).add(runChild(java, c, slow, spin, loadCp, "io.fastclock.bench.startup.LoadClasses", String.valueOf(classes)));
            }
            System.err.print(".");
        }
        System.err.println();

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("java", java);
        result.put("javaVersion", System.getProperty("java.version"));
        result.put("agent", agentJar.toString());
        result.put("oldAgent", oldJar == null ? null : oldJar.toString());
        result.put("oldName", oldJar == null ? null : oldName);
        result.put("simulator", haveSim ? slow.toString() : null);
        result.put("simulatorSpinNs", spin);
        result.put("runs", runs);
        result.put("classes", classes);
        result.put("loadRuns", loadRuns);
        result.put("hello", summarize(hello, false));
        result.put("verdict", summarizeVerdict(verdict));
        result.put("classLoading", summarize(load, true));
        StartupCost.writeJson(Path.of(out), result, "StartupCost");
        printTable(hello, load, classes);
        deleteTree(work.toFile());
    }

    private static Map<String, Object> summarize(Map<String, List<Run>> runs, boolean load) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, List<Run>> e : runs.entrySet()) {
            Map<String, Object> s = new LinkedHashMap<>();
            long[] wall = e.getValue().stream().mapToLong(r -> r.wallNanos).toArray();
            s.put("wallMs", stats(wall, 1e6));
            if (load) {
                s.put("loadMs", stats(e.getValue().stream().mapToLong(r -> r.loadNanos).toArray(), 1e6));
                if (e.getValue().stream().allMatch(r -> r.loadCpuNanos >= 0)) {
                    s.put("loadCpuMs", stats(e.getValue().stream().mapToLong(r -> r.loadCpuNanos).toArray(), 1e6));
                }
            } else {
                s.put("createVmMs", stats(e.getValue().stream().mapToLong(r -> r.createVmMicros).toArray(), 1e3));
                s.put("vmHwmKb", stats(e.getValue().stream().mapToLong(r -> r.hwmKb).toArray(), 1));
                s.put("vmRssKb", stats(e.getValue().stream().mapToLong(r -> r.rssKb).toArray(), 1));
            }
            Set<String> errs = new LinkedHashSet<>();
            int failures = 0;
            for (Run r : e.getValue()) {
                if (!r.stderr.isBlank()) {
                    errs.add(r.stderr.strip());
                }
                if (r.exit != 0) {
                    failures++;
                }
            }
            s.put("stderr", new ArrayList<>(errs));
            s.put("failedRuns", failures);
            m.put(e.getKey(), s);
        }
        return m;
    }

    /** The result as pretty JSON (nulls kept) at {@code out}, its directory made if need be. */
    static void writeJson(Path out, Map<String, Object> result, String who) throws IOException {
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(result));
        System.err.println(who + ": wrote " + out);
    }

    private static Map<String, Object> summarizeVerdict(Map<String, List<Run>> runs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, List<Run>> e : runs.entrySet()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("mainMs", stats(e.getValue().stream().mapToLong(r -> r.mainMs).toArray(), 1));
            long[] verdicts = e.getValue().stream().mapToLong(r -> r.verdictMs).filter(v -> v >= 0).toArray();
            s.put("verdictMs", verdicts.length == 0 ? null : stats(verdicts, 1));
            s.put("runsWithoutVerdict", e.getValue().size() - verdicts.length);
            m.put(e.getKey(), s);
        }
        return m;
    }

    /** The JVM's "Create VM" phase from -Xlog:startuptime, in µs (-1 if the log has none). */
    private static long createVmMicros(Path log) throws IOException {
        if (!Files.isRegularFile(log)) {
            return -1;
        }
        for (String line : Files.readAllLines(log)) {
            int at = line.indexOf("Create VM,");
            if (at >= 0) {
                String secs = line.substring(at + "Create VM,".length()).trim().split("\\s+")[0];
                return Math.round(Double.parseDouble(secs) * 1e6);
            }
        }
        return -1;
    }

    private static Map<String, Object> stats(long[] values, double div) {
        long[] v = values.clone();
        Arrays.sort(v);
        Map<String, Object> s = new LinkedHashMap<>();
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
        s.put("median", median / div);
        s.put("min", v[0] / div);
        s.put("max", v[v.length - 1] / div);
        double[] all = new double[v.length];
        for (int i = 0; i < values.length; i++) {
            all[i] = values[i] / div;
        }
        s.put("all", all);
        return s;
    }

    private static Run runChild(String java, Config c, File slow, String spin, String cp, String main, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(c.jvmArgs);
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(main);
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("LD_PRELOAD");
        pb.environment().remove("SLOWCLOCK_SPIN_NS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        if (c.simulator) {
            pb.environment().put("LD_PRELOAD", slow.toString());
            pb.environment().put("SLOWCLOCK_SPIN_NS", spin);
        }
        long t0 = System.nanoTime();
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] outBytes = p.getInputStream().readAllBytes();
        byte[] errBytes = p.getErrorStream().readAllBytes();
        int exit = p.waitFor();
        long t1 = System.nanoTime();
        Run r = new Run();
        r.wallNanos = t1 - t0;
        r.exit = exit;
        r.stderr = new String(errBytes, StandardCharsets.UTF_8);
        for (String line : new String(outBytes, StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("rss") && f.length >= 3) {
                r.hwmKb = Long.parseLong(f[1]);
                r.rssKb = Long.parseLong(f[2]);
            } else if (f[0].equals("load") && f.length >= 2) {
                r.loadNanos = Long.parseLong(f[1]);
                if (f.length >= 5) {
                    r.loadCpuNanos = Long.parseLong(f[4]);
                }
            } else if (f[0].equals("main") && f.length >= 2) {
                r.mainMs = Long.parseLong(f[1]);
            } else if (f[0].equals("verdict") && f.length >= 2 && !f[1].equals("none")) {
                r.verdictMs = Long.parseLong(f[1]);
            }
        }
        if (exit != 0) {
            System.err.println("StartupCost: " + c.name + " exited " + exit + ": " + r.stderr.strip());
        }
        return r;
    }

    private static void printTable(Map<String, List<Run>> hello, Map<String, List<Run>> load, int classes) {
        System.out.printf("%-44s %10s %10s %10s %12s %10s%n", "hello-world", "median ms", "min", "max", "CreateVM ms", "HWM MB");
        for (Map.Entry<String, List<Run>> e : hello.entrySet()) {
            long[] w = e.getValue().stream().mapToLong(r -> r.wallNanos).sorted().toArray();
            long[] h = e.getValue().stream().mapToLong(r -> r.hwmKb).sorted().toArray();
            long[] v = e.getValue().stream().mapToLong(r -> r.createVmMicros).sorted().toArray();
            System.out.printf("%-44s %10.1f %10.1f %10.1f %12.1f %10.1f%n", e.getKey(), w[w.length / 2] / 1e6, w[0] / 1e6,
                    w[w.length - 1] / 1e6, v[v.length / 2] / 1e3, h[h.length / 2] / 1024.0);
        }
        System.out.printf("%-44s %10s %10s (%d classes)%n", "class loading", "median ms", "CPU ms", classes);
        for (Map.Entry<String, List<Run>> e : load.entrySet()) {
            long[] w = e.getValue().stream().mapToLong(r -> r.loadNanos).sorted().toArray();
            long[] cpu = e.getValue().stream().mapToLong(r -> r.loadCpuNanos).sorted().toArray();
            System.out.printf("%-44s %10.1f %10.1f%n", e.getKey(), w[w.length / 2] / 1e6, cpu[cpu.length / 2] / 1e6);
        }
    }

    static void copyClass(Class<?> c, Path root) throws IOException {
        String res = c.getName().replace('.', '/') + ".class";
        Path target = root.resolve(res);
        Files.createDirectories(target.getParent());
        try (InputStream in = c.getClassLoader().getResourceAsStream(res)) {
            Files.write(target, in.readAllBytes());
        }
    }

    private static void writeEmptyAgentJar(Path jar, boolean canRetransform) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue("Premain-Class", EmptyAgent.class.getName());
        if (canRetransform) {
            mf.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf)) {
            for (Class<?> c : new Class<?>[] {EmptyAgent.class, EmptyAgent.NoChange.class}) {
                String res = c.getName().replace('.', '/') + ".class";
                try (InputStream in = c.getClassLoader().getResourceAsStream(res)) {
                    out.putNextEntry(new JarEntry(res));
                    out.write(in.readAllBytes());
                    out.closeEntry();
                }
            }
        }
    }


    /** gen.C0 .. gen.C(n-1), each: public static long t() { return System.currentTimeMillis() + i; } */
    static void writeGeneratedClasses(Path jar, int n) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(os, mf)) {
            for (int i = 0; i < n; i++) {
                out.putNextEntry(new JarEntry("gen/C" + i + ".class"));
                out.write(generate(i));
                out.closeEntry();
            }
        }
    }

    static byte[] generate(int i) {
        return generate("gen/C" + i, i);
    }

    static byte[] generate(String name, int i) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor t = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "t", "()J", null, null);
        t.visitCode();
        t.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", false);
        t.visitLdcInsn((long) i);
        t.visitInsn(Opcodes.LADD);
        t.visitInsn(Opcodes.LRETURN);
        t.visitMaxs(0, 0);
        t.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    static void deleteTree(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                deleteTree(c);
            }
        }
        f.delete();
    }

}
