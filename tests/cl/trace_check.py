#!/usr/bin/env python3
"""cl_trace: runs trace_program with CLMUX_TRACE set and reads the file as
Perfetto would: it must be whole JSON (closed at exit, not broken by the
forked child), with a track per queue and per worker thread, each command
with its stages, every work-group of each NDRange in exactly one chunk on
a clmux thread within the command's run, the builds and specializations
with their durations, and each specialization's compile stages, inside it,
with the instructions after each (also printed by CLMUX_DEBUG). Prints "N
passed, N failed"."""
import json
import os
import subprocess
import sys
import tempfile

passed = failed = 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print("check failed: " + what, file=sys.stderr)
    return condition


# The stages every specialization that compiles goes through, in order.
STAGES = ["cache lookup", "split program", "clone", "prune", "inline",
          "barriers", "simplify", "scalarize", "vectorize",
          "work-group loops", "link", "optimize", "emit", "cache store"]


def run(program, trace, **extra):
    # Compiled, not found in a disk cache that an earlier run filled.
    env = dict(os.environ, CLMUX_TRACE=trace, CLMUX_CACHE="0", **extra)
    # The forked child exits without the parent's threads, whose memory
    # LeakSanitizer would then count as leaked; leaks are other tests' job.
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"

    return subprocess.run([program], env=env, capture_output=True, text=True,
                          timeout=300)


def slices(events, **fields):
    return [e for e in events if e.get("ph") == "X" and
            all(e.get(k) == v for k, v in fields.items())]


def check_queue(events, track, expected):
    """The commands on one queue's track: kinds in order, stages ordered,
    no two overlapping (the queue is in order)."""
    commands = sorted(slices(events, tid=track), key=lambda e: e["ts"])
    check([(c["args"]["kind"], c["name"]) for c in commands] == expected,
          "queue commands %s, expected %s" %
          ([(c["args"]["kind"], c["name"]) for c in commands], expected))
    for c in commands:
        a = c["args"]
        check(a["queued"] <= a["submitted"] <= c["ts"] and c["dur"] >= 0,
              "stages in order: %s" % c)
        check(a["status"] == 0, "command completed: %s" % c)
    for before, after in zip(commands, commands[1:]):
        check(after["ts"] >= before["ts"] + before["dur"] - 0.002,
              "commands do not overlap: %s %s" % (before, after))
    return commands


def check_chunks(events, ndrange, clmux_threads, groups=None):
    """Every work-group of the NDRange ran in exactly one chunk, on a clmux
    thread, while the command ran."""
    chunks = slices(events, cat="work-groups", name=ndrange["name"])
    covered = sorted((c["args"]["first"], c["args"]["count"]) for c in chunks)
    position = 0
    for first, count in covered:
        check(first == position and count > 0,
              "chunks tile the work-groups: %s" % covered)
        position = first + count
    if groups is not None:
        check(position == groups,
              "%d work-groups in chunks, expected %d" % (position, groups))
    check(position > 0, "chunks of %s found" % ndrange["name"])
    begin, end = ndrange["ts"], ndrange["ts"] + ndrange["dur"]
    for c in chunks:
        check(c["tid"] in clmux_threads, "chunk on a clmux thread: %s" % c)
        check(begin - 1 <= c["ts"] and c["ts"] + c["dur"] <= end + 1,
              "chunk within its command [%f, %f]: %s" % (begin, end, c))


def check_stages(events, uneven):
    """uneven's compile stages: every one, in order, within its
    specialization, on one thread, with instruction counts."""
    stages = sorted((e for e in slices(events, cat="compile")
                     if e["args"]["kernel"] == "uneven"),
                    key=lambda e: e["ts"])
    check([e["name"] for e in stages] == STAGES,
          "uneven's stages: %s" % [e["name"] for e in stages])
    if len(uneven) != 1 or not stages:
        return
    begin = uneven[0]["ts"]
    end = begin + uneven[0]["dur"]
    for e in stages:
        check(begin - 1 <= e["ts"] and e["ts"] + e["dur"] <= end + 1 and
              e["args"]["local_size"] == "64x1x1",
              "stage within the specialization [%f, %f]: %s" %
              (begin, end, e))
    check(len({e["tid"] for e in stages}) == 1, "stages on one thread")
    counted = {e["name"]: e["args"]["instructions"] for e in stages}
    check(counted["optimize"] > 0 and counted["vectorize"] > 0 and
          counted["emit"] == -1, "instructions after the stages: %s" % counted)


