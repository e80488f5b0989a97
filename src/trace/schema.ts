/** The Trace's JSON Schema, and `validateTrace` with precise errors (path + what was expected). */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { ProctorError } from "../errors/proctor-error.js";
import { TOOL_STATUSES, type Trace } from "./types.js";

const str = { type: "string" } as const;
const int = { type: "integer", minimum: 0 } as const;
const num = { type: "number", minimum: 0 } as const;
const status = { enum: [...TOOL_STATUSES] } as const;

function obj(required: string[], properties: Record<string, unknown>) {
  return { type: "object", required, properties, additionalProperties: false };
}

export const TRACE_SCHEMA = obj(["version", "source", "complete", "toolCalls", "subagents", "skills", "hooks", "replies", "errors"], {
  version: { const: 1 },
  source: obj(["kind"], {
    kind: { enum: ["transcript", "harness", "eval", "codex", "synthetic"] },
    agentVersion: str,
    sessionId: str,
    model: str,
    cwd: str,
    permissionMode: str,
    tools: { type: "array", items: str },
    mcpServers: { type: "array", items: obj(["name", "status"], { name: str, status: str }) },
  }),
  complete: { type: "boolean" },
  outcome: obj(["subtype", "isError"], { subtype: str, isError: { type: "boolean" }, stopReason: str, apiErrorStatus: { type: "integer" } }),
  toolCalls: {
    type: "array",
    items: obj(["id", "name", "input", "status", "agent"], {
      id: str,
      name: str,
      input: { type: "object" },
      result: str,
      status,
      agent: str,
      agentType: str,
      deniedBy: { enum: ["hook", "permission"] },
      effects: { type: "array" },
    }),
  },
  subagents: {
    type: "array",
    items: obj(["id", "type", "prompt", "calls", "status"], { id: str, type: str, description: str, prompt: str, calls: { type: "array", items: int }, output: str, status }),
  },
  skills: { type: "array", items: obj(["name", "callIndex", "agent", "status"], { name: str, callIndex: int, agent: str, status }) },
  hooks: {
    type: "array",
    items: obj(["name", "event", "exitCode", "outcome", "blocked", "output", "at"], {
      name: str,
      event: str,
      exitCode: { type: ["integer", "null"] },
      outcome: str,
      blocked: { type: "boolean" },
      decision: str,
      output: str,
      stdout: str,
      stderr: str,
      callId: str,
      at: int,
    }),
  },
  replies: { type: "array", items: obj(["text", "at"], { text: str, messageId: str, at: int }) },
  output: str,
  turns: int,
  usage: obj(["costUsd", "durationMs", "inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens"], {
    costUsd: num,
    durationMs: num,
    inputTokens: int,
    outputTokens: int,
    cacheCreationTokens: int,
    cacheReadTokens: int,
  }),
  files: obj(["source", "changes"], {
    source: { enum: ["snapshot", "tool-calls"] },
    changes: { type: "array", items: obj(["path", "change"], { path: str, change: { enum: ["created", "modified", "deleted"] }, content: str }) },
  }),
  modelRequests: {
    type: "array",
    items: obj(["agent", "system", "messages", "tools"], {
      agent: str,
      system: str,
      messages: str,
      tools: { type: "array", items: obj(["name", "description"], { name: str, description: str }) },
    }),
  },
  errors: { type: "array", items: obj(["kind", "message"], { kind: str, message: str, line: int }) },
});

let compiled: ValidateFunction | undefined;

/** One readable line per schema error: `trace.toolCalls[3].status: must be one of … (got "ok")`. */
export function formatSchemaErrors(errors: readonly ErrorObject[], root: string, data: unknown): string[] {
  return errors.map((e) => {
    const path = root + e.instancePath.replace(/\/(\d+)(?=\/|$)/g, "[$1]").replace(/\//g, ".");
    const got = valueAt(data, e.instancePath);
    switch (e.keyword) {
      case "required":
        return `${path}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
      case "additionalProperties":
        return `${path}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      case "enum":
        return `${path}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")} (got ${JSON.stringify(got)})`;
      default:
        return `${path}: ${e.message ?? e.keyword} (got ${JSON.stringify(got)?.slice(0, 80)})`;
    }
  });
}

function valueAt(data: unknown, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split("/").slice(1)) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return cur;
}

/** Schema errors for `value` as a Trace; empty when it is one. */
export function traceErrors(value: unknown): string[] {
  compiled ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(TRACE_SCHEMA);
  return compiled(value) ? [] : formatSchemaErrors(compiled.errors ?? [], "trace", value);
}

/** Check `value` is a Trace; throws a ProctorError listing every problem with its path. */
export function validateTrace(value: unknown): Trace {
  const errors = traceErrors(value);
  if (errors.length > 0) {
    throw new ProctorError("INVALID_TRACE", `not a valid Trace (${errors.length} problem${errors.length === 1 ? "" : "s"})`, { detail: errors.map((e) => `  ${e}`).join("\n") });
  }
  return value as Trace;
}
