/**
 * How an MCP mock stand-in of a `claude plugin eval` suite answers one call, with claude 2.1.332's
 * semantics: `expect:` guards over the call's input (a violation aborts the run), the fixed
 * answer's `{{input.x}}` and `{{file:…}}` fills, and the agent-played answer's `ERROR: ` / `ABORT: `
 * conventions. Pure but for reading fixture files, so the stand-in process, `proctor mock serve`
 * and the tests share one reading.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { RE2JS } from "re2js";

/** A guard per input field: a literal, a list of literals, a type name, a `/regex/`, or nested guards. */
export type ExpectGuards = { readonly [field: string]: string | readonly string[] | ExpectGuards };

/** What a call is answered with: its result, a tool error the agent should handle, or the run's end. */
export interface MockVerdict {
  readonly verdict: "ok" | "tool_error" | "abort";
  readonly text: string;
}

/** The type names a guard may be instead of a literal. */
const TYPE_NAMES = new Set(["string", "number", "bool", "boolean", "object", "array"]);
/** Fixture files a `{{file:…}}` fill may read are at most this big. */
const MAX_FIXTURE_BYTES = 1_048_576;
/** What one responder may carry, as claude caps it. */
export const MAX_GUARDS = 32;

/** The value at a dotted path from the input's root (array indexes as digits). */
export function valueAt(input: unknown, dotted: string): unknown {
  let at = input;
  for (const key of dotted.split(".")) {
    if (typeof at !== "object" || at === null) return undefined;
    if (Array.isArray(at)) {
      if (!/^\d+$/.test(key)) return undefined;
      at = at[Number(key)];
      continue;
    }
    at = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

const typeOf = (v: unknown) => (Array.isArray(v) ? "array" : v === null || v === undefined ? "missing" : typeof v === "boolean" ? "bool" : typeof v);
const sameLiteral = (v: unknown, literal: string) => (typeof v === "string" ? v === literal : typeof v === "number" || typeof v === "boolean" ? String(v) === literal : false);

function shown(v: unknown): string {
  if (v === undefined) return "(missing)";
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A `/regex/flags` guard's parts; undefined when the guard is not written as one. */
export function guardRegex(guard: string): { source: string; flags: string } | undefined {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(guard);
  return m ? { source: m[1] ?? "", flags: m[2] ?? "" } : undefined;
}

/**
 * Why a `/regex/` guard is not one claude accepts (its small dialect: no groups, alternation or
 * backreferences; only the i and s flags), or undefined when it is.
 */
export function guardRegexProblem(guard: string): string | undefined {
  const r = guardRegex(guard);
  if (!r) return undefined;
  if (!/^[is]*$/.test(r.flags)) return `${guard} — only the i and s flags are supported in expect: guards`;
  let inClass = false;
  for (let i = 0; i < r.source.length; i++) {
    const c = r.source[i];
    if (c === "\\") {
      if (/[1-9k]/.test(r.source[i + 1] ?? "")) return `${guard} — backreferences are not part of the expect: regex dialect`;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(" || c === ")" || c === "|") return `${guard} — expect: /regex/ guards use a small dialect (literals, ".", escapes, character classes, quantifiers on single atoms, ^ and $); no groups "(…)" or alternation "|"`;
  }
  try {
    RE2JS.compile(r.source);
  } catch (error) {
    return `invalid regular expression ${guard} (${(error as Error).message})`;
  }
  return undefined;
}

function regexTest(guard: { source: string; flags: string }, text: string): boolean {
  const flags = (guard.flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) | (guard.flags.includes("s") ? RE2JS.DOTALL : 0);
  return RE2JS.compile(guard.source, flags).matcher(text).find();
}

/** The first guard the input violates, in claude's words; null when it meets them all. */
export function expectViolation(input: unknown, guards: ExpectGuards, prefix = ""): string | null {
  for (const [key, guard] of Object.entries(guards)) {
    const at = prefix ? `${prefix}.${key}` : key;
    const value = valueAt(input, at);
    let problem: string | null = null;
    if (Array.isArray(guard)) {
      problem = guard.some((g) => sameLiteral(value, g)) ? null : `${at} = ${shown(value)} is not one of [${guard.join(", ")}]`;
    } else if (typeof guard === "object" && guard !== null) {
      problem = expectViolation(input, guard as ExpectGuards, at);
    } else if (typeof guard === "string") {
      const regex = guardRegex(guard);
      if (regex) {
        const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : null;
        problem = text !== null && regexTest(regex, text) ? null : `${at} = ${shown(value)} does not match ${guard}`;
      } else if (TYPE_NAMES.has(guard)) {
        problem = typeOf(value) === (guard === "boolean" ? "bool" : guard) ? null : `${at} = ${shown(value)} is not a ${guard}`;
      } else {
        problem = sameLiteral(value, guard) ? null : `${at} = ${shown(value)} is not "${guard}"`;
      }
    }
    if (problem !== null) return problem;
  }
  return null;
}

/** Guards counted as claude counts them against MAX_GUARDS. */
export function guardCount(guards: ExpectGuards): number {
  let n = 0;
  for (const g of Object.values(guards)) n += typeof g === "object" && g !== null && !Array.isArray(g) ? guardCount(g as ExpectGuards) : 1;
  return n;
}

const PLAIN_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]+$/;
const FILL = /\{\{\s*(input\.[A-Za-z0-9_.-]+|file:(?:[^{}]|\{input\.[A-Za-z0-9_.-]+\})+?)\s*\}\}/g;

/**
 * A fixed answer's body with its fills: `{{input.a.b}}` (a string as is, anything else as JSON,
 * missing as ""), `{{file:NAME}}` (a file beside the mock; NAME may hold `{input.x}` when that is
 * a plain file-name segment). A fill that cannot be made is a tool error, as in claude.
 */
export function fillAnswer(body: string, input: unknown, baseDir: string): { ok: true; text: string } | { ok: false; reason: string } {
  let out = "";
  let last = 0;
  for (const m of body.matchAll(FILL)) {
    out += body.slice(last, m.index);
    last = (m.index ?? 0) + m[0].length;
    const what = m[1] ?? "";
    if (what.startsWith("input.")) {
      const v = valueAt(input, what.slice(6));
      out += v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
      continue;
    }
    let problem: string | undefined;
    const name = what
      .slice(5)
      .trim()
      .replace(/\{input\.([A-Za-z0-9_.-]+)\}/g, (_, key: string) => {
        const v = valueAt(input, key);
        const text = v === undefined || v === null ? "" : String(v);
        if (!PLAIN_SEGMENT.test(text)) problem ??= `{input.${key}} = ${shown(v)} is not a plain file-name segment`;
        return text;
      });
    if (problem) return { ok: false, reason: problem };
    const file = path.resolve(baseDir, name);
    const rel = path.relative(baseDir, file);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return { ok: false, reason: `{{file:${name}}} names a path outside the mock's directory` };
    try {
      const st = statSync(file);
      if (!st.isFile()) return { ok: false, reason: `{{file:${name}}}: is not a regular file` };
      if (st.size > MAX_FIXTURE_BYTES) return { ok: false, reason: `{{file:${name}}}: is ${st.size} bytes, over the ${MAX_FIXTURE_BYTES}-byte fixture limit` };
      out += readFileSync(file, "utf8");
    } catch {
      return { ok: false, reason: `{{file:${name}}}: no such fixture` };
    }
  }
  return { ok: true, text: out + body.slice(last) };
}

/** An agent-played answer read as claude reads its responder's reply: `ERROR: …`, `ABORT: …`, else the result. */
export function readAgentReply(reply: string): MockVerdict {
  const trimmed = reply.trim();
  if (trimmed.startsWith("ABORT: ")) return { verdict: "abort", text: `abort_when condition met: ${trimmed.slice(7).trim()}` };
  if (trimmed.startsWith("ERROR: ")) return { verdict: "tool_error", text: trimmed.slice(7).trim() };
  return { verdict: "ok", text: reply };
}

/** A scripted answer for an agent-played tool: the first rule whose `input_match` finds the input's JSON. */
export interface AnswerRule {
  readonly input_match?: string | undefined;
  readonly reply: string;
}

/** The scripted reply to a call; undefined when no rule answers it. */
export function scriptedReply(rules: readonly AnswerRule[] | undefined, input: unknown): string | undefined {
  const json = JSON.stringify(input ?? {});
  return rules?.find((r) => r.input_match === undefined || RE2JS.compile(r.input_match).matcher(json).find())?.reply;
}

/** One line of the `mock_calls` grader target, as claude writes it: `{tool, input, output, isError?, verdict}`. */
export function mockCallLine(call: { tool: string; input: unknown; output?: string | undefined; verdict: MockVerdict["verdict"] }): string {
  return JSON.stringify({ tool: call.tool, input: call.input, ...(call.output !== undefined ? { output: call.output } : {}), ...(call.verdict === "tool_error" ? { isError: true } : {}), verdict: call.verdict });
}
