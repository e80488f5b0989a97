/**
 * Claude Code's permission-rule strings, read as Claude Code reads them: `Tool` or
 * `Tool(specifier)`. A rule in `onlyTools` (or a command's `allowed-tools`) is a contract, so it is
 * checked as written — `Bash(git add:*)` allows `git add …`, not `git push`.
 *
 * - Shell tools (`Bash`, `Monitor`): the specifier is matched against every subcommand of a compound
 *   command (`&&`, `||`, `;`, `|`, `&`, newlines): `cmd` exactly, `cmd:*` the command or the
 *   command followed by a space and anything (a word boundary: not `cmdx`), `*` anywhere any
 *   characters (a single trailing ` *` is optional: `ls *` allows `ls`; `\*` is a literal star).
 *   A command whose subcommands cannot be told apart without running a shell (command
 *   substitution, subshells, process substitution, here-documents, unbalanced quotes) matches no
 *   rule but a bare `Bash`: fail closed.
 * - File tools (`Read`, `Edit`, `Write`, `MultiEdit`, `NotebookEdit`, `Glob`, `Grep`): a gitignore-style
 *   path — `//abs` from the filesystem root, `/p` from the project root (the run's cwd), `./p` or `p`
 *   from the cwd, `~/p` from the home directory (the run's home is not recorded: such a rule matches
 *   only a path written with `~/`); `*` within a directory, `**` across directories.
 * - `WebFetch(domain:host)`: the URL's host is `host`.
 * - `mcp__server` allows every tool of that server; `mcp__server__*` and other trailing `*` globs
 *   match by prefix.
 * - A specifier on any other tool is not understood: the rule matches nothing (it never widens).
 */
import { createRequire } from "node:module";
import type picomatchType from "picomatch";

/** A rule string split into its tool and its specifier. */
export interface PermissionRule {
  readonly tool: string;
  readonly specifier?: string;
}

const SHELL_TOOLS = new Set(["Bash", "Monitor"]);
const PATH_KEYS: Readonly<Record<string, string>> = Object.freeze({
  Read: "file_path",
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
  Glob: "path",
  Grep: "path",
});

/** `Bash(git add:*)` → `{ tool: "Bash", specifier: "git add:*" }`; `Read` → `{ tool: "Read" }`. */
export function parsePermissionRule(text: string): PermissionRule {
  const open = text.indexOf("(");
  if (open === -1 || !text.endsWith(")")) return { tool: text.trim() };
  const specifier = text.slice(open + 1, -1);
  const tool = text.slice(0, open).trim();
  return specifier === "" || specifier === "*" ? { tool } : { tool, specifier };
}

/** Does the tool part select this tool name? Exact, `*`, a trailing-`*` prefix, or `mcp__server` for its tools. */
export function ruleToolMatches(tool: string, name: string): boolean {
  if (tool === "*") return true;
  if (tool.endsWith("*")) return name.startsWith(tool.slice(0, -1));
  if (tool === name) return true;
  return /^mcp__[^_]/.test(tool) && !tool.slice(5).includes("__") && name.startsWith(`${tool}__`);
}

