import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A search engine's cluster (one JVM, one or more nodes on 127.0.0.1) started from the jars Maven
 * Central publishes, for tests and local runs where there is no Docker engine: what
 * infra/opensearch and infra/elasticsearch share. Each holds a Maven project whose launcher class
 * takes `--nodes --http-port --base-path --cluster-name`, prints READY once the cluster is up, and
 * reads `stop I`, `start I` (answering STOPPED I, STARTED I) on stdin until it closes.
 * Needs Java 21 or later (JAVA_HOME, or a Temurin JDK under /usr/lib/jvm) and Maven.
 */

export interface JvmCluster {
  /** One URL per node: http://127.0.0.1:<port>. */
  urls: string[];
  url: string;
  stopNode(node: number): Promise<void>;
  startNode(node: number): Promise<void>;
  stop(): Promise<void>;
}

export interface JvmClusterOptions {
  nodes?: number;
  httpPort: number;
  /** Where the cluster keeps its data; a new temporary folder by default. */
  basePath?: string;
  /** JVM heap, e.g. "512m". */
  heap?: string;
  clusterName?: string;
  onLog?: (line: string) => void;
}

/** The engine's Maven project and how its launcher runs. */
export interface JvmEngine {
  /** Named in messages: "OpenSearch", "Elasticsearch". */
  name: string;
  /** The folder holding pom.xml and src/main/java. */
  projectDir: string;
  mainClass: string;
  /** JVM options beyond the heap. */
  jvmOptions?: string[];
}

function javaMajor(javaHome: string): number {
  const release = path.join(javaHome, "release");
  if (!existsSync(release)) return 0;
  const match = /JAVA_VERSION="(\d+)/.exec(readFileSync(release, "utf8"));
  return match ? Number(match[1]) : 0;
}

function listJvms(): string[] {
  const root = "/usr/lib/jvm";
  return existsSync(root) ? readdirSync(root).map((name) => path.join(root, name)) : [];
}

/** JAVA_HOME when it is recent enough, else the newest JDK 21+ under /usr/lib/jvm. */
export function findJavaHome(): string {
  const candidates = [process.env.JAVA_HOME, ...listJvms()].filter((home): home is string => Boolean(home));
  const suitable = candidates
    .filter((home) => javaMajor(home) >= 21)
    .sort((a, b) => javaMajor(b) - javaMajor(a));
  if (!suitable[0])
    throw new Error(
      "The search engines need Java 21 or later: set JAVA_HOME or install a JDK under /usr/lib/jvm.",
    );
  return suitable[0];
}

function javaSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    return entry.isDirectory() ? javaSources(file) : entry.name.endsWith(".java") ? [file] : [];
  });
}

const classpathFile = (engine: JvmEngine) => path.join(engine.projectDir, "target/classpath.txt");

/** Compiles the launcher and resolves its classpath with Maven, once (target/ is reused until a source changes). */
export function ensureBuilt(engine: JvmEngine, javaHome = findJavaHome()): void {
  const inputs = [
    path.join(engine.projectDir, "pom.xml"),
    ...javaSources(path.join(engine.projectDir, "src/main/java")),
  ];
  const built = existsSync(classpathFile(engine)) ? statSync(classpathFile(engine)).mtimeMs : 0;
  if (
    inputs.every((file) => built > statSync(file).mtimeMs) &&
    existsSync(path.join(engine.projectDir, "target/classes"))
  )
    return;
  execFileSync(
    "mvn",
    ["-q", "-B", "compile", "dependency:build-classpath", `-Dmdep.outputFile=${classpathFile(engine)}`],
    {
      cwd: engine.projectDir,
      env: { ...process.env, JAVA_HOME: javaHome },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  // Maven leaves an unchanged classpath file untouched; mark this build so the next start skips Maven.
  const now = new Date();
  utimesSync(classpathFile(engine), now, now);
}

function waitFor(
  name: string,
  child: ChildProcess,
  token: string,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not print ${token} in ${timeoutMs} ms:\n${output().slice(-2000)}`)),
      timeoutMs,
    );
    const check = () => {
      if (output().includes(token)) {
        clearTimeout(timer);
        child.stdout?.off("data", check);
        resolve();
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${output().slice(-2000)}`));
    });
    check();
  });
}

export async function startJvmCluster(engine: JvmEngine, options: JvmClusterOptions): Promise<JvmCluster> {
  const javaHome = findJavaHome();
  ensureBuilt(engine, javaHome);
  const nodes = options.nodes ?? 1;
  const temporary = options.basePath === undefined;
  const basePath = options.basePath ?? mkdtempSync(path.join(tmpdir(), `lc-${engine.name.toLowerCase()}-`));
  const classpath = `${path.join(engine.projectDir, "target/classes")}:${readFileSync(classpathFile(engine), "utf8").trim()}`;
  const heap = options.heap ?? (nodes > 1 ? "1g" : "512m");
  const child = spawn(
    path.join(javaHome, "bin/java"),
    [
      `-Xms${heap}`,
      `-Xmx${heap}`,
      ...(engine.jvmOptions ?? []),
      "-cp",
      classpath,
      engine.mainClass,
      "--nodes",
      String(nodes),
      "--http-port",
      String(options.httpPort),
      "--base-path",
      basePath,
      "--cluster-name",
      options.clusterName ?? "legal-corpus",
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    options.onLog?.(chunk.toString());
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const cleanUp = () => {
    // A cluster started on a temporary folder leaves nothing behind.
    if (temporary) rmSync(basePath, { recursive: true, force: true });
  };
  try {
    await waitFor(engine.name, child, "READY", 180_000, () => output);
  } catch (error) {
    // A node that never became ready must not linger.
    if (child.exitCode === null) child.kill("SIGKILL");
    cleanUp();
    throw error;
  }

  const command = async (line: string, expect: string) => {
    const mark = output.length;
    child.stdin?.write(`${line}\n`);
    await waitFor(engine.name, child, expect, 120_000, () => output.slice(mark));
  };
  const urls = Array.from({ length: nodes }, (_, i) => `http://127.0.0.1:${options.httpPort + i}`);
  return {
    urls,
    url: urls[0]!,
    stopNode: (node) => command(`stop ${node}`, `STOPPED ${node}`),
    startNode: (node) => command(`start ${node}`, `STARTED ${node}`),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.stdin?.end();
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
        await exited;
      }
      cleanUp();
    },
  };
}

/** `npm run <engine> -- --port 9200 --nodes 1 [--data dir]`: a cluster for local use, until Ctrl-C. */
export async function runFromCommandLine(engine: JvmEngine, argv: string[]): Promise<void> {
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1]! : fallback;
  };
  const cluster = await startJvmCluster(engine, {
    httpPort: Number(arg("port", "9200")),
    nodes: Number(arg("nodes", "1")),
    basePath: arg("data", path.resolve(`data/${engine.name.toLowerCase()}`)),
  });
  console.log(`${engine.name} is up: ${cluster.urls.join(", ")} (Ctrl-C stops it)`);
  process.on("SIGINT", () => void cluster.stop().then(() => process.exit(0)));
  process.on("SIGTERM", () => void cluster.stop().then(() => process.exit(0)));
}
