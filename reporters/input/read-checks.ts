/** Checks from a JSON file: the form `proctor check`, `proctor show --checks` and the promptfoo bridge share. */
import type { Check } from "../../src/checks/check.js";
import { checksFromJSON } from "../../src/checks/from-json.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { refuseDeepJson } from "../../src/io/json-depth.js";
import { JSON_FILE_LIMITS, readTextWithin } from "../../src/io/read-bounded.js";
import type { Trace } from "../../src/trace/types.js";

/** Read and rebuild a JSON array of checks; errors name the file and the bad field. */
export function readChecksFile(file: string): Check<Trace>[] {
  let text: string;
  try {
    text = readTextWithin(file, JSON_FILE_LIMITS);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `cannot read checks file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  refuseDeepJson(text, `checks file ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `${file} is not JSON: ${(error as Error).message}\n  expected an array of checks like [{"kind":"notTool","name":"Bash"}]`, { cause: error });
  }
  return checksFromJSON<Trace>(json, file);
}
