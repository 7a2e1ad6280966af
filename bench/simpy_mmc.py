"""The benchmark model of benches/sim.rs in SimPy, and its speed ratio to the Rust engine.

M/M/c with retries: c = 3 workers, Poisson arrivals at 20/s, exponential service at 10/s per
worker, 10 % of runs fail and the job is retried after a full-jitter wait
U(0, min(1.5 s, 50 ms * 2**n)) (n = retry number, 0-based), at most 5 attempts, then dead.
The same as `MmcModel::bench` in src/domain/sim/erlang.rs.

Usage: python3 bench/simpy_mmc.py [JOBS] [ROUNDS]   (defaults 1_000_000 and 3; needs
`pip install simpy`)
Build the Rust side first: `cargo build --profile bench --example mmc_native`. The script
runs SimPy, then target/release/examples/mmc_native, and prints wall time and CPU time for
both and their ratios (CPU time is the fairer figure on a shared, loaded machine). Both sides
time the run inside their own process (SimPy: `env.run()`; Rust: `Simulation::new` to the end
of `run`) in a fresh process. Each round runs SimPy once per variant with the Rust model run
in seven fresh processes right before and seven right after it (the median of those 14 is
that SimPy run's Rust figure, so both come from the same minutes of a machine whose speed
drifts); the Rust process's whole CPU time (start-up, page faults, exit) is printed too. The
last two lines give the median ratio over the rounds.
"""
import os
import random
import re
import resource
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
    t, c = time.perf_counter(), time.process_time()
    env.run()
    return time.perf_counter() - t, time.process_time() - c, stats


def run_simpy_recording(jobs, seed=1):
    """The same model, also recording what the engine records during a run: per job the wait
    (enqueue -> first start) and the latency (enqueue -> done), and the queue depth each time it
    changes. (The engine's jobs table, leases and per-transition counts have no SimPy
    counterpart here.)"""
    rng = random.Random(seed)
    env = simpy.Environment()
    workers = simpy.Resource(env, capacity=C)
    stats = {"done": 0, "dead": 0, "runs": 0}
    waits, latencies, depth = [], [], []

    def record_depth():
        d = len(workers.queue)
        if not depth or depth[-1][1] != d:
            depth.append((env.now, d))

    def job():
        enqueued = env.now
        attempt = 0
        while True:
            with workers.request() as req:
                record_depth()
                yield req
                record_depth()
                if attempt == 0:
                    waits.append(env.now - enqueued)
                attempt += 1
                stats["runs"] += 1
                yield env.timeout(rng.expovariate(MU))
                failed = rng.random() < FAIL_P
            record_depth()
            if not failed:
                stats["done"] += 1
                latencies.append(env.now - enqueued)
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
    t, c = time.perf_counter(), time.process_time()
    env.run()
    return time.perf_counter() - t, time.process_time() - c, stats


def run_rust_once(jobs):
    """Runs the Rust model once in a fresh process. Returns its wall and CPU time measured
    inside the process around the run (as `env.run()` is timed above), the CPU time of the
    whole process (start-up, page faults and exit included) and the number of events."""
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples", "mmc_native")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([exe, str(jobs), "1"], capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    whole_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"events=(\d+) best_s=([0-9.]+) best_cpu_s=([0-9.]+)", out)
    return float(m.group(2)), float(m.group(3)), whole_cpu, int(m.group(1))


def run_rust(jobs, runs=7):
    """The median of `runs` fresh-process runs (by in-process CPU time): one run of a tenth of a
    second is at the mercy of the machine's other load in a way SimPy's ten seconds are not."""
    results = sorted((run_rust_once(jobs) for _ in range(runs)), key=lambda r: r[1])
    return results[len(results) // 2]


def around(jobs, simpy_run):
    """Runs `simpy_run(jobs)` with the Rust model measured right before and right after it
    (7 fresh processes each side) and returns SimPy's result and the median of those 14 Rust
    runs: on a shared machine whose speed drifts from one minute to the next, the Rust figure
    then comes from the same minutes as SimPy's, not from whenever the script reaches it."""
    before = [run_rust_once(jobs) for _ in range(7)]
    py = simpy_run(jobs)
    after = [run_rust_once(jobs) for _ in range(7)]
    rust = sorted(before + after, key=lambda r: r[1])
    return py, rust[len(rust) // 2]


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    bare, rec = [], []
    for r in range(1, rounds + 1):
        (py_s, py_cpu, stats), (rs_s, rs_cpu, rs_whole, events) = around(jobs, run_simpy)
        print(f"round {r}: simpy  jobs={jobs} cpu_s={py_cpu:.2f} jobs_per_s={jobs / py_s:,.0f} "
              f"done={stats['done']} dead={stats['dead']} runs={stats['runs']}")
        print(f"round {r}: rust   cpu_s={rs_cpu:.3f} wall_s={rs_s:.3f} (the run, timed in the process "
              f"as SimPy's is; median of 7 fresh processes before and 7 after SimPy) "
              f"whole_process_cpu_s={rs_whole:.3f} events={events}")
        print(f"round {r}: ratio  simpy/rust cpu {py_cpu / rs_cpu:.1f}x (wall {py_s / rs_s:.1f}x; "
              f"{py_cpu / rs_whole:.1f}x against the whole Rust process)")
        bare.append(py_cpu / rs_cpu)
        (rec_s, rec_cpu, rec_stats), (rs_s, rs_cpu, rs_whole, _) = around(jobs, run_simpy_recording)
        print(f"round {r}: simpy+ cpu_s={rec_cpu:.2f} (also recording waits, latencies and queue "
              f"depth, as the engine does) done={rec_stats['done']} dead={rec_stats['dead']}")
        print(f"round {r}: rust   cpu_s={rs_cpu:.3f} (median of the 14 runs around simpy+)")
        print(f"round {r}: ratio  simpy+/rust cpu {rec_cpu / rs_cpu:.1f}x (same model and the same "
              f"recorded outputs)")
        rec.append(rec_cpu / rs_cpu)
    print(f"ratio  simpy/rust (same model, same job count), median of {rounds} rounds: "
          f"{median(bare):.1f}x (rounds: {', '.join(f'{x:.1f}' for x in bare)})")
    print(f"ratio  simpy+/rust (same model and the same recorded outputs), median of {rounds} "
          f"rounds: {median(rec):.1f}x (rounds: {', '.join(f'{x:.1f}' for x in rec)})")


if __name__ == "__main__":
    main()
