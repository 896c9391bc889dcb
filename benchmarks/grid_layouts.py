"""Random puzzle files in many multi-line layouts, with random damage (helper-49's fuzzer of the grid
reader; benchmarks/fuzz_grids.py runs it).

make_file(rng) -> dict(data=bytes, grids=[...], accept=set of Puzzle, ...)
"""
from pathlib import Path

from sudorules.puzzle import Puzzle, PuzzleError, format_grid

SRC = [l[:81] for l in open(Path(__file__).resolve().parent.parent.parent / 'shared' / 'oracle' / 'cb-001' / 'puzzles.txt',
                             encoding='utf-8')]

PLAIN_LAYOUTS = ['plain', 'plain0', 'spacedcells', 'sr_bar', 'sr_excl', 'sr_nobord', 'gsf', 'gsf_outer',
                 'hodoku', 'ss1', 'ss2', 'rowblank', 'rowborder']
CAND_LAYOUTS = ['cand_sr', 'cand_hodoku', 'cand_plain', 'cand_bar']
# which layouts have a border/separator line inside the grid (between bands)
BANDSEP = {'sr_bar', 'sr_excl', 'gsf', 'gsf_outer', 'hodoku', 'ss1', 'ss2', 'rowblank', 'rowborder',
           'cand_sr', 'cand_hodoku', 'cand_bar'}
OUTER = {'sr_bar', 'sr_excl', 'gsf_outer', 'hodoku', 'ss1', 'rowborder', 'cand_sr', 'cand_hodoku', 'cand_bar'}


def _framed(rows, top, middle, bottom):
    """A grid's rows with a top border, a border between bands and a bottom border."""
    out = [(top, 'sep')]
    for i, x in enumerate(rows):
        out.append((x, 'row'))
        if i in (2, 5):
            out.append((middle, 'sep'))
    out.append((bottom, 'sep'))
    return out


def expected(text):
    """Expected puzzle (or None if invalid) of a one-line 81 or 729 text."""
    try:
        return Puzzle.from_string(text)
    except PuzzleError:
        return None


def pm_masks(p, rng):
    pz = Puzzle.from_string(p)
    cands = pz.candidates()
    masks = []
    for cell in range(81):
        v = pz.givens[cell]
        if v:
            masks.append(1 << (v - 1))
        else:
            m = 0
            for d in cands[cell]:
                m |= 1 << (d - 1)
            # sometimes drop a candidate (keeps at least 2)
            if rng.random() < 0.1 and bin(m).count('1') > 2:
                ds = [d for d in range(9) if m >> d & 1]
                m &= ~(1 << rng.choice(ds))
            masks.append(m)
    return masks


def masks_str(masks):
    return "".join("".join(str(d) if m >> (d - 1) & 1 else "." for d in range(1, 10)) for m in masks)


def plain_rows(p, layout, zero=False):
    """list of (text, kind) kind in 'row','sep'"""
    e = '0' if layout == 'plain0' else '.'
    rows = [p[9 * r:9 * r + 9].replace('.', e) for r in range(9)]
    out = []
    if layout in ('plain', 'plain0'):
        return [(r, 'row') for r in rows]
    if layout == 'spacedcells':
        return [(" ".join(r), 'row') for r in rows]
    if layout in ('sr_bar', 'sr_excl', 'sr_nobord'):
        b = '|' if layout != 'sr_excl' else '!'
        border = "+-------+-------+-------+"
        rr = [b + b.join(" " + " ".join(r[3 * k:3 * k + 3]) + " " for k in range(3)) + b for r in rows]
        if layout == 'sr_nobord':
            return [(x, 'row') for x in rr]
        out.append((border, 'sep'))
        for i, x in enumerate(rr):
            out.append((x, 'row'))
            if i % 3 == 2:
                out.append((border, 'sep'))
        return out
    if layout in ('gsf', 'gsf_outer'):
        rr = [" | ".join(" ".join(r[3 * k:3 * k + 3]) for k in range(3)) for r in rows]
        if layout == 'gsf_outer':
            rr = ["| " + x + " |" for x in rr]
            sep = "+-------+-------+-------+"
            out.append((sep, 'sep'))
        else:
            sep = "------+-------+------"
        for i, x in enumerate(rr):
            out.append((x, 'row'))
            if i in (2, 5) or (i == 8 and layout == 'gsf_outer'):
                out.append((sep, 'sep'))
        return out
    if layout == 'hodoku':
        rr = ["| " + " | ".join(" ".join(r[3 * k:3 * k + 3]) for k in range(3)) + " |" for r in rows]
        return _framed(rr, ".-------.-------.-------.", ":-------+-------+-------:", "'-------'-------'-------'")
    if layout == 'ss1':
        rr = ["|" + "|".join(r[3 * k:3 * k + 3] for k in range(3)) + "|" for r in rows]
        return _framed(rr, "*-----------*", "|---+---+---|", "*-----------*")
    if layout == 'ss2':
        rr = ["|".join(r[3 * k:3 * k + 3] for k in range(3)) for r in rows]
        for i, x in enumerate(rr):
            out.append((x, 'row'))
            if i in (2, 5):
                out.append(("-----------", 'sep'))
        return out
    if layout == 'rowblank':
        for i, r in enumerate(rows):
            out.append((" ".join(r), 'row'))
            if i < 8:
                out.append(("", 'sep'))
        return out
    if layout == 'rowborder':
        sep = "+---+---+---+---+---+---+---+---+---+"
        out.append((sep, 'sep'))
        for r in rows:
            out.append(("| " + " | ".join(r) + " |", 'row'))
            out.append((sep, 'sep'))
        return out
    raise ValueError(layout)


