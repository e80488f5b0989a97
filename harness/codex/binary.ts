/** Finding the codex binary: explicit path, PROCTOR_CODEX, node_modules/.bin, then PATH. */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ProctorError } from "../../src/errors/proctor-error.js";

const EXE = process.platform === "win32" ? ["codex.cmd", "codex.exe", "codex"] : ["codex"];

/** The platform packages `@openai/codex` ships its native binary in, by Node platform and arch. */
const NATIVE: Record<string, [pkg: string, triple: string]> = {
  "linux-x64": ["@openai/codex-linux-x64", "x86_64-unknown-linux-musl"],
  "linux-arm64": ["@openai/codex-linux-arm64", "aarch64-unknown-linux-musl"],
  "darwin-x64": ["@openai/codex-darwin-x64", "x86_64-apple-darwin"],
  "darwin-arm64": ["@openai/codex-darwin-arm64", "aarch64-apple-darwin"],
};

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function binCandidates(start: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    for (const exe of EXE) out.push(path.join(dir, "node_modules", ".bin", exe));
    if (path.dirname(dir) === dir) return out;
  }
}

/**
 * The native binary behind the npm launcher (`bin/codex.js`), which would otherwise cost an extra
 * Node process per run; the launcher itself when it can't be found.
 */
function nativeBehind(launcher: string): string {
  const target = NATIVE[`${process.platform}-${process.arch}`];
  if (!target) return launcher;
  try {
    const script = realpathSync(launcher);
    if (!script.endsWith(`${path.sep}codex.js`)) return launcher;
    const pkgJson = createRequire(script).resolve(`${target[0]}/package.json`);
    const native = path.join(path.dirname(pkgJson), "vendor", target[1], "bin", "codex");
    return isExecutable(native) ? native : launcher;
  } catch {
    return launcher;
  }
}

export interface CodexBinaryOptions {
  readonly codexPath?: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where to look for the package's own node_modules. @default this module's directory */
  readonly packageDir?: string;
}

/**
 * The codex binary to run. An explicit path that is not executable is an error (never a silent
 * fallback); otherwise the first executable of PROCTOR_CODEX, `node_modules/.bin/codex` above the
 * cwd, above this package, and PATH — the npm launcher resolved to its native binary. Throws
 * BINARY_MISSING saying how to install it.
 */
export function resolveCodexBinary(options: CodexBinaryOptions = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.codexPath ?? env.PROCTOR_CODEX;
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (isExecutable(file)) return file;
    const from = options.codexPath ? "codexPath" : "PROCTOR_CODEX";
    throw new ProctorError("BINARY_MISSING", `the codex binary ${from} names is not an executable file: ${file}`, {
      detail: `  fix ${from}, or remove it to use node_modules/.bin/codex (npm i -D @openai/codex)`,
    });
  }
  const here = options.packageDir ?? path.dirname(fileURLToPath(import.meta.url));
  const pathDirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const candidates = [...binCandidates(cwd), ...binCandidates(here), ...pathDirs.flatMap((d) => EXE.map((e) => path.join(d, e)))];
  const found = candidates.find(isExecutable);
  if (found) return nativeBehind(found);
  throw new ProctorError("BINARY_MISSING", "the codex binary was not found", {
    detail: [
      "  install it next to your tests:  npm i -D @openai/codex",
      "  or point at one:               PROCTOR_CODEX=/path/to/codex, or runCodex({ codexPath })",
      `  looked in node_modules/.bin above ${cwd}, above ${here}, and on PATH`,
    ].join("\n"),
  });
}
