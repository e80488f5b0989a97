/** Finding the claude binary: explicit path, PROCTOR_CLAUDE, node_modules/.bin, then PATH. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findBinary, type AgentBinary, type LookupOptions } from "../run/binary.js";

const CLAUDE: AgentBinary = { name: "claude", option: "claudePath", envVar: "PROCTOR_CLAUDE", pkg: "@anthropic-ai/claude-code", runner: "runHarness" };

export interface BinaryOptions extends LookupOptions {
  readonly claudePath?: string | undefined;
}

/**
 * The claude binary to run. An explicit path that is not executable is an error (never a silent
 * fallback); otherwise the first executable of PROCTOR_CLAUDE, `node_modules/.bin/claude` above the
 * cwd, above this package, and PATH. Throws BINARY_MISSING saying how to install it.
 */
export function resolveClaudeBinary(options: BinaryOptions = {}): string {
  return findBinary(CLAUDE, options.claudePath, options, path.dirname(fileURLToPath(import.meta.url)));
}
