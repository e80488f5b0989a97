/**
 * The graders of a `claude plugin eval` case, with exactly claude 2.1.332's semantics: what each
 * target reads, first-occurrence tool order, `input_match` as a regex over the input's JSON, the
 * created-files list, the file glob, and the judge's three votes. Pure: the run's evidence comes in.
 */
import type { Trace } from "../trace/types.js";
import type { BaselineGrader, FileExistsGrader, Grader, GraderTarget, LlmGrader, RegexGrader, ToolOrderGrader, ToolRef, ToolUsedGrader } from "./types.js";

/** One tool call as the binary sees it: name, input and the input as JSON. */
export interface EvidenceCall {
  readonly name: string;
  readonly input: unknown;
  readonly inputText: string;
}

/** What graders read of one run. */
export interface RunEvidence {
  /** Every stream-json event of the run; undefined when the run's stream was not kept. */
  readonly events?: readonly unknown[] | undefined;
  readonly toolCalls: readonly EvidenceCall[];
  /** The text of the last assistant message that had text. */
  readonly lastMessage: string;
  /** Paths created in the run (relative to the work dir), sorted. Pre-existing files never appear. */
  readonly created: readonly string[];
  /** A file's text after the run, by path relative to the work dir; undefined when it does not exist. */
  readonly fileText?: (path: string) => string | undefined;
  /** The calls the run's MCP mock stand-ins answered, a JSON line each; undefined when no mocks were active. */
  readonly mockCalls?: readonly string[] | undefined;
  /** A file of the case, by path relative to its directory (a baseline grader's recorded trajectory); throws when unreadable. */
  readonly caseFile?: ((path: string) => string) | undefined;
}

/** One grader's verdict on one run, in the binary's words. */
export interface GraderResult {
  readonly name: string;
  readonly passed: boolean;
  readonly weight: number;
  readonly explanation: string;
  readonly judgeVotes?: readonly boolean[];
}

/** Asks the judge model one prompt; resolves with its reply text. */
export type AskJudge = (prompt: string) => Promise<string>;

/** The judge's votes per grading, as the binary casts them. */
export const JUDGE_VOTES = 3;

const failed = (g: Grader, explanation: string): GraderResult => ({ name: g.name, passed: false, weight: g.weight, explanation });
const targetName = (t: GraderTarget) => (typeof t === "object" ? `file ${t.path}` : t);

/** The binary's JSON of a value (a tool input, an event); "" when it cannot be written. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** The text a target reads, or why it cannot be read (the grader then fails). */
export function targetText(target: GraderTarget, run: RunEvidence): { text: string } | { unavailable: string } {
  if (typeof target === "object") {
    const text = run.fileText?.(target.path);
    return text === undefined ? { unavailable: `grader threw: focus file ${target.path} does not exist` } : { text };
  }
  switch (target) {
    case "last_message":
      return { text: run.lastMessage };
    case "files":
      return { text: run.created.join("\n") };
    case "mock_calls":
      if (run.mockCalls) return { text: run.mockCalls.join("\n") };
      return { unavailable: "no mock stand-ins were active in this run (--mocks off, or no mocks/ directory applies to this case) — a mock_calls grader has nothing to check" };
    default:
      if (!run.events) return { unavailable: "the trace target needs the run's stream-json events, which this run did not keep" };
      return { text: run.events.map(jsonText).join("\n") };
  }
}

export function gradeRegex(g: RegexGrader, run: RunEvidence): GraderResult {
  const read = targetText(g.target, run);
  if ("unavailable" in read) return failed(g, read.unavailable);
  const text = read.text;
  const once = new RegExp(g.pattern, g.flags);
  const all = text.match(new RegExp(g.pattern, g.flags.includes("g") ? g.flags : `${g.flags}g`)) ?? [];
  if (g.match === "contains") {
    const passed = once.test(text);
    return { name: g.name, passed, weight: g.weight, explanation: passed ? `matched ${g.pattern}` : `pattern not found in ${targetName(g.target)}` };
  }
  if (g.match === "not_contains") {
    const passed = !once.test(text);
    return { name: g.name, passed, weight: g.weight, explanation: passed ? "pattern absent as expected" : "pattern found (expected absent)" };
  }
  if (g.match.startsWith("count:")) {
    const n = Number.parseInt(g.match.slice(6), 10);
    return { name: g.name, passed: all.length === n, weight: g.weight, explanation: `found ${all.length} matches (expected ${n})` };
  }
  return failed(g, `unknown match mode "${g.match}" (use contains | not_contains | count:N)`);
}

