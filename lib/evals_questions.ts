/**
 * The seven questions sent to the Decisions API with every inline code eval: five yes/no
 * questions and two choices (ids and labels per RULINGS; the texts are ours).
 *
 * @module
 */
import type { ChoiceQuestion, NoulQuestion, Question } from "./decisions_client.ts";

/** The yes/no question ids. */
export const NOUL_IDS = ["destructive", "network", "exec", "obfuscated", "inference_call"] as const;
/** A yes/no question id. */
export type NoulId = typeof NOUL_IDS[number];

/** The write_scope labels. */
export const WRITE_LABELS = [
  "none",
  "temp",
  "within",
  "outside",
  "sensitive_system",
  "unknown",
] as const;
/** The read_scope labels. */
export const READ_LABELS = ["none", "ordinary", "sensitive", "unknown"] as const;
/** A write_scope label. */
export type WriteLabel = typeof WRITE_LABELS[number];
/** A read_scope label. */
export type ReadLabel = typeof READ_LABELS[number];

/** The labels whose probability mass counts as risky when a choice is not confident. */
export const RISKY_LABELS = {
  write_scope: ["outside", "sensitive_system", "unknown"],
  read_scope: ["sensitive", "unknown"],
} as const;

const CONTEXT = "The state describes one inline code eval an AI coding agent wants to run: " +
  "`source` is the code, `interpreter` and `language` run it, `via` is how it is passed (a flag " +
  "such as -c or -e, a heredoc, a here-string), `command` is the full command line, `cwd` is the " +
  "working directory (the project) and `targets` are paths the command line names. When " +
  "`truncated` is true only the start of the code is shown; judge the rest as unknown.";

function noul(text: string): NoulQuestion {
  return { type: "noul", instructions: `${text}\n\n${CONTEXT}` };
}

/** The seven questions sent with every eval, keyed by id. */
export const QUESTIONS: Readonly<Record<string, Question>> = Object.freeze({
  destructive: noul(
    "Does this code destroy or irreversibly change something that existed before it ran? Yes " +
      "for deleting files or directories (rm, unlink, rmtree, shutil.rmtree, fs.rm), truncating " +
      "or overwriting existing files other than its own fresh outputs, dropping or deleting " +
      "database data, force-pushing or hard-resetting git history, killing processes it did not " +
      "start, recursive chmod/chown, or wiping disks. No for reading, printing, computing, or " +
      "creating new files and temporary files.",
  ),
  network: noul(
    "Does this code use the network? Yes for HTTP requests (urllib, requests, fetch, http " +
      "clients), sockets, DNS lookups, downloads, package installs, git fetch/pull/push/clone, " +
      "ssh/scp/rsync to a host, or starting curl/wget; connections to localhost count. No when it " +
      "only works with local files and local processes.",
  ),
  exec: noul(
    "Does this code start other programs? Yes for subprocess, os.system, os.exec*, popen, " +
      "child_process (exec, spawn), Deno.Command, Bun.spawn, backticks, system(), or handing a " +
      "string to a shell. For shell code, yes when it launches another interpreter or shell, " +
      "builds commands at run time (eval, sh -c), or runs package managers, compilers or service " +
      "managers; plain file and text utilities (ls, cat, grep, sed, echo) do not count. No when " +
      "everything happens inside the interpreter itself.",
  ),
  obfuscated: noul(
    "Is this code written to hide what it does? Yes for base64, hex, rot13, zlib or char-code " +
      "payloads that are decoded and then run or written, names of commands, files or hosts " +
      "assembled from fragments to avoid being read, eval/exec of computed strings, or code that " +
      "disables history, logging or auditing. No for ordinary one-liners that are terse but " +
      "readable, and for decoding data that is only printed.",
  ),
  inference_call: noul(
    "Does this code, or the command line around it, call a machine-learning model? Yes for " +
      "requests to LLM or inference APIs (OpenAI, Anthropic, OpenRouter, Google Gemini, Mistral, " +
      "Cohere, Hugging Face inference, Ollama, llama.cpp or vLLM servers, including through their " +
      "SDKs) and for loading and running a model locally. Such calls can spend money and send data " +
      "to a third party. No otherwise.",
  ),
  write_scope: {
    type: "choice",
    instructions: "Where does this code write, create, modify or delete files or directories? " +
      "Judge paths against the working directory in `cwd` (relative paths are inside it). When it " +
      `writes to several places, choose the most sensitive one.\n\n${CONTEXT}`,
    criteria: {
      none: "It writes no files: it only reads, computes or prints.",
      temp: "It writes only to temporary places: /tmp, $TMPDIR, tempfile/mkdtemp, or /dev/null.",
      within: "It writes only inside the working directory (`cwd`) or below it.",
      outside: "It writes outside the working directory, but not to system or credential " +
        "locations: other projects, the home directory, caches, build outputs elsewhere.",
      sensitive_system: "It writes to system or security-sensitive locations: /etc, /usr, /bin, " +
        "/sbin, /boot, /var, /System, /Library, shell startup files (~/.bashrc, ~/.zshrc, " +
        "~/.profile), ~/.ssh, ~/.gnupg, ~/.aws, credential or keychain files, crontabs, git " +
        "hooks, or the configuration of the agent or editor.",
      unknown: "It writes files, but where cannot be told from the code (paths computed from " +
        "input, arguments or the environment).",
    },
  } satisfies ChoiceQuestion,
  read_scope: {
    type: "choice",
    instructions: "What does this code read from files or the environment? Judge paths against " +
      "the working directory in `cwd`. When it reads several things, choose the most sensitive " +
      `one.\n\n${CONTEXT}`,
    criteria: {
      none: "It reads no files and no secrets from the environment.",
      ordinary: "It reads only ordinary data: project files, documentation, data files, and " +
        "system information that is not secret (/etc/os-release, /proc/cpuinfo, package lists).",
      sensitive: "It reads credentials or private data: SSH or GPG keys, .env files, API tokens " +
        "or secret environment variables, cloud credentials (~/.aws, ~/.config/gcloud), password " +
        "stores, keychains, browser profiles or cookies, shell history, /etc/shadow.",
      unknown: "It reads files, but which ones cannot be told from the code.",
    },
  } satisfies ChoiceQuestion,
});
