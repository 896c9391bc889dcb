"""Text tables of a :func:`~sudorules.stats.report.build_report` dictionary (the default output)."""

from __future__ import annotations

from typing import Optional

import pandas as pd

from ..reader import plural
from .loading import COUNTED_NOWHERE


def _number(value: Optional[float], digits: int = 4) -> str:
    if value is None:
        return "-"
    if isinstance(value, (int, str)):
        return str(value)
    if value != 0 and (abs(value) < 10 ** -(digits - 1) or abs(value) >= 1e5):
        return f"{value:.{digits}g}"
    return f"{value:.{digits}f}"


def _table(records: list[dict], columns: dict[str, str], digits: int = 4) -> str:
    """Right-aligned text table of ``records``; ``columns`` maps record keys to headers."""
    frame = pd.DataFrame([{header: _number(record.get(key), digits) for key, header in columns.items()}
                          for record in records])
    return frame.to_string(index=False) if not frame.empty else "(none)"


def _moments_section(report: dict) -> str:
    records = []
    for name, entry in report["columns"].items():
        record = {"column": name, "count": entry["count"], "missing": entry["missing"]}
        for kind in ("raw", "unbiased"):
            moments = entry.get(kind) or {}
            record.update({f"{kind}_{k}": moments.get(k) for k in ("mean", "sd", "sd_mixture")})
        records.append(record)
    columns = {"column": "column", "count": "count", "missing": "missing", "raw_mean": "raw mean",
               "raw_sd": "raw sd", "raw_sd_mixture": "raw sd(mix)"}
    if report["unbiased"]:
        columns.update({"unbiased_mean": "unbiased mean", "unbiased_sd": "unbiased sd",
                        "unbiased_sd_mixture": "unbiased sd(mix)"})
    frame = pd.DataFrame([{h: (r[k] if k == "column" else _number(r[k])) for k, h in columns.items()}
                          for r in records])
    return ("Means and standard deviations (000 §1.3: sd = sqrt(Σ w·sd(X,n)²/Σ w), within clue classes; "
            "for clues the sd over all puzzles, weighted by cf(n) when unbiased; sd(mix) = full mixture sd)\n" + frame.to_string(index=False))


def _shape_section(report: dict) -> str:
    """Skewness and excess kurtosis of each column's whole distribution, raw and unbiased (000 §2.1.1)."""
    records = []
    for name, entry in report["columns"].items():
        record = {"column": name}
        for kind in ("raw", "unbiased"):
            moments = entry.get(kind) or {}
            record.update({f"{kind} {k}": _number(moments.get(k)) for k in ("skewness", "kurtosis")})
        records.append(record)
    frame = pd.DataFrame(records)
    if not report["unbiased"]:
        frame = frame[["column", "raw skewness", "raw kurtosis"]]
    return ("Shape (000 §2.1.1: skewness and excess kurtosis, 0 for a Normal, of the whole distribution)\n"
            + frame.to_string(index=False))


def place(entry: dict, one_source: bool) -> str:
    """Where a row (``{"source", "line"}``) is: its line, or ``a.csv:4`` when the inputs are several
    (line 4 of which file, else: compare's differences of two part files said ``6, 7, 10, ..., 3``)."""
    return str(entry["line"]) if one_source else f"{entry['source']}:{entry['line']}"


def format_lines(entries: list[dict], total: int, one_source: bool) -> str:
    """``lines 4, 9, 12`` (one source) or ``a.csv:4, b.csv:9``, with ``and N more`` past the list."""
    shown = [place(e, one_source) for e in entries]
    text = ("line " if one_source and total == 1 else "lines " if one_source else "") + ", ".join(shown)
    return text + (f" and {total - len(entries):,} more" if total > len(entries) else "")


