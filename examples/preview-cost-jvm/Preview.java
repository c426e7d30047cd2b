// Preview.java: the worker of examples/preview-cost-jvm. Two ways to
// answer "what would the total be if category 7 got 10 % dearer?":
//
//   A, the rollback preview, over JDBC: BEGIN; UPDATE price SET p = p * 1.1
//      WHERE cat = 7; SELECT sum(p) FROM price; ROLLBACK;
//   B, the in-memory copy: the price table, loaded once when the JVM
//      starts, kept as exact scaled integers (each price times 10^s, s
//      its largest scale), and the same sum computed in Java from them,
//      exactly: as a bank keeps cents, so no BigDecimal is made per row.
//
// One JVM per run (pb-run --worker), so each run has its own JIT, its own
// heap and its own connection. Before serving, both arms are asked once
// and must give the same sum to the last digit. With an argument (aa),
// both arms do A's work: an A/A study, for pb-sense's known delays.
//
// The connection comes from PGHOST, PGPORT, PGUSER and PGDATABASE. The
// JDBC driver speaks TCP only (a unix socket needs junixsocket), so
// PGHOST must be a host: the Makefile starts the cluster with PG_TCP=1.
//
//   javac -d classes ../../share/pb/PbWorker.java Preview.java
//   pb-run --worker 'java -cp classes:/usr/share/java/postgresql.jar Preview'

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

public final class Preview {
    static final int CAT = 7;
    static final BigDecimal RISE = new BigDecimal("1.1");

    private final Connection conn;
    private final PreparedStatement update;
    private final PreparedStatement total;
    private final int[] cat;
    private final long[] scaled;   // each price times 10^scale, exact
    private final int scale;
    private final BigDecimal expected;

    private Preview(Connection conn) throws SQLException {
        this.conn = conn;
        conn.setAutoCommit(false);
        update = conn.prepareStatement("UPDATE price SET p = p * 1.1 WHERE cat = " + CAT);
        total = conn.prepareStatement("SELECT sum(p) FROM price");
        int n = 0;
        try (PreparedStatement count = conn.prepareStatement("SELECT count(*) FROM price");
             ResultSet rs = count.executeQuery()) {
            rs.next();
            n = rs.getInt(1);
        }
        cat = new int[n];
        BigDecimal[] price = new BigDecimal[n];
        try (PreparedStatement all = conn.prepareStatement("SELECT cat, p FROM price ORDER BY id");
             ResultSet rs = all.executeQuery()) {
            for (int i = 0; i < n && rs.next(); i++) {
                cat[i] = rs.getInt(1);
                price[i] = rs.getBigDecimal(2);
            }
        }
        conn.rollback();
        int s = 0;
        for (BigDecimal p : price)
            s = Math.max(s, p.stripTrailingZeros().scale());
        scale = s;
        scaled = new long[n];
        for (int i = 0; i < n; i++)   // exact, or ArithmeticException
            scaled[i] = price[i].movePointRight(scale).longValueExact();
        BigDecimal a = rollbackSum(), b = copySum();
        if (a == null || b == null || a.compareTo(b) != 0)
            throw new IllegalStateException("the arms disagree: rollback preview " + a
                + ", in-memory copy " + b);
        expected = a;
    }

    /** Arm A's work: the change applied, the total read, the change undone. */
    BigDecimal rollbackSum() throws SQLException {
        update.executeUpdate();
        BigDecimal sum;
        try (ResultSet rs = total.executeQuery()) {
            rs.next();
            sum = rs.getBigDecimal(1);
        }
        conn.rollback();
        return sum;
    }

    /** Arm B's work: the same total from the copy, exact: in units of
     * 10^-(scale + RISE's scale), a risen price is its scaled value times
     * RISE's unscaled one (11 for 1.1), any other times 10^RISE's scale;
     * an overflow throws rather than answer wrong. */
    BigDecimal copySum() {
        long rise = RISE.unscaledValue().longValueExact();
        long one = BigDecimal.ONE.movePointRight(RISE.scale()).longValueExact();
        long sum = 0;
        for (int i = 0; i < scaled.length; i++)
            sum = Math.addExact(sum, Math.multiplyExact(scaled[i], cat[i] == CAT ? rise : one));
        return BigDecimal.valueOf(sum, scale + RISE.scale());
    }

    // Each arm checks its answer, so that both do the same comparison and
    // neither can be skipped by the JIT as unused.
    void armA() throws SQLException {
        check("rollback preview", rollbackSum());
    }

    void armB() {
        check("in-memory copy", copySum());
    }

    private void check(String arm, BigDecimal got) {
        if (got.compareTo(expected) != 0)
            throw new IllegalStateException(arm + " answered " + got + ", not " + expected);
    }

    static Connection connect() throws SQLException {
        String host = env("PGHOST", "localhost");
        if (host.startsWith("/"))
            throw new IllegalArgumentException("PGHOST is a unix socket directory (" + host
                + "); JDBC needs TCP: start the cluster with PG_TCP=1 (share/dev/pgtmp.sh)");
        Properties props = new Properties();
        props.setProperty("user", env("PGUSER", System.getProperty("user.name")));
        String password = System.getenv("PGPASSWORD");
        if (password != null)
            props.setProperty("password", password);
        String url = "jdbc:postgresql://" + host + ":" + env("PGPORT", "5432") + "/"
            + env("PGDATABASE", props.getProperty("user"));
        return DriverManager.getConnection(url, props);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    public static void main(String[] args) {
        Preview p;
        try {
            p = new Preview(connect());
        } catch (Exception e) {
            System.err.println("Preview: " + e.getMessage());
            System.exit(1);
            return;
        }
        if (args.length > 0 && args[0].equals("check")) {
            System.out.println(p.expected.toPlainString());
            System.exit(0);
        }
        boolean aa = args.length > 0;
        System.exit(aa ? PbWorker.serve(p::armA, p::armA) : PbWorker.serve(p::armA, p::armB));
    }
}
