package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The runtime module's descriptor, built without the public builder's checks where java.base exports
 * jdk.internal.access (premain's set-up loader, JDK 12+), is the one the public builder makes. The
 * build's surefire runs exports that package to this test's module, as RuntimeSetup does.
 */
class BootClassDefinerTest {
    @Test
    void theUncheckedDescriptorIsThePublicBuilders() {
        assertTrue(Object.class.getModule().isExported("jdk.internal.access", BootClassDefiner.class.getModule()),
                "surefire's argLine exports jdk.internal.access to the unnamed module");
        Set<String> packages = new HashSet<>(Arrays.asList(BootRuntime.INNER));
        packages.add(BootRuntime.API);
        ModuleDescriptor unchecked = BootClassDefiner.descriptor(BootRuntime.MODULE, packages);
        ModuleDescriptor checked = ModuleDescriptor.newModule(BootRuntime.MODULE).packages(packages).build();
        assertEquals(checked, unchecked);
        assertEquals(checked.toString(), unchecked.toString());
        assertEquals(checked.requires(), unchecked.requires());
        assertEquals(checked.packages(), unchecked.packages());
        assertEquals(checked.modifiers(), unchecked.modifiers());
        assertEquals(checked.hashCode(), unchecked.hashCode());
        assertFalse(unchecked.isOpen());
        assertFalse(unchecked.isAutomatic());
    }
}
