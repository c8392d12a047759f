/**
 * rsync's filter rules (rsync(1), FILTER RULES) and the files they make it read. A rule is
 * `RULE[,MODIFIERS] [PATTERN_OR_FILENAME]`, the name after one space or `_` (`merge secrets/key`,
 * `merge_secrets/key`, `.- rules`, `:n- .excl`, `dir-merge,e .rules`; a short rule's `,` may be
 * left out). `merge` (`.`) reads a file on this (the client's) side once, whose lines are rules
 * in turn (unless `-`, `+` or `C` make them patterns only; `w` splits them at blanks);
 * `dir-merge` (`:`) names a file read in every directory of the transfer, on the sending side
 * and, with a delete option, on the receiving side: a name read below each local tree (a `/` in
 * it also scans the directories above the transfer from there down). `:C` is `dir-merge
 * .cvsignore`, `-F` `dir-merge /.rsync-filter` (`-FF` also excludes them), `-C` reads
 * `.cvsignore` in every directory (and `~/.cvsignore`). Rules come from `-f`/`--filter` (glued,
 * `=`, or the next word), and, in a local transfer, from the options `-M`/`--remote-option` hands
 * the receiving side. `--exclude`/`--include` take patterns only, their `-from` files patterns
 * only (each judged as the path its word is); none is a file. A rule from a word not known, or a
 * merge file whose text cannot be known, may name any file: a file not known.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { rsyncFilters } from "./rsync_filters.ts";
 * rsyncFilters(["rsync", "-a", "-f", ". rules", "-F", "src/", "out/"].map(literal)).dirMerged;
 * // [".rsync-filter"]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { dirname, resolve } from "node:path";
import type { NamedFile, NamedFilesGiven, ReadFile } from "./spec.ts";

/** rsync's options (rsync 3.4 `--help`): the short ones and long ones that take a value. */
export const RSYNC_OPTIONS: OptionGrammar = {
  valued: "eBfTM@",
  // deno-fmt-ignore
  longValued: new Set(["--address", "--backup-dir", "--block-size", "--bwlimit", "--checksum-choice", "--checksum-seed", "--chmod", "--chown", "--compare-dest", "--compress-choice", "--compress-level", "--compress-threads", "--confine-root", "--contimeout", "--copy-as", "--copy-dest", "--debug", "--early-input", "--exclude", "--exclude-from", "--files-from", "--filter", "--groupmap", "--iconv", "--include", "--include-from", "--info", "--link-dest", "--log-file", "--log-file-format", "--max-alloc", "--max-delete", "--max-size", "--min-size", "--modify-window", "--only-write-batch", "--out-format", "--outbuf", "--partial-dir", "--password-file", "--port", "--protocol", "--read-batch", "--remote-option", "--rsh", "--rsync-path", "--skip-compress", "--sockopts", "--stop-after", "--suffix", "--temp-dir", "--timeout", "--usermap", "--write-batch", "--config", "--dparam", "--sender"]),
};

/** What rsync's filter rules make it read (see the module). */
export interface RsyncFilters {
  /** Files read once on this side (merge rules), as written; null: a file not known. */
  merged: (string | null)[];
  /** Per-directory merge files as written (`.rsync-filter`, `/.rsync-filter`, `../x/.rules`). */
  dirMerged: string[];
  /** Their rules (the modifiers say whether their files' rules are followed). */
  dirRules: MergeRule[];
  /** The argv positions (1-based) of rule and pattern values: text, no path. */
  text: number[];
  /** `-C` (or a `-C` rule): `.cvsignore` is read in every directory (and `~/.cvsignore`). */
  cvs: boolean;
  /** A delete option: the receiving side reads the per-directory files too. */
  deletes: boolean;
}

/** One filter rule read: a merge or dir-merge rule's file and modifiers; null for another. */
interface MergeRule {
  dir: boolean;
  modifiers: string;
  /** The file named; null where none is (a `C` without one names `.cvsignore`). */
  name: string;
}

/** A merge or dir-merge rule (`. x`, `merge,- x`, `:n- x`, `dir-merge_x`, `:C`), else null. */
export function mergeRule(rule: string): MergeRule | null {
  const m = /^(?:(merge|dir-merge)(?:,([^ _]*))?|([.:]),?([^ _]*))(?:[ _]([^]*))?$/.exec(
    rule.trimStart(),
  );
  if (!m) return null;
  const dir = m[1] === "dir-merge" || m[3] === ":";
  const modifiers = m[2] ?? m[4] ?? "";
  const name = m[5] ?? (modifiers.includes("C") ? ".cvsignore" : null);
  return name === null || name === "" ? null : { dir, modifiers, name };
}

