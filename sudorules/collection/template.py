"""``--format TEMPLATE``: one text line per row, the user's layout over the columns.

serate users write ``--format='%r %p %d %g'`` and gsf users ``-f...`` to get one line per puzzle in
their own layout; here a template names the columns of the command's CSV output between braces::

    --format '{puzzle} {W} {B} {tail}'

A field may carry a format spec after a colon (``{W:>2}``: right-aligned on two characters, the text
as it is, ``{puzzle:.20}``: the first 20 characters, ``{seconds:.2f}``: the cell read as a number,
``{B:02}``: a cell that is a number formatted as one, ``04``, and an error for a number Python will
not format so, ``{W:.1}`` of ``10``); ``{{`` and ``}}`` are literal braces, ``\\t`` a tab and
``\\\\`` a backslash.  Every field must name a column of the command's output: an unknown one (a typo,
``{SER}`` on a file that has none) is an :class:`~sudorules.errors.OptionError` naming it and the
columns, raised when the template is made, before any work.  The template is parsed here, never
handed to ``str.format`` (whose ``{0.__class__}`` fields reach into Python objects).

A :class:`RowTemplate` takes a row as a dict ``{column: cell}``; every command that writes rows
(``check``, ``rate``, ``select``, ``classify``) formats them with it.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, Optional, Sequence, Union

from ..errors import OptionError


@dataclass(frozen=True)
class _Field:
    name: str
    spec: str = ""


class RowTemplate:
    """A parsed ``--format`` template, checked against the ``columns`` the rows will have."""

    def __init__(self, text: str, columns: Sequence[str], option: str = "--format",
                 kinds: Optional[Mapping[str, str]] = None):
        self.text = text
        self.option = option
        self.parts: tuple[Union[str, _Field], ...] = tuple(self._parse(text))
        known = list(columns)
        for part in self.parts:
            if isinstance(part, _Field) and part.name not in known:
                raise unknown_column(option, part.name, known)
            if isinstance(part, _Field) and part.spec and kinds and part.name in kinds:
                self._check_kind(part, kinds[part.name])
        if not any(isinstance(part, _Field) for part in self.parts):
            raise OptionError(f"{option}: {text!r} names no column; write them between braces, e.g. "
                              f"'{{{known[0] if known else 'puzzle'}}}'")

    @property
    def fields(self) -> tuple[str, ...]:
        """The column names the template uses, in order (repeats kept)."""
        return tuple(part.name for part in self.parts if isinstance(part, _Field))

    @property
    def shows_error(self) -> bool:
        """True when the lines show the ``error`` column (``{error}``): an invalid record's reason is in its line."""
        return "error" in self.fields

    def tell_invalid(self, error: str, write: Optional[Callable[[str], object]] = None) -> None:
        """Say an invalid record's ``error`` cell (``line 4: bad character 'x' at column 80``, ``PUZZLE 0:
        ...``) as one line on standard error, unless the template shows ``{error}``.

        A template's line holds only its fields, so a bad record's line was blank but for its text, and
        the reason that makes the exit status 1 was nowhere (README "Exit statuses": its row or stderr
        line names the line and the reason).  Standard error, not standard output: ``--format`` lines are
        read as one per input record (line k = record k, as serate's and gsf's outputs and a value file
        are), which a message among them would shift.  A template with ``{error}`` has put the reason
        where its user wants it: not said twice.  ``write``: how a line
        reaches stderr (a progress bar's own ``write``, which keeps the bar whole)."""
        if not error or self.shows_error:
            return
        if write is not None:
            write(error)
        else:
            print(error, file=sys.stderr, flush=True)

    def render(self, row: Mapping[str, object]) -> str:
        """The row's line, without the newline (a missing or ``None`` cell is empty)."""
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            value = row.get(part.name)
            text = "" if value is None else str(value)
            out.append(self._formatted(part, text) if part.spec else text)
        return "".join(out)

    def check(self, rows: Iterable[Mapping[str, object]]) -> None:
        """Raise the :class:`~sudorules.errors.OptionError` the line of one of ``rows`` would raise (a
        number its spec cannot format, ``{W:.1}`` on ``10``), before any line is written: a command
        that has its rows before writing (``select``) refuses the option instead of stopping midway."""
        for row in rows:
            self.render(row)

    def _check_kind(self, part: _Field, kind: str) -> None:
        """Refuse, before any line, a spec that cannot format the column's cells whatever they hold:
        ``{clues:.1}`` (an integer has no precision) and ``{seconds:d}`` (a decimal number) stopped
        check, rate and classify after their first lines, and ``{seconds:d}`` only once a cell was
        not a whole number (helper-42); a number's spec on a text column (``{status:.2f}``) was
        ignored without a word."""
        field = f"{{{part.name}:{part.spec}}}"
        parts = _SPEC.fullmatch(part.spec)
        numeric = any(parts[name] for name in ("sign", "z", "alt", "grouping")) or (
            parts["type"] is not None and parts["type"] in _FLOAT_TYPES | _INT_TYPES)
        if kind in ("text", "grid"):
            if numeric:
                raise OptionError(f"{self.option}: {field}: {part.name} is a text, and this spec formats numbers "
                                  "(a text takes a width, an alignment and .N to cut it)")
            return
        if not any(parts[name] for name in _BEYOND_PADDING):
            return  # fill, alignment and width: the cell's text padded, a number or not
        sample, what = (7, "whole numbers") if kind == "int" else (1.5, "decimal numbers")
        try:
            format(sample, part.spec)
        except ValueError as error:
            raise OptionError(f"{self.option}: {field} cannot format {part.name}, whose cells are {what} "
                              f"({error})") from None

    def _formatted(self, part: _Field, text: str) -> str:
        try:
            return _formatted(text, part.spec, part.name in GRID_COLUMNS)
        except (ValueError, OverflowError) as error:  # the number's: a text the spec cannot take is padded
            field = f"{{{part.name}:{part.spec}}}"
            hint = ""
            if _SPEC.fullmatch(part.spec)["precision"] is not None and _valid_text_spec(part.spec + "s"):
                hint = (f"; write {{{part.name}:{part.spec}s}} to cut the text, "
                        f"{{{part.name}:{part.spec}f}} for a number with that many decimals")
            raise OptionError(f"{self.option}: {field} cannot format the number {text} ({error}){hint}") from None

    def line(self, row: Mapping[str, object]) -> str:
        """The row's line with its newline."""
        return self.render(row) + "\n"

    def lines(self, rows: Iterable[Mapping[str, object]]) -> Iterator[str]:
        """One line (with its newline) per row."""
        for row in rows:
            yield self.line(row)

    def _error(self, at: int, why: str) -> OptionError:
        return OptionError(f"{self.option}: {why} at character {at + 1} of {self.text!r}")

    def _parse(self, text: str) -> Iterator[Union[str, _Field]]:
        literal: list[str] = []
        i = 0
        while i < len(text):
            char = text[i]
            if char == "\\" and i + 1 < len(text) and text[i + 1] in "t\\":
                literal.append("\t" if text[i + 1] == "t" else "\\")
                i += 2
            elif char in "{}" and text[i:i + 2] in ("{{", "}}"):
                literal.append(char)
                i += 2
            elif char == "}":
                raise self._error(i, "a '}' closes no field (write '}}' for a brace)")
            elif char == "{":
                end = text.find("}", i + 1)
                if end < 0:
                    raise self._error(i, "a '{' is not closed (write '{{' for a brace)")
                inside = text[i + 1:end]
                if "{" in inside:
                    raise self._error(i, "a field holds a '{'")
                if literal:
                    yield "".join(literal)
                    literal = []
                yield self._field(inside, i)
                i = end + 1
            elif char in "\n\r":
                raise self._error(i, "a line break (the template makes one line per row)")
            else:
                literal.append(char)
                i += 1
        if literal:
            yield "".join(literal)

    def _field(self, inside: str, at: int) -> _Field:
        name, colon, spec = inside.partition(":")
        name = name.strip()
        if not name:
            raise self._error(at, "an empty field '{}'")
        if colon:
            widest = max((int(digits) for digits in re.findall(r"[0-9]+", spec)), default=0)
            if widest > MAX_WIDTH:  # format() would first build the string: {W:1000000000000} ran out of memory
                raise self._error(at, f"bad format spec {spec!r} of {{{name}}} (a width or precision above {MAX_WIDTH})")
            try:
                format(_sample(spec), spec)
            except ValueError as error:
                try:  # no type letter: a cell may be a number ({B:+}, {clues:,}) or a text
                    if _sample(spec) != "" or spec.endswith("s"):
                        raise
                    format(0, spec)
                except ValueError:
                    raise self._error(at, f"bad format spec {spec!r} of {{{name}}} ({error})") from None
            parts = _SPEC.fullmatch(spec)
            if not parts:  # _formatted reads the spec's parts: none Python takes is missed
                raise self._error(at, f"bad format spec {spec!r} of {{{name}}}")
            if parts["type"] in _NOT_THE_NUMBER:  # Python takes it, but the cell would no longer read as itself
                raise self._error(at, f"bad format spec {spec!r} of {{{name}}} (type {parts['type']!r} writes "
                                      f"{_NOT_THE_NUMBER[parts['type']]}, not the number)")
        return _Field(name, spec)


