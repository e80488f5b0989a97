import { requireArray, requireObject, requireString } from "../errors/arguments.js";
import { ownEntry } from "../util/narrow.js";
/**
 * Approval rungs and rung-aware tool descriptions.
 *
 * A rung is how much the user pre-approves: `manual` (reads only), `write` (reads and file
 * writes), `assisted` and `auto` (everything but the shell, which a rater judges), `bypass` (no
 * gate). One rule decides which tools a rung gates (`isToolGatedAtRung`); the grant reported to the
 * model (`isGrantedAtRung`) and the sentence appended to a tool's description are projections of
 * it, so what the descriptions promise and what the gate does cannot drift apart.
 */

/** The approval rungs, least permissive first. */
export type ApprovalRung = "manual" | "write" | "assisted" | "auto" | "bypass";

/** The rungs, least permissive first. */
export const APPROVAL_RUNGS: readonly ApprovalRung[] = ["manual", "write", "assisted", "auto", "bypass"];

/**
 * The sentence appended to a gated tool's description at each rung — normative copy, verbatim.
 * `manual` and `write` share one (approval is certain); `assisted` says MAY (a rater clears what
 * looks safe); `auto` names the auto-rater (a refusal goes back to the model first); `bypass`
 * appends nothing (no gate, so no sentence could be true). A tool the rung grants gets no
 * sentence at all: the absence is what marks it free.
 */
export const RUNG_TOOL_DESCRIPTION_SUFFIXES: Readonly<Record<ApprovalRung, string | null>> = Object.freeze({
  manual: "Calling this tool will require the user's approval. Only use it when the result cannot be achieved with the other provided tools.",
  write: "Calling this tool will require the user's approval. Only use it when the result cannot be achieved with the other provided tools.",
  assisted: "Calling this tool MAY require the user's approval if it does not look safe. Only use it when it is impossible to achieve the result with the other provided tools.",
  auto: "Calling this tool MAY be refused by the auto-rater if it does not look safe. Only use it when it is impossible to achieve the result with the other provided tools.",
  bypass: null,
});

/** `read`: reading and listing files in the working folder; `write`: creating, editing, moving, deleting them. */
export type BuiltInToolAccess = "read" | "write";

/**
 * Access class per built-in tool name — Claude Code's, Codex's, and the conventional filesystem
 * names (`read_file`, `write_file`, `ls`, `glob`, `grep`, …) an MCP server or agent framework may
 * register. Deliberately absent: shells, network tools, MCP and custom tools — none of them is
 * "reading or writing files in the working folder", so no rung's class grants them. An MCP tool's
 * own `readOnlyHint` earns it nothing here.
 */
export const BUILT_IN_TOOL_ACCESS: Readonly<Record<string, BuiltInToolAccess>> = Object.freeze({
  // Claude Code
  Read: "read",
  Glob: "read",
  Grep: "read",
  LS: "read",
  NotebookRead: "read",
  Edit: "write",
  MultiEdit: "write",
  Write: "write",
  NotebookEdit: "write",
  // Codex
  read_file: "read",
  list_dir: "read",
  grep_files: "read",
  view_image: "read",
  apply_patch: "write",
  // conventional filesystem tools
  read_multiple_files: "read",
  list_directory: "read",
  list_directory_with_sizes: "read",
  directory_tree: "read",
  search_files: "read",
  get_file_info: "read",
  list_allowed_directories: "read",
  ls: "read",
  glob: "read",
  grep: "read",
  write_file: "write",
  edit_file: "write",
  create_directory: "write",
  move_file: "write",
  delete_file: "write",
  delete_directory: "write",
});

/** Shell tool names across CLIs; the shell is gated at every rung (a rater or the human judges it). */
export const SHELL_TOOL_NAMES: readonly string[] = Object.freeze(["Bash", "PowerShell", "Monitor", "shell", "local_shell", "exec_command", "unified_exec", "run_shell_command"]);

/** The sentence appended at this rung, or `null` (`bypass`). */
export function getRungToolDescriptionSuffix(rung: ApprovalRung): string | null {
  return RUNG_TOOL_DESCRIPTION_SUFFIXES[rung];
}

/** `manual` and `write` decide by access class alone; the rater rungs and `bypass` gate only the shell. */
export function isDeterministicRung(rung: ApprovalRung): boolean {
  return rung === "manual" || rung === "write";
}

/**
 * Does the rung's own grant cover this tool's access class? `read` at every rung; `write` from
 * `write` up; no class at all (shell, network, MCP, custom) at no rung. `bypass` is not special
 * here — it grants everything for another reason (the gate is off), which `isGrantedAtRung` says.
 */
export function isAccessClassGrantedAtRung(toolName: string, rung: ApprovalRung): boolean {
  const access = ownEntry(BUILT_IN_TOOL_ACCESS, toolName);
  if (access === "read") return true;
  if (access === "write") return rung !== "manual";
  return false;
}

