package io.fastclock.rewrite;

import java.util.List;

/**
 * The rewrite of {@link ClockReplacements} done on the constant pool alone, without ASM: every row
 * keeps its descriptor, so pointing each matching {@code CONSTANT_Methodref} at the new owner (a
 * {@code CONSTANT_Class} appended to the pool, or found there) and, where a row renames the method,
 * at a new {@code CONSTANT_NameAndType}, changes every {@code invokestatic} and every
 * {@code REF_invokeStatic} method handle (in {@code ldc}, bootstrap arguments of {@code invokedynamic}
 * and {@code CONSTANT_Dynamic}) that uses it, and nothing else: code, stack maps and attributes are
 * copied as they are. Loading no ASM class saves its first-use cost at start-up (docs/DESIGN-NOTES.md
 * note 10).
 *
 * <p>The result equals {@code asm.ClockCallRewriter}'s in every instruction, owner, name and descriptor
 * (CorpusRewriteTest compares them), and so does the call-site count: a single pass over the methods'
 * code counts the {@code invokestatic} instructions and the handle uses (per {@code invokedynamic} and
 * {@code ldc}, through nested dynamic constants) of the repointed entries, as ASM's visitor does.
 * A matching {@code InterfaceMethodref} (an {@code invokestatic} with the interface flag on a class:
 * it fails with IncompatibleClassChangeError) is repointed too, as ASM's visitor keeps the flag and
 * swaps the owner. Where repointing would change something ASM's rewrite keeps, {@link #rewrite}
 * answers {@link #ASM_NEEDED} instead: a matching entry used by an instruction other than
 * {@code invokestatic} or by a handle of another kind (malformed classes both); a pool with no room
 * for the new entries (65535); a class-file version newer than {@link #NEWEST_MAJOR}.
 *
 * <p>Thread-safe (immutable). Throws on malformed class files; the caller falls back to ASM.
 */
public final class ConstantPoolRewriter {
    /** {@link #rewrite}'s answer when the class needs ASM's rewriter. */
    public static final Rewritten ASM_NEEDED = new Rewritten(null, -1);

    private static final int UTF8 = 1;
    private static final int INTEGER = 3;
    private static final int FLOAT = 4;
    private static final int LONG = 5;
    private static final int DOUBLE = 6;
    private static final int CLASS = 7;
    private static final int STRING = 8;
    private static final int FIELDREF = 9;
    private static final int METHODREF = 10;
    private static final int INTERFACE_METHODREF = 11;
    private static final int NAME_AND_TYPE = 12;
    private static final int METHOD_HANDLE = 15;
    private static final int METHOD_TYPE = 16;
    private static final int DYNAMIC = 17;
    private static final int INVOKE_DYNAMIC = 18;
    private static final int MODULE = 19;
    private static final int PACKAGE = 20;
    private static final int REF_INVOKE_STATIC = 6;
    private static final int MAX_POOL_COUNT = 0xFFFF;
    /** The newest class-file version this rewrite knows (Java 26, as the ASM it ships with); newer ones go to ASM. */
    static final int NEWEST_MAJOR = 70;
    /** Nesting of dynamic constants followed while counting; deeper is taken as a malformed cycle. */
    private static final int MAX_DEPTH = 64;

    private static final int LDC = 0x12;
    private static final int LDC_W = 0x13;
    private static final int LDC2_W = 0x14;
    private static final int INVOKEVIRTUAL = 0xb6;
    private static final int INVOKESPECIAL = 0xb7;
    private static final int INVOKESTATIC = 0xb8;
    private static final int INVOKEINTERFACE = 0xb9;
    private static final int INVOKEDYNAMIC = 0xba;
    private static final int TABLESWITCH = 0xaa;
    private static final int LOOKUPSWITCH = 0xab;
    private static final int WIDE = 0xc4;
    private static final int IINC = 0x84;
    /**
     * Length of each fixed-length instruction, negated for those that can name a rewritten entry
     * (invoke*, ldc*); 0 for the variable ones and the undefined opcodes.
     */
    private static final byte[] LENGTH = instructionLengths();

    private static final byte[] CODE = ascii("Code");
    private static final byte[] BOOTSTRAP_METHODS = ascii("BootstrapMethods");

    private final byte[][] owner;
    private final byte[][] name;
    private final byte[][] descriptor;
    private final byte[][] newOwner;
    private final byte[][] newName;
    private final boolean[] renames;

