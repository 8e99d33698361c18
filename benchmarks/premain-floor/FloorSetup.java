import java.lang.instrument.Instrumentation;
import java.lang.module.ModuleDescriptor;
import java.util.Collections;
import java.util.HashSet;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Unsafe;
import jdk.internal.module.Modules;

/** FloorAgent's set-up loader's one class: the runtime's module and classes, from runtime.blob. */
public class FloorSetup {
    static {
        byte[] b = FloorAgent.blob;
        int p = 0;
        int n = u2(b, p);
        p += 2;
        String[] names = new String[n];
        int[] offsets = new int[n];
        int[] lengths = new int[n];
        HashSet<String> packages = new HashSet<>();
        for (int k = 0; k < n; k++) {
            int nameLength = u2(b, p);
            p += 2;
            char[] c = new char[nameLength];
            for (int j = 0; j < nameLength; j++) {
                c[j] = (char) b[p + j];
            }
            p += nameLength;
            names[k] = new String(c);
            lengths[k] = (u2(b, p) << 16) | u2(b, p + 2);
            p += 4;
            offsets[k] = p;
            p += lengths[k];
            packages.add(names[k].substring(0, names[k].lastIndexOf('.')));
        }
        ModuleDescriptor descriptor = SharedSecrets.getJavaLangModuleAccess().newModuleBuilder("io.fastclock.runtime", false,
                Collections.emptySet()).requires(Collections.singleton(ModuleDescriptor.Requires.Modifier.MANDATED), "java.base")
                .packages(packages).build();
        Module runtime = Modules.defineModule(null, descriptor, null);
        Module javaBase = Object.class.getModule();
        Modules.addReads(runtime, javaBase);
        Modules.addReads(runtime, Instrumentation.class.getModule());
        Modules.addExports(javaBase, "jdk.internal.misc", runtime);
        Modules.addReads(javaBase, runtime);
        Modules.addExports(runtime, "io.fastclock.runtime");
        for (int k = 0; k < n; k++) {
            Unsafe.getUnsafe().defineClass(names[k], b, offsets[k], lengths[k], null, null);
        }
    }

    private static int u2(byte[] b, int p) {
        return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
    }
}
