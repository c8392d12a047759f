/**
 * bash's directory stack and `OLDPWD`, as far as the walk can follow them: `pushd DIR` saves the
 * directories the shell may be in and moves it, `popd` goes back to what was saved, `cd -` to where
 * the last move started. What moves the shell is still `cdTarget`'s (cwds.ts); this module adds
 * where `popd`, `pushd` with no operand and `cd -` lead, which without it are not known.
 *
 * Each entry may be absent (the `pushd` that made it may have failed or not run, or a `popd` may
 * have taken it), so `popd` may lead to any entry's directories. Where the `popd` comes after its
 * `pushd` in the same list of statements (one runs only where the other ran) with nothing moving
 * the shell between them, it is exact: back where the `pushd` ran, whether the `pushd` moved
 * (then `popd` returns) or failed (then `popd` pops an older entry or fails where it stands).
 *
 * @module
 */
import { builtinAt, type Cwds, type Flow, union } from "./cwds.ts";
import type { Word } from "./model.ts";
import type { LiteNode } from "./syntax_tree.ts";
import { unquotedText } from "./words.ts";

/** The statement a command is, and the list of statements it is one of. */
interface Place {
  list: number;
  at: number;
  region: number;
}

/** An entry of the stack: where the `pushd` that made it ran. */
interface Entry {
  cwds: Cwds;
  place: Place | null;
  node: LiteNode;
  /** Nothing has moved the shell or changed the stack since. */
  still: boolean;
}

/** Commands that may run code in this shell which may change the stack (see `cdTarget`). */
const OPAQUE = new Set(["eval", "source", ".", "trap", "mapfile", "readarray"]);

/** A word that may be an option to pushd or popd: not static, and it may start with `-` or `+`. */
const mayBeOption = (w: Word) => w.kind !== "static" && !/^[^-+]/.test(w.prefix);

/** Nodes whose children are statements run one after the other in one shell. */
const STATEMENT_LISTS = new Set([
  "program",
  "compound_statement",
  "do_group",
  "if_statement",
  "elif_clause",
  "else_clause",
  "case_item",
]);

/**
 * Where a command stands as a statement of a list (a `pushd` and a later `popd` of the same list
 * and region run one after the other), or null when it is part of something else (`a && popd`).
 */
function placeOf(node: LiteNode, region: number): Place | null {
  let s = node;
  while (s.parent?.type === "redirected_statement") s = s.parent;
  const list = s.parent;
  return list && STATEMENT_LISTS.has(list.type)
    ? { list: list.id, at: s.startIndex, region }
    : null;
}

/** The statement a command is (with the redirects after it). */
function statementOf(node: LiteNode): LiteNode {
  let s = node;
  while (s.parent?.type === "redirected_statement") s = s.parent;
  return s;
}

/**
 * Whether `later` runs only where `earlier` succeeded: `earlier && … && later`, joined by `&&`
 * alone (`cd a && make && cd -`), in a list tree-sitter reads as bash does (none inside a
 * pipeline, where it may have grouped `a | cd x && cd -` as `a | (cd x && cd -)`).
 */
export function chainedAfter(earlier: LiteNode, later: LiteNode): boolean {
  let s = statementOf(later);
  while (s.parent?.type === "list") {
    const list = s.parent;
    const kids = list.children.filter((c) => c.type !== "comment");
    if (kids.length !== 3 || kids[2].id !== s.id || kids[1].type !== "&&") return false;
    if (inChain(kids[0], earlier.id)) {
      for (let up = list.parent; up && !STATEMENT_LISTS.has(up.type); up = up.parent) {
        if (up.type !== "list" && up.type !== "redirected_statement") return false;
      }
      return true;
    }
    s = list;
  }
  return false;
}

/** Whether the node `id` is `n` or a statement of it joined by `&&` alone. */
function inChain(n: LiteNode, id: number): boolean {
  if (n.id === id) return true;
  if (n.type === "redirected_statement") {
    const body = n.childForFieldName("body");
    return !!body && inChain(body, id);
  }
  if (n.type !== "list") return false;
  const kids = n.children.filter((c) => c.type !== "comment");
  return kids.length === 3 && kids[1].type === "&&" &&
    kids.some((k) => k.isNamed && inChain(k, id));
}

/** What a stack operation needs of the walk where it runs. */
export interface StackAt {
  node: LiteNode;
  cwds: Cwds;
  /** `Values.region`, and whether the line may have stopped before here. */
  region: number;
  stopped: boolean;
  /** `Values.following`: no name not known may have been assigned (`printf -v "$v"`). */
  following: boolean;
  /**
   * A walked builtin may have given PWD or OLDPWD a value by now, in a spelling the text does not
   * show (`v=PW; printf -v "${v}D" x`): OLDPWD is not known (a move sets it to PWD's value).
   */
  oldSet?: boolean;
}

/**
 * Whether a name the environment does not hold is unset where the command starts: it is the
 * command's own text, with nothing run before it (`BASH_ENV`) nor names changed around it
 * (parameter_ops.ts `mayBeUnset`).
 */
