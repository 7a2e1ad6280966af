"""Means of the AWS jitter study's own simulator at a given number of clients.

The simulator is aws-samples/aws-arch-backoff-simulator, `src/backoff_simulator.py`
(Apache-2.0; not copied here). Its own driver (`run()`, Python 2) writes integer means over
100 runs for 10..190 clients to a CSV. This driver loads that file unchanged except for the
trailing `run()` call, gives it `xrange` (Python 3), and runs its `setup_sim` / `run_sim`
for each strategy, printing the mean calls (writes reaching the server, its `Stats.calls`)
and the mean completion time (the time of the last event, its `run_sim` return value, ms),
each with the per-run standard deviation and the standard error of the mean.

Usage:
    python3 bench/aws_backoff_reference.py PATH/TO/backoff_simulator.py [CLIENTS] [RUNS] [SEED]
    (defaults 100 clients, 2000 runs per strategy, seed 1)
Results and the command used: bench/aws-backoff-reference.md.
"""
import math
import random
import sys


class NullFile:
    """Stands in for the per-strategy timestamp file the simulator writes each call to."""

    def write(self, _text):
        pass


def load(path):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    lines = source.rstrip().splitlines()
    if lines[-1].strip() != "run()":
        raise SystemExit(f"{path}: expected its last line to be run()")
    scope = {"xrange": range, "__name__": "backoff_simulator"}
    exec(compile("\n".join(lines[:-1]) + "\n", path, "exec"), scope)
    return scope


def mean_sd(xs):
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return m, math.sqrt(var)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sim = load(sys.argv[1])
    clients = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    random.seed(seed)
    # Our strategy ids, the simulator's class names.
    strategies = [
        ("none", "NoBackoff"),
        ("exponential", "ExpoBackoff"),
        ("full", "ExpoBackoffFullJitter"),
        ("equal", "ExpoBackoffEqualJitter"),
        ("decorrelated", "ExpoBackoffDecorr"),
    ]
    print(f"clients={clients} runs={runs} seed={seed}")
    print("strategy      calls_mean  calls_sd  calls_se  time_ms_mean  time_sd  time_se")
    for ours, cls in strategies:
        calls, times = [], []
        for _ in range(runs):
            stats = sim["Stats"]()
            queue, stats = sim["setup_sim"](clients, sim[cls], NullFile(), stats)
            times.append(sim["run_sim"](queue))
            calls.append(stats.calls)
        cm, cs = mean_sd(calls)
        tm, ts = mean_sd(times)
        n = math.sqrt(runs)
        print(
            f"{ours:<12} {cm:11.1f} {cs:9.1f} {cs / n:9.2f} {tm:13.1f} {ts:8.1f} {ts / n:8.2f}"
        )


if __name__ == "__main__":
    main()
