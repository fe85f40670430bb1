"""Labels backgammon positions with gnubg's cubeless evaluation (teacher for
scripts/train/train.ts), through the gnubg oracle's GnubgPool
(/work/shared/oracles/gnubg/client.py; set GNUBG_ORACLE_DIR to move it).

    python3 scripts/train/gnubg_label.py [--workers 16] [--plies 0] < boards.jsonl > labels.jsonl

Input, one JSON object per line: {"b": [28 ints]} -- our short board
(src/engine/short/board.ts: [0] mover off, [1..24] signed counts by the
mover's point, [25] mover bar, [26] opponent bar, [27] opponent off), the
side to move on roll. Output, one line per input line and in the same order:
{"b": [...], "p": [win, winGammon, winBackgammon, loseGammon, loseBackgammon]}
for the side to move (money, centred cube, cubeless probabilities). An
input's "g" (the roll a candidate came from) is copied to its output line.

Lines are processed in chunks; each chunk is spread over the pool (every
gnubg call sleeps ~10 ms inside gnubg 1.07, so many processes are needed
for throughput; they use little CPU).
"""

import argparse
import json
import os
import sys

ORACLE_DIR = os.environ.get("GNUBG_ORACLE_DIR", "/work/shared/oracles/gnubg")
sys.path.insert(0, ORACLE_DIR)

from client import GnubgPool  # noqa: E402


def signed_board(b):
    return {"points": b[1:25], "bar": [b[25], b[26]], "off": [b[0], b[27]]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--plies", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=256)
    a = ap.parse_args()

    def label(engine, board):
        r = engine.evaluate(signed_board(board), plies=[a.plies])
        return r["evaluations"][0]["probs"]

    with GnubgPool(a.workers) as pool:
        chunk = []
        groups = []

        def flush():
            probs = pool.map(label, chunk)
            for b, g, p in zip(chunk, groups, probs):
                out = {"b": b, "p": [round(x, 6) for x in p]}
                if g is not None:
                    out = {"b": b, "g": g, "p": out["p"]}
                sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
            chunk.clear()
            groups.clear()

        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            row = json.loads(line)
            chunk.append(row["b"])
            groups.append(row.get("g"))
            if len(chunk) >= a.chunk:
                flush()
        if chunk:
            flush()


if __name__ == "__main__":
    main()
