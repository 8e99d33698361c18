package io.fastclock.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fastclock.bench.startup.AttachTarget;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * What attaching fastclock to a running JVM costs: a program of CLASSES classes loaded from a jar
 * (one in ten calls the clock), under the slow-clock simulator, with 0 or more threads reading the
 * clocks, gets {@code java -jar fastclock.jar attach PID mode=on}. Measured: the attach command's
 * wall time, the "ms from attach to verdict" it reports, and the JVM's longest RedefineClasses
 * safepoint (-Xlog:safepoint). With {@code --old-agent} an older jar is attached in the same rounds,
 * alternately, so the two are compared side by side.
 *
 * <pre>
 * java -cp benchmarks.jar io.fastclock.bench.AttachCost --agent agent/target/fastclock.jar \
 *      [--old-agent OLD.jar --old-name REV] --slowclock native/target/libslowclock.so \
 *      --classes 5000 --threads 0,2 --runs 3 --out attach.json
 * </pre>
 */
public final class AttachCost {
    private static final Pattern VERDICT = Pattern.compile("(\\d+) ms from attach to verdict");
    private static final Pattern SAFEPOINT_TOTAL = Pattern.compile("Total: (\\d+) ns");

    private AttachCost() {}

    static final class Attach {
        long commandMs;
        long verdictMs = -1;
        long longestPauseNs = -1;
        int pauses;
        double loadAverage;
        String active;
    }

