#!/usr/bin/env python3
"""Instructions per criterion benchmark iteration, counted by callgrind: a comparison of two
builds that does not depend on how busy the machine is. See docs/BENCHMARKS.md.

    bench-instructions.py measure TAG BINARY BENCH_ID [--threads]   (prints one TSV line)
    bench-instructions.py compare RESULTS.tsv BEFORE_TAG AFTER_TAG  (prints a markdown table)

`measure` runs `BINARY --bench --profile-time 1 ^BENCH_ID$` under callgrind, one profile per
thread. Criterion's profile mode first warms up for one second, running the routine 1, 2, 4,
... times in successive calls of `Bencher::iter` (or `iter_batched`); under valgrind that
second is over before the profiling proper would start, so the k calls of `Bencher::iter*`
ran N = 2^k - 1 iterations in all. The cost is what `Bencher::iter*` spent on the main thread
(its own instructions and everything it called) minus criterion's clock reads and, for
`iter_batched`, minus the setup closure and the dropping of outputs (criterion does not time
those either). With --threads (a routine that runs in parallel, as discovery does on rayon's
pool), everything the other threads executed is added. The line printed is
TAG, BENCH_ID, N, cost, cost / N.
"""

import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

ITER = re.compile(r"criterion::bencher::Bencher<M>::iter(_batched)?$")
TIMER = re.compile(r"criterion::measurement|std::time::Instant|BatchSize::iters_per_batch")
# The setup side of iter_batched: collecting the inputs, and loop_turn's session builder.
SETUP = re.compile(r"SpecFromIter|^loop_turn::session$")


def parse(path):
    """Call edges (caller, callee) -> [calls, inclusive Ir], and self Ir per function."""
    names = {}

    def name(spec):
        m = re.match(r"\((\d+)\)(?: (.*))?", spec.strip())
        if not m:
            return spec.strip()
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), "?" + m.group(1))

    edges = collections.defaultdict(lambda: [0, 0])
    own = collections.defaultdict(int)
    fn = callee = calls = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fn="):
                fn = name(line[3:])
            elif line.startswith("cfn="):
                callee = name(line[4:])
            elif line.startswith("calls="):
                calls = int(line[6:].split()[0])
            elif line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                ir = int(parts[1]) if len(parts) > 1 else 0
                if calls is not None:
                    edge = edges[(fn, callee)]
                    edge[0] += calls
                    edge[1] += ir
                    calls = None
                else:
                    own[fn] += ir
    return edges, own


def measure(tag, binary, bench, threads):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--separate-threads=yes",
             f"--callgrind-out-file={out}",
             binary, "--bench", "--profile-time", "1", f"^{re.escape(bench)}$"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        files = sorted(glob.glob(out + "*"))
        main = [f for f in files if f.endswith("-01")] or files[:1]
        edges, own = parse(main[0])
        k = sum(c for (_, b), (c, _) in edges.items() if ITER.search(b))
        batched = any("iter_batched" in b for (_, b) in edges if ITER.search(b))
        cost = sum(v for f, v in own.items() if ITER.search(f))
        for (a, b), (_, ir) in edges.items():
            if not ITER.search(a) or TIMER.search(b):
                continue
            if batched and (SETUP.search(b) or b == "__rustc::__rust_dealloc"):
                continue
            cost += ir
        if threads:
            for f in files:
                if f in main:
                    continue
                with open(f) as profile:
                    cost += sum(int(l.split()[1]) for l in profile if l.startswith("totals:"))
    n = 2**k - 1
    print(f"{tag}\t{bench}\t{n}\t{cost}\t{cost / n:.0f}", flush=True)


def compare(results, before, after):
    rows = collections.OrderedDict()
    with open(results) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 5:
                tag, bench, n, _, per = parts
                rows.setdefault(bench, {})[tag] = (int(n), float(per))
    print("| Benchmark | Iterations (before / after) | Before (Ir/iter) | After (Ir/iter) | Change |")
    print("|---|---|---:|---:|---:|")
    for bench, tags in rows.items():
        if before in tags and after in tags:
            (nb, b), (na, a) = tags[before], tags[after]
            print(f"| `{bench}` | {nb} / {na} | {b:,.0f} | {a:,.0f} | {(a - b) / b * 100:+.1f}% |")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3], sys.argv[4], "--threads" in sys.argv[5:])
    elif len(sys.argv) == 5 and sys.argv[1] == "compare":
        compare(*sys.argv[2:5])
    else:
        sys.exit(__doc__)
