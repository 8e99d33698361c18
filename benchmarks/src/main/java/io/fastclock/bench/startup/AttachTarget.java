package io.fastclock.bench.startup;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * The program {@link io.fastclock.bench.AttachCost} attaches fastclock to: loads CLASSES classes
 * gen.A0 .. gen.A(N-1) from JAR (their class files readable, as from any jar; a new loader every 50
 * classes), calls once each that has a method {@code t()}, starts THREADS daemon threads that read
 * both clocks without pause, prints "ready", and runs until its standard input closes; then prints
 * "active VALUE" (fastclock.active).
 *
 * <p>args: CLASSES THREADS JAR
 */
public final class AttachTarget {
    private static volatile long sink;

    private AttachTarget() {}

    public static void main(String[] args) throws Exception {
        int classes = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        URL jar = new File(args[2]).toURI().toURL();
        List<Method> clockCallers = new ArrayList<>();
        URLClassLoader loader = null;
        for (int i = 0; i < classes; i++) {
            if (i % 50 == 0) {
                loader = new URLClassLoader(new URL[] {jar}, AttachTarget.class.getClassLoader());
            }
            Class<?> c = Class.forName("gen.A" + i, true, loader);
            for (Method m : c.getMethods()) {
                if (m.getName().equals("t")) {
                    clockCallers.add(m);
                }
            }
        }
        long sum = 0;
        for (Method m : clockCallers) {
            sum += (Long) m.invoke(null);
        }
        sink = sum;
        for (int t = 0; t < threads; t++) {
            Thread reader = new Thread(AttachTarget::readForever, "reader-" + t);
            reader.setDaemon(true);
            reader.start();
        }
        System.out.println("ready " + clockCallers.size());
        System.out.flush();
        waitForEndOfInput(System.in);
        System.out.println("active " + System.getProperty("fastclock.active"));
    }

    private static void readForever() {
        long s = 0;
        while (true) {
            for (int i = 0; i < 1000; i++) {
                s += System.nanoTime() + System.currentTimeMillis();
            }
            sink = s;
        }
    }

    private static void waitForEndOfInput(InputStream in) throws IOException {
        byte[] buf = new byte[64];
        while (in.read(buf) >= 0) {
            // nothing is sent: the harness closes the stream when it is done
        }
    }
}
