import pg from "pg";
import type { TestProject } from "vitest/node";

/**
 * Decides once per test run where the real Postgres comes from: a testcontainers container when
 * a Docker engine answers, otherwise the local server (127.0.0.1:5432, or TEST_DATABASE_URL).
 * Either way it says so in the test output, so nobody mistakes one for the other.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  let stop: (() => Promise<unknown>) | undefined;
  const stops: Array<() => Promise<unknown>> = [];
  let runtime: unknown;
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    runtime = await getContainerRuntimeClient();
  } catch (error) {
    console.log(
      `[test setup] No Docker engine (${(error as Error).message}): using the local Postgres at ${redact(adminUrl)}.`,
    );
  }
  if (runtime && !process.env.TEST_DATABASE_URL) {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const container = await new PostgreSqlContainer("postgres:16-alpine").start();
    adminUrl = container.getConnectionUri();
    stop = () => container.stop();
    console.log(
      `[test setup] Docker engine found: Postgres runs in a testcontainers container (${redact(adminUrl)}).`,
    );
  }
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    throw new Error(
      `[test setup] Postgres is not reachable at ${redact(adminUrl)}: ${(error as Error).message}. Start it (bash .ci/run does) or set TEST_DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  project.provide("postgresAdminUrl", adminUrl);
  project.provide(
    "redisUrl",
    await redisForTests(runtime !== undefined, (stopRedis) => stops.push(stopRedis)),
  );
  project.provide(
    "elasticsearchUrl",
    project.name === "integration"
      ? await elasticsearchForTests(runtime !== undefined, (stopSearch) => stops.push(stopSearch))
      : "",
  );
  // Only the integration tests search through OpenSearch; the end-to-end ones need no node.
  project.provide(
    "opensearchUrl",
    project.name === "integration" ? await openSearchForTests((stopSearch) => stops.push(stopSearch)) : "",
  );
  return async () => {
    await stop?.();
    for (const s of stops) await s();
  };
}

/** Redis likewise: a container with Docker, else the local server (or TEST_REDIS_URL). */
async function redisForTests(
  docker: boolean,
  onStop: (stop: () => Promise<unknown>) => void,
): Promise<string> {
  let url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  if (docker && !process.env.TEST_REDIS_URL) {
    const { GenericContainer } = await import("testcontainers");
    const container = await new GenericContainer("redis:7-alpine").withExposedPorts(6379).start();
    url = `redis://${container.getHost()}:${container.getMappedPort(6379)}`;
    onStop(() => container.stop());
    console.log(`[test setup] Redis runs in a testcontainers container (${url}).`);
  } else {
    console.log(`[test setup] Using the local Redis at ${url}.`);
  }
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `[test setup] Redis is not reachable at ${url}: ${(error as Error).message}. Start it (bash .ci/run does) or set TEST_REDIS_URL.`,
    );
  } finally {
    client.disconnect();
  }
  return url;
}

/**
 * A real OpenSearch node for the search tests: TEST_OPENSEARCH_URL when set, else one started
 * from Maven Central jars (infra/opensearch), which needs a JDK 21+ and Maven.
 */
async function openSearchForTests(onStop: (stop: () => Promise<unknown>) => void): Promise<string> {
  if (process.env.TEST_OPENSEARCH_URL) {
    console.log(`[test setup] Using the OpenSearch at ${process.env.TEST_OPENSEARCH_URL}.`);
    return process.env.TEST_OPENSEARCH_URL;
  }
  const { startOpenSearch } = await import("../../infra/opensearch/start.ts");
  const { freePortPair } = await import("./processes.ts");
  const started = Date.now();
  const cluster = await startOpenSearch({ httpPort: await freePortPair(100) });
  onStop(() => cluster.stop());
  console.log(
    `[test setup] Started a real OpenSearch node from Maven Central jars at ${cluster.url} in ${Date.now() - started} ms.`,
  );
  return cluster.url;
}

/**
 * A real Elasticsearch for the Elasticsearch engine: TEST_ELASTICSEARCH_URL when set; with a
 * Docker engine, the distribution's image in a testcontainers container; else a node started from
 * Maven Central jars (infra/elasticsearch), which needs a JDK 21+ and Maven.
 */
async function elasticsearchForTests(
  docker: boolean,
  onStop: (stop: () => Promise<unknown>) => void,
): Promise<string> {
  if (process.env.TEST_ELASTICSEARCH_URL) {
    console.log(`[test setup] Using the Elasticsearch at ${process.env.TEST_ELASTICSEARCH_URL}.`);
    return process.env.TEST_ELASTICSEARCH_URL;
  }
  if (!docker) {
    const { startElasticsearch } = await import("../../infra/elasticsearch/start.ts");
    const { freePortPair } = await import("./processes.ts");
    const started = Date.now();
    const cluster = await startElasticsearch({ httpPort: await freePortPair(100) });
    onStop(() => cluster.stop());
    console.log(
      `[test setup] Started a real Elasticsearch node from Maven Central jars at ${cluster.url} in ${Date.now() - started} ms.`,
    );
    return cluster.url;
  }
  const { GenericContainer, Wait } = await import("testcontainers");
  const container = await new GenericContainer("docker.elastic.co/elasticsearch/elasticsearch:9.1.0")
    .withEnvironment({
      "discovery.type": "single-node",
      "xpack.security.enabled": "false",
      ES_JAVA_OPTS: "-Xms512m -Xmx512m",
    })
    .withExposedPorts(9200)
    .withWaitStrategy(Wait.forHttp("/_cluster/health?wait_for_status=yellow", 9200).forStatusCode(200))
    .withStartupTimeout(180_000)
    .start();
  onStop(() => container.stop());
  const url = `http://${container.getHost()}:${container.getMappedPort(9200)}`;
  console.log(`[test setup] Elasticsearch runs in a testcontainers container at ${url}.`);
  return url;
}

function redact(url: string) {
  return url.replace(/:[^:@/]+@/, ":***@");
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    redisUrl: string;
    opensearchUrl: string;
    /** A real Elasticsearch node (integration tests only; empty elsewhere). */
    elasticsearchUrl: string;
  }
}
