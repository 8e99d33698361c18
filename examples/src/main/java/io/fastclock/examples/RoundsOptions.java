package io.fastclock.examples;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The options of the demo's rounds ({@link DemoRounds}): where the set-ups' files are, which to run, how many rounds. */
final class RoundsOptions {

    static final int DEFAULT_ROUNDS = 4;

    static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -cp fastclock-demo.jar io.fastclock.examples.DemoRounds --demo-jar JAR [--java JAVA]",
            "           [--agent fastclock.jar] [--simulator libslowclock.so] [--setups LIST] [--rounds N]",
            "           [--quick] [--seconds S] [--threads N] [--only clocks|workload]",
            "  Runs each set-up in a JVM of its own; they take turns, row by row, round after round.",
            "  --setups LIST    of plain, agent, slow, slow-agent (default: plain, and those whose files are given)",
            "  --rounds N       rounds per row and set-up (default " + DEFAULT_ROUNDS + "; 2..50)",
            "  --quick          short run: 0.3 s of measuring per row and set-up",
            "  --seconds S      measuring time per row and set-up, shared out over the rounds (default 1)",
            "  --threads N      largest thread count of the clock table (default: 2 x available processors)",
            "  --only WHAT      clocks: only the clock table; workload: only the workloads",
            "  --help           this text");

    final String java;
    final Path demoJar;
    final Path agentJar;
    final Path simulator;
    final List<SetUp> setUps;
    final int rounds;
    final DemoOptions demo;

    private RoundsOptions(String java, Path demoJar, Path agentJar, Path simulator, List<SetUp> setUps, int rounds,
            DemoOptions demo) {
        this.java = java;
        this.demoJar = demoJar;
        this.agentJar = agentJar;
        this.simulator = simulator;
        this.setUps = setUps;
        this.rounds = rounds;
        this.demo = demo;
    }

    /** One round's measuring time at one row: the demo's --seconds shared out over the rounds. */
    double sampleSeconds() {
        return demo.seconds / rounds;
    }

    /**
     * @param defaultThreads the clock table's largest thread count when --threads is absent
     * @throws IllegalArgumentException naming the option, the value and what is accepted
     */
    static RoundsOptions parse(String[] args, int defaultThreads) {
        String java = "java";
        Path demoJar = null;
        Path agentJar = null;
        Path simulator = null;
        String setUps = null;
        int rounds = DEFAULT_ROUNDS;
        List<String> demoArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--java":
                    java = value(args, ++i, arg);
                    break;
                case "--demo-jar":
                    demoJar = Paths.get(value(args, ++i, arg));
                    break;
                case "--agent":
                    agentJar = Paths.get(value(args, ++i, arg));
                    break;
                case "--simulator":
                    simulator = Paths.get(value(args, ++i, arg));
                    break;
                case "--setups":
                    setUps = value(args, ++i, arg);
                    break;
                case "--rounds":
                    rounds = parseRounds(value(args, ++i, arg));
                    break;
                default:
                    demoArgs.add(arg);
            }
        }
        DemoOptions demo = DemoOptions.parse(demoArgs.toArray(new String[0]), defaultThreads);
        if (demoJar == null && !demo.help) {
            throw new IllegalArgumentException("--demo-jar is needed: the jar each set-up's JVM runs");
        }
        return new RoundsOptions(java, demoJar, agentJar, simulator, setUps(setUps, agentJar, simulator), rounds, demo);
    }

    private static List<SetUp> setUps(String list, Path agentJar, Path simulator) {
        List<SetUp> chosen = new ArrayList<>();
        if (list == null) {
            for (SetUp s : SetUp.values()) {
                if ((!s.agent || agentJar != null) && (!s.simulator || simulator != null)) {
                    chosen.add(s);
                }
            }
            return chosen;
        }
        for (String id : list.split(",")) {
            SetUp s = SetUp.byId(id.trim());
            if (s.agent && agentJar == null || s.simulator && simulator == null) {
                throw new IllegalArgumentException("--setups: " + s.id + " needs " + (s.agent && agentJar == null
                        ? "--agent" : "--simulator"));
            }
            if (!chosen.contains(s)) {
                chosen.add(s);
            }
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("--setups: expected at least one of plain, agent, slow, slow-agent");
        }
        return chosen;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int parseRounds(String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 2 && n <= 50) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--rounds '" + v + "': expected a whole number in 2..50 (a spread needs two)");
    }
}
