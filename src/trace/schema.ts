/** The Trace's JSON Schema, and `validateTrace` with precise errors (path + what was expected). */
import { schemaChecker } from "../schema/schema-errors.js";
import { TranscriptError } from "../errors/proctor-error.js";
import { DENIED_BY, TOOL_STATUSES, type Trace } from "./types.js";
import { HEALTH_ITEMS } from "../health/run-health.js";

const str = { type: "string" } as const;
const int = { type: "integer", minimum: 0 } as const;
const num = { type: "number", minimum: 0 } as const;
const status = { enum: [...TOOL_STATUSES] } as const;

const names = { type: "array", items: str };

/** One ObservedEffect (types.ts). */
const OBSERVED_EFFECT = obj(["kind", "syscall", "pid"], {
  kind: { enum: ["write", "create", "delete", "rename", "mkdir", "rmdir", "link", "chmod", "exec", "connect", "signal", "refused"] },
  syscall: str,
  path: str,
  to: str,
  fileType: { enum: ["fifo", "socket", "device"] },
  argv: { type: "array", items: str },
  address: str,
  signal: str,
  target: { type: "integer" },
  errno: str,
  pid: { type: "integer" },
});
const OBSERVED_EFFECTS = { type: "array", items: OBSERVED_EFFECT };

/** `trace.health` (RunHealth): the items' verdicts and what the run was held to. */
const HEALTH_SCHEMA = obj(["ok", "items"], {
  ok: { type: "boolean" },
  items: { type: "array", items: obj(["name", "status"], { name: { enum: [...HEALTH_ITEMS] }, status: { enum: ["ok", "failed", "off"] }, message: str, fix: str, reason: str }) },
  expected: obj([], {
    mcpServers: names,
    skills: names,
    agents: names,
    unusedTurns: { type: "array", items: obj(["agent", "remaining"], { agent: str, remaining: int }) },
    limits: obj([], { maxTurns: int, timeoutMs: num, maxBudgetUsd: num }),
  }),
});

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
    plugins: { type: "array", items: obj(["name", "path"], { name: str, path: str }) },
    skills: { type: "array", items: str },
    agents: { type: "array", items: str },
    startedAt: str,
    endedAt: str,
    gitBranch: str,
    hookRecord: { const: "partial" },
  }),
  complete: { type: "boolean" },
  outcome: obj(["subtype", "isError"], { subtype: str, isError: { type: "boolean" }, stopReason: str, apiErrorStatus: { type: "integer" } }),
  segments: {
    type: "array",
    items: obj(["index", "subtype", "isError"], { index: int, subtype: str, isError: { type: "boolean" }, turns: int, durationMs: num, output: str, origin: str }),
  },
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
      deniedBy: { enum: [...DENIED_BY] },
      denyingHook: int,
      turn: { type: "integer", minimum: 1 },
      background: obj(["status"], { status: str, summary: str }),
      effects: { type: "array" },
      ran: obj(["command", "by"], { command: str, by: { const: "hook" }, refused: str }),
      observed: OBSERVED_EFFECTS,
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
      cancelledAtEnd: { const: true },
    }),
  },
  replies: { type: "array", items: obj(["text", "at"], { text: str, messageId: str, at: int }) },
  output: str,
  turns: int,
  usage: obj(["inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens"], {
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
  outsideWrites: obj(["sandbox", "roots", "changes", "uncovered"], {
    sandbox: obj(["on"], { on: { type: "boolean" }, reason: str }),
    roots: { type: "array", items: obj(["name", "path"], { name: str, path: str, copiedFrom: str }) },
    changes: { type: "array", items: obj(["path", "change"], { path: str, change: { enum: ["created", "modified", "deleted"] }, content: str }) },
    uncovered: { type: "array", items: str },
    calibration: { oneOf: [obj(["version", "patterns"], { version: str, patterns: { type: "array", items: str } }), obj(["failed"], { failed: str })] },
  }),
  observation: obj(["mechanism", "others", "unattributed", "gaps"], {
    mechanism: { const: "strace" },
    others: {
      type: "array",
      items: obj(["owner", "effects"], {
        owner: {
          oneOf: [
            obj(["kind", "callId"], { kind: { const: "call" }, callId: str }),
            obj(["kind", "name", "command"], { kind: { const: "hook" }, name: str, command: str }),
            obj(["kind", "server"], { kind: { const: "mcp" }, server: str }),
            obj(["kind"], { kind: { const: "agent" } }),
          ],
        },
        effects: OBSERVED_EFFECTS,
      }),
    },
    unattributed: OBSERVED_EFFECTS,
    gaps: { type: "array", items: str },
  }),
  confinement: obj(["mode", "refused"], {
    mode: { enum: ["jail", "off"] },
    reason: str,
    refused: {
      type: "array",
      items: obj(["kind", "what", "target", "message"], { kind: { const: "confinement-refused" }, callId: str, owner: str, what: str, target: str, errno: str, message: str }),
    },
  }),
  modelRequests: {
    type: "array",
    items: obj(["agent", "system", "messages", "tools"], {
      agent: str,
      system: str,
      messages: str,
      inbound: str,
      tools: { type: "array", items: obj(["name", "description"], { name: str, description: str, deferred: { type: "boolean" } }) },
    }),
  },
  replay: obj(["recording", "divergences", "stoppedEarly"], {
    recording: str,
    stoppedEarly: { type: "boolean" },
    divergences: {
      type: "array",
      items: obj(["kind", "agent", "turn", "recorded", "now", "message"], {
        kind: { enum: ["result", "status", "hook", "call", "subagent", "turn", "outcome", "refused"] },
        agent: str,
        turn: int,
        callId: str,
        tool: str,
        recorded: str,
        now: str,
        message: str,
      }),
    },
    drift: { type: "array", items: obj(["callId", "changes", "recorded", "now"], { callId: str, tool: str, changes: { type: "array", items: str }, recorded: str, now: str }) },
    versions: obj([], { recorded: str, now: str }),
    preflight: {
      type: "array",
      items: obj(["kind", "names", "message"], { kind: { enum: ["version", "tools", "mcp", "plugins", "skills", "agents"] }, names: { type: "array", items: str }, message: str }),
    },
  }),
  errors: { type: "array", items: obj(["kind", "message"], { kind: str, message: str, line: int }) },
  health: HEALTH_SCHEMA,
});

