/**
 * Which forms of git's subcommands run the programs their settings name (see
 * `git_configured.ts`): an editor (`core.editor`, `sequence.editor`), gpg (`gpg.program`), a
 * trailer's command, a diff or merge tool. Options are read as parse-options reads them: a long
 * option by any prefix of its name (git refuses an ambiguous one, so reading every prefix as the
 * option asks no more of a command git runs), short flags in clusters (`-ki`) up to the first one
 * that takes a value.
 *
 * @example
 * ```ts
 * import { edits } from "./git_configured_forms.ts";
 * edits("rebase", ["--inter", "HEAD~1"], []); // true
 * edits("commit", ["-m", "x"], []); // false
 * ```
 *
 * @module
 */
import type { ConfigSetting } from "./git_config_files.ts";

/** Whether `w` is the long option `name` (`--edit`) or a prefix of it at least `min` long. */
function long(w: string, name: string, min = 4): boolean {
  const bare = w.includes("=") ? w.slice(0, w.indexOf("=")) : w;
  return bare.length >= Math.min(min, name.length) && bare.startsWith("--") &&
    name.startsWith(bare);
}

/** Whether `w` is a cluster of short flags holding `flag` before any of `valued`. */
function short(w: string, flag: string, valued: string): boolean {
  if (!/^-[^-]/.test(w)) return false;
  for (const c of w.slice(1)) {
    if (c === flag) return true;
    if (valued.includes(c)) return false;
  }
  return false;
}

/** The short options of each subcommand that take a value (a cluster ends at one). */
const VALUED: Record<string, string> = {
  commit: "mFCctSu",
  tag: "mFu",
  rebase: "sXxCS",
  merge: "msXSF",
  pull: "sXjo",
  notes: "mFCc",
  "cherry-pick": "mXSs",
  revert: "mXS",
  am: "pSC",
};

/** The last value of a setting (lower-case key) in the settings, or undefined. */
function last(settings: readonly ConfigSetting[], re: RegExp): string | undefined {
  let value: string | undefined;
  for (const s of settings) if (re.test(s.key.toLowerCase())) value = s.value;
  return value;
}

/** Whether `pull` rebases interactively: `--rebase=i[nteractive]`, or `pull.rebase` says so. */
function pullsInteractively(words: string[], settings: readonly ConfigSetting[]): boolean {
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i];
    if (long(w, "--no-rebase", 6)) return false;
    if (long(w, "--rebase", 4)) return /^--[a-z]*=i(nteractive)?$/.test(w);
  }
  // (Any branch's: which one is checked out is not read here.)
  return settings.some((s) =>
    /^(pull|branch\..+)\.rebase$/i.test(s.key) && /^i(nteractive)?$/i.test(s.value)
  );
}

/**
 * Whether a subcommand with these words opens an editor for a message, a todo list or a patch
 * (`settings`: those of git's config files, which `pull.rebase` is read from).
 */
export function edits(sub: string, words: string[], settings: readonly ConfigSetting[]): boolean {
  const valued = VALUED[sub] ?? "";
  const has = (test: (w: string) => boolean) => words.some(test);
  const flag = (c: string) => has((w) => short(w, c, valued));
  if (has((w) => long(w, "--no-edit", 6))) return false;
  const edit = has((w) => long(w, "--edit", 4)) || flag("e");
  const message = has((w) =>
    long(w, "--message", 5) || long(w, "--file", 4) || long(w, "--reuse-message", 5) ||
    /^--fixup=(?!amend:|reword:)/.test(w) || /^-[a-zA-Z]*[mFC]/.test(w)
  );
  switch (sub) {
    case "commit":
      return edit || !message;
    case "tag":
      return edit || (!message && (
        has((w) =>
          long(w, "--annotate", 4) || long(w, "--sign", 4) || long(w, "--local-user", 4)
        ) ||
        flag("a") || flag("s") || flag("u")
      ));
    // (`--continue` commits what was resolved, with the message in the editor, as `git commit`.)
    case "rebase":
      return has((w) =>
        long(w, "--interactive", 4) || long(w, "--edit-todo", 4) || long(w, "--continue", 6)
      ) || flag("i");
    case "add":
      return edit || has((w) => long(w, "--interactive", 4) || long(w, "--patch", 4)) ||
        flag("i") || flag("p");
    case "am":
      return has((w) => long(w, "--interactive", 4)) || flag("i");
    case "merge":
      return edit || has((w) => long(w, "--continue", 6));
    case "cherry-pick":
      return edit;
    case "pull":
      return edit || pullsInteractively(words, settings);
    case "revert":
      return edit || !message;
    case "notes":
      return /^(add|append|edit)$/.test(words[0] ?? "") && !message;
    case "branch":
      return has((w) => long(w, "--edit-description", 4));
    case "config":
      return words[0] === "edit" || edit;
    case "send-email":
      return has((w) => long(w, "--compose", 4) || long(w, "--annotate", 4));
    case "replace":
      return edit;
    default:
      return false;
  }
}

/** Whether `rebase` with these words opens the todo list in the sequence editor. */
export function editsSequence(sub: string, words: string[], settings: readonly ConfigSetting[]) {
  if (sub === "pull") return pullsInteractively(words, settings);
  // (Not `--continue`: it opens the message of a commit.)
  const todo = words.filter((w) => !long(w, "--continue", 6));
  return sub === "rebase" && edits(sub, todo, settings);
}

/** Whether a setting (lower-case key) is on (git's booleans; a key ID for `*.gpgSign`). */
function on(settings: readonly ConfigSetting[], key: RegExp): boolean {
  const value = last(settings, key);
  return value !== undefined && !/^(false|no|off|0|)$/i.test(value);
}

/**
 * Whether a subcommand with these words signs or checks a signature (gpg runs): `-S`, `tag -s`,
 * `verify-*`, `--show-signature`, or the settings that turn those on (`commit.gpgSign`,
 * `tag.gpgSign`, `log.showSignature`, `merge.verifySignatures`, `push.gpgSign`).
 */
export function signs(sub: string, words: string[], settings: readonly ConfigSetting[]): boolean {
  if (/^verify-(commit|tag)$/.test(sub)) return true;
  const has = (test: (w: string) => boolean) => words.some(test);
  if (has((w) => /^(-S|--show-signature)(=|$)|^-S./.test(w) || long(w, "--gpg-sign", 5))) {
    return true;
  }
  const no = has((w) => long(w, "--no-gpg-sign", 6) || long(w, "--no-show-signature", 6));
  switch (sub) {
    case "tag":
      return words[0] === "-v" || long(words[0] ?? "", "--verify", 4) ||
        has((w) => long(w, "--sign", 4) || long(w, "--local-user", 4)) ||
        ["s", "u"].some((c) => has((w) => short(w, c, VALUED.tag))) ||
        (!no && on(settings, /^tag\.gpgsign$/) &&
          has((w) => long(w, "--annotate", 4) || short(w, "a", VALUED.tag) || /^-[mF]/.test(w)));
    case "commit":
    case "rebase":
    case "cherry-pick":
    case "revert":
    case "am":
    case "stash":
      return !no && on(settings, /^commit\.gpgsign$/);
    case "merge":
    case "pull":
      return has((w) => long(w, "--verify-signatures", 5)) ||
        (!no && (on(settings, /^commit\.gpgsign$/) || on(settings, /^merge\.verifysignatures$/)));
    case "log":
    case "show":
    case "whatchanged":
      return !no && on(settings, /^log\.showsignature$/);
    case "push":
      return has((w) => long(w, "--signed", 5)) || (!no && on(settings, /^push\.gpgsign$/));
    default:
      return false;
  }
}
