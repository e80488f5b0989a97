/**
 * Split a command line into the simple commands it runs, as written — what a `Bash(git:*)`
 * permission is matched against. `undefined` when that cannot be done soundly (substitutions,
 * control flow, functions, background jobs, a parse failure): such a line can hide a command.
 */
import { requireString } from "../../errors/arguments.js";
import { MAX_COMMAND_LENGTH, MAX_TREE_DEPTH } from "./classify.js";
import { checkAgreement } from "./agreement.js";
import { parseShell, type ShellNode } from "./parser.js";
import { shellPatternMatches } from "../../checks/permission-rules.js";
import { CONFUSABLE, rescanShell } from "./rescan.js";

const CONTAINERS = new Set(["program", "list", "pipeline", "subshell", "negated_command"]);
const SUBSTITUTIONS: ReadonlySet<string> = new Set(["command_substitution", "process_substitution"]);
const PUNCTUATION = new Set([";", "&&", "||", "|", "|&", "(", ")", "{", "}", "!", "\n"]);

function collect(node: ShellNode, out: string[]): boolean {
  if (CONTAINERS.has(node.type) || (node.type === "compound_statement" && node.children[0]?.type === "{")) {
    return node.children.every((c) => collect(c, out));
  }
  if (node.type === "redirected_statement") {
    const body = node.childForField("body");
    return body === undefined || collect(body, out);
  }
  if (node.type === "command") {
    if (node.descendantsOfType(SUBSTITUTIONS).length > 0) return false;
    const parts = node.children.filter((c) => !c.type.endsWith("_redirect")).map((c) => c.text);
    out.push(parts.join(" ").replace(/\s+/g, " ").trim());
    return true;
  }
  if (node.type === "comment") return true;
  return !node.isNamed && PUNCTUATION.has(node.type);
}

/** The simple commands of a line, or `undefined` when they cannot be listed soundly. */
export function simpleCommands(command: string): string[] | undefined {
  requireString("simpleCommands", "command", command, "a shell command");
  // The same bounds as classifyBash: `collect` recurses once per tree level.
  if (command.length > MAX_COMMAND_LENGTH || CONFUSABLE.test(command)) return undefined;
  // Bash's own reading must agree with the tree's (no substitution at all, the same strings,
  // comments and here-documents), or a command could hide where the tree sees text.
  const bash = rescanShell(command);
  if (!bash.ok) return undefined;
  const tree = parseShell(command);
  const { root, hasError, depth } = tree;
  if (hasError || depth > MAX_TREE_DEPTH) return undefined;
  if (checkAgreement(command, tree, bash.scan, new Set()) !== undefined) return undefined;
  const out: string[] = [];
  return collect(root, out) ? out : undefined;
}

/**
 * Does one simple command match a Claude Code Bash permission pattern? `git:*` (legacy prefix
 * form: `git` or `git …`), `git *` (glob; a trailing ` *` also matches the bare prefix), `*`
 * (anything), or an exact command.
 */
export function commandMatchesPattern(command: string, pattern: string): boolean {
  const p = pattern.trim();
  if (p === "" || p === "*" || p === ":*") return true;
  return shellPatternMatches(p, command);
}