/** Does the rule allow this call (`cwd`: the run's working directory, for path rules)? */
export function ruleAllowsCall(rule: PermissionRule, call: { readonly name: string; readonly input: Readonly<Record<string, unknown>> }, cwd?: string): boolean {
  if (!ruleToolMatches(rule.tool, call.name)) return false;
  const spec = rule.specifier;
  if (spec === undefined) return true;
  if (SHELL_TOOLS.has(rule.tool)) {
    const command = call.input.command;
    return typeof command === "string" && shellRuleAllows(spec, command);
  }
  const key = Object.hasOwn(PATH_KEYS, rule.tool) ? PATH_KEYS[rule.tool] : undefined;
  if (key !== undefined) {
    const target = call.input[key];
    return typeof target === "string" && pathRuleAllows(spec, target, cwd);
  }
  if (rule.tool === "WebFetch" && spec.startsWith("domain:")) {
    const url = call.input.url;
    if (typeof url !== "string") return false;
    try {
      return new URL(url).hostname === spec.slice("domain:".length);
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Do the rules together allow this call? As Claude Code decides it: a shell command is allowed
 * when every one of its subcommands is allowed by some rule (`git add . && git commit -m x` by
 * `Bash(git add:*)` and `Bash(git commit:*)`); any other call when one rule allows it.
 */
export function rulesAllowCall(rules: readonly PermissionRule[], call: { readonly name: string; readonly input: Readonly<Record<string, unknown>> }, cwd?: string): boolean {
  if (rules.some((r) => r.specifier === undefined && ruleToolMatches(r.tool, call.name))) return true;
  const shellRules = rules.filter((r) => r.specifier !== undefined && SHELL_TOOLS.has(r.tool) && ruleToolMatches(r.tool, call.name));
  if (shellRules.length > 0 && typeof call.input.command === "string") {
    const parts = splitCompound(call.input.command);
    if (parts !== undefined && parts.length > 0 && parts.every((p) => shellRules.some((r) => shellPatternMatches(r.specifier as string, p)))) return true;
  }
  return rules.some((r) => r.specifier !== undefined && !SHELL_TOOLS.has(r.tool) && ruleAllowsCall(r, call, cwd));
}

/** Every subcommand of `command` matches the shell specifier. */
export function shellRuleAllows(spec: string, command: string): boolean {
  const parts = splitCompound(command);
  return parts !== undefined && parts.length > 0 && parts.every((p) => shellPatternMatches(spec, p));
}

/** One simple command against `cmd`, `cmd:*` or a `*` pattern. */
export function shellPatternMatches(spec: string, command: string): boolean {
  const legacy = /^(.*):\*$/s.exec(spec);
  if (legacy) {
    const prefix = (legacy[1] as string).trimEnd();
    return command === prefix || command.startsWith(`${prefix} `);
  }
  const pieces = splitOnStars(spec);
  if (pieces.length === 1) return command === pieces[0];
  const body = pieces.map(escapeRegExp).join("[\\s\\S]*");
  if (new RegExp(`^${body}$`).test(command)) return true;
  // A single trailing ` *` is optional: `ls *` allows a bare `ls`.
  return pieces.length === 2 && pieces[1] === "" && (pieces[0] as string).endsWith(" ") && command === (pieces[0] as string).slice(0, -1);
}

/** Split on unescaped `*`; `\*` and `\\` stand for themselves. */
function splitOnStars(spec: string): string[] {
  const pieces = [""];
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i] as string;
    if (c === "\\" && (spec[i + 1] === "*" || spec[i + 1] === "\\")) {
      pieces[pieces.length - 1] += spec[++i] as string;
    } else if (c === "*") pieces.push("");
    else pieces[pieces.length - 1] += c;
  }
  return pieces;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The simple commands of a compound command, trimmed, or undefined when telling them apart would
 * take a shell: `$(`, backticks, `<(`/`>(`, a subshell or group, a here-document, an unbalanced quote.
 */
export function splitCompound(command: string): string[] | undefined {
  const parts: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    const next = command[i + 1];
    if (quote === "'") {
      current += c;
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\") {
      current += c + (next ?? "");
      i++;
      continue;
    }
    if (quote === '"') {
      if (c === "`" || (c === "$" && next === "(")) return undefined;
      current += c;
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    if (c === "`" || (c === "$" && next === "(") || ((c === "<" || c === ">") && next === "(") || c === "(" || c === ")" || c === "{" || c === "}") return undefined;
    if (c === "<" && next === "<") return undefined;
    if (c === "#" && (current === "" || /\s$/.test(current))) break; // a comment runs to the end of the line
    if (c === ";" || c === "\n" || c === "|" || c === "&") {
      // `>&2`, `2>&1` and `&>` are redirections, not separators.
      if (c === "&" && (command[i - 1] === ">" || next === ">")) {
        current += c;
        continue;
      }
      if ((c === "|" || c === "&") && next === c) i++;
      parts.push(current.trim());
      current = "";
      continue;
    }
    current += c;
  }
  if (quote !== undefined) return undefined;
  parts.push(current.trim());
  return parts.filter((p) => p !== "");
}

let picomatch: typeof picomatchType | undefined;

/** A gitignore-style path rule against a tool's path, both made absolute. */
export function pathRuleAllows(spec: string, target: string, cwd: string | undefined): boolean {
  const base = (cwd ?? "").replace(/\/+$/, "");
  // A rule or a path relative to the run needs the run's cwd; without it nothing is allowed.
  if (!base && !(spec.startsWith("//") || spec.startsWith("~/")) ) return false;
  if (!base && !(target.startsWith("/") || target.startsWith("~/"))) return false;
  let pattern: string;
  if (spec.startsWith("//")) pattern = spec.slice(1);
  else if (spec.startsWith("~/")) pattern = spec;
  else if (spec.startsWith("/")) pattern = `${base}${spec}`;
  else pattern = `${base}/${spec.replace(/^\.\//, "")}`;
  const path = target.startsWith("/") || target.startsWith("~/") ? target : `${base}/${target.replace(/^\.\//, "")}`;
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof picomatchType;
  return picomatch(pattern, { dot: true })(path);
}
