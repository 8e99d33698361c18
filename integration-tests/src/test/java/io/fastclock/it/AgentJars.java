package io.fastclock.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Test-time jars: another agent (its class and nested classes) and the JNA the apps use. */
final class AgentJars {
    private AgentJars() {}

    /** A jar with Premain-Class agent (Can-Retransform-Classes: true) holding agent and its nested classes. */
    static Path premainJar(Path dir, Class<?> agent) throws IOException {
        Path jar = dir.resolve(agent.getSimpleName() + ".jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), agent.getName());
        manifest.getMainAttributes().put(new Attributes.Name("Can-Retransform-Classes"), "true");
        Path classes = ForkedJvm.testClasses();
        Path packageDir = classes.resolve(agent.getPackage().getName().replace('.', File.separatorChar));
        String simple = agent.getSimpleName();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                Stream<Path> files = Files.list(packageDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals(simple + ".class")
                    || p.getFileName().toString().startsWith(simple + "$")).collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }

    /** The test classes plus JNA (the apps' native reference clocks and the simulator's running count). */
    static String classPathWithJna() throws Exception {
        return ForkedJvm.testClasses() + File.pathSeparator + jarOf(com.sun.jna.Native.class);
    }

    static String jarOf(Class<?> c) throws Exception {
        return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** A JVM whose application uses JNA: on JDK 24+ JNA's System.load warns unless native access is enabled. */
    static ForkedJvm withJna(ForkedJvm jvm, Jdk jdk) throws Exception {
        jvm.classPath(classPathWithJna());
        return jdk.feature >= 24 ? jvm.jvmArg("--enable-native-access=ALL-UNNAMED") : jvm;
    }
}
