package dev.firn.flink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Flink (embedded mini-cluster) against Firn through Iceberg's Flink catalog, type rest,
 * authenticated with OAuth2 client credentials. Run by tests/engines/test_flink.py; each step
 * prints one line "FIRN-RESULT {json}" on stdout, everything else goes to stderr.
 *
 * <p>Arguments (key=value): uri, warehouse, namespace, rows, rate, keys, updates. The client
 * credential ("id:secret") comes from the environment variable FIRN_FLINK_CREDENTIAL, so it never
 * shows in a process listing; the token endpoint is {uri}/v1/oauth/tokens.
 *
 * <ol>
 *   <li>Flink SQL DDL through Firn: CREATE CATALOG (type iceberg, catalog-type rest), CREATE
 *       DATABASE, CREATE TABLE events (v2) and accounts (v2, PRIMARY KEY, upsert).
 *   <li>A streaming job: a rate-limited sequence source of `rows` rows at `rate` rows/s appends
 *       to events, checkpointing every second (the Iceberg sink commits on each checkpoint).
 *   <li>A streaming upsert job: `updates` rows (id = seq mod `keys`, balance = seq) into
 *       accounts, so later rows replace earlier ones through equality deletes, commits per
 *       checkpoint.
 *   <li>A batch upsert: key 0 gets balance -1, key `keys` is new with balance -2.
 *   <li>Batch reads: count/distinct/min/max of events, every row of accounts.
 * </ol>
 */
public final class FirnFlinkJob {
  private FirnFlinkJob() {}

  public static void main(String[] argv) throws Exception {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    Map<String, String> args = parse(argv);
    if ("stream-into".equals(args.get("mode"))) {
      streamInto(args);
      return;
    }
    String uri = need(args, "uri");
    String warehouse = need(args, "warehouse");
    String ns = need(args, "namespace");
    long rows = Long.parseLong(need(args, "rows"));
    long rate = Long.parseLong(need(args, "rate"));
    long keys = Long.parseLong(need(args, "keys"));
    long updates = Long.parseLong(need(args, "updates"));
    String catalogDdl = catalogDdl(uri, warehouse, "");
    String events = "firn.`" + ns + "`.events";
    String accounts = "firn.`" + ns + "`.accounts";

    // --- streaming: DDL, the checkpointed append, the checkpointed upsert -----------------------
    Configuration conf = miniClusterConfiguration();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
    env.setParallelism(1);
    env.enableCheckpointing(1000);
    StreamTableEnvironment stream = StreamTableEnvironment.create(env);
    stream.executeSql(catalogDdl);
    stream.executeSql("CREATE DATABASE firn.`" + ns + "`");
    stream.executeSql(
        "CREATE TABLE " + events + " (id BIGINT NOT NULL, payload STRING) "
            + "WITH ('format-version'='2')");
    stream.executeSql(
        "CREATE TABLE " + accounts + " (id BIGINT, balance BIGINT, source STRING, "
            + "PRIMARY KEY (id) NOT ENFORCED) "
            + "WITH ('format-version'='2', 'write.upsert.enabled'='true')");
    result("ddl",
        Map.of("catalog", "firn", "database", ns, "tables", List.of("events", "accounts")));

    stream.executeSql(sequenceSource("event_seq", rows, rate));
    long t0 = System.nanoTime();
    stream.executeSql(
        "INSERT INTO " + events
            + " SELECT seq, CONCAT('event-', CAST(seq AS STRING)) FROM event_seq").await();
    result("append", Map.of("rows", rows, "rate", rate, "seconds", seconds(t0)));

    stream.executeSql(sequenceSource("update_seq", updates, rate));
    t0 = System.nanoTime();
    stream.executeSql(
        "INSERT INTO " + accounts
            + " SELECT MOD(seq, " + keys + "), seq, 'stream' FROM update_seq").await();
    result("upsert-stream", Map.of("rows", updates, "keys", keys, "seconds", seconds(t0)));

    // --- batch: one more upsert, then the reads ------------------------------------------------
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.newInstance()
        .inBatchMode().withConfiguration(miniClusterConfiguration()).build());
    batch.executeSql(catalogDdl);
    t0 = System.nanoTime();
    batch.executeSql(
        "INSERT INTO " + accounts + " VALUES "
            + "(CAST(0 AS BIGINT), CAST(-1 AS BIGINT), 'batch'), "
            + "(CAST(" + keys + " AS BIGINT), CAST(-2 AS BIGINT), 'batch')").await();
    result("upsert-batch", Map.of("rows", 2, "seconds", seconds(t0)));

    List<Row> counts = collect(batch.executeSql(
        "SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM " + events));
    Row c = counts.get(0);
    Map<String, Object> read = new LinkedHashMap<>();
    read.put("count", c.getField(0));
    read.put("distinct", c.getField(1));
    read.put("min", c.getField(2));
    read.put("max", c.getField(3));
    result("read-events", read);

