/**
 * The glob scope a line an argument carries is judged in (carried_lines.ts): its globs expand
 * against the filesystem as the command's own do (`myrunner 'cat .en?'` reads `.env`, `myrunner
 * 'for f in secrets/*; do cat $f; done'` each key there), unless a stage of the command may change
 * what they match first: then each is a guess, which counts only where every path it may reach
 * is protected (`countsIn`), as before.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { expandPathname, globOptions } from "../shell/pathname_expansion.ts";
import type { NestedStart } from "../programs/spec.ts";
import type { Context } from "../types.ts";
import { globRegion, type GlobScope, globScope } from "./glob_scope.ts";

/** What the command tells the scope of a line it carries (as `globScope` takes it). */
export interface CarriedScopeOptions {
  /** The whole command's text. */
  command: string;
  /** The command's stages (those judged as its own). */
  all: Stage[];
  readsOnly: (s: Stage) => boolean;
  /** The stage of the command's shell each stage a wrapper runs comes from. */
  tops?: ReadonlyMap<Stage, Stage>;
  /** The stage each stage judged beside one is (see `globScope`). */
  beside?: ReadonlyMap<Stage, Stage>;
  /** The stage each stage judged in its place stands for (see `globScope`). */
  instead?: ReadonlyMap<Stage, Stage>;
}

/** The `for` lists a line's analysis listed (see `LineScopes.listing`). */
export interface LineListing {
  /** How the line's analysis starts: with `BashEnv.listing`. */
  start: NestedStart;
  /** The globs it listed, each with the cwd it was listed in. */
  listed: { pattern: string; cwd: string }[];
}

/** How the lines a command's arguments carry have their globs expanded. */
export interface LineScopes {
  /**
   * The scope of a line `carrier` carries by its word `word` (`line`: the line's stages, with
   * those they run and each judged beside one). Its writers are the command's stages: the
   * carrier, and a wrapper whose words hold the line (`sudo`, `npx`), are none before it (they
   * run it in place of their own work, as the shell of a `bash -c` line is none: `lineShell`),
   * nor a stage after the carrier in sequence (`myrunner 'cat s*' && rm x`); a stage before it
   * is (`touch .x; myrunner 'cat .en?'`: a guess). Nor is a stage of the line: a glob of it is
   * judged by what is there now (a writer of the line makes a guess no stricter: a guess of a
   * line does not count).
   */
  scope(carrier: Stage, word: Word, line: Stage[]): GlobScope;
  /**
   * How a line holding a `for` loop is analysed to list its globs (`loop_listings.ts`), where
   * the filesystem can be listed and neither the command nor the line sets glob options;
   * undefined otherwise.
   */
  listing(text: string): LineListing | undefined;
  /** Whether the lists a line's analysis listed hold: no writer before the line changes them. */
  listingHolds(listing: LineListing, globs: GlobScope, at: Stage): boolean;
}

/** A writer after the line in sequence changes no list of it. */
const STARTED = { started: true };

/** The scopes of the lines a command carries (see `LineScopes`). */
export function carriedScopes(ctx: Context, opts: CarriedScopeOptions): LineScopes {
  return {
    scope: (carrier, word, line) => lineScope(ctx, opts, carrier, word, line),
    listing(text) {
      if (!ctx.fs.entries || !text.includes("for")) return undefined;
      if (Object.keys(globOptions(`${opts.command}\n${text}`, [], ctx.env)).length) return;
      const listed: LineListing["listed"] = [];
      const listing = (pattern: string, cwd: string): readonly string[] | null => {
        listed.push({ pattern, cwd });
        const found = expandPathname(pattern, cwd, ctx.fs);
        return found.kind === "matches" ? found.words : found.kind === "none" ? [] : null;
      };
      return { start: { listing }, listed };
    },
    listingHolds: (listing, globs, at) =>
      listing.listed.every((l) => {
        const region = globRegion(l.pattern, l.cwd);
        return region !== null && !globs.disturbed(region, at, undefined, STARTED);
      }),
  };
}

/** The glob scope of one line (see `LineScopes.scope`). */
function lineScope(
  ctx: Context,
  opts: CarriedScopeOptions,
  carrier: Stage,
  word: Word,
  line: Stage[],
): GlobScope {
  const top = opts.tops?.get(carrier) ?? carrier;
  const tops = new Map(opts.tops);
  const beside = new Map(opts.beside);
  // (One process as globScope tells them: the line's stages, its carrier and their wrappers.)
  const one = opts.beside?.get(carrier) ?? carrier;
  for (const s of opts.all) {
    if ((opts.tops?.get(s) ?? s) === top && s.argv.includes(word)) beside.set(s, one);
  }
  for (const x of line) {
    tops.set(x, top);
    beside.set(x, one);
  }
  const stages = [...opts.all, ...line];
  return globScope(opts.command, stages, ctx, opts.readsOnly, tops, beside, opts.instead);
}
