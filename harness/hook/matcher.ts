/** Hook matchers as Claude Code reads them: `*` or empty for all, names joined by `|`, or a regex. */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { requireString } from "../../src/errors/arguments.js";

/** The value an event's matcher is tested against, or undefined when the event has no matcher. */
export function matcherTarget(event: string, options: { toolName?: string; source?: string }): string | undefined {
  if (["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"].includes(event)) return options.toolName;
  if (event === "SessionStart") return options.source ?? "startup";
  return undefined;
}

/**
 * Tools claude hands to the hooks of another tool's matcher: claude ≥ 2.1.3xx runs `Bash` hooks for
 * `Monitor` (a shell command in the background), with `tool_name: "Bash"` in their input.
 */
export const HOOK_MATCHER_ALIASES: Readonly<Record<string, string>> = Object.freeze({ Monitor: "Bash" });

/** The tool name a hook's input carries for a call to `toolName`. */
export function hookToolName(toolName: string): string {
  return Object.hasOwn(HOOK_MATCHER_ALIASES, toolName) ? (HOOK_MATCHER_ALIASES[toolName] as string) : toolName;
}

/** Does `matcher` select `value`? Plain names match exactly; anything else is an anchored regex. A tool claude hands to another's hooks is selected by either name. */
export function matcherMatches(matcher: string, value: string): boolean {
  requireString("matcherMatches", "matcher", matcher, 'a hook matcher such as "Bash|Edit"');
  requireString("matcherMatches", "value", value, 'a tool name such as "Bash"');
  if (matcher === "" || matcher === "*") return true;
  const alias = hookToolName(value);
  if (alias !== value && matchesName(matcher, alias)) return true;
  return matchesName(matcher, value);
}

function matchesName(matcher: string, value: string): boolean {
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").includes(value);
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `runHook: matcher ${JSON.stringify(matcher)} is not a valid pattern: ${(error as Error).message}`, { cause: error });
  }
}
