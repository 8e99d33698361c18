package io.fastclock.rewrite;

/**
 * The packages of fastclock's boot runtime (the module {@value #MODULE} in the bootstrap class loader):
 * the clocks rewritten call sites link to ({@code io.fastclock.runtime}), this package, and the
 * switch ({@code io.fastclock.boot}). Their classes are defined once, by fastclock, before its
 * transformer exists; a class of these names anywhere else is someone else's.
 */
public final class RuntimePackages {
    public static final String MODULE = "io.fastclock.runtime";
    /** Internal-name prefixes, one per package. */
    static final String[] PREFIXES = {"io/fastclock/runtime/", "io/fastclock/rewrite/", "io/fastclock/boot/"};
    /** The same, as package names. */
    public static final String[] PACKAGES = {"io.fastclock.runtime", "io.fastclock.rewrite", "io.fastclock.boot"};

    private RuntimePackages() {}

    /** Whether this internal name ({@code io/fastclock/runtime/FastClock}) is in one of the runtime's packages. */
    public static boolean contains(String internalName) {
        for (String prefix : PREFIXES) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