const callMatches = (call: EvidenceCall, ref: ToolRef) => call.name === ref.tool && (!ref.input_match || new RegExp(ref.input_match).test(call.inputText));

export function gradeToolOrder(g: ToolOrderGrader, run: RunEvidence): GraderResult {
  const b = run.toolCalls.findIndex((c) => callMatches(c, g.before));
  const a = run.toolCalls.findIndex((c) => callMatches(c, g.after));
  if (b === -1) return failed(g, `"before" tool ${g.before.tool} never called`);
  if (a === -1) return failed(g, `"after" tool ${g.after.tool} never called`);
  const passed = b < a;
  return { name: g.name, passed, weight: g.weight, explanation: passed ? `${g.before.tool}@${b} precedes ${g.after.tool}@${a}` : `${g.before.tool}@${b} does NOT precede ${g.after.tool}@${a}` };
}

export function gradeToolUsed(g: ToolUsedGrader, run: RunEvidence): GraderResult {
  const ref = { tool: g.tool, input_match: g.input_match };
  const count = run.toolCalls.filter((c) => callMatches(c, ref)).length;
  const min = g.min ?? 1;
  const max = g.max ?? Number.POSITIVE_INFINITY;
  return { name: g.name, passed: count >= min && count <= max, weight: g.weight, explanation: `${g.tool} called ${count}x (expected ${min}..${max === Number.POSITIVE_INFINITY ? "∞" : max})` };
}

const GLOB_SPECIAL = new Set([".", "+", "^", "$", "{", "}", "(", ")", "|", "[", "]", "\\"]);

/** The binary's path glob, anchored: a star is one path segment's characters, two stars anything, two stars and a slash any leading dirs, ? one character. */
export function globRegExp(glob: string): RegExp {
  let source = "^";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob.charAt(i);
    if (ch === "*") {
      if (glob.charAt(i + 1) === "*") {
        if (glob.charAt(i + 2) === "/") {
          source += "(?:.*/)?";
          i += 2;
        } else {
          source += ".*";
          i++;
        }
      } else source += "[^/]*";
    } else if (ch === "?") source += ".";
    else if (GLOB_SPECIAL.has(ch)) source += `\\${ch}`;
    else source += ch;
  }
  return new RegExp(`${source}$`);
}

export function gradeFileExists(g: FileExistsGrader, run: RunEvidence): GraderResult {
  const re = globRegExp(g.path);
  const found = run.created.filter((p) => p.trim()).some((p) => re.test(p.trim()));
  const passed = found === g.exists;
  return {
    name: g.name,
    passed,
    weight: g.weight,
    explanation: passed ? `${g.path} ${g.exists ? "exists" : "absent"} as expected` : `${g.path} ${found ? "exists" : "missing"} (expected ${g.exists ? "present" : "absent"})`,
  };
}

/** The judge prompt of an llm grader, as the binary writes it. */
export function llmJudgePrompt(criteria: string, focus: GraderTarget, output: string): string {
  const shown = output === "" && focus === "files" ? "(no file changes)" : output;
  return `You are grading the output of a coding agent against a criterion.\n\nCriterion:\n${criteria}\n\n\nAgent output (${targetName(focus)}):\n${shown}\n\n\nRespond with exactly one word: PASS or FAIL.`;
}

/** A judge reply is a PASS vote when it says PASS and not FAIL (case-insensitive, whole words). */
export const isPassVote = (reply: string) => /\bPASS\b/i.test(reply) && !/\bFAIL\b/i.test(reply);

export async function gradeLlm(g: LlmGrader, run: RunEvidence, ask: AskJudge): Promise<GraderResult> {
  const read = targetText(g.focus, run);
  if ("unavailable" in read) return failed(g, read.unavailable);
  const prompt = llmJudgePrompt(g.criteria, g.focus, read.text);
  const votes: boolean[] = [];
  for (let i = 0; i < JUDGE_VOTES; i++) votes.push(isPassVote(await ask(prompt)));
  const passed = votes.filter(Boolean).length > votes.length / 2;
  return { name: g.name, passed, weight: g.weight, explanation: `judge votes: ${votes.map((v) => (v ? "PASS" : "FAIL")).join(" ")}`, judgeVotes: votes };
}

/** The baseline judge prompt, as claude 2.1.332 writes it. */
export function baselineJudgePrompt(criteria: string, baseline: string, trajectory: string): string {
  return `You are comparing a NEW coding-agent trajectory against a BASELINE.\n\nCriterion:\n${criteria}\n\n\nBASELINE trajectory:\n${baseline}\n\n\nNEW trajectory:\n${trajectory}\n\n\nDoes the NEW trajectory satisfy the criterion at least as well as the BASELINE?\n\nRespond with exactly one word: PASS or FAIL.`;
}

