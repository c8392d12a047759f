/**
 * The sandbox's network allow list (`"network": { "allowedDomains": [...] }`): what an entry may
 * be, which hosts it lets through, and the stricter of two settings. A pure module: the config
 * validates entries with it, the proxy (lib/sandbox_proxy.ts) asks it about every connection.
 *
 * An entry is a host name (`registry.npmjs.org`: that host only), `*.` and a name
 * (`*.github.com`: its subdomains at any depth, not `github.com` itself), or an IP address
 * (`10.0.0.5`, `[::1]`: reached only where listed, never by a `*.` entry). Names are compared
 * without case and without a trailing dot; there is no scheme, path or port (every port of an
 * allowed host is allowed).
 *
 * @example
 * ```ts
 * import { hostAllowed, hostOf } from "./sandbox_network.ts";
 * hostAllowed(["*.github.com"], hostOf("API.GitHub.com.")!); // true
 * hostAllowed(["*.github.com"], hostOf("github.com")!); // false
 * ```
 *
 * @module
 */
import { isIP } from "node:net";
import type { SandboxNetwork } from "../types.ts";

/**
 * A host as the proxy and the list compare it: lower case, IDNA (punycode) applied, an IPv4
 * address in its dotted form (`2130706433` is `127.0.0.1`), an IPv6 one in brackets, without a
 * trailing dot; null when it is not a host (a scheme, a path, a port, user info, spaces).
 */
export function hostOf(text: string): string | null {
  if (text === "" || /[\s/\\?#@%]/.test(text)) return null;
  let u: URL;
  try {
    u = new URL(`http://${text}/`);
  } catch {
    return null;
  }
  if (u.port !== "" || u.username !== "" || u.password !== "") return null;
  // (The URL parser lower-cases and rewrites numeric IPv4 forms; a bare `:` is a port or IPv6.)
  if (text.includes(":") && !text.startsWith("[")) return null;
  const host = u.hostname.endsWith(".") ? u.hostname.slice(0, -1) : u.hostname;
  return host === "" || host.endsWith(".") ? null : host;
}

/** Whether a host is an IP address (IPv6 in brackets, as hostOf gives it). */
export function isIpHost(host: string): boolean {
  return isIP(host.replace(/^\[(.*)\]$/, "$1")) !== 0;
}

/**
 * Why an entry of `allowedDomains` is not one, or null when it is: a host name, `*.` and a name,
 * or an IP address.
 */
export function entryProblem(entry: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return "a host name without a scheme (registry.npmjs.org, not https://registry.npmjs.org)";
  }
  if (entry.includes("/")) return "a host name without a path";
  const wild = entry.startsWith("*.");
  const rest = wild ? entry.slice(2) : entry;
  if (rest.includes("*")) {
    return 'a host name, or "*." and a name for its subdomains ("*" only at the start)';
  }
  if (/:\d+$/.test(rest) && !rest.startsWith("[") && isIP(rest) === 0) {
    return "a host name without a port (every port of an allowed host is allowed)";
  }
  const host = hostOf(rest);
  if (host === null) return "a host name (letters, digits, dots and hyphens) or an IP address";
  if (wild && isIpHost(host)) return 'a name after "*." (an IP address has no subdomains)';
  if (wild && !host.includes(".")) {
    return `a name with a dot after "*." ("*.${host}" would allow every host under a top-level name)`;
  }
  return null;
}

/** An entry as it is compared: its host in hostOf's form, with its `*.` (null: not an entry). */
export function normalEntry(entry: string): string | null {
  if (entryProblem(entry) !== null) return null;
  const wild = entry.startsWith("*.");
  const host = hostOf(wild ? entry.slice(2) : entry);
  return host === null ? null : (wild ? `*.${host}` : host);
}

/** Whether an entry (normalized) allows a host (in hostOf's form). */
function entryAllows(entry: string, host: string): boolean {
  if (entry === host) return true;
  if (!entry.startsWith("*.") || isIpHost(host)) return false;
  return host.endsWith(entry.slice(1));
}

/** Whether the list allows the host (hostOf's form): a listed name, a subdomain of a `*.` one. */
export function hostAllowed(list: readonly string[], host: string): boolean {
  return list.some((e) => {
    const n = normalEntry(e);
    return n !== null && entryAllows(n, host);
  });
}

/** The hosts both lists allow, as a list (each entry of one that the other covers). */
function intersect(a: readonly string[], b: readonly string[]): string[] {
  const na = a.map(normalEntry).filter((e): e is string => e !== null);
  const nb = b.map(normalEntry).filter((e): e is string => e !== null);
  // An entry of one is within an entry of the other when every host it allows, the other does.
  const within = (x: string, y: string) =>
    x === y || (y.startsWith("*.") && !isIpHost(x.replace(/^\*\./, "")) &&
      x.replace(/^\*\./, "").endsWith(y.slice(1)));
  const out = [
    ...na.filter((x) => nb.some((y) => within(x, y))),
    ...nb.filter((y) => na.some((x) => within(y, x))),
  ];
  return [...new Set(out)];
}

/**
 * The stricter of two network settings: none before a list before unrestricted; of two lists,
 * the hosts both allow.
 */
export function strictestNetwork(a: SandboxNetwork, b: SandboxNetwork): SandboxNetwork {
  if (a === "none" || b === "none") return "none";
  if (a === "unrestricted") return b;
  if (b === "unrestricted") return a;
  return { allowedDomains: intersect(a.allowedDomains, b.allowedDomains) };
}

/** The network setting in words (`sandbox --print`, `explain`, `/controls`). */
export function networkText(n: SandboxNetwork): string {
  if (typeof n === "string") return n;
  return n.allowedDomains.length
    ? `only through pi-controls' proxy, to ${n.allowedDomains.join(", ")}`
    : "only through pi-controls' proxy, which allows no host (the list is empty)";
}
