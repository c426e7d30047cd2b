// PbWorker.java: pb-run's worker protocol in one call, for Java 17 or later.
//
//   public class Bench {
//       static void oldWay() { ... }
//       static void newWay() throws Exception { ... }
//       public static void main(String[] args) {
//           System.exit(PbWorker.serve(Bench::oldWay, Bench::newWay));
//       }
//   }
//
//   javac -d classes PbWorker.java Bench.java
//   pb-run --worker 'java -cp classes Bench' > raw.tsv
//
// pb-run starts one worker per run and writes one request per observation
// on its standard input, "ARM<TAB>RUN<TAB>PAIR" (ARM a letter, A for the
// baseline); the worker does one unit of that arm's work and answers one
// line, "ok" or "error TEXT"; pb-run times the round trip. End of input
// ends the run. One fresh JVM per run: its start, class loading and JIT
// fall into the first observations, which pb-run's warm-up pairs absorb.
//
// serve(a, b) calls a for each request of arm A and b for arm B. An arm is
// a lambda or method reference that takes nothing (PbWorker.Arm, which may
// throw checked exceptions such as SQLException), or any Runnable. The
// answer is "ok" when it returns; an exception is answered on one line,
// "error " and what Throwable.toString() gives ("error
// java.sql.SQLException: the message"), and the run goes on. An error of
// the virtual machine itself (OutOfMemoryError, StackOverflowError) is not
// an answer: it ends the worker, and pb-run reports a worker that died.
// serve(Map.of('A', a, 'B', b, 'C', c)) serves more arms, 'A' to 'Z'. A
// request for an arm that was not given is answered "error no arm C: ...".
//
// serve() returns 0 at the end of the input, and 1 after one line on the
// standard error for a request that is not ARM<TAB>RUN<TAB>PAIR, input that
// ends inside a request, or an answer that cannot be written. Fields after
// PAIR, TAB-separated, are ignored (room for the protocol to grow).
//
// What the arms print cannot be taken for an answer. While it serves,
// System.out is System.err. Java cannot move a descriptor, so a child an
// arm starts with inheritIO() would write on the JVM's descriptor 1; pb-run
// therefore offers the answers a descriptor of their own, named by the
// environment variable PB_WORKER_ANSWER_FD, and serve() takes it (saying
// "hello" there first, as pb-worker(7) asks): descriptor 1 is then a pipe
// whose bytes pb-run copies to the worker's standard error. Run by hand,
// without that variable, the answers go to descriptor 1.
//
// Requests are read and answers written with one read(2) or write(2) each,
// through FileInputStream and FileOutputStream: nothing is buffered,
// nothing to flush. One file, the JDK's standard library only; compile it
// with your classes (it has no package: add your package's line to a copy
// when your code has one).

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

public final class PbWorker {
    /** One unit of an arm's work; it may throw, and the throw is its answer. */
    @FunctionalInterface
    public interface Arm extends Runnable {
        void call() throws Exception;

