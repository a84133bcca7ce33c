import { chmodSync, rmSync } from "node:fs";
import http from "node:http";
import { runCommand } from "../../cli/run.ts";
import type { CliRuntime } from "../../cli/runtime.ts";
import { type AdminLine, adminSocketPath } from "./admin-client.ts";
import type { AppContext } from "./context.ts";

/**
 * PGlite admits one process, so while the server holds the embedded store the `corpus` CLI hands
 * its command line to the server through this Unix socket, and the server runs the very same
 * commands on its own store. The socket lives in DATA_DIR with owner-only permissions: only the
 * user who runs the server can use it, and nothing listens on the network. Commands run one at a
 * time, in arrival order.
 */
export function startAdminSocket(ctx: AppContext): Promise<http.Server> {
  const socketPath = adminSocketPath(ctx.config.DATA_DIR);
  rmSync(socketPath, { force: true });
  let queue: Promise<unknown> = Promise.resolve();

  const server = http.createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/run") {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const send = (line: AdminLine) => res.write(`${JSON.stringify(line)}\n`);
      queue = queue.then(async () => {
        try {
          const { argv, cwd } = JSON.parse(body) as { argv: string[]; cwd: string };
          const rt: CliRuntime = {
            config: ctx.config,
            cwd,
            withStore: (work) => work(ctx.db),
            withLimiter: (work) => work(ctx.limiter),
            key: { hashSecret: () => ctx.keyHashSecret },
            runs: async () => ctx.runs,
            out: (text) => send({ stream: "out", text }),
            err: (text) => send({ stream: "err", text }),
            progress: { write: (text: string) => send({ stream: "progress", text }), isTTY: false },
          };
          ctx.logger.info({ command: argv.slice(0, 2).join(" ") }, "admin command");
          const { code } = await runCommand(argv, rt);
          send({ exit: code });
        } catch (error) {
          ctx.logger.error({ err: error }, "admin command failed");
          send({ stream: "err", text: `error: ${(error as Error).message}` });
          send({ exit: 1 });
        } finally {
          res.end();
        }
      });
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      chmodSync(socketPath, 0o600);
      resolve(server);
    });
  });
}