def cand_rows(masks, layout):
    cells = ["".join(str(d) for d in range(1, 10) if m >> (d - 1) & 1) or "-" for m in masks]
    if layout == 'cand_sr':
        text = format_grid(cells)
        return [(l, 'sep' if l.startswith('+') else 'row') for l in text.split("\n")]
    if layout == 'cand_bar':
        text = format_grid(cells).replace('!', '|')
        return [(l, 'sep' if l.startswith('+') else 'row') for l in text.split("\n")]
    w = max(len(c) for c in cells)
    rows = [[cells[9 * r + c].ljust(w) for c in range(9)] for r in range(9)]
    if layout == 'cand_plain':
        return [(" ".join(r).rstrip(), 'row') for r in rows]
    if layout == 'cand_hodoku':
        seg = "-" * (3 * w + 4)
        out = [("." + ".".join([seg] * 3) + ".", 'sep')]
        for i, r in enumerate(rows):
            out.append(("|" + "|".join(" " + " ".join(r[3 * k:3 * k + 3]) + " " for k in range(3)) + "|", 'row'))
            if i in (2, 5):
                out.append((":" + "+".join([seg] * 3) + ":", 'sep'))
        out.append(("'" + "'".join([seg] * 3) + "'", 'sep'))
        return out
    raise ValueError(layout)


TITLES = ["Puzzle {n}", "# puzzle {n}", "ID {n:07d}", "Nr.{n:06d}", "Grid {n}:", "[{n}]", "puzzle_{n:03d}",
          "#{n}", "Level: hard", "Sudoku #{n}"]
TYPO = "xXoOlI*?aZ"


def grid_chars_positions(text):
    return [i for i, c in enumerate(text) if c in "123456789.0"]


def damage(lines, rng, kind, cand):
    """lines: list of [text, kind] for one grid (copied). Returns (new lines, description, extra accepted
    (list of row-orders for swap) or None)."""
    rowidx = [i for i, (t, k) in enumerate(lines) if k == 'row']
    extra = None
    if kind == 'drop':
        i = rng.choice(rowidx)
        d = f"drop row {rowidx.index(i) + 1}"
        del lines[i]
    elif kind == 'dup':
        i = rng.choice(rowidx)
        d = f"dup row {rowidx.index(i) + 1}"
        lines.insert(i + 1, list(lines[i]))
    elif kind == 'swap':
        a, b = rng.sample(rowidx, 2)
        d = f"swap rows {rowidx.index(a) + 1},{rowidx.index(b) + 1}"
        lines[a], lines[b] = lines[b], lines[a]
        order = list(range(9))
        ia, ib = rowidx.index(a), rowidx.index(b)
        order[ia], order[ib] = order[ib], order[ia]
        extra = order
    elif kind in ('typo', 'add', 'rm', 'latin1', 'decr'):
        i = rng.choice(rowidx)
        t = lines[i][0]
        pos = grid_chars_positions(t)
        j = rng.choice(pos)
        if cand and kind in ('add', 'rm'):
            import re as _re
            toks = [m for m in _re.finditer(r'\S+', t) if m.group() not in '|!']
            m = rng.choice(toks)
            if kind == 'rm':
                t = t[:m.start()] + t[m.end():]
            else:
                t = t[:m.start()] + rng.choice(["5", "12", "379", "."]) + " " + t[m.start():]
        elif kind == 'typo':
            t = t[:j] + rng.choice(TYPO) + t[j + 1:]
        elif kind == 'add':
            t = t[:j] + rng.choice("123456789.") + t[j:]
        elif kind == 'rm':
            t = t[:j] + t[j + 1:]
        elif kind == 'latin1':
            if rng.random() < 0.5:
                t = t[:j] + "\udce9" + t[j + 1:]
            else:
                t = t[:j] + "\udce9" + t[j:]
        elif kind == 'decr':
            toks = [(m.start(), m.group()) for m in __import__('re').finditer(r'\d{2,}', t)]
            if not toks:
                t = t[:j] + rng.choice(TYPO) + t[j + 1:]
                kind = 'typo'
            else:
                s, tok = rng.choice(toks)
                nt = tok[::-1] if rng.random() < 0.5 else tok[0] + tok  # decreasing, or a repeated digit
                t = t[:s] + nt + t[s + len(tok):]
        lines[i] = [t, 'row']
        d = f"{kind} row {rowidx.index(i) + 1}: {t!r}"
    elif kind in ('title', 'comment', 'blank'):
        i = rng.randint(1, len(lines) - 1) if kind != 'title' else rng.randint(1, len(lines))
        text = {'title': rng.choice(TITLES).format(n=rng.randint(1, 999)), 'comment': "# note", 'blank': ""}[kind]
        lines.insert(i, [text, 'junk'])
        d = f"{kind} at {i}"
    else:
        raise ValueError(kind)
    return lines, d, extra


