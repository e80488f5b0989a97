import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    setupFiles: ["test/setup/shell-parser.ts"],
    globalSetup: ["test/setup/calibrate.ts"],
    // Real-binary runs cost ~1 CPU-second each; two workers match a 2-core machine.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