def _header(report: dict) -> str:
    """Who was read, and which rows and columns are left out of the statistics (and where)."""
    sources = report.get("sources") or []
    status = ", ".join(f"{k} {v:,}" for k, v in report["status"].items())
    lines = [f"{plural(report['rows'], 'row', grouped=True)} read from {', '.join(sources) or 'the inputs'}"
             + (f" ({status})" if status else "")]
    not_counted = report.get("not_counted") or {}
    if not_counted:
        one_source = len(sources) <= 1
        groups = []
        for name, group in not_counted.items():
            text = f"{name or 'no status'} at {format_lines(group['lines'], group['count'], one_source)}"
            if name in COUNTED_NOWHERE:
                text += " (no clue count: counted nowhere)"
            groups.append(text)
        lines.append(f"{plural(report['excluded_rows'], 'row', grouped=True)} not solved (a rating's statistics leave out "
                     "the rows where it failed): " + "; ".join(groups))
    repeated = report.get("repeated")
    if repeated:
        lines.append(f"Note: {plural(repeated['puzzles'], 'puzzle', grouped=True)} appear"
                     f"{'s' if repeated['puzzles'] == 1 else ''} more than once ({plural(repeated['rows'], 'row', grouped=True)} "
                     "in all), each row counted: samples of one seed pooled twice?")
    if report.get("weights"):
        lines.append(weights_line(report["weights"]))
    if report.get("other_columns"):
        lines.append(f"Not rating columns, no statistics: {', '.join(report['other_columns'])} "
                     "(add --rating NAME to treat one as a rating)")
    return "\n".join(lines)


def weights_line(weights: dict) -> str:
    """The line that says a report's (or comparison's) puzzles are weighted, and how much."""
    return (f"Weighted: each puzzle by its grid's importance weight ({plural(weights['rows'], 'row', grouped=True)}, "
            f"mean {_number(weights['mean'])}, effective sample size {_number(weights['effective_rows'], 1)}): "
            "every figure is one of uniform grids (raw: the generator's own distribution on them)")


#: the header of W(n), the sum of a clue class's weights, in the text tables: "W(n)" read as the
#: rating W's in "W by clue count" (helper-41)
CLASS_WEIGHT = "Σw(n)"


def _class_terms(report: dict) -> tuple[dict[str, str], str, str]:
    """How a clue class is told in a table and its formulas: the ``weight`` column (with weights),
    the class's size (on(n) or Σw(n)) and its count in an error (on(n) or n_eff(n))."""
    if report.get("weights"):
        return {"weight": CLASS_WEIGHT}, CLASS_WEIGHT, "n_eff(n)"
    return {}, "on(n)", "on(n)"


def format_report(report: dict, by_clues: bool = False) -> str:
    """All sections of the report as text tables; per-clue tables only with ``by_clues``."""
    parts = [_header(report), _moments_section(report), _shape_section(report)]
    if report["clue_distribution"]:
        weight, size, count = _class_terms(report)
        columns = {"clues": "clues", "on": "on(n)", **weight, "raw_percent": "raw %"}
        how = f"raw % = {size} normalised" if weight else ""
        if report["unbiased"]:
            columns.update({"cf_exact": "cf(n)", "unbiased_percent": "unbiased %",
                            "unbiased_percent_sd": "± sd"})
            how = (f"{how}; " if how else "") + (f"unbiased % = {size}·cf(n) normalised, "
                                                  f"sd = unbiased %/sqrt({count})")
        parts.append(f"Clue distribution (002 Table 4{'; ' + how if how else ''})\n"
                     + _table(report["clue_distribution"], columns))
    for name, records in report["level_distributions"].items():
        columns = {"level": "level", "count": "count", "raw_percent": "raw %"}
        how = "raw ∝ Σ w, " if report.get("weights") else ""
        if report["unbiased"]:
            columns["unbiased_percent"] = "unbiased %"
            how += f"unbiased ∝ Σn cf(n)·{'Σ w' if report.get('weights') else 'count'}"
        parts.append(f"Distribution of {name} by level (002 Table 3{'; ' + how.rstrip(', ') if how else ''})\n"
                     + _table(records, columns, 3))
    parts.extend(_correlation_sections(report))
    if by_clues:
        for name, records in report["per_clue"].items():
            if name == "clues":  # E = n and sd = 0 on every row (helper-39): the clue distribution says it all
                continue
            weight = _class_terms(report)[0]
            parts.append(f"{name} by clue count (on(n), E(X,n), sd(X,n), skewness, excess kurtosis, as 000 §2.1.3"
                         f"{', weighted' if weight else ''})\n"
                         + _table(records, {"clues": "clues", "on": "on(n)", **weight, "mean": "E", "sd": "sd",
                                            "skewness": "skewness", "kurtosis": "kurtosis"}))
    parts.extend(_minimals_section(report))
    return "\n\n".join(parts) + "\n"


