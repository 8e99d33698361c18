package io.fastclock.entry;

import java.util.Map;

/**
 * The one setting read before the agent's module exists: {@code start=background} (agent argument,
 * then {@code -Dfastclock.start}, then {@code FASTCLOCK_START}, the precedence of every setting),
 * because deciding in the background means not spending premain's time defining that module.
 * Anything but {@code background} (a bad value included) leaves premain as it is; the module's
 * io.fastclock.config.Settings reads the same key again and is the one that rejects a bad value.
 */
final class StartSetting {
    static final String KEY = "start";
    static final String BACKGROUND = "background";

    private StartSetting() {}

    static boolean background(String agentArgs, Map<?, ?> systemProperties, Map<String, String> environment) {
        String value = fromAgentArgs(agentArgs);
        if (value == null) {
            Object p = systemProperties.get("fastclock." + KEY);
            value = p instanceof String ? (String) p : null; // blank too: Settings rejects it, and the start waits
        }
        if (value == null) {
            String e = environment.get("FASTCLOCK_START");
            value = e != null && !e.trim().isEmpty() ? e : null;
        }
        return value != null && value.trim().equalsIgnoreCase(BACKGROUND);
    }

    /** The value of start= in key=value pairs separated by ','; null when absent. */
    private static String fromAgentArgs(String agentArgs) {
        if (agentArgs == null) {
            return null;
        }
        for (String pair : agentArgs.split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).trim().equals(KEY)) {
                return pair.substring(eq + 1);
            }
        }
        return null;
    }
}
