import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";

/** The running server's local admin socket for this DATA_DIR (see services/runtime/admin-socket.ts). */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "admin.sock");
}

export interface AdminLine {
  stream?: "out" | "err" | "progress";
  text?: string;
  exit?: number;
}

/**
 * Sends a command line to the running server and relays its output as it comes.
 * Resolves to the exit code, or undefined when no server listens on the socket.
 */
export function forwardToServer(
  dataDir: string,
  argv: string[],
  cwd: string,
  onLine: (line: AdminLine) => void,
): Promise<number | undefined> {
  const socketPath = adminSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, path: "/run", method: "POST", headers: { "content-type": "application/json" } },
      (response) => {
        let buffer = "";
        let exit: number | undefined;
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          let newline = buffer.indexOf("\n");
          while (newline >= 0) {
            const line = JSON.parse(buffer.slice(0, newline)) as AdminLine;
            buffer = buffer.slice(newline + 1);
            if (line.exit !== undefined) exit = line.exit;
            else onLine(line);
            newline = buffer.indexOf("\n");
          }
        });
        response.on("end", () => resolve(exit ?? 1));
        response.on("error", reject);
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      // A socket file left by a killed server: nobody answers.
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(undefined);
      else reject(error);
    });
    request.end(JSON.stringify({ argv, cwd }));
  });
}
