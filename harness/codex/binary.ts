/** Finding the codex binary: explicit path, PROCTOR_CODEX, node_modules/.bin, then PATH. */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findBinary, isExecutable, type AgentBinary, type LookupOptions } from "../run/binary.js";

/** The platform packages `@openai/codex` ships its native binary in, by Node platform and arch. */
const NATIVE: Record<string, [pkg: string, triple: string]> = {
  "linux-x64": ["@openai/codex-linux-x64", "x86_64-unknown-linux-musl"],
  "linux-arm64": ["@openai/codex-linux-arm64", "aarch64-unknown-linux-musl"],
  "darwin-x64": ["@openai/codex-darwin-x64", "x86_64-apple-darwin"],
  "darwin-arm64": ["@openai/codex-darwin-arm64", "aarch64-apple-darwin"],
};

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

const CODEX: AgentBinary = { name: "codex", option: "codexPath", envVar: "PROCTOR_CODEX", pkg: "@openai/codex", runner: "runCodex", found: nativeBehind };

export interface CodexBinaryOptions extends LookupOptions {
  readonly codexPath?: string | undefined;
}

/**
 * The codex binary to run. An explicit path that is not executable is an error (never a silent
 * fallback); otherwise the first executable of PROCTOR_CODEX, `node_modules/.bin/codex` above the
 * cwd, above this package, and PATH — the npm launcher resolved to its native binary. Throws
 * BINARY_MISSING saying how to install it.
 */
export function resolveCodexBinary(options: CodexBinaryOptions = {}): string {
  return findBinary(CODEX, options.codexPath, options, path.dirname(fileURLToPath(import.meta.url)));
}
