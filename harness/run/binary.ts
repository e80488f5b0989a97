/** Finding an agent's binary: explicit path, its PROCTOR_* variable, node_modules/.bin, then PATH. */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { RunError } from "../../src/errors/proctor-error.js";

/** An agent CLI, as the lookup and its error messages name it. */
export interface AgentBinary {
  /** The executable: `claude`, `codex`. */
  readonly name: string;
  /** The spec option that names it (`claudePath`) and the variable that does (`PROCTOR_CLAUDE`). */
  readonly option: string;
  readonly envVar: string;
  /** The npm package that ships it, and the runner whose option points at it, for the install hint. */
  readonly pkg: string;
  readonly runner: string;
  /** What a binary found by the search stands for (Codex: the native binary behind the npm launcher). @default itself */
  found?(file: string): string;
}

/** Where to look; the agent's own resolver fills in its option. */
export interface LookupOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where to look for the package's own node_modules. @default this module's directory */
  readonly packageDir?: string;
}

/** Binaries found by the search, by agent, cwd, package dir and PATH. */
const searched = new Map<string, string>();

/** True for an existing file this process may execute. */
export function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The agent's binary. An explicit path (the option, else the variable) that is not executable is
 * an error, never a silent fallback; otherwise the first executable `node_modules/.bin/<name>`
 * above the cwd, above `here` (the package), then on PATH. Throws BINARY_MISSING saying how to
 * install it, so every agent's missing binary reads alike.
 */
export function findBinary(agent: AgentBinary, explicitPath: string | undefined, options: LookupOptions, here: string): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const exe = process.platform === "win32" ? [`${agent.name}.cmd`, `${agent.name}.exe`, agent.name] : [agent.name];
  const explicit = explicitPath ?? env[agent.envVar];
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (isExecutable(file)) return file;
    const from = explicitPath ? agent.option : agent.envVar;
    throw new RunError("BINARY_MISSING", `the ${agent.name} binary ${from} names is not an executable file: ${file}`, {
      detail: `  fix ${from}, or remove it to use node_modules/.bin/${agent.name} (npm i -D ${agent.pkg})`,
    });
  }
  const packageDir = options.packageDir ?? here;
  // The search walks every directory up from the cwd and the package, then PATH: done once per
  // process for the same inputs, and the answer re-checked (one stat) before it is reused.
  const key = JSON.stringify([agent.name, cwd, packageDir, env.PATH ?? ""]);
  const cached = searched.get(key);
  if (cached !== undefined && isExecutable(cached)) return agent.found ? agent.found(cached) : cached;
  const found = searchBinary(exe, cwd, packageDir, env.PATH ?? "");
  if (found) {
    searched.set(key, found);
    return agent.found ? agent.found(found) : found;
  }
  throw new RunError("BINARY_MISSING", `the ${agent.name} binary was not found`, {
    detail: [
      `  install it next to your tests:  npm i -D ${agent.pkg}`,
      `  or point at one:               ${agent.envVar}=/path/to/${agent.name}, or ${agent.runner}({ ${agent.option} })`,
      `  looked in node_modules/.bin above ${cwd}, above ${packageDir}, and on PATH`,
    ].join("\n"),
  });
}

/** The first executable among `node_modules/.bin` above `cwd`, above `packageDir`, then each PATH dir. */
function searchBinary(exe: readonly string[], cwd: string, packageDir: string, pathVar: string): string | undefined {
  for (const start of [cwd, packageDir]) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      for (const e of exe) {
        const file = path.join(dir, "node_modules", ".bin", e);
        if (isExecutable(file)) return file;
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  for (const dir of pathVar.split(path.delimiter).filter(Boolean)) {
    for (const e of exe) {
      const file = path.join(dir, e);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}
