#!/usr/bin/env node
/**
 * The `proctor` bin, built into one small CommonJS file (`dist/cli/proctor.cjs`). A command listed
 * in `standalone.ts` runs from its own single-file bundle; every other command line (including
 * usage, `--version` and unknown commands) goes to the ES-module CLI, `main.js`. Both run the same
 * dispatcher, so the routing changes how fast a command starts, never what it does. A standalone
 * command runs from V8's code cache once one has been written (`code-cache.ts`).
 */
import path from "node:path";
import { requireCommonJs } from "./code-cache.js";
import { STANDALONE_COMMANDS, commandNameOf } from "./standalone.js";

const name = commandNameOf(process.argv.slice(2));
if (name !== undefined && (STANDALONE_COMMANDS as readonly string[]).includes(name)) {
  requireCommonJs(path.join(import.meta.dirname, "standalone", `${name}.cjs`));
} else {
  import("./main.js").catch((error: unknown) => {
    process.stderr.write(`proctor: cannot load the CLI (${error instanceof Error ? error.message : String(error)}); reinstall proctor, or run \`npm run build\` in a checkout\n`);
    process.exitCode = 2;
  });
}
