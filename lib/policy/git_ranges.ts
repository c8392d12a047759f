/**
 * The commits git may write the files of where it walks a range (`git cherry-pick A..B`, `git
 * bisect start BAD GOOD`, the next step of a bisection under way): every commit reachable from
 * the revisions as written and from none of those with `^` (rev-list's reading: `A..B` is `^A B`,
 * `A...B` is taken as both sides whole), walked newest first by committer time as git walks them
 * (a clock skewed the other way only adds commits). Null where that is not known: a revision not
 * read (see `git_revisions.ts`), an object that cannot be read, more commits than the bound.
 *
 * @example
 * ```ts
 * import { rangeCommits } from "./git_ranges.ts";
 * import { openRepository } from "./git_revisions.ts";
 * import { realFs } from "./fs_facts.ts";
 * const repo = openRepository("/repo", realFs());
 * repo && rangeCommits(repo, ["main..feat"]); // the commits' names, or null
 * ```
 *
 * @module
 */
import type { CommitsWritten } from "../programs/spec.ts";
import { commitOf, type Repository, resolveCommit } from "./git_revisions.ts";

/** The most commits a range is walked through (more: not known). */
const COMMIT_LIMIT = 2000;

/** The commits the rev-list words `words` name (see the module's notes), or null. */
export function rangeCommits(repo: Repository, words: string[]): string[] | null {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const w of words) {
    const parents = parentForms(repo, w);
    if (parents !== undefined) {
      if (parents === null) return null;
      include.push(...parents.include);
      exclude.push(...parents.exclude);
      continue;
    }
    const sides = w.includes("...") ? w.split("...") : w.includes("..") ? w.split("..") : null;
    if (sides !== null && sides.length !== 2) return null;
    const parts: [string, string[]][] = sides === null
      ? [w.startsWith("^") ? [w.slice(1), exclude] : [w, include]]
      : [[sides[0] || "HEAD", w.includes("...") ? include : exclude], [
        sides[1] || "HEAD",
        include,
      ]];
    for (const [rev, into] of parts) {
      const oid = resolveCommit(repo, rev);
      if (oid === null) return null;
      into.push(oid);
    }
  }
  return walk(repo, include, exclude);
}

/**
 * What rev-list's parent shorthands name (gitrevisions(7)): `X^!` X but none of its parents',
 * `X^@` its parents, `X^-N` X but none of its Nth parent's (`X^-`: the first); undefined for
 * another word, null where a commit is not known.
 */
function parentForms(
  repo: Repository,
  word: string,
): { include: string[]; exclude: string[] } | null | undefined {
  const m = /^(.+)\^(!|@|-(\d*))$/.exec(word);
  if (m === null) return undefined;
  const oid = resolveCommit(repo, m[1]);
  const parents = oid === null ? null : commitOf(repo, oid)?.parents ?? null;
  if (parents === null) return null;
  if (m[2] === "!") return { include: [oid!], exclude: parents };
  if (m[2] === "@") return { include: parents, exclude: [] };
  const n = m[3] === "" ? 1 : Number(m[3]);
  const parent = n > 0 ? parents[n - 1] : undefined;
  return parent === undefined ? null : { include: [oid!], exclude: [parent] };
}

/**
 * The commits reachable from `include` and from none of `exclude`, or null past the bound or
 * where a commit cannot be read.
 */
export function walk(repo: Repository, include: string[], exclude: string[]): string[] | null {
  // (Each commit seen: whether it is reachable from `exclude` as far as known.)
  const marks = new Map<string, boolean>();
  const queue: { oid: string; time: number }[] = [];
  const push = (oid: string, excluded: boolean): boolean => {
    const had = marks.get(oid);
    if (had === true || (had === false && !excluded)) return true;
    const commit = commitOf(repo, oid);
    if (commit === null) return false;
    marks.set(oid, excluded);
    queue.push({ oid, time: commit.time });
    return true;
  };
  for (const oid of exclude) if (!push(oid, true)) return null;
  for (const oid of include) if (!push(oid, false)) return null;
  const out: string[] = [];
  // (Until every commit left is reachable from `exclude`, so that all before it are, and none is
  // as late as a commit found: one of the same time may still lead to it.)
  let oldest = Infinity;
  for (let n = 0; queue.length; n++) {
    const open = queue.some((q) => !marks.get(q.oid));
    if (n > COMMIT_LIMIT && open) return null;
    // (The newest first: the one of the latest committer time.)
    let at = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i].time > queue[at].time) at = i;
    if (!open && (n > COMMIT_LIMIT || queue[at].time < oldest)) break;
    const [{ oid, time }] = queue.splice(at, 1);
    const excluded = marks.get(oid)!;
    if (!excluded) {
      out.push(oid);
      oldest = Math.min(oldest, time);
    }
    for (const p of commitOf(repo, oid)!.parents) if (!push(p, excluded)) return null;
  }
  return out.filter((oid) => marks.get(oid) === false);
}

