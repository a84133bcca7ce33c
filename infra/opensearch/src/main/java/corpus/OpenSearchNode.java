package corpus;

import static org.codelibs.opensearch.runner.OpenSearchRunner.newConfigs;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * Starts an OpenSearch cluster of one or more nodes in this JVM, bound to 127.0.0.1.
 *
 * <p>Arguments: --nodes N --http-port P --cluster-name NAME --base-path DIR. Node i (1-based)
 * listens on HTTP port P + i - 1. Prints "READY" once the cluster is yellow or better. Reads
 * commands on standard input so tests can take nodes down and up: "stop I", "start I", "quit".
 */
public final class OpenSearchNode {
  private OpenSearchNode() {}

  public static void main(String[] args) throws Exception {
    int nodes = 1;
    int httpPort = 9200;
    String clusterName = "legal-corpus";
    String basePath = "data/opensearch";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
        case "--http-port" -> httpPort = Integer.parseInt(args[i + 1]);
        case "--cluster-name" -> clusterName = args[i + 1];
        case "--base-path" -> basePath = args[i + 1];
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }

    OpenSearchRunner runner = new OpenSearchRunner();
    // The runner refuses ports above its maximum (9300 by default).
    runner.setMaxHttpPort(httpPort + nodes);
    final int firstPort = httpPort;
    // Transport ports are the HTTP ports plus 100; every node is told where the others listen.
    StringBuilder seeds = new StringBuilder();
    for (int n = 0; n < nodes; n++) seeds.append(n == 0 ? "" : ",").append("127.0.0.1:").append(httpPort + 100 + n);
    final String seedHosts = seeds.toString();
    runner.onBuild((index, settings) -> {
      settings.putList("discovery.seed_hosts", seedHosts.split(","));
      settings.put("network.host", "127.0.0.1");
      settings.put("http.port", String.valueOf(firstPort + index - 1));
      settings.put("transport.port", String.valueOf(firstPort + 100 + index - 1));
      settings.put("action.auto_create_index", "false");
      settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
    });
    runner.build(newConfigs().numOfNode(nodes).baseHttpPort(httpPort - 1).clusterName(clusterName).basePath(basePath).disableESLogger());
    runner.ensureYellow();
    System.out.println("READY");
    System.out.flush();

    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        runner.close();
      } catch (Exception ignored) {
        // exiting anyway
      }
    }));

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] command = line.trim().split("\\s+");
      try {
        switch (command[0]) {
          case "stop" -> {
            runner.getNode(Integer.parseInt(command[1]) - 1).close();
            System.out.println("STOPPED " + command[1]);
          }
          case "start" -> {
            runner.startNode(Integer.parseInt(command[1]) - 1);
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
}
