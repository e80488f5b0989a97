/** Hand-built traces for table-driven check tests. */
import type { ToolCall, Trace } from "../../src/index.js";

export type CallSpec = Partial<ToolCall> & { name: string };

let counter = 0;

/** A complete trace with sensible defaults; `calls` get ids and `main` attribution unless given. */
export function makeTrace(overrides: Partial<Omit<Trace, "toolCalls">> & { calls?: CallSpec[] } = {}): Trace {
  const { calls = [], ...rest } = overrides;
  const toolCalls: ToolCall[] = calls.map((c) => ({ id: c.id ?? `toolu_${++counter}`, input: {}, status: "success", agent: "main", ...c }));
  return {
    version: 1,
    source: { kind: "synthetic", cwd: "/work" },
    complete: true,
    toolCalls,
    subagents: [],
    skills: [],
    hooks: [],
    replies: [],
    errors: [],
    ...rest,
  };
}

export const usage = { costUsd: 0.02, durationMs: 1500, inputTokens: 1000, outputTokens: 200, cacheCreationTokens: 300, cacheReadTokens: 4000 };