DAMAGES = ['drop', 'dup', 'swap', 'typo', 'add', 'rm', 'latin1', 'title', 'comment', 'blank', 'decr']


def make_file(rng, n_grids=None, damaged=None):
    n = n_grids or rng.randint(2, 6)
    mixed = rng.random() < 0.2
    base_layout = rng.choice(PLAIN_LAYOUTS + CAND_LAYOUTS)
    between = rng.choice(['none', 'blank', 'blank', 'blank2', 'title', 'titleblank', 'comment'])
    crlf = rng.random() < 0.15
    bom = rng.random() < 0.1
    nd = damaged if damaged is not None else rng.choice([0, 1, 1, 1, 2])
    oneline = rng.random() < 0.15
    entries = []
    for g in range(n):
        layout = rng.choice(PLAIN_LAYOUTS + CAND_LAYOUTS) if mixed else base_layout
        p = rng.choice(SRC)
        if layout.startswith('cand'):
            masks = pm_masks(p, rng)
            one = masks_str(masks)
            lines = [list(x) for x in cand_rows(masks, layout)]
        else:
            one = p
            lines = [list(x) for x in plain_rows(p, layout)]
        entries.append(dict(layout=layout, one=one, lines=lines, damaged=None, cand=layout.startswith('cand')))
        if oneline and rng.random() < 0.3:
            q = rng.choice(SRC)
            entries.append(dict(layout='oneline', one=q, lines=[[q + (" 123" if rng.random() < .5 else ""), 'row']],
                                damaged=None, cand=False))
    grids = [e for e in entries if e['layout'] != 'oneline']
    accept = set()
    for e in rng.sample(grids, min(nd, len(grids))):
        kind = rng.choice(DAMAGES)
        e['lines'], e['damaged'], order = damage(e['lines'], rng, kind, e['cand'])
        e['kind'] = kind
        if order is not None:
            if e['cand']:
                rows = [e['one'][81 * r:81 * r + 81] for r in range(9)]
            else:
                rows = [e['one'][9 * r:9 * r + 9] for r in range(9)]
            e['swapped'] = "".join(rows[k] for k in order)
    # assemble
    out = []  # list of (text, tag) tag: ('row', entry index) ...
    for k, e in enumerate(entries):
        if k > 0 or rng.random() < 0.3:
            if between in ('blank',):
                out.append(("", 'sep', None))
            elif between == 'blank2':
                out.append(("", 'sep', None))
                out.append(("", 'sep', None))
            elif between in ('title', 'titleblank'):
                if between == 'titleblank' and k > 0:
                    out.append(("", 'sep', None))
                out.append((rng.choice(TITLES).format(n=k + 1), 'title', None))
            elif between == 'comment':
                out.append((f"# {k + 1}", 'comment', None))
        for t, kind in e['lines']:
            out.append((t, kind, k))
    if rng.random() < 0.5:
        out.append(("", 'sep', None))
    # line numbers
    first_row_line = {}
    for num, (t, kind, k) in enumerate(out, start=1):
        if kind == 'row' and k is not None and k not in first_row_line:
            first_row_line[k] = num
    eol = "\r\n" if crlf else "\n"
    text = eol.join(t for t, _, _ in out) + eol
    if bom:
        text = "\ufeff" + text
    data = text.encode('utf-8', 'surrogateescape')
    for k, e in enumerate(entries):
        e['expect'] = expected(e['one'])
        e['first'] = first_row_line.get(k)
        if e['expect'] is not None:
            accept.add(e['expect'])
        if 'swapped' in e:
            x = expected(e['swapped'])
            if x is not None:
                accept.add(x)
    # separated from every damaged grid by a blank or border line?
    span = {}
    for i, (t, kind, k) in enumerate(out):
        if k is not None and kind in ('row', 'junk'):
            a, b = span.get(k, (i, i))
            span[k] = (min(a, i), max(b, i))
    for k, e in enumerate(entries):
        e['separated'] = True
        if e['damaged'] is None:
            for j, f in enumerate(entries):
                if f['damaged'] is None:
                    continue
                lo, hi = (span[j][1], span[k][0]) if j < k else (span[k][1], span[j][0])
                if not any(t.strip() == "" or kind == 'sep' for t, kind, _ in out[lo + 1:hi]):
                    # also a sep line inside the damaged grid's edge counts? only lines strictly between
                    e['separated'] = False
    return dict(data=data, entries=entries, accept=accept, base_layout=base_layout, mixed=mixed,
                between=between, crlf=crlf, bom=bom)
