package io.fastclock.examples;

/** The demo's command-line options, parsed and checked; immutable. */
final class DemoOptions {

    static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -jar fastclock-demo.jar [--quick] [--seconds S] [--threads N] [--only clocks|workload]",
            "  --quick          short run (about 10 s in all): 0.3 s per measurement",
            "  --seconds S      measuring time per point in seconds (default 1; decimals allowed)",
            "  --threads N      largest thread count of the clock table (default: 2 x available processors)",
            "  --only WHAT      clocks: only the clock cost table; workload: only the workloads",
            "  --help           this text",
            "Run it plain, with -javaagent:fastclock.jar, and under LD_PRELOAD=libslowclock.so",
            "(examples/run-demo.sh does all four).");

    enum Only { ALL, CLOCKS, WORKLOAD }

    final double seconds;
    final int maxThreads;
    final Only only;
    final boolean quick;
    final boolean help;

    private DemoOptions(double seconds, int maxThreads, Only only, boolean quick, boolean help) {
        this.seconds = seconds;
        this.maxThreads = maxThreads;
        this.only = only;
        this.quick = quick;
        this.help = help;
    }

    /** Warm-up before each measured point: half the measuring time, between 0.1 s and 1 s. */
    double warmupSeconds() {
        return Math.max(0.1, Math.min(1.0, seconds / 2));
    }

    /**
     * Parses the arguments.
     *
     * @param defaultThreads the thread count used when --threads is absent
     * @throws IllegalArgumentException naming the option, the value and what is accepted
     */
    static DemoOptions parse(String[] args, int defaultThreads) {
        Double seconds = null;
        int threads = defaultThreads;
        Only only = Only.ALL;
        boolean quick = false;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--quick":
                    quick = true;
                    break;
                case "--help":
                case "-h":
                    help = true;
                    break;
                case "--seconds":
                    seconds = parseSeconds(value(args, ++i, arg));
                    break;
                case "--threads":
                    threads = parseThreads(value(args, ++i, arg));
                    break;
                case "--only":
                    only = parseOnly(value(args, ++i, arg));
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + arg + "' (try --help)");
            }
        }
        double s = seconds != null ? seconds : quick ? 0.3 : 1.0;
        return new DemoOptions(s, threads, only, quick, help);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static double parseSeconds(String v) {
        try {
            double s = Double.parseDouble(v);
            if (s >= 0.01 && s <= 3600) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--seconds '" + v + "': expected a number of seconds in 0.01..3600");
    }

    private static int parseThreads(String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= 1024) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--threads '" + v + "': expected a whole number in 1..1024");
    }

    private static Only parseOnly(String v) {
        switch (v) {
            case "clocks":
                return Only.CLOCKS;
            case "workload":
                return Only.WORKLOAD;
            default:
                throw new IllegalArgumentException("--only '" + v + "': expected clocks or workload");
        }
    }
}
