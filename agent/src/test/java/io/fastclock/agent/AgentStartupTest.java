package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Settings;
import io.fastclock.config.Backend;
import io.fastclock.decide.Choice;
import io.fastclock.decide.Decision;
import io.fastclock.decide.JavaTimeCoverage;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.config.JdkScope;
import io.fastclock.rewrite.RewriteStats;
import io.fastclock.rewrite.RuntimeShadows;
import java.util.Collections;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class AgentStartupTest {
    private static JavaTimeCoverage tscCoverage(Settings settings) {
        Decision d = new Decision(new Choice(Backend.TSC, "test", 1_000_000L), new Choice(Backend.TSC, "test", 0),
                Collections.emptyList(), "test");
        return JavaTimeCoverage.of(d, settings, 4_000_000L);
    }

    private static ClockTransformer transformer(Predicate<Module> readsRuntime) {
        Settings settings = Settings.parse("jdk=time,log=quiet", (Map<String, String>) null);
        JavaTimeCoverage coverage = tscCoverage(settings);
        assertEquals(JdkScope.TIME, coverage.scope());
        return AgentStartup.transformer(settings, coverage, new RewriteStats(), new RewriteStats(), null, readsRuntime,
                RuntimeShadows.none(), new AgentLog(settings.log()));
    }

    /**
     * Where java.base cannot read the runtime the start line says jdk=none: the transformer must then
     * change no JDK class either (it used to be built with jdk=time before the scope was narrowed).
     */
    @Test
    void theTransformerIsBuiltWithTheJdkScopeInForce() {
        Module javaBase = Object.class.getModule();
        ClockTransformer narrowed = transformer(m -> m != javaBase);
        assertEquals(JdkScope.NONE, narrowed.jdkScope());
        assertFalse(narrowed.inScope("java/util/Date"));
        assertFalse(narrowed.inScope("java/time/Clock"));

        ClockTransformer kept = transformer(m -> true);
        assertEquals(JdkScope.TIME, kept.jdkScope());
        assertTrue(kept.inScope("java/util/Date"));
    }
}
