/**
 * What a case's runs are granted, and the notices claude 2.1.332's `plugin eval` prints before a
 * suite runs for graders that cannot pass with those tools: without them a case whose tool is not
 * granted silently scores 0 in both arms, which reads as "the plugin did nothing". The wording is
 * claude's.
 */
import type { Grader, PluginEvalCase } from "./types.js";

/** Tools a case may use without an operator's grant (claude plugin eval's read-only set). */
export const UNGATED_TOOLS: ReadonlySet<string> = new Set(["Read", "Glob", "Grep", "NotebookRead", "Skill", "AskUserQuestion", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskStop", "Agent", "TodoWrite"]);

/** An allowed_tools entry as a tool and its rule content (`Bash(git *)` → Bash, `git *`). */
export const ruleOf = (entry: string): { tool: string; content: string | undefined } => {
  const m = /^([^()]+)(?:\((.*)\))?$/s.exec(entry.trim());
  return { tool: (m?.[1] ?? entry).trim(), content: m?.[2] };
};

/**
 * The tools a case's runs get, as claude plugin eval grants them: the case's allowed_tools that
 * need no grant, the operator's grants (`--allow-tools`), and the case's gated tools a grant
 * covers; the rest of allowed_tools is withheld. The case's disallowed tools win.
 */
export function grantTools(allowed: readonly string[], grants: readonly string[], disallowed: readonly string[] = []): { allowed: string[]; withheld: string[] } {
  const granted = grants.flatMap((g) => g.split(",")).map((g) => g.trim()).filter(Boolean);
  const rules = granted.map(ruleOf);
  const out = [...granted];
  const withheld: string[] = [];
  for (const entry of allowed.flatMap((a) => a.split(",")).map((a) => a.trim()).filter(Boolean)) {
    const r = ruleOf(entry);
    const covered = rules.some((g) => g.tool === r.tool && (g.content === undefined || r.content === undefined || g.content === r.content));
    if (UNGATED_TOOLS.has(r.tool) || covered) out.push(entry);
    else withheld.push(entry);
  }
  const no = new Set(disallowed);
  return { allowed: [...new Set(out)].filter((t) => !no.has(ruleOf(t).tool)), withheld };
}

/** One notice: the grader it is about and the text claude prints after `⚠ case "NAME": `. */
export interface GrantNotice {
  readonly grader: string;
  readonly text: string;
}

/** The tools that can create a file in a run (an MCP tool might, too). */
const WRITERS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "Bash"]);

const toolOfEntry = (entry: string): string => ruleOf(entry).tool;

/** Does `match` of a regex grader pass on no match (so an absent file cannot fail it)? */
const passesOnNothing = (match: string) => match === "not_contains" || (match.startsWith("count:") && Number(match.slice(6)) === 0);

/** Does the grader need a file the run creates (claude's rule, scaffold scripts aside: proctor runs none)? */
function needsCreatedFile(g: Grader): boolean {
  switch (g.type) {
    case "file_exists":
      return g.exists;
    case "regex":
      return typeof g.target === "object" ? g.target.source === "file" : g.target === "files" && !passesOnNothing(g.match);
    case "llm":
      return typeof g.focus === "object" && g.focus.source === "file";
    default:
      return false;
  }
}

/** The tools whose call a grader needs in the trace. */
function neededTools(g: Grader): string[] {
  if (g.type === "tool_used") return (g.min ?? 1) >= 1 ? [g.tool] : [];
  if (g.type === "tool_order") return [g.before.tool, g.after.tool];
  return [];
}

/**
 * The graders of `c` that cannot pass with `granted` (the allowed tools a run gets after the
 * operator's grants: `grantTools(…).allowed`) and `disallowed` (the case's disallowed_tools), each
 * with claude's text. `mockedTools` are the suite's mock stand-ins: granted, but they create no files.
 */
export function grantNotices(c: PluginEvalCase, granted: readonly string[], disallowed: readonly string[] = [], mockedTools: readonly string[] = []): GrantNotice[] {
  const notices: GrantNotice[] = [];
  const no = new Set(disallowed.map(toolOfEntry));
  // Read-only tools need no grant, and mocked tools are allowed without one (as in claude).
  const grantedNames = new Set([...granted.map(toolOfEntry), ...UNGATED_TOOLS, ...mockedTools].filter((t) => !no.has(t)));
  const fileGraders = c.graders.filter(needsCreatedFile);
  const canWrite = [...grantedNames].some((t) => !mockedTools.includes(t) && (WRITERS.has(t) || t.startsWith("mcp__")));
  if (fileGraders.length > 0 && !canWrite) {
    const refused = disallowed.filter((t) => WRITERS.has(toolOfEntry(t)));
    for (const g of fileGraders) {
      notices.push({
        grader: g.name,
        text:
          refused.length > 0
            ? `grader "${g.name}" cannot pass: it checks a file the run creates, but no tool the run may use can create one (a plugin hook still could), and the case's disallowed_tools or --disallow-tools lists ${refused.join(", ")} — take one off that list and grant it (allowed_tools and --allow-tools), or drop the grader`
            : `grader "${g.name}" cannot pass with the granted tools: it checks a file the run creates, but no tool the run may use can create one (a plugin hook still could; a skill's own allowed-tools does not count inside a run) — add Write (or Edit / Bash) to the case's allowed_tools and grant it with --allow-tools`,
      });
    }
  }
  for (const g of c.graders) {
    for (const tool of new Set(neededTools(g))) {
      if (grantedNames.has(tool)) continue;
      if (no.has(tool)) {
        notices.push({ grader: g.name, text: `grader "${g.name}" cannot pass: it needs a ${tool} call in the trace, but ${tool} is in the case's disallowed_tools or --disallow-tools, so no call can occur — change that list (and grant the tool if it is not granted), or drop the grader` });
        continue;
      }
      notices.push({
        grader: g.name,
        text: `grader "${g.name}" cannot pass with the granted tools: it needs a ${tool} call in the trace, but ${tool} is not granted, so the run withholds it from the model and no call (not even a refused one) can occur — add ${tool} to the case's allowed_tools and grant it with --allow-tools ${tool}`,
      });
    }
  }
  return notices;
}
