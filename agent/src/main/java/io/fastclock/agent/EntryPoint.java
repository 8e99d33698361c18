package io.fastclock.agent;

/** How the JVM entered fastclock.jar: -javaagent, an attach, or {@code java -jar fastclock.jar}. */
public enum EntryPoint {
    PREMAIN,
    AGENTMAIN,
    MAIN;

    /** The method's name, as the entry hands it over and the agent publishes it ({@code fastclock.started}). */
    public String methodName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** @return the entry point of that method name, or null */
    static EntryPoint ofMethodName(Object name) {
        for (EntryPoint e : values()) {
            if (e.methodName().equals(name)) {
                return e;
            }
        }
        return null;
    }
}
