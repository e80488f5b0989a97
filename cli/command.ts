/** A CLI command: parses its own argv, writes to stdout/stderr, returns the exit code. */
export type Command = (argv: readonly string[]) => Promise<number>;
