"""The same simulation on a Dask cluster gives the same report as the local run.

Needs the optional cluster extra (dask.distributed); skipped cleanly without it. The test
starts its own in-process cluster on the loopback address.
"""
from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from game.play.simulate import deterministic_part, setups_for, simulate  # noqa: E402
from game.io.rulesets import load_ruleset  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402

from test_simulate import SCENARIO  # noqa: E402


def test_dask_cluster_matches_local_run(tmp_path):
    path = tmp_path / "skirmish.toml"
    path.write_text(SCENARIO)
    sc = load_scenario(path)
    setups = setups_for(sc, [load_ruleset("bfrpg"), load_ruleset("cnc")])
    local = simulate(setups, 3, seed=21, workers=1, max_rounds=12)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = simulate(setups, 3, seed=21, max_rounds=12, scheduler=cluster.scheduler_address)
    assert deterministic_part(remote) == deterministic_part(local)
    assert remote["timing"]["scheduler"] == cluster.scheduler_address


def test_cli_scheduler_address(tmp_path, capsys):
    import json

    from game.cli import main
    path = tmp_path / "skirmish.toml"
    path.write_text(SCENARIO)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        code = main(["simulate", str(path), "--runs", "2", "--max-rounds", "8", "--json", "--seed", "5",
                     "--scheduler", cluster.scheduler_address])
    assert code == 0
    remote = json.loads(capsys.readouterr().out)
    code = main(["simulate", str(path), "--runs", "2", "--max-rounds", "8", "--json", "--seed", "5", "--workers", "1"])
    local = json.loads(capsys.readouterr().out)
    remote.pop("timing")
    local.pop("timing")
    assert remote == local
