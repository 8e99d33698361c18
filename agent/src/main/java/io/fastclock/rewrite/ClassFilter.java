package io.fastclock.rewrite;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Decides which classes may be rewritten, by internal-name prefix.
 *
 * <p>Prefixes are given in dotted form: a package ({@code com.foo.}) or a class name prefix
 * ({@code com.foo.Bar}, which also matches {@code com.foo.Bar$Inner} and {@code com.foo.BarBaz}).
 * Always excluded, whatever the settings: the agent itself and its relocated dependencies
 * ({@code io.fastclock.}), and the JDK ({@code java.}, {@code jdk.}, {@code sun.}, {@code com.sun.}).
 * When include prefixes are given, only classes matching one of them are rewritten; exclude prefixes
 * add to the built-in ones and win over includes.
 */
public final class ClassFilter {
    /**
     * Internal-name prefixes that are never rewritten: the agent's own packages (not all of
     * io/fastclock/: the demo and the test applications are ordinary applications) and the JDK's.
     */
    public static final List<String> BUILT_IN_EXCLUDES = Collections.unmodifiableList(List.of(
            "io/fastclock/runtime/", "io/fastclock/clock/", "io/fastclock/entry/", "io/fastclock/agent/", "io/fastclock/config/", "io/fastclock/probe/",
            "io/fastclock/decide/", "io/fastclock/rewrite/", "io/fastclock/measure/", "io/fastclock/nativelib/", "io/fastclock/doctor/",
            "io/fastclock/jna/", "io/fastclock/observe/", "io/fastclock/attach/", "io/fastclock/commands/",
            "io/fastclock/boot/", "io/fastclock/asm/", "io/fastclock/shaded/", "java/", "jdk/", "sun/", "com/sun/"));

    private final String[] includes;
    private final String[] excludes;
    private final String[] userExcludes;

    /**
     * @param includes dotted prefixes to narrow to (empty: everything not excluded)
     * @param excludes dotted prefixes to exclude in addition to {@link #BUILT_IN_EXCLUDES}
     * @throws IllegalArgumentException naming the bad prefix when one is empty or has slashes
     */
    public ClassFilter(Collection<String> includes, Collection<String> excludes) {
        this.includes = toInternal(includes, "include");
        List<String> ex = new ArrayList<>(BUILT_IN_EXCLUDES);
        this.userExcludes = toInternal(excludes, "exclude");
        Collections.addAll(ex, userExcludes);
        this.excludes = ex.toArray(new String[0]);
    }

    private static String[] toInternal(Collection<String> prefixes, String what) {
        String[] out = new String[prefixes.size()];
        int i = 0;
        for (String p : prefixes) {
            String t = p == null ? "" : p.trim();
            if (t.isEmpty() || t.indexOf('/') >= 0) {
                throw new IllegalArgumentException(
                        what + " prefix '" + p + "': expected a package or class prefix in dotted form,"
                                + " e.g. com.example. or com.example.Service");
            }
            out[i++] = t.replace('.', '/');
        }
        return out;
    }

    /** Whether the class with this internal name ({@code com/foo/Bar}) may be rewritten. */
    public boolean test(String internalName) {
        if (internalName == null) {
            return false;
        }
        for (String e : excludes) {
            if (internalName.startsWith(e)) {
                return false;
            }
        }
        if (includes.length == 0) {
            return true;
        }
        for (String in : includes) {
            if (internalName.startsWith(in)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the user's exclude prefixes name this class (internal name). Decides for the JDK's
     * classes, which the built-in exclusions keep away from {@link #test} and the {@code jdk}
     * setting brings back.
     */
    public boolean excludedByUser(String internalName) {
        for (String e : userExcludes) {
            if (internalName.startsWith(e)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "ClassFilter{includes=" + List.of(includes) + ", excludes=" + List.of(excludes) + "}";
    }
}