/**
 * The commits `git bisect` writes the files of (see `CommitsWritten.bisect`): for `start` and
 * `reset`, the revision it started from where one is bisected (`BISECT_START`), with `start`'s
 * range or `reset`'s revision; for a verb that marks (or `run`), the commits of the range the
 * bisection's refs name after the marks. Empty where git writes none (none bisected, no new or
 * no old revision yet); null where not known.
 */
export function bisectCommits(repo: Repository, commits: CommitsWritten): string[] | null {
  const verb = commits.bisect!;
  const words = commits.revisions as string[];
  const start = repo.fs.readText?.(`${repo.gitDir}/BISECT_START`, 4096)?.trim() || null;
  if (verb === "start" || verb === "reset") {
    const out: string[] = [];
    if (start !== null) {
      const from = resolveCommit(repo, start, true);
      if (from === null) return null;
      out.push(from);
    }
    if (verb === "reset") {
      if (start === null || !words.length) return out;
      const oid = resolveCommit(repo, words[0]);
      return oid === null ? null : [oid];
    }
    const range = words.length ? rangeCommits(repo, words) : [];
    return range === null ? null : [...out, ...range];
  }
  if (start === null) return [];
  const state = bisectRefs(repo);
  if (state === null) return null;
  const [fresh, old] = state.terms;
  // (The revisions a verb marks, HEAD without one; `skip`'s only narrow the range.)
  const marked = words.length ? words : ["HEAD"];
  for (const [term, into] of [[fresh, state.include], [old, state.exclude]] as const) {
    if (verb !== term) continue;
    for (const w of marked) {
      const oid = resolveCommit(repo, w);
      if (oid === null) return null;
      into.push(oid);
    }
  }
  if (!state.include.length || !state.exclude.length) return [];
  return walk(repo, state.include, state.exclude);
}

/**
 * The terms of the bisection under way (BISECT_TERMS: the new one, then the old) and the commits
 * its refs mark (`refs/bisect/NEW`, `refs/bisect/OLD-*`, loose in the work tree's git directory or
 * packed), or null where they cannot be read.
 */
function bisectRefs(
  repo: Repository,
): { terms: [string, string]; include: string[]; exclude: string[] } | null {
  const fs = repo.fs;
  const written = fs.readText?.(`${repo.gitDir}/BISECT_TERMS`, 4096)?.split("\n");
  const terms: [string, string] = written?.[0] && written[1]
    ? [written[0].trim(), written[1].trim()]
    : ["bad", "good"];
  const include: string[] = [];
  const exclude: string[] = [];
  const mark = (name: string, oid: string | null): boolean => {
    if (name === terms[0]) include.push(oid!);
    else if (name.startsWith(`${terms[1]}-`)) exclude.push(oid!);
    else return true;
    return oid !== null;
  };
  const dir = `${repo.gitDir}/refs/bisect`;
  const entries = fs.entries?.(dir) ?? (fs.exists(dir) ? null : []);
  if (entries === null) return null;
  for (const e of entries) {
    const text = fs.readText?.(`${dir}/${e.name}`, 4096) ?? "";
    if (!mark(e.name, /^([0-9a-f]{40})\s*$/.exec(text)?.[1] ?? null)) return null;
  }
  const packed = fs.readText?.(`${repo.commonDir}/packed-refs`, 16 * 1024 * 1024) ?? "";
  for (const m of packed.matchAll(/^([0-9a-f]{40}) refs\/bisect\/(\S+)$/gm)) {
    if (!entries.some((e) => e.name === m[2])) mark(m[2], m[1]);
  }
  return { terms, include, exclude };
}
