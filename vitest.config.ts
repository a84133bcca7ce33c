import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "services/**/*.test.ts",
            "ingest/**/*.test.ts",
            "test/eval/**/*.test.ts",
            "test/bench/**/*.test.ts",
            "test/architecture/**/*.test.ts",
          ],
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/helpers/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Two cores: integration files load the full corpus, so they run one at a time.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/helpers/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