    /** Reads the rows of {@code table}. */
    public ConstantPoolRewriter(ClockReplacements table) {
        List<ClockReplacements.Row> rows = table.rows();
        int n = rows.size();
        owner = new byte[n][];
        name = new byte[n][];
        descriptor = new byte[n][];
        newOwner = new byte[n][];
        newName = new byte[n][];
        renames = new boolean[n];
        for (int i = 0; i < n; i++) {
            ClockReplacements.Row r = rows.get(i);
            owner[i] = ascii(r.owner);
            name[i] = ascii(r.name);
            descriptor[i] = ascii(r.descriptor);
            newOwner[i] = ascii(r.newOwner);
            newName[i] = ascii(r.newName);
            renames[i] = !r.name.equals(r.newName);
        }
    }

    /** Whether the pool holds a Methodref or InterfaceMethodref the table replaces (ASM's {@code referencesClock}). */
    public boolean referencesClock(byte[] b) {
        Pool pool = new Pool(b);
        byte[] classMarks = new byte[pool.count];
        for (int i = 1; i < pool.count; i++) {
            int tag = pool.tag(i);
            if ((tag == METHODREF || tag == INTERFACE_METHODREF) && rowOf(pool, i, classMarks) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The rewritten class and its call-site count; null when nothing is to be rewritten (no matching
     * entry, or none that code uses); {@link #ASM_NEEDED} when this rewrite cannot equal ASM's.
     */
    public Rewritten rewrite(byte[] b) {
        Pool pool = new Pool(b);
        int major = u2(b, 6);
        if (major < 45 || major > NEWEST_MAJOR) {
            return ASM_NEEDED; // a format this rewrite was not checked on (new tags, opcodes, attributes)
        }
        int count = pool.count;
        // row + 1 of each matching Methodref, 0 elsewhere
        int[] matched = null;
        byte[] classMarks = new byte[count];
        for (int i = 1; i < count; i++) {
            int tag = pool.tag(i);
            if (tag == METHODREF || tag == INTERFACE_METHODREF) {
                int row = rowOf(pool, i, classMarks);
                if (row >= 0) {
                    if (matched == null) {
                        matched = new int[count];
                    }
                    matched[i] = row + 1;
                }
            }
        }
        if (matched == null) {
            return null;
        }
        boolean handles = false;
        for (int i = 1; i < count; i++) {
            if (pool.tag(i) == METHOD_HANDLE && matched[u2(b, pool.offset[i] + 2)] != 0) {
                if ((b[pool.offset[i] + 1] & 0xFF) != REF_INVOKE_STATIC) {
                    return ASM_NEEDED;
                }
                handles = true;
            }
        }
        int sites = new SiteCounter(pool, matched, handles).count();
        if (sites < 0) {
            return ASM_NEEDED;
        }
        if (sites == 0) {
            return null;
        }
        byte[] out = repoint(pool, matched);
        return out == null ? ASM_NEEDED : new Rewritten(out, sites);
    }

    private static final byte NOT_AN_OWNER = 1;
    private static final byte AN_OWNER = 2;

    /**
     * The row a (Interface)Methodref matches, or -1. {@code classMarks} remembers, per Class entry,
     * whether it names an owner of the table, so that most references cost one array read.
     */
    private int rowOf(Pool pool, int ref, byte[] classMarks) {
        byte[] b = pool.bytes;
        int at = pool.offset[ref];
        int cls = pool.index(u2(b, at + 1), CLASS);
        int classNameAt = pool.offset[pool.index(u2(b, pool.offset[cls] + 1), UTF8)];
        if (classMarks[cls] == 0) {
            classMarks[cls] = NOT_AN_OWNER;
            for (byte[] o : owner) {
                if (utf8Equals(b, classNameAt, o)) {
                    classMarks[cls] = AN_OWNER;
                    break;
                }
            }
        }
        if (classMarks[cls] == NOT_AN_OWNER) {
            return -1;
        }
        int nat = pool.offset[pool.index(u2(b, at + 3), NAME_AND_TYPE)];
        for (int r = 0; r < owner.length; r++) {
            if (utf8Equals(b, classNameAt, owner[r])
                    && utf8Equals(b, pool.offset[pool.index(u2(b, nat + 1), UTF8)], name[r])
                    && utf8Equals(b, pool.offset[pool.index(u2(b, nat + 3), UTF8)], descriptor[r])) {
                return r;
            }
        }
        return -1;
    }

    /** The class file with the matched Methodrefs pointed at the new owners and names; null if the pool is full. */
    private byte[] repoint(Pool pool, int[] matched) {
        byte[] b = pool.bytes;
        int rows = owner.length;
        // Per row: the Class entry of the new owner, and (renaming rows) the new name's Utf8.
        int[] classIndex = new int[rows];
        int[] nameIndex = new int[rows];
        int[] ownerUtf8 = new int[rows];
        boolean[] used = new boolean[rows];
        for (int i = 1; i < pool.count; i++) {
            if (matched[i] != 0) {
                used[matched[i] - 1] = true;
            }
        }
        boolean ownerNamed = false;
        for (int i = 1; i < pool.count; i++) {
            int at = pool.offset[i];
            if (at == 0 || b[at] != UTF8) {
                continue;
            }
            int length = u2(b, at + 1);
            for (int r = 0; r < rows; r++) {
                if (!used[r]) {
                    continue;
                }
                if (ownerUtf8[r] == 0 && length == newOwner[r].length && utf8Equals(b, at, newOwner[r])) {
                    ownerUtf8[r] = i;
                    ownerNamed = true;
                }
                if (renames[r] && nameIndex[r] == 0 && length == newName[r].length && utf8Equals(b, at, newName[r])) {
                    nameIndex[r] = i;
                }
            }
        }
        // A Class entry naming the new owner names that Utf8 (or a duplicate of it: then a Class is appended).
        for (int i = 1; ownerNamed && i < pool.count; i++) {
            int at = pool.offset[i];
            if (at == 0 || b[at] != CLASS) {
                continue;
            }
            int nameUtf8 = u2(b, at + 1);
            for (int r = 0; r < rows; r++) {
                if (used[r] && classIndex[r] == 0 && nameUtf8 == ownerUtf8[r]) {
                    classIndex[r] = i;
                }
            }
        }
        // What to append: count the entries and their bytes first.
        int next = pool.count;
        int extra = 0;
        byte[] appended = new byte[64 * rows];
        for (int r = 0; r < rows; r++) {
            if (!used[r]) {
                continue;
            }
            if (classIndex[r] == 0) {
                for (int q = 0; q < r; q++) {
                    if (used[q] && classIndex[q] != 0 && java.util.Arrays.equals(newOwner[q], newOwner[r])) {
                        classIndex[r] = classIndex[q];
                    }
                }
            }
            if (classIndex[r] == 0) {
                if (ownerUtf8[r] == 0) {
                    appended = ensure(appended, extra + 3 + newOwner[r].length);
                    extra = putUtf8(appended, extra, newOwner[r]);
                    ownerUtf8[r] = next++;
                }
                appended = ensure(appended, extra + 3);
                appended[extra] = CLASS;
                extra = putU2(appended, extra + 1, ownerUtf8[r]);
                classIndex[r] = next++;
            }
            if (renames[r] && nameIndex[r] == 0) {
                appended = ensure(appended, extra + 3 + newName[r].length);
                extra = putUtf8(appended, extra, newName[r]);
                nameIndex[r] = next++;
            }
        }
        // Renaming rows: one NameAndType per descriptor entry the matched Methodrefs use (usually one).
        int[] natFor = new int[pool.count];
        for (int i = 1; i < pool.count; i++) {
            int r = matched[i] - 1;
            if (r < 0 || !renames[r]) {
                continue;
            }
            int desc = u2(b, pool.offset[u2(b, pool.offset[i] + 3)] + 3);
            int found = 0;
            for (int j = 1; j < i && found == 0; j++) {
                if (natFor[j] != 0 && matched[j] == matched[i]
                        && u2(b, pool.offset[u2(b, pool.offset[j] + 3)] + 3) == desc) {
                    found = natFor[j];
                }
            }
            if (found == 0) {
                appended = ensure(appended, extra + 5);
                appended[extra] = NAME_AND_TYPE;
                extra = putU2(appended, extra + 1, nameIndex[r]);
                extra = putU2(appended, extra, desc);
                found = next++;
            }
            natFor[i] = found;
        }
        if (next > MAX_POOL_COUNT) {
            return null;
        }
        int end = pool.end;
        byte[] out = new byte[b.length + extra];
        System.arraycopy(b, 0, out, 0, end);
        System.arraycopy(appended, 0, out, end, extra);
        System.arraycopy(b, end, out, end + extra, b.length - end);
        putU2(out, 8, next);
        for (int i = 1; i < pool.count; i++) {
            int r = matched[i] - 1;
            if (r >= 0) {
                putU2(out, pool.offset[i] + 1, classIndex[r]);
                if (renames[r]) {
                    putU2(out, pool.offset[i] + 3, natFor[i]);
                }
            }
        }
        return out;
    }

    /** Counts the uses ASM's visitor would rewrite; -1 where a matched entry has a use it would not. */
    private static final class SiteCounter {
        private final Pool pool;
        private final byte[] b;
        private final int[] matched;
        private final boolean handles;
        /** Offsets of the BootstrapMethods entries, read when first needed. */
        private int[] bootstrap;

        SiteCounter(Pool pool, int[] matched, boolean handles) {
            this.pool = pool;
            this.b = pool.bytes;
            this.matched = matched;
            this.handles = handles;
        }

        int count() {
            int p = pool.end + 6;
            p += 2 + 2 * u2(b, p); // interfaces
            p = skipMembers(p); // fields
            int methods = u2(b, p);
            p += 2;
            int sites = 0;
            for (int m = 0; m < methods; m++) {
                int attributes = u2(b, p + 6);
                p += 8;
                for (int a = 0; a < attributes; a++) {
                    int length = u4(b, p + 2);
                    if (length < 0) {
                        throw new IllegalArgumentException("attribute too long");
                    }
                    if (utf8Equals(b, pool.offset[pool.index(u2(b, p), UTF8)], CODE)) {
                        int s = countInCode(p + 6 + 8, u4(b, p + 6 + 4));
                        if (s < 0) {
                            return -1;
                        }
                        sites += s;
                    }
                    p += 6 + length;
                }
            }
            return sites;
        }

        /** Where the attribute at p ends; a length that is negative or runs past the class file is malformed. */
        private int attributeEnd(int p) {
            int length = u4(b, p + 2);
            if (length < 0 || length > b.length - p - 6) {
                throw new IllegalArgumentException("attribute length out of the class file");
            }
            return p + 6 + length;
        }

        private int skipMembers(int p) {
            int members = u2(b, p);
            p += 2;
            for (int m = 0; m < members; m++) {
                int attributes = u2(b, p + 6);
                p += 8;
                for (int a = 0; a < attributes; a++) {
                    p = attributeEnd(p);
                }
            }
            return p;
        }

        private int countInCode(int start, int length) {
            int end = start + length;
            if (length < 0 || end > b.length) {
                throw new IllegalArgumentException("code past the class file");
            }
            if (!handles && !mayInvokeMatched(start, end)) {
                return 0;
            }
            int sites = 0;
            int p = start;
            while (p < end) {
                int op = b[p] & 0xFF;
                int len = LENGTH[op];
                if (len > 0) {
                    p += len; // the common case: an instruction that cannot name a rewritten entry
                    continue;
                }
                len = -len;
                switch (op) {
                    case INVOKESTATIC:
                        if (matched[u2(b, p + 1)] != 0) {
                            sites++;
                        }
                        break;
                    case INVOKEVIRTUAL:
                    case INVOKESPECIAL:
                    case INVOKEINTERFACE:
                        if (matched[u2(b, p + 1)] != 0) {
                            return -1;
                        }
                        break;
                    case INVOKEDYNAMIC:
                        if (handles) {
                            sites += bootstrapUses(u2(b, pool.offset[pool.index(u2(b, p + 1), INVOKE_DYNAMIC)] + 1), 0);
                        }
                        break;
                    case LDC:
                        if (handles) {
                            sites += constantUses(b[p + 1] & 0xFF, 0);
                        }
                        break;
                    case LDC_W:
                    case LDC2_W:
                        if (handles) {
                            sites += constantUses(u2(b, p + 1), 0);
                        }
                        break;
                    case TABLESWITCH: {
                        int q = p + 1 + ((4 - ((p + 1 - start) & 3)) & 3);
                        long n = (long) u4(b, q + 8) - u4(b, q + 4) + 1;
                        if (n < 0 || n > length) {
                            throw new IllegalArgumentException("bad tableswitch");
                        }
                        len = (int) (q + 12 + 4 * n - p);
                        break;
                    }
                    case LOOKUPSWITCH: {
                        int q = p + 1 + ((4 - ((p + 1 - start) & 3)) & 3);
                        long n = u4(b, q + 4);
                        if (n < 0 || n > length) {
                            throw new IllegalArgumentException("bad lookupswitch");
                        }
                        len = (int) (q + 8 + 8 * n - p);
                        break;
                    }
                    case WIDE:
                        len = (b[p + 1] & 0xFF) == IINC ? 6 : 4;
                        break;
                    default:
                        if (len == 0) {
                            throw new IllegalArgumentException("undefined opcode " + op);
                        }
                }
                p += len;
            }
            if (p != end) {
                throw new IllegalArgumentException("instruction past the end of the code");
            }
            return sites;
        }

        /**
         * False when no invoke opcode byte followed by a matched index occurs in the code, so that no
         * instruction uses a matched entry: a byte scan, cheaper than decoding the instructions.
         */
        private boolean mayInvokeMatched(int start, int end) {
            int[] m = matched;
            for (int k = start, last = end - 3; k <= last; k++) {
                int op = b[k] & 0xFF;
                if (op >= INVOKEVIRTUAL && op <= INVOKEINTERFACE) {
                    int index = (b[k + 1] & 0xFF) << 8 | b[k + 2] & 0xFF;
                    if (index < m.length && m[index] != 0) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** Rewritten handles in a loadable constant (ASM's {@code map}). */
        private int constantUses(int index, int depth) {
            int tag = pool.tag(index);
            if (tag == METHOD_HANDLE) {
                return matched[u2(b, pool.offset[index] + 2)] != 0 ? 1 : 0;
            }
            if (tag == DYNAMIC) {
                return bootstrapUses(u2(b, pool.offset[index] + 1), depth + 1);
            }
            return 0;
        }

        /** Rewritten handles in one BootstrapMethods entry: its method and its arguments. */
        private int bootstrapUses(int entry, int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("dynamic constants nested too deep");
            }
            int p = bootstrapEntries()[entry];
            int sites = constantUses(u2(b, p), depth);
            int args = u2(b, p + 2);
            for (int i = 0; i < args; i++) {
                sites += constantUses(u2(b, p + 4 + 2 * i), depth);
            }
            return sites;
        }

        private int[] bootstrapEntries() {
            if (bootstrap == null) {
                bootstrap = findBootstrapEntries();
            }
            return bootstrap;
        }

        /** Walks to the class attributes (past the methods, once) and reads BootstrapMethods. */
        private int[] findBootstrapEntries() {
            int p = pool.end + 6;
            p += 2 + 2 * u2(b, p);
            p = skipMembers(p);
            p = skipMembers(p);
            int attributes = u2(b, p);
            p += 2;
            for (int a = 0; a < attributes; a++) {
                if (utf8Equals(b, pool.offset[pool.index(u2(b, p), UTF8)], BOOTSTRAP_METHODS)) {
                    int n = u2(b, p + 6);
                    int[] entries = new int[n];
                    int q = p + 8;
                    for (int i = 0; i < n; i++) {
                        entries[i] = q;
                        q += 4 + 2 * u2(b, q + 2);
                    }
                    return entries;
                }
                p = attributeEnd(p);
            }
            throw new IllegalArgumentException("invokedynamic or dynamic constant without BootstrapMethods");
        }
    }

    /** The constant pool's entry offsets (of each tag byte) and where it ends. */
    private static final class Pool {
        final byte[] bytes;
        final int count;
        final int[] offset;
        final int end;

        Pool(byte[] b) {
            if (b.length < 10 || u4(b, 0) != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file");
            }
            bytes = b;
            count = u2(b, 8);
            offset = new int[count];
            int p = 10;
            for (int i = 1; i < count; i++) {
                offset[i] = p;
                int tag = b[p];
                switch (tag) {
                    case UTF8:
                        p += 3 + u2(b, p + 1);
                        break;
                    case INTEGER:
                    case FLOAT:
                        p += 5;
                        break;
                    case LONG:
                    case DOUBLE:
                        p += 9;
                        i++; // two slots; offset[i] stays 0
                        break;
                    case CLASS:
                    case STRING:
                    case METHOD_TYPE:
                    case MODULE:
                    case PACKAGE:
                        p += 3;
                        break;
                    case FIELDREF:
                    case METHODREF:
                    case INTERFACE_METHODREF:
                    case NAME_AND_TYPE:
                    case DYNAMIC:
                    case INVOKE_DYNAMIC:
                        p += 5;
                        break;
                    case METHOD_HANDLE:
                        p += 4;
                        break;
                    default:
                        throw new IllegalArgumentException("constant pool tag " + tag + " at entry " + i);
                }
            }
            if (p > b.length) {
                throw new IllegalArgumentException("constant pool past the class file");
            }
            end = p;
        }

        /** The tag of entry {@code i}, 0 for the second slot of a long/double; throws outside the pool. */
        int tag(int i) {
            if (i <= 0 || i >= count) {
                throw new IllegalArgumentException("constant pool index " + i + " of " + count);
            }
            return offset[i] == 0 ? 0 : bytes[offset[i]];
        }

        /** {@code i}, checked to be an entry with this tag. */
        int index(int i, int expectedTag) {
            if (tag(i) != expectedTag) {
                throw new IllegalArgumentException("constant pool entry " + i + " is not of tag " + expectedTag);
            }
            return i;
        }
    }

    private static boolean utf8Equals(byte[] b, int at, byte[] ascii) {
        if (u2(b, at + 1) != ascii.length) {
            return false;
        }
        int p = at + 3;
        for (int i = 0; i < ascii.length; i++) {
            if (b[p + i] != ascii[i]) {
                return false;
            }
        }
        return true;
    }

    private static int u2(byte[] b, int p) {
        return (b[p] & 0xFF) << 8 | b[p + 1] & 0xFF;
    }

    private static int u4(byte[] b, int p) {
        return (b[p] & 0xFF) << 24 | (b[p + 1] & 0xFF) << 16 | (b[p + 2] & 0xFF) << 8 | b[p + 3] & 0xFF;
    }

    private static int putU2(byte[] b, int p, int v) {
        b[p] = (byte) (v >>> 8);
        b[p + 1] = (byte) v;
        return p + 2;
    }

    private static int putUtf8(byte[] b, int p, byte[] ascii) {
        b[p] = UTF8;
        p = putU2(b, p + 1, ascii.length);
        System.arraycopy(ascii, 0, b, p, ascii.length);
        return p + ascii.length;
    }

    private static byte[] ensure(byte[] b, int size) {
        return size <= b.length ? b : java.util.Arrays.copyOf(b, Math.max(size, 2 * b.length));
    }

    private static byte[] ascii(String s) {
        return ClassBytes.ascii(s);
    }

    private static byte[] instructionLengths() {
        byte[] len = new byte[256];
        java.util.Arrays.fill(len, 0, 0xca + 1, (byte) 1); // nop .. breakpoint; refined below
        len[0x10] = 2; // bipush
        len[0x11] = 3; // sipush
        len[LDC] = 2;
        len[LDC_W] = 3;
        len[LDC2_W] = 3;
        java.util.Arrays.fill(len, 0x15, 0x19 + 1, (byte) 2); // xload
        java.util.Arrays.fill(len, 0x36, 0x3a + 1, (byte) 2); // xstore
        len[IINC] = 3;
        java.util.Arrays.fill(len, 0x99, 0xa8 + 1, (byte) 3); // if*, goto, jsr
        len[0xa9] = 2; // ret
        len[TABLESWITCH] = 0;
        len[LOOKUPSWITCH] = 0;
        java.util.Arrays.fill(len, 0xb2, 0xb8 + 1, (byte) 3); // get/put field/static, invokevirtual/special/static
        len[INVOKEINTERFACE] = 5;
        len[INVOKEDYNAMIC] = 5;
        len[0xbb] = 3; // new
        len[0xbc] = 2; // newarray
        len[0xbd] = 3; // anewarray
        len[0xc0] = 3; // checkcast
        len[0xc1] = 3; // instanceof
        len[WIDE] = 0;
        len[0xc5] = 4; // multianewarray
        len[0xc6] = 3; // ifnull
        len[0xc7] = 3; // ifnonnull
        len[0xc8] = 5; // goto_w
        len[0xc9] = 5; // jsr_w
        len[0xca] = 0; // breakpoint: not in class files (ASM refuses it too)
        for (int op : new int[] {LDC, LDC_W, LDC2_W, INVOKEVIRTUAL, INVOKESPECIAL, INVOKESTATIC, INVOKEINTERFACE,
                INVOKEDYNAMIC}) {
            len[op] = (byte) -len[op];
        }
        return len;
    }
}