#: the widest field and the longest precision a spec may ask for: a line is one row, and a larger
#: width is no layout but a way to exhaust memory
MAX_WIDTH = 1000

#: format spec types Python takes that write a number as something else, refused when the template is
#: made: {W:c} of 10 wrote chr(10), a line break in the middle of a line.  (n stays: without a locale
#: set, as here, it writes the number as d or g does; x, o, b, % are the number in another notation.)
_NOT_THE_NUMBER = {"c": "the character of that code"}

#: the parts of a format spec beyond fill, alignment and width (without them, a cell's text is padded)
_BEYOND_PADDING = ("sign", "z", "alt", "zero", "grouping", "precision", "type")

#: format spec types that read the cell as a number (``{seconds:.2f}``, ``{W:03d}``)
_FLOAT_TYPES, _INT_TYPES = set("eEfFgG%"), set("dnxXob")

#: the columns that hold grids: texts even when all digits (a solution is no number: {solution:.9} is its
#: first row, and {puzzle:>81} of a puzzle written with 0s kept its zeros)
GRID_COLUMNS = ("puzzle", "solution", "canonical")

#: the one syntax of a number in a table cell, a ``--where`` condition and a value file (README:
#: numbers are ASCII): an optional sign, ASCII digits, a fraction, an exponent.  Python's float() and
#: int() also read '٣', '３' and '1_000', which --where did not, and 'nan' or 'inf', no value of ours
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