/** The `-C` rule (`--filter=-C`, `-f-C`): the CVS excludes, `~/.cvsignore` among them. */
const CVS_RULE = /^\s*(-|exclude),?C\s*$/;

/** How deep merge files that merge others are followed (rsync stops at none; a loop would). */
const DEPTH = 8;

/** A merge file's modifiers that make its lines patterns only (no rule: no file named). */
const PATTERNS = /[-+C]/;

/**
 * The rules of a merge file's text, as its modifiers have rsync read them: none where it holds
 * patterns only (`-`, `+`, `C`); words (`w`: a lone rule word takes the next as its name) or
 * lines (`--from0`: NUL-separated), blank lines and `#` comments left out.
 */
function fileRules(text: string, modifiers: string, from0: boolean): string[] {
  if (PATTERNS.test(modifiers)) return [];
  if (!modifiers.includes("w")) {
    return text.split(from0 ? "\0" : /\r?\n/).filter((l) => l !== "" && !l.startsWith("#"));
  }
  const words = text.split(/\s+/).filter((w) => w !== "");
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const lone = /^(merge|dir-merge|[.:])(,?[^ _]*)?$/.test(words[i]) && i + 1 < words.length;
    out.push(lone ? `${words[i]} ${words[++i]}` : words[i]);
  }
  return out;
}

/** Filters that read nothing (to be filled in). */
function noFilters(): RsyncFilters {
  return { merged: [], dirMerged: [], dirRules: [], text: [], cvs: false, deletes: false };
}

/**
 * Whether the transfer may have no remote operand (a word not known may be a local one): `-M`'s
 * options are then the local receiver's.
 */
