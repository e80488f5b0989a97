/**
 * A suite's MCP mock stand-ins, `<eval dir>/mocks/<server>/`, read and checked as claude 2.1.332
 * reads them: `<tool>.md` answers one tool (a fixed, canned body, or `type: agent`), `_server.md`
 * plays several tools as one agent (`type: agent`, `tools:`, `abort_when:`), `_tools.json` is the
 * server's saved tools/list. proctor adds `proctor.answers.json`: the agent-played answers scripted,
 * so an agent mock runs offline and the same in `proctor run` and under `proctor mock serve`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors/proctor-error.js";
import { isPlainObject } from "./case-schema.js";
import { type AnswerRule, type ExpectGuards, guardCount, guardRegexProblem, MAX_GUARDS } from "./mock-respond.js";
import { splitFrontmatter } from "./read.js";

export interface FixedResponder {
  readonly kind: "fixed";
  readonly body: string;
  readonly isError: boolean;
  readonly expect: ExpectGuards | null;
  /** The mock's directory (`{{file:…}}` fills read from it). */
  readonly baseDir: string;
  readonly sourceFile: string;
}

export interface AgentResponder {
  readonly kind: "agent";
  /** The author's description of the server it plays. */
  readonly prompt: string;
  readonly abortWhen: string | null;
  readonly expect: ExpectGuards | null;
  readonly baseDir: string;
  readonly sourceFile: string;
}

export type Responder = FixedResponder | AgentResponder;

/** A tool as the stand-in lists it. */
export interface MockToolListing {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** One mocked server: its responders by tool, listings, and proctor's scripted agent answers. */
export interface MockServer {
  readonly name: string;
  readonly dir: string;
  readonly responders: ReadonlyMap<string, Responder>;
  readonly listings: ReadonlyMap<string, MockToolListing>;
  /** `proctor.answers.json`: scripted replies of agent-played tools, by tool. */
  readonly answers: ReadonlyMap<string, readonly AnswerRule[]>;
}

export interface SuiteMocks {
  /** `<eval dir>/mocks`. */
  readonly dir: string;
  readonly servers: readonly MockServer[];
  /** What claude would warn about (no `_tools.json` entry for a tool). */
  readonly warnings: readonly string[];
}

/** The body claude's scaffold leaves in a mock until its author fills it. */
export const UNFILLED_STUB = "TODO: replace with the canned result this tool should return";
export const ANSWERS_FILE = "proctor.answers.json";
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const MOCK_KEYS = new Set(["type", "expect", "error", "tools", "abort_when"]);

const invalid = (message: string, input: string, hint = "fix the mock as the message says; docs/plugin-eval.md describes mocks/") => new ConfigError("SUITE_INVALID", message, { input, hint });

function checkExpect(raw: unknown, where: string, file: string): ExpectGuards | null {
  if (raw === undefined || raw === null) return null;
  const problems: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (!isPlainObject(value)) {
      problems.push(`${at || "expect"}: a map of input fields to guards (a literal, a list of literals, a type name or a /regex/)`);
      return;
    }
    for (const [key, guard] of Object.entries(value)) {
      const p = at ? `${at}.${key}` : key;
      if (Array.isArray(guard)) {
        if (guard.length === 0) problems.push(`expect.${p}: an empty list of allowed values can never be satisfied — list at least one`);
        else if (!guard.every((g) => typeof g === "string")) problems.push(`expect.${p}: list the allowed values as strings (quote numbers and booleans)`);
      } else if (isPlainObject(guard)) walk(guard, p);
      else if (typeof guard !== "string") problems.push(`expect.${p}: ${JSON.stringify(guard)} is not a guard — write it as a string (quote numbers and booleans)`);
      else {
        const problem = guardRegexProblem(guard);
        if (problem) problems.push(`expect.${p}: ${problem}`);
      }
    }
  };
  walk(raw, "");
  if (problems.length === 0 && guardCount(raw as ExpectGuards) > MAX_GUARDS) problems.push(`expect: ${guardCount(raw as ExpectGuards)} guards is more than the ${MAX_GUARDS} one responder may carry`);
  if (problems.length) throw invalid(`${where}: ${problems.join("; ")}`, file);
  return raw as ExpectGuards;
}