def _correlation_sections(report: dict) -> list[str]:
    correlation = report["correlation"]
    if not correlation:
        return []
    names = [f"log({n})" if n in correlation["log"] else n for n in correlation["columns"]]
    parts = []
    for kind in ("raw", "unbiased"):
        if correlation.get(kind) is None:
            continue
        # the report's None (an undefined r) is NaN once in a DataFrame: test for that, or it showed 'nan'
        frame = pd.DataFrame(correlation[kind], index=names, columns=names).map(
            lambda v: "-" if pd.isna(v) else f"{v:.4f}")
        weight = {"raw": "", "unbiased": "cf(clues)"}[kind]
        if report.get("weights"):
            weight = f"{weight}·w" if weight else "w"
        parts.append(f"Correlation ({kind}; Pearson, 003 §1.2"
                     + (f", each puzzle weighted by {weight}" if weight else "") + ")\n"
                     + frame.to_string())
    distances = report["mean_distance"]
    if distances:
        records = [{"rating": name, "raw": value,
                    "unbiased": (distances.get("unbiased") or {}).get(name)}
                   for name, value in distances["raw"].items()]
        columns = {"rating": "rating", "raw": "raw"}
        if distances.get("unbiased"):
            columns["unbiased"] = "unbiased"
        frame = pd.DataFrame([{h: (r[k] if k == "rating" else _number(r[k])) for k, h in columns.items()}
                              for r in records])
        parts.append("Mean distance to the other ratings (003 §1.3: sqrt(2·(1 - mean r)))\n"
                     + frame.to_string(index=False))
    return parts


def _minimals_section(report: dict) -> list[str]:
    minimals = report["minimals"]
    if not minimals:
        return []
    if "note" in minimals:
        return [f"Numbers of minimals: {minimals['note']}"]
    total = {"clues": "all", "per_grid": minimals["per_grid"], "relative_error": minimals["relative_error"]}
    records = [{**r, "relative_error": 100 * r["relative_error"]} for r in minimals["per_clue"]]
    records.append({**total, "relative_error": 100 * total["relative_error"]})
    weight, size, count = _class_terms(report)
    table = _table(records, {"clues": "clues", "on": "on(n)", **weight, "per_grid": "minimals per grid",
                             "relative_error": "rel. error %", "tries_per_minimal": "tries per minimal"}, 5)
    return [f"Minimal puzzles per complete grid (000 §2.1.5: {size}·C(81,n)/T, T = {minimals['total_tries']:.6g} "
            f"tries; error 1/sqrt({count}))\nAssumes {minimals['assumes']}.\n" + table]


def format_comparison(result: dict) -> str:
    """Cross-table, share of differences and the list of differing puzzles, as text."""
    first, second = result["first"], result["second"]
    cross = result["cross_table"]
    share = f"{_number(result['raw_percent'], 3)} %"
    if result["unbiased_percent"] is not None:
        share += f"; unbiased {_number(result['unbiased_percent'], 3)} %"
    if cross is None:
        lines = [f"{first} and {second} on {result['compared']} puzzles with both values: {result['cross_table_note']}"]
    else:
        frame = pd.DataFrame(cross["counts"], index=pd.Index(cross["rows"], name=f"{first} \\ {second}"),
                             columns=cross["columns"])
        lines = [f"Cross-table of {first} (rows) and {second} (columns) on {result['compared']} puzzles "
                 "with both ratings", frame.to_string()]
    lines += ["", f"{first} ≠ {second} on {result['differ']} of {result['compared']} puzzles ({share}"
              + (", weighted" if result.get("weights") else "") + ")"]
    if result.get("weights"):
        lines.append(weights_line(result["weights"]))
    one_source = len(result.get("sources") or []) <= 1
    nowhere = result.get("counted_nowhere") or {}
    if nowhere:
        rows = sum(group["count"] for group in nowhere.values())
        lines.append(f"{plural(rows, 'row', grouped=True)} with no puzzle, not compared: " + "; ".join(
            f"{status} at {format_lines(group['lines'], group['count'], one_source)}" for status, group in nowhere.items()))
    if result["differences"]:
        listed = [{**entry, "line": place(entry, one_source)} for entry in result["differences"]]
        lines.append(_table(listed, {"line": "line", "puzzle": "puzzle", first: first, second: second}, 3))
    return "\n".join(lines) + "\n"
