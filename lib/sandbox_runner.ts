/**
 * The sandbox's runner: bubblewrap (`bwrap`), called directly. The boundaries
 * (lib/policy/sandbox.ts) become its mounts: the whole filesystem read-only, the writable places
 * bound writable, read-only places inside them bound read-only again, hidden places covered by an
 * empty read-only directory (or `/dev/null` for a file), no network when the block says so; `--die-with-parent` and
 * `--new-session` (no reaching pi's terminal). A bash call runs inside it by its command being
 * replaced with one that starts bwrap on it: pi's own bash tool runs that (pi 1.x and 0.7x both let
 * an extension change a tool call's input), so output, timeouts and aborts stay pi's.
 *
 * Whether it can start (Linux, `bwrap` on the PATH, user namespaces allowed) is found by starting
 * it once; where it cannot, the `sandbox` action asks (lib/extension.ts).
 *
 * @example
 * ```ts
 * import { sandboxProbe, wrapCommand } from "./sandbox_runner.ts";
 * const probe = sandboxProbe();
 * // if (probe.ok) input.command = wrapCommand(input.command, boundaries, cwd, probe.bwrap);
 * ```
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { isWithin } from "./shell/paths.ts";
import { shellQuote } from "./shell/words.ts";
import process from "node:process";
import type { SandboxBoundaries, SandboxPlace } from "./policy/sandbox.ts";
import { seccompEscapes, seccompFilter, seccompRedirect } from "./sandbox_seccomp.ts";

/** Whether the sandbox can start here, and how. */
export type SandboxProbe = { ok: true; bwrap: string } | { ok: false; reason: string };

/** The bwrap executable on a PATH, or null. */
function findBwrap(path: string | undefined): string | null {
  for (const dir of (path ?? "/usr/bin:/bin").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, "bwrap");
    try {
      const st = statSync(file, { throwIfNoEntry: false });
      if (st?.isFile() && (st.mode & 0o111) !== 0) return file;
    } catch { /* not here */ }
  }
  return null;
}

/**
 * Find out whether bubblewrap can start: on Linux, with `bwrap` on the PATH, a seccomp filter for
 * the architecture, and a trial run of `true` inside a minimal sandbox with the filter succeeding
 * (it fails without user namespaces).
 */
export function sandboxProbe(
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
  arch: string = process.arch,
): SandboxProbe {
  if (platform !== "linux") {
    return { ok: false, reason: `the sandbox needs Linux (bubblewrap); this is ${platform}` };
  }
  const bwrap = findBwrap(env.PATH);
  if (!bwrap) {
    return { ok: false, reason: "bubblewrap (bwrap) is not installed or not on the PATH" };
  }
  if (!seccompFilter(arch)) {
    return {
      ok: false,
      reason: `the sandbox has no seccomp filter for ${arch} (to keep unix sockets out)`,
    };
  }
  let trial: { status: number | null; stderr?: string; error?: Error };
  try {
    // (With the seccomp filter, read from standard input: a kernel or bwrap without seccomp
    // fails here, not on every call.)
    trial = spawnSync(
      bwrap,
      [..."--ro-bind / / --dev /dev --proc /proc --die-with-parent --seccomp 0".split(" "), "true"],
      { encoding: "utf8", timeout: 10_000, input: seccompFilter(arch)! },
    );
  } catch (e) {
    // A runtime that may not start programs (Deno without --allow-run=bwrap).
    return { ok: false, reason: `bwrap may not be started here (${(e as Error).message})` };
  }
  if (typeof trial.status !== "number" && !trial.error && !trial.stderr) {
    return {
      ok: false,
      reason: "bwrap may not be started by this runtime (Deno without --allow-run)",
    };
  }
  if (trial.status !== 0) {
    const why = (trial.stderr || String(trial.error ?? `exit ${trial.status}`)).trim();
    return {
      ok: false,
      reason: `bubblewrap cannot start here (${why.split("\n")[0]}); are user namespaces ` +
        `allowed (kernel.unprivileged_userns_clone, a container's seccomp profile)?`,
    };
  }
  return { ok: true, bwrap };
}

/**
 * One mount: the place, and whether it is writable, read-only or hidden; `keep`: a directory on
 * the way from a writable place to a read-only or hidden one, mounted onto itself as it is, so
 * that it cannot be renamed away and made again without what protects it (`mv .git x && mkdir
 * -p .git/hooks`): the kernel refuses to rename a mount point.
 */
type Mount = { place: SandboxPlace; as: "writable" | "read-only" | "hidden" | "keep" };

const depth = (p: string) => (p === "/" ? 0 : p.split("/").length);

/** The mounts of the boundaries, outer places first (an inner place is mounted over its outer). */
function mounts(b: SandboxBoundaries): Mount[] {
  const all: Mount[] = [
    ...b.writable.map((place) => ({ place, as: "writable" as const })),
    ...b.readOnly.map((place) => ({ place, as: "read-only" as const })),
    ...b.hidden.map((place) => ({ place, as: "hidden" as const })),
  ];
  const placed = new Set(all.map((m) => m.place.path));
  for (const m of [...all]) {
    if (m.as === "writable") continue;
    for (let d = dirname(m.place.path); d !== dirname(d) && !placed.has(d); d = dirname(d)) {
      if (!b.writable.some((w) => isWithin(d, w.path))) break;
      placed.add(d);
      all.push({ place: { path: d, why: "keeps what is below it", dir: true }, as: "keep" });
    }
  }
  // (Stable: at equal depth writable, then read-only, then hidden, then kept.)
  return all.sort((x, y) => depth(x.place.path) - depth(y.place.path));
}

