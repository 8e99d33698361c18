package io.fastclock.agent;

import io.fastclock.asm.AsmFallback;
import io.fastclock.boot.EarlyStart;
import io.fastclock.boot.RuntimeAccess;
import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.rewrite.JdkScope;
import io.fastclock.rewrite.RewriteListener;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The transformer at the verdict. Where premain set the runtime up, its transformer has rewritten every
 * class loaded since to FastClock (the JDK's clocks until the switch) and listed what it saw; the
 * verdict gives it the scope it decided on and the ASM fallback, and says which classes must be changed
 * again: those loaded before premain (the JDK's, another agent's), those the transformer left for want
 * of ASM, and, where the scope narrowed, those it changed under the wider one (they get their own bytes
 * back, or fewer changes). Elsewhere (an attach; settings premain could not judge) the transformer is
 * installed now, and everything loaded is looked at, as before.
 */
final class Takeover {
    private final ClockTransformer transformer;
    /** What to retransform whatever its scope. */
    final Set<String> again;
    /** What the transformer saw load since premain (its class files need not be read). */
    final Set<String> seen;

    private Takeover(ClockTransformer transformer, Set<String> again, Set<String> seen) {
        this.transformer = transformer;
        this.again = again;
        this.seen = seen;
    }

    ClockTransformer transformer() {
        return transformer;
    }

    /**
     * The transformer in force from now on, with {@code scope}.
     *
     * @param runtime the boot runtime's module (premain's or one defined now)
     */
    static Takeover at(Instrumentation inst, Module runtime, ClockTransformer.Scope scope, boolean quiet,
            RewriteListener listener) {
        ClockTransformer early = RuntimeAccess.transformer();
        if (early == null) {
            ClockTransformer t = EarlyStart.install(inst, runtime, scope, quiet, false);
            t.listener(listener);
            t.fallback(AsmFallback.INSTANCE);
            return new Takeover(t, Collections.emptySet(), Collections.emptySet());
        }
        ClockTransformer.Scope before = early.scope();
        if (before.jdk() == JdkScope.NONE && scope.jdk() != JdkScope.NONE) {
            // premain's install found java.base unable to link to the runtime: the JDK's classes stay as they are
            scope = new ClockTransformer.Scope(scope.filter(), JdkScope.NONE, scope.table());
        }
        early.listener(listener);
        early.fallback(AsmFallback.INSTANCE);
        early.rescope(scope);
        Set<String> seen = early.stopNoting();
        Set<String> again = new HashSet<>(early.takeAwaitingFallback());
        if (narrowed(before, scope)) {
            synchronized (early.changed()) {
                again.addAll(early.changed());
            }
        }
        return new Takeover(early, again, seen);
    }

    /**
     * An inactive verdict after premain's transformer rewrote classes: it rewrites nothing more, and every
     * class it changed gets its own bytes back (FastClock, never switched, served them the JDK's clocks
     * meanwhile). It stays installed, refusing classes named like the runtime's.
     *
     * @return the classes given back, or 0 where premain installed no transformer
     */
    static int undo(Instrumentation inst, AgentLog log) {
        ClockTransformer early = RuntimeAccess.transformer();
        if (early == null) {
            return 0;
        }
        ClockTransformer.Scope none = new ClockTransformer.Scope(new ClassFilter(Collections.emptyList(), Collections.emptyList()),
                JdkScope.NONE, ClockReplacements.of(Collections.emptyList()));
        early.rescope(none);
        early.stopNoting();
        early.takeAwaitingFallback();
        Set<String> changed;
        synchronized (early.changed()) {
            changed = new HashSet<>(early.changed());
        }
        if (changed.isEmpty()) {
            return 0;
        }
        Retransformer.Outcome restored = new Retransformer(inst, early).run(inst.getAllLoadedClasses(), false, null,
                Collections.emptySet(), changed);
        if (restored.failed > 0) {
            log.info("could not give " + restored.failed + " class(es) their own bytes back, first " + restored.firstFailure
                    + "; they call fastclock's runtime, which serves the system clocks");
        }
        return restored.retransformed;
    }

    /** Whether a class changed under {@code before} may be changed otherwise under {@code after}. */
    static boolean narrowed(ClockTransformer.Scope before, ClockTransformer.Scope after) {
        return before.jdk() != after.jdk() || !after.table().covers(before.table()) || !before.table().covers(after.table())
                || !before.filter().toString().equals(after.filter().toString());
    }
}
