/** Argument parsing shared by the commands: node's parseArgs, with errors that say what to do. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ProctorError } from "../errors/proctor-error.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** parseArgs, turning its errors into a ProctorError (exit 2) that names the command's usage. */
export function parseCommandArgs<T extends Options>(
  argv: readonly string[],
  options: T,
  usage: string,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ProctorError("INVALID_INPUT", `${(error as Error).message}\nusage: ${usage}`);
  }
}
