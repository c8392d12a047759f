/**
 * The commands yt-dlp's options make it run (its README, "Post-Processing Options" and "Download
 * Options"): `--exec [WHEN:]CMD` and `--exec-before-download CMD` run a shell line given the
 * file's path, `--netrc-cmd CMD` a shell line; `--downloader [PROTO:]NAME` runs an external
 * downloader (a name or a path) given `--downloader-args NAME:ARGS` (shlex-split, put before the
 * URL: `curl:-d @secrets/key`); `--ppa NAME:ARGS` gives ffmpeg (or ffprobe) arguments of the
 * user's (`ffmpeg:-i FILE`); `--ffmpeg-location PATH` is the ffmpeg it runs; `--use-postprocessor`
 * and `--plugin-dirs` run Python not seen; `--alias NAMES OPTIONS` defines options judged as
 * given. Long options may be shortened to a prefix (optparse). (Its `yt-dlp.conf`:
 * project_settings.ts.)
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { pythonShlex } from "./pytest.ts";
import { literal, unknownWord } from "./words.ts";

/** The options read here (those with a value), by their full names. */
const OPTIONS = [
  "--exec",
  "--exec-before-download",
  "--netrc-cmd",
  "--downloader",
  "--external-downloader",
  "--downloader-args",
  "--external-downloader-args",
  "--ppa",
  "--postprocessor-args",
  "--ffmpeg-location",
  "--use-postprocessor",
  "--plugin-dirs",
  "--alias",
];

/** yt-dlp's `--exec` stages (a prefix `WHEN:` says when it runs). */
const WHEN =
  /^(pre_process|after_filter|video|before_dl|post_process|after_move|after_video|playlist):/;

/** The external downloaders yt-dlp knows (`--downloader-args` keys). */
const DOWNLOADERS = /^(aria2c|avconv|axel|curl|ffmpeg|httpie|wget|default)$/;

/** The full name of the option a word spells (exact, or a prefix of one: optparse's). */
function optionName(word: string): string | undefined {
  if (OPTIONS.includes(word)) return word;
  if (word.length < 4) return undefined;
  return OPTIONS.find((o) => o.startsWith(word));
}

/** The `NAME:ARGS` of a `--downloader-args`/`--ppa` value (`default` where none is named). */
function keyed(value: string, keys?: RegExp): [string, string] {
  const m = /^([\w+-]+):([\s\S]*)$/.exec(value);
  if (m && (!keys || keys.test(m[1].toLowerCase().replace(/_[io]\d*$/, "")))) {
    return [m[1].toLowerCase(), m[2]];
  }
  return ["default", value];
}

/**
 * A stage of `program` given the shlex words of `args` (unknown when they do not split). The URL
 * and the file yt-dlp adds are its own, judged with yt-dlp: they are left out.
 */
function given(program: Word, args: string, run: Runner, origin: string) {
  const words = pythonShlex(args);
  if (words === null) run.stage([unknownWord(`(${program.text} given ${args})`)], origin);
  else run.stage([program, ...words.map(literal)], origin);
}

/** The commands yt-dlp's options make it run (see the module's comment). */
export function ytDlpCommands(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const found: Record<string, Word[]> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    if (!v.startsWith("--")) continue;
    const eq = v.indexOf("=");
    const name = optionName(eq > 0 ? v.slice(0, eq) : v);
    if (a.kind !== "static") {
      // (`--ex$X`, `--exec=$X`: what it names is not known.)
      if (eq < 0 ? OPTIONS.some((o) => o.startsWith(v)) : name) {
        run.stage([unknownWord(`(what ${a.text} runs)`)], "yt-dlp option");
      }
      continue;
    }
    if (!name) continue;
    const value = eq > 0 ? literal(v.slice(eq + 1)) : args[++i];
    if (!value) continue;
    if (value.kind !== "static") {
      run.stage([unknownWord(`(what ${name} ${value.text} runs)`)], "yt-dlp option");
      continue;
    }
    if (name === "--alias") {
      const options = args[++i];
      if (options) (found[name] ??= []).push(options);
    } else (found[name.replace("--external-", "--")] ??= []).push(value);
  }
  ytDlpRuns(found, run);
}

/** What the options found run. */
function ytDlpRuns(found: Record<string, Word[]>, run: Runner): void {
  const origin = "yt-dlp option";
  for (const cmd of [...found["--exec"] ?? [], ...found["--exec-before-download"] ?? []]) {
    run.command(literal(cmd.value.replace(WHEN, "")), "shell", "yt-dlp --exec");
  }
  for (const cmd of found["--netrc-cmd"] ?? []) run.command(cmd, "line", "yt-dlp --netrc-cmd");
  // The downloaders it may run: those named (a path is the program), else ffmpeg's.
  const named = (found["--downloader"] ?? []).map((w) => w.value.replace(/^[\w,+-]*:/, ""))
    .filter((d) => d !== "native" && d !== "");
  const downloaders = named.length ? named : ["ffmpeg"];
  const base = (d: string) => d.slice(d.lastIndexOf("/") + 1).replace(/\.exe$/i, "");
  for (const d of named) if (d.includes("/")) run.stage([literal(d), literal("(its URL)")], origin);
  for (const w of found["--downloader-args"] ?? []) {
    const [key, text] = keyed(w.value, DOWNLOADERS);
    const program = key.replace(/_[io]\d*$/, "");
    const runs = program === "default"
      ? downloaders
      : [...downloaders.filter((d) => base(d) === program), program];
    // (aria2c is given the file yt-dlp names after them: `--out NAME`.)
    const out = (d: string) => base(d) === "aria2c" ? " --out '(the file yt-dlp names)'" : "";
    for (const d of new Set(runs)) given(literal(d), text + out(d), run, origin);
  }
  for (const w of [...found["--ppa"] ?? [], ...found["--postprocessor-args"] ?? []]) {
    const [key, text] = keyed(w.value);
    const program = key.includes("ffprobe") ? "ffprobe" : "ffmpeg";
    given(literal(program), text, run, origin);
  }
  // (The ffmpeg binary, whatever its name, or the directory it and ffprobe are in.)
  for (const w of found["--ffmpeg-location"] ?? []) {
    const dir = w.value.replace(/\/$/, "");
    const binaries = /^(ffmpeg|ffprobe|avconv|avprobe)/.test(base(dir))
      ? [dir]
      : [dir, `${dir}/ffmpeg`, `${dir}/ffprobe`];
    for (const b of binaries) run.command(literal(b), "program", "yt-dlp --ffmpeg-location");
  }
  for (const w of [...found["--use-postprocessor"] ?? [], ...found["--plugin-dirs"] ?? []]) {
    run.stage([unknownWord(`(the Python code ${w.text} loads)`)], origin);
  }
  for (const w of found["--alias"] ?? []) {
    const words = w.kind === "static" ? pythonShlex(w.value) : null;
    if (words === null) run.stage([unknownWord(`(the options ${w.text})`)], origin);
    else run.stage([literal("yt-dlp"), ...words.map(literal), literal("(its URL)")], origin);
  }
}