export function unsetAtStart(
  env: { env: Record<string, string | undefined>; nested?: true; unknown?: ReadonlySet<string> },
): boolean {
  return !env.nested && !env.unknown?.size && env.env.BASH_ENV === undefined;
}

/** The directory stack and `OLDPWD` of one shell being walked (null: not known). */
export class DirStack {
  #entries: Entry[] | null;
  #oldpwd: Cwds | null;
  /** The command assigns OLDPWD nowhere. */
  #ownOld: boolean;
  /** The last `cd`, `pushd` or `popd`, to a known place, and where it ran; null: another move. */
  #last: { node: LiteNode; cwds: Cwds } | null = null;
  /**
   * bash starts with OLDPWD unset (the environment holds none, nothing runs before the command:
   * `unsetOld`) and the moves walked since (`cd -` fails until one of them succeeds).
   */
  #unsetOld: boolean;
  #moves = 0;

  /**
   * `oldpwd`: `OLDPWD` in the environment the shell starts with (bash keeps an inherited one
   * that is a directory), null when the command may assign it or PWD (a move sets OLDPWD to
   * PWD's value, not to the directory it left); `unsetOld`: a name the
   * environment does not hold is unset when the command starts (parameter_ops.ts `mayBeUnset`).
   */
  constructor(source: string, oldpwd: string | undefined | null, unsetOld = false) {
    const text = unquotedText(source);
    this.#entries = text.includes("DIRSTACK") ? null : [];
    // (Not given, it may still be in the environment bash starts with: not known.)
    // (Read as `$OLDPWD` or `${OLDPWD}`, it is not assigned.)
    const named = text.replace(/\$OLDPWD(?!\w)|\$\{OLDPWD\}/g, "").includes("OLDPWD");
    this.#ownOld = oldpwd !== null && !named;
    this.#oldpwd = oldpwd?.startsWith("/") && this.#ownOld ? [oldpwd] : null;
    this.#unsetOld = unsetOld && oldpwd === undefined && this.#ownOld;
  }

