#!/usr/bin/env python3
"""Drive runpod-python 1.12.0's public GraphQL functions against a gateway.

Usage:
  drive_runpod_python.py BASE_URL --api-key KEY [--all] [--keep-going]
      [--gpu-type ID] [--cpu-instance ID] [--network-volume-id ID]
      [--data-center-id ID] [--country-code CC] [--locations LOCS]
      [--template-registry-auth-id ID]

BASE_URL is the gateway's base URL: runpod-python posts to
RUNPOD_API_BASE_URL + "/graphql" (runpod/api/graphql.py), so the driver sets
RUNPOD_API_BASE_URL=BASE_URL before importing runpod.

One JSON line per step on stdout:
  {"step": ..., "call": ..., "args": ..., "result": ...}
or, when the call raised,
  {"step": ..., "call": ..., "args": ..., "error": true, "type": ..., "message": ...}
where type is the exception's module-qualified class (runpod.error.QueryError).

Without --all only the standard sequence runs (get_user ...
delete_container_registry_auth); --all adds the all-options steps. Without
--keep-going the driver stops at the first step that raised (exit 1).
"""

import argparse
import json
import os
import sys


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("base_url", help="gateway base URL (runpod appends /graphql)")
    p.add_argument("--api-key", required=True)
    p.add_argument("--all", action="store_true", help="also run the all-options steps")
    p.add_argument("--keep-going", action="store_true", help="continue after a step raised")
    p.add_argument("--gpu-type", default="NVIDIA GeForce RTX 4090")
    p.add_argument("--cpu-instance", default="cpu3c-2-4")
    p.add_argument("--network-volume-id", default=None)
    p.add_argument("--data-center-id", default=None)
    p.add_argument("--country-code", default="US")
    p.add_argument("--locations", default=None)
    p.add_argument("--template-registry-auth-id", default=None)
    return p.parse_args(argv)


class Missing(Exception):
    """A step needs an id an earlier step did not produce."""


