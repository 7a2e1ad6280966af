"""The benchmark model of benches/sim.rs in SimPy, and its speed ratio to the Rust engine.

M/M/c with retries: c = 3 workers, Poisson arrivals at 20/s, exponential service at 10/s per
worker, 10 % of runs fail and the job is retried after a full-jitter wait
U(0, min(1.5 s, 50 ms * 2**n)) (n = retry number, 0-based), at most 5 attempts, then dead.
The same as `MmcModel::bench` in src/domain/sim/erlang.rs.

Usage: python3 bench/simpy_mmc.py [JOBS]   (default 1_000_000; needs `pip install simpy`)
It runs SimPy, then `cargo run --profile bench --example mmc_native -- JOBS`, and prints
jobs per second for both and the ratio.
"""
import random
import re
import subprocess
import sys
import time

import simpy

C, LAMBDA, MU, FAIL_P, BASE, CAP, MAX_ATTEMPTS = 3, 20.0, 10.0, 0.1, 0.050, 1.5, 5


def run_simpy(jobs, seed=1):
    rng = random.Random(seed)
    env = simpy.Environment()
    workers = simpy.Resource(env, capacity=C)
    stats = {"done": 0, "dead": 0, "runs": 0}

    def job():
        attempt = 0
        while True:
            with workers.request() as req:
                yield req
                attempt += 1
                stats["runs"] += 1
                yield env.timeout(rng.expovariate(MU))
                failed = rng.random() < FAIL_P
            if not failed:
                stats["done"] += 1
                return
            if attempt >= MAX_ATTEMPTS:
                stats["dead"] += 1
                return
            yield env.timeout(rng.uniform(0, min(CAP, BASE * 2 ** (attempt - 1))))

    def source():
        for _ in range(jobs):
            yield env.timeout(rng.expovariate(LAMBDA))
            env.process(job())

    env.process(source())
    t = time.perf_counter()
    env.run()
    return time.perf_counter() - t, stats


def run_rust(jobs):
    out = subprocess.run(
        ["cargo", "run", "-q", "--profile", "bench", "--example", "mmc_native", "--", str(jobs), "3"],
        capture_output=True, text=True, check=True,
    ).stdout
    m = re.search(r"events=(\d+) best_s=([0-9.]+)", out)
    return float(m.group(2)), int(m.group(1))


def main():
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    py_s, stats = run_simpy(jobs)
    print(f"simpy  jobs={jobs} seconds={py_s:.2f} jobs_per_s={jobs / py_s:,.0f} "
          f"done={stats['done']} dead={stats['dead']} runs={stats['runs']}")
    rs_s, events = run_rust(jobs)
    print(f"rust   jobs={jobs} seconds={rs_s:.3f} jobs_per_s={jobs / rs_s:,.0f} events={events}")
    print(f"ratio  rust/simpy = {py_s / rs_s:.1f}x (same model, same job count, wall time)")


if __name__ == "__main__":
    main()