const checkTrace = schemaChecker(TRACE_SCHEMA, "trace");

// Traces are immutable by convention: one found valid (or built by proctor's readers) stays so.
const knownValid = new WeakSet<object>();

/**
 * Record that `trace` is valid without checking it: for the Traces proctor's own readers build,
 * which are valid by construction (test/trace/reader-output.property.test.ts holds the readers to
 * that over damaged and reordered transcripts), so `proctor check` over many transcripts does not
 * validate each one it has just built.
 */
export function trustTrace<T extends Trace>(trace: T): T {
  knownValid.add(trace);
  return trace;
}

/** Schema errors for `value` as a Trace, then what the schema cannot say; empty when it is one. */
export function traceErrors(value: unknown): string[] {
  if (typeof value === "object" && value !== null && knownValid.has(value)) return [];
  const errors = checkTrace(value);
  const all = errors.length > 0 ? errors : consistencyErrors(value as Trace);
  if (all.length === 0 && typeof value === "object" && value !== null) knownValid.add(value);
  return all;
}

/** A denier belongs to a denied call, and a denying hook must be one of the trace's hooks. */
function consistencyErrors(trace: Trace): string[] {
  const out: string[] = [];
  trace.toolCalls.forEach((c, i) => {
    if (c.deniedBy !== undefined && c.status !== "denied") out.push(`trace.toolCalls[${i}].deniedBy: only a denied call has a denier (status is ${JSON.stringify(c.status)})`);
    if (c.denyingHook !== undefined && c.denyingHook >= trace.hooks.length) {
      out.push(`trace.toolCalls[${i}].denyingHook: ${c.denyingHook} is not an index of trace.hooks (${trace.hooks.length} hook${trace.hooks.length === 1 ? "" : "s"})`);
    }
  });
  return out;
}

/** Check `value` is a Trace; throws a ProctorError listing every problem with its path. */
export function validateTrace(value: unknown): Trace {
  const errors = traceErrors(value);
  if (errors.length > 0) {
    throw new TranscriptError("INVALID_TRACE", `not a valid Trace (${errors.length} problem${errors.length === 1 ? "" : "s"})`, {
      detail: errors.map((e) => `  ${e}`).join("\n"),
      hint: "pass the Trace of a run: readTranscript(file), (await runHarness(spec)).trace, or validateTrace(JSON.parse(text))",
    });
  }
  return value as Trace;
}
