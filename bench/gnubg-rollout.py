# Runs inside GNU Backgammon's embedded Python (gnubg -t -q -r -p bench/gnubg-rollout.py):
# times gnubg's rollout of each position before its roll, CPU time of this
# process per position: cubeless, 0-ply chequer play for both sides and at the
# truncation point, quasi-random dice, one thread, no bear-off truncation (ours
# truncates at the same depth only), gnubg's evaluation cache emptied before
# each rollout.
#
# Environment: ROLLOUT_CASES (JSON file: [{"positionId"}]), ROLLOUT_TRIALS (36),
# ROLLOUT_TRUNCATE (plies, 7; 0 plays to the end), ROLLOUT_VARREDN ("0,1":
# without and with variance reduction), ROLLOUT_OUT (JSON file written:
# {"<varredn>": [cpu ms per position]}).
import json
import os
import time

import gnubg

SETTINGS = {
    "threads": "1",
    "rollout cubeful": "off",
    "rollout quasirandom": "on",
    "rollout seed": "1",
    "rollout trials": os.environ.get("ROLLOUT_TRIALS", "36"),
    "rollout truncation plies": "7",
    "rollout truncation chequerplay plies": "0",
    "rollout truncation cubedecision plies": "0",
    "rollout bearofftruncation exact": "off",
    "rollout bearofftruncation onesided": "off",
    "rollout later enable": "off",
    "rollout chequerplay plies": "0",
    "rollout chequerplay cubeful": "off",
    "rollout cubedecision plies": "0",
    "rollout limit enable": "off",
    "rollout jsd stop": "off",
}
truncate = int(os.environ.get("ROLLOUT_TRUNCATE", "7"))
SETTINGS["rollout truncation enable"] = "on" if truncate > 0 else "off"
SETTINGS["rollout truncation plies"] = str(max(1, truncate))
for name, value in SETTINGS.items():
    gnubg.command("set %s %s" % (name, value))

# The cube of a money game, centred: only the position ID matters to a cubeless rollout.
CUBE = gnubg.calcgammonprice(gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0))


def rollout_ms(position_id):
    """CPU milliseconds of gnubg's rollout of the position before its side to move rolls."""
    before_roll = gnubg.posinfo(1, 0, 0, 1, (0, 0))
    gnubg.command("set gnubgid " + gnubg.gnubgid(gnubg.positionfromid(position_id), CUBE, before_roll))
    # Two resizes empty the evaluation cache and leave its size as it was.
    for size in (65537, 65536):
        gnubg.command("set cache %d" % size)
    began = time.process_time()
    gnubg.command("rollout")
    return 1000 * (time.process_time() - began)


position_ids = [case["positionId"] for case in json.load(open(os.environ["ROLLOUT_CASES"]))]
results = {}
for varredn in os.environ.get("ROLLOUT_VARREDN", "0,1").split(","):
    gnubg.command("set rollout varredn " + ("on" if varredn == "1" else "off"))
    results[varredn] = [rollout_ms(p) for p in position_ids]
json.dump(results, open(os.environ["ROLLOUT_OUT"], "w"))
gnubg.command("quit")
