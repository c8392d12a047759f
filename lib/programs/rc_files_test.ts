/**
 * Files of settings a variable or an option names that make gem, conda, pip or openssl write
 * elsewhere or run code (a gemrc's `--install-dir`, a condarc's `pkgs_dirs`, a pip.conf's
 * `target`, an OpenSSL config's `RANDFILE`), and gpg's (`--options`, `--homedir`, `GNUPGHOME`)
 * and gpg-connect-agent's control commands: read as they are when the call is decided.
 */
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";

const P = "/home/user/project";
const A = "/home/user/.pi/agent";
const ctx = ctxIn(P, {
  files: [`${P}/README.md`, `${P}/requirements.txt`, `${P}/cert.crt`, `${A}/settings.json`],
  contents: {
    "/tmp/gemrc": `gem: --install-dir ${A}/extensions --no-document\n`,
    "/tmp/gemrc2": `install: --bindir ${A}/bin\n:backtrace: false\n`,
    [`${P}/.gemrc`]: "gem: --no-document\n:sources:\n- https://rubygems.org/\n",
    "/tmp/condarc": `channels:\n  - conda-forge\npkgs_dirs:\n  - ${P}/.pi/extensions\n`,
    "/tmp/condarc2": `envs_dirs: [${A}/npm]\n`,
    [`${P}/condarc`]: "channels:\n  - conda-forge\nalways_yes: true\npkgs_dirs:\n  - /tmp/pkgs\n",
    "/tmp/pip.conf": `[install]\ntarget = ${P}/.pi/extensions\n`,
    "/tmp/pip2.conf": "[global]\npython = /usr/bin/curl\n",
    "/tmp/pip3.conf": "[global]\ncache-dir = $EVIL\n",
    [`${P}/pip.conf`]: "[global]\nindex-url = https://pypi.org/simple\ntimeout = 60\n",
    "/tmp/evil.cnf": `RANDFILE = ${P}/.pi/mcp.json\n[req]\ndistinguished_name = dn\n[dn]\n`,
    "/tmp/ca.cnf":
      `[ca]\ndefault_ca = CA\n[CA]\ndir = ${A}/extensions\ndatabase = $dir/index.txt\n`,
    "/tmp/engine.cnf": "openssl_conf = c\n[c]\nengines = e\n[e]\nx = x_sect\n[x_sect]\n" +
      "dynamic_path = /home/user/.ssh/evil.so\n",
    "/tmp/inc.cnf": ".include /tmp/evil.cnf\n",
    "/tmp/unknown.cnf": "[CA]\ndatabase = $nowhere/index.txt\n",
    [`${P}/openssl.cnf`]:
      "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = localhost\n[ca]\ndir = ./ca\n" +
      "database = $dir/index.txt\n",
    "/tmp/gpg.conf": `logger-file ${A}/extensions/x.ts\n`,
    "/tmp/gpg2.conf": "photo-viewer rm -rf src\n",
    "/tmp/g/gpg-agent.conf": "pinentry-program /usr/bin/curl\n",
    [`${P}/gpg.conf`]: "keyserver hkps://keys.openpgp.org\nno-greeting\n",
    "/tmp/cmds": `/datafile ${P}/.pi/mcp.json\nGETINFO version\n`,
    "/tmp/cmds2": "/definqprog PIN rm -rf src\n",
  },
});

