package io.fastclock.examples;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the rounds measured, and the tables made from it: per row, each set-up's figure with its
 * spread, the agent's against the same set-up without it ({@link Comparison}), and the load average.
 */
final class RoundsReport {

    /** Set-ups shown side by side: the agent's figures next to those they are compared with. */
    private static final SetUp[][] GROUPS = {{SetUp.PLAIN, SetUp.AGENT}, {SetUp.SLOW, SetUp.SLOW_AGENT}};
    private static final String[] GROUP_TITLES = {"without the simulator", "under the simulator"};
    static final String BEFORE_VERDICT_MARK = " *";
    /**
     * In place of a ratio where the agent was inactive through every round of a row: it ran the same
     * code as the set-up without it, so a difference between the two is the machine's (a JIT that
     * compiled later in one JVM than in the other on starved CPUs), not the agent's.
     */
    static final String AGENT_INACTIVE = "same code: the agent is inactive";

    private final List<SetUp> setUps;
    private final Map<DemoPoint, Map<SetUp, List<Sample>>> samples = new HashMap<>();
    private final Map<DemoPoint, Double> load = new HashMap<>();

    RoundsReport(List<SetUp> setUps) {
        this.setUps = setUps;
    }

    void add(DemoPoint point, SetUp setUp, Sample sample) {
        samples.computeIfAbsent(point, p -> new EnumMap<>(SetUp.class)).computeIfAbsent(setUp, s -> new ArrayList<>())
                .add(sample);
    }

    /** The 1-minute load average when the row was done. */
    void load(DemoPoint point, double loadAverage) {
        load.put(point, loadAverage);
    }

    Spread spread(DemoPoint point, SetUp setUp) {
        List<Double> figures = new ArrayList<>();
        for (Sample s : samples(point, setUp)) {
            figures.add(s.nanosPerOp);
        }
        return Spread.of(figures);
    }

    /** A figure with its spread, marked where an agent had not decided yet when one of its rounds began. */
    String cell(DemoPoint point, SetUp setUp) {
        return spread(point, setUp).figure() + (setUp.agent && beforeVerdict(point, setUp) ? BEFORE_VERDICT_MARK : "");
    }

    boolean anyBeforeVerdict() {
        for (DemoPoint p : samples.keySet()) {
            for (SetUp s : setUps) {
                if (s.agent && beforeVerdict(p, s)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One table per group of set-ups that ran, the rows in the given order. */
    String tables(String firstColumn, List<DemoPoint> points) {
        StringBuilder out = new StringBuilder();
        for (int g = 0; g < GROUPS.length; g++) {
            List<SetUp> present = new ArrayList<>();
            for (SetUp s : GROUPS[g]) {
                if (setUps.contains(s)) {
                    present.add(s);
                }
            }
            if (present.isEmpty()) {
                continue;
            }
            out.append(Character.toUpperCase(GROUP_TITLES[g].charAt(0))).append(GROUP_TITLES[g].substring(1))
                    .append(System.lineSeparator());
            out.append(table(firstColumn, points, present)).append(System.lineSeparator());
        }
        return out.toString();
    }

    private String table(String firstColumn, List<DemoPoint> points, List<SetUp> present) {
        List<String> header = new ArrayList<>(List.of(firstColumn, "threads"));
        for (SetUp s : present) {
            header.add(s.label);
        }
        SetUp compared = present.size() == 2 && present.get(1).base() == present.get(0) ? present.get(1) : null;
        if (compared != null) {
            header.add(compared.label + " vs " + compared.base().label);
        }
        header.add("load");
        Report.Table table = new Report.Table(header.toArray(new String[0]));
        if (compared != null) {
            table.left(header.size() - 2);
        }
        for (DemoPoint p : points) {
            List<String> row = new ArrayList<>(List.of(p.workload.name(), Integer.toString(p.threads)));
            for (SetUp s : present) {
                row.add(cell(p, s));
            }
            if (compared != null) {
                row.add(inactiveThroughout(p, compared) ? AGENT_INACTIVE
                        : Comparison.of(spread(p, compared.base()), spread(p, compared)));
            }
            row.add(LoadAverage.format(load.getOrDefault(p, Double.NaN)));
            table.row(row.toArray(new String[0]));
        }
        return table.toString();
    }

    /** The stamps seen going backwards over every round, per set-up; null where no row checks them. */
    String backwards(List<DemoPoint> points) {
        List<String> counts = new ArrayList<>();
        for (SetUp s : setUps) {
            long total = -1;
            for (DemoPoint p : points) {
                for (Sample sample : samples(p, s)) {
                    if (sample.backwards >= 0) {
                        total = Math.max(total, 0) + sample.backwards;
                    }
                }
            }
            if (total >= 0) {
                counts.add(s.label + " " + total);
            }
        }
        return counts.isEmpty() ? null : String.join(", ", counts);
    }

    private boolean inactiveThroughout(DemoPoint point, SetUp setUp) {
        List<Sample> all = samples(point, setUp);
        for (Sample s : all) {
            if (!"false".equals(s.agentBefore) || !"false".equals(s.agentAfter)) {
                return false;
            }
        }
        return !all.isEmpty();
    }

    private boolean beforeVerdict(DemoPoint point, SetUp setUp) {
        for (Sample s : samples(point, setUp)) {
            if (s.beforeVerdict()) {
                return true;
            }
        }
        return false;
    }

    private List<Sample> samples(DemoPoint point, SetUp setUp) {
        return samples.getOrDefault(point, Map.of()).getOrDefault(setUp, List.of());
    }
}
