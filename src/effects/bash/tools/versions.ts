/**
 * Version and listing queries of tools that otherwise run code: `node --version`, `npm ls`,
 * `java -version`. Read-only only in exactly these shapes — the query as the only argument (or a
 * listing subcommand with only listing options) — because the same programs run arbitrary code
 * with any other argument.
 *
 * Left out on purpose: `go version` (a `toolchain` line in go.mod makes go download and run
 * another toolchain), `cargo`/`rustc` (rustup reads rust-toolchain.toml and may install one),
 * `yarn`/`pnpm` (corepack downloads the version package.json pins). What a version manager's shim
 * on PATH does is the PATH check's concern.
 */
import { readOnly, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { at, ownEntry } from "../../../util/narrow.js";

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

/** npm's listing subcommands, and the options that only shape the listing. */
const NPM_LIST = new Set(["ls", "list", "la", "ll"]);
const NPM_LIST_FLAGS = new Set([
  "--all", "-a", "--json", "--long", "-l", "--parseable", "-p", "--global", "-g", "--link", "--unicode", "--prod",
  "--production", "--dev", "--workspaces", "--include-workspace-root", "--no-unicode", "--no-color", "--color",
]);
const NPM_LIST_VALUED = new Set(["--depth", "--omit", "--include", "--workspace", "-w"]);
/** npm subcommands that print a path or a setting and nothing else. */
const NPM_PRINTS = new Set(["root", "prefix"]);

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
  if (sub === undefined) return undefined;
  if (NPM_PRINTS.has(sub)) return args.length === 1 || (args.length === 2 && ["-g", "--global"].includes(args[1]?.value ?? "")) ? readOnly(`npm ${sub} prints a path`) : undefined;
  if (!NPM_LIST.has(sub)) return undefined;
  for (let i = 1; i < args.length; i++) {
    const arg = at(args, i);
    const v = arg.value;
    if (v === undefined) return undecidable(`\`npm ${sub}\` gets ${arg.text}, computed at run time`);
    if (!v.startsWith("-")) continue; // a package name to list
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (NPM_LIST_FLAGS.has(v)) continue;
    if (NPM_LIST_VALUED.has(name)) {
      if (!v.includes("=")) i++;
      continue;
    }
    return undecidable(`\`npm ${sub} ${v}\` is not a listing option proctor knows`);
  }
  return readOnly(`npm ${sub} lists installed packages`);
}
