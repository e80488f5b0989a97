// Writes the Trace JSON of every recorded fixture, as the built dist reads it, beside this file.
// Run after `npm run build`: node test/trace/golden/generate.mjs
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { basename, join } from "node:path";
import { parseTranscript } from "../../../dist/src/index.js";
import { parseCodexJsonl } from "../../../dist/harness/index.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const claudeDir = fileURLToPath(new URL("../../fixtures/transcripts/", import.meta.url));
const codexDir = fileURLToPath(new URL("../../codex/fixtures/", import.meta.url));
for (const f of readdirSync(claudeDir).filter((f) => f.endsWith(".jsonl"))) {
  const trace = parseTranscript(readFileSync(join(claudeDir, f), "utf8"));
  writeFileSync(join(here, `${basename(f, ".jsonl")}.trace.json`), `${JSON.stringify(trace, null, 2)}\n`);
}
for (const f of readdirSync(codexDir).filter((f) => f.endsWith(".jsonl"))) {
  const trace = parseCodexJsonl(readFileSync(join(codexDir, f), "utf8"), { cwd: "/work" });
  writeFileSync(join(here, `codex-${basename(f, ".jsonl")}.trace.json`), `${JSON.stringify(trace, null, 2)}\n`);
}
