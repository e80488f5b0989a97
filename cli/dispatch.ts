/**
 * The CLI's dispatcher: one command by name, its errors as one line each, its exit code. Both the
 * ES-module entry (`main.ts`, every command) and the single-file command bundles the bin loads
 * (`standalone.ts`) run it, so a command behaves the same whichever way it was started.
 */
import { isProctorError } from "../src/errors/proctor-error.js";
import { HelpRequested } from "./args.js";
import type { Command } from "./command.js";
import { debugText, describeProctorError, describeUnexpected } from "./errors.js";
import { renderHelp } from "./help.js";
import { ownEntry } from "../src/util/narrow.js";

/** The commands by name: a one-line summary for the usage text, and the module, loaded only when it runs. */
export type CommandTable = Record<string, { summary: string; load: () => Promise<{ default: Command }> }>;

function usage(commands: CommandTable): string {
  return ["usage: proctor <command> [options] [--debug]", "", ...Object.values(commands).map((c) => `  proctor ${c.summary}`)].join("\n");
}

/** Take `--debug` out of argv wherever it is: it asks for stack traces with errors. */
function takeDebugFlag(argv: readonly string[]): { argv: string[]; debug: boolean } {
  const rest = argv.filter((a) => a !== "--debug");
  return { argv: rest, debug: rest.length !== argv.length || process.env.PROCTOR_DEBUG === "1" };
}

/** Run one command line against `commands`; resolves to the exit code. */
export async function main(argvIn: readonly string[], commands: CommandTable): Promise<number> {
  const { argv, debug } = takeDebugFlag(argvIn);
  const [first, ...afterFirst] = argv;
  // `proctor help run` is `proctor run --help`.
  const [name, ...rest] = first === "help" && afterFirst[0] && Object.hasOwn(commands, afterFirst[0]) ? [afterFirst[0], "--help"] : argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${usage(commands)}\n\nproctor <command> --help (or proctor help <command>) explains a command: every option, its default, examples, exit codes.\n`);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const { PROCTOR_VERSION } = await import("../src/version.js");
    process.stdout.write(`${PROCTOR_VERSION}\n`);
    return 0;
  }
  const entry = ownEntry(commands, name);
  if (!entry) {
    process.stderr.write(`proctor: error [INVALID_INPUT] unknown command ${JSON.stringify(name)}\n  hint: run one of the commands below\n\n${usage(commands)}\n`);
    return 2;
  }
  try {
    const command = (await entry.load()).default;
    return await command(rest);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(renderHelp(name, error.usage, error.options));
      return 0;
    }
    if (isProctorError(error)) {
      process.stderr.write(`${describeProctorError(error, name)}\n${debug ? `${debugText(error)}\n` : ""}`);
      return error.code === "CHECKS_FAILED" || error.code === "RATES_BELOW_THRESHOLD" ? 1 : 2;
    }
    process.stderr.write(`${describeUnexpected(error, name)}\n${debug ? `${debugText(error)}\n` : ""}`);
    return 2;
  }
}

/** Run the command named on the command line and set the exit code; for the CLI's entry files. */
export function runMain(commands: CommandTable): void {
  // A reader that closed the pipe (`proctor trace x | head`) is not an error.
  whenStdioIsMade("stdout", (stdout) =>
    stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      process.stderr.write(`proctor: cannot write the output: ${error.code ?? error.message}\n`);
      process.exit(2);
    }),
  );
  // stderr that cannot be written (a full disk, a reader gone) has nowhere to report to: the exit
  // code still says what happened. Unhandled, the error would end the process with exit 1, which
  // for `proctor gate` lets the call through where exit 2 blocks it.
  whenStdioIsMade("stderr", (stderr) => stderr.on("error", () => undefined));

  main(process.argv.slice(2), commands).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${describeUnexpected(error, "")}\n`);
      process.exitCode = 2;
    },
  );
}

/**
 * Runs `attach` on `process.stdout` (or `stderr`) when something first uses it, not now: Node makes
 * the stream on first use, and for a pipe that is a `net.Socket` (~6 ms of module loading) — paid
 * by every `proctor gate`, which writes its one line with `writeSync`, if a listener made it up front.
 */
function whenStdioIsMade(name: "stdout" | "stderr", attach: (stream: NodeJS.WriteStream) => void): void {
  const original = Object.getOwnPropertyDescriptor(process, name);
  const get = original?.get;
  if (original === undefined || get === undefined || original.configurable !== true) {
    attach(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: original.enumerable ?? true,
    get() {
      Object.defineProperty(process, name, original);
      const stream = get.call(process) as NodeJS.WriteStream;
      attach(stream);
      return stream;
    },
  });
}
