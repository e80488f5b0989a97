/**
 * The validators the build generates (dist/src/schema/validators/) against their schemas compiled
 * by ajv at run time: same verdict and same errors on a corpus of valid inputs and of every
 * single-field mutation of them. Needs `npm run build` first (npm test builds).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { SCRIPT_SCHEMA, scriptErrors } from "../../mock-model/index.js";
import { AJV_OPTIONS, formatSchemaErrors, type CompiledValidator } from "../../src/schema/schema-errors.js";
import { parseTranscript } from "../../src/trace/transcript.js";
import { TRACE_SCHEMA } from "../../src/trace/schema.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const generatedDir = path.join(root, "dist", "src", "schema", "validators");
const require = createRequire(import.meta.url);

/** Scripts using every field the schema knows, in every form it allows. */
const SCRIPTS: unknown[] = [
  { turns: [{ text: "Done." }] },
  {
    turns: [
      { thinking: "hm", text: "Looking.", tools: [{ name: "Bash", input: { command: "ls" } }, { name: "Read", input: { file_path: "a" }, id: "toolu_x" }] },
      { blocks: [{ type: "tool_use", name: "Glob", input: {}, id: "t1" }, { type: "text", text: "then" }, { type: "thinking", thinking: "so" }], usage: { inputTokens: 5, outputTokens: 7, cacheCreationTokens: 0, cacheReadTokens: 1 }, stopReason: "tool_use" },
      { fault: "overloaded", times: 2 },
      { fault: { status: 503, type: "overloaded_error", message: "busy" } },
      { text: "Done.", delayMs: 10, stopReason: "end_turn" },
    ],
    subagents: [{ type: "Explore", prompt: { $regex: "config", $flags: "i" }, turns: [{ text: "found" }] }, { prompt: "review", turns: [{ text: "ok" }] }],
    sideReply: "fine",
  },
];

const traces = readdirSync(path.join(root, "test", "fixtures", "transcripts"))
  .filter((f) => f.endsWith(".jsonl"))
  .map((f) => JSON.parse(JSON.stringify(parseTranscript(readFileSync(path.join(root, "test", "fixtures", "transcripts", f), "utf8")))) as unknown);

const WRONG = [null, 0, -1, 1.5, 600, "", "x", true, [], {}, [{}], { zz: 1 }];

/** `value` with the thing at `at` replaced (or deleted when `to` is DELETE). */
const DELETE = Symbol("delete");
function withAt(value: unknown, at: readonly (string | number)[], to: unknown): unknown {
  if (at.length === 0) return to;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = at;
  const next = withAt(copy[head as string], rest, to);
  if (next === DELETE) Array.isArray(copy) ? copy.splice(head as number, 1) : delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

/** Every path in `value` (objects and arrays), up to `limit` of them. */
function paths(value: unknown, limit: number, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (out.length >= limit) return out;
  out.push(at);
  if (Array.isArray(value)) for (const [i, v] of value.entries()) paths(v, limit, [...at, i], out);
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) paths(v, limit, [...at, k], out);
  return out;
}

/** The seeds, and each seed with one field deleted, given a wrong value, or given an unknown sibling. */
function corpus(seeds: readonly unknown[], limit = 400): unknown[] {
  const out: unknown[] = [...seeds];
  for (const seed of seeds) {
    for (const at of paths(seed, limit)) {
      if (at.length > 0) out.push(withAt(seed, at, DELETE));
      for (const wrong of WRONG) out.push(withAt(seed, at, wrong));
      out.push(withAt(seed, [...at, "zz"], "unknown"));
    }
  }
  return out;
}

/** What a validator says about a value: valid, or its errors as users read them. */
function verdict(validate: CompiledValidator, value: unknown): string[] | "valid" {
  return validate(value) ? "valid" : formatSchemaErrors(validate.errors ?? [], "", value);
}

describe("build-time validators", () => {
  it("exist for the script and trace schemas (npm run build writes them)", () => {
    expect(existsSync(path.join(generatedDir, "index.cjs")), `no generated validators in ${generatedDir}: run npm run build`).toBe(true);
    const { keys } = require(path.join(generatedDir, "index.cjs")) as { keys: string[] };
    expect(keys).toContain(JSON.stringify(SCRIPT_SCHEMA));
    expect(keys).toContain(JSON.stringify(TRACE_SCHEMA));
  });

  it("agree with ajv compiling the schema at run time, on valid inputs and every single-field mutation", () => {
    const { keys } = require(path.join(generatedDir, "index.cjs")) as { keys: string[] };
    const inputs = [...corpus([...SCRIPTS, {}, null, [], "x"]), ...corpus(traces, 30)];
    for (const [i, key] of keys.entries()) {
      const generated = require(path.join(generatedDir, `v${i}.cjs`)) as CompiledValidator;
      const oracle = new Ajv(AJV_OPTIONS).compile(JSON.parse(key));
      let valid = 0;
      const disagreements: unknown[] = [];
      for (const input of inputs) {
        const expected = verdict(oracle, input);
        const got = verdict(generated, input);
        if (JSON.stringify(got) !== JSON.stringify(expected)) disagreements.push({ input, expected, got });
        if (expected === "valid") valid++;
      }
      expect(disagreements.slice(0, 3), `schema v${i}: ${disagreements.length} disagreements`).toEqual([]);
      expect(valid, `schema v${i}: the corpus has invalid inputs`).toBeLessThan(inputs.length);
      if (key === JSON.stringify(SCRIPT_SCHEMA)) expect(valid).toBeGreaterThanOrEqual(SCRIPTS.length);
      if (key === JSON.stringify(TRACE_SCHEMA)) expect(valid).toBeGreaterThanOrEqual(traces.length);
    }
  });

  it("give the built scriptErrors the same messages as the source, where ajv compiles at run time", async () => {
    const built = (await import(path.join(root, "dist", "mock-model", "script", "schema.js"))) as { scriptErrors: typeof scriptErrors };
    const inputs = corpus(SCRIPTS);
    expect(inputs.length).toBeGreaterThan(500);
    const disagreements = inputs.filter((input) => JSON.stringify(built.scriptErrors(input)) !== JSON.stringify(scriptErrors(input)));
    expect(disagreements.slice(0, 3)).toEqual([]);
    expect(built.scriptErrors({ turns: [{ text: "ok" }, { text: "x" }, { tools: [{ name: "Bash", input: "ls" }] }] })).toEqual([
      'turns[2].tools[0].input: must be object (got "ls")',
    ]);
  });
});
