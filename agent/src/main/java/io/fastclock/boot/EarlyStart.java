package io.fastclock.boot;

import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockReplacements.Served;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.rewrite.JdkScope;
import io.fastclock.rewrite.RewriteLines;
import io.fastclock.rewrite.RewriteStats;
import io.fastclock.rewrite.RuntimeShadows;
import io.fastclock.runtime.FastClock;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Installs the transformer, from premain on (before the verdict, so that every class loaded from then
 * on calls FastClock, which serves the JDK's clocks until {@link ClockSwitch} switches it), or once an
 * attach or a later start has decided. The transformer lives here, in the boot runtime's module,
 * which nothing can open: application code can neither reach it nor the Instrumentation it holds for
 * the read edges of named modules.
 */
public final class EarlyStart {
    /** The settings premain passes, in this order (the entry and this module share no class). */
    public static final int INCLUDE = 0;
    public static final int EXCLUDE = 1;
    public static final int JDK = 2;
    public static final int SERVED = 3;
    public static final int LOG = 4;
    public static final int SETTINGS = 5;

    private EarlyStart() {}

    /**
     * premain's install, before anything is decided.
     *
     * @param settings {@link #INCLUDE} and {@link #EXCLUDE} as the settings give them (':'-separated
     *     dotted prefixes, "" for none), {@link #JDK} a JdkScope's setting name, {@link #SERVED} the
     *     clocks that may switch ("millis,nanos,epoch" at most), {@link #LOG} the log setting
     */
    public static ClockTransformer start(Instrumentation inst, Module runtime, String[] settings) {
        if (settings.length != SETTINGS) {
            throw new IllegalArgumentException("expected " + SETTINGS + " settings, got " + settings.length);
        }
        ClockTransformer.Scope scope = new ClockTransformer.Scope(
                new ClassFilter(prefixes(settings[INCLUDE]), prefixes(settings[EXCLUDE])),
                jdkScope(settings[JDK]), ClockReplacements.serving(served(settings[SERVED])));
        ClockTransformer transformer = install(inst, runtime, scope, "quiet".equalsIgnoreCase(settings[LOG]), true);
        if ("debug".equalsIgnoreCase(settings[LOG])) {
            transformer.listener(new RewriteLines(new LineTo(new BootLog(false))));
        }
        return transformer;
    }

    /**
     * @param noting whether the transformer lists the classes it sees until the verdict (premain's
     *     install), so that the verdict need not read their class files again
     */
    public static ClockTransformer install(Instrumentation inst, Module runtime, ClockTransformer.Scope scope, boolean quiet,
            boolean noting) {
        BootLog log = new BootLog(quiet);
        ReadsRuntime readsRuntime = new ReadsRuntime(inst, runtime);
        if (scope.jdk() != JdkScope.NONE && !readsRuntime.test(Object.class.getModule())) {
            log.line("java.base cannot reach the fastclock runtime; the JDK's classes keep the JDK's clocks");
            scope = new ClockTransformer.Scope(scope.filter(), JdkScope.NONE, scope.table());
        }
        ClockTransformer transformer = new ClockTransformer(scope, new RewriteStats(), new RewriteStats(), null,
                readsRuntime, new RuntimeShadows(new LineTo(log)), FastClock.class);
        if (noting) {
            transformer.startNoting();
        }
        inst.addTransformer(transformer, true);
        RuntimeAccess.installed(transformer);
        return transformer;
    }

    static List<String> prefixes(String setting) {
        List<String> out = new ArrayList<>();
        for (String p : setting.split(":", -1)) {
            if (!p.trim().isEmpty()) {
                out.add(p.trim());
            }
        }
        return out;
    }

    /**
     * By name among values(), not Enum.valueOf or EnumSet: both reach the enum's constants through
     * reflection, which on JDK 18+ spins method handles (milliseconds in premain).
     */
    static Set<Served> served(String setting) {
        Set<Served> out = new HashSet<>();
        for (String s : setting.split(",", -1)) {
            for (Served v : Served.values()) {
                if (v.name().equalsIgnoreCase(s.trim())) {
                    out.add(v);
                }
            }
        }
        return Collections.unmodifiableSet(out);
    }

    static JdkScope jdkScope(String setting) {
        for (JdkScope v : JdkScope.values()) {
            if (v.settingName().equalsIgnoreCase(setting.trim())) {
                return v;
            }
        }
        throw new IllegalArgumentException("jdk=" + setting);
    }

    /** A class, not a method reference: no lambda is linked at start-up. */
    private static final class LineTo implements Consumer<String> {
        private final BootLog log;

        LineTo(BootLog log) {
            this.log = log;
        }

        @Override
        public void accept(String line) {
            log.line(line);
        }
    }
}