def main():
    program = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "trace.json")
        result = run(program, path)
        check(result.returncode == 0,
              "trace_program: %s %s" % (result.stdout, result.stderr))
        text = open(path).read()
        check(text.rstrip().endswith("]"), "the array is closed at exit")
        try:
            events = json.loads(text)
        except ValueError as error:
            check(False, "the trace is JSON: %s" % error)
            events = []

        names = {e["tid"]: e["args"]["name"] for e in events
                 if e.get("ph") == "M" and e.get("name") == "thread_name"}
        check(any(e.get("name") == "process_name" for e in events),
              "the process is named")
        queues = {n: t for t, n in names.items()
                  if n.startswith("command queue")}
        plain = [t for n, t in queues.items() if "profiling" not in n]
        profiling = [t for n, t in queues.items() if "profiling" in n]
        check(len(plain) == 1 and len(profiling) == 1,
              "a track per queue: %s" % queues)
        workers = [t for t, n in names.items() if n.startswith("clmux worker")]
        check(len(workers) >= 1, "a track per worker: %s" % names)
        clmux_threads = {t for t, n in names.items()
                         if n.startswith("clmux worker") or
                         n == "clmux queue executor"}

        if plain and profiling:
            first = check_queue(events, plain[0], [
                ("write buffer", "write buffer"), ("NDRange", "uneven"),
                ("read buffer", "read buffer")])
            second = check_queue(events, profiling[0], [
                ("NDRange", "fill"), ("read buffer", "read buffer")])
            if len(first) == 3:
                check_chunks(events, first[1], clmux_threads, groups=64)
            if len(second) == 2:
                check_chunks(events, second[0], clmux_threads)

        builds = slices(events, cat="build", name="clBuildProgram")
        check(sorted(b["args"]["result"] for b in builds) ==
              ["failure", "success"], "two builds: %s" % builds)
        check(any(b["args"]["options"] == "-DUNUSED=1" and b["dur"] > 0
                  for b in builds), "the build's options and duration")
        uneven = slices(events, cat="specialization", name="uneven")
        check(len(uneven) == 1 and uneven[0]["args"]["local_size"] ==
              "64x1x1" and uneven[0]["dur"] > 0,
              "uneven's specialization: %s" % uneven)
        check(len(slices(events, cat="specialization", name="fill")) == 1,
              "fill's specialization")
        check_stages(events, uneven)

        # CLMUX_DEBUG prints the same stages, in one line a specialization.
        result = run(program, os.path.join(folder, "again.json"),
                     CLMUX_DEBUG="1")
        lines = [l for l in result.stderr.splitlines()
                 if l.startswith("clmux: kernel uneven: local size 64x1x1 "
                                 "stages:")]
        check(len(lines) == 1, "one stage line for uneven: %r" %
              result.stderr[-2000:])
        if lines:
            named = [part.strip().rsplit(" ms", 1)[0].rsplit(" ", 1)[0]
                     for part in lines[0].split("stages:", 1)[1].split(",")]
            check([n for n in named if n in STAGES] == STAGES,
                  "the stages in order: %s" % named)
            check("optimize" in lines[0] and " instructions)" in lines[0],
                  "instruction counts: %s" % lines[0])

        # A file that cannot be opened: one line, and the program runs.
        result = run(program, os.path.join(folder, "missing", "trace.json"))
        check(result.returncode == 0, "runs without its trace")
        check("CLMUX_TRACE: cannot open" in result.stderr,
              "says why there is no trace: %r" % result.stderr)

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
