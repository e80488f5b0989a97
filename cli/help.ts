/**
 * What `proctor <command> --help` and `proctor help <command>` print. The option list comes from
 * the command's own parser configuration (so it cannot drift from what the command accepts); this
 * file supplies what each option means and its default, an example, and the exit codes. A test
 * fails when a command accepts an option described nowhere here.
 */
import type { ParseArgsConfig } from "node:util";
import { editDistance } from "../src/checks/names.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

export interface CommandHelp {
  /** One paragraph: what the command is for. */
  readonly about: string;
  /** Option name → meaning, with its default where it has one. */
  readonly options: Readonly<Record<string, string>>;
  readonly examples: readonly string[];
  /** What each exit code means for this command. */
  readonly exit: string;
}

const VERDICT_EXIT = "0 every check holds · 1 a check failed · 2 bad input (named, with what to do)";

let help: Readonly<Record<string, CommandHelp>> | undefined;

/**
 * Every command's help, built the first time help is asked for: the single-file commands carry this
 * table, and `proctor gate` (a process per tool call) never prints it.
 */
export function commandHelp(): Readonly<Record<string, CommandHelp>> {
  help ??= buildHelp();
  return help;
}

const buildHelp = (): Readonly<Record<string, CommandHelp>> => ({
  init: {
    about: "Write a starter eval and the fixture it runs in (./evals by default): .ts when tsx is installed, else .mjs. It runs green on the mock model with the real claude binary.",
    options: { js: "write example.eval.mjs even when tsx is installed", force: "overwrite files that exist (default: refuse, writing nothing)" },
    examples: ["npx proctor init && npx proctor run"],
    exit: "0 written · 2 a file exists (nothing written) or bad input",
  },
  trace: {
    about: "Print a transcript (claude stream-json, or a Claude Code session log or its folder) as a Trace in JSON. Malformed lines are reported on stderr and kept in the Trace's errors.",
    options: {},
    examples: ["npx proctor trace run.jsonl > trace.json"],
    exit: "0 printed · 2 unreadable input, or a file with no transcript events",
  },
  check: {
    about: "Evaluate a JSON array of checks against recorded transcripts (paths, session logs or session ids), one verdict per transcript.",
    options: { checks: "the checks file: a JSON array of checks in their JSON form (required)", json: "print the results as JSON instead of text", junit: "also write a JUnit XML file here" },
    examples: ["npx proctor check run.jsonl --checks checks.json --junit reports/checks.xml"],
    exit: VERDICT_EXIT,
  },
  show: {
    about: "Show one run as a timeline: coloured text on a terminal (NO_COLOR / FORCE_COLOR respected) or one self-contained HTML page. With --checks, each failed check sits beside its call.",
    options: { checks: "evaluate these checks and show them beside their calls", html: "write an HTML page here instead of printing", verbose: "print tool inputs and results in full", title: "the HTML page's title (default: the file name)" },
    examples: ["npx proctor show run.jsonl --checks checks.json", "npx proctor show run.jsonl --html out/run.html"],
    exit: "0 shown (and every check holds) · 1 a check failed · 2 bad input",
  },
  baseline: {
    about: "Record measured pass rates as a baseline (--update), or gate new reports against one (--check): a rate that dropped significantly (Fisher's exact test) fails.",
    options: {
      update: "write BASELINE from the reports",
      check: "compare the reports with BASELINE; fail on a significant regression",
      prune: "with --update, drop baseline entries no report mentions (default: keep them)",
      alpha: "significance level of the regression test (default 0.05)",
      correction: "multiple-comparison correction across checks: holm or none (default holm)",
      junit: "also write the comparison as JUnit XML",
    },
    examples: ["npx proctor baseline --check baseline.json reports/run.json"],
    exit: "0 no regression (or written) · 1 a regression · 2 bad input",
  },
  merge: {
    about: "Merge the reports of shards of one run (proctor run --shard i/n) into the report of the whole run: counts add, intervals are recomputed.",
    options: {
      output: "write the merged report here (default: stdout); folders are made",
      junit: "also write the merged run as JUnit XML (a testcase per check), as proctor run --junit does",
      check: "gate the merged report against its thresholds (a shard set with shards missing is refused)",
      "allow-partial": "with --check, gate the shards there are; the report says which are missing (incomplete)",
    },
    examples: ["npx proctor merge shard-*.json -o run.json --check"],
    exit: "0 merged (and the gate holds) · 1 the gate failed or the report is incomplete · 2 bad input, overlapping shards, or --check with shards missing",
  },
  run: {
    about:
      "Measure eval files (*.eval.ts / .mjs; with no files: those in ./evals; else ./evals as a claude plugin eval suite when it holds case directories; else those in ./examples): each eval on its tier (the mock model when it has one, a replayed recording, or --real for the API), each check's pass rate with its interval, gated against the eval's thresholds.",
    options: {
      mock: "run only the mock tier (default: mock, else replay, else real)",
      replay: "run only the replay tier (recordings replayed on the real binary)",
      real: "run only the real-API tier (needs ANTHROPIC_API_KEY; costs money)",
      trials: "trials per eval (default: the eval's own, else 10)",
      concurrency: "trials at once (default: the eval's own, else 1)",
      shard: "run shard i of n of every eval's trials (i/n), writing a partial report for proctor merge",
      junit: "write JUnit XML here",
      json: "write the reports (a JSON array, one per eval) here",
      baseline: "compare the rates with this baseline file; a significant drop fails",
      "update-baseline": "with --baseline, write the new rates to it",
      alpha: "significance level of the baseline comparison (default 0.05)",
      "budget-usd": "stop starting trials once the evals together cost this much",
      list: "list the evals and their tiers; run nothing",
      quiet: "no progress line, no per-run lines of a suite, no note of which default directory ran",
      eval: "run only the eval of this name (of a claude plugin eval suite: the case); repeat it for more, and * matches any run of characters (--eval 'guard*'); a name that matches nothing is refused with the names there are",
      traces: "keep failing trials' Traces in DIR/<eval>/trial-N.json (and the checks), and print the proctor show line for each failed check",
      "all-traces": "with --traces, keep every trial's Trace, not only the failing ones",
      claude:
        "the claude version matrix: run the evals on each listed claude — a version (2.1.197), latest, or a binary's path, comma-separated — and print each check's rate per version with Fisher's exact test against the first. Versions not in the project are installed once into $PROCTOR_CLAUDE_CACHE (default ~/.cache/proctor/claude-code)",
      ablation: "a claude plugin eval suite (EVAL_DIR): with-without (default) also runs each case without the plugin and reports the delta; none runs only with it",
      threshold: "a claude plugin eval suite: a case passes when its score is at least this (default 1)",
      "output-dir": "a claude plugin eval suite: where aggregate-result.json goes (default EVAL_DIR/results/<time>/)",
      "judge-model": "a claude plugin eval suite on --real: the model of llm graders' judge (default haiku)",
      "allow-real-servers": "a claude plugin eval suite with mocks/: start the plugin's MCP servers the suite does not mock (by default they do not start and their tools are unavailable), as claude plugin eval --allow-real-servers does",
      mocks: "a claude plugin eval suite: on (default) serves the suite's mocks/ stand-ins in place of the plugin's MCP servers; off runs the real servers",
      "allow-tools": "a claude plugin eval suite: grant these gated tools (Bash, Write, Edit, WebFetch, mcp__*; Tool(pattern) too) to every case, as claude plugin eval --allow-tools does: space-separated (--allow-tools Bash Write; the next word that is not a tool name, capitalised or mcp__…, ends the list), comma-separated or repeated; a case's gated allowed_tools without a grant are withheld, and a grader that then cannot pass is named before the run",
      "write-scripts": "a claude plugin eval suite on --real: write each case's first run as <case>/proctor.script.json and proctor.recording.jsonl (never overwriting), for the mock and replay tiers",
      "no-sandbox": "run every trial unconfined, for this reason (kept in each trace): mock and replay trials run in proctor's jail by default (needs bwrap, socat and perl on Linux), real ones only when their spec sets sandbox ({ jail: true } for the jail, { allowedDomains } for claude's own sandbox)",
      ablate:
        "also run every eval without one part of its setup — plugin:NAME (manifest or folder name), skill:NAME, agent:NAME, hook:EVENT, mcp:SERVER — and print per check the change in rate with its interval, Fisher's two-sided p and the trials per arm to see it; the arm without is written as its own report `<eval> [without …]` (overrides an eval's ablate field)",
      detect: "with --ablate: plan the trials per arm for this change in rate (e.g. 0.2) instead of the observed one",
      power: "with --ablate: the power of that plan (default 0.8)",
      "early-stop":
        "stop each eval's trials early once an anytime-valid test settles it (as the eval field earlyStop: true): every gated check shown above or below its minimum; with --ablate, the two arms run side by side and stop once every check's paired delta interval clears 0 (or, with --detect D, lies within ±D) — each verdict wrong with probability ≤ --alpha at any stop",
      html: "write the run as one self-contained HTML page: per eval its claude version, each check's rate with its interval against the minimum, and ablation deltas (for a claude plugin eval suite: per case and arm, each grader's pass rate)",
      forecast:
        "run nothing; print each eval's expected trials (exact, under its early stop) and dollars, the chance each check passes its gate, with rates and cost per trial from --baseline when given (else a fixed mock script or a replay is forecast as deterministic — every trial the first one's verdict — other rates are assumed at 90%, and real trials are bounded by their per-run cap)",
    },
    examples: ["npx proctor run", "npx proctor run evals/ --mock   # a claude plugin eval suite: both arms, aggregate-result.json", "npx proctor run evals/guard.eval.ts --trials 20 --concurrency 2 --junit reports/junit.xml", "npx proctor run evals/ --claude 2.1.197,latest --trials 10", "npx proctor run evals/ --ablate plugin:repo-hygiene --trials 20"],
    exit: "0 every gate held · 1 a gate failed, an eval was skipped, incomplete or regressed · 2 bad input",
  },
  bisect: {
    about:
      "Find the first claude version where an eval's pass rate changed: a binary search over the published versions between --from and --to (each installed once into the cache), a few trials a step. Each step prints its rates and Fisher p-values against both ends; a step the trials cannot decide is topped up, then put on the nearer side and marked uncertain. The conclusion states its confidence (a Bonferroni bound over the deciding tests) and assumes one change between the ends.",
    options: {
      eval: "the eval to bisect, when the file holds several",
      from: "the old end: a published version where the eval behaved the old way",
      to: "the new end: a published version, or latest",
      versions: "bisect over exactly these, oldest first (versions or binary paths), instead of --from/--to",
      check: "the check to follow (default: the one whose rate differs most significantly between the ends)",
      trials: "trials per version per round (default 5)",
      "max-trials": "the most trials one version gets while its step is undecided (default 4 × --trials)",
      alpha: "significance level of each step's test (default 0.05)",
      mock: "run the mock tier (default: mock, else replay, else real)",
      replay: "run the replay tier",
      real: "run the real-API tier (costs money at every step)",
    },
    examples: ["npx proctor bisect evals/guard.eval.ts --eval \"guard blocks rm -rf\" --from 2.1.197 --to latest"],
    exit: "0 found, every step decided · 1 no significant change between the ends, or a step stayed uncertain · 2 bad input",
  },
  mock: {
    about:
      "proctor mock serve: the scripted mock model as a standalone server on 127.0.0.1 that any claude can use (ANTHROPIC_BASE_URL; any API key). Each claude session gets its own run of a script: with --suite, the script of the case whose prompt started it (<case>/proctor.script.json), llm and baseline graders' judge calls answered from the cases' judge rules, and agent-played MCP mocks from mocks/<server>/proctor.answers.json — so `claude plugin eval` runs a suite offline with no glue. Runs until stopped (Ctrl-C).",
    options: { suite: "a claude plugin eval suite (eval dir) whose cases' scripts the sessions get", script: "a script (JSON/YAML) for every session no case claims", port: "listen on this port (default: a free one)" },
    examples: ["npx proctor mock serve --suite evals/ --port 8765 &  ANTHROPIC_BASE_URL=http://127.0.0.1:8765 ANTHROPIC_API_KEY=mock claude plugin eval . --trust-plugin --no-publish"],
    exit: "0 stopped by a signal · 2 bad input",
  },
  export: {
    about:
      "Write eval files as a promptfoo config that runs the same prompts and checks through proctor's provider and assertion; or (claude-plugin-eval) as a claude plugin eval suite: a case directory per eval with its case.yaml (the checks that have a grader) and its mock script as proctor.script.json. Checks without a grader are listed on stderr.",
    options: { output: "promptfoo: write the config here (default: stdout); claude-plugin-eval: the eval dir to write (default ./evals)", real: "export the real-API tier instead of the mock tier", format: "the format, instead of the first argument: promptfoo or claude-plugin-eval" },
    examples: ["npx proctor export promptfoo evals/ -o promptfooconfig.yaml", "npx proctor export --format claude-plugin-eval evals/greet.eval.ts -o my-plugin/evals"],
    exit: "0 written · 2 bad input",
  },
  replay: {
    about:
      "Replay a recorded run (claude -p stream-json, or a Claude Code session log, folder or id) on the real claude binary with today's plugins, settings and fixture: the mock says what the recorded model said; the timeline shows every divergence beside its call.",
    options: {
      plugin: "a plugin directory (--plugin-dir); repeat for several",
      fixture: "a directory copied into the replay's work dir",
      settings: "a settings JSON file (hooks, permissions) for the run",
      "allowed-tools": "tools pre-approved with --allowedTools, comma-separated",
      prompt: "the prompt to start with (default: the recording's, else a fixed one)",
      "ignore-result-text": "compare tool results by status only, not text",
      ignore: "divergence kinds that do not fail: result,status,hook,call,subagent,turn,outcome,refused",
      "stop-at-first": "stop replaying at the first tool result that differs",
      "allow-outside": "let recorded calls name this absolute path outside the replay's work dir (repeatable); any other path outside it is refused as a `refused` divergence",
      "no-sandbox": "replay outside proctor's jail (on by default; needs bwrap, socat and perl on Linux), for this reason",
      json: "write the replay's Trace (with its divergences) here",
      html: "write the timeline as an HTML page here",
      verbose: "print tool inputs and results in full",
    },
    examples: ["npx proctor replay recordings/cleanup.jsonl --plugin ./my-plugin --fixture ./fixtures/app"],
    exit: "0 the replay matched · 1 it diverged · 2 bad input",
  },
  sessions: {
    about: "List the Claude Code sessions under ~/.claude/projects ($CLAUDE_CONFIG_DIR/projects, or DIR), newest first; each id works with check, show and replay.",
    options: { json: "print the list as JSON", limit: "how many sessions (default 20)" },
    examples: ["npx proctor sessions", "npx proctor show $(npx proctor sessions --json --limit 1 | jq -r '.[0].id')"],
    exit: "0 listed · 2 bad input",
  },
  gate: {
    about:
      "A Claude Code PreToolUse hook: reads the hook's JSON on stdin and denies, asks or allows the call by the purity floor, a policy file, the Rule of Two and approval rungs; says nothing when nothing objects. Install it in settings.json hooks with `|| exit 2` so a missing binary blocks.",
    options: {
      purity: "the purity floor: pure | bounded (Bash only when provably read-only) | unrestricted",
      policy: "a Progent policy file (JSON or YAML)",
      "rule-of-two": "the legs the session holds: untrusted,sensitive,external (at most two)",
      rung: "the approval rung: manual | write | assisted | auto | bypass",
      dialect: "the agent's tool names: claude-code (default) or codex",
      approve: "answer allow (instead of nothing) when every check passes",
      "deadline-ms": "answer deny when no decision is reached within this many ms (default 8000)",
      confine: "on (default): a shell call allowed only on the classifier's word runs read-only and offline in bubblewrap (updatedInput), or is denied with how to enable it where it cannot be confined; off: classifier only, which says it is weaker",
    },
    examples: ['{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"npx proctor gate --purity bounded || exit 2"}]}]}}'],
    exit: "0 answered (the decision is in the JSON on stdout) · 2 bad input, which blocks the call",
  },
  "bash-effect": {
    about: "Classify a shell command: read-only (provably), side-effecting, or undecidable — with --explain, the reason.",
    options: {
      stdin: "read one command per line from stdin; print verdict<TAB>command",
      explain: "print the reason after the verdict",
      cwd: "judge the command where it would run, as the gate does: that directory's git configuration and this PATH (default: the text alone)",
    },
    examples: ["npx proctor bash-effect --explain 'git log | head -3'"],
    exit: "0 read-only (every command, with --stdin) · 1 side-effecting or undecidable · 2 bad input",
  },
});

