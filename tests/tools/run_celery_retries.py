"""Runs Celery's own retry code on our Python exports (tests/it/target_libs.rs).

Usage: python3 run_celery_retries.py CASES.json > RESULTS.json

CASES.json: [{"name", "file": "x.py", "task": "task name", "draws"}]. Each export is imported
as it is (its `app`, its task with the decorator's options); its `work`, which the export leaves
to the user, is replaced by one that raises the export's first RETRYABLE class (or, for
"permanent", its first NON_RETRYABLE class). The task then runs through Celery's own path,
eagerly (`Task.apply`, no broker): the autoretry wrapper (`autoretry_for`, `retry_backoff`,
`retry_backoff_max`, `retry_jitter` through `get_exponential_backoff_interval`), or the
export's own `self.retry(countdown=...)`, then `Task.retry` (`max_retries`,
`default_retry_delay`), each retry run again by `apply` until Celery gives up and the task's
`on_failure` (the dead letter) runs. Each retry's countdown is read from the `task_retry`
signal (the `Retry` Celery raised: its `when`).

Each result: {"name", "versions": {"celery"}, "runs", "min": [s], "max": [s], "mean": [s],
"dead": [what on_failure logged], "state", "permanent": {"runs", "countdowns", "dead"}} or
{"name", "error"}. "min" / "max": `random.randrange` / `random.uniform` stubbed to their lowest
/ highest value; "mean" over "draws" runs with a seeded generator.
"""

import importlib.util
import json
import logging
import random
import sys

try:
    import celery
    from celery import signals
    from celery.exceptions import Retry
except ImportError:
    print(json.dumps([{"name": "*", "error": "MISSING: python3 cannot import celery (PyPI celery)"}]))
    sys.exit(0)

HIGH = 1.0 - 1e-12
MODE = "real"
RNG = random.Random(20261203)


def randrange(start, stop=None, step=1):
    if stop is None:
        start, stop = 0, start
    if MODE == "min":
        return start
    if MODE == "max":
        return start + ((stop - 1 - start) // step) * step
    return RNG.randrange(start, stop, step)


def uniform(a, b):
    if MODE == "min":
        return a
    if MODE == "max":
        return a + (b - a) * HIGH
    return RNG.uniform(a, b)


random.randrange = randrange
random.uniform = uniform

COUNTDOWNS = []
DEAD = []


@signals.task_retry.connect
def on_retry(request=None, reason=None, **_):
    COUNTDOWNS.append(reason.when)


class Dead(logging.Handler):
    def emit(self, record):
        DEAD.append(record.getMessage())


logging.getLogger("celery").addHandler(Dead(level=logging.ERROR))
logging.getLogger("celery").propagate = False


def load(path, index):
    spec = importlib.util.spec_from_file_location(f"export_{index}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_once(module, task, error):
    """One task through Celery's eager path; the countdowns, the runs and the final state."""
    COUNTDOWNS.clear()
    DEAD.clear()
    runs = []

    def work(*_args, **_kwargs):
        runs.append(1)
        raise error("x")

    module.work = work
    result = task.apply(args=(1,))
    return list(COUNTDOWNS), len(runs), result.state, list(DEAD)


def draw(task, retries):
    """The countdowns of one job's retries, each from the task's own run (the autoretry wrapper
    or the export's `self.retry`) and `Task.retry`, with the request Celery's `apply` would
    give it (`retries`, the kwargs of the retry's signature): Celery's tracer, which only
    records the error, is left out (it takes milliseconds a run)."""
    waits = []
    kwargs = {}
    for k in range(retries):
        task.push_request(retries=k, is_eager=True, args=(1,), kwargs=kwargs, called_directly=False)
        try:
            task.run(1, **kwargs)
        except Retry as r:
            waits.append(r.when)
            kwargs = r.sig.kwargs
        finally:
            task.pop_request()
    return waits


def run_case(index, c):
    global MODE
    module = load(c["file"], index)
    task = module.app.tasks[c["task"]]
    retryable = module.RETRYABLE[0]
    MODE = "min"
    low, runs, state, dead = run_once(module, task, retryable)
    MODE = "max"
    high, _, _, _ = run_once(module, task, retryable)
    MODE = "real"
    sums = [0.0] * len(low)
    draws = c["draws"] if low != high else 0
    for _ in range(draws):
        for i, w in enumerate(draw(task, len(low))):
            sums[i] += w
    out = {
        "name": c["name"],
        "versions": {"celery": celery.__version__},
        "runs": runs,
        "state": state,
        "min": low,
        "max": high,
        "mean": [s / draws for s in sums] if draws else low,
        "dead": dead,
    }
    if module.NON_RETRYABLE:
        waits, runs, state, dead = run_once(module, task, module.NON_RETRYABLE[0])
        out["permanent"] = {"runs": runs, "countdowns": waits, "state": state, "dead": dead}
    return out


def main():
    cases = json.load(open(sys.argv[1], encoding="utf-8"))
    results = []
    for i, c in enumerate(cases):
        try:
            results.append(run_case(i, c))
        except Exception as e:  # the library's or the export's own error, per case
            results.append({"name": c["name"], "error": f"{type(e).__name__}: {e}"})
    print(json.dumps(results))


main()
