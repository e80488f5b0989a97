import { readFileSync } from "node:fs";

/** This package's version, read once from its package.json (two levels above dist/src/). */
export const PROCTOR_VERSION: string = (() => {
  for (const rel of ["../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "proctor" && pkg.version) return pkg.version;
    } catch {
      // try the next layout (source vs. dist)
    }
  }
  return "0.0.0";
})();