function localTransfer(args: (string | null)[], operands: number[]): boolean {
  return operands.every((at) => {
    const v = args[at];
    return v === null || !(/^[^/]*:/.test(v) || /^rsync:\/\//i.test(v));
  });
}

/**
 * The filter rules `argv` (an rsync command) gives and what they read (see `RsyncFilters`);
 * `read` gives a merge file's text (null: not known), whose rules are followed in turn.
 */
export function rsyncFilters(argv: Word[], read?: ReadFile): RsyncFilters {
  const out = noFilters();
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const tokens = readOptions(args, RSYNC_OPTIONS);
  const from0 = tokens.some((t) => t.name === "-0" || t.name === "--from0");
  const rules: (string | null)[] = [];
  const remote: (string | null)[] = [];
  let filterFiles = 0;
  for (const t of tokens) {
    // (A word not known that starts a rule: `-f"$R"`, `--filter=$R`, `-M$O`.)
    const w = argv[t.at + 1];
    if (t.kind === "dynamic" && /^(-[^-]*[fM]|--(filter|remote-option)=)/.test(w.prefix)) {
      rules.push(null);
    }
    if (t.kind !== "valued" && t.kind !== "flag" && t.kind !== "unknown") continue;
    // (A second `-F` excludes the files: `- .rsync-filter`.)
    if (t.name === "-F" && filterFiles++ === 0) rules.push(": /.rsync-filter");
    if (t.name === "-C" || t.name === "--cvs-exclude") out.cvs = true;
    if (/^--del(ete(-.*)?)?$/.test(t.name)) out.deletes = true;
    if (t.kind !== "valued") continue;
    const value = t.glued ?? (t.valueAt === undefined ? undefined : args[t.valueAt]);
    if (/^(-f|--filter|--exclude|--include)$/.test(t.name)) {
      out.text.push(1 + (t.valueAt ?? t.at));
      if (t.name === "-f" || t.name === "--filter") rules.push(value ?? null);
    } else if (t.name === "-M" || t.name === "--remote-option") {
      remote.push(value ?? null);
    }
  }
  const operands = tokens.filter((t) => t.kind === "operand").map((t) => t.at);
  if (remote.length && localTransfer(args, operands)) {
    // (Its options reach the local receiver: `-M--filter=. x`, `-M-f -M'. x'`.)
    if (remote.includes(null)) rules.push(null);
    const words = remote.flatMap((r): Word[] =>
      r === null ? [] : [{ kind: "static", value: r, prefix: r, text: r }]
    );
    const inner = rsyncFilters([argv[0], ...words], read);
    out.merged.push(...inner.merged);
    out.dirMerged.push(...inner.dirMerged);
    out.dirRules.push(...inner.dirRules);
    out.cvs ||= inner.cvs;
    out.deletes ||= inner.deletes;
  }
  followRules(rules, out, read, from0, 0);
  return out;
}

/**
 * Each rule's files into `out`, a merge file's rules followed (`read`) to `DEPTH`; `base`: the
 * directory their names are from (a per-directory merge file's), else the cwd.
 */
function followRules(
  rules: (string | null)[],
  out: RsyncFilters,
  read: ReadFile | undefined,
  from0: boolean,
  depth: number,
  base?: string,
): void {
  for (const rule of rules) {
    if (rule === null) {
      out.merged.push(null);
      continue;
    }
    if (CVS_RULE.test(rule)) out.cvs = true;
    const m = mergeRule(rule);
    if (m === null) continue;
    if (m.dir) {
      // (One a merge file gives is read below trees the facets that name them do not see.)
      if (depth === 0) {
        out.dirMerged.push(m.name);
        out.dirRules.push(m);
      } else out.merged.push(null);
      continue;
    }
    // (`. -`: rules from standard input, which may merge any file.)
    if (m.name === "-") {
      out.merged.push(null);
      continue;
    }
    const name = base === undefined ? m.name : resolve(base, m.name);
    out.merged.push(name);
    if (PATTERNS.test(m.modifiers)) continue;
    const text = depth < DEPTH && read ? read(name) : null;
    if (text === null) out.merged.push(null);
    else followRules(fileRules(text, m.modifiers, from0), out, read, from0, depth + 1, base);
  }
}

/** The last component of a per-directory merge file's name: the name read in each directory. */
export function mergedName(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

/**
 * The files rsync's filter rules read on this machine (see the module), as `namedFiles` gives
 * them: each merge file (a file not known where its rules cannot be read), and a per-directory
 * merge file named with a directory (`: /.env`, `: ../../.rules`) at that place. (The name read
 * below each local tree is `rsyncTreeNames`', the files found there `rsyncTreeFiles`'. Not
 * judged: `-C`'s `~/.cvsignore`, which holds patterns a user keeps there.)
 */
export function rsyncFilterFiles(filters: RsyncFilters): NamedFile[] {
  const out: NamedFile[] = [];
  for (const f of filters.merged) {
    out.push(
      f === null
        ? { path: null, source: "rsync --filter (a merge file's rules not known)" }
        : { path: f, source: `rsync --filter (merge ${f})` },
    );
  }
  for (const d of filters.dirMerged) {
    if (d.includes("/") && d !== "/.rsync-filter") {
      out.push({ path: d, source: `rsync --filter (dir-merge ${d})` });
    }
  }
  return out;
}

/**
 * The names rsync reads in every directory of the local trees it reads (its sources; its
 * destination where a delete option has the receiver read them): each per-directory merge
 * file's, `.cvsignore` for `-C`. None where no such tree is read here (`host:src/ dst/` without
 * deleting: the sending side is the other machine).
 */
export function rsyncTreeNames(argv: Word[], filters: RsyncFilters): string[] {
  if (!filters.dirMerged.length && !filters.cvs) return [];
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const operands = readOptions(args, RSYNC_OPTIONS).filter((t) => t.kind === "operand");
  const isLocal = (at: number) => {
    const v = args[at];
    return v === null || !(/^[^/]*:/.test(v) || /^rsync:\/\//i.test(v));
  };
  const sources = operands.length > 1 ? operands.slice(0, -1) : operands;
  const dest = operands.length > 1 ? operands[operands.length - 1] : undefined;
  const here = sources.some((t) => isLocal(t.at)) ||
    (filters.deletes && dest !== undefined && isLocal(dest.at));
  if (!here) return [];
  const names = filters.dirMerged.map(mergedName).filter((n) =>
    n !== "" && n !== "." && n !== ".."
  );
  if (filters.cvs) names.push(".cvsignore");
  return [...new Set(names)];
}

/** Per-directory merge files whose rules are read at most (their own included). */
const FILES = 64;

/** A per-directory merge file's name looked for below a directory. */
interface Scan {
  dir: string;
  name: string;
  modifiers: string;
  /** Where the directories above `dir` are looked in from (`/.rsync-filter`: `/`). */
  above?: string;
  /** A name a per-directory merge file gives (not judged below the tree as `treeNames`). */
  inner: boolean;
  depth: number;
}

/**
 * The files the per-directory merge files found in the local trees rsync reads (its sources;
 * its destination with a delete option) make it read (rsync(1) FILTER RULES; `filesNamed`):
 * each one's merge rules (`merge`, `.`), their names from its directory (where rsync is then),
 * their files' rules followed; its dir-merge rules (`:`, `dir-merge`) another name read there and
 * below, each file of it read; a link among them (its target read). A name with a directory
 * (`/.rsync-filter`) is looked for in the directories above the tree too, from there. A file
 * not known (ask): a tree whose files cannot be known (too large, another stage may change it
 * first), a file whose text cannot be, one of more than `FILES`, `DEPTH` deep.
 */
export function rsyncTreeFiles(
  argv: Word[],
  filters: RsyncFilters,
  given?: NamedFilesGiven,
): NamedFile[] {
  const find = given?.filesNamed;
  if (!find || !filters.dirRules.length) return [];
  const out: NamedFile[] = [];
  const unknown = (why: string) => out.push({ path: null, source: `rsync --filter (${why})` });
  const queue: Scan[] = [];
  for (const dir of localTrees(argv, filters.deletes, given)) {
    if (dir === null) unknown("a tree not known, its per-directory merge files' rules");
    else {
      for (const { name, modifiers } of filters.dirRules) {
        const above = name.includes("/") ? dirname(name) : undefined;
        queue.push({ dir, name: mergedName(name), modifiers, above, inner: false, depth: 0 });
      }
    }
  }
  let files = 0;
  for (let at = 0; at < queue.length; at++) {
    const scan = queue[at];
    if (scan.name === "" || scan.name === "." || scan.name === "..") continue;
    const found = find(scan.dir, [scan.name], scan.above);
    if (found === null) unknown(`the ${scan.name} files below ${scan.dir} not known`);
    for (const f of found ?? []) {
      if (scan.inner || f.link) out.push({ path: f.path, source: `rsync --filter (${scan.name})` });
      if (PATTERNS.test(scan.modifiers)) continue;
      if (f.text === null || ++files > FILES) {
        unknown(`the rules of ${f.path} not known`);
        continue;
      }
      const base = dirname(f.path);
      const read = given?.read;
      for (const rule of fileRules(f.text, scan.modifiers, false)) {
        const m = mergeRule(rule);
        if (m?.dir && !m.name.includes("/") && scan.depth < DEPTH) {
          // (Read in its directory and below: from the tree's top for one above it.)
          const dir = f.above ? scan.dir : base;
          queue.push({ ...m, dir, inner: true, depth: scan.depth + 1 });
          continue;
        }
        const inner = noFilters();
        followRules([rule], inner, read, false, scan.depth + 1, base);
        for (const path of inner.merged) {
          out.push({ path, source: `rsync --filter (merge ${path ?? "?"}, in ${f.path})` });
        }
      }
    }
  }
  return out;
}

/**
 * The local trees rsync reads per-directory merge files in: its sources (a single operand is one,
 * listed), its destination where it deletes; null for a word not known.
 */
function localTrees(argv: Word[], deletes: boolean, given?: NamedFilesGiven): (string | null)[] {
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const operands = readOptions(args, RSYNC_OPTIONS).filter((t) => t.kind === "operand");
  const trees = operands.length > 1 && !deletes ? operands.slice(0, -1) : operands;
  return trees.flatMap((t) => {
    const w = argv[t.at + 1];
    const values = w.kind === "static"
      ? [w.value]
      : w.kind === "glob"
      ? given?.globs?.words(w) ?? [null]
      : [null];
    return values.filter((v) => v === null || !(/^[^/]*:/.test(v) || /^rsync:\/\//i.test(v)));
  });
}

/** The files rsync's filter rules read here: `rsyncFilterFiles`, `rsyncTreeFiles`. */
export function rsyncFiltersRead(argv: Word[], given?: NamedFilesGiven): NamedFile[] {
  const filters = rsyncFilters(argv, given?.read);
  return [...rsyncFilterFiles(filters), ...rsyncTreeFiles(argv, filters, given)];
}
