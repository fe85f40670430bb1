# Runs inside GNU Backgammon's embedded Python (gnubg -t -q -r -p bench/gnubg-hint.py):
# times `hint` at the plies asked for on a list of positions, CPU time of this
# process per position, gnubg's evaluation cache emptied before each one (our
# searches keep nothing between requests either). Cubeless, pruning on: gnubg's
# defaults for a best move, with the cube left out as in our best-turn search.
#
# Environment: HINT_CASES (JSON file: [{"positionId", "dice"}]), HINT_PLIES
# ("1,2"), HINT_OUT (JSON file written: {"<plies>": [cpu ms per position]}).
import json
import os
import time

import gnubg

for command in (
    "set display off",
    "set confirm new off",
    "set player 0 human",
    "set player 1 human",
    "set automatic game off",
    "set automatic roll off",
    "set threads 1",
    "set evaluation chequerplay evaluation cubeful off",
    "set evaluation chequerplay evaluation prune on",
    "set evaluation chequerplay evaluation noise 0",
    "set evaluation chequerplay evaluation deterministic on",
):
    gnubg.command(command)

cases = json.load(open(os.environ["HINT_CASES"]))
cube = gnubg.calcgammonprice(gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0))
results = {}
for plies in [int(p) for p in os.environ.get("HINT_PLIES", "1,2").split(",")]:
    gnubg.command("set evaluation chequerplay evaluation plies %d" % plies)
    times = []
    for case in cases:
        board = gnubg.positionfromid(case["positionId"])
        dice = tuple(case["dice"])
        gnubg.command("set gnubgid " + gnubg.gnubgid(board, cube, gnubg.posinfo(1, 0, 0, 1, dice)))
        # Resizing the cache twice empties it and leaves its size as it was.
        gnubg.command("set cache 65537")
        gnubg.command("set cache 65536")
        start = time.process_time()
        gnubg.hint(1000)
        times.append((time.process_time() - start) * 1000)
    results[str(plies)] = times
with open(os.environ["HINT_OUT"], "w") as out:
    json.dump(results, out)
gnubg.command("quit")