  /**
   * `$OLDPWD` where the statement at `node` expands it: where the last move (a `cd`, `pushd`,
   * `popd` to a known place) ran, where that move surely succeeded before it (`cd src && cd .. &&
   * cat $OLDPWD/main.ts`: `chainedAfter`; bash sets OLDPWD where a move succeeds) from one known
   * directory, and the command assigns OLDPWD nowhere. Null otherwise: before any move, after one
   * that may have failed (OLDPWD is then the caller's, or unset), or inside a substitution.
   */
  oldpwd(node: LiteNode, following: boolean): string | null {
    const last = this.#last;
    if (last === null || !this.#ownOld || !following || last.cwds.length !== 1) return null;
    let s = node;
    while (s.parent && s.parent.type !== "list" && !STATEMENT_LISTS.has(s.parent.type)) {
      if (/substitution$/.test(s.parent.type)) return null;
      s = s.parent;
    }
    return chainedAfter(last.node, s) ? last.cwds[0] : null;
  }

  /** Nothing is known of the stack from here on (`eval`, a function walked apart). */
  forget(): void {
    this.#entries = null;
  }

  /**
   * Where a stage that moves the shell leads when it succeeds and when it fails, where it is a
   * stack operation or `cd -` (otherwise `moved`, from `cdTarget`, and its failure: where it was).
   * Null when the stage does not move the shell.
   */
  effect(argv: Word[], at: StackAt, moved: () => Cwds | null): Flow | null {
    const i = builtinAt(argv);
    const name = i < 0 ? undefined : argv[i];
    const args = argv.slice(i + 1);
    if (name?.kind !== "static" || OPAQUE.has(name.value)) {
      // (`eval`, `source`, a trap's or mapfile's code, a name not known: may do anything to it.)
      const to = moved();
      if (to !== null || name?.kind !== "static") {
        this.forget();
        this.#oldpwd = null;
        this.#unsetOld = false;
      }
      return this.#moved(at.cwds, to);
    }
    switch (name.value) {
      case "popd":
        return this.#popd(args, at);
      case "pushd":
        return this.#pushd(args, at, moved);
      case "dirs":
        // (`dirs -c` clears the stack; other forms only print it.)
        if (args.some((w) => w.kind !== "static" || /^-.*c/.test(w.value))) this.forget();
        return null;
      case "cd":
        if (operand(args)?.value === "-") {
          if (at.oldSet) at = { ...at, following: false };
          // (After `cd a && …`, OLDPWD is where that cd ran.)
          const last = this.#last;
          const chained = last && this.#ownOld && at.following && chainedAfter(last.node, at.node);
          // (Where a name not known may have been assigned, OLDPWD may have been.)
          const old = chained ? last.cwds : at.following ? this.#oldpwd : null;
          const back = old ? null : this.#backFromUnset(at);
          if (back) return back;
          return this.#moved(at.cwds, old ?? [null], at.node);
        }
        return this.#moved(at.cwds, moved(), at.node);
    }
    return this.#moved(at.cwds, moved());
  }

  /**
   * `cd -` where bash started with OLDPWD unset: before any move it fails where it stands
   * (`OLDPWD not set`); after one move to a known place, from known `cwds`, it leads back there
   * (the move succeeded and set OLDPWD) or fails there (it failed and left OLDPWD unset), so
   * `cd src; cd -` is back where it started either way. Null otherwise.
   */
  #backFromUnset(at: StackAt): Flow | null {
    if (!this.#unsetOld || !at.following || at.cwds.includes(null)) return null;
    if (this.#moves === 0) return { ok: [], fail: at.cwds };
    const last = this.#last;
    if (this.#moves !== 1 || last === null) return null;
    const flow = this.#moved(at.cwds, last.cwds, at.node)!;
    return { ok: flow.ok, fail: last.cwds };
  }

  /**
   * The shell moved (or may have) from `cwds` to `to` (by a cd, pushd or popd: `node`): nothing
   * is still; OLDPWD may be `cwds`.
   */
  #moved(cwds: Cwds, to: Cwds | null, node?: LiteNode): Flow | null {
    if (to === null) return null;
    this.#moves++;
    this.#changed();
    if (this.#oldpwd) this.#oldpwd = union(this.#oldpwd, cwds);
    const known = node && !to.includes(null) && !cwds.includes(null);
    this.#last = known ? { node, cwds } : null;
    return { ok: to, fail: cwds };
  }

  #changed(): void {
    for (const e of this.#entries ?? []) e.still = false;
  }

  #pushd(args: Word[], at: StackAt, moved: () => Cwds | null): Flow | null {
    const cwds = at.cwds;
    // (`pushd -n dir` adds dir below the top and stays; `+N`/`-N` rotate the stack.)
    if (args.some((w) => mayBeOption(w) || /^-[^-]*n/.test(w.value))) {
      this.forget();
      return this.#moved(cwds, moved());
    }
    const arg = operand(args);
    if (!arg || /^[+-]\d+$/.test(arg.value)) {
      // With no operand it swaps the top two: it goes to the top entry, which becomes the cwd.
      const to = !arg && this.#entries ? this.#popped() : [null];
      this.forget();
      return this.#moved(cwds, to.length ? to : [null]);
    }
    const flow = this.#moved(cwds, moved(), at.node);
    const place = at.stopped ? null : placeOf(at.node, at.region);
    this.#entries?.push({ cwds, place, node: at.node, still: true });
    return flow;
  }

  #popd(args: Word[], at: StackAt): Flow | null {
    const cwds = at.cwds;
    const entries = this.#entries;
    if (args.some(mayBeOption)) {
      this.forget();
      return this.#moved(cwds, [null]);
    }
    const stays = args.some((w) => /^-[^-]*n/.test(w.value));
    const arg = operand(args);
    if (arg || entries === null) {
      // (`popd +N`/`-N` takes another entry out; `popd -n +N` stays.)
      this.forget();
      return stays ? null : this.#moved(cwds, [null]);
    }
    if (stays) {
      // (`popd -n` takes the top entry out and stays.)
      this.#changed();
      return null;
    }
    const top = entries.at(-1);
    if (!top) return { ok: [], fail: cwds }; // an empty stack: popd fails
    if (!at.following) return this.#moved(cwds, this.#popped());
    if (top.still && !top.cwds.includes(null) && chainedAfter(top.node, at.node)) {
      // (`pushd a && make && popd`: its pushd moved; popd goes back and cannot fail.)
      entries.pop();
      return { ok: this.#moved(cwds, top.cwds, at.node)!.ok, fail: [] };
    }
    const place = at.stopped ? null : placeOf(at.node, at.region);
    const exact = top.still && top.place !== null && place !== null &&
      top.place.list === place.list && top.place.region === place.region &&
      top.place.at < place.at && !cwds.includes(null) && !top.cwds.includes(null);
    if (!exact) return this.#moved(cwds, this.#popped());
    // Its pushd ran: popd goes back there; or it failed, and popd pops an older entry or fails
    // where the pushd left the shell.
    entries.pop();
    const older = this.#popped();
    const flow = this.#moved(cwds, union(top.cwds, older), at.node)!;
    return { ok: flow.ok, fail: top.cwds };
  }

  /** Where a popd may lead: any entry's directories (each may be the top). */
  #popped(): Cwds {
    const entries = this.#entries ?? [];
    return entries.length ? union(...entries.map((e) => e.cwds)) : [];
  }
}

/** The operand of cd, pushd or popd, options and `--` dropped. */
function operand(args: Word[]): Word | undefined {
  let options = true;
  for (const w of args) {
    if (options && w.value === "--") options = false;
    else if (options && /^-[LPen@]+$/.test(w.value)) continue;
    else return w;
  }
  return undefined;
}

/** Whether a stage is `cd -` (also after `builtin`/`command`): it goes where `OLDPWD` says. */
export function cdsBack(argv: Word[]): boolean {
  const i = builtinAt(argv);
  const name = i < 0 ? undefined : argv[i];
  return name?.kind === "static" && name.value === "cd" &&
    operand(argv.slice(i + 1))?.value === "-";
}
