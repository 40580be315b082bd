"""Every numeric argument is bounded, with one clear line and exit 2 (issue 29): nothing is started
that cannot finish or fit, and the same mistake gets the same exit code in every command."""
from __future__ import annotations

import os

import pytest

from game.cli import main

SCENARIO = "maps/charge_demo.toml"


@pytest.mark.parametrize("argv, message", [
    (["simulate", SCENARIO, "--runs", "100000000"], "--runs 100000000: the battles to play must number from 1 to 100,000"),
    (["simulate", SCENARIO, "--runs", "0"], "--runs 0"),
    (["simulate", SCENARIO, "--max-rounds", "1000000"], "--max-rounds 1000000: must be from 1 to 1,000"),
    (["simulate", SCENARIO, "--seed", "-3"], "--seed -3"),
    (["simulate", SCENARIO, "--workers", "0"], "--workers 0"),
    (["simulate", SCENARIO, "--workers", str((os.cpu_count() or 1) + 1)], "say --oversubscribe"),
    (["simulate", SCENARIO, "--workers", "100000", "--oversubscribe"], "--workers 100000: must be from 1 to 256"),
    (["ladder", "--runs", "100000000"], "--runs 100000000"),
    (["ladder", "--workers", str((os.cpu_count() or 1) + 1)], "say --oversubscribe"),
    (["play", SCENARIO, "--headless", "--size", "100000x100000"], "a window is 320x240 to 8192x8192 pixels"),
    (["play", SCENARIO, "--headless", "--size", "100x100"], "a window is 320x240"),
    (["play", SCENARIO, "--headless", "--frames", "-1"], "--frames -1: the frames to draw must number from 1"),
    (["play", SCENARIO, "--headless", "--frames", "0"], "--frames 0"),
    (["play", SCENARIO, "--headless", "--screenshot", "maps"], "--screenshot 'maps' is a folder"),
    (["play", SCENARIO, "--headless", "--screenshot", "no/such/folder/x.png"], "there is no folder"),
    (["run", SCENARIO, "--seed", str(2 ** 64)], "--seed 18446744073709551616"),
    (["picture", SCENARIO, "--out", "maps/.png/"], "name a .png file"),
    (["path", SCENARIO, "lancer", "99,99"], "99,99: off the map"),
    (["path", SCENARIO, "lancer", "1,1", "--altitude", "99999"], "--altitude 99999"),
    (["explain", SCENARIO, "lancer", "gob", "--from", "99,99"], "off the map"),
])
def test_out_of_bounds_arguments_are_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_oversubscribing_workers_is_allowed_when_asked(capsys):
    code = main(["simulate", SCENARIO, "--runs", "1", "--max-rounds", "1", "--workers", str((os.cpu_count() or 1) + 1),
                 "--oversubscribe", "--ruleset", "bfrpg", "--json"])
    assert code == 0, capsys.readouterr().err