def main(argv):
    a = parse_args(argv)
    os.environ["RUNPOD_API_BASE_URL"] = a.base_url.rstrip("/")
    import runpod  # pylint: disable=import-outside-toplevel

    runpod.api_key = a.api_key
    ids = {}
    state = {"stopped": False}

    def need(key, made_by):
        if not ids.get(key):
            raise Missing(f"no {key} id: {made_by} did not produce one")
        return ids[key]

    def step(name, fn, kwargs_fn, save=None):
        """Run runpod.<fn>(**kwargs_fn()) and print its line; save maps an
        ids key to a function of the result."""
        if state["stopped"]:
            return
        call = "runpod." + fn
        kwargs = None
        try:
            kwargs = kwargs_fn()
            result = getattr(runpod, fn)(**kwargs)
            line = {"step": name, "call": call, "args": kwargs, "result": result}
            if save:
                for key, get in save.items():
                    try:
                        ids[key] = get(result)
                    except (KeyError, TypeError, IndexError):
                        pass
        except Exception as e:  # pylint: disable=broad-except
            t = type(e)
            line = {
                "step": name, "call": call, "args": kwargs, "error": True,
                "type": t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}",
                "message": str(e),
            }
            if not a.keep_going:
                state["stopped"] = True
        print(json.dumps(line, default=str), flush=True)

    gpu, vol = a.gpu_type, a.network_volume_id
    get_id = lambda r: r["id"]  # noqa: E731

    # ---- the standard sequence ----
    step("get_user", "get_user", lambda: {}, save={"pubKey": lambda r: r["pubKey"]})
    # Write the user's key back unchanged (does not lose the seeded key).
    step("update_user_settings", "update_user_settings",
         lambda: {"pubkey": need("pubKey", "get_user")})
    step("get_gpus", "get_gpus", lambda: {})
    step("get_gpu", "get_gpu", lambda: {"gpu_id": gpu})
    step("get_pods", "get_pods", lambda: {})
    step("create_pod", "create_pod",
         lambda: {"name": "v1gw-driver-gpu", "image_name": "runpod/stack", "gpu_type_id": gpu},
         save={"pod": get_id})
    step("get_pod", "get_pod", lambda: {"pod_id": need("pod", "create_pod")})
    step("stop_pod", "stop_pod", lambda: {"pod_id": need("pod", "create_pod")})
    step("resume_pod", "resume_pod", lambda: {"pod_id": need("pod", "create_pod"), "gpu_count": 1})
    step("terminate_pod", "terminate_pod", lambda: {"pod_id": need("pod", "create_pod")})
    step("create_pod_cpu", "create_pod",
         lambda: {"name": "v1gw-driver-cpu", "image_name": "runpod/stack", "instance_id": a.cpu_instance},
         save={"cpu": get_id})
    step("terminate_pod_cpu", "terminate_pod", lambda: {"pod_id": need("cpu", "create_pod_cpu")})
    step("create_template", "create_template",
         lambda: {"name": "v1gw-driver-tpl", "image_name": "runpod/stack",
                  "docker_start_cmd": 'bash -c "python -u handler.py"', "is_serverless": True},
         save={"tpl": get_id})
    step("create_endpoint", "create_endpoint",
         lambda: {"name": "v1gw-driver-ep", "template_id": need("tpl", "create_template")},
         save={"ep": get_id})
    step("update_endpoint_template", "update_endpoint_template",
         lambda: {"endpoint_id": need("ep", "create_endpoint"), "template_id": need("tpl", "create_template")})
    step("get_endpoints", "get_endpoints", lambda: {})
    step("create_container_registry_auth", "create_container_registry_auth",
         lambda: {"name": "v1gw-driver-cra", "username": "driver-user", "password": "driver-pass"},
         save={"cra": get_id})
    step("update_container_registry_auth", "update_container_registry_auth",
         lambda: {"registry_auth_id": need("cra", "create_container_registry_auth"),
                  "username": "driver-user2", "password": "driver-pass2"})
    step("delete_container_registry_auth", "delete_container_registry_auth",
         lambda: {"registry_auth_id": need("cra", "create_container_registry_auth")})

    # ---- the all-options steps ----
    if a.all:
        step("create_template_all_options", "create_template",
             lambda: {"name": "v1gw-driver-tpl-all", "image_name": "runpod/stack",
                      "docker_start_cmd": "sleep infinity", "container_disk_in_gb": 20,
                      "volume_in_gb": 10, "volume_mount_path": "/workspace",
                      "ports": "8888/http,22/tcp", "env": {"A": "1"}, "is_serverless": False,
                      "registry_auth_id": a.template_registry_auth_id},
             save={"tplAll": get_id})
        # data_center_id left None: create_pod looks it up from the network
        # volume (its get_user call).
        step("create_pod_all_options", "create_pod",
             lambda: {"name": "v1gw-driver-all", "image_name": "runpod/stack", "gpu_type_id": gpu,
                      "cloud_type": "SECURE", "support_public_ip": False, "start_ssh": True,
                      "country_code": a.country_code, "gpu_count": 2, "volume_in_gb": 20,
                      "container_disk_in_gb": 30, "min_vcpu_count": 4, "min_memory_in_gb": 16,
                      "docker_args": "sleep infinity", "ports": "8888/http,22/tcp",
                      "volume_mount_path": "/workspace", "env": {"A": "1", "B": "two"},
                      "template_id": need("tplAll", "create_template_all_options"),
                      "network_volume_id": vol, "allowed_cuda_versions": ["12.4", "12.5"],
                      "min_download": 100, "min_upload": 50})
        step("create_pod_cpu_all_options", "create_pod",
             lambda: {"name": "v1gw-driver-cpu-all", "image_name": "runpod/stack",
                      "cloud_type": "SECURE", "instance_id": a.cpu_instance,
                      "data_center_id": a.data_center_id, "country_code": a.country_code,
                      "docker_args": "sleep infinity", "container_disk_in_gb": 15,
                      "ports": "22/tcp", "env": {"A": "1"},
                      "template_id": need("tplAll", "create_template_all_options"),
                      "network_volume_id": vol, "min_download": 100, "min_upload": 50})
        step("create_endpoint_all_options", "create_endpoint",
             lambda: {"name": "v1gw-driver-ep-all", "template_id": need("tpl", "create_template"),
                      "gpu_ids": "AMPERE_24,ADA_24", "network_volume_id": vol,
                      "locations": a.locations, "idle_timeout": 10, "scaler_type": "REQUEST_COUNT",
                      "scaler_value": 2, "workers_min": 1, "workers_max": 5, "flashboot": True,
                      "allowed_cuda_versions": "12.4,12.5", "gpu_count": 2})

    return 1 if state["stopped"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
