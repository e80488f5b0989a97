/**
 * Routing by conversation, not by arrival order: each request belongs to the main agent or to
 * one subagent dispatch. A request that carries a tool call this run emitted belongs to the
 * conversation that emitted it; otherwise its first user message is matched against the prompts
 * of the Agent calls the script dispatched; anything else is the main agent.
 */
import { MAIN_AGENT } from "../../src/trace/types.js";
import type { SubagentScript, Turn } from "../script/types.js";
import { firstUserText } from "./flatten.js";
import { at } from "../../src/util/narrow.js";

type Json = Record<string, unknown>;

const SUBAGENT_TOOLS = new Set(["Agent", "Task"]);

/** One agent's conversation and its place in its script. */
export interface Conversation {
  /** `"main"` or the subagent type. */
  readonly agent: string;
  /** The dispatching tool_use id, for subagents. */
  readonly dispatchId?: string;
  readonly prompt: string;
  /** `undefined` when no subagent script matched this dispatch. */
  readonly turns: readonly Turn[] | undefined;
  /** The next turn to serve. */
  next: number;
  /** Consecutive faults served at `next` so far. */
  faultsAtNext: number;
  /** Assistant messages this conversation answered with (for telling identical dispatches apart). */
  answered: number;
}

interface Dispatch {
  readonly id: string;
  readonly type: string;
  readonly prompt: string;
  conversation?: Conversation;
}

/** Every conversation of one run: the main agent's and one per subagent dispatch. */
export class Conversations {
  readonly main: Conversation;
  private readonly owners = new Map<string, Conversation>();
  private readonly dispatches: Dispatch[] = [];
  /** Tool names by the tool_use ids this run emitted. */
  readonly toolNames = new Map<string, string>();

  constructor(
    mainTurns: readonly Turn[],
    private readonly subagents: readonly SubagentScript[],
  ) {
    this.main = { agent: MAIN_AGENT, prompt: "", turns: mainTurns, next: 0, faultsAtNext: 0, answered: 0 };
  }

  /** Remember the tool calls a conversation emitted, so later requests route back to it. */
  noteEmitted(conversation: Conversation, calls: readonly { id: string; name: string; input: Record<string, unknown> }[]): void {
    conversation.answered++;
    for (const c of calls) {
      this.owners.set(c.id, conversation);
      this.toolNames.set(c.id, c.name);
      if (SUBAGENT_TOOLS.has(c.name)) {
        this.dispatches.push({ id: c.id, type: String(c.input.subagent_type ?? "general-purpose"), prompt: String(c.input.prompt ?? "") });
      }
    }
  }

  /** The conversation a request belongs to. */
  route(messages: readonly Json[]): Conversation {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = at(messages, i);
      if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
      for (const b of m.content) {
        const owner = b?.type === "tool_use" ? this.owners.get(String(b.id)) : undefined;
        if (owner) return owner;
      }
    }
    const first = firstUserText(messages).trim();
    const candidates = first ? this.dispatches.filter((d) => d.prompt.trim() !== "" && first.includes(d.prompt.trim())) : [];
    if (candidates.length === 0) return this.main;
    const answeredBefore = messages.filter((m) => m.role === "assistant").length;
    const resumed = candidates.find((d) => d.conversation && d.conversation.answered === answeredBefore && answeredBefore > 0);
    const fresh = candidates.find((d) => !d.conversation);
    const pick = resumed ?? (answeredBefore === 0 ? fresh : undefined) ?? candidates.find((d) => d.conversation) ?? at(candidates, 0);
    pick.conversation ??= this.open(pick);
    return pick.conversation;
  }

  private open(d: Dispatch): Conversation {
    const script = this.subagents.find(
      (s) => (s.type === undefined || s.type === d.type) && (s.prompt === undefined || (typeof s.prompt === "string" ? d.prompt.includes(s.prompt) : s.prompt.test(d.prompt))),
    );
    return { agent: d.type, dispatchId: d.id, prompt: d.prompt, turns: script?.turns, next: 0, faultsAtNext: 0, answered: 0 };
  }

  /**
   * Turns not yet served, per conversation that has any left (main included even if never asked);
   * `required`: how many of them are not marked `optional` (a function turn counts as required).
   */
  unused(): { agent: string; dispatchId?: string; remaining: number; required: number }[] {
    const all = [this.main, ...this.dispatches.flatMap((d) => (d.conversation ? [d.conversation] : []))];
    return all.flatMap((c) => {
      const left = (c.turns ?? []).slice(c.next);
      const required = left.filter((t) => typeof t === "function" || t.optional !== true).length;
      return left.length > 0 ? [{ agent: c.agent, ...(c.dispatchId ? { dispatchId: c.dispatchId } : {}), remaining: left.length, required }] : [];
    });
  }
}
