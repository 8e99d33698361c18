package io.fastclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fastclock.clock.CoarseEpoch;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.clock.LagCheckedMillis;
import io.fastclock.clock.SystemMillis;
import io.fastclock.clock.SystemNanos;
import io.fastclock.config.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** A backend's name is Backend's: the settings accept it and the clocks report it. */
class BackendTest {
    @Test
    void theSettingsSpellEachBackendAsBackendDoes() {
        List<String> millis = new ArrayList<>();
        for (Settings.Millis m : Settings.Millis.values()) {
            millis.add(m.settingName());
        }
        List<String> nanos = new ArrayList<>();
        for (Settings.Nanos n : Settings.Nanos.values()) {
            nanos.add(n.settingName());
        }
        for (Backend b : Backend.values()) {
            Settings s = Settings.parse("millis=" + b.settingName(), (Map<String, String>) null);
            assertEquals(b.settingName(), s.millis().settingName());
            if (b != Backend.JNA_COARSE) {
                assertEquals(b.settingName(), Settings.parse("nanos=" + b.settingName(), (Map<String, String>) null)
                        .nanos().settingName());
            }
        }
        assertEquals(Arrays.asList("auto", "coarse", "tsc", "jna-coarse", "system"), millis);
        assertEquals(Arrays.asList("auto", "tsc", "system", "coarse"), nanos);
    }

    @Test
    void theClocksReportTheirBackendsName() {
        assertEquals(Backend.SYSTEM.settingName(), new SystemMillis().name());
        assertEquals(Backend.SYSTEM.settingName(), new SystemNanos().name());
        assertEquals(Backend.COARSE.settingName(), new CoarseMillis().name());
        assertEquals(Backend.COARSE.settingName(), new CoarseNanos().name());
        assertEquals(Backend.COARSE.settingName(), new CoarseEpoch(null).name());
        LagCheckedMillis lagChecked = new LagCheckedMillis(new CoarseMillis());
        assertEquals(Backend.COARSE.settingName(), lagChecked.name());
        lagChecked.moveToSystemClock();
        assertEquals(Backend.SYSTEM.settingName(), lagChecked.name());
    }

    /**
     * The boot runtime's SystemClocks and the JNA adapter cannot see BackendNames (their loaders see
     * the runtime, and JNA, only), so they write their name out: it must be BackendNames' spelling.
     */
    @Test
    void theClassesThatCannotSeeBackendNamesSpellItTheSame() throws IOException {
        assertEquals(Arrays.asList(BackendNames.SYSTEM), nameReturned("io/fastclock/runtime/SystemClocks$1"));
        assertEquals(Arrays.asList(BackendNames.SYSTEM), nameReturned("io/fastclock/runtime/SystemClocks$2"));
        assertEquals(Arrays.asList(BackendNames.JNA_COARSE), nameReturned("io/fastclock/jna/JnaCoarseMillis"));
    }

    /** The strings name() loads, from the class file (the JNA adapter cannot be loaded here: no JNA). */
    private static List<Object> nameReturned(String internalName) throws IOException {
        byte[] bytes;
        try (InputStream in = BackendTest.class.getResourceAsStream("/" + internalName + ".class")) {
            bytes = in.readAllBytes();
        }
        List<Object> constants = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                if (!name.equals("name") || !descriptor.equals("()Ljava/lang/String;")) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitLdcInsn(Object value) {
                        constants.add(value);
                    }
                };
            }
        }, 0);
        return constants;
    }
}
