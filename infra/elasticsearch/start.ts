import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ensureBuilt,
  type JvmCluster,
  type JvmClusterOptions,
  type JvmEngine,
  runFromCommandLine,
  startJvmCluster,
} from "../jvm-cluster.ts";

/**
 * A real Elasticsearch 9.1 cluster (one JVM, one or more nodes on 127.0.0.1) from the jars Maven
 * Central publishes, for tests and local runs where there is no Docker engine. The server jar
 * alone lacks the distribution's modules: our own plugins (src/main/java) answer `GET /` and bring
 * the French analysis the index settings use; see infra/README.md for what else is missing.
 */
const ELASTICSEARCH: JvmEngine = {
  name: "Elasticsearch",
  projectDir: path.dirname(fileURLToPath(import.meta.url)),
  mainClass: "corpus.ElasticsearchNode",
  // Among the options the distribution's launcher gives its JVM, those that matter here.
  jvmOptions: [
    "--enable-native-access=ALL-UNNAMED",
    "-Dio.netty.noUnsafe=true",
    "-Dio.netty.noKeySetOptimization=true",
    "-Dio.netty.recycler.maxCapacityPerThread=0",
    "-Dlog4j.shutdownHookEnabled=false",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j2.formatMsgNoLookups=true",
    "-Djava.locale.providers=CLDR",
    "-Dfile.encoding=UTF-8",
  ],
};

export type ElasticsearchCluster = JvmCluster;

/** Compiles the launcher and its plugins and resolves their jars, once (CI does it before the tests). */
export const buildElasticsearch = () => ensureBuilt(ELASTICSEARCH);

export const startElasticsearch = (options: JvmClusterOptions): Promise<ElasticsearchCluster> =>
  startJvmCluster(ELASTICSEARCH, options);

// `npm run elasticsearch -- --port 9200 --nodes 1`: a node for local use, until Ctrl-C.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await runFromCommandLine(ELASTICSEARCH, process.argv);