Deno.test("gem, conda, pip and openssl: the settings files they are given", async () => {
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["gem --config-file /tmp/gemrc install rake", "allow", "ask"],
    ["gem install rake --config-file=/tmp/gemrc", "allow", "ask"],
    ["GEMRC=/tmp/gemrc gem install rake", "allow", "ask"],
    ["export GEMRC=.gemrc:/tmp/gemrc2; gem install rake", "allow", "ask"],
    ["gem install rake --config-file $RC", "deny", "ask"],
    ["CONDARC=/tmp/condarc conda install numpy", "allow", "ask"],
    ["MAMBARC=/tmp/condarc2 mamba install numpy", "allow", "ask"],
    ["PIP_CONFIG_FILE=/tmp/pip.conf pip install requests", "allow", "ask"],
    ["PIP_CONFIG_FILE=/tmp/pip2.conf pip install requests", "deny", "allow"],
    ["PIP_CONFIG_FILE=/tmp/pip3.conf pip install requests", "deny", "ask"],
    ["XDG_CONFIG_DIRS=/tmp/x pip install requests", "deny", "ask"],
    ["openssl req -new -config /tmp/evil.cnf -key k.key -out r.csr", "allow", "ask"],
    ["OPENSSL_CONF=/tmp/evil.cnf openssl rand -hex 8", "allow", "ask"],
    ["openssl ca -config /tmp/ca.cnf -in r.csr", "allow", "ask"],
    ["OPENSSL_CONF=/tmp/engine.cnf openssl version", "deny", "allow"],
    ["openssl req -config /tmp/inc.cnf -new -key k.key", "allow", "ask"],
    ["openssl ca -config /tmp/unknown.cnf -in r.csr", "deny", "ask"],
    ["echo 'RANDFILE = .pi/mcp.json' > o.cnf; OPENSSL_CONF=o.cnf openssl rand 8", "deny", "ask"],
    // everyday
    ["gem install rake", "allow", "allow"],
    ["gem install rake --config-file .gemrc", "allow", "allow"],
    ["GEMRC=/dev/null gem install rake", "allow", "allow"],
    ["conda install numpy", "allow", "allow"],
    ["CONDARC=condarc conda install numpy", "allow", "allow"],
    ["pip install -r requirements.txt", "allow", "allow"],
    ["PIP_CONFIG_FILE=pip.conf pip install -r requirements.txt", "allow", "allow"],
    ["PIP_CONFIG_FILE=/dev/null pip install requests", "allow", "allow"],
    ["openssl x509 -in cert.crt -noout -text", "allow", "allow"],
    ["openssl req -new -x509 -config openssl.cnf -key k.key -out c.crt", "allow", "allow"],
    ["OPENSSL_CONF=/tmp/none.cnf openssl version", "allow", "allow"],
  ]);
});

Deno.test("gpg: its settings and home; gpg-connect-agent's control commands", async () => {
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["gpg --options /tmp/gpg.conf --verify x.sig", "allow", "ask"],
    // (what runs: the deny-list's rules judge it)
    ["gpg --options /tmp/gpg2.conf --list-keys", "deny", "allow"],
    ["gpg --photo-viewer 'rm -rf src' --list-options show-photos -k", "deny", "allow"],
    ["gpg --agent-program curl --verify x.sig", "deny", "allow"],
    ["gpg --homedir /tmp/g --verify x.sig", "deny", "allow"],
    ["GNUPGHOME=/tmp/g gpg --verify x.sig", "deny", "allow"],
    ["gpg --hom .pi/extensions --import k.asc", "allow", "ask"],
    ["export GNUPGHOME=$G; gpg --verify x.sig", "deny", "ask"],
    ["gpg-connect-agent -r /tmp/cmds /bye", "allow", "ask"],
    ["gpg-connect-agent --run /tmp/cmds2 /bye", "deny", "allow"],
    ["gpg-connect-agent '/datafile .pi/mcp.json' 'getinfo version' /bye", "allow", "ask"],
    ["gpg-connect-agent '/definqprog PIN rm' /bye", "deny", "allow"],
    ["gpg-connect-agent '/run /tmp/cmds' /bye", "allow", "ask"],
    ["gpg-connect-agent --exec rm -rf src", "deny", "allow"],
    ["gpg-connect-agent <<'EOF'\n/datafile .pi/mcp.json\nEOF", "allow", "ask"],
    ["cat cmds.txt | gpg-connect-agent", "deny", "ask"],
    // everyday
    ["gpg --verify x.sig", "allow", "allow"],
    ["gpg --options gpg.conf --recv-keys ABCD", "allow", "allow"],
    ["export GNUPGHOME=$(mktemp -d); gpg --import k.asc", "allow", "allow"],
    ["gpg --homedir /tmp/none --list-keys", "allow", "allow"],
    ["gpg-connect-agent 'getinfo version' /bye", "allow", "allow"],
    ["gpg-connect-agent updatestartuptty /bye", "allow", "allow"],
    ["gpg-connect-agent reloadagent /bye", "allow", "allow"],
  ]);
});

