/** Checks from a JSON file: the form `proctor check`, `proctor show --checks` and the promptfoo bridge share. */
import type { Check } from "../../src/checks/check.js";
import { checksFromJSON } from "../../src/checks/from-json.js";
import { readDataFile } from "../../src/io/read-data-file.js";
import type { Trace } from "../../src/trace/types.js";

/** Read and rebuild a JSON array of checks; errors name the file and the bad field. */
export function readChecksFile(file: string): Check<Trace>[] {
  const json = readDataFile(file, { format: "json", what: "checks file", hint: 'expected an array of checks like [{"kind":"notTool","name":"Bash"}]' });
  return checksFromJSON<Trace>(json, file);
}
