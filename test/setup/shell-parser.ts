// proctor's own tests classify shell commands synchronously all over; load the parser (and the
// safety checks checkFromJSON builds on first use) once per file, as the vitest plugin does for
// users. (test/effects/lazy-parser.test.ts and test/checks/lazy-safety.test.ts check the
// behaviour without them, in a fresh process.)
import { beforeAll } from "vitest";
import { loadShellParser } from "../../src/effects/bash/parser.js";
import { loadSafetyChecks } from "../../src/checks/safety-loader.js";

beforeAll(async () => {
  await Promise.all([loadShellParser(), loadSafetyChecks()]);
});
