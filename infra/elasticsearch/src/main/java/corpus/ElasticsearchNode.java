package corpus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.node.ClasspathNode;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.transport.netty4.Netty4Plugin;

/**
 * Starts an Elasticsearch cluster of one or more nodes in this JVM, bound to 127.0.0.1, from the
 * server jar and the netty4 transport alone, plus our plugins for what the distribution's other
 * modules bring (GET /, French analysis).
 *
 * <p>Arguments: --nodes N --http-port P --cluster-name NAME --base-path DIR. Node i (1-based)
 * listens on HTTP port P + i - 1 and transport port P + 100 + i - 1. Prints "READY" once the
 * cluster has its N nodes and is yellow or better. Reads commands on standard input so tests can
 * take nodes down and up: "stop I", "start I", "quit".
 */
public final class ElasticsearchNode {
  private ElasticsearchNode() {}

  /** The plugins every node loads from the classpath. */
  static final List<Class<? extends Plugin>> PLUGINS =
      List.of(Netty4Plugin.class, RestRootPlugin.class, FrenchAnalysisPlugin.class);

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public static void main(String[] args) throws Exception {
    int nodes = 1;
    int httpPort = 9200;
    String clusterName = "legal-corpus";
    String basePath = "data/elasticsearch";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
        case "--http-port" -> httpPort = Integer.parseInt(args[i + 1]);
        case "--cluster-name" -> clusterName = args[i + 1];
        case "--base-path" -> basePath = args[i + 1];
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }

    Path base = Path.of(basePath).toAbsolutePath();
    findNativeLibraries(base.resolve("native"));
    // Elasticsearch logs through its own facade, bound to log4j here (console, warnings and errors).
    LogConfigurator.configureWithoutConfig(Settings.builder().put("logger.level", "WARN").build());

