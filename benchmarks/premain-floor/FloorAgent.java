import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The floor under fastclock's premain where it sets the boot runtime up (benchmarks/premain-time.py --floor):
 * only what that design cannot do without. The caller check, java.base's exports to a loader of its
 * own (redefineModule), the runtime's module and its classes in the boot loader (FloorSetup), a
 * transformer that changes nothing, and the thread that would start the agent's module. No settings,
 * no checks of the jar, no helpers. Its argument: the directory holding runtime.blob and FloorSetup.class. JDK 12+.
 */
public class FloorAgent extends ClassLoader {
    public static byte[] blob;

    FloorAgent() {
        super("floor-setup", ClassLoader.getSystemClassLoader());
    }

    public static void premain(String dir, Instrumentation inst) throws Exception {
        Class<?> caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass();
        if (caller.getModule() != Instrumentation.class.getModule()) {
            throw new IllegalStateException("called by " + caller);
        }
        blob = read(new File(dir, "runtime.blob"));
        byte[] setup = read(new File(dir, "FloorSetup.class"));
        FloorAgent loader = new FloorAgent();
        Map<String, Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.misc", Collections.singleton(loader.getUnnamedModule()));
        exports.put("jdk.internal.module", Collections.singleton(loader.getUnnamedModule()));
        exports.put("jdk.internal.access", Collections.singleton(loader.getUnnamedModule()));
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(), exports, Collections.emptyMap(),
                Collections.emptySet(), Collections.emptyMap());
        loader.defineClass("FloorSetup", setup, 0, setup.length);
        Class.forName("FloorSetup", true, loader);
        inst.addTransformer(new ClassFileTransformer() {}, true);
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {}
        }, "floor-start");
        t.setDaemon(true);
        t.start();
    }

    private static byte[] read(File file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file, "r")) {
            byte[] b = new byte[(int) f.length()];
            f.readFully(b);
            return b;
        }
    }
}
