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