/** A baseline grader: the judge compares the run's trace with the recorded trajectory (a JSON-lines file of the case), three votes. */
export async function gradeBaseline(g: BaselineGrader, run: RunEvidence, ask: AskJudge): Promise<GraderResult> {
  let baseline: string;
  try {
    if (!run.caseFile) throw new Error("this run cannot read the case's files");
    // A recorded trajectory is JSON lines (a trace.jsonl); each event is shown compact, a line each.
    baseline = run
      .caseFile(g.baseline_file)
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.stringify(JSON.parse(line)))
      .join("\n");
  } catch (error) {
    return failed(g, `failed to read baseline: ${(error as Error)?.message ?? String(error)}`);
  }
  const read = targetText("trace", run);
  if ("unavailable" in read) return failed(g, read.unavailable);
  const prompt = baselineJudgePrompt(g.criteria, baseline, read.text);
  const votes: boolean[] = [];
  for (let i = 0; i < JUDGE_VOTES; i++) votes.push(isPassVote(await ask(prompt)));
  const passed = votes.filter(Boolean).length > votes.length / 2;
  return { name: g.name, passed, weight: g.weight, explanation: `judge votes: ${votes.map((v) => (v ? "PASS" : "FAIL")).join(" ")}`, judgeVotes: votes };
}

const threw = (g: Grader, error: unknown) => failed(g, `grader threw: ${(error as Error)?.message ?? String(error)}`);

/** Grade a grader that needs no model. A grader that throws (a bad pattern) fails with `grader threw: …`, like the binary. */
export function gradeSync(g: Grader, run: RunEvidence): GraderResult {
  try {
    switch (g.type) {
      case "regex":
        return gradeRegex(g, run);
      case "tool_order":
        return gradeToolOrder(g, run);
      case "tool_used":
        return gradeToolUsed(g, run);
      case "file_exists":
        return gradeFileExists(g, run);
      case "llm":
        return failed(g, "grader threw: an llm grader needs the judge (grade it with grade(), which awaits it)");
      default:
        return failed(g, `grader threw: a ${g.type} grader needs the judge (grade it with grade(), which awaits it)`);
    }
  } catch (error) {
    return threw(g, error);
  }
}

/** Grade any grader; an llm grader asks the judge three times. */
export async function grade(g: Grader, run: RunEvidence, ask?: AskJudge): Promise<GraderResult> {
  if (g.type !== "llm" && g.type !== "baseline") return gradeSync(g, run);
  if (!ask) return failed(g, "grader threw: no judge is available to this run");
  try {
    return g.type === "llm" ? await gradeLlm(g, run, ask) : await gradeBaseline(g, run, ask);
  } catch (error) {
    return threw(g, error);
  }
}

/** Evidence from a run's stream-json (the events the binary reads), plus the created files and a file reader. */
export function evidenceFromStream(stdout: string, created: readonly string[], fileText?: (path: string) => string | undefined): RunEvidence {
  const events: unknown[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // The binary skips lines that are not JSON.
    }
  }
  const toolCalls: EvidenceCall[] = [];
  let lastMessage = "";
  for (const event of events) {
    const e = event as { type?: unknown; message?: { content?: unknown } };
    if (e.type !== "assistant" || !Array.isArray(e.message?.content)) continue;
    const texts: string[] = [];
    for (const block of e.message.content as { type?: unknown; name?: unknown; input?: unknown; text?: unknown }[]) {
      if (block?.type === "tool_use") toolCalls.push({ name: String(block.name ?? ""), input: block.input, inputText: jsonText(block.input) });
      else if (block?.type === "text") texts.push(String(block.text ?? ""));
    }
    if (texts.length > 0) lastMessage = texts.join("\n");
  }
  return { events, toolCalls, lastMessage, created: [...created].sort(), ...(fileText ? { fileText } : {}) };
}

/** Evidence from a Trace alone (a recorded run): no stream events, file texts from the snapshot. */
export function evidenceFromTrace(trace: Trace): RunEvidence {
  const changes = trace.files?.source === "snapshot" ? trace.files.changes : [];
  const content = new Map(changes.filter((c) => c.change !== "deleted" && c.content !== undefined).map((c) => [c.path, c.content as string]));
  return {
    toolCalls: trace.toolCalls.map((c) => ({ name: c.name, input: c.input, inputText: jsonText(c.input) })),
    lastMessage: trace.replies.at(-1)?.text ?? trace.output ?? "",
    created: changes.filter((c) => c.change === "created").map((c) => c.path).sort(),
    fileText: (path) => content.get(path),
  };
}
