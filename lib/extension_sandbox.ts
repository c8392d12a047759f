/**
 * The sandbox in pi: whether it can start (found once per process and shown at start-up), which
 * bash calls run in it (a `sandbox` verdict, or an approved ask where any part was `sandbox`),
 * their command replaced by one that runs it inside bubblewrap, and what the sandbox stopped,
 * told to the model after the result and shown in pi. Where the network is an allow list, the
 * filtering proxy (lib/sandbox_proxy.ts) starts at the first such call and stops with the session.
 *
 * @module
 */
import {
  type SandboxBoundaries,
  sandboxBoundaries,
  strictestBoundaries,
} from "./policy/sandbox.ts";
import { sandboxStops } from "./policy/sandbox_stops.ts";
import { type ProxyLink, type SandboxProbe, sandboxProbe, wrapCommand } from "./sandbox_runner.ts";
import { type NetworkProxy, startProxy } from "./sandbox_proxy.ts";
import type { Action, Config, Context, Verdict } from "./types.ts";

/** A sandboxed call waiting for its result. */
interface Pending {
  boundaries: SandboxBoundaries;
  /** The call's token at the proxy (an allow list), to tell the hosts it refused. */
  token?: string;
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
  /** The network proxy, started at the first call with an allow list (null: not yet). */
  proxy: Promise<NetworkProxy> | null;
  /** The proxy once it runs. */
  running: NetworkProxy | null;
  /** How to start it (tests give the proxy a resolver). */
  startProxy: () => Promise<NetworkProxy>;
}

/** A fresh sandbox state; `prober` defaults to starting bubblewrap once. */
export function newSandboxState(
  env: Record<string, string | undefined>,
  prober?: () => SandboxProbe,
  proxy?: () => Promise<NetworkProxy>,
): SandboxState {
  return {
    probe: null,
    pending: new Map(),
    prepared: new Map(),
    prober: prober ?? (() => sandboxProbe(env)),
    proxy: null,
    running: null,
    startProxy: proxy ?? (() => startProxy()),
  };
}

/** Stop the network proxy, if it started (pi's session ends). */
export async function stopSandbox(s: SandboxState): Promise<void> {
  const proxy = s.proxy;
  s.proxy = null;
  s.running = null;
  if (proxy) await proxy.then((p) => p.close(), () => {});
}

/**
 * The way to the proxy for a call whose network is an allow list, with the call's token; null
 * when the proxy cannot start (the call then has no network at all).
 */
async function proxyLink(
  s: SandboxState,
  allowed: readonly string[],
): Promise<{ link: ProxyLink; token: string } | null> {
  s.proxy ??= s.startProxy();
  let proxy: NetworkProxy;
  try {
    proxy = s.running = await s.proxy;
  } catch {
    s.proxy = null;
    return null;
  }
  const token = proxy.open(allowed);
  return { link: { dir: proxy.dir, bridge: proxy.bridgeArgv(token) }, token };
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
 * where an untrusted project config is merged); with an allow list, through the proxy (started
 * now if it is not yet; where it cannot start, the call has no network). False when the sandbox
 * cannot start.
 */
export async function sandboxCall(
  s: SandboxState,
  toolCallId: string,
  input: Record<string, unknown>,
  eff: { config: Config; base: Config | null },
  ctx: Context,
): Promise<boolean> {
  const probe = sandboxReady(s);
  if (!probe.ok || typeof input.command !== "string") return false;
  const b = s.prepared.get(toolCallId) ?? boundariesFor(eff, ctx);
  s.prepared.delete(toolCallId);
  const via = typeof b.network === "object" ? await proxyLink(s, b.network.allowedDomains) : null;
  input.command = wrapCommand(input.command, b, ctx.cwd, probe.bwrap, via?.link);
  if (s.pending.size > 256) s.pending.clear();
  s.pending.set(toolCallId, { boundaries: b, config: eff.config, ctx, token: via?.token });
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
  return sandboxStops(output, p.boundaries, p.config, p.ctx, refusedHosts(s, p.token));
}

/** The hosts the proxy refused a call (and the call forgotten there). */
function refusedHosts(s: SandboxState, token: string | undefined): string[] {
  if (token === undefined || !s.running) return [];
  const hosts = s.running.refused(token);
  s.running.forget(token);
  return hosts;
}
