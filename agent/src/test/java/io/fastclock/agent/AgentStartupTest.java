package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Backend;
import io.fastclock.decide.Choice;
import io.fastclock.decide.Decision;
import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockReplacements.Served;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.rewrite.JdkScope;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the verdict does with premain's transformer and FastClock. */
class AgentStartupTest {
    private static ClockTransformer.Scope scope(JdkScope jdk, Set<Served> served, String... excludes) {
        return new ClockTransformer.Scope(new ClassFilter(Collections.emptyList(), List.of(excludes)), jdk,
                ClockReplacements.serving(served));
    }

    private static Decision decision(Backend millis, Backend nanos) {
        return new Decision(new Choice(millis, "test", 1_000_000L), new Choice(nanos, "test", 0), Collections.emptyList(), "test");
    }

    /**
     * premain rewrites every clock the settings leave open; a verdict that serves fewer, or another JDK
     * scope or filter, must have what premain changed changed again (else a JDK class would keep a call
     * site the start line says it has not).
     */
    @Test
    void aScopeNarrowsWhereTheVerdictRewritesLessOrElsewhere() {
        Set<Served> all = EnumSet.allOf(Served.class);
        ClockTransformer.Scope early = scope(JdkScope.TIME, all);
        assertFalse(Takeover.narrowed(early, scope(JdkScope.TIME, all)), "the same scope");
        assertTrue(Takeover.narrowed(early, scope(JdkScope.TIME, EnumSet.of(Served.MILLIS))), "coarse millis only");
        assertTrue(Takeover.narrowed(early, scope(JdkScope.NONE, all)), "no JDK class");
        assertTrue(Takeover.narrowed(early, scope(JdkScope.TIME, all, "com.acme.")), "another filter");
    }

    /** FastClock switches exactly the clocks not left on the system clock; the epoch read only where handed over. */
    @Test
    void theSwitchCoversTheClocksOffTheSystemClock() {
        assertEquals(EnumSet.allOf(Served.class), AgentStartup.switched(decision(Backend.TSC, Backend.TSC), true));
        assertEquals(EnumSet.of(Served.MILLIS), AgentStartup.switched(decision(Backend.COARSE, Backend.SYSTEM), false));
        assertEquals(EnumSet.of(Served.NANOS), AgentStartup.switched(decision(Backend.SYSTEM, Backend.TSC), false));
    }
}
