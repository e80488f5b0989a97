/**
 * Version queries of tools that otherwise run code: `node --version`, `npm -v`,
 * `java -version`. Read-only only in exactly this shape — the query as the only argument —
 * because the same programs run arbitrary code with any other argument.
 *
 * Left out on purpose: `go version` (a `toolchain` line in go.mod makes go download and run
 * another toolchain), `cargo`/`rustc` (rustup reads rust-toolchain.toml and may install one),
 * `yarn`/`pnpm` (corepack downloads the version package.json pins). What a version manager's shim
 * on PATH does is the PATH check's concern.
 */
import { readOnly, sideEffecting, type Arg, type BashVerdict } from "../verdict.js";
import { ownEntry } from "../../../util/narrow.js";

/** The spellings of the version query each tool answers without running anything else. */
const VERSION_QUERIES: Readonly<Record<string, readonly string[]>> = {
  node: ["--version", "-v"],
  nodejs: ["--version", "-v"],
  npm: ["--version", "-v"],
  python: ["--version", "-V"],
  python3: ["--version", "-V"],
  pip: ["--version", "-V"],
  pip3: ["--version", "-V"],
  tsc: ["--version", "-v"],
  java: ["-version", "--version"],
  javac: ["-version", "--version"],
  ruby: ["--version", "-v"],
  perl: ["--version", "-v"],
  php: ["--version", "-v"],
  deno: ["--version", "-V"],
  bun: ["--version", "-v"],
  gcc: ["--version"],
  "g++": ["--version"],
  cc: ["--version"],
  clang: ["--version"],
  make: ["--version", "-v"],
  cmake: ["--version"],
};

/**
 * Package managers' listing and info commands (`npm ls`, `npm view`, `npm root`, `pip list`, `yarn
 * info`) are not read-only: npm writes a debug log under ~/.npm/_logs and an update-check stamp on
 * every run (measured: `npm ls` in an empty HOME leaves both), asks the registry whether it is
 * outdated, and honours `.npmrc` in the project (cache, logs-dir, registry, scripts); pip checks
 * its own version over the network and writes its cache; yarn and pnpm go through corepack,
 * which downloads the version package.json pins. Only the version query above is read-only.
 */
const NPM_SUBCOMMANDS_THAT_LOOK_READ_ONLY = new Set(["ls", "list", "la", "ll", "root", "prefix", "view", "info", "show", "outdated", "explain", "why", "query", "config", "get", "bin", "search", "help"]);

/**
 * The verdict for a version query or an npm listing; `undefined` for any other use, which the
 * catalog then judges as it judges the tool (a runner is undecidable, anything else unknown).
 */
export function versionQuery(command: string, args: readonly Arg[]): BashVerdict | undefined {
  const queries = ownEntry(VERSION_QUERIES, command);
  if (!queries) return undefined;
  const [only] = args;
  if (args.length === 1 && only?.value !== undefined && queries.includes(only.value)) {
    return readOnly(`${command} ${only.value} prints its version`);
  }
  return command === "npm" ? classifyNpm(args) : undefined;
}

function classifyNpm(args: readonly Arg[]): BashVerdict | undefined {
  const sub = args[0]?.value;
  if (sub === undefined || !NPM_SUBCOMMANDS_THAT_LOOK_READ_ONLY.has(sub)) return undefined;
  return sideEffecting(`\`npm ${sub}\` writes a debug log and an update-check stamp under ~/.npm, may ask the registry, and follows the project's .npmrc`);
}