/** The help text of one command: usage, what it does, every option it accepts, examples, exit codes. */
export function renderHelp(command: string, usage: string, options: Options): string {
  const help = commandHelp()[command];
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ""}--${name}${o.type === "string" ? " VALUE" : ""}${o.multiple ? " …" : ""}`;
    return [flag, help?.options[name] ?? ""] as const;
  });
  const width = Math.max(0, ...rows.map(([f]) => f.length));
  return [
    `usage: ${usage}`,
    "",
    ...(help ? [help.about, ""] : []),
    ...(rows.length ? ["options:", ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`), `${"  -h, --help".padEnd(width + 2)}  this help`, ""] : []),
    ...(help?.examples.length ? ["examples:", ...help.examples.map((e) => `  ${e}`), ""] : []),
    ...(help ? [`exit codes: ${help.exit}`, ""] : []),
  ].join("\n");
}

/** The option closest to an unknown one (`--trails` → `--trials`), if any is close. */
export function nearestOption(unknown: string, options: readonly string[]): string | undefined {
  const name = unknown.replace(/^-+/, "").split("=")[0] ?? "";
  let best: { option: string; distance: number } | undefined;
  for (const option of options) {
    const d = editDistance(name, option);
    if (d <= Math.max(1, Math.floor(option.length / 3)) && (!best || d < best.distance)) best = { option, distance: d };
  }
  return best?.option ?? options.find((o) => o.startsWith(name) && name.length >= 2);
}
