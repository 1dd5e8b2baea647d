#!/usr/bin/env bash
# Offline checks of the deployment artefacts, run by `./dev test`:
#   1. hadolint on every Dockerfile under docker/ (zero findings; ignores are inline and explained);
#   2. Envoy: deploy/local/envoy.yaml validates (`envoy --mode validate`), the chart's
#      files/envoy.yaml is that same file, and the ConfigMap the chart renders equals it except for
#      the two `# chart:` addresses (the rendered config validates too);
#   3. the Helm chart: lint (strict) and render with the Helm v4 engine (PyPI helm-python-sdk),
#      for the default values and every deploy/helm/evidentia/ci/*-values.yaml;
#   4. every rendered manifest against the Kubernetes JSON schemas, strict (PyPI kubernetes-validate),
#      for the oldest and newest Kubernetes versions it ships that the chart supports;
#   5. the chart's own rules: hardened pods, probes, secrets only by reference, contract env names,
#      a migration hook per service, HPA/PDB/NetworkPolicy per workload.
#
# Tools come from the project virtualenv ($REPO/.dev/venv, made by ./dev from
# deploy/local/requirements.txt); VENV=<path> points elsewhere. No network, no cluster.
# Exit status: 0 when everything passes, 1 on any failure (each one is printed), 2 when a tool is missing.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$REPO/.dev/venv}"

missing=()
for tool in python hadolint envoy; do
  [[ -x "$VENV/bin/$tool" ]] || missing+=("$VENV/bin/$tool")