/** One call's question to the gating rule. */
export interface GateQuery {
  readonly toolName: string;
  readonly rung: ApprovalRung;
  /** Is the shell gate wired? Default true. */
  readonly gateShell?: boolean | undefined;
  /** The shell tools' names. Default {@link SHELL_TOOL_NAMES}. */
  readonly shellTools?: readonly string[];
}

/**
 * The one gating rule. The shell is gated at every rung when the shell gate is on; at `manual`
 * and `write` every tool the rung's access class does not grant is gated too (MCP tools, custom
 * tools, bookkeeping tools — no unstated exemption); at `assisted`, `auto` and `bypass` only the
 * shell is.
 */
export function isToolGatedAtRung(query: GateQuery): boolean {
  requireObject("isToolGatedAtRung", "query", query, "a query such as { toolName: \"Bash\", rung: \"plan\" }");
  const shells = query.shellTools ?? SHELL_TOOL_NAMES;
  if (shells.includes(query.toolName) && (query.gateShell ?? true)) return true;
  if (isDeterministicRung(query.rung)) return !isAccessClassGrantedAtRung(query.toolName, query.rung);
  return false;
}

/** The live gated set for a rung: the bound tools the rule gates, shell first, bound order otherwise, no duplicates or empty names. */
export function resolveGatedToolNames(options: { rung: ApprovalRung; boundToolNames: readonly string[]; gateShell?: boolean; shellTools?: readonly string[] }): string[] {
  requireObject("resolveGatedToolNames", "options", options, "options with a rung and boundToolNames");
  requireArray("resolveGatedToolNames", "options.boundToolNames", options.boundToolNames, "the list of the tool names bound to the run");
  const shells = options.shellTools ?? SHELL_TOOL_NAMES;
  const names = [...new Set(options.boundToolNames.filter((n) => n !== ""))];
  const gated = names.filter((toolName) => isToolGatedAtRung({ toolName, rung: options.rung, gateShell: options.gateShell, shellTools: shells }));
  return [...gated.filter((n) => shells.includes(n)), ...gated.filter((n) => !shells.includes(n))];
}

/**
 * Is `toolName` auto-approved at `rung`? 1. `bypass` grants everything. 2. A tool the live rung
 * does not gate (`gatedTools`, from `resolveGatedToolNames`) cannot require approval. 3. A gated
 * tool is granted only where the rung's grant covers its access class.
 */
export function isGrantedAtRung(toolName: string, rung: ApprovalRung, gatedTools: readonly string[]): boolean {
  requireString("isGrantedAtRung", "toolName", toolName, 'a tool name such as "Bash"');
  requireArray("isGrantedAtRung", "gatedTools", gatedTools, "the gated tool names (from resolveGatedToolNames)");
  if (rung === "bypass") return true;
  if (!gatedTools.includes(toolName)) return true;
  return isAccessClassGrantedAtRung(toolName, rung);
}

/** Remove any previously appended rung sentence, returning the tool's own description. */
export function stripRungToolDescriptionSuffix(description: string): string {
  requireString("stripRungToolDescriptionSuffix", "description", description, "a tool description");
  const suffixes = [...new Set(Object.values(RUNG_TOOL_DESCRIPTION_SUFFIXES).filter((s): s is string => s !== null))];
  let out = description;
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of suffixes) {
      if (out === suffix) {
        out = "";
        changed = true;
      } else if (out.endsWith(` ${suffix}`)) {
        out = out.slice(0, -(suffix.length + 1));
        changed = true;
      }
    }
  }
  return out;
}

/** The minimal shape {@link applyRungAwareToolDescriptions} needs. */
export interface DescribableTool {
  name?: string;
  description?: string;
}

/**
 * Append the rung's sentence to every tool not auto-approved at that rung; leave granted tools'
 * descriptions untouched. Mutates in place and returns the same array. Idempotent and
 * re-appliable at another rung (any earlier sentence is stripped first). Nameless tools are left
 * alone; an empty description becomes the sentence itself.
 */
export function applyRungAwareToolDescriptions<T extends DescribableTool>(tools: T[], options: { rung: ApprovalRung; gatedTools: readonly string[] }): T[] {
  requireArray("applyRungAwareToolDescriptions", "tools", tools, "a list of tools ({ name, description })");
  requireObject("applyRungAwareToolDescriptions", "options", options, "options with a rung and gatedTools");
  requireArray("applyRungAwareToolDescriptions", "options.gatedTools", options.gatedTools, "the gated tool names (from resolveGatedToolNames)");
  const suffix = getRungToolDescriptionSuffix(options.rung);
  for (const tool of tools) {
    if (!tool.name) continue;
    const own = stripRungToolDescriptionSuffix(tool.description ?? "");
    if (suffix === null || isGrantedAtRung(tool.name, options.rung, options.gatedTools)) {
      if (tool.description !== undefined) tool.description = own;
      continue;
    }
    tool.description = own === "" ? suffix : `${own} ${suffix}`;
  }
  return tools;
}
