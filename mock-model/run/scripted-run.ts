/**
 * What a run on the mock server is, whichever API it speaks (Messages for Claude Code, Responses
 * for Codex): its key and script, every request, the hard errors that fail it, the faults it
 * served — and the one way a turn is looked up, computed, counted and failed.
 */
import type { ModelRequest } from "../../src/trace/types.js";
import { scriptErrors } from "../script/schema.js";
import type { Script, ScriptFault, ToolResultSeen, Turn, TurnSpec } from "../script/types.js";

/** A problem the mock hit while serving a run; each one fails the run. */
export interface ScriptedRunError<Kind extends string> {
  readonly kind: Kind;
  readonly message: string;
  readonly agent: string;
  /** 1-based number of the turn that was asked for. */
  readonly turn: number;
}

/** A run registered on a mock server: hand its `apiKey` to the CLI, then read what it received. */
export interface ScriptedRun<E> {
  readonly apiKey: string;
  readonly script: Script;
  /** Requests that offered tools (the main agent's and its subagents'), in arrival order. */
  readonly requests: readonly ModelRequest[];
  /** The CLI's own side requests (no tools): answered with `sideReply`, never consuming a turn. */
  readonly sideRequests: readonly ModelRequest[];
  /** Script overruns and the other hard errors; non-empty means the run failed because of the script. */
  readonly errors: readonly E[];
  /** How many scripted faults were served (so an API error in the trace is known to be intended). */
  readonly faultsServed: number;
  /** One line on the last main/subagent request: the agent, the turn asked for, the last thing it received. */
  describeLastRequest(): string | undefined;
  /** Stop serving this key. */
  remove(): void;
}

/** Where one conversation is in its turns. */
export interface TurnPosition {
  /** The next turn to serve. */
  next: number;
  /** Consecutive faults served at `next` so far. */
  faultsAtNext: number;
}

/** The answer that fails a request (and so the run) with the mock's own message. */
export interface ErrorAnswer {
  readonly kind: "error";
  readonly status: number;
  readonly type: string;
  readonly text: string;
}

/** Usage a turn reports unless it scripts its own. */
export const DEFAULT_USAGE = { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 };

/** The errors every run can hit; each API adds its own kinds. */
type TurnErrorKind = "script-overrun" | "turn-failed";

/** The state both APIs' runs keep, and the steps of serving a turn they take alike. `K`: the API's own error kinds. */
/** How claude ≥ 2.1.3xx hands the main agent a finished background task (a subagent, a shell, a Monitor). */
const BACKGROUND_NOTICE = /SYSTEM NOTIFICATION - NOT USER INPUT|background-task event|<task-notification>/;

/** What to do about a turn the script lacks because background work ended. */
const NOTIFICATION_HINT =
  "this request is claude's background-task notification (claude ≥ 2.1.3xx runs subagents, and Monitor, in the background and gives the main agent one more turn when one ends); the mock answers it itself only for an Agent call that does not set run_in_background, while the script's protocolTurns leaves background filling on: script the main agent's answer to it as one more turn, or drop run_in_background from the Agent call";

export abstract class ScriptedRunState<K extends string> implements ScriptedRun<ScriptedRunError<TurnErrorKind | K>> {
  readonly requests: ModelRequest[] = [];
  readonly sideRequests: ModelRequest[] = [];
  readonly errors: ScriptedRunError<TurnErrorKind | K>[] = [];
  faultsServed = 0;
  protected lastDescription: string | undefined;
  private counter = 0;

  constructor(
    readonly apiKey: string,
    readonly script: Script,
    private readonly tag: string,
    private readonly onRemove: () => void,
  ) {}

  remove(): void {
    this.onRemove();
  }

  describeLastRequest(): string | undefined {
    return this.lastDescription;
  }

  /**
   * The spec of the turn `agent` asks for at `at`, or the error answer that fails the run: past
   * the script's end, or a function turn that threw or returned an invalid turn.
   */
  protected async resolveTurn(
    turns: readonly Turn[],
    at: TurnPosition,
    agent: string,
    lastReceived: string,
    context: { request: ModelRequest; body: Record<string, unknown>; toolResults: () => ToolResultSeen[] },
  ): Promise<{ spec: TurnSpec } | { error: ErrorAnswer }> {
    const turnNumber = at.next + 1;
    const turn = turns[at.next];
    if (turn === undefined) {
      const n = turns.length;
      const hint = BACKGROUND_NOTICE.test(lastReceived) ? `; ${NOTIFICATION_HINT}` : "";
      return this.failWith(at, agent, "script-overrun", `script overrun: ${agent} asked for turn ${turnNumber} but its script has ${n} turn${n === 1 ? "" : "s"}; the last thing it received was ${lastReceived}${hint}`);
    }
    if (typeof turn !== "function") return { spec: turn };
    const toolResults = context.toolResults();
    let spec: TurnSpec;
    try {
      spec = await turn({ agent, turn: at.next, request: context.request, toolResults, ...(toolResults.length ? { lastToolResult: toolResults[toolResults.length - 1] } : {}), body: context.body });
    } catch (error) {
      return this.failWith(at, agent, "turn-failed", `the function for ${agent} turn ${turnNumber} threw: ${(error as Error)?.message ?? String(error)}`);
    }
    const problems = scriptErrors({ turns: [spec] }).map((p) => p.replace(/^turns\[0\]/, "turn"));
    if (problems.length > 0) return this.failWith(at, agent, "turn-failed", `the function for ${agent} turn ${turnNumber} returned an invalid turn: ${problems.join("; ")}`);
    return { spec };
  }

  private failWith(at: TurnPosition, agent: string, kind: TurnErrorKind, detail: string): { error: ErrorAnswer } {
    return { error: this.fail(at, agent, kind, detail) };
  }

  /** Count a served turn: a fault is served `times` before the conversation moves on. Returns the fault, if it was one. */
  protected step(at: TurnPosition, spec: TurnSpec): ScriptFault | undefined {
    if (spec.fault !== undefined) {
      this.faultsServed++;
      at.faultsAtNext++;
    }
    if (spec.fault === undefined || at.faultsAtNext >= (spec.times ?? 1)) {
      at.next++;
      at.faultsAtNext = 0;
    }
    return spec.fault;
  }

  /** Record a hard error and answer the request with it (a 400 the CLI reports). */
  protected fail(at: TurnPosition, agent: string, kind: TurnErrorKind | K, detail: string): ErrorAnswer {
    const message = `proctor mock model: ${detail}`;
    this.errors.push({ kind, message, agent, turn: at.next + 1 });
    return { kind: "error", status: 400, type: "invalid_request_error", text: message };
  }

  protected nextId(prefix: string): string {
    return `${prefix}_mock_${this.tag}_${++this.counter}`;
  }
}
