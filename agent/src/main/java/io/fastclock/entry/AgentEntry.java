package io.fastclock.entry;

import java.lang.instrument.Instrumentation;

/**
 * The only class of fastclock.jar that the application's class loader can load (Premain-Class,
 * Agent-Class and Main-Class). It holds nothing: no field, no Instrumentation. It checks that the
 * JVM called it, then hands over to the agent's own module, which {@link PrivateModule} defines from
 * the jar's {@code .classdata} resources in a layer and loader of its own, whose packages are
 * neither exported nor opened to any module the application can load classes into.
 */
public final class AgentEntry {
    private AgentEntry() {}

    public static void premain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker != null) {
            agent("premain", args, inst, walker.getCallerClass());
        }
    }

    public static void agentmain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker != null) {
            agent("agentmain", args, inst, walker.getCallerClass());
        }
    }

    /** {@code java -jar fastclock.jar}: the doctor and the commands. */
    public static void main(String[] args) {
        String refusal = CallerCheck.refusalForMain();
        if (refusal != null) {
            System.err.println("fastclock: main refused: " + oneLine(refusal));
            return;
        }
        try {
            PrivateModule.define(true).launch(new Object[] {"main", args});
        } catch (Exception e) {
            System.err.println("fastclock: cannot start: " + oneLine(String.valueOf(e)));
            System.exit(1);
        }
    }

    /**
     * A walker that gives classes, or null (the start line saying why) where a SecurityManager
     * denies one to this jar: the agent then stays off, as it does for any failure to start.
     */
    private static StackWalker classRetainingWalker() {
        try {
            return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
        } catch (SecurityException e) {
            notStarted(e);
            return null;
        }
    }

    /**
     * @param caller who called premain or agentmain, asked in their own frames (getCallerClass skips the
     *     reflection frames between; cheaper at start-up than walking the stack, whose first use spins a
     *     lambda). The walker is not kept: one that retains classes is a right under a SecurityManager.
     */
    private static void agent(String how, String args, Instrumentation inst, Class<?> caller) {
        try {
            String refusal = CallerCheck.refusalForAgent(inst, caller);
            if (refusal != null) {
                System.err.println("fastclock: " + how + " refused: " + oneLine(refusal));
                return;
            }
            if (how.equals("premain") && StartSetting.background(args, System.getProperties(), System.getenv())) {
                BackgroundStart.begin(args, inst, BackgroundStart.settingsProperties(System.getProperties()));
                return;
            }
            PrivateModule.define(false).launch(new Object[] {how, args, inst});
        } catch (Throwable t) {
            notStarted(t);
        }
    }

    static void notStarted(Throwable t) {
        System.err.println("fastclock: agent not started, the application runs on the system clocks: "
                + oneLine(String.valueOf(t)));
    }

    /**
     * The one-line rule for what this class prints (a caller's or an Instrumentation's class name,
     * which the application chooses and a class file may spell with a newline; an exception's
     * message, which may hold the jar's path): control characters, DEL, the C1 controls and U+2028/9
     * as {@code \\uXXXX}. The same rule as the agent module's io.fastclock.config.OneLine, which this
     * class cannot use (that module exports nothing to the class path).
     */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029') {
                String hex = Integer.toHexString(c);
                sb.append("\\u").append("0000", hex.length(), 4).append(hex);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
