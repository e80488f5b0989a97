import { readTranscript, requireTranscriptEvents } from "../../src/trace/transcript.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor trace FILE   (a claude stream-json transcript)";

/** Print a transcript as a Trace. Malformed lines are reported on stderr and in `errors`. */
const trace: Command = async (argv) => {
  const { positionals } = parseCommandArgs(argv, {}, USAGE);
  const [file] = positionals;
  if (positionals.length !== 1 || file === undefined) throw new InvalidInputError("INVALID_INPUT", `expected one transcript file\nusage: ${USAGE}`);
  const t = requireTranscriptEvents(readTranscript(file), file);
  for (const e of t.errors.filter((e) => e.kind === "malformed-line")) process.stderr.write(`proctor trace: ${positionals[0]}: ${e.message}\n`);
  process.stdout.write(`${JSON.stringify(t, null, 2)}\n`);
  return 0;
};
export default trace;