#: Python's format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type]
_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?(?P<zero>0)?"
                   r"(?P<width>[0-9]+)?(?P<grouping>[,_])?(?:\.(?P<precision>[0-9]+))?(?P<type>[A-Za-z%])?",
                   re.DOTALL)


def _sample(spec: str) -> object:
    """A value of the kind the spec formats: text, a float or an int (to check the spec)."""
    kind = spec[-1:] if spec else ""
    return 0.0 if kind in _FLOAT_TYPES else 0 if kind in _INT_TYPES else ""


def unknown_column(option: str, name: str, columns: Sequence[str], where: str = "") -> OptionError:
    """The one-line error for an option naming a column the table does not have, with the columns
    and, for a near miss (``w``, ``TAIL``), the column meant."""
    import difflib  # only for a wrong name: not at every start-up

    close = difflib.get_close_matches(name, columns, n=1, cutoff=0.6) or [c for c in columns if c.lower() == name.lower()]
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return OptionError(f"{option}: unknown column {name!r}{where} (the columns are: {', '.join(columns)}){hint}")


def _valid_text_spec(spec: str) -> bool:
    try:
        format("", spec)
    except ValueError:
        return False
    return True


def _number(text: str) -> Union[int, float, None]:
    """The cell as Python would hold the number it writes: an int for digits only (``10``, exact however
    long), else a float; None for a cell that is no :data:`NUMBER` or no finite float (``1e999``)."""
    if not NUMBER.fullmatch(text):
        return None
    if text.lstrip("+-").isdigit():
        try:
            return int(text)
        except ValueError:  # beyond Python's 4300 digits: no number to format
            return None
    value = float(text)
    return value if math.isfinite(value) else None