    public static void main(String[] args) throws Exception {
        String agent = "agent/target/fastclock.jar";
        String oldAgent = null;
        String oldName = "old";
        String slowclock = "native/target/libslowclock.so";
        int classes = 5000;
        int runs = 3;
        List<Integer> threads = List.of(0, 2);
        String out = "benchmarks/results/attach.json";
        String java = System.getProperty("java.home") + "/bin/java";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--agent": agent = args[++i]; break;
                case "--old-agent": oldAgent = args[++i]; break;
                case "--old-name": oldName = args[++i]; break;
                case "--slowclock": slowclock = args[++i]; break;
                case "--classes": classes = Integer.parseInt(args[++i]); break;
                case "--runs": runs = Integer.parseInt(args[++i]); break;
                case "--threads": threads = parseInts(args[++i]); break;
                case "--out": out = args[++i]; break;
                case "--java": java = args[++i]; break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (accepted: --agent --old-agent --old-name --slowclock --classes --runs --threads --out --java)");
            }
        }
        File slow = new File(slowclock).getAbsoluteFile();
        if (!slow.isFile()) {
            System.err.println("AttachCost: no simulator at " + slow + "; nothing measured");
            return;
        }
        Map<String, File> agents = new LinkedHashMap<>();
        if (oldAgent != null) {
            agents.put("fastclock " + oldName, existing(oldAgent));
        }
        agents.put("fastclock", existing(agent));

        Path work = Files.createTempDirectory("fastclock-attach");
        Path appDir = work.resolve("app");
        StartupCost.copyClass(AttachTarget.class, appDir);
        Path genJar = work.resolve("gen.jar");
        writeClasses(genJar, classes);
        Path safepointLog = work.resolve("safepoint.log");

        Map<String, List<Attach>> results = new LinkedHashMap<>();
        for (int t : threads) {
            for (String name : agents.keySet()) {
                results.put(key(name, t), new ArrayList<>());
            }
        }
        for (int r = 0; r < runs; r++) {
            for (int t : threads) {
                for (Map.Entry<String, File> a : agents.entrySet()) {
                    Attach m = attachOnce(java, a.getValue(), slow, appDir, genJar, classes, t, safepointLog);
                    results.get(key(a.getKey(), t)).add(m);
                    System.err.printf("AttachCost: %s: command %d ms, verdict %d ms, longest pause %.1f ms, load %.2f, active %s%n",
                            key(a.getKey(), t), m.commandMs, m.verdictMs, m.longestPauseNs / 1e6, m.loadAverage, m.active);
                }
            }
        }

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("java", java);
        result.put("javaVersion", System.getProperty("java.version"));
        result.put("agent", agents.get("fastclock").toString());
        result.put("oldAgent", oldAgent == null ? null : agents.get("fastclock " + oldName).toString());
        result.put("oldName", oldAgent == null ? null : oldName);
        result.put("classes", classes);
        result.put("runs", runs);
        Map<String, Object> rows = new LinkedHashMap<>();
        for (Map.Entry<String, List<Attach>> e : results.entrySet()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("commandMs", e.getValue().stream().mapToLong(x -> x.commandMs).toArray());
            row.put("verdictMs", e.getValue().stream().mapToLong(x -> x.verdictMs).toArray());
            row.put("longestPauseMs", e.getValue().stream().mapToDouble(x -> x.longestPauseNs / 1e6).toArray());
            row.put("pauses", e.getValue().stream().mapToInt(x -> x.pauses).toArray());
            row.put("loadAverage", e.getValue().stream().mapToDouble(x -> x.loadAverage).toArray());
            row.put("active", e.getValue().stream().map(x -> x.active).toArray());
            rows.put(e.getKey(), row);
        }
        result.put("attach", rows);
        StartupCost.writeJson(Path.of(out), result, "AttachCost");
        StartupCost.deleteTree(work.toFile());
    }

    static String key(String agentName, int threads) {
        return agentName + ", " + threads + " reader thread" + (threads == 1 ? "" : "s");
    }

    private static Attach attachOnce(String java, File agent, File slow, Path appDir, Path genJar, int classes, int threads,
            Path safepointLog) throws IOException, InterruptedException {
        Files.deleteIfExists(safepointLog);
        ProcessBuilder pb = new ProcessBuilder(java, "-Xlog:safepoint=info:file=" + safepointLog, "-cp", appDir.toString(),
                AttachTarget.class.getName(), String.valueOf(classes), String.valueOf(threads), genJar.toString());
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().put("LD_PRELOAD", slow.toString());
        pb.environment().put("SLOWCLOCK_SPIN_NS", "0");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process target = pb.start();
        Attach m = new Attach();
        try (BufferedReader stdout = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                OutputStream stdin = target.getOutputStream()) {
            String line;
            while ((line = stdout.readLine()) != null && !line.startsWith("ready")) {
                // the class loading's output, if any
            }
            if (line == null) {
                throw new IOException("the target ended before it was ready (exit " + target.waitFor() + ")");
            }
            Thread.sleep(1000);
            m.loadAverage = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            ProcessBuilder attach = new ProcessBuilder(java, "-jar", agent.toString(), "attach", String.valueOf(target.pid()), "mode=on");
            attach.environment().remove("JAVA_TOOL_OPTIONS");
            attach.environment().remove("LD_PRELOAD");
            attach.redirectErrorStream(true);
            long t0 = System.nanoTime();
            Process command = attach.start();
            String said = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            command.waitFor();
            m.commandMs = (System.nanoTime() - t0) / 1_000_000;
            Matcher v = VERDICT.matcher(said);
            if (v.find()) {
                m.verdictMs = Long.parseLong(v.group(1));
            } else {
                System.err.println("AttachCost: no verdict time in the attach command's output: " + said.strip());
            }
            stdin.close();
            while ((line = stdout.readLine()) != null) {
                if (line.startsWith("active ")) {
                    m.active = line.substring("active ".length());
                }
            }
        } finally {
            target.waitFor();
        }
        for (String line : Files.readAllLines(safepointLog)) {
            Matcher total = SAFEPOINT_TOTAL.matcher(line);
            if (line.contains("RedefineClasses") && total.find()) {
                m.pauses++;
                m.longestPauseNs = Math.max(m.longestPauseNs, Long.parseLong(total.group(1)));
            }
        }
        return m;
    }

    private static File existing(String path) {
        File f = new File(path).getAbsoluteFile();
        if (!f.isFile()) {
            throw new IllegalArgumentException(path + ": no such file");
        }
        return f;
    }

    private static List<Integer> parseInts(String csv) {
        List<Integer> l = new ArrayList<>();
        for (String s : csv.split(",")) {
            l.add(Integer.parseInt(s.trim()));
        }
        return l;
    }

    /** gen.A0 .. gen.A(n-1): one in ten as StartupCost's generated classes (a t() that calls the clock), the rest without. */
    private static void writeClasses(Path jar, int n) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf)) {
            for (int i = 0; i < n; i++) {
                out.putNextEntry(new JarEntry("gen/A" + i + ".class"));
                out.write(i % 10 == 0 ? StartupCost.generate("gen/A" + i, i) : plain("gen/A" + i));
                out.closeEntry();
            }
        }
    }

    /** public class NAME { public static long run() { return 42L; } } */
    private static byte[] plain(String name) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        MethodVisitor run = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", "()J", null, null);
        run.visitCode();
        run.visitLdcInsn(42L);
        run.visitInsn(Opcodes.LRETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