function readResponder(file: string, where: string, isServer: boolean): { responder: Responder; tools?: string[] } {
  const { fm, body } = splitFrontmatter(readFileSync(file, "utf8").replace(/^\uFEFF/, ""), file);
  for (const key of Object.keys(fm)) if (!MOCK_KEYS.has(key)) throw invalid(`${where}: unknown frontmatter key "${key}" (keys: type, expect, error, tools, abort_when)`, file);
  const type = fm.type ?? (isServer ? undefined : "fixed");
  if (type !== "fixed" && type !== "agent") {
    throw invalid(isServer ? `${where}: only \`type: agent\` is meaningful here (one agent answering several tools); put a fixed answer in <tool>.md` : `${where}: type is fixed or agent, not ${JSON.stringify(type)}`, file);
  }
  if (isServer && type !== "agent") throw invalid(`${where}: only \`type: agent\` is meaningful here (one agent answering several tools); put a fixed answer in <tool>.md`, file);
  if (!isServer && fm.tools !== undefined) throw invalid(`${where}: \`tools:\` belongs in _server.md (a <tool>.md answers the tool it is named after)`, file);
  const expect = checkExpect(fm.expect, where, file);
  const baseDir = path.dirname(file);
  if (body.includes(UNFILLED_STUB)) throw invalid(`${where}: still holds the scaffolded placeholder — replace it with the ${type === "agent" ? "description of the server it plays" : "canned result this tool should return"}`, file);
  if (type === "fixed") {
    if (fm.abort_when !== undefined) throw invalid(`${where}: \`abort_when:\` needs \`type: agent\`; a fixed responder guards its input with \`expect:\``, file);
    if (fm.error !== undefined && typeof fm.error !== "boolean") throw invalid(`${where}: error is true or false`, file);
    return { responder: { kind: "fixed", body: body.replace(/^\r?\n/, "").replace(/\s+$/, ""), isError: fm.error === true, expect, baseDir, sourceFile: file } };
  }
  if (fm.error !== undefined) throw invalid(`${where}: \`error:\` applies to fixed responders only`, file);
  if (!body.trim()) throw invalid(`${where}: an agent responder needs a description of the server it plays as its body`, file);
  if (fm.abort_when !== undefined && typeof fm.abort_when !== "string") throw invalid(`${where}: abort_when is text (a list of the off-the-rails conditions)`, file);
  const responder: AgentResponder = { kind: "agent", prompt: body.trim(), abortWhen: typeof fm.abort_when === "string" ? fm.abort_when : null, expect, baseDir, sourceFile: file };
  if (!isServer) return { responder };
  const tools = fm.tools;
  if (!Array.isArray(tools) || tools.length === 0 || !tools.every((t) => typeof t === "string" && SEGMENT.test(t) && !t.includes("__"))) {
    throw invalid(`${where}: an agent answering several tools needs \`tools: [...]\` (tool names: letters, digits, "_" and "-")`, file);
  }
  if (expect !== null && tools.length > 1) throw invalid(`${where}: \`expect:\` here would guard all ${tools.length} tools it answers; put the guard on the one tool it is meant for as mocks/<server>/<tool>.md`, file);
  return { responder, tools: tools as string[] };
}

function readJson(file: string, where: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw invalid(`${where}: not valid JSON (${(error as Error).message})`, file);
  }
}

function readListings(file: string, where: string): Map<string, MockToolListing> {
  const listings = new Map<string, MockToolListing>();
  if (!existsSync(file)) return listings;
  const raw = readJson(file, where);
  const list = isPlainObject(raw) && "result" in raw ? (raw as { result: unknown }).result : raw;
  const tools = isPlainObject(list) ? (list as { tools?: unknown }).tools : undefined;
  if (!Array.isArray(tools) || !tools.every((t) => isPlainObject(t) && typeof t.name === "string")) {
    throw invalid(`${where}: expected a saved tools/list response ({"tools": [{"name", "description", "inputSchema"}]})`, file);
  }
  for (const t of tools as { name: string; description?: unknown; inputSchema?: unknown }[]) {
    listings.set(t.name, { name: t.name, description: typeof t.description === "string" ? t.description : "", inputSchema: isPlainObject(t.inputSchema) ? t.inputSchema : { type: "object" } });
  }
  return listings;
}

