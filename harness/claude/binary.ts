/** Finding the claude binary: explicit path, PROCTOR_CLAUDE, node_modules/.bin, then PATH. */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ProctorError } from "../../src/errors/proctor-error.js";

const EXE = process.platform === "win32" ? ["claude.cmd", "claude.exe", "claude"] : ["claude"];

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `dir/node_modules/.bin/claude` for dir and each of its parents. */
function binCandidates(start: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    for (const exe of EXE) out.push(path.join(dir, "node_modules", ".bin", exe));
    if (path.dirname(dir) === dir) return out;
  }
}

export interface BinaryOptions {
  readonly claudePath?: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where to look for the package's own node_modules. @default this module's directory */
  readonly packageDir?: string;
}

/**
 * The claude binary to run. An explicit path that is not executable is an error (never a silent
 * fallback); otherwise the first executable of PROCTOR_CLAUDE, `node_modules/.bin/claude` above the
 * cwd, above this package, and PATH. Throws BINARY_MISSING saying how to install it.
 */
export function resolveClaudeBinary(options: BinaryOptions = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.claudePath ?? env.PROCTOR_CLAUDE;
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (isExecutable(file)) return file;
    const from = options.claudePath ? "claudePath" : "PROCTOR_CLAUDE";
    throw new ProctorError("BINARY_MISSING", `the claude binary ${from} names is not an executable file: ${file}`, {
      detail: `  fix ${from}, or remove it to use node_modules/.bin/claude (npm i -D @anthropic-ai/claude-code)`,
    });
  }
  const here = options.packageDir ?? path.dirname(fileURLToPath(import.meta.url));
  const pathDirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const candidates = [...binCandidates(cwd), ...binCandidates(here), ...pathDirs.flatMap((d) => EXE.map((e) => path.join(d, e)))];
  const found = candidates.find(isExecutable);
  if (found) return found;
  throw new ProctorError("BINARY_MISSING", "the claude binary was not found", {
    detail: [
      "  install it next to your tests:  npm i -D @anthropic-ai/claude-code",
      "  or point at one:               PROCTOR_CLAUDE=/path/to/claude, or runHarness({ claudePath })",
      `  looked in node_modules/.bin above ${cwd}, above ${here}, and on PATH`,
    ].join("\n"),
  });
}
