/**
 * The `claude plugin eval` suite format (schema 1.x), as claude 2.1.332 validates it: a case per
 * directory under the eval dir, graders scored by weight, a with-plugin and a without-plugin arm.
 * docs/plugin-eval-format.md is the reference these types follow.
 */

/** What a regex or llm grader reads. */
export type GraderTarget = "last_message" | "trace" | "files" | "mock_calls" | { readonly source: "file"; readonly path: string };

/** A tool as tool_order names it: a name, or a name with a regex over the call's input JSON. */
export interface ToolRef {
  readonly tool: string;
  readonly input_match?: string | undefined;
}

interface GraderBase {
  readonly name: string;
  /** > 0. @default 1 */
  readonly weight: number;
  /** `with-only`: reported but not scored under ablation, and not run in the without arm. */
  readonly arm?: "with-only" | "both" | undefined;
}

export interface RegexGrader extends GraderBase {
  readonly type: "regex";
  readonly target: GraderTarget;
  readonly pattern: string;
  /** JS RegExp flags. @default "" */
  readonly flags: string;
  /** `contains`, `not_contains` or `count:N`. @default "contains" */
  readonly match: string;
}
export interface ToolOrderGrader extends GraderBase {
  readonly type: "tool_order";
  readonly before: ToolRef;
  readonly after: ToolRef;
}
export interface ToolUsedGrader extends GraderBase {
  readonly type: "tool_used";
  readonly tool: string;
  readonly input_match?: string | undefined;
  readonly min?: number | undefined;
  readonly max?: number | undefined;
}
export interface FileExistsGrader extends GraderBase {
  readonly type: "file_exists";
  /** A glob over the created files (see globRegExp in grade.ts). */
  readonly path: string;
  readonly exists: boolean;
}
export interface LlmGrader extends GraderBase {
  readonly type: "llm";
  readonly criteria: string;
  readonly focus: GraderTarget;
}
export interface BaselineGrader extends GraderBase {
  readonly type: "baseline";
  readonly baseline_file: string;
  readonly criteria: string;
}

export type Grader = RegexGrader | ToolOrderGrader | ToolUsedGrader | FileExistsGrader | LlmGrader | BaselineGrader;
export type GraderType = Grader["type"];
export const GRADER_TYPES: readonly GraderType[] = ["regex", "tool_order", "tool_used", "file_exists", "llm", "baseline"];

/** One case, validated, its defaults filled in. */
export interface PluginEvalCase {
  readonly schema_version: string;
  readonly name: string;
  readonly description?: string | undefined;
  readonly tags: readonly string[];
  readonly plugins?: readonly string[] | undefined;
  readonly context: { readonly scaffold_script?: string | undefined; readonly history_file?: string | undefined; readonly add_dirs: readonly string[] };
  readonly execution: {
    readonly prompt: string;
    readonly max_turns: number;
    readonly timeout_seconds: number;
    readonly model?: string | undefined;
    readonly allowed_tools: readonly string[];
    readonly disallowed_tools?: readonly string[] | undefined;
    readonly artifact_publish?: boolean | undefined;
    readonly growthbook_overrides?: Readonly<Record<string, unknown>> | undefined;
    readonly append_system_prompt?: string | undefined;
    readonly env: Readonly<Record<string, string>>;
  };
  readonly runs: number;
  readonly graders: readonly Grader[];
  readonly expected_outcome?: string | undefined;
}

/** A case as read from disk: where it is and how it was written. */
export interface SuiteCase {
  readonly case: PluginEvalCase;
  /** The case directory (absolute). */
  readonly dir: string;
  /** Relative to the suite's parent, as the binary reports it (`evals/hello`). */
  readonly relDir: string;
  /** `yaml`: case.yaml (maybe with prompt.md / graders); `prose`: prompt.md and graders only. */
  readonly source: "yaml" | "prose";
}

/** A suite: the eval dir and its cases, in the binary's order (sorted by directory). */
export interface PluginEvalSuite {
  /** The eval dir (absolute). */
  readonly root: string;
  /** The plugin the suite belongs to (the eval dir's parent holds `.claude-plugin/plugin.json`), when it does. */
  readonly pluginDir?: string;
  readonly cases: readonly SuiteCase[];
}
