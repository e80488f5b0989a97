/** Checks on which tools the agent decided to call, and how. A denied call still counts as used. */
import type { Trace, ToolCall } from "../trace/types.js";
import { findArgMismatch, matchArgs, type ArgMatcher } from "../match/arg-match.js";
import { formatValue } from "../match/codec.js";
import { defineTraceCheck, type Check } from "./check.js";
import { absenceUnprovable, describeMatcher, describeRange, listCalls, summarizeTools } from "./describe.js";
import { unknownToolName } from "./names.js";
import { parsePermissionRule, rulesAllowCall, ruleToolMatches } from "./permission-rules.js";
import { requireBounds, requireMatcher, requireName, requireNames } from "./validate.js";
import { at } from "../util/narrow.js";

interface IndexedCall {
  readonly call: ToolCall;
  readonly index: number;
}

/**
 * Calls claude makes to load a deferred tool's schema before the agent's first call of it: newer
 * claudes defer MCP tools and the model must search them first, older ones send them loaded. Such a
 * call reads tool definitions and nothing else, so a version-portable check does not count it among
 * "any tool" (`"*"`) nor hold it against `onlyTools`; naming it (`tool("ToolSearch")`) still sees it.
 */
export const PROTOCOL_TOOLS: ReadonlySet<string> = new Set(["ToolSearch"]);

/** The calls to `name` (`"*"`: any but PROTOCOL_TOOLS), optionally only those whose input matches `args`, with their indices. */
export function callsNamed(trace: Trace, name: string, args?: ArgMatcher): IndexedCall[] {
  const out: IndexedCall[] = [];
  trace.toolCalls.forEach((call, index) => {
    const named = name === "*" ? !PROTOCOL_TOOLS.has(call.name) : call.name === name;
    if (named && (args === undefined || matchArgs(call.input, args))) out.push({ call, index });
  });
  return out;
}

/** A failing verdict when a named tool cannot exist in this run (a typo is not evidence of absence). */
export function unknownNameVerdict(kind: string, trace: Trace, names: readonly string[]): { pass: false; message: string; expected: string } | undefined {
  for (const name of names) {
    const why = unknownToolName(trace, name);
    if (why) return { pass: false, message: `${kind}: ${why}`, expected: name };
  }
  return undefined;
}

const SHELL_RULE_TOOLS = new Set(["Bash", "Monitor"]);

/** `Bash(git:*)` → `Bash`: the tool a rule names. */
export function baseToolName(declaration: string): string {
  const paren = declaration.indexOf("(");
  return (paren === -1 ? declaration : declaration.slice(0, paren)).trim();
}

/** An exact name, `*`, or a trailing-`*` prefix glob (`mcp__github__*`). */
export function toolNameMatches(pattern: string, name: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith("*")) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

/** The agent invoked a tool by this name (regardless of result). */
export function tool(name: string): Check<Trace> {
  requireName("tool", "name", name);
  return defineTraceCheck("tool", { name }, (trace) => {
    const hits = callsNamed(trace, name);
    if (hits.length === 0) {
      const unknown = unknownNameVerdict("tool", trace, [name]);
      if (unknown) return unknown;
    }
    if (hits.length > 0) {
      return { pass: true, message: `${name} was called ${hits.length} time(s), first at #${at(hits, 0).index}`, callIndex: at(hits, 0).index };
    }
    return {
      pass: false,
      message: `expected a call to ${name}; the agent made ${summarizeTools(trace.toolCalls)}`,
      expected: name,
      actual: trace.toolCalls.map((c) => c.name),
    };
  });
}

/**
 * The agent used tool `name` with at least one call whose `input` matches `args` — the
 * argument half of the tool-call spy.
 */
