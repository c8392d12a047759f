/**
 * Locations: which policy governs a path (longest matching location, else defaultPolicy).
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { expandTilde, isWithin } from "../shell/paths.ts";
import type { Config, FsFacts } from "../types.ts";

/** One location resolved to an absolute directory. */
export interface ResolvedLocation {
  dir: string;
  key: string;
  policy: string;
}

/** Locations resolved for one cwd and home, longest directory first. */
export interface LocationIndex {
  entries: ResolvedLocation[];
  defaultPolicy: string | null;
  /** Placements already computed (a pure function of the index and the path; bounded). */
  memo: Map<string, Placement>;
}

/** Where a path falls: the location key and policy, or nulls for fail-open. */
export interface Placement {
  location: string | null;
  policy: string | null;
}

const indexes = new WeakMap<Config, Map<string, LocationIndex>>();

/** The index asked for last (most calls are in the same place under the same config). */
let lastIndex: { config: Config | null; cwd: string; home: string; index: LocationIndex | null } = {
  config: null,
  cwd: "",
  home: "",
  index: null,
};

/** Resolve a location key to an absolute directory. */
export function resolveLocationKey(
  key: string,
  opts: { cwd: string; home: string; base: string | null },
): string {
  if (key === "$cwd") return resolve(opts.cwd);
  if (key.startsWith("$cwd/")) return resolve(opts.cwd, key.slice(5));
  const expanded = expandTilde(key, opts.home);
  if (isAbsolute(expanded)) return resolve(expanded);
  return resolve(opts.base ?? opts.cwd, expanded);
}

/** The location index of a config for a cwd and home (cached per config). */
export function locationIndex(
  config: Config,
  ctx: { cwd: string; home: string; fs: FsFacts },
): LocationIndex {
  const last = lastIndex;
  if (last.config === config && last.cwd === ctx.cwd && last.home === ctx.home) return last.index!;
  let byCtx = indexes.get(config);
  if (!byCtx) indexes.set(config, byCtx = new Map());
  const cacheKey = ctx.cwd + "\0" + ctx.home;
  let index = byCtx.get(cacheKey);
  if (index) {
    lastIndex = { config, cwd: ctx.cwd, home: ctx.home, index };
    return index;
  }
  const entries: ResolvedLocation[] = [];
  for (const loc of config.locations) {
    const dir = resolveLocationKey(loc.key, { cwd: ctx.cwd, home: ctx.home, base: loc.base });
    entries.push({ dir, key: loc.key, policy: loc.policy });
    // A location written through a symlink also covers the directory it points to.
    const real = ctx.fs.realpath(dir);
    if (real && real !== dir) entries.push({ dir: real, key: loc.key, policy: loc.policy });
  }
  entries.sort((a, b) => b.dir.length - a.dir.length);
  index = { entries, defaultPolicy: config.defaultPolicy, memo: new Map() };
  if (byCtx.size > 64) byCtx.clear();
  byCtx.set(cacheKey, index);
  lastIndex = { config, cwd: ctx.cwd, home: ctx.home, index };
  return index;
}

/** The placement of an absolute path: the longest location containing it, else defaultPolicy. */
export function locate(index: LocationIndex, path: string): Placement {
  const known = index.memo.get(path);
  if (known) return known;
  let found: Placement = { location: null, policy: index.defaultPolicy };
  for (const e of index.entries) {
    if (isWithin(path, e.dir)) {
      found = { location: e.key, policy: e.policy };
      break;
    }
  }
  if (index.memo.size > 20_000) index.memo.clear();
  index.memo.set(path, found);
  return found;
}

/**
 * Every placement a path below `prefix` could fall into (prefix null: anywhere at all): the
 * location containing the prefix and every location inside it.
 */
export function reachable(index: LocationIndex, prefix: string | null): Placement[] {
  const out: Placement[] = [];
  const seen = new Set<string>();
  function add(p: Placement) {
    const k = `${p.location}\0${p.policy}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p);
    }
  }
  if (prefix === null) {
    for (const e of index.entries) add({ location: e.key, policy: e.policy });
    if (!index.entries.some((e) => e.dir === "/")) {
      add({ location: null, policy: index.defaultPolicy });
    }
    return out;
  }
  add(locate(index, prefix));
  for (const e of index.entries) {
    if (isWithin(e.dir, prefix)) add({ location: e.key, policy: e.policy });
  }
  return out;
}
