/**
 * Scripts are validated when they are loaded — from a JSON/YAML file or from code — and every
 * problem is reported with the path of the bad field (`turns[2].tools[0].input: must be object`).
 */
import { requireString } from "../../src/errors/arguments.js";
import { ConfigError } from "../../src/errors/proctor-error.js";
import { parseDataText, readDataFile } from "../../src/io/read-data-file.js";
import { schemaChecker } from "../../src/schema/schema-errors.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import { encodeValue, isRegexJSON } from "../../src/match/codec.js";
import type { Script } from "./types.js";
import { asArray, asRecord } from "../../src/util/narrow.js";

const str = { type: "string" } as const;
const count = { type: "integer", minimum: 0 } as const;

function obj(required: string[], properties: Record<string, unknown>) {
  return { type: "object", required, properties, additionalProperties: false };
}

const toolUse = { name: { type: "string", minLength: 1 }, input: { type: "object" }, id: { type: "string", minLength: 1 } };

const turn = obj([], {
  text: str,
  thinking: str,
  tools: { type: "array", items: obj(["name"], toolUse) },
  blocks: {
    type: "array",
    items: {
      type: "object",
      required: ["type"],
      properties: { type: { enum: ["text", "thinking", "tool_use"] }, text: str, thinking: str, ...toolUse },
      additionalProperties: false,
    },
  },
  usage: obj([], { inputTokens: count, outputTokens: count, cacheCreationTokens: count, cacheReadTokens: count }),
  stopReason: { enum: ["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"] },
  delayMs: count,
  fault: {
    anyOf: [{ enum: ["overloaded", "server-error", "cut", "stall"] }, obj(["status"], { status: { type: "integer", minimum: 400, maximum: 599 }, type: str, message: str })],
  },
  times: { type: "integer", minimum: 1 },
  optional: { type: "boolean" },
});

const matcher = { anyOf: [str, obj(["$regex"], { $regex: str, $flags: str })] };

/** The JSON Schema of a script file (functions cannot live in files; RegExps are `{"$regex": …}`). */
export const SCRIPT_SCHEMA = obj(["turns"], {
  turns: { type: "array", items: turn },
  subagents: { type: "array", items: obj(["turns"], { type: { type: "string", minLength: 1 }, prompt: matcher, turns: { type: "array", items: turn } }) },
  sideReply: str,
  protocolTurns: { anyOf: [{ type: "boolean" }, obj([], { background: { type: "boolean" }, toolSearch: { type: "boolean" } })] },
});

const checkScript = schemaChecker(SCRIPT_SCHEMA, "");

/** Every problem with `value` as a script, one `path: problem` line each; empty when it is valid. */
export function scriptErrors(value: unknown): string[] {
  const data = toCheckable(value);
  const errors = checkScript(data).filter((e) => !e.includes("must match a schema in anyOf"));
  if (errors.length === 0) errors.push(...semanticErrors(asRecord(data)));
  return errors.map((e) => (e.startsWith(":") ? `script${e}` : e.replace(/^\./, "")));
}

