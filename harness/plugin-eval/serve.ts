/**
 * `proctor mock serve`: the scripted mock model as a standalone server that many claude processes
 * share with one API key — as `claude plugin eval` runs them. Each claude session (its
 * `x-claude-code-session-id` header, else `metadata.user_id`) gets its own run of the script of the
 * case whose prompt it was started with; llm graders' judge calls are answered from the cases'
 * `judge` rules. Point any claude at it with ANTHROPIC_BASE_URL.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../src/errors/proctor-error.js";
import type { Script } from "../../src/eval/script-types.js";
import { isJudgePrompt, scriptedJudgeAnswer, type JudgeRules } from "../../src/plugin-eval/scripted-judge.js";
import type { Grader, PluginEvalSuite } from "../../src/plugin-eval/types.js";
import { startMockModel, type MockModel, type RawRequest } from "../../mock-model/server/start.js";
import { readSidecar, type CaseSidecar } from "./sidecar.js";
import { declaredServers } from "./shadow.js";
import { readSuiteMocks } from "../../src/plugin-eval/mocks.js";
import { scriptedReply, type AnswerRule } from "../../src/plugin-eval/mock-respond.js";

export interface MockServeOptions {
  /** A suite whose cases' sidecars script the sessions they start. */
  readonly suite?: PluginEvalSuite;
  /** The script of every session no case claims. */
  readonly script?: Script;
  readonly port?: number;
  readonly onRequest?: (request: RawRequest) => void;
}

export interface MockServer {
  readonly url: string;
  readonly port: number;
  /** Sessions seen, with the case each was given (or "(script)"). */
  readonly sessions: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

type Body = { system?: unknown; messages?: { role?: string; content?: unknown }[]; tools?: unknown[]; metadata?: { user_id?: unknown } };

/** The server an agent-played mock call stands in for (claude's responder prompt names it); undefined for other calls. */
function standInServer(body: Body): string | undefined {
  const system = typeof body.system === "string" ? body.system : Array.isArray(body.system) ? body.system.map((b: { text?: unknown }) => (typeof b?.text === "string" ? b.text : "")).join("\n") : "";
  return /You are standing in for the MCP server "([^"]+)"/.exec(system)?.[1];
}

/** The tool and arguments of an agent-played mock call: the last user message's "Current call: T\nArguments:\n{…}". */
function standInCall(body: Body): { tool: string; input: unknown } | undefined {
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
  const text = typeof last?.content === "string" ? last.content : Array.isArray(last?.content) ? last.content.map((b: { text?: unknown }) => (typeof b?.text === "string" ? b.text : "")).join("\n") : "";
  const m = /Current call: (\S+)\s*\nArguments:\s*\n([\s\S]*)$/.exec(text);
  if (!m) return undefined;
  try {
    return { tool: m[1] ?? "", input: JSON.parse(m[2] ?? "{}") };
  } catch {
    return { tool: m[1] ?? "", input: m[2] };
  }
}

/** The session a request belongs to: claude's session header, else the session in `metadata.user_id`. */
export function sessionOf(headers: RawRequest["headers"], body: Body): string | undefined {
  const header = headers["x-claude-code-session-id"];
  if (typeof header === "string" && header) return header;
  const user = body.metadata?.user_id;
  if (typeof user !== "string") return undefined;
  try {
    const parsed = JSON.parse(user) as { session_id?: unknown };
    if (typeof parsed.session_id === "string") return parsed.session_id;
  } catch {
    // older claude: "user_<hash>_account_<uuid>_session_<uuid>"
  }
  return /session_([0-9a-f-]{36})/.exec(user)?.[1];
}

/** The text blocks of the first user message. */
function firstUserTexts(body: Body): string[] {
  const first = body.messages?.find((m) => m.role === "user");
  const content = first?.content;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: { type?: unknown; text?: unknown }) => (b?.type === "text" && typeof b.text === "string" ? [b.text] : []));
}