Deno.test("pip: its environment's pip.conf (sys.prefix), and the user's where the command writes them", async () => {
  const venvs = ctxIn(P, {
    files: [`${P}/requirements.txt`, `${P}/.venv/bin/pip`, `${P}/.venv/bin/python`],
    contents: {
      [`${P}/.venv/pyvenv.cfg`]: "home = /usr/bin\n",
      [`${P}/evil/pyvenv.cfg`]: "home = /usr/bin\n",
      [`${P}/evil/pip.conf`]: `[install]\ntarget = ${A}/extensions\n`,
      [`${P}/evil2/pyvenv.cfg`]: "home = /usr/bin\n",
      [`${P}/evil2/pip.conf`]: "[global]\npython = /usr/bin/curl\n",
      [`${P}/evil3/pyvenv.cfg`]: "home = /usr/bin\n",
      [`${P}/evil3/pip.conf`]: "[global]\ncache-dir = $EVIL\n",
      [`${P}/ok/pyvenv.cfg`]: "home = /usr/bin\n",
      [`${P}/ok/pip.conf`]: "[global]\nindex-url = https://pypi.org/simple\ntimeout = 60\n",
    },
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(venvs, [
    // pip or python given by path in an environment's bin: sys.prefix/pip.conf
    ["evil/bin/pip install requests", "allow", "ask"],
    ["./evil/bin/pip3 install requests", "allow", "ask"],
    [`${P}/evil/bin/pip3.12 install requests`, "allow", "ask"],
    ["evil/bin/python -m pip install requests", "allow", "ask"],
    ["evil/bin/python3 -Im pip install requests", "allow", "ask"],
    ["evil2/bin/pip install requests", "deny", "allow"],
    ["evil3/bin/pip install requests", "deny", "ask"],
    // $VIRTUAL_ENV, as the command sets it
    ["VIRTUAL_ENV=evil pip install requests", "allow", "ask"],
    ["VIRTUAL_ENV=evil python3 -m pip install requests", "allow", "ask"],
    ["VIRTUAL_ENV=$V pip install requests", "deny", "ask"],
    // one another stage writes first: not known
    ["printf '[install]\\ntarget=x\\n' > .venv/pip.conf && .venv/bin/pip install x", "deny", "ask"],
    ["python3 -m venv .venv && cp /tmp/pip.conf .venv/ && .venv/bin/pip install x", "deny", "ask"],
    ["python3 -m venv .venv .venv/pip.conf && .venv/bin/pip install x", "deny", "ask"],
    ["echo '[install]' > ~/.config/pip/pip.conf; pip install x", "deny", "ask"],
    ["cp /tmp/pip.conf ~/.pip/pip.conf && python3 -m pip install x", "deny", "ask"],
    // everyday
    [".venv/bin/pip install -r requirements.txt", "allow", "allow"],
    [".venv/bin/python -m pip install -U pip", "allow", "allow"],
    ["ok/bin/pip install -r requirements.txt", "allow", "allow"],
    ["VIRTUAL_ENV=.venv pip install requests", "allow", "allow"],
    ["python3 -m venv .venv && .venv/bin/pip install -r requirements.txt", "allow", "allow"],
    [
      "python3 -m venv venv && venv/bin/python -m pip install -r requirements.txt",
      "allow",
      "allow",
    ],
    ["python3 -m venv --clear .venv && .venv/bin/pip install -e .", "allow", "allow"],
    ["PIP_CONFIG_FILE=/dev/null evil/bin/pip install requests", "allow", "allow"],
    ["/usr/bin/pip install requests", "allow", "allow"],
  ]);
});