        /** An Arm is a Runnable too; a checked exception is wrapped. */
        @Override
        default void run() {
            try {
                call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static final int LINE_MAX = 4096; // a request or an answer, newline included
    static final String ANSWER_FD = "PB_WORKER_ANSWER_FD";
    private static final byte[] OK = {'o', 'k', '\n'};

    private PbWorker() {
    }

    /** Serve arm A with a, arm B with b, until the end of the input. */
    public static int serve(Arm a, Arm b) {
        return serveArms(new Arm[] {asArm(a), asArm(b)});
    }

    /** The same for any two Runnables. */
    public static int serve(Runnable a, Runnable b) {
        return serveArms(new Arm[] {asArm(a), asArm(b)});
    }

    /** Serve the arms of the map, keyed 'A' to 'Z' ('a' to 'z' alike). */
    public static int serve(Map<Character, ? extends Runnable> arms) {
        if (arms == null || arms.isEmpty())
            throw new IllegalArgumentException(
                "PbWorker.serve: no arm given (serve(Map.of('A', baseline, 'B', candidate)))");
        Arm[] table = new Arm[26];
        for (Map.Entry<Character, ? extends Runnable> e : arms.entrySet()) {
            Character key = e.getKey();
            int i = key == null ? -1 : Character.toUpperCase(key.charValue()) - 'A';
            if (i < 0 || i >= 26)
                throw new IllegalArgumentException("PbWorker.serve: arm '" + key
                    + "': arms are the letters A to Z (A the baseline, B the candidate, C ...)");
            if (table[i] != null)
                throw new IllegalArgumentException("PbWorker.serve: arm " + (char) ('A' + i)
                    + " given twice");
            table[i] = asArm(e.getValue());
        }
        return serveArms(table);
    }

    private static Arm asArm(Runnable r) {
        if (r == null)
            throw new IllegalArgumentException("PbWorker.serve: an arm is null");
        return r instanceof Arm ? (Arm) r : r::run;
    }

    private static int serveArms(Arm[] arms) {
        PrintStream stdout = System.out;
        stdout.flush();
        System.setOut(System.err);
        try (Answers out = Answers.open()) {
            if (out == null)
                return 1;
            return loop(out.stream, arms);
        } finally {
            System.err.flush();
            System.setOut(stdout);
        }
    }

    /** Where the answers go: PB_WORKER_ANSWER_FD's descriptor, or 1. */
    private static final class Answers implements AutoCloseable {
        final OutputStream stream;
        private final boolean own;

        private Answers(OutputStream stream, boolean own) {
            this.stream = stream;
            this.own = own;
        }

        static Answers open() {
            String fd = System.getenv(ANSWER_FD);
            if (fd == null || fd.isEmpty())
                return new Answers(new FileOutputStream(FileDescriptor.out), false);
            if (!fd.matches("[0-9]{1,9}")) {
                fail(ANSWER_FD + " is not a descriptor: '" + quote(fd.getBytes(StandardCharsets.UTF_8),
                    fd.length()) + "'");
                return null;
            }
            // The descriptor is opened anew (/dev/fd names it on Linux and
            // the BSDs): the JVM closes every descriptor above 2 in the
            // children it starts, so none of them holds it.
            try {
                FileOutputStream s = new FileOutputStream("/dev/fd/" + fd);
                s.write("hello\n".getBytes(StandardCharsets.US_ASCII));
                return new Answers(s, true);
            } catch (IOException e) {
                fail("cannot answer on descriptor " + fd + " (" + ANSWER_FD + "): " + e.getMessage());
                return null;
            }
        }

        @Override
        public void close() {
            if (!own)
                return;
            try {
                stream.close();
            } catch (IOException e) {
                // the run is over; nothing is left to answer
            }
        }
    }

    private static int loop(OutputStream out, Arm[] arms) {
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        byte[] buf = new byte[LINE_MAX];
        int len = 0;
        long nreq = 0;
        for (;;) {
            int nl = indexOf(buf, len, (byte) '\n');
            if (nl >= 0) {
                byte[] line = Arrays.copyOf(buf, nl);
                System.arraycopy(buf, nl + 1, buf, 0, len - nl - 1);
                len -= nl + 1;
                nreq++;
                int arm = armOf(line);
                if (arm < 0)
                    return fail("request " + nreq + " is not ARM<TAB>RUN<TAB>PAIR: '"
                        + quote(line, line.length) + "'");
                try {
                    out.write(answer(arm, arms));
                } catch (IOException e) {
                    return fail("cannot write the answer to request " + nreq + ": " + e.getMessage());
                }
                continue;
            }
            if (len == LINE_MAX)
                return fail("request " + (nreq + 1) + " is longer than " + (LINE_MAX - 1) + " bytes");
            int r;
            try {
                r = in.read(buf, len, LINE_MAX - len);
            } catch (IOException e) {
                return fail("cannot read the standard input: " + e.getMessage());
            }
            if (r < 0) {
                if (len > 0)
                    return fail("the input ended inside request " + (nreq + 1) + ": '"
                        + quote(buf, len) + "'");
                return 0;
            }
            len += r;
        }
    }

    private static int indexOf(byte[] b, int len, byte c) {
        for (int i = 0; i < len; i++)
            if (b[i] == c)
                return i;
        return -1;
    }

    /** 0 (A) to 25 (Z) for a request ARM<TAB>RUN<TAB>PAIR, else -1. */
    static int armOf(byte[] line) {
        int t1 = indexOf(line, line.length, (byte) '\t');
        if (t1 != 1 || line[0] < 'A' || line[0] > 'Z')
            return -1;
        int t2 = t1 + 1;
        while (t2 < line.length && line[t2] != '\t')
            t2++;
        if (t2 == line.length || !digits(line, t1 + 1, t2))
            return -1;
        int end = t2 + 1;
        while (end < line.length && line[end] != '\t')
            end++;
        return digits(line, t2 + 1, end) ? line[0] - 'A' : -1;
    }

    private static boolean digits(byte[] b, int from, int to) {
        if (from >= to)
            return false;
        for (int i = from; i < to; i++)
            if (b[i] < '0' || b[i] > '9')
                return false;
        return true;
    }

    static byte[] answer(int arm, Arm[] arms) {
        Arm fn = arm < arms.length ? arms[arm] : null;
        char letter = (char) ('A' + arm);
        if (fn == null) {
            int last = arms.length - 1;
            while (last > 0 && arms[last] == null)
                last--;
            String text = arm > last
                ? (last > 0 ? "error no arm " + letter + ": this worker serves arms A to " + (char) ('A' + last)
                            : "error no arm " + letter + ": this worker serves arm A only")
                : "error no arm " + letter + ": this worker has no function for it";
            return (text + "\n").getBytes(StandardCharsets.US_ASCII);
        }
        try {
            fn.call();
        } catch (VirtualMachineError e) {
            throw e; // the JVM cannot be trusted to go on
        } catch (Throwable e) {
            byte[] what = oneLine(describe(e), LINE_MAX - 8);
            byte[] line = new byte[6 + what.length + 1];
            System.arraycopy("error ".getBytes(StandardCharsets.US_ASCII), 0, line, 0, 6);
            System.arraycopy(what, 0, line, 6, what.length);
            line[line.length - 1] = '\n';
            return line;
        }
        return OK;
    }

    /** TYPE: MESSAGE as Throwable.toString() gives it; TYPE alone when
     * toString() fails: an arm's exception must not end the worker. */
    private static String describe(Throwable e) {
        try {
            String s = e.toString();
            return s == null || s.isEmpty() ? e.getClass().getName() : s;
        } catch (RuntimeException | StackOverflowError ignored) {
            return e.getClass().getName();
        }
    }

    /** text on one line, control characters escaped, at most limit bytes
     * of UTF-8 (cut at a character, "..." added). */
    static byte[] oneLine(String text, int limit) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n')
                sb.append("\\n");
            else if (c == '\r')
                sb.append("\\r");
            else if (c == '\t')
                sb.append("\\t");
            else if (c < 0x20 || c == 0x7f)
                sb.append(String.format("\\x%02x", (int) c));
            else
                sb.append(c);
        }
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        if (b.length <= limit)
            return b;
        int cut = limit - 3;
        while (cut > 0 && (b[cut] & 0xc0) == 0x80) // not inside a character
            cut--;
        byte[] out = Arrays.copyOf(b, cut + 3);
        out[cut] = out[cut + 1] = out[cut + 2] = '.';
        return out;
    }

    /** Up to 60 bytes of a bad request, for a message. */
    static String quote(byte[] b, int len) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len && i < 60; i++) {
            int c = b[i] & 0xff;
            if (c == '\t')
                sb.append("\\t");
            else if (c == '\n')
                sb.append("\\n");
            else if (c == '\r')
                sb.append("\\r");
            else if (c == '\\')
                sb.append("\\\\");
            else if (c < 0x20 || c >= 0x7f)
                sb.append(String.format("\\x%02x", c));
            else
                sb.append((char) c);
        }
        return len > 60 ? sb + "..." : sb.toString();
    }

    private static int fail(String what) {
        System.err.println("pb-worker: " + what);
        System.err.flush();
        return 1;
    }
}
