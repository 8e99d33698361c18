package io.fastclock.doctor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code -Dfastclock.*} properties this JVM was launched with, for the doctor in a JVM where
 * fastclock runs as an agent too (JAVA_TOOL_OPTIONS in a container): that agent mirrors its state in
 * system properties, and two of its names are settings' ({@code fastclock.millis},
 * {@code fastclock.nanos}), so the doctor reads its settings from the launch instead: the JVM's
 * options variables, then its command line up to the main class or jar. A value holding spaces in an
 * options variable is not read as one.
 */
public final class LaunchProperties {
    static final String PREFIX = "-Dfastclock.";
    private static final String[] OPTION_VARIABLES = {"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"};
    /** The launcher's options whose value is the next argument. */
    private static final List<String> TAKE_A_VALUE = Arrays.asList("-cp", "-classpath", "--class-path", "-p", "--module-path",
            "--upgrade-module-path", "--add-modules", "--limit-modules", "--add-reads", "--add-exports", "--add-opens",
            "--patch-module", "--enable-native-access");

    private LaunchProperties() {}

    /**
     * The system properties the doctor's settings come from: the launch's where an agent of fastclock's
     * published its state in this JVM's system properties, else all of them.
     */
    public static Map<String, String> forTheDoctor() {
        if (System.getProperty("fastclock.started") != null) {
            return of(System.getenv(), ProcessHandle.current().info().arguments().orElse(new String[0]));
        }
        Map<String, String> all = new LinkedHashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            all.put(name, System.getProperty(name));
        }
        return all;
    }

    /** @param arguments the launcher's arguments after the executable */
    static Map<String, String> of(Map<String, String> environment, String[] arguments) {
        List<String> words = new ArrayList<>();
        for (String variable : OPTION_VARIABLES) {
            String v = environment.get(variable);
            if (v != null) {
                words.addAll(Arrays.asList(v.trim().split("\\s+")));
            }
        }
        for (int i = 0; i < arguments.length; i++) {
            String a = arguments[i];
            if (a.equals("-jar") || a.equals("-m") || a.equals("--module") || !a.startsWith("-")) {
                break; // what follows is the program's
            }
            if (TAKE_A_VALUE.contains(a)) {
                i++;
            } else {
                words.add(a);
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String w : words) {
            if (w.startsWith(PREFIX)) {
                int eq = w.indexOf('=');
                out.put(w.substring(2, eq < 0 ? w.length() : eq), eq < 0 ? "" : w.substring(eq + 1));
            }
        }
        return out;
    }
}
