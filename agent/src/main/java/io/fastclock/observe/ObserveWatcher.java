package io.fastclock.observe;

import java.util.concurrent.locks.LockSupport;
import javax.management.MBeanServer;

/**
 * A daemon thread, {@value #NAME}, that waits for what fastclock must not create itself: JFR
 * starting (a {@code jcmd JFR.start} after start-up) and the platform MBean server appearing. It
 * looks every {@value #EARLY_PERIOD_NANOS} ns for its first {@value #EARLY_LOOKS} looks, then once a
 * second (a field read and a synchronized list copy, well under a microsecond each once loaded),
 * and ends when nothing is left to wait for. The early looks are for short programs, which start a
 * recording or a server soon after the verdict and may end soon after: what is committed after the
 * recording's last dump is lost. A FlightRecorderListener would be told at once, but registering
 * one loads JFR's classes in every JVM (27 ms here, JDK 17), recording or not. An interrupt is not addressed to it (an
 * application that interrupts every thread at shutdown, say): the flag is cleared and it waits on;
 * left set, parkNanos would return at once and the thread would spin.
 */
final class ObserveWatcher implements Runnable {
    static final String NAME = "fastclock-observe";
    static final long PERIOD_NANOS = 1_000_000_000L;
    static final long EARLY_PERIOD_NANOS = 10_000_000L;
    static final int EARLY_LOOKS = 1000;

    private boolean jfrPending;
    private FastClockStatus pendingBean;

    private ObserveWatcher(boolean jfrPending, FastClockStatus pendingBean) {
        this.jfrPending = jfrPending;
        this.pendingBean = pendingBean;
    }

    static void start(boolean jfrPending, FastClockStatus pendingBean) {
        Thread thread = new Thread(new ObserveWatcher(jfrPending, pendingBean), NAME);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        int looks = 0;
        while (true) {
            if (jfrPending) {
                jfrPending = jfrStillPending();
            }
            if (pendingBean != null) {
                pendingBean = beanStillPending(pendingBean);
            }
            if (!jfrPending && pendingBean == null) {
                return;
            }
            LockSupport.parkNanos(++looks <= EARLY_LOOKS ? EARLY_PERIOD_NANOS : PERIOD_NANOS);
            Thread.interrupted();
        }
    }

    private static boolean jfrStillPending() {
        try {
            return Telemetry.jfrOn() && !JfrEvents.recorderUp();
        } catch (Throwable t) {
            Telemetry.jfrFailed(t);
            return false;
        }
    }

    private static FastClockStatus beanStillPending(FastClockStatus bean) {
        try {
            MBeanServer server = JmxRegistration.existingPlatformServer();
            if (server == null) {
                return bean;
            }
            JmxRegistration.register(server, bean);
            return null;
        } catch (SecurityException e) {
            // jmx=auto under a SecurityManager that forbids it: an optional extra nobody asked for
            // by name, so it goes quietly (jmx=on says so at start-up).
            return null;
        } catch (Throwable t) {
            Telemetry.jmxFailed(t);
            return null;
        }
    }
}
