import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** proctor's package folder and version, found once by walking up from this module to proctor's package.json. */
const found: { readonly root: string | undefined; readonly version: string } = (() => {
  // Up, not a fixed `../../`: this module runs from src/ (tests), from tsc's dist/src/, and from a
  // bundled chunk in dist/chunks/, each a different depth below the package.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "proctor" && pkg.version) return { root: dir, version: pkg.version };
    } catch {
      // no package.json here (or not JSON): keep going up
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: undefined, version: "0.0.0" };
    dir = parent;
  }
})();

/** This package's version. */
export const PROCTOR_VERSION: string = found.version;

/** The folder of proctor's own package.json: where shipped files outside dist (promptfoo/) are; undefined if not found. */
export const PROCTOR_ROOT: string | undefined = found.root;
