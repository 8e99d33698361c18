package io.fastclock.config;

import java.lang.module.ModuleDescriptor;

/**
 * fastclock's version, as the build wrote it into the jar's manifest ({@code Implementation-Version}):
 * the entry gives it to the agent's module as that module's version, since the module's classes are
 * defined from the jar's resources and carry no package manifest of their own.
 */
public final class BuildVersion {
    /** What is shown where no version is known (classes run outside fastclock.jar, as in unit tests). */
    public static final String UNKNOWN = "unknown";

    private BuildVersion() {}

    /** The version of the module holding this class, else its package's manifest version, else {@value #UNKNOWN}. */
    public static String get() {
        ModuleDescriptor descriptor = BuildVersion.class.getModule().getDescriptor();
        if (descriptor != null && descriptor.rawVersion().isPresent()) {
            return descriptor.rawVersion().get();
        }
        Package p = BuildVersion.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v == null ? UNKNOWN : v;
    }
}