    List<Object> accountRows = new ArrayList<>();
    for (Row r : collect(batch.executeSql(
        "SELECT id, balance, source FROM " + accounts + " ORDER BY id"))) {
      accountRows.add(List.of(r.getField(0), r.getField(1), r.getField(2)));
    }
    result("read-accounts", Map.of("rows", accountRows));
  }

  /**
   * CREATE CATALOG firn for Firn at `uri`, logged in with FIRN_FLINK_CREDENTIAL when set (a server
   * with --auth off gets no token); `extra` adds properties (", 'k'='v'").
   */
  private static String catalogDdl(String uri, String warehouse, String extra) {
    String credential = System.getenv("FIRN_FLINK_CREDENTIAL");
    String auth = credential == null || credential.isEmpty() ? "" :
        ", 'rest.auth.type'='oauth2', 'credential'=" + quote(credential)
            + ", 'oauth2-server-uri'=" + quote(uri + "/v1/oauth/tokens");
    return "CREATE CATALOG firn WITH ("
        + "'type'='iceberg', 'catalog-type'='rest', "
        + "'uri'=" + quote(uri) + ", "
        + "'warehouse'=" + quote(warehouse) + auth + extra + ")";
  }

  /**
   * mode=stream-into (the three-engine scenario, tests/engines/test_three_engines.py): appends
   * rows ('flink', seq, 0) for seq = 1..`rows` at `rate` rows/s to the existing table `table`
   * (namespace.name; columns writer, seq, batch), checkpointing every second, and names itself
   * to the catalog with the header X-Client-Engine: `engine`.
   */
  private static void streamInto(Map<String, String> args) throws Exception {
    String[] table = need(args, "table").split("\\.", 2);
    long rows = Long.parseLong(need(args, "rows"));
    long rate = Long.parseLong(need(args, "rate"));
    String ddl = catalogDdl(need(args, "uri"), need(args, "warehouse"),
        ", 'header.X-Client-Engine'=" + quote(need(args, "engine")));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(miniClusterConfiguration());
    env.setParallelism(1);
    env.enableCheckpointing(1000);
    StreamTableEnvironment stream = StreamTableEnvironment.create(env);
    stream.executeSql(ddl);
    stream.executeSql(sequenceSource("mix_seq", rows, rate));
    long t0 = System.nanoTime();
    stream.executeSql("INSERT INTO firn.`" + table[0] + "`.`" + table[1] + "` "
        + "SELECT 'flink', seq, CAST(0 AS BIGINT) FROM mix_seq").await();
    result("stream-into", Map.of("rows", rows, "rate", rate, "seconds", seconds(t0)));
  }

  /**
   * Every listening socket of the mini-cluster on the loopback interface, and no restarts: with
   * checkpointing on, Flink's default is to restart a failed job forever.
   */
  private static Configuration miniClusterConfiguration() {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    // Hadoop's shutdown hook reads its configuration through the job's class loader, already
    // closed at exit: Flink's leak check would print a stack trace for nothing.
    conf.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
    conf.set(JobManagerOptions.BIND_HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.BIND_HOST, "127.0.0.1");
    return conf;
  }

  /** A bounded datagen table: seq = 1..count, `rate` rows per second. */
  private static String sequenceSource(String name, long count, long rate) {
    return "CREATE TEMPORARY TABLE " + name + " (seq BIGINT) WITH ("
        + "'connector'='datagen', 'fields.seq.kind'='sequence', "
        + "'fields.seq.start'='1', 'fields.seq.end'='" + count + "', "
        + "'rows-per-second'='" + rate + "')";
  }

  private static List<Row> collect(TableResult r) throws Exception {
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<Row> it = r.collect()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private static double seconds(long t0) {
    return Math.round((System.nanoTime() - t0) / 1e7) / 100.0;
  }

  private static Map<String, String> parse(String[] argv) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String a : argv) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value, got " + a);
      }
      out.put(a.substring(0, eq), a.substring(eq + 1));
    }
    return out;
  }

  private static String need(Map<String, String> args, String key) {
    String v = args.get(key);
    if (v == null) {
      throw new IllegalArgumentException("missing argument " + key + "=...");
    }
    return v;
  }

  /** A SQL string literal. */
  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  private static void result(String step, Map<String, ?> fields) {
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("step", step);
    all.putAll(fields);
    System.out.println("FIRN-RESULT " + json(all));
    System.out.flush();
  }

  private static String json(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    if (v instanceof Map) {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (b.length() > 1) {
          b.append(", ");
        }
        b.append(json(String.valueOf(e.getKey()))).append(": ").append(json(e.getValue()));
      }
      return b.append('}').toString();
    }
    if (v instanceof List) {
      StringBuilder b = new StringBuilder("[");
      for (Object o : (List<?>) v) {
        if (b.length() > 1) {
          b.append(", ");
        }
        b.append(json(o));
      }
      return b.append(']').toString();
    }
    StringBuilder b = new StringBuilder("\"");
    for (char ch : v.toString().toCharArray()) {
      switch (ch) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        default:
          if (ch < 0x20) {
            b.append(String.format("\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
      }
    }
    return b.append('"').toString();
  }
}