function pluginName(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  try {
    const name = (JSON.parse(readFileSync(join(dir, ".claude-plugin", "plugin.json"), "utf8")) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Does a plugin add anything a session's first request shows (namespaced skills, commands, agents, MCP tools)? */
function showsInRequests(pluginDir: string): boolean {
  const hasEntries = (sub: string) => {
    try {
      return readdirSync(join(pluginDir, sub)).length > 0;
    } catch {
      return false;
    }
  };
  if (["skills", "commands", "agents"].some(hasEntries)) return true;
  try {
    return Object.keys(declaredServers(pluginDir)).length > 0;
  } catch {
    return false;
  }
}

/** Start the server (127.0.0.1; a free port unless one is given). */
export async function startMockServe(options: MockServeOptions): Promise<MockServer> {
  if (!options.suite && !options.script) throw new ConfigError("SCRIPT_INVALID", "proctor mock serve needs a suite (its cases' proctor.script.json) or a script for every session");
  const cases = (options.suite?.cases ?? []).map((c) => ({ c, sidecar: readSidecar(c) }));
  const scripted = cases.filter((x): x is { c: (typeof cases)[number]["c"]; sidecar: CaseSidecar } => x.sidecar !== undefined);
  const judgeGraders: { grader: Grader; rules: JudgeRules }[] = scripted.flatMap(({ c, sidecar }) => c.case.graders.map((grader) => ({ grader, rules: sidecar.judge })));
  const plugin = pluginName(options.suite?.pluginDir);
  // What a with-arm session's first request shows of the plugin: its namespaced skills, commands and
  // agents (`name:`), or its MCP tools (`mcp__plugin_<name>_`). A plugin that adds only hooks shows
  // neither, so its arms cannot be told apart; a case that scripts them differently is refused below.
  const pluginMarks = plugin === undefined ? [] : [`${plugin}:`, `mcp__plugin_${plugin.replace(/[^A-Za-z0-9_-]/g, "_")}_`];
  const pluginDir = options.suite?.pluginDir;
  const twoScripts = scripted.find(({ sidecar }) => sidecar.without !== undefined);
  if (pluginDir && twoScripts && !showsInRequests(pluginDir)) {
    throw new ConfigError("SCRIPT_INVALID", `proctor mock serve cannot tell the arms of plugin ${plugin ?? pluginDir} apart: it adds no skills, commands, agents or MCP servers, which is all a session's requests show of it, yet case ${JSON.stringify(twoScripts.c.case.name)} scripts the without arm differently`, {
      hint: "drop that case's `without` script, or run the suite with proctor run (which knows each run's arm)",
    });
  }
  // Agent-played MCP mocks answer from the suite's proctor.answers.json, as proctor run's stand-ins do.
  const mocks = options.suite ? readSuiteMocks(options.suite.root) : undefined;
  const answers = new Map<string, ReadonlyMap<string, readonly AnswerRule[]>>((mocks?.servers ?? []).map((s) => [s.name, s.answers]));
  const sessions = new Map<string, string>();
  let counter = 0;
  let mock: MockModel | undefined;

  /** The case a session's first request starts: its prompt is one of the first user message's text blocks. */
  const caseOf = (body: Body) => {
    const texts = firstUserTexts(body).map((t) => t.trim());
    return scripted.find(({ c }) => texts.includes(c.case.execution.prompt.trim()));
  };

  const route = (request: RawRequest): string | undefined => {
    let body: Body;
    try {
      body = JSON.parse(request.body) as Body;
    } catch {
      return undefined;
    }
    const server = mock as MockModel;
    const standIn = standInServer(body);
    if (standIn !== undefined) {
      const call = standInCall(body);
      const reply = call ? scriptedReply(answers.get(standIn)?.get(call.tool), call.input) : undefined;
      const key = `stand-in-${++counter}`;
      server.addRun({ turns: [], sideReply: reply ?? `ABORT: no scripted answer for the agent-played ${standIn}/${call?.tool ?? "?"} with this input — add one to mocks/${standIn}/proctor.answers.json` }, { apiKey: key });
      return key;
    }
    const judgePrompt = firstUserTexts(body).find(isJudgePrompt);
    if (judgePrompt !== undefined) {
      // A judge call: one tool-less answer, from the rule of the grader whose criterion it carries.
      const key = `judge-${++counter}`;
      server.addRun({ turns: [], sideReply: scriptedJudgeAnswer(judgePrompt, judgeGraders) }, { apiKey: key });
      return key;
    }
    const session = sessionOf(request.headers, body);
    if (session === undefined) return undefined;
    const key = `session-${session}`;
    if (sessions.has(session)) return key;
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const found = caseOf(body);
    if (!found && !hasTools) {
      // A side call before the session's first turn: answer it without binding the session.
      const side = `side-${++counter}`;
      server.addRun({ turns: [], ...(options.script?.sideReply ? { sideReply: options.script.sideReply } : {}) }, { apiKey: side });
      return side;
    }
    if (found) {
      const withPlugin = plugin === undefined || pluginMarks.some((mark) => request.body.includes(mark));
      const script = !withPlugin && found.sidecar.without ? found.sidecar.without : found.sidecar.script;
      server.addRun(script, { apiKey: key });
      sessions.set(session, found.c.case.name);
    } else if (options.script) {
      server.addRun(options.script, { apiKey: key });
      sessions.set(session, "(script)");
    } else {
      const message = `proctor mock serve: no case's prompt starts this session (cases: ${scripted.map(({ c }) => c.case.name).join(", ") || "none with a proctor.script.json"})`;
      server.addRun({ turns: [{ fault: { status: 400, type: "invalid_request_error", message } }] }, { apiKey: key });
      sessions.set(session, "(none)");
    }
    return key;
  };
  mock = await startMockModel({ ...(options.port !== undefined ? { port: options.port } : {}), route, ...(options.onRequest ? { onRequest: options.onRequest } : {}) });
  const server = mock;
  return { url: server.url, port: server.port, sessions, close: () => server.close() };
}
