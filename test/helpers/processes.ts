import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

/** A throwaway redis-server of our own, for tests that stop and restart Redis. */
export function redisServerAvailable(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** A port P such that P and P + offset are both free (OpenSearch's HTTP and transport ports). */
export async function freePortPair(offset: number): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    if (port + offset > 65535) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once("error", () => resolve(false))
        .listen(port + offset, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free pair of ports");
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
