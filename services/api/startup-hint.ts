import path from "node:path";
import type { Config } from "../core/config.ts";

/**
 * What `npm start` prints once listening: where it serves, and the two commands that make a key.
 * The commands name the same store as the server (issue 18, item 16): with DATA_DIR set, a bare
 * `npx corpus …` would open ./data, and its key would get 401 here.
 */
export function startupHint(cfg: Config, where: string, details: string): string {
  const own = cfg.DATA_DIR !== path.resolve("./data") && !cfg.DATABASE_URL;
  const quoted = /[^\w./-]/.test(cfg.DATA_DIR) ? `'${cfg.DATA_DIR.replaceAll("'", "'\\''")}'` : cfg.DATA_DIR;
  const prefix = own ? `DATA_DIR=${quoted} ` : "";
  return [
    `Legal corpus API listening on ${cfg.PUBLIC_URL} (store: ${where}; ${details}).`,
    `  API reference: ${cfg.PUBLIC_URL}/api/v1/docs`,
    cfg.DATABASE_URL
      ? "  Create a project and a key (in another terminal, with this server's DATABASE_URL set):"
      : "  Create a project and a key (in another terminal):",
    `    ${prefix}npx corpus projects create my-app`,
    `    ${prefix}npx corpus keys create --project my-app`,
    `  Then: curl -H "Authorization: Bearer <key>" "${cfg.PUBLIC_URL}/api/v1/search?q=rupture+conventionnelle"`,
  ].join("\n");
}