def _formatted(text: str, spec: str, grid: bool = False) -> str:
    """The cell under its spec.  A spec of only fill, alignment and width pads the cell's text as it is
    (a number right-aligned, as Python aligns numbers): ``{tail:>12}`` of ``1.16171e+06`` gave
    ``1161710.0``, the float's own text.  Otherwise a cell that is a number (not a ``grid`` one) is
    formatted as Python formats it, a numeric spec on an integer-valued float taking its int
    (``{B:02}`` gives ``04``: it gave ``40``, the text padded on its right); a spec Python refuses for
    the number raises its ``ValueError`` (``{W:.1}`` on ``10`` gave ``1``, the text cut: a wrong
    number).  A cell the spec cannot take (an empty rating under ``{B:03d}``, a puzzle under
    ``{puzzle:+}``) is padded as text to the spec's width."""
    parts = _SPEC.fullmatch(spec)
    assert parts is not None  # the spec was checked when the template was made
    number = None if grid else _number(text)
    if not any(parts[name] for name in _BEYOND_PADDING):
        return _padded(text, parts, number is not None)
    if number is not None and parts["type"] != "s":
        if parts["type"] in _INT_TYPES and isinstance(number, float) and number.is_integer():
            number = int(number)
        return format(number, spec)
    if text:  # an empty cell is spaces, even under {B:02} (Python would fill it with zeros)
        try:
            return format(text, spec)
        except ValueError:
            pass
    return format(text, f">{parts['width'] or ''}")


def _padded(text: str, parts: re.Match, number: bool) -> str:
    """The text as it is, to the width of a spec that has only fill, alignment and width."""
    width = int(parts["width"] or 0)
    fill, align = parts["fill"] or " ", parts["align"] or (">" if number else "<")
    if align == "=":  # the padding after a number's sign, as Python puts it; a text has no sign
        sign = text[:1] if number and text[:1] in "+-" else ""
        return sign + text[len(sign):].rjust(width - len(sign), fill) if number else text.rjust(width)
    return format(text, f"{fill}{align}{width}" if width else "")


def row_template(text: Optional[str], columns: Sequence[str], option: str = "--format",
                 kinds: Optional[Mapping[str, str]] = None) -> Optional[RowTemplate]:
    """The template of a ``--format`` option, checked against ``columns`` (and their ``kinds``, see
    :func:`output_kinds`); None when not given."""
    return None if text is None else RowTemplate(text, columns, option, kinds)


def output_template(text: Optional[str], columns: Sequence[str]) -> Optional[RowTemplate]:
    """:func:`row_template` for the output of ``check``, ``rate`` or ``classify``, whose columns'
    kinds are known (:func:`output_kinds`)."""
    return row_template(text, columns, kinds=output_kinds(columns))


#: the text columns of our own outputs (check, rate, classify); ``tail`` is whatever followed the
#: puzzle on its line, a number (tries) or not, so it has no kind
_TEXT_COLUMNS = ("status", "error", "minimal")


def output_kinds(columns: Sequence[str]) -> dict[str, str]:
    """What each column of a ``check``, ``rate`` or ``classify`` output holds when it holds anything:
    ``grid`` (a puzzle, solution or canonical form), ``text``, ``float`` (``seconds``) or ``int``
    (the clue count, the solution count and every rating), so that a ``--format`` spec that cannot
    format them is refused before any work (:meth:`RowTemplate._check_kind`)."""
    kinds = {}
    for column in columns:
        if column in GRID_COLUMNS:
            kinds[column] = "grid"
        elif column in _TEXT_COLUMNS:
            kinds[column] = "text"
        elif column == "seconds":
            kinds[column] = "float"
        elif column != "tail":
            kinds[column] = "int"
    return kinds
