"""The grid reader against random damaged files (helper-49's fuzzer, twenty-first session).

Each file holds cb-001 puzzles as multi-line grids in one of 17 layouts (or several), some grids
damaged (a row dropped, doubled, with a typo, a character too many or too few, a byte that is no
UTF-8, a title or comment put in).  Checked: (a) no record is a valid puzzle that is none of the file's
("misread"); (b) every undamaged grid set apart from the damage by a blank or border line is read as
itself ("lost" otherwise); (c) the progress count equals the records; and every CLI_EVERY-th file,
(d) check, rate and canon agree with the reader and (e) select --puzzles of check's output reads back
alike.  Counterexamples go to OUT/KIND_SEED.txt with a .json beside; a summary at the end.

    PYTHONPATH=. python benchmarks/fuzz_grids.py --seed 0 --files 1500 --out /tmp/fz0
"""
import argparse
import csv
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grid_layouts import make_file  # noqa: E402
from sudorules.reader import count_records, read_puzzle_file, read_puzzles  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--files", type=int, default=1500)
parser.add_argument("--cli-every", type=int, default=1_000_000, help="run the commands on every Nth file")
parser.add_argument("--damaged", type=int, default=None, help="damaged grids a file (default: random)")
parser.add_argument("--out", default="fuzz-grids", help="directory for counterexamples")
parser.add_argument("--sudorules", default=os.path.join(os.path.dirname(sys.executable), "sudorules"),
                    help="the command, for (d) and (e) (default: this Python's)")
options = parser.parse_args()
S, seed0, count, cli_every, damaged, outdir = (options.sudorules, options.seed, options.files, options.cli_every,
                                               options.damaged, options.out)
os.makedirs(outdir, exist_ok=True)
stats = {}
fails = []


def run(*args):
    return subprocess.run([S, *args], capture_output=True, text=True, timeout=300)


def fail(kind, seed, f, msg):
    name = f"{outdir}/{kind}_{seed}.txt"
    with open(name, "wb") as h:
        h.write(f['data'])
    meta = dict(kind=kind, seed=seed, msg=msg, layout=f['base_layout'], mixed=f['mixed'], between=f['between'],
                damage=[(e['first'], e['layout'], e['damaged']) for e in f['entries'] if e['damaged']])
    with open(name + ".json", "w") as h:
        json.dump(meta, h)
    stats[kind] = stats.get(kind, 0) + 1
    fails.append(meta)


for seed in range(seed0, seed0 + count):
    rng = random.Random(seed)
    f = make_file(rng, damaged=damaged)
    path = f"{outdir}/cur.txt"
    with open(path, "wb") as h:
        h.write(f['data'])
    recs = list(read_puzzle_file(path))
    stats['files'] = stats.get('files', 0) + 1
    stats['records'] = stats.get('records', 0) + len(recs)
    # (a)
    for r in recs:
        if r.ok and r.puzzle not in f['accept']:
            fail('a_misread', seed, f, f"line {r.line}: {r.puzzle} text={r.text!r}")
            break
    # (b)
    byline = {r.line: r for r in recs}
    for e in f['entries']:
        if e['damaged'] is None and e['separated']:
            stats['b_checked'] = stats.get('b_checked', 0) + 1
            r = byline.get(e['first'])
            want = e['expect']
            if r is None or r.puzzle != want or (want is None and r.ok):
                fail('b_lost', seed, f, f"grid at line {e['first']} ({e['layout']}): got "
                     f"{None if r is None else (r.ok, r.error, r.text[:60])}")
                break
    # (c)
    c = count_records(path)
    if c != (len(recs) or None):
        fail('c_count', seed, f, f"count_records {c} vs {len(recs)}")
    if seed % cli_every == 0:
        stats['cli'] = stats.get('cli', 0) + 1
        okv = [r.ok for r in recs]
        if os.path.exists(f"{outdir}/c.csv"):
            os.remove(f"{outdir}/c.csv")
        chk = run("check", path, "-o", f"{outdir}/c.csv", "--no-progress", "-j", "1")
        rows = list(csv.DictReader(open(f"{outdir}/c.csv", encoding="utf-8", errors="surrogateescape", newline="")))
        cv = [not r['error'] for r in rows]
        if cv != okv:
            fail('d_check', seed, f, f"check {cv} api {okv} {chk.stderr[-300:]}")
        else:
            for r, row in zip(recs, rows):
                if r.ok and row['puzzle'] != str(r.puzzle):
                    fail('d_checktext', seed, f, f"{row['puzzle']} vs {r.puzzle}")
                    break
        for x in ("r.csv",):
            if os.path.exists(f"{outdir}/{x}"):
                os.remove(f"{outdir}/{x}")
        rt = run("rate", path, "--rating", "B", "-o", f"{outdir}/r.csv", "--no-progress", "-j", "1")
        rrows = list(csv.DictReader(open(f"{outdir}/r.csv", encoding="utf-8", errors="surrogateescape", newline="")))
        rv = [r['status'] != 'invalid' for r in rrows]
        want = [ok and row['solutions'] == '1' for ok, row in zip(okv, rows)]
        if rv != want or len(rrows) != len(okv):
            fail('d_rate', seed, f, f"rate {rv} api {okv} {rt.stderr[-300:]}")
        cn = run("canon", path, "--no-progress")
        nvalid = len([l for l in cn.stdout.splitlines() if l.strip()])
        errlines = sorted(int(l.split(":")[0][5:]) for l in cn.stderr.splitlines() if l.startswith("line "))
        if nvalid != sum(okv) or errlines != [r.line for r in recs if not r.ok]:
            fail('d_canon', seed, f, f"canon valid {nvalid} vs {sum(okv)}; err {errlines} vs "
                 f"{[r.line for r in recs if not r.ok]} {cn.stderr[-300:]}")
        sel = run("select", f"{outdir}/c.csv", "--puzzles")
        again = list(read_puzzles(sel.stdout))
        av = [r.ok for r in again]
        if av != cv:
            fail('e_select', seed, f, f"reread {len(again)} recs {av} vs rows {cv}: {sel.stdout[:500]!r}")
json.dump(dict(stats=stats, fails=fails), open(f"{outdir}/summary.json", "w"))
print(seed0, stats)
