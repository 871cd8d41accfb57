"""The deploy files are checked, not hoped for: Kubernetes manifests against the API schemas
(kubernetes-validate, strict), the compose file by `docker compose config` where Docker has
the compose plugin and by a structural check always; both must protect Redis with a password
and run only commands that exist in this code base."""

from __future__ import annotations

import importlib
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _k8s_docs() -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all((DEPLOY / "k8s" / "agora.yaml").read_text()) if d]


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return data


def _containers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    spec = doc.get("spec", {}).get("template", {}).get("spec", {})
    return list(spec.get("containers", []))


def _check_command(command: list[str]) -> None:
    """A container command runs a module of ours that imports."""
    if command[:3] == ["celery", "-A", "workers.celery_app"]:
        importlib.import_module("workers.celery_app")
    elif command[:2] == ["python", "-m"]:
        importlib.import_module(command[2])
    elif command[0] == "agora":
        from bots import cli

        assert command[1] in cli.parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    elif command[0] != "sh":
        pytest.fail(f"unknown container command {command}")


@pytest.mark.parametrize("doc", _k8s_docs(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}")
def test_every_manifest_is_valid_against_the_kubernetes_schema(doc: dict[str, Any]) -> None:
    kubernetes_validate.validate(doc, "1.30.0", strict=True)


def test_manifests_have_what_production_needs() -> None:
    docs = _k8s_docs()
    kinds = {(d["kind"], d["metadata"]["name"]) for d in docs}
    assert ("Secret", "agora") in kinds and ("StatefulSet", "agora-redis") in kinds
    hpa = next(d for d in docs if d["kind"] == "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"]["name"] == "agora-worker"
    beat = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "agora-beat")
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"
    for doc in docs:
        for c in _containers(doc):
            assert c.get("resources", {}).get("requests"), f"{doc['metadata']['name']}: no resource requests"
            if c["image"].startswith("agora"):
                _check_command(c["command"])
                assert c.get("livenessProbe"), f"{doc['metadata']['name']}: no liveness probe"
                refs = {next(iter(r.values()))["name"] for r in c.get("envFrom", [])}
                assert "agora" in refs
    redis = next(d for d in docs if d["kind"] == "StatefulSet")
    assert "--requirepass" in " ".join(_containers(redis)[0]["command"])
    secret = next(d for d in docs if d["kind"] == "Secret")
    assert set(secret["stringData"]) >= {"REDIS_PASSWORD", "TELEGRAM_TOKEN"}
    config = next(d for d in docs if d["kind"] == "ConfigMap")
    assert not any("TOKEN" in k or "PASSWORD" in k for k in config["data"]), "secrets belong in the Secret"


def test_compose_file_structure() -> None:
    compose = _compose()
    assert set(compose) <= {"services", "volumes", "secrets", "networks", "x-agora"}
    services = compose["services"]
    assert {"redis", "worker", "beat", "telegram"} <= set(services)
    declared = set(compose.get("secrets", {}))
    for name, svc in services.items():
        assert "image" in svc or "build" in svc, name
        for dep in svc.get("depends_on", {}):
            assert dep in services, f"{name} depends on unknown service {dep}"
        for secret in svc.get("secrets", []):
            assert secret in declared, f"{name} uses undeclared secret {secret}"
        env = svc.get("environment", {})
        for key, value in env.items():
            if "TOKEN" in key or "PASSWORD" in key:
                assert key.endswith("_FILE") and str(value).startswith("/run/secrets/"), f"{name}: {key} in clear"
        if name != "redis":
            _check_command(svc["command"])
            assert env.get("REDIS_PASSWORD_FILE") == "/run/secrets/redis_password", name
            assert "healthcheck" in svc, name
    assert "--requirepass" in " ".join(services["redis"]["command"])
    assert "appendonly yes" in " ".join(services["redis"]["command"])


def test_compose_file_passes_docker_compose_config(tmp_path: Path) -> None:
    docker = shutil.which("docker")
    if not docker or subprocess.run([docker, "compose", "version"], capture_output=True).returncode != 0:
        pytest.skip("Docker's compose plugin is not installed here; the structural test above covers the file")
    secrets = DEPLOY / "secrets"
    made = not secrets.exists()
    secrets.mkdir(exist_ok=True)
    try:
        for name in ("redis_password", "telegram_token"):
            if not (secrets / name).exists():
                (secrets / name).write_text("placeholder\n")
        out = subprocess.run(
            [docker, "compose", "-f", str(DEPLOY / "compose.yaml"), "config", "--quiet"], capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
    finally:
        if made:
            shutil.rmtree(secrets)


def test_redis_password_setting_goes_into_the_url() -> None:
    from workers import settings

    cfg = settings.load({"REDIS_URL": "redis://agora-redis:6379/0", "REDIS_PASSWORD": "p@ss/word"})
    assert cfg.store_url() == "redis://:p%40ss%2Fword@agora-redis:6379/0"
    own = settings.load({"REDIS_URL": "redis://:mine@127.0.0.1:6379/0", "REDIS_PASSWORD": "other"})
    assert own.store_url() == "redis://:mine@127.0.0.1:6379/0"
    assert settings.load({"REDIS_PASSWORD": "x"}).store_url() == ""  # embedded server: no URL


def _queues(command: list[str]) -> str:
    return command[command.index("-Q") + 1] if "-Q" in command else ""


def test_boards_have_a_render_worker_and_the_move_workers_never_take_its_queue() -> None:
    """Issue 12: a move worker that draws boards makes the moves behind it wait."""
    deployments = {d["metadata"]["name"]: d for d in _k8s_docs() if d["kind"] == "Deployment"}
    assert _queues(_containers(deployments["agora-worker"])[0]["command"]) == "celery"
    assert _queues(_containers(deployments["agora-render"])[0]["command"]) == "render"
    services = _compose()["services"]
    assert _queues(services["worker"]["command"]) == "celery"
    assert _queues(services["render"]["command"]) == "render"
