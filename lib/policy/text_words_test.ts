/**
 * The words the stages a wrapper runs take as text: a word any stage that runs no other program
 * may read as a file stays a file (see `innerTextWords`), and a wrapper's own options that take a
 * value are its (systemd-run's `-u` is the unit's name).
 */
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

Deno.test("wrapped words: a word one stage may read as a file is judged as a file", async () => {
  const rows: [string, Action, Action][] = [
    // A word one stage may take as a file stays a file, whatever another stage takes it for: after
    // a wrapper's option not known each later word is tried as the command, and find under a
    // wrapper passes its -exec words on.
    ["firejail --quiet tee .env", "deny", "deny"],
    ["cd ~/.ssh && firejail --quiet cat id_rsa", "deny", "deny"],
    ["setpriv --nnp cat .env", "deny", "deny"],
    ["xvfb-run --auto-servernum cp x .env", "deny", "deny"],
    ["run0 --no-ask-password cp x .env", "deny", "deny"],
    ["timeout 5 find src -exec cat .env \\;", "deny", "deny"],
    ["env find -maxdepth 0 -exec cat .env \\;", "deny", "deny"],
    ["busybox find -exec cat .env \\;", "deny", "deny"],
    // systemd-run's `-u` names the unit (its user is `--uid`), and a socket unit's properties
    // run commands as a service's do.
    // A name guessed after an option not known is no text where a program that runs another
    // writes the word (logsave's file, valgrind's and strace's logs).
    ["setpriv --nnp logsave .env true", "deny", "deny"],
    ["cd ~/.ssh && firejail --quiet logsave id_rsa true", "deny", "deny"],
    ["firejail --quiet valgrind --log-file=.env true", "deny", "deny"],
    ["setpriv --nnp strace --output=.env true", "deny", "deny"],
    ["setpriv --nnp strace -o.env true", "deny", "deny"],
    ["firejail --quiet sshpass -f.env ssh x", "deny", "deny"],
    ["systemd-run -u true cat .env", "deny", "deny"],
    ["systemd-run --scope -u true rm -rf ~/.ssh", "deny", "deny"],
    ["systemd-run -u true -p ExecStartPre=/tmp/x true", "deny", "deny"],
    ["systemd-run --socket-property=ExecStartPre=/tmp/x true", "deny", "deny"],
  ];
  await checkTable(rows);
});

Deno.test("wrapped words: everyday wrapped commands keep their text", async () => {
  await checkTable([
    ["sudo git commit -m 'fix .env loading'", "deny", "deny"],
    ["timeout 60 git commit -m 'fix .env loading'", "deny", "allow"],
    ["nice -n 5 grep -r .env src", "allow", "allow"],
    ["timeout 5 git grep -e .env", "allow", "allow"],
    ["timeout 5 find src -name '*.txt' -exec sed -i s/.env/x/ {} \\;", "deny", "allow"],
    ["timeout 5 find src -name '*.txt' -exec grep -l .env {} +", "deny", "allow"],
  ]);
});
