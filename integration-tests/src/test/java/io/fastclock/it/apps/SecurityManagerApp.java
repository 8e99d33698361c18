package io.fastclock.it.apps;

import java.security.AllPermission;
import java.security.CodeSource;
import java.security.PermissionCollection;
import java.security.Permissions;
import java.security.Policy;
import java.security.ProtectionDomain;

/**
 * JDK 17 only (-Djava.security.manager=allow): installs a restrictive policy (AllPermission for the
 * test classes' own code source, nothing for any other code, the agent's jar included) and a
 * SecurityManager after the agent has started, then keeps using the clocks for a while, so the
 * agent's background work (re-anchoring, re-checking sysfs) runs under it.
 *
 * args: seconds [restrictive|permissive]
 */
@SuppressWarnings("removal")
public final class SecurityManagerApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        CodeSource mine = SecurityManagerApp.class.getProtectionDomain().getCodeSource();
        boolean permissive = args.length > 1 && args[1].equals("permissive");
        if (permissive) {
            Policy.setPolicy(new Policy() {
                @Override
                public boolean implies(ProtectionDomain domain, java.security.Permission permission) {
                    return true;
                }
            });
        } else Policy.setPolicy(new Policy() {
            @Override
            public PermissionCollection getPermissions(CodeSource cs) {
                Permissions p = new Permissions();
                if (cs != null && mine != null && mine.getLocation().equals(cs.getLocation())) {
                    p.add(new AllPermission());
                }
                return p;
            }

            @Override
            public boolean implies(ProtectionDomain domain, java.security.Permission permission) {
                CodeSource cs = domain.getCodeSource();
                return cs == null && domain.getClassLoader() == null // the JDK's and the boot-loader runtime's
                        || cs != null && mine != null && mine.getLocation().equals(cs.getLocation())
                        || domain.getClassLoader() != null && domain.getClassLoader() != ClassLoader.getSystemClassLoader()
                                && cs == null;
            }
        });
        System.setSecurityManager(new SecurityManager());
        System.out.println("securityManager=" + (System.getSecurityManager() != null));
        long end = ReferenceClocks.nanos() + (long) (seconds * 1e9);
        long previous = Long.MIN_VALUE;
        long backwards = 0;
        long worst = 0;
        while (ReferenceClocks.nanos() < end) {
            long before = ReferenceClocks.nanos();
            long fast = System.nanoTime();
            long after = ReferenceClocks.nanos();
            worst = Math.max(worst, fast < before ? before - fast : (fast > after ? fast - after : 0));
            if (fast < previous) {
                backwards++;
            }
            previous = fast;
        }
        long millisBefore = ReferenceClocks.millis();
        long millis = System.currentTimeMillis();
        String millisOff = Bracket.millis("millisPlausible", millisBefore, millis, 1000, 1000);
        System.out.println("hello=ok");
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("millisPlausible=" + (millisOff == null ? "true" : "false: " + millisOff));
        System.out.println("backwards=" + backwards);
        System.out.println("nanos.worstDeviationNs=" + worst);
    }
}