/** The deepest mount above `path` among those already made: how it is mounted now. */
function mountedAs(made: Mount[], path: string): Mount["as"] {
  let best: Mount | null = null;
  for (const m of made) {
    if (isWithin(path, m.place.path) && (!best || m.place.path.length > best.place.path.length)) {
      best = m;
    }
  }
  return best?.as ?? "read-only";
}

/** The file descriptor bubblewrap reads the seccomp filter from (`--seccomp 9`, `9< <(…)`). */
const FILTER_FD = 9;

/** The seccomp filter of this process's architecture (the probe refuses one without). */
function filterHere(): Uint8Array {
  const filter = seccompFilter(process.arch);
  if (!filter) throw new Error(`the sandbox has no seccomp filter for ${process.arch}`);
  return filter;
}

/**
 * bubblewrap's arguments for the boundaries, up to the command (`--` not included). Without an
 * allow list, the seccomp filter is bubblewrap's own (`--seccomp 9`: the command line opens it on
 * that descriptor); with one, it applies to the command alone, after the bridge (see `WITH_PROXY`).
 */
export function bwrapArgs(b: SandboxBoundaries, cwd: string, proxyDir?: string): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  const made: Mount[] = [];
  for (const m of mounts(b)) {
    const { place, as } = m;
    const p = place.path;
    if (as === "keep") {
      // As it is mounted now: writable where it lies in a writable place, else read-only.
      const now = mountedAs(made, p);
      if (now === "hidden") continue;
      args.push(now === "writable" ? "--bind" : "--ro-bind", p, p);
      made.push({ place, as: now });
      continue;
    } else if (as === "writable") {
      if (p === "/") args.push("--bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
      else args.push("--bind", p, p);
    } else if (as === "read-only" && !place.absent) args.push("--ro-bind", p, p);
    else if (place.dir || place.absent) args.push("--tmpfs", p, "--remount-ro", p);
    else args.push("--ro-bind", "/dev/null", p);
    made.push(m);
  }
  if (b.network !== "unrestricted") args.push("--unshare-net");
  // The proxy's socket and the bridge's script, over whatever the boundaries made of the place.
  if (typeof b.network === "object" && proxyDir) args.push("--ro-bind", proxyDir, proxyDir);
  // Its own process ids: /proc/PID/root of a process outside would lead back to the host's
  // writable filesystem (and its processes could be traced).
  args.push("--unshare-pid", "--unshare-ipc");
  args.push("--die-with-parent", "--new-session", "--chdir", cwd);
  if (typeof b.network !== "object") args.push("--seccomp", String(FILTER_FD));
  return args;
}

/**
 * Inside a sandbox with an allow list: start the bridge (the words after the command, bubblewrap
 * and the filter), wait for the port it listens on, point the proxy variables at it, then run the
 * command. Without a bridge the command runs with no network at all. The bridge needs a unix
 * socket to reach the proxy, so the seccomp filter is put on the command alone: bubblewrap again,
 * inside, over the same mounts (`--dev-bind / /` keeps each as it is, read-only, hidden or writable), with the filter; if that cannot
 * start, neither does the command.
 */
const WITH_PROXY = `cmd=$1 bwrap=$2 filter=$3; shift 3
exec 3< <(exec "$@" 2>/dev/null)
if IFS= read -r port <&3 && [[ $port =~ ^[0-9]+$ ]]; then
  p=http://127.0.0.1:$port
  export HTTP_PROXY=$p HTTPS_PROXY=$p http_proxy=$p https_proxy=$p ALL_PROXY=$p all_proxy=$p
  export NO_PROXY=localhost,127.0.0.1,::1 no_proxy=localhost,127.0.0.1,::1 NODE_USE_ENV_PROXY=1
else
  echo "[pi-controls sandbox] the network proxy did not start in the sandbox: no network" >&2
fi
exec 3<&-
exec "$bwrap" --bind / / --dev-bind /dev /dev --die-with-parent --seccomp ${FILTER_FD} -- bash -c "$cmd" \
  ${FILTER_FD}< <(printf "$filter")`;

/** How a sandbox with an allow list reaches pi-controls' proxy (lib/sandbox_proxy.ts). */
export interface ProxyLink {
  /** The proxy's private directory (its socket and the bridge's script), bound into the sandbox. */
  dir: string;
  /** The command that starts the bridge inside the sandbox. */
  bridge: string[];
}

/**
 * The command line that runs `command` inside the sandbox: bwrap started in its place (`exec`),
 * running bash on the command as pi's bash tool would; with an allow list, the bridge to the
 * proxy first (without `proxy`, such a sandbox has no network at all).
 */
export function wrapCommand(
  command: string,
  b: SandboxBoundaries,
  cwd: string,
  bwrap: string,
  proxy?: ProxyLink,
): string {
  const filter = filterHere();
  if (typeof b.network === "object") {
    // (Without the proxy's link, such a sandbox has no network: the bridge is `false`.)
    const bridge = proxy?.bridge ?? ["false"];
    const escapes = seccompEscapes(filter);
    const inner = ["bash", "-c", WITH_PROXY, "pi-controls-net", command, bwrap, escapes, ...bridge];
    const words = [bwrap, ...bwrapArgs(b, cwd, proxy?.dir), "--", ...inner];
    return `exec ${words.map(shellQuote).join(" ")}`;
  }
  const words = [bwrap, ...bwrapArgs(b, cwd), "--", "bash", "-c", command];
  return `exec ${words.map(shellQuote).join(" ")} ${seccompRedirect(filter, FILTER_FD)}`;
}
