/**
 * The sandbox in pi: whether it can start (found once per process and shown at start-up), which
 * bash calls run in it (a `sandbox` verdict, or an approved ask where any part was `sandbox`),
 * their command replaced by one that runs it inside bubblewrap, and what the sandbox stopped,
 * told to the model after the result and shown in pi.
 *
 * @module
 */
import {
  type SandboxBoundaries,
  sandboxBoundaries,
  strictestBoundaries,
} from "./policy/sandbox.ts";
import { sandboxStops } from "./policy/sandbox_stops.ts";
import { type SandboxProbe, sandboxProbe, wrapCommand } from "./sandbox_runner.ts";
import type { Action, Config, Context, Verdict } from "./types.ts";

/** A sandboxed call waiting for its result. */
interface Pending {
  boundaries: SandboxBoundaries;
  config: Config;
  ctx: Context;
}

/** The sandbox's state in one pi process. */
export interface SandboxState {
  /** Whether bubblewrap can start (found at the first need). */
  probe: SandboxProbe | null;
  /** Sandboxed calls by tool call id, until their result. */
  pending: Map<string, Pending>;
  /** Boundaries found before the call was enforced, by tool call id. */
  prepared: Map<string, SandboxBoundaries>;
  /** How to find out whether the sandbox can start (tests replace it). */
  prober: () => SandboxProbe;
}

/** A fresh sandbox state; `prober` defaults to starting bubblewrap once. */
export function newSandboxState(
  env: Record<string, string | undefined>,
  prober?: () => SandboxProbe,
): SandboxState {
  return {
    probe: null,
    pending: new Map(),
    prepared: new Map(),
    prober: prober ?? (() => sandboxProbe(env)),
  };
}

/** Whether the sandbox can start (asked once per process). */
export function sandboxReady(s: SandboxState): SandboxProbe {
  return s.probe ??= s.prober();
}

/** The start-up warning when the config has the sandbox on and it cannot start, else null. */
export function sandboxStartupNote(s: SandboxState, config: Config | null): string | null {
  if (!config?.sandbox?.enabled) return null;
  const probe = sandboxReady(s);
  return probe.ok ? null : `pi-controls: the sandbox cannot start: ${probe.reason}. Calls the ` +
    `config sandboxes will ask instead.`;
}

/** The boundaries of a call's configs (held to the global config's where a project is untrusted). */
function boundariesFor(eff: { config: Config; base: Config | null }, ctx: Context) {
  const b = sandboxBoundaries(eff.config, ctx);
  return eff.base ? strictestBoundaries(b, sandboxBoundaries(eff.base, ctx)) : b;
}

/**
 * Why a call the config sandboxes cannot run in the sandbox (it then asks), or null: bubblewrap
 * does not start, or a protected path may have been missed. The boundaries are kept for the call.
 */
export function sandboxBlocker(
  s: SandboxState,
  toolCallId: string,
  eff: { config: Config; base: Config | null },
  ctx: Context,
): string | null {
  const probe = sandboxReady(s);
  if (!probe.ok) return `the sandbox cannot start: ${probe.reason}`;
  const b = boundariesFor(eff, ctx);
  if (!b.complete) {
    return "the sandbox could not list every protected path below the cwd (too many files)";
  }
  if (s.prepared.size > 256) s.prepared.clear();
  s.prepared.set(toolCallId, b);
  return null;
}

/** Whether a bash call that may proceed runs in the sandbox: any part of it was `sandbox`. */
export function runsSandboxed(verdict: Verdict, final: Action): boolean {
  if (verdict.tool !== "bash") return false;
  if (final === "sandbox") return true;
  return final === "allow" && verdict.action === "ask" &&
    verdict.stages.some((st) => st.targets.some((t) => t.action === "sandbox"));
}

/**
 * Run a bash call in the sandbox: its command replaced (in place, as pi lets an extension) by one
 * that starts bubblewrap on it, with the boundaries of the config (held to the global config's
 * where an untrusted project config is merged). False when the sandbox cannot start.
 */
export function sandboxCall(
  s: SandboxState,
  toolCallId: string,
  input: Record<string, unknown>,
  eff: { config: Config; base: Config | null },
  ctx: Context,
): boolean {
  const probe = sandboxReady(s);
  if (!probe.ok || typeof input.command !== "string") return false;
  const b = s.prepared.get(toolCallId) ?? boundariesFor(eff, ctx);
  s.prepared.delete(toolCallId);
  input.command = wrapCommand(input.command, b, ctx.cwd, probe.bwrap);
  if (s.pending.size > 256) s.pending.clear();
  s.pending.set(toolCallId, { boundaries: b, config: eff.config, ctx });
  return true;
}

/** What the sandbox stopped in a sandboxed call's result, or null (also for other calls). */
export function sandboxResult(
  s: SandboxState,
  toolCallId: string,
  output: string,
): { message: string; notification: string } | null {
  const p = s.pending.get(toolCallId);
  if (!p) return null;
  s.pending.delete(toolCallId);
  return sandboxStops(output, p.boundaries, p.config, p.ctx);
}
