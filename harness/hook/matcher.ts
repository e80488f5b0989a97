/** Hook matchers as Claude Code reads them: `*` or empty for all, names joined by `|`, or a regex. */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { requireString } from "../../src/errors/arguments.js";

/** The value an event's matcher is tested against, or undefined when the event has no matcher. */
export function matcherTarget(event: string, options: { toolName?: string; source?: string }): string | undefined {
  if (["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"].includes(event)) return options.toolName;
  if (event === "SessionStart") return options.source ?? "startup";
  return undefined;
}

/** Does `matcher` select `value`? Plain names match exactly; anything else is an anchored regex. */
export function matcherMatches(matcher: string, value: string): boolean {
  requireString("matcherMatches", "matcher", matcher, 'a hook matcher such as "Bash|Edit"');
  requireString("matcherMatches", "value", value, 'a tool name such as "Bash"');
  if (matcher === "" || matcher === "*") return true;
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").includes(value);
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `runHook: matcher ${JSON.stringify(matcher)} is not a valid pattern: ${(error as Error).message}`, { cause: error });
  }
}
