/** Run the built CLI as a user would (a real process), for CLI tests. */
import { existsSync, readFileSync } from "node:fs";
import { execa } from "execa";

/** The bin as package.json declares it: the file `npx proctor` runs. */
export const CLI = new URL(`../../${(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { bin: { proctor: string } }).bin.proctor}`, import.meta.url).pathname;

export async function proctor(args: string[], options: { input?: string; cwd?: string; env?: Record<string, string> } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  return execa("node", [CLI, ...args], {
    reject: false,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
}
