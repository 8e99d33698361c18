package io.fastclock.observe;

import java.util.function.Function;
import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;

/**
 * What the agent tells JDK Flight Recorder and JMX. The agent calls these static methods; none of
 * them throws, and none names a JFR or JMX type, so this class loads on a runtime without the
 * jdk.jfr or java.management module. Each side is used only where its module is in the boot
 * layer, and turns itself off, with one line, if it fails.
 */
public final class Telemetry {
    private static volatile boolean jfr;
    private static volatile FastClockStatus mbean;
    private static volatile Settings.Log log = Settings.Log.INFO;

    private Telemetry() {}

    static boolean moduleInBootLayer(String name) {
        return ModuleLayer.boot().findModule(name).isPresent();
    }

    /** The agent's live state (set at start), read by the MBean and the activation event; null before. */
    private static volatile Function<String, String> live;

    /** A value of the agent's live state by its published name; null before the start or when unset. */
    static String live(String name) {
        Function<String, String> state = live;
        return state == null ? null : state.apply(name);
    }

    /**
     * The agent has decided (premain or agentmain), whatever it decided. Emits fastclock.Activation
     * where a recording runs and registers the MBean as the {@code jmx} setting asks.
     */
    public static void started(Settings settings, ActivationFacts facts, Function<String, String> liveState) {
        live = liveState;
        log = settings.log();
        boolean jfrPending = false;
        if (moduleInBootLayer("jdk.jfr")) {
            try {
                jfr = true;
                jfrPending = !JfrEvents.activated(facts);
            } catch (Throwable t) {
                jfrFailed(t);
            }
        }
        FastClockStatus pendingBean = null;
        if (settings.jmx() != Settings.Jmx.OFF) {
            pendingBean = startJmx(settings.jmx(), facts);
        }
        if (jfrPending || pendingBean != null) {
            ObserveWatcher.start(jfrPending, pendingBean);
        }
    }

    /** @return the MBean still to register once the platform server exists, or null */
    private static FastClockStatus startJmx(Settings.Jmx mode, ActivationFacts facts) {
        if (!moduleInBootLayer("java.management")) {
            if (mode == Settings.Jmx.ON) {
                warn("jmx=on: no MBean, the java.management module is not in this runtime");
            }
            return null;
        }
        try {
            FastClockStatus bean = new FastClockStatus(facts);
            mbean = bean;
            if (mode == Settings.Jmx.ON) {
                JmxRegistration.registerNow(bean);
                return null;
            }
            return bean;
        } catch (Throwable t) {
            jmxFailed(t);
            return null;
        }
    }

    static void jmxFailed(Throwable t) {
        warn("the MBean " + JmxRegistration.OBJECT_NAME + " is not registered: " + t);
    }

    /** A TSC clock serves a clock: its health goes to fastclock.TscHealth and the MBean. */
    public static void tscClock(TscFigures figures) {
        FastClockStatus bean = mbean;
        if (bean != null) {
            bean.tscClock(figures);
        }
        if (jfr) {
            try {
                JfrEvents.tscClock(figures);
            } catch (Throwable t) {
                jfrFailed(t);
            }
        }
    }

    /** From the TSC clock's fallback (once): fastclock.Fallback. */
    static void fellBack(String reason, long errorNanos, TscFigures figures) {
        if (jfr) {
            try {
                JfrEvents.fellBack(reason, errorNanos, figures);
            } catch (Throwable t) {
                jfrFailed(t);
            }
        }
    }

    /**
     * Loaded classes were retransformed (at start, on attach or on detach): fastclock.Retransform.
     *
     * @param classes   classes changed
     * @param callSites clock call sites replaced in them (0 when restoring)
     * @param nanos     how long it took
     */
    public static void retransformed(int classes, int callSites, long nanos) {
        if (jfr) {
            try {
                JfrEvents.retransformed(classes, callSites, nanos);
            } catch (Throwable t) {
                jfrFailed(t);
            }
        }
    }

    static boolean jfrOn() {
        return jfr;
    }

    static void jfrFailed(Throwable t) {
        jfr = false;
        warn("JFR events off: " + t);
    }

    private static void warn(String message) {
        if (log != Settings.Log.QUIET) {
            System.err.println(OneLine.prefixed(OneLine.escape(message)));
        }
    }
}
