package io.fastclock.entry;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The only class of fastclock.jar that the application's class loader can load (Premain-Class,
 * Agent-Class and Main-Class). It checks that the JVM called it, reads its jar once, and hands over to
 * its helpers, which it defines from that read into a class loader of their own: an instance of this
 * class, made for this one call and held on its stack only.
 *
 * <p>Why a loader of their own: a class the entry calls by name in its own package could be a class
 * application code defined there first ({@code MethodHandles.privateLookupIn(AgentEntry.class, ...)}),
 * or put on the class path; in a loader that only this call has, every name is the entry's. The loader
 * keeps nothing: the helpers are defined here, eagerly, while the jar's bytes are on this stack, and
 * their bytes come from the one read of the jar (a file read again after main starts may no longer be
 * the file the JVM started from). Eagerly, because application code that gets hold of a helper's class
 * (a hook its own Properties or SecurityManager runs on a thread of the agent's, with a StackWalker)
 * could define any helper not yet defined into this loader's package, which its unnamed module opens to
 * all; a name it takes first makes the later definition fail, and the agent stays off. Nothing of the
 * read is in a field: this class is in the application's unnamed module, and a lookup into it reads
 * any field of an instance the application can reach.
 *
 * <p>The read ({@link #readJar}) takes the central directory and the part of the jar the agent needs at
 * run time (the build puts it first, ending at {@value #REGION_END}); the command line reads it all.
 * An agent reads it through one open file, in two steps, both before premain or agentmain returns: up
 * to {@value #ENTRY_END} (the helpers, what a machine whose clocks are fast needs), then, only where
 * the module is needed, up to {@value #REGION_END}. A file renamed over the jar meanwhile is not the
 * file open here. Everything else (the nested JNA jar) is read later only against a digest taken from
 * this read.
 */
public final class AgentEntry extends ClassLoader implements Consumer<Function<Object[], Object>> {
    static final String PREMAIN = "premain";
    static final String AGENTMAIN = "agentmain";
    static final String MAIN = "main";
    /** The helpers' class files, {@code <simple name>.classdata}, listed one per line in {@value #HELPER_LIST}. */
    static final String HELPERS = "META-INF/fastclock/entry/";
    static final String HELPER_LIST = HELPERS + "classes";
    static final String PACKAGE = "io.fastclock.entry.";
    /** The helper this class hands over to (its initialiser gives this loader an instance). */
    static final String START = PACKAGE + "EntryStart";
    /** An empty entry that ends what an agent reads at start (agent/pom.xml lays the jar out so). */
    static final String REGION_END = "META-INF/fastclock/region-end";
    /** An empty entry that ends the helpers and what they need where the entry answers alone. */
    static final String ENTRY_END = "META-INF/fastclock/entry-end";
    private static final String JVM_INSTRUMENTATION = "sun.instrument.InstrumentationImpl";

    /** What the helpers get: {@link #argumentsFor}'s layout, which EntryStart reads (EntryArgumentsTest). */
    static final int ENTRY_POINT = 0;
    static final int ARGUMENTS = 1;
    static final int INSTRUMENTATION = 2;
    static final int JAR_PATH = 3;
    static final int REGION = 4;
    static final int INDEX = 5;
    static final int WHOLE_JAR = 6;
    static final int LENGTH = 7;

    /** What EntryStart answers where it needs the module's helpers ({@link #forTheModule}) to go on. */
    static final String MODULE_NEEDED = "module needed";

    private static final long CENTRAL_HEADER = 0x02014b50L;
    private static final long DIRECTORY_END = 0x06054b50L;

    /** EntryStart's instance, handed over once by its initialiser ({@link #accept}). */
    private Function<Object[], Object> start;

    AgentEntry() {
        super("fastclock-entry", null);
    }

    public static void premain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker == null) {
            return;
        }
        Class<?> caller = walker.getCallerClass();
        String refusal = refusalForAgent(inst, caller);
        if (refusal != null) {
            System.err.println("fastclock: premain refused: " + oneLine(refusal));
            return;
        }
        enter(PREMAIN, args, inst);
    }

    public static void agentmain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker == null) {
            return;
        }
        Class<?> caller = walker.getCallerClass();
        String refusal = refusalForAgent(inst, caller);
        if (refusal != null) {
            System.err.println("fastclock: agentmain refused: " + oneLine(refusal));
            return;
        }
        enter(AGENTMAIN, args, inst);
    }

    /** {@code java -jar fastclock.jar}: the doctor and the commands. */
    public static void main(String[] args) {
        StackWalker walker = classRetainingWalker();
        if (walker == null) {
            System.exit(1);
        }
        Class<?> caller;
        try {
            caller = notTheLauncher(walker.getCallerClass());
        } catch (IllegalCallerException e) {
            caller = null; // main is the bottom frame: the launcher called it through JNI
        }
        if (caller != null) {
            System.err.println("fastclock: main refused: called by " + oneLine(caller.getName()) + ", not by the java launcher");
            return;
        }
        if (!enter(MAIN, args, null)) {
            System.exit(1);
        }
    }

    /**
     * A walker that gives classes, for premain, agentmain and main to ask for their caller in their own
     * frame (getCallerClass skips the reflection frames between; cheaper at start-up than walking the
     * stack); null where a SecurityManager denies one to this jar (the agent then stays off, as it
     * does for any failure to start). It is not kept: one that retains classes is a right under a
     * SecurityManager.
     */
    private static StackWalker classRetainingWalker() {
        try {
            return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
        } catch (SecurityException e) {
            System.err.println("fastclock: agent not started, the application runs on the system clocks: " + oneLine(String.valueOf(e)));
            return null;
        }
    }

    /** null for java.base's launcher helper (the java launcher), else the caller. */
    private static Class<?> notTheLauncher(Class<?> caller) {
        Module module = caller.getModule();
        boolean launcher = module.isNamed() && module.getLayer() == ModuleLayer.boot() && caller.getClassLoader() == null
                && module.getName().equals("java.base");
        return launcher ? null : caller;
    }

    /**
     * Reads the jar, defines the helpers and hands over.
     *
     * @return false where the helpers could not be defined or failed (said in one line)
     */
    private static boolean enter(String how, Object args, Instrumentation inst) {
        try {
            File jar = ownJar();
            boolean whole = how.equals(MAIN);
            try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
                Object[] read = readJar(file, jar, whole ? null : ENTRY_END);
                byte[] region = (byte[]) read[0];
                // The directory's entries as far as ENTRY_END, parsed: what the helpers are defined from.
                Object[] directory = directory((byte[]) read[1], (Integer) read[2], ENTRY_END);
                AgentEntry loader = new AgentEntry();
                loader.defineHelpers(region, directory, false);
                Class.forName(START, true, loader);
                Function<Object[], Object> start = loader.start;
                loader.start = null;
                if (start == null) {
                    throw new IllegalStateException("the entry's helpers did not start");
                }
                Object[] arguments = argumentsFor(how, args, inst, jar, region, directory, whole);
                Object answer = start.apply(arguments);
                if (MODULE_NEEDED.equals(answer)) {
                    // Not answered alone: what defines the agent's module, and the runtime, is needed too.
                    loader.defineHelpers(region, directory, true);
                    if (!whole) {
                        arguments[REGION] = region(file, jar, read, REGION_END);
                    }
                    answer = start.apply(arguments);
                }
                return !Boolean.FALSE.equals(answer);
            }
        } catch (Throwable t) {
            System.err.println("fastclock: agent not started, the application runs on the system clocks: "
                    + oneLine(String.valueOf(t)));
            return false;
        }
    }

    /** @param directory {@link #directory}'s answer, which JarSnapshot parses on from */
    static Object[] argumentsFor(String how, Object args, Instrumentation inst, File jar, byte[] region,
            Object[] directory, boolean whole) {
        Object[] out = new Object[LENGTH];
        out[ENTRY_POINT] = how;
        out[ARGUMENTS] = args;
        out[INSTRUMENTATION] = inst;
        out[JAR_PATH] = jar.getPath();
        out[REGION] = region;
        out[INDEX] = directory;
        out[WHOLE_JAR] = whole;
        return out;
    }

    /** EntryStart's initialiser hands over its instance, once. */
    @Override
    public void accept(Function<Object[], Object> given) {
        synchronized (this) {
            if (start == null) {
                start = given;
            }
        }
    }

    /**
     * The helpers the jar lists, defined from the read's bytes, in the listed order: those that define the
     * agent's module and the runtime ({@link #forTheModule}), or the others, which answer on a machine
     * whose clocks are fast without the rest ever being defined.
     */
    private void defineHelpers(byte[] region, Object[] directory, boolean moduleOnes) throws IOException {
        byte[] list = entry(region, directory, HELPER_LIST);
        for (String line : latin1(list, 0, list.length).split("\n")) {
            String helper = line.trim();
            if (!helper.isEmpty() && forTheModule(helper) == moduleOnes) {
                byte[] bytes = entry(region, directory, HELPERS + helper + ".classdata");
                defineClass(PACKAGE + helper, bytes, 0, bytes.length);
            }
        }
    }

    /** The helpers that define the agent's module and the boot runtime, and start the module in the background. */
    static boolean forTheModule(String helper) {
        return helper.startsWith("PrivateModule") || helper.startsWith("RuntimeSetup") || helper.startsWith("BackgroundStart");
    }

    /** What {@link #directory} answers: its layout, which JarSnapshot reads (EntryArgumentsTest). */
    static final int PARSED = 0;
    static final int DIRECTORY = 1;
    static final int NEXT_ENTRY = 2;
    static final int ENTRIES_LEFT = 3;

    /**
     * The directory's entries parsed as far as {@code until} (not included; all of them where the jar has
     * no such entry): a name is a string and a hash for each entry, which the interpreter makes slowly,
     * and the build puts first what the entry needs; JarSnapshot parses on from there as far as the names
     * it is asked for need.
     *
     * @return {Map name -> {local header's offset, method, compressed size, size}, byte[] directory,
     *     Integer where the next entry starts, Integer entries left}
     */
    static Object[] directory(byte[] directory, int entries, String until) {
        Map<String, long[]> parsed = new HashMap<>(64);
        int p = 0;
        int left = entries;
        while (left > 0) {
            int nameLength = p + 46 <= directory.length && u4(directory, p) == CENTRAL_HEADER ? u2(directory, p + 28) : -1;
            if (nameLength < 0 || p + 46 + nameLength > directory.length) {
                left = 0; // damaged past what readJar checked: nothing more is found
                break;
            }
            String name = latin1(directory, p + 46, nameLength);
            if (name.equals(until)) {
                break;
            }
            parsed.putIfAbsent(name, new long[] {u4(directory, p + 42), u2(directory, p + 10), u4(directory, p + 20), u4(directory, p + 24)});
            p += 46 + nameLength + u2(directory, p + 30) + u2(directory, p + 32);
            left--;
        }
        return new Object[] {parsed, directory, p, left};
    }

    /**
     * A parsed entry's data in the region: {data offset, method, compressed size, size}, or null where the
     * entry is not parsed or its bytes lie beyond the region (JarSnapshot.located is the same).
     */
    static long[] located(byte[] region, Object[] directory, String name) {
        @SuppressWarnings("unchecked")
        long[] at = ((Map<String, long[]>) directory[PARSED]).get(name);
        if (at == null || at[0] + 30 > region.length) {
            return null;
        }
        long dataStart = at[0] + 30 + u2(region, (int) at[0] + 26) + u2(region, (int) at[0] + 28);
        return dataStart + at[2] > region.length ? null : new long[] {dataStart, at[1], at[2], at[3]};
    }

    /**
     * What the entry reads of the jar: its central directory, and every byte up to {@code until}'s entry
     * (all of them where {@code until} is null or the jar has no such entry). The directory lists the
     * entries in the order they lie in the file ({@link #region}); it is parsed apart ({@link #directory}).
     *
     * @return {byte[] region, byte[] directory, Integer entries, Long the directory's offset}
     */
    static Object[] readJar(RandomAccessFile file, File jar, String until) throws IOException {
        long length = file.length();
        if (length < 22 || length > Integer.MAX_VALUE) {
            throw new IOException(jar + " is not a jar fastclock can read");
        }
        // The directory's end is the last 22 bytes where the jar has no comment (the build's): read those
        // first; a jar repacked with a comment is searched for it, up to the longest a comment can be.
        int tailLength = 22;
        byte[] tail = readAt(file, length - tailLength, tailLength);
        int eocd = u4(tail, 0) == DIRECTORY_END && u2(tail, 20) == 0 ? 0 : -1;
        if (eocd < 0) {
            tailLength = (int) Math.min(length, 65535 + 22);
            tail = readAt(file, length - tailLength, tailLength);
            for (int i = tailLength - 22; i >= 0 && eocd < 0; i--) {
                if (u4(tail, i) == DIRECTORY_END && i + 22 + u2(tail, i + 20) == tailLength) { // not a comment's bytes
                    eocd = i;
                }
            }
            // Bytes after the comment, which the JDK's ZipFile accepts too: the directory's checks below judge it.
            for (int i = tailLength - 22; i >= 0 && eocd < 0; i--) {
                if (u4(tail, i) == DIRECTORY_END) {
                    eocd = i;
                }
            }
        }
        if (eocd < 0) {
            throw new IOException(jar + " has no zip directory");
        }
        int entries = u2(tail, eocd + 10);
        long cenSize = u4(tail, eocd + 12);
        long cenOffset = u4(tail, eocd + 16);
        if (cenOffset + cenSize > length - tailLength + eocd) {
            throw new IOException(jar + ": damaged zip directory");
        }
        Object[] read = {null, readAt(file, cenOffset, (int) cenSize), entries, cenOffset};
        read[0] = region(file, jar, read, until);
        return read;
    }

    /**
     * Every byte of the jar up to {@code until}'s entry, which the directory of {@code read} (readJar's)
     * locates: the first step's region, or the second's, longer, from the same directory. The directory
     * is checked as far as {@code until}, comparing only names of that length.
     */
    static byte[] region(RandomAccessFile file, File jar, Object[] read, String until) throws IOException {
        byte[] cen = (byte[]) read[1];
        long cenOffset = (Long) read[3];
        long regionEnd = cenOffset;
        int untilLength = until == null ? -1 : until.length();
        for (int n = 0, p = 0, entries = (Integer) read[2]; n < entries; n++) {
            int nameLength = p + 46 <= cen.length && u4(cen, p) == CENTRAL_HEADER ? u2(cen, p + 28) : -1;
            if (nameLength < 0 || p + 46 + nameLength > cen.length) {
                throw new IOException(jar + ": damaged zip directory");
            }
            if (nameLength == untilLength && latin1(cen, p + 46, nameLength).equals(until)) {
                regionEnd = u4(cen, p + 42);
                break;
            }
            p += 46 + nameLength + u2(cen, p + 30) + u2(cen, p + 32);
        }
        if (regionEnd > cenOffset) {
            throw new IOException(jar + ": damaged zip directory");
        }
        return readAt(file, 0, (int) regionEnd);
    }

    /**
     * An entry's bytes from the region, or an IOException where it is not there. The build stores the
     * helpers (an Inflater per entry cost premain tens of microseconds each); a jar repacked since may
     * have deflated them, which is slower, not wrong.
     */
    static byte[] entry(byte[] region, Object[] directory, String name) throws IOException {
        long[] at = located(region, directory, name);
        if (at == null) {
            throw new IOException("fastclock.jar lacks " + name);
        }
        int start = (int) at[0];
        int compressed = (int) at[2];
        int size = (int) at[3];
        if (at[1] == 0) {
            byte[] out = new byte[size];
            System.arraycopy(region, start, out, 0, size);
            return out;
        }
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(region, start, compressed);
            byte[] out = new byte[size];
            int n = 0;
            while (n < size) {
                int got = inflater.inflate(out, n, size - n);
                if (got == 0 && (inflater.finished() || inflater.needsInput())) {
                    break;
                }
                n += got;
            }
            if (n != size) {
                throw new IOException("fastclock.jar's " + name + " is damaged");
            }
            return out;
        } catch (DataFormatException e) {
            throw new IOException("fastclock.jar's " + name + " is damaged: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    private static byte[] readAt(RandomAccessFile file, long at, int length) throws IOException {
        byte[] b = new byte[length];
        file.seek(at);
        for (int n = 0; n < length; n += READ_PIECE) {
            file.readFully(b, n, Math.min(READ_PIECE, length - n));
        }
        return b;
    }

    /**
     * What one read asks for: RandomAccessFile copies through a native buffer, malloc'd where over 8 KB,
     * and past 128 KB mapped anew and first touched on each read. The region (about 500 KB) read whole
     * cost premain 0.5 ms; in 64 KB pieces, 0.2.
     */
    static final int READ_PIECE = 64 * 1024;

    /**
     * Bytes as ISO-8859-1 characters, one for one: the build writes ASCII entry names.
     * Not through a Charset: StandardCharsets' initialiser loads six charsets into premain.
     */
    @SuppressWarnings("deprecation")
    static String latin1(byte[] b, int offset, int length) {
        return new String(b, 0, offset, length);
    }

    private static int u2(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
    }

    private static long u4(byte[] b, int i) {
        return (u2(b, i) | (long) u2(b, i + 2) << 16) & 0xffffffffL;
    }

    /**
     * premain and agentmain are called by the JVM's java.instrument (sun.instrument.InstrumentationImpl,
     * through reflection, which StackWalker hides) with the JVM's own Instrumentation; anything else
     * is application code, and is refused.
     *
     * @param caller the class that called premain/agentmain
     * @return null when the JVM called premain/agentmain with its own Instrumentation, else why not
     */
    static String refusalForAgent(Instrumentation inst, Class<?> caller) {
        if (inst == null) {
            return "no Instrumentation";
        }
        if (!isJvmInstrumentation(inst.getClass())) {
            return "not the JVM's Instrumentation (" + inst.getClass().getName() + ")";
        }
        // An InstrumentationImpl that the JVM did not make (sun.misc.Unsafe.allocateInstance gives the
        // class path one, with no native agent behind it) comes only with another caller.
        if (caller == null || !isJvmInstrumentation(caller)) {
            return "called by " + (caller == null ? "nothing" : caller.getName()) + ", not by the JVM";
        }
        return null;
    }

    private static boolean isJvmInstrumentation(Class<?> c) {
        Module m = c.getModule();
        return c.getName().equals(JVM_INSTRUMENTATION) && m.isNamed() && "java.instrument".equals(m.getName())
                && m.getLayer() == ModuleLayer.boot();
    }

    /** The jar this class was loaded from, by its code source. */
    static File ownJar() throws IOException {
        CodeSource source = AgentEntry.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IOException("cannot find fastclock.jar (no code source)");
        }
        URL location = source.getLocation();
        String authority = location.getAuthority();
        if (!"file".equals(location.getProtocol()) || authority != null && !authority.isEmpty()
                || location.getQuery() != null || location.getRef() != null) {
            throw new IOException("fastclock must run from a jar on this machine, not " + location);
        }
        File file = new File(filePath(location.getPath()));
        if (!file.isFile()) {
            throw new IOException("fastclock must run from its jar, not " + file);
        }
        return file;
    }

    /**
     * A file URL's path as a file name: its %XX escapes decoded as UTF-8 (the class path writes a jar's
     * URL so: jdk.internal.loader.URLClassPath). Not {@code new File(url.toURI())}, which is the same
     * for such a URL but loads java.net.URI's parser into premain (a quarter of a millisecond).
     */
    static String filePath(String urlPath) throws IOException {
        if (urlPath.isEmpty() || urlPath.charAt(0) != '/') {
            throw new IOException("fastclock.jar's URL has no absolute path: " + urlPath);
        }
        if (urlPath.indexOf('%') < 0) {
            return urlPath;
        }
        byte[] bytes = new byte[urlPath.length() * 3];
        int n = 0;
        for (int i = 0; i < urlPath.length(); i++) {
            char c = urlPath.charAt(i);
            if (c == '%') {
                int high = i + 2 < urlPath.length() ? Character.digit(urlPath.charAt(i + 1), 16) : -1;
                int low = high < 0 ? -1 : Character.digit(urlPath.charAt(i + 2), 16);
                if (low < 0) {
                    throw new IOException("fastclock.jar's URL has a broken escape: " + urlPath);
                }
                bytes[n++] = (byte) (high << 4 | low);
                i += 2;
            } else if (c < 0x80) {
                bytes[n++] = (byte) c;
            } else { // a character left unescaped (a URL made from a URI): its UTF-8 bytes
                int end = Character.isHighSurrogate(c) && i + 1 < urlPath.length() ? i + 2 : i + 1;
                byte[] encoded = urlPath.substring(i, end).getBytes(StandardCharsets.UTF_8);
                System.arraycopy(encoded, 0, bytes, n, encoded.length);
                n += encoded.length;
                i = end - 1;
            }
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    /**
     * The one-line rule for what this class prints (a caller's or an Instrumentation's class name,
     * which the application chooses and a class file may spell with a newline; an exception's
     * message, which may hold the jar's path): control characters, DEL, the C1 controls and U+2028/9
     * as {@code \\uXXXX}. The helpers' EntryLines and the agent module's OneLine apply the same rule;
     * this class can use neither (AgentEntryOneLineTest holds the copies together).
     */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029') {
                String hex = Integer.toHexString(c);
                sb.append("\\u").append("0000", hex.length(), 4).append(hex);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