/** Rules a schema says badly: a turn must say something, block fields must fit their type, RegExps must compile. */
function semanticErrors(script: Record<string, unknown>): string[] {
  const out: string[] = [];
  const checkTurns = (turns: unknown, path: string) =>
    asArray(turns).forEach((turn, i) => {
      const at = `${path}[${i}]`;
      if (turn === FUNCTION_TURN) return;
      const t = asRecord(turn);
      if (t.text === undefined && t.thinking === undefined && t.tools === undefined && t.blocks === undefined && t.fault === undefined) {
        out.push(`${at}: a turn needs text, thinking, tools, blocks or fault`);
      }
      if (t.fault !== undefined && (t.text !== undefined || t.thinking !== undefined || t.tools !== undefined || t.blocks !== undefined)) {
        out.push(`${at}: a fault turn answers with the fault instead of content; drop text/thinking/tools/blocks or the fault`);
      }
      if (t.times !== undefined && t.fault === undefined) out.push(`${at}.times: only a fault turn repeats; add a fault or drop times`);
      if (t.blocks !== undefined && (t.text !== undefined || t.thinking !== undefined || t.tools !== undefined)) {
        out.push(`${at}: use either blocks or the text/thinking/tools shorthand, not both`);
      }
      asArray(t.blocks).forEach((block, j) => {
        const b = asRecord(block);
        const need = b.type === "tool_use" ? "name" : String(b.type);
        const allowed = b.type === "tool_use" ? ["type", "name", "input", "id"] : ["type", need];
        if (b[need] === undefined) out.push(`${at}.blocks[${j}]: a ${b.type} block needs "${need}"`);
        for (const k of Object.keys(b)) if (!allowed.includes(k)) out.push(`${at}.blocks[${j}].${k}: not a field of a ${b.type} block`);
      });
    });
  checkTurns(script.turns, "turns");
  asArray(script.subagents).forEach((subagent, i) => {
    const s = asRecord(subagent);
    checkTurns(s.turns, `subagents[${i}].turns`);
    if (isRegexJSON(s.prompt)) {
      try {
        new RegExp(s.prompt.$regex, s.prompt.$flags ?? "");
      } catch (error) {
        out.push(`subagents[${i}].prompt: bad RegExp: ${(error as Error).message}`);
      }
    }
  });
  return out;
}

const FUNCTION_TURN = Object.freeze({ text: "(function turn)" });

/** A JSON-shaped copy: function turns become a placeholder, RegExps their JSON form. */
function toCheckable(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const swap = (turns: unknown) => (Array.isArray(turns) ? turns.map((t) => (typeof t === "function" ? FUNCTION_TURN : encodeValue(t))) : turns);
  const out: Record<string, unknown> = { ...value, turns: swap(value.turns) };
  if (Array.isArray(value.subagents)) {
    out.subagents = value.subagents.map((s) => (isPlainObject(s) ? { ...(encodeValue({ ...s, turns: [] }) as object), turns: swap(s.turns) } : s));
  }
  return out;
}

/**
 * Check a script built in code or parsed from a file; throws SCRIPT_INVALID listing every problem
 * with its path. File scripts get their `{"$regex"}` prompts turned into RegExps.
 */
export function validateScript(value: unknown, source = "script"): Script {
  const errors = scriptErrors(value);
  if (errors.length > 0) {
    throw new ConfigError("SCRIPT_INVALID", `${source} is not a valid script (${errors.length} problem${errors.length === 1 ? "" : "s"})`, {
      detail: `${errors.map((e) => `  ${e}`).join("\n")}\n  a script looks like {"turns": [{"tools": [{"name": "Bash", "input": {"command": "ls"}}]}, {"text": "Done."}]}`,
    });
  }
  const script = value as Script;
  if (!script.subagents?.some((s) => isRegexJSON(s.prompt))) return script;
  return {
    ...script,
    subagents: script.subagents.map((s) => (isRegexJSON(s.prompt) ? { ...s, prompt: new RegExp(s.prompt.$regex, s.prompt.$flags ?? "") } : s)),
  };
}

/** Parse script text (JSON, or YAML for `.yaml`/`.yml` names) and validate it. */
export function parseScript(text: string, source = "script"): Script {
  requireString("parseScript", "text", text, "the script text (JSON, or YAML for a .yaml/.yml source)");
  return validateScript(parseDataText(text, source, { format: scriptFormat(source), code: "SCRIPT_INVALID" }), source);
}

/** Read and validate a script file (`.json`, `.yaml`, `.yml`). */
export function loadScript(path: string): Script {
  return validateScript(readDataFile(path, { format: scriptFormat(path), what: "script", code: "SCRIPT_INVALID" }), path);
}

/** YAML for `.yaml`/`.yml` names (its parser loaded only then: it costs ~50 ms), else JSON. */
function scriptFormat(name: string): "json" | "yaml" {
  return /\.ya?ml$/i.test(name) ? "yaml" : "json";
}