function readAnswers(file: string, where: string, agentTools: ReadonlySet<string>): Map<string, AnswerRule[]> {
  const answers = new Map<string, AnswerRule[]>();
  if (!existsSync(file)) return answers;
  const raw = readJson(file, where);
  const hint = 'write {"<tool>": "<reply>"} or {"<tool>": [{"input_match": "<regex over the input JSON>", "reply": "<reply>"}, …]}; a reply starting "ERROR: " is a tool error, "ABORT: " ends the run';
  if (!isPlainObject(raw)) throw invalid(`${where}: an object of scripted replies by tool`, file, hint);
  for (const [tool, value] of Object.entries(raw)) {
    if (!agentTools.has(tool)) throw invalid(`${where}: ${JSON.stringify(tool)} is not an agent-played tool of this server (${[...agentTools].join(", ") || "none"})`, file, hint);
    const rules = typeof value === "string" ? [{ reply: value }] : value;
    if (!Array.isArray(rules) || !rules.every((r) => isPlainObject(r) && typeof r.reply === "string" && (r.input_match === undefined || typeof r.input_match === "string"))) {
      throw invalid(`${where}: the replies of ${JSON.stringify(tool)} are a string or a list of {input_match?, reply}`, file, hint);
    }
    answers.set(tool, rules as AnswerRule[]);
  }
  return answers;
}

/** Read `<evalRoot>/mocks`; undefined when the suite has none. */
export function readSuiteMocks(evalRoot: string): SuiteMocks | undefined {
  const dir = path.join(evalRoot, "mocks");
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) throw invalid("mocks is not a directory", dir);
  const servers: MockServer[] = [];
  const warnings: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const serverDir = path.join(dir, name);
    if (name.startsWith(".") || !statSync(serverDir).isDirectory()) continue;
    if (!SEGMENT.test(name)) throw invalid(`mocks/${name}/: name the directory after the server segment of the tool name (letters, digits, "_" and "-" only)`, serverDir);
    if (name.includes("__")) throw invalid(`mocks/${name}/: "__" is the tool-name separator and cannot appear in a mock directory name`, serverDir);
    const files = new Map<string, Responder>();
    let serverAgent: { responder: Responder; tools: string[] } | undefined;
    for (const entry of readdirSync(serverDir).sort()) {
      if (!entry.endsWith(".md")) continue;
      const file = path.join(serverDir, entry);
      const where = `mocks/${name}/${entry}`;
      if (entry === "_server.md") {
        const read = readResponder(file, where, true);
        serverAgent = { responder: read.responder, tools: read.tools ?? [] };
        continue;
      }
      const tool = entry.slice(0, -3);
      if (!SEGMENT.test(tool)) throw invalid(`${where}: name responder files after the tool (letters, digits, "_" and "-" only), e.g. list_issues.md`, file);
      if (tool.includes("__")) throw invalid(`${where}: "__" is the tool-name separator and cannot appear in a mocked tool name`, file);
      files.set(tool, readResponder(file, where, false).responder);
    }
    // _server.md's tools first, then each tool's own file, which wins (claude's order and precedence).
    const responders = new Map<string, Responder>();
    for (const tool of serverAgent?.tools ?? []) if (serverAgent) responders.set(tool, serverAgent.responder);
    for (const [tool, responder] of files) responders.set(tool, responder);
    if (responders.size === 0) continue;
    const listed = readListings(path.join(serverDir, "_tools.json"), `mocks/${name}/_tools.json`);
    const listings = new Map<string, MockToolListing>();
    const unlisted: string[] = [];
    for (const tool of responders.keys()) {
      const l = listed.get(tool);
      if (!l) unlisted.push(tool);
      listings.set(tool, l ?? { name: tool, description: "", inputSchema: { type: "object", additionalProperties: true } });
    }
    if (unlisted.length) warnings.push(`${name}: no _tools.json entry for ${unlisted.join(", ")} — served with a permissive schema and no description; save the server's tools/list response as mocks/${name}/_tools.json so the model sees the real tool`);
    const agentTools = new Set([...responders].filter(([, r]) => r.kind === "agent").map(([t]) => t));
    servers.push({ name, dir: serverDir, responders, listings, answers: readAnswers(path.join(serverDir, ANSWERS_FILE), `mocks/${name}/${ANSWERS_FILE}`, agentTools) });
  }
  return { dir, servers, warnings };
}
