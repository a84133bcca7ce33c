import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** A throwaway redis-server of our own, for tests that stop and restart Redis. */
export function redisServerAvailable(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

/**
 * A free port for a server a test starts, below the kernel's ephemeral range (freePortPair). Not
 * one from listen(0): the kernel hands such ports out again, so a test that stops its Redis and
 * starts it again later could find another test's Redis started meanwhile on the same port, and
 * its clients talking to that one (queued-indexing's "while Redis is down" once saw its entry
 * dispatched so).
 */
export async function freePort(): Promise<number> {
  return freePortPair(0);
}

/**
 * A port P such that P … P + nodes − 1 and the same from P + offset are all free (OpenSearch's
 * HTTP and transport ports, one each per node). Chosen below the kernel's ephemeral range: a port
 * the kernel hands out for another test's outgoing connection or listen(0) can then never be
 * taken between this check and the node's bind (a three-node cluster once failed to start so).
 */
export async function freePortPair(offset: number, nodes = 1): Promise<number> {
  const [ephemeralLow] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
    .trim()
    .split(/\s+/)
    .map(Number);
  const high = Math.min(ephemeralLow ?? 32768, 65536) - offset - nodes;
  const low = 10_000;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    const ports = [...new Set(Array.from({ length: nodes }, (_, i) => [port + i, port + offset + i]).flat())];
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return port;
  }
  throw new Error("no free block of ports below the ephemeral range");
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(false))
      .listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** `appendOnlyDir`: keep an append-only file there, as production must (the queues live in Redis). */
export async function startRedis(port: number, appendOnlyDir?: string): Promise<ChildProcess> {
  const persistence = appendOnlyDir
    ? ["--appendonly", "yes", "--dir", appendOnlyDir]
    : ["--appendonly", "no"];
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("redis-server did not start")), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGKILL");
  });
}

export /** The processes a process started (Linux /proc; elsewhere none are found). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