export function toolWith(name: string, args: ArgMatcher): Check<Trace> {
  requireName("toolWith", "name", name);
  requireMatcher("toolWith", "args", args);
  return defineTraceCheck("toolWith", { name, args }, (trace) => {
    const named = callsNamed(trace, name);
    const hit = named.find(({ call }) => matchArgs(call.input, args));
    if (!hit) {
      const unknown = unknownNameVerdict("toolWith", trace, [name]);
      if (unknown) return unknown;
    }
    if (hit) return { pass: true, message: `${name} was called${describeMatcher(args)} at #${hit.index}`, callIndex: hit.index };
    if (named.length === 0) {
      return {
        pass: false,
        message: `expected a call to ${name}${describeMatcher(args)}; ${name} was never called (the agent made ${summarizeTools(trace.toolCalls)})`,
        expected: { name, args },
        actual: trace.toolCalls.map((c) => c.name),
      };
    }
    const lines = named.slice(0, 8).flatMap(({ call, index }) => {
      const miss = findArgMismatch(call.input, args);
      return miss ? [`    #${index} ${call.name}: ${miss.path} was ${formatValue(miss.actual, 80)}, expected ${formatValue(miss.expected, 60)}`] : [];
    });
    return {
      pass: false,
      message: `expected a call to ${name}${describeMatcher(args)}; none of its ${named.length} call(s) matched:\n${lines.join("\n")}`,
      expected: { name, args },
      actual: named.map(({ call }) => call.input),
      callIndex: at(named, 0).index,
    };
  });
}

/**
 * The agent did NOT use tool `name` — with `args`, only matching calls are forbidden. A denied
 * call still fails this check: the agent decided to make it.
 */
