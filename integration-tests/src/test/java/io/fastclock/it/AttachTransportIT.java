package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fastclock.it.apps.AttachTargetApp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands' {@code --transport}, from a JDK that has jdk.attach (so that nothing but the option
 * makes them take another way): status, attach and detach reach the same JVM over the transports
 * named, attach says which, and a transport that is not one is refused before anything is sent.
 * list is left to CommandsTest (it would reach every JVM of this user on the machine). AttachIT
 * reaches the other transports the way they are met, from runtimes without jdk.attach.
 */
class AttachTransportIT {
    static final String NIO = "Byte Buddy's HotSpot attach protocol over a java.nio UNIX socket (as asked)";

    @TempDir
    Path temp;

    @Test
    void eachCommandReachesTheJvmOverTheTransportNamed() throws Exception {
        Jdk jdk = Jdk.current();
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        try (ForkedJvm.Running app = ForkedJvm.on(jdk).withoutAgent().slowClocksource(0)
                .classPath(ConcurrentLoadIT.classPathWithAsm()).main(AttachTargetApp.class, "0", trigger + ":run").start()) {
            app.awaitLine("waiting=1");
            String pid = Long.toString(app.pid());
            ForkedJvm.Result wrong = AttachIT.command(jdk, "attach", pid, "mode=on", "--transport", "udp");
            ForkedJvm.Result before = AttachIT.command(jdk, "status", pid, "--json", "--transport", "jna");
            ForkedJvm.Result attach = AttachIT.command(jdk, "attach", pid, "mode=on", "--transport=nio");
            ForkedJvm.Result detach = AttachIT.command(jdk, "detach", pid, "--transport", "jna");
            ForkedJvm.Result after = AttachIT.command(jdk, "status", pid, "--json", "--transport", "jdk_attach");
            Files.createFile(trigger);
            r = app.finish();
            System.out.println("[AttachTransportIT] " + attach.stdout.replace('\n', ' '));
            assertEquals(2, wrong.exitCode, wrong.toString());
            assertTrue(wrong.stderr.contains("--transport takes jdk_attach, jna or nio, not 'udp'"), wrong.toString());
            assertEquals(0, before.exitCode, before.toString());
            assertFalse(new ObjectMapper().readTree(before.stdout).get("loaded").asBoolean(), before.stdout);
            assertEquals(0, attach.exitCode, attach.toString());
            assertTrue(attach.stdout.contains("attaching fastclock to JVM " + pid + " (") && attach.stdout.contains(" through " + NIO),
                    attach.toString());
            assertEquals(0, detach.exitCode, detach.toString());
            assertTrue(detach.stdout.contains("fastclock detached from JVM " + pid), detach.toString());
            assertEquals(0, after.exitCode, after.toString());
            JsonNode state = new ObjectMapper().readTree(after.stdout);
            assertFalse(state.get("active").asBoolean(), after.stdout);
            assertTrue(state.get("summary").asText().startsWith("fastclock: detached"), after.stdout);
        }
        assertEquals(0, r.exitCode, r.toString());
        AttachIT.assertPhasesRan(r, 1, 0);
    }
}
