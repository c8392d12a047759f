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
import type { NamedFile, ReadFile } from "./spec.ts";

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

/**
 * The rules of a merge file's text, as its modifiers have rsync read them: none where it holds
 * patterns only (`-`, `+`, `C`); words (`w`: a lone rule word takes the next as its name) or
 * lines (`--from0`: NUL-separated), blank lines and `#` comments left out.
 */
function fileRules(text: string, modifiers: string, from0: boolean): string[] {
  if (/[-+C]/.test(modifiers)) return [];
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
  const out: RsyncFilters = { merged: [], dirMerged: [], text: [], cvs: false, deletes: false };
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
    out.cvs ||= inner.cvs;
    out.deletes ||= inner.deletes;
  }
  followRules(rules, out, read, from0, 0);
  return out;
}

/** Each rule's files into `out`, a merge file's rules followed (`read`) to `DEPTH`. */
function followRules(
  rules: (string | null)[],
  out: RsyncFilters,
  read: ReadFile | undefined,
  from0: boolean,
  depth: number,
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
      if (depth === 0) out.dirMerged.push(m.name);
      else out.merged.push(null);
      continue;
    }
    // (`. -`: rules from standard input, which may merge any file.)
    if (m.name === "-") {
      out.merged.push(null);
      continue;
    }
    out.merged.push(m.name);
    if (/[-+C]/.test(m.modifiers)) continue;
    const text = depth < DEPTH && read ? read(m.name) : null;
    if (text === null) out.merged.push(null);
    else followRules(fileRules(text, m.modifiers, from0), out, read, from0, depth + 1);
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
 * below each local tree is `rsyncTreeNames`'. Not judged: `-F`'s `/.rsync-filter` in the
 * directories above one, and `-C`'s `~/.cvsignore`, which hold patterns a user keeps there.)
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