export function notTool(name: string, args?: ArgMatcher): Check<Trace> {
  requireName("notTool", "name", name);
  if (args !== undefined) requireMatcher("notTool", "args", args);
  return defineTraceCheck("notTool", { name, args }, (trace) => {
    const hits = callsNamed(trace, name, args);
    if (hits.length > 0) {
      const allDenied = hits.every(({ call }) => call.status === "denied");
      const hint = allDenied
        ? "\n  every such call was denied; if blocking it was the point, assert denied(...) instead"
        : "";
      return {
        pass: false,
        message: `expected no call to ${name}${describeMatcher(args)}; found ${hits.length}:\n${listCalls(hits)}${hint}`,
        expected: { name, args, count: 0 },
        actual: hits.map(({ call }) => call.input),
        callIndex: at(hits, 0).index,
      };
    }
    const unknown = unknownNameVerdict("notTool", trace, [name]);
    if (unknown) return unknown;
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm no call to ${name}: ${unprovable}` };
    return { pass: true, message: `no call to ${name}${describeMatcher(args)} among ${trace.toolCalls.length} call(s)` };
  });
}

/**
 * The agent used only tools drawn from `allowed`, each entry a Claude Code permission rule read as
 * Claude Code reads it (see permission-rules.ts): `Bash(git add:*)` allows `git add …` and nothing
 * else, every subcommand of a compound command must be allowed, `Read(./src/**)` allows reads under
 * src/. Fails closed on an empty trace. Spans the whole trace, subagents included. Claude's
 * deferred-tool loading (`ToolSearch`, see PROTOCOL_TOOLS) is never outside the declared set.
 */
export function onlyTools(allowed: readonly string[]): Check<Trace> {
  requireNames("onlyTools", "allowed", allowed);
  const rules = allowed.map(parsePermissionRule);
  const bases = rules.map((r) => r.tool);
  // Rules with a specifier are matched call by call; bare tool names once per distinct name.
  const scoped = rules.some((r) => r.specifier !== undefined);
  return defineTraceCheck("onlyTools", { allowed: [...allowed] }, (trace) => {
    if (trace.toolCalls.every((c) => PROTOCOL_TOOLS.has(c.name))) {
      return {
        pass: false,
        message:
          "onlyTools fails closed: the trace has no tool calls, so it cannot show the agent stayed inside its tools " +
          '(if a tool-free run is the expectation, assert toolCount("*", { max: 0 }))',
        expected: allowed,
        actual: [],
      };
    }
    // `mcp__server` names a server, not a tool: no typo check for it.
    const unknown = unknownNameVerdict("onlyTools", trace, bases.filter((b) => !b.startsWith("mcp__")));
    if (unknown) return unknown;
    // A run repeats a handful of names thousands of times: each name is matched once.
    const declared = new Map<string, boolean>();
    const outside: { call: ToolCall; index: number }[] = [];
    trace.toolCalls.forEach((call, index) => {
      let inside = declared.get(call.name);
      if (inside === undefined) {
        inside = rules.some((r) => r.specifier === undefined && ruleToolMatches(r.tool, call.name));
        if (inside || !scoped) declared.set(call.name, inside);
      }
      if (!inside && scoped) inside = rulesAllowCall(rules, call, trace.source.cwd);
      if (!inside && !PROTOCOL_TOOLS.has(call.name)) outside.push({ call, index });
    });
    if (outside.length === 0) {
      const unprovable = absenceUnprovable(trace);
      if (unprovable) return { pass: false, message: `cannot confirm the agent used only [${allowed.join(", ")}]: ${unprovable}` };
      return { pass: true, message: `all ${trace.toolCalls.length} call(s) used declared tools [${allowed.join(", ")}]` };
    }
    const names = [...new Set(outside.map(({ call }) => (SHELL_RULE_TOOLS.has(call.name) && typeof call.input.command === "string" ? `${call.name}(${call.input.command})` : call.name)))];
    return {
      pass: false,
      message:
        `agent used tool(s) outside its declared set: ${names.join(", ")} (declared: ${allowed.join(", ")})\n${listCalls(outside)}\n` +
        "  add the tool to the declaration if it is intended, or find why the agent reached for it",
      expected: allowed,
      actual: names,
      callIndex: at(outside, 0).index,
    };
  });
}

/** The number of calls to `name` (`"*"` for any tool) lies within bounds. */
export function toolCount(name: string, bounds: { readonly min?: number | undefined; readonly max?: number | undefined }): Check<Trace> {
  requireName("toolCount", "name", name);
  const { min, max } = requireBounds("toolCount", bounds);
  return defineTraceCheck("toolCount", { name, min, max }, (trace) => {
    const n = callsNamed(trace, name).length;
    if (n === 0) {
      const unknown = unknownNameVerdict("toolCount", trace, [name]);
      if (unknown) return unknown;
    }
    const range = describeRange(min, max);
    const what = name === "*" ? "tool calls" : `calls to ${name}`;
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      return {
        pass: false,
        message: `expected ${range} ${what}; the trace has ${n} (the agent made ${summarizeTools(trace.toolCalls)})`,
        expected: { min, max },
        actual: n,
      };
    }
    if (max !== undefined) {
      const unprovable = absenceUnprovable(trace);
      if (unprovable) return { pass: false, message: `cannot confirm at most ${max} ${what}: ${unprovable}`, actual: n };
    }
    return { pass: true, message: `${n} ${what}, within ${range}`, actual: n };
  });
}

/** The agent used an MCP tool `<server>/<tool>` (Claude Code names it `mcp__server__tool`). */
export function mcp(server: string, toolName: string): Check<Trace> {
  requireName("mcp", "server", server);
  requireName("mcp", "toolName", toolName);
  const full = `mcp__${server}__${toolName}`;
  return defineTraceCheck("mcp", { server, toolName }, (trace) => {
    const hit = trace.toolCalls.findIndex((c) => c.name === full);
    if (hit !== -1) return { pass: true, message: `${full} was called at #${hit}`, callIndex: hit };
    const mcpCalls = [...new Set(trace.toolCalls.filter((c) => c.name.startsWith("mcp__")).map((c) => c.name))];
    const status = trace.source.mcpServers?.find((s) => s.name === server)?.status;
    const serverNote =
      status === undefined
        ? trace.source.mcpServers
          ? `; server "${server}" was not configured (configured: ${trace.source.mcpServers.map((s) => s.name).join(", ") || "none"})`
          : ""
        : status === "connected"
          ? ""
          : `; server "${server}" reported status "${status}" at start`;
    return {
      pass: false,
      message: `expected a call to ${full}; MCP calls made: ${mcpCalls.join(", ") || "none"}${serverNote}`,
      expected: full,
      actual: mcpCalls,
    };
  });
}
