package io.fastclock.it;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * A case whose arguments hold a {@link Jdk#missing missing} JDK is not run: it is reported as
 * skipped, with the reason, or as failed where -Dit.requireJdks names that JDK. Registered
 * for every test class through JUnit's extension auto-detection (src/test/resources:
 * junit-platform.properties and META-INF/services), so no parameterised test can forget it.
 */
public final class JdkAvailability implements InvocationInterceptor {
    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extensionContext) throws Throwable {
        for (Object argument : context.getArguments()) {
            if (argument instanceof Jdk && ((Jdk) argument).missing != null) {
                invocation.skip();
                ((Jdk) argument).requireAvailable();
            }
        }
        invocation.proceed();
    }
}