    Cluster cluster = new Cluster(nodes, httpPort, clusterName, base);
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::closeAll));
    try {
      // Nodes are built one after the other (netty's set-up is once per JVM and not thread-safe),
      // then started together: a cluster's first master election needs most of them.
      List<Node> built = new ArrayList<>();
      for (int n = 1; n <= nodes; n++) built.add(cluster.build(n));
      ExecutorService starter = Executors.newFixedThreadPool(nodes);
      List<Future<?>> starting = new ArrayList<>();
      for (int n = 1; n <= nodes; n++) {
        final int node = n;
        starting.add(starter.submit(() -> cluster.start(node, built.get(node - 1))));
      }
      for (Future<?> started : starting) started.get();
      starter.shutdown();
      waitForHealth(httpPort, nodes);
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
    System.out.println("READY");
    System.out.flush();

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) continue;
      String[] command = line.trim().split("\\s+");
      try {
        switch (command[0]) {
          case "stop" -> {
            cluster.stop(Integer.parseInt(command[1]));
            System.out.println("STOPPED " + command[1]);
          }
          case "start" -> {
            int node = Integer.parseInt(command[1]);
            cluster.start(node, cluster.build(node));
            waitForHealth(httpPort + node - 1, cluster.running());
            System.out.println("STARTED " + command[1]);
          }
          case "quit" -> {
            System.out.println("BYE");
            System.exit(0);
          }
          default -> System.out.println("UNKNOWN " + line);
        }
      } catch (Exception e) {
        System.out.println("FAILED " + line + ": " + e);
      }
      System.out.flush();
    }
    // Standard input closed (the parent died): stop rather than linger.
    System.exit(0);
  }

  /** The nodes of this JVM, node i (1-based) at index i - 1; null when stopped. */
  private static final class Cluster {
    private final Node[] nodes;
    private final int httpPort;
    private final String clusterName;
    private final Path basePath;

    Cluster(int count, int httpPort, String clusterName, Path basePath) {
      this.nodes = new Node[count];
      this.httpPort = httpPort;
      this.clusterName = clusterName;
      this.basePath = basePath;
    }

    Settings settings(int node) {
      Path home = basePath.resolve("node-" + node);
      Settings.Builder settings = Settings.builder()
          .put("cluster.name", clusterName)
          .put("node.name", "node-" + node)
          .put("path.home", home.toString())
          .put("path.data", home.resolve("data").toString())
          .put("path.logs", home.resolve("logs").toString())
          .put("network.host", "127.0.0.1")
          .put("http.port", httpPort + node - 1)
          .put("transport.port", httpPort + 100 + node - 1)
          .put("action.auto_create_index", false)
          .put("cluster.routing.allocation.disk.threshold_enabled", false);
      if (nodes.length == 1) {
        settings.put("discovery.type", "single-node");
      } else {
        List<String> seeds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int n = 1; n <= nodes.length; n++) {
          seeds.add("127.0.0.1:" + (httpPort + 100 + n - 1));
          names.add("node-" + n);
        }
        // Every node is told where the others listen; the first election is among all of them.
        settings.putList("discovery.seed_hosts", seeds).putList("cluster.initial_master_nodes", names);
      }
      return settings.build();
    }

    /** A node not started yet. */
    Node build(int node) {
      synchronized (this) {
        if (nodes[node - 1] != null) throw new IllegalStateException("node " + node + " is running");
      }
      return new ClasspathNode(settings(node), PLUGINS);
    }

    void start(int node, Node built) {
      try {
        Node started = built.start();
        synchronized (this) {
          nodes[node - 1] = started;
        }
      } catch (Exception e) {
        try {
          built.close();
        } catch (Exception ignored) {
          // reporting the first failure
        }
        throw new RuntimeException("node " + node + " did not start", e);
      }
    }

    void stop(int node) throws Exception {
      Node running;
      synchronized (this) {
        running = nodes[node - 1];
        nodes[node - 1] = null;
      }
      if (running == null) throw new IllegalStateException("node " + node + " is not running");
      running.close();
      running.awaitClose(30, TimeUnit.SECONDS);
    }

    synchronized int running() {
      int count = 0;
      for (Node node : nodes) if (node != null) count++;
      return count;
    }

    void closeAll() {
      // The last nodes would only log that the first ones went away.
      Configurator.setRootLevel(Level.ERROR);
      for (int n = 1; n <= nodes.length; n++) {
        try {
          if (nodes[n - 1] != null) stop(n);
        } catch (Exception ignored) {
          // exiting anyway
        }
      }
    }
  }

  /**
   * Elasticsearch's native access (zstd for the best_compression codec, process limits, memory
   * locking) loads its libraries from the distribution's lib/platform folder, which jars do not
   * have: a folder holding a link to the system's libzstd stands in for it. Without libzstd the
   * node still runs, native access off (one warning). The distribution's SIMD vector library
   * (libvec) is not published either: Lucene's own vector code is used.
   */
  private static void findNativeLibraries(Path folder) throws IOException {
    if (System.getProperty("es.nativelibs.path") != null) return;
    Files.createDirectories(folder);
    Path link = folder.resolve(System.mapLibraryName("zstd"));
    for (String candidate : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")) {
      Path library = Path.of(candidate, "libzstd.so.1");
      if (Files.exists(library) && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(link, library);
      }
    }
    System.setProperty("es.nativelibs.path", folder.toString());
    System.setProperty("org.elasticsearch.nativeaccess.enableVectorLibrary", "false");
  }

  /** Waits (up to three minutes) until the node on this HTTP port sees N nodes and a yellow or green cluster. */
  static void waitForHealth(int port, int nodes) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + port + "/_cluster/health?wait_for_nodes=" + nodes
        + "&wait_for_status=yellow&timeout=10s");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> response = HTTP.send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        last = response.body();
        if (response.statusCode() == 200 && last.contains("\"timed_out\":false")) return;
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the cluster did not reach " + nodes + " nodes and yellow: " + last);
  }
}
