/**
 * What the sandbox stopped, read off a sandboxed command's output: a write the kernel refused
 * (`Read-only file system`) or a read of a hidden place (`No such file or directory` below it),
 * each named with the place and what made it so (the policy, the protection glob), as the text the
 * model gets after the result and the notification pi shows.
 *
 * @example
 * ```ts
 * import { sandboxStops } from "./sandbox_stops.ts";
 * // sandboxStops(output, boundaries, config, ctx) -> { message, notification } | null
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import { locate, locationIndex } from "./locations.ts";
import type { SandboxBoundaries, SandboxPlace } from "./sandbox.ts";
import { isWithin } from "../shell/paths.ts";
import type { Config, Context } from "../types.ts";

/** One thing the sandbox stopped. */
export interface SandboxStop {
  kind: "write" | "read";
  path: string;
  /** Why the place is read-only or hidden. */
  why: string;
}

const READ_ONLY = /read-only file system|EROFS/i;
const MISSING = /no such file or directory|ENOENT|permission denied|EACCES/i;

/** Words of a line that may be paths: quoted ones, and bare ones with a `/` or a leading dot. */
function pathWords(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']+)'|‘([^’]+)’|"([^"]+)"|`([^`]+)'/g)) {
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  }
  for (const w of line.split(/[\s:,()'"‘’`]+/)) {
    if (w.includes("/") || /^\.[\w.-]/.test(w)) out.push(w);
  }
  return out.filter((w) => w.length > 0 && w.length < 4096 && !/^[a-z]+:\/\//i.test(w));
}

const inside = (places: SandboxPlace[], path: string) =>
  places.filter((p) => isWithin(path, p.path)).sort((a, b) => b.path.length - a.path.length)[0];

/** What the sandbox stopped, as far as the output names it (at most a few, each place once). */
export function stopsIn(
  output: string,
  b: SandboxBoundaries,
  config: Config,
  ctx: Context,
): SandboxStop[] {
  const stops: SandboxStop[] = [];
  const seen = new Set<string>();
  const index = locationIndex(config, ctx);
  for (const line of output.split("\n")) {
    const write = READ_ONLY.test(line);
    if (!write && !MISSING.test(line)) continue;
    for (const word of pathWords(line)) {
      const path = resolve(ctx.cwd, word.startsWith("~/") ? ctx.home + word.slice(1) : word);
      const hidden = inside(b.hidden, path);
      let stop: SandboxStop | null = null;
      if (hidden) stop = { kind: write ? "write" : "read", path, why: hidden.why };
      else if (write) {
        const ro = inside(b.readOnly, path);
        if (ro) stop = { kind: "write", path, why: ro.why };
        else if (!inside(b.writable, path)) {
          const policy = locate(index, path).policy;
          stop = {
            kind: "write",
            path,
            why: policy === null
              ? "outside every writable place"
              : `policy "${policy}" does not allow write there`,
          };
        }
      }
      if (stop && !seen.has(stop.path)) {
        seen.add(stop.path);
        stops.push(stop);
      }
    }
    if (stops.length >= 5) break;
  }
  if (stops.length === 0 && READ_ONLY.test(output)) {
    stops.push({ kind: "write", path: "(a path outside the writable places)", why: "read-only" });
  }
  return stops;
}

/**
 * The text for the model and the notification for pi, or null when nothing was stopped; `refused`:
 * the hosts the network allow list refused the call (lib/sandbox_proxy.ts).
 */
export function sandboxStops(
  output: string,
  b: SandboxBoundaries,
  config: Config,
  ctx: Context,
  refused: readonly string[] = [],
): { message: string; notification: string } | null {
  const stops = stopsIn(output, b, config, ctx);
  const net = networkStops(refused, b);
  if (stops.length === 0) return net;
  const files = fileStops(stops, b);
  return net
    ? {
      message: `${files.message}\n${net.message}`,
      notification: `${files.notification}\n${net.notification}`,
    }
    : files;
}

/** What the network allow list refused, for the model and for pi. */
function networkStops(
  refused: readonly string[],
  b: SandboxBoundaries,
): { message: string; notification: string } | null {
  if (refused.length === 0) return null;
  const list = typeof b.network === "object" ? b.network.allowedDomains : [];
  const hosts = refused.slice(0, 5).join(", ") + (refused.length > 5 ? ", …" : "");
  return {
    message: `[pi-controls sandbox] The sandbox's network allow list refused ${hosts}: only ` +
      `${list.length ? list.join(", ") : "no host"} may be reached, by programs that use the ` +
      `proxy HTTP_PROXY/HTTPS_PROXY name; nothing else has network inside the sandbox. Do not ` +
      `try another way; ask the user if the task needs more.`,
    notification: `pi-controls: the sandbox's network allow list refused ${hosts}`,
  };
}

/** The text and the notification of what the filesystem boundaries stopped. */
function fileStops(
  stops: SandboxStop[],
  b: SandboxBoundaries,
): { message: string; notification: string } {
  const what = stops.map((s) =>
    `${s.kind === "write" ? "a write to" : "a read of"} ${s.path} (${
      s.kind === "write" ? "read-only" : "hidden"
    }: ${s.why})`
  );
  const writable = b.writable.map((w) => w.path);
  const message = `[pi-controls sandbox] The OS sandbox stopped ${what.join("; ")}. ` +
    `The restriction is on the PATH and enforced by the OS — do not retry it another way. ` +
    `Writable here: ${writable.length ? writable.join(", ") : "nothing"}; ask the user if the ` +
    `task needs more.`;
  return {
    message,
    notification: `pi-controls: sandbox stopped ${what.join("; ")}`,
  };
}
