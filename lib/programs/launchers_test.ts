import { checkTable } from "../testing_adversarial.ts";

Deno.test("zellij write-chars, script's glued command, rsync's and svn's connect programs", async () => {
  await checkTable([
    ["zellij action write-chars $'rm -rf src\\n'", "deny", "deny"],
    ["script --command='rm -rf src'", "deny", "deny"],
    ["script -c'rm -rf src'", "deny", "deny"],
    ["su -c'rm -rf src' bob", "deny", "deny"],
    ["RSYNC_CONNECT_PROG='rm -rf src' rsync a host::b", "deny", "deny"],
    ["SVN_SSH='rm -rf src' svn co svn+ssh://h/r", "deny", "deny"],
  ]);
});

Deno.test("launchers: the commands programs start in their own way are judged", async () => {
  await checkTable([
    ["ip netns exec blue rm -rf build", "deny", "deny"],
    ["ip -n x vrf exec red rm -rf build", "deny", "deny"],
    ["xdotool exec --sync rm -rf build", "deny", "deny"],
    ["service ../../bin/rm -rf build", "deny", "deny"],
    ["run-parts --regex '^rm$' /bin", "deny", "deny"],
    ["gcc -wrapper /bin/rm,-rf,build x.c", "deny", "deny"],
    ["mail --exec='!rm -rf build' -s x y", "deny", "deny"],
    ["mailx -E '!git push origin main' x", "deny", "deny"],
    ["pdflatex -shell-escape doc.tex", "deny", "deny"],
    ["latexmk -e '$pdflatex=q/rm -rf build/' doc.tex", "deny", "deny"],
    ["rpm --eval '%(rm -rf build)'", "deny", "deny"],
    ["rpm -E '%{lua:os.execute(\"rm -rf build\")}'", "deny", "deny"],
    ["setarch x86_64 -R rm -rf build", "deny", "deny"],
    ["linux64 rm -rf build", "deny", "deny"],
    ["logsave /dev/null rm -rf build", "deny", "deny"],
    ["rlwrap -a rm -rf build", "deny", "deny"],
    ["msgfilter -i x.po rm -rf build", "deny", "deny"],
    ["zellij run -f -- rm -rf build", "deny", "deny"],
    ["zellij action new-pane -- rm -rf build", "deny", "deny"],
    ["launchctl submit -l x -- rm -rf build", "deny", "deny"],
    ["launchctl asuser 501 rm -rf build", "deny", "deny"],
    ["zellij attach main", "deny", "allow"],
    // Their everyday forms run nothing more.
    ["ip addr show", "deny", "allow"],
    ["service nginx status", "deny", "allow"],
    ["find ../../bin -name rm | xargs -I{} service {} -rf build", "deny", "deny"],
    // (The arch not known is setarch's operand: make runs, judged as it is; setarch asks.)
    ['setarch "$(uname -m)" -R make', "deny", "ask"],
    ["run-parts --test /etc/cron.daily", "deny", "allow"],
    ["gcc -O2 -o app main.c", "deny", "allow"],
    ["pdflatex doc.tex", "deny", "allow"],
    ["rpm -qa", "deny", "allow"],
  ]);
});

Deno.test("mail's tilde escapes, when on (-I, -~), run the commands of its input", async () => {
  await checkTable([
    ["mail -I -s x u <<< '~!rm -rf src'", "deny", "deny"],
    ["mail -Is x u <<< '~: !rm -rf src'", "deny", "deny"],
    ["mailx -~ -s x u <<< '~|rm -rf src'", "deny", "deny"],
    ["mail -I -s x u <<< '~<!cat .env'", "deny", "deny"],
    ["s-nail -~ -s x u <<< '~r ~/.ssh/id_rsa'", "deny", "deny"],
    ["mail -I -S escape=% -s x u <<< '%!rm -rf src'", "deny", "deny"],
    ["s-nail -X '!rm -rf src' -s x u", "deny", "deny"],
    ['mail -I -s x u <<< "~!$(cat f)"', "deny", "deny"],
    // Off (the escapes of a message not read interactively are its text), and a subject.
    ["mail -s x u <<< '~!rm -rf src'", "deny", "allow"],
    ["mail -sI u <<< '~!rm -rf src'", "deny", "allow"],
    ["mail -s 'build done' u <<< 'all green'", "deny", "allow"],
    ["mail -I -s x u <<< 'all green'", "deny", "allow"],
  ]);
});
