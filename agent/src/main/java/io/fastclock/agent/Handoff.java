package io.fastclock.agent;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the entry (io.fastclock.entry, on the class path) hands the agent's module, typed as soon as it
 * crosses. The two share no class but the JDK's, so it crosses as an {@code Object[]} of one layout,
 * written by io.fastclock.entry.PrivateModule alone and read here alone (HandoffTest holds the two
 * together): the entry point's method name; the agent arguments, or main's command line; the
 * Instrumentation (none for main); the fastclock.* system properties premain saw, where the start
 * runs on start=background's thread, else null; the jar as the entry read it, before any application
 * code ran: every resource the module reads comes from there.
 */
public final class Handoff {
    static final int ENTRY_POINT = 0;
    static final int ARGUMENTS = 1;
    static final int INSTRUMENTATION = 2;
    static final int PROPERTIES_AT_PREMAIN = 3;
    static final int JAR = 4;
    static final int LENGTH = 5;

    public final EntryPoint entryPoint;
    /** premain's or agentmain's argument (may be null). */
    public final String agentArgs;
    /** main's command line; null for the agent's entry points. */
    public final String[] commandLine;
    public final Instrumentation inst;
    /**
     * Null but on start=background's thread: then the fastclock.* system properties as premain saw them,
     * which the settings come from, not from what the application may have set since.
     */
    public final Map<String, String> propertiesAtPremain;
    /** An entry of the jar (a class by its resource name), or null where the jar has none. */
    public final Function<String, byte[]> jar;

    private Handoff(EntryPoint entryPoint, String agentArgs, String[] commandLine, Instrumentation inst,
            Map<String, String> propertiesAtPremain, Function<String, byte[]> jar) {
        this.entryPoint = entryPoint;
        this.agentArgs = agentArgs;
        this.commandLine = commandLine;
        this.inst = inst;
        this.propertiesAtPremain = propertiesAtPremain;
        this.jar = jar;
    }

    /** premain's work on start=background's thread, while main runs. */
    public boolean background() {
        return propertiesAtPremain != null;
    }

    /** @return the hand-off, or null where {@code given} is not of its layout */
    public static Handoff read(Object[] given) {
        if (given == null || given.length != LENGTH) {
            return null;
        }
        EntryPoint entryPoint = EntryPoint.ofMethodName(given[ENTRY_POINT]);
        Object arguments = given[ARGUMENTS];
        Object inst = given[INSTRUMENTATION];
        Object properties = given[PROPERTIES_AT_PREMAIN];
        if (!(given[JAR] instanceof Function)) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Function<String, byte[]> jar = (Function<String, byte[]>) given[JAR];
        if (entryPoint == EntryPoint.MAIN) {
            return arguments instanceof String[] && inst == null && properties == null
                    ? new Handoff(entryPoint, null, ((String[]) arguments).clone(), null, null, jar) : null;
        }
        if (entryPoint == null || !(arguments == null || arguments instanceof String) || !(inst instanceof Instrumentation)
                || !(properties == null || entryPoint == EntryPoint.PREMAIN && properties instanceof Map)) {
            return null;
        }
        return new Handoff(entryPoint, (String) arguments, null, (Instrumentation) inst,
                properties == null ? null : stringsOnly((Map<?, ?>) properties), jar);
    }

    /** A copy with only String keys and values (the map crossed from the class path). */
    private static Map<String, String> stringsOnly(Map<?, ?> given) {
        Map<String, String> copy = new HashMap<>();
        for (Map.Entry<?, ?> e : given.entrySet()) {
            if (e.getKey() instanceof String && e.getValue() instanceof String) {
                copy.put((String) e.getKey(), (String) e.getValue());
            }
        }
        return Collections.unmodifiableMap(copy);
    }
}
