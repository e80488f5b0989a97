/**
 * `proctor mock serve`: the mock model as a standalone server any claude can point at, routing
 * each claude session to its own script — so `claude plugin eval` runs a suite offline.
 */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor mock serve [--suite EVAL_DIR] [--script FILE] [--port N]";

const mock: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { suite: { type: "string" }, script: { type: "string" }, port: { type: "string" } }, USAGE);
  if (positionals[0] !== "serve" || positionals.length > 1) throw new InvalidInputError("INVALID_INPUT", `proctor mock has one subcommand, serve; got ${JSON.stringify(positionals.join(" ") || "nothing")}\nusage: ${USAGE}`);
  if (!values.suite && !values.script) throw new InvalidInputError("INVALID_INPUT", `proctor mock serve needs --suite EVAL_DIR (its cases' proctor.script.json) or --script FILE\nusage: ${USAGE}`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new InvalidInputError("INVALID_INPUT", `--port must be an integer within 0..65535; got ${JSON.stringify(values.port)}`);
  const { readPluginEvalSuite } = await import("../../src/plugin-eval/read.js");
  const { loadScript } = await import("../../mock-model/script/schema.js");
  const { startMockServe } = await import("../../harness/plugin-eval/serve.js");
  const server = await startMockServe({
    ...(values.suite ? { suite: readPluginEvalSuite(values.suite) } : {}),
    ...(values.script ? { script: loadScript(values.script) } : {}),
    ...(port !== undefined ? { port } : {}),
  });
  process.stdout.write(`proctor mock serve: listening on ${server.url}\nANTHROPIC_BASE_URL=${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    process.once("SIGHUP", stop);
  });
  await server.close();
  process.stderr.write(`proctor mock serve: stopped after ${server.sessions.size} session(s)\n`);
  return 0;
};
export default mock;
