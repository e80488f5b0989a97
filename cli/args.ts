/** Argument parsing shared by the commands: node's parseArgs, with errors that say what to do. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { InvalidInputError } from "../src/errors/proctor-error.js";
import { nearestOption } from "./help.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** `--help` / `-h` on a command: main prints the command's help from what its parser accepts. */
export class HelpRequested extends Error {
  constructor(
    readonly usage: string,
    readonly options: Options,
  ) {
    super("help requested");
  }
}

/** parseArgs, turning its errors into a ProctorError (exit 2) that names the command's usage and the nearest option. */
export function parseCommandArgs<T extends Options>(
  argv: readonly string[],
  options: T,
  usage: string,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  const end = argv.indexOf("--");
  const flags = end === -1 ? argv : argv.slice(0, end);
  if (flags.includes("--help") || (flags.includes("-h") && !Object.values(options).some((o) => o.short === "h"))) throw new HelpRequested(usage, options);
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
    const near = unknown ? nearestOption(unknown, Object.keys(options)) : undefined;
    const what = unknown ? `unknown option ${unknown}${near ? ` — did you mean --${near}?` : ""} (a value starting with "-" goes after --)` : message;
    throw new InvalidInputError("INVALID_INPUT", `${what}\nusage: ${usage}`);
  }
}

/**
 * `--flag A B C` → `--flag A --flag B --flag C` for the words after `flag` that `accepts`, as
 * commander's variadic options (`claude plugin eval --allow-tools Bash Write`) read them; the
 * first word it does not accept (an option, a path) ends the list. `--flag=A` and a lone value stay as they are.
 */
export function spreadVariadic(argv: readonly string[], flag: string, accepts: (word: string) => boolean): string[] {
  const out: string[] = [];
  const end = argv.indexOf("--");
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    out.push(word);
    if (word !== flag || (end !== -1 && i > end) || i + 1 >= argv.length) continue;
    out.push(argv[++i] as string);
    while (i + 1 < argv.length && (end === -1 || i + 1 < end) && !(argv[i + 1] as string).startsWith("-") && accepts(argv[i + 1] as string)) out.push(flag, argv[++i] as string);
  }
  return out;
}

/**
 * A word that names a tool rather than a path: a built-in tool (`Bash`, `WebFetch`, capitalised),
 * an MCP tool (`mcp__server__tool`, `mcp__server__*`), either with a rule (`Bash(git *)`).
 */
export const looksLikeToolName = (word: string): boolean => /^(?:[A-Z][A-Za-z0-9_]*|mcp__[\w.*-]+)(?:\(.*\))?$/s.test(word);