done
if ((${#missing[@]})); then
  echo "check-chart: missing ${missing[*]}" >&2
  echo "check-chart: create the virtualenv with ./dev (from deploy/local/requirements.txt) or set VENV=<path>" >&2
  exit 2
fi

exec "$VENV/bin/python" - "$REPO" "$VENV" <<'PY'
"""The checks themselves (see the header of deploy/check-chart.sh)."""
import contextlib
import copy
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

import yaml

REPO, VENV = sys.argv[1], sys.argv[2]
CHART = os.path.join(REPO, "deploy/helm/evidentia")
LOCAL_ENVOY = os.path.join(REPO, "deploy/local/envoy.yaml")
CHART_ENVOY = os.path.join(CHART, "files/envoy.yaml")
RELEASE, NAMESPACE = "evidentia", "evidentia"
# The chart declares kubeVersion >=1.30; kubernetes-validate 1.37 ships schemas from 1.25 to 1.37.
# Lint against the oldest supported version; validate against it and the newest shipped.
LINT_KUBE = "v1.30.0"
GRPC_SERVICES = ["accounts", "payments", "evidence", "sharing", "referrals"]
WORKLOADS = GRPC_SERVICES + ["gateway", "envoy"]

# Environment names the binaries read (the shared contract; the standard OTEL_* ones as well), plus
# the chart's own helpers that only feed Kubernetes $(VAR) expansion.
CONTRACT_ENV = {
    "DATABASE_URL", "DATABASE_MAX_CONNECTIONS", "GRPC_LISTEN_ADDR", "AMQP_URL", "AMQP_EXCHANGE",
    "AMQP_QUEUE_TYPE", "REDIS_URL", "LOG_FORMAT",
    "RUST_LOG", "OTEL_SERVICE_NAME", "SMTP_URL", "MAIL_FROM", "SUPPORT_EMAIL", "JWT_SECRET",
    "ACCESS_TOKEN_TTL_SECONDS", "REFRESH_TOKEN_TTL_SECONDS", "STRIPE_SECRET_KEY",
    "STRIPE_API_BASE", "STRIPE_WEBHOOK_SECRET", "S3_ENDPOINT", "S3_REGION", "S3_BUCKET",
    "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "HTTP_LISTEN_ADDR", "ACCOUNTS_GRPC_URL",
    "PAYMENTS_GRPC_URL", "EVIDENCE_GRPC_URL", "SHARING_GRPC_URL", "REFERRALS_GRPC_URL",
    "WEB_DIST_DIR", "STRIPE_PUBLISHABLE_KEY", "STRIPE_JS_URL", "CSP_CONNECT_SRC_EXTRA",
    "PUBLIC_URL", "PASSWORD_TOKEN_TTL_SECONDS", "SMS_PROVIDER", "SMS_HTTP_URL", "SMS_HTTP_USERNAME",
    "SMS_HTTP_PASSWORD", "SMS_FROM", "SMS_DIR", "ACCOUNT_RECOVERY_GRACE_SECONDS",
    "ACCOUNT_PURGE_INTERVAL_SECONDS", "ORGANIZATION_INVITE_TTL_SECONDS", "SHARING_LINK_SECRET",
    "SHARING_WORK_DIR", "SHARING_FFMPEG", "EVIDENCE_RECEIPT_KEY", "EVIDENCE_RECEIPT_RETIRED_KEYS",
    "SHARING_RECEIPT_KEY", "SHARING_RECEIPT_RETIRED_KEYS", "SHARING_C2PA_CERT_CHAIN",
    "SHARING_C2PA_KEY", "SHARING_C2PA_ALG", "EVIDENCE_TSA_URL", "EVIDENCE_TSA_CA",
}
CHART_HELPER_ENV = {"AMQP_PASSWORD", "REDIS_PASSWORD", "K8S_POD_NAME", "K8S_NAMESPACE"}
SECRET_ENV = {
    "DATABASE_URL", "JWT_SECRET", "SMTP_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET",
    "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "AMQP_PASSWORD", "REDIS_PASSWORD", "SMS_HTTP_PASSWORD",
    "SHARING_LINK_SECRET", "EVIDENCE_RECEIPT_KEY", "SHARING_RECEIPT_KEY", "SHARING_C2PA_KEY",
}

failures = []
started = time.monotonic()


def fail(where, message):
    failures.append(f"{where}: {message}")


def step(title):
    print(f"== {title}", flush=True)


@contextlib.contextmanager
def quiet_stderr():
    """The Go loader prints an INFO line for the files/envoy.yaml symlink straight to fd 2:
    swallow that line, pass anything else through."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as buf:
        os.dup2(buf.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            buf.seek(0)
            for line in buf.read().decode(errors="replace").splitlines():
                if "found symbolic link in path" not in line:
                    print(line, file=sys.stderr)


# --- 1. Dockerfiles -----------------------------------------------------------------------------
step("hadolint docker/*Dockerfile")
dockerfiles = sorted(glob.glob(os.path.join(REPO, "docker", "*Dockerfile")))
if not dockerfiles:
    fail("docker/", "no Dockerfile found")
for path in dockerfiles:
    rel = os.path.relpath(path, REPO)
    run = subprocess.run([os.path.join(VENV, "bin/hadolint"), "--no-color", path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(rel, "hadolint:\n" + (run.stdout + run.stderr).strip())
    else:
        print(f"   {rel}: clean")
    ignore = path + ".dockerignore"
    if not os.path.isfile(ignore):
        fail(rel, f"{os.path.relpath(ignore, REPO)} is missing (the build context would be the whole repository)")


# --- 2a. Envoy: one file ------------------------------------------------------------------------
def envoy_validate(path, label):
    run = subprocess.run([os.path.join(VENV, "bin/envoy"), "--mode", "validate", "-c", path,
                          "--log-level", "warn"], capture_output=True, text=True)
    output = (run.stdout + run.stderr).strip()
    warnings = [line for line in output.splitlines() if "[warning]" in line or "[error]" in line]
    if run.returncode != 0:
        fail(label, "envoy --mode validate failed:\n" + output)
    elif warnings:
        fail(label, "envoy --mode validate warns (deprecated fields?):\n" + "\n".join(warnings))
    else:
        print(f"   {label}: envoy --mode validate OK")


step("Envoy: deploy/local/envoy.yaml is the chart's configuration")
envoy_validate(LOCAL_ENVOY, "deploy/local/envoy.yaml")
with open(LOCAL_ENVOY, "rb") as f:
    local_bytes = f.read()
if not os.path.exists(CHART_ENVOY):
    fail("deploy/helm/evidentia/files/envoy.yaml", "missing (must be a symlink to ../../../local/envoy.yaml)")
else:
    with open(CHART_ENVOY, "rb") as f:
        if f.read() != local_bytes:
            fail("deploy/helm/evidentia/files/envoy.yaml", "differs from deploy/local/envoy.yaml")
    if os.path.islink(CHART_ENVOY):
        if os.path.realpath(CHART_ENVOY) != os.path.realpath(LOCAL_ENVOY):
            fail("deploy/helm/evidentia/files/envoy.yaml", f"symlink points to {os.path.realpath(CHART_ENVOY)}")
        else:
            print("   files/envoy.yaml -> deploy/local/envoy.yaml (symlink)")
    else:
        fail("deploy/helm/evidentia/files/envoy.yaml",
             "is a copy, not a symlink to ../../../local/envoy.yaml (restore with "
             "`ln -sfn ../../../local/envoy.yaml deploy/helm/evidentia/files/envoy.yaml`)")
LOCAL_TEXT = local_bytes.decode()
LOCAL_DOC = yaml.safe_load(LOCAL_TEXT)


def gateway_endpoints(doc):
    for cluster in doc["static_resources"]["clusters"]:
        if cluster["name"] == "gateway":
            for group in cluster["load_assignment"]["endpoints"]:
                for endpoint in group["lb_endpoints"]:
                    yield endpoint["endpoint"]["address"]["socket_address"]


def check_envoy_parity(rendered_text, expected_host, label):
    """The rendered config must be the local one with exactly the two marked addresses changed."""
    expected = copy.deepcopy(LOCAL_DOC)
    listeners = expected["static_resources"]["listeners"]
    if len(listeners) != 1:
        fail(label, "expected one listener in deploy/local/envoy.yaml")
        return
    listeners[0]["address"]["socket_address"]["address"] = "0.0.0.0"
    endpoints = list(gateway_endpoints(expected))
    if len(endpoints) != 1:
        fail(label, "expected one gateway endpoint in deploy/local/envoy.yaml")
        return
    endpoints[0]["address"] = expected_host
    rendered_doc = yaml.safe_load(rendered_text)
    if rendered_doc != expected:
        fail(label, "rendered Envoy config differs from deploy/local/envoy.yaml beyond the two "
                    "`# chart:` addresses")
    changed = [line for line in difflib.unified_diff(LOCAL_TEXT.splitlines(), rendered_text.splitlines(),
                                                     lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    unexpected = [line for line in changed if "# chart: " not in line]
    if unexpected or len(changed) != 4:
        fail(label, "rendered Envoy config text differs beyond the two `# chart:` lines:\n"
                    + "\n".join(changed))


# --- 3. Helm ------------------------------------------------------------------------------------
import helm_python as helm  # noqa: E402  (after the venv check above)
import kubernetes_validate  # noqa: E402
from kubernetes_validate import utils as kv_utils  # noqa: E402

# kubernetes-validate reads its 1.4 MB definitions file for every document: read each once.
_schema_contents = kv_utils.schema_contents
_schema_cache = {}


def _cached_schema_contents(filename, desired_version):
    key = (filename, desired_version)
    if key not in _schema_cache:
        _schema_cache[key] = _schema_contents(filename, desired_version)
    return _schema_cache[key]


kv_utils.schema_contents = _cached_schema_contents
KUBE_VERSIONS = [v for v in kv_utils.all_versions() if tuple(map(int, v.split(".")[:2])) >= (1, 30)]
KUBE_VERSIONS = sorted({KUBE_VERSIONS[0], KUBE_VERSIONS[-1]}, key=lambda v: tuple(map(int, v.split("."))))


def deep_merge(base, override):
    out = copy.deepcopy(base)
    for key, value in (override or {}).items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def check_policies(label, docs, values):
    """The chart's own rules on one render."""
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc
    if "Secret" in by_kind:
        fail(label, "the chart renders a Secret; credentials must come from existing Secrets")
    fullname = values.get("fullnameOverride") or RELEASE
    allowed_env = CONTRACT_ENV | CHART_HELPER_ENV | set(values["telemetry"].get("env", {}))
    for block in [values["defaults"], values["gateway"], *values["services"].values()]:
        allowed_env |= set((block or {}).get("env", {}))

    def pod_rules(where, pod, want_probes):
        psc = pod.get("securityContext", {})
        if psc.get("runAsNonRoot") is not True:
            fail(where, "pod securityContext.runAsNonRoot must be true")
        if psc.get("seccompProfile", {}).get("type") != "RuntimeDefault":
            fail(where, "pod seccompProfile must be RuntimeDefault")
        if pod.get("automountServiceAccountToken") is not False:
            fail(where, "automountServiceAccountToken must be false")
        for c in pod["containers"]:
            csc = c.get("securityContext", {})
            cw = f"{where} container {c['name']}"
            if csc.get("allowPrivilegeEscalation") is not False:
                fail(cw, "allowPrivilegeEscalation must be false")
            if csc.get("readOnlyRootFilesystem") is not True:
                fail(cw, "readOnlyRootFilesystem must be true")
            if "ALL" not in csc.get("capabilities", {}).get("drop", []):
                fail(cw, "capabilities must drop ALL")
            if csc.get("seccompProfile", {}).get("type") != "RuntimeDefault":
                fail(cw, "seccompProfile must be RuntimeDefault")
            res = c.get("resources", {})
            if not res.get("requests", {}).get("cpu") or not res.get("limits", {}).get("memory"):
                fail(cw, "needs a CPU request and a memory limit")
            if want_probes and not (c.get("readinessProbe") and c.get("livenessProbe")):
                fail(cw, "needs readiness and liveness probes")
            for env in c.get("env", []):
                name = env["name"]
                if name not in allowed_env and not name.startswith("OTEL_"):
                    fail(cw, f"env {name} is not a contract variable (typo?)")
                if name in SECRET_ENV and ("value" in env or "secretKeyRef" not in env.get("valueFrom", {})):
                    fail(cw, f"env {name} must come from a secretKeyRef")

    for name in WORKLOADS:
        res = f"{fullname}-{name}"
        dep = by_kind.get("Deployment", {}).get(res)
        if dep is None:
            fail(label, f"Deployment {res} missing")
            continue
        pod = dep["spec"]["template"]["spec"]
        pod_rules(f"{label} Deployment {res}", pod, want_probes=True)
        if name in GRPC_SERVICES:
            probe = pod["containers"][0]["readinessProbe"]
            if "grpc" not in probe:
                fail(f"{label} Deployment {res}", "gRPC services use native grpc probes")
        if res not in by_kind.get("Service", {}):
            fail(label, f"Service {res} missing")
        settings = deep_merge(values["defaults"], values["services"][name] if name in GRPC_SERVICES
                              else values[name])
        if settings["autoscaling"]["enabled"] and res not in by_kind.get("HorizontalPodAutoscaler", {}):
            fail(label, f"HorizontalPodAutoscaler {res} missing")
        if settings["podDisruptionBudget"]["enabled"] and res not in by_kind.get("PodDisruptionBudget", {}):
            fail(label, f"PodDisruptionBudget {res} missing")
        if values["networkPolicy"]["enabled"] and res not in by_kind.get("NetworkPolicy", {}):
            fail(label, f"NetworkPolicy {res} missing")
    for name in GRPC_SERVICES:
        settings = deep_merge(values["defaults"], values["services"][name])
        job = by_kind.get("Job", {}).get(f"{fullname}-{name}-migrate")
        if not settings.get("migrate"):
            if job is not None:
                fail(label, f"{name} has migrate: false but a migration Job")
            continue
        if job is None:
            fail(label, f"migration Job {fullname}-{name}-migrate missing")
            continue
        hooks = set(job["metadata"].get("annotations", {}).get("helm.sh/hook", "").split(","))
        if hooks != {"pre-install", "pre-upgrade"}:
            fail(label, f"Job {name}-migrate must be a pre-install,pre-upgrade hook")
        container = job["spec"]["template"]["spec"]["containers"][0]
        if container.get("args") != ["migrate"]:
            fail(label, f"Job {name}-migrate must run `{name} migrate`")
        pod_rules(f"{label} Job {name}-migrate", job["spec"]["template"]["spec"], want_probes=False)


def render_and_check(values_file):
    label = os.path.relpath(values_file, REPO) if values_file else "default values"
    overrides = None
    if values_file:
        with open(values_file) as f:
            overrides = yaml.safe_load(f) or {}
    with quiet_stderr():
        report = helm.lint(CHART, overrides, strict=True, kube_version=LINT_KUBE, namespace=NAMESPACE)
    for message in report.get("messages", []):
        severity = {1: "info", 2: "warning", 3: "error"}.get(message["severity"], "unknown")
        text = f"helm lint {severity}: {message['path']}: {message['error']}"
        if message["severity"] >= 2 or message["severity"] == 0:
            fail(label, text)
        elif message["error"] != "icon is recommended":
            print(f"   {label}: {text}")
    for error in report.get("errors", []):
        fail(label, f"helm lint: {error}")
    try:
        with quiet_stderr(), helm.Chart.load(CHART) as chart:
            chart.validate_schema(overrides)
            values = chart.merge_values(overrides)
            manifests = chart.render(overrides, name=RELEASE, namespace=NAMESPACE, is_install=True)
    except helm.HelmError as error:
        fail(label, f"render: {error}")
        return
    docs = []
    for template, text in sorted(manifests.items()):
        if template.endswith("NOTES.txt"):
            continue
        try:
            loaded = [d for d in yaml.safe_load_all(text) if d]
        except yaml.YAMLError as error:
            fail(f"{label} {template}", f"rendered YAML does not parse: {error}")
            continue
        docs.extend((template, d) for d in loaded)
    invalid = 0
    for template, doc in docs:
        for version in KUBE_VERSIONS:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.ValidationError as error:
                invalid += 1
                path = "/".join(str(p) for p in error.path)
                fail(f"{label} {template} {doc['kind']}/{doc['metadata']['name']}",
                     f"Kubernetes {version} schema: {path}: {error.message}")
            except (kubernetes_validate.SchemaNotFoundError, kubernetes_validate.InvalidSchemaError) as error:
                invalid += 1
                fail(f"{label} {template}", getattr(error, "message", str(error)))
    check_policies(label, [d for _, d in docs], values)
    fullname = values.get("fullnameOverride") or RELEASE
    configmaps = [d for _, d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == f"{fullname}-envoy"]
    if len(configmaps) != 1:
        fail(label, f"ConfigMap {fullname}-envoy missing")
    else:
        rendered = configmaps[0]["data"]["envoy.yaml"]
        host = f"{fullname}-gateway-headless.{NAMESPACE}.svc.{values['clusterDomain']}"
        check_envoy_parity(rendered, host, f"{label} ConfigMap {fullname}-envoy")
        if values_file is None:
            with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as tmp:
                tmp.write(rendered)
            try:
                envoy_validate(tmp.name, f"{label}: rendered ConfigMap envoy.yaml")
            finally:
                os.unlink(tmp.name)
    kinds = sorted({d["kind"] for _, d in docs})
    print(f"   {label}: lint OK, {len(docs)} manifests ({', '.join(kinds)}), "
          f"{'schema errors: ' + str(invalid) if invalid else 'valid'} "
          f"for Kubernetes {' and '.join(KUBE_VERSIONS)} (strict)")


step("Helm chart deploy/helm/evidentia: lint, render, Kubernetes schemas, chart rules, Envoy parity")
render_and_check(None)
for values_file in sorted(glob.glob(os.path.join(CHART, "ci", "*-values.yaml"))):
    render_and_check(values_file)

elapsed = time.monotonic() - started
if failures:
    print(f"\ncheck-chart: FAILED ({len(failures)} problem(s), {elapsed:.1f} s)", file=sys.stderr)
    for problem in failures:
        print(f" - {problem}", file=sys.stderr)
    sys.exit(1)
print(f"check-chart: all checks passed ({elapsed:.1f} s)")
PY
