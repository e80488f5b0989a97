/**
 * The commands the bin runs from a single CommonJS file each (`dist/cli/standalone/NAME.cjs`,
 * built by scripts/bundle.mjs), so a process that runs one of them reads and compiles one file and
 * never starts the ES-module loader. `proctor gate` runs before every tool call and `proctor check`
 * in every CI job: their start-up is most of their cost.
 *
 * Only commands that never load the user's own code belong here. A bundle carries its own copy of
 * proctor's classes, so an eval file importing `proctor` would get objects from another copy;
 * `run`, `export` and `replay` load eval files or run the harness and stay in the ES-module graph
 * (`dist/cli/main.js`).
 */
export const STANDALONE_COMMANDS = ["gate", "bash-effect", "check", "trace", "show", "merge", "baseline", "sessions"] as const;

/** The command a command line names, as the dispatcher reads it: `--debug` anywhere is dropped, `help X` is X. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  const [first, second] = argv.filter((a) => a !== "--debug");
  return first === "help" ? second : first;
}
