/**
 * Files of settings a variable or an option names that make a program run a command, read as
 * they will be when the command runs: an AWS config or credentials file (`AWS_CONFIG_FILE`,
 * `AWS_SHARED_CREDENTIALS_FILE`: a profile's `credential_process` and `cli_pager` run, plugins
 * load code) and a kubeconfig (`KUBECONFIG`, `kubectl --kubeconfig`: a user's `exec` command and
 * an auth provider's `cmd-path` run). What they hold is judged: each command as a stage, each file
 * they make the program read and send (`web_identity_token_file`, `tokenFile`, `client-key`) as a
 * file it opens. A file that cannot be read as it will be (another stage may write it, a name not
 * known) or understood is a command not known; none there runs nothing.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { gpgHome } from "./gpg.ts";
import { RC_FILE_ENV, rcVariable } from "./rc_files.ts";
import { literal, opensFile, unknownWord } from "./words.ts";
import { rgConfig } from "./grep.ts";

/** What an AWS config or credentials file (INI) runs and opens. */
function awsSettings(text: string, run: Runner, origin: string): void {
  let key = "";
  let value = "";
  const done = () => {
    if (key === "credential_process" || key === "cli_pager") {
      if (value) run.shell(literal(value), origin, { arguments: key === "cli_pager" });
    } else if (/(_file|^ca_bundle)$/.test(key)) opensFile(value, run, origin);
    else if (key.startsWith("cli_legacy_plugin") || key === "[plugins]") {
      run.stage([unknownWord(`(the plugins ${origin} loads)`)], origin);
    }
    key = "";
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(line)) continue;
    if (/^\s/.test(line) && key) {
      // (A line more of the value above: a nested setting, or the value continued.)
      value += " " + line.trim();
      continue;
    }
    done();
    const section = /^\s*\[\s*(.*?)\s*\]/.exec(line);
    if (section) {
      if (section[1] === "plugins") {
        key = "[plugins]";
        done();
      }
      continue;
    }
    const m = /^\s*([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (m) [key, value] = [m[1].toLowerCase(), m[2].trim()];
  }
  done();
}

/** A YAML scalar as written (quotes taken off). */
function scalar(text: string): string {
  const t = text.trim();
  const q = /^(["'])(.*)\1$/.exec(t);
  return q ? q[2] : t.replace(/\s+#.*$/, "");
}

/**
 * The `exec` blocks of a kubeconfig's users, as YAML in block style: each command with its `args`
 * and its `env` as `NAME=value` words; null when a block is written otherwise (flow style, a value
 * not given) and cannot be read here.
 */
function execBlocks(lines: string[]): { argv: string[]; env: string[] }[] | null {
  const out: { argv: string[]; env: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)exec\s*:\s*(.*)$/.exec(lines[i]);
    if (!head) continue;
    if (head[2].trim() && head[2].trim() !== "null") return null;
    const indent = head[1].length;
    let command: string | null = null;
    const args: string[] = [];
    const env: string[] = [];
    let list: "args" | "env" | "" = "";
    let name = "";
    for (i++; i < lines.length; i++) {
      const line = lines[i];
      if (!line.trim() || /^\s*#/.test(line)) continue;
      if (line.length - line.trimStart().length <= indent) {
        i--;
        break;
      }
      const kv = /^\s*(-\s+)?([\w-]+)\s*:\s*(.*)$/.exec(line);
      const item = /^\s*-\s+(.*)$/.exec(line);
      if (kv && !kv[1] && ["command", "args", "env"].includes(kv[2])) {
        list = "";
        if (kv[2] === "command") command = scalar(kv[3]);
        else if (kv[3].trim() && kv[3].trim() !== "[]" && kv[3].trim() !== "null") return null;
        else list = kv[2] as "args" | "env";
      } else if (list === "args" && item) args.push(scalar(item[1]));
      else if (list === "env" && kv && kv[2] === "name") name = scalar(kv[3]);
      else if (list === "env" && kv && kv[2] === "value") env.push(`${name}=${scalar(kv[3])}`);
      else if (kv && !kv[1]) list = "";
    }
    if (!command) return null;
    out.push({ argv: [command, ...args], env });
  }
  return out;
}

/** What a kubeconfig (YAML, or JSON) runs and opens. */
function kubeconfigSettings(text: string, run: Runner, origin: string): void {
  const lines = text.split(/\r?\n/);
  const blocks = text.trimStart().startsWith("{") ? null : execBlocks(lines);
  if (blocks === null) {
    // (JSON, flow style: what an `exec` there runs is not read here.)
    if (/["']?\bexec["']?\s*:|\bcmd-path\b/.test(text)) {
      run.stage([unknownWord(`(the command ${origin} names)`)], origin);
    }
  } else {
    for (const b of blocks) {
      run.environment(b.env.map(literal));
      run.stage(b.argv.map(literal), origin);
    }
  }
  for (const line of lines) {
    const m = /^\s*-?\s*["']?([\w-]+)["']?\s*:\s*(.+)$/.exec(line);
    if (!m) continue;
    if (m[1] === "cmd-path") run.stage([literal(scalar(m[2])), literal("(its arguments)")], origin);
    else if (
      /^(tokenFile|token-file|client-key|client-certificate|certificate-authority)$/.test(m[1])
    ) {
      opensFile(scalar(m[2]).replace(/[",]+$/, ""), run, origin);
    }
  }
}

/** What the file a settings variable or option names runs (each of KUBECONFIG's list). */
function settingsFile(kind: "aws" | "kube", file: Word, run: Runner, origin: string): void {
  const paths = file.kind !== "static"
    ? null
    : kind === "kube"
    ? file.value.split(":").filter(Boolean)
    : [file.value];
  for (const path of paths ?? [null]) {
    const text = path === null ? null : run.settings(path);
    if (text === null) {
      run.stage([unknownWord(`(the commands the file ${file.text} may name)`)], origin);
    } else if (kind === "aws") awsSettings(text, run, origin);
    else kubeconfigSettings(text, run, origin);
  }
}

/**
 * `AWS_CONFIG_FILE=F`, `KUBECONFIG=F:G`: what the files they name run (`command`: the words of
 * the stage the variable is set before); ripgrep's
 * (`RIPGREP_CONFIG_PATH`: grep.ts), the package managers' and openssl's (`GEMRC`, `PIP_CONFIG_FILE`, `OPENSSL_CONF`: rc_files.ts), gpg's home (gpg.ts).
 */
export function settingsVariable(
  variable: string,
  file: Word,
  run: Runner,
  command?: Word[],
): void {
  if (RC_FILE_ENV.test(variable)) return rcVariable(variable, file, run);
  if (variable === "GNUPGHOME") return gpgHome(file, run, `env ${variable}`);
  if (variable === "RIPGREP_CONFIG_PATH") return rgConfig(file, run, `env ${variable}`, command);
  settingsFile(variable === "KUBECONFIG" ? "kube" : "aws", file, run, `env ${variable}`);
}

/** `kubectl --kubeconfig F` (`--kubeconfig=F`): what F runs. */
export function kubeconfigOption(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    const m = /^--kubeconfig(=|$)/.exec(v);
    if (!m) continue;
    const file = m[1] ? (a.kind === "static" ? literal(v.slice(m[0].length)) : a) : args[++i];
    if (file) settingsFile("kube", file, run, "kubectl --kubeconfig");
  }
}
