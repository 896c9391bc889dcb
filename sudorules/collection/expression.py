"""``--where``: a small condition language over the columns of a table, parsed here (never ``eval``).

Grammar (keywords in any case)::

    condition  := term ("or" term)*
    term       := factor ("and" factor)*
    factor     := "not" factor | "(" condition ")" | comparison
    comparison := operand OP operand          OP: == = != <> < <= > >=
    operand    := number | 'text' | "text" | true | false | column

A column is a name of letters, digits, ``_`` and ``.`` not starting with a digit (``W``, ``gB``,
``status``), or any header name between backquotes (```GSF-Q1```).  Every column is checked against
the table's header when the condition is parsed: an unknown one is a one-line
:class:`~sudorules.errors.OptionError` naming it and the columns, before anything is read further.

What a comparison means, cell by cell (cells are the text of a CSV or Parquet output):

* with a number (``W >= 7``), the cell is read as a number; an empty cell (an unrated puzzle) or a
  cell that is no number makes the comparison false, whatever the operator;
* with a text (``status == 'solved'``), the cell is compared as text, exactly (``W == ''`` finds the
  empty cells); ``true`` and ``false`` are the texts ``check`` writes in ``minimal``, in any case;
* column with column (``B < W``): as numbers when both cells are numbers, else as text; false when
  either cell is empty.

So ``not (W >= 7)`` also keeps the unrated rows, and ``W < 7`` does not.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..errors import OptionError
from .table import cell_number
from .template import NUMBER, unknown_column

_OPERATORS: dict[str, Callable[[object, object], bool]] = {
    "==": operator.eq, "=": operator.eq, "!=": operator.ne, "<>": operator.ne,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
_KEYWORDS = ("and", "or", "not", "true", "false")
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>""" + NUMBER.pattern + r"""(?![\w.]))
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<quoted>`[^`]+`)
  | (?P<name>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<op><=|>=|==|!=|<>|<|>|=)
  | (?P<paren>[()])
""", re.VERBOSE)


#: what a bad number runs to, for its message (``0x7``)
_WORD = re.compile(r"[^\s()<>=!]+")
#: the hint of a character no token starts with, and of a bad number that is no number at all
#: (``S+W > 3``: the column rate --rating S+W writes, read as S and the number +W)
_QUOTING = "texts go between quotes, odd column names between backquotes"


@dataclass(frozen=True)
class _Token:
    kind: str  # number, string, column, op, paren, keyword, end
    text: str
    at: int  # 0-based character position in the expression
    value: object = None


@dataclass(frozen=True)
class _Operand:
    """A column (``column`` set) or a constant (a float, or a str for text and true/false)."""

    column: Optional[str] = None
    constant: object = None
    boolean: bool = False  # true / false: compared as text, in any case


Rows = Sequence[Sequence[str]]
#: the deepest nesting of parentheses and 'not's a condition may have
MAX_NESTING = 100
#: a compiled condition: (cell getter by column index) -> bool, applied to one row
Predicate = Callable[[Sequence[str]], bool]


class Condition:
    """A parsed ``--where`` condition over a table with the header ``columns``.

    ``Condition(text, columns).matches(row)`` tells whether a row (its cells in header order)
    satisfies it."""

    def __init__(self, text: str, columns: Sequence[str], option: str = "--where"):
        self.text = text
        self.option = option
        self.columns = list(columns)
        self._index = {name: i for i, name in enumerate(self.columns)}
        self.tokens = self._tokenize(text)
        self.position = self._depth = 0
        if self.tokens[0].kind == "end":
            raise OptionError(f"{option}: the condition is empty (e.g. 'W >= 7 and B < W')")
        self._predicate = self._condition()
        if self._peek().kind != "end":
            token = self._peek()
            raise self._error(token, f"unexpected {token.text!r} (expected 'and', 'or' or the end)")

    def matches(self, row: Sequence[str]) -> bool:
        """True when the row (cells in header order) satisfies the condition."""
        return self._predicate(row)

    def select(self, rows: Rows) -> list[int]:
        """The indices of the rows that satisfy the condition, in order."""
        return [i for i, row in enumerate(rows) if self._predicate(row)]

    # --- parsing ---------------------------------------------------------------------------------
    def _error(self, token: _Token, why: str) -> OptionError:
        return OptionError(f"{self.option}: {why} at character {token.at + 1} of {self.text!r}")

    def _tokenize(self, text: str) -> list[_Token]:
        tokens, at = [], 0
        while at < len(text):
            match = _TOKEN.match(text, at)
            if match is None:
                char = text[at]
                hint = ""
                if char in "'\"`":
                    why = f"unclosed {char} (a text, or a column name between backquotes, ends with its own {char})"
                elif char.isdigit() or char in "+-.":
                    why, hint = self._not_a_number(text, at, tokens)
                else:
                    why, hint = f"unexpected character {char!r}", _QUOTING
                raise OptionError(f"{self.option}: {why} at character {at + 1} of {text!r}"
                                  + (f" ({hint})" if hint else ""))
            kind, value = match.lastgroup, match.group()
            if kind == "number":
                number = cell_number(value)  # the cells' reading: 1e999 is no finite number there either
                if number is None:
                    raise OptionError(f"{self.option}: not a number: {value!r} at character {at + 1} of {text!r} "
                                      "(out of range)")
                tokens.append(_Token("number", value, at, number))
            elif kind == "string":
                tokens.append(_Token("string", value, at, value[1:-1]))
            elif kind == "quoted":
                tokens.append(_Token("column", value, at, value[1:-1]))
            elif kind == "name":
                lower = value.lower()
                tokens.append(_Token("keyword", lower, at) if lower in _KEYWORDS else _Token("column", value, at, value))
            elif kind in ("op", "paren"):
                tokens.append(_Token(kind, value, at))
            at = match.end()
        tokens.append(_Token("end", "the end", len(text)))
        return tokens

    def _not_a_number(self, text: str, at: int, tokens: list[_Token]) -> tuple[str, str]:
        """Why the word at ``at``, which starts as a number does, is none, and a hint at what it may be."""
        word = _WORD.match(text, at).group()
        why = f"not a number: {word!r}"
        if not word.isascii() and any(char.isdigit() for char in word):
            return why, "numbers are written with the ASCII digits 0-9"
        if all(char in "0123456789+-.eE_" for char in word):  # a number mistyped (1.2.3, 1_000): no hint
            return why, ""
        before = tokens[-1] if tokens else None
        if (before is not None and before.kind == "column" and before.at + len(before.text) == at
                and not before.text.startswith("`")):  # S+W: one name, cut at its '+'
            return why, f"{_QUOTING}: `{before.text}{word}`"
        return why, _QUOTING

    def _peek(self) -> _Token:
        return self.tokens[self.position]

    def _next(self) -> _Token:
        token = self.tokens[self.position]
        self.position += 1
        return token

    def _keyword(self, word: str) -> bool:
        if self._peek().kind == "keyword" and self._peek().text == word:
            self.position += 1
            return True
        return False

    def _condition(self) -> Predicate:
        terms = [self._term()]
        while self._keyword("or"):
            terms.append(self._term())
        if len(terms) == 1:
            return terms[0]
        return lambda row: any(term(row) for term in terms)

    def _term(self) -> Predicate:
        factors = [self._factor()]
        while self._keyword("and"):
            factors.append(self._factor())
        if len(factors) == 1:
            return factors[0]
        return lambda row: all(factor(row) for factor in factors)

    def _factor(self) -> Predicate:
        token = self._peek()
        if self._keyword("not"):
            inner = self._nested(token, self._factor)
            return lambda row: not inner(row)
        if token.kind == "paren" and token.text == "(":
            self._next()
            inner = self._nested(token, self._condition)
            closing = self._next()
            if closing.kind != "paren" or closing.text != ")":
                raise self._error(closing, f"expected ')' to close the '(' at character {token.at + 1}, "
                                           f"found {closing.text!r}")
            return inner
        return self._comparison()

    def _nested(self, token: _Token, parse: Callable[[], Predicate]) -> Predicate:
        """``parse()`` one level deeper in parentheses and 'not's, at most :data:`MAX_NESTING` (the
        parser and the predicate recurse per level: 600 parentheses overflowed Python's stack)."""
        if self._depth >= MAX_NESTING:
            raise self._error(token, f"more than {MAX_NESTING} nested parentheses and 'not's")
        self._depth += 1
        try:
            return parse()
        finally:
            self._depth -= 1

    def _operand(self) -> _Operand:
        token = self._next()
        if token.kind == "number":
            return _Operand(constant=token.value)
        if token.kind == "string":
            return _Operand(constant=token.value)
        if token.kind == "keyword" and token.text in ("true", "false"):
            return _Operand(constant=token.text, boolean=True)
        if token.kind == "column":
            name = str(token.value)
            if name not in self._index:
                raise unknown_column(self.option, name, self.columns, f" in {self.text!r}")
            return _Operand(column=name)
        raise self._error(token, f"expected a column, a number or a quoted text, found {token.text!r}")

    def _comparison(self) -> Predicate:
        start = self._peek()
        left = self._operand()
        token = self._next()
        if token.kind != "op":
            if left.column is not None and token.kind in ("keyword", "end", "paren"):
                raise self._error(start, f"{left.column} alone is not a condition: compare it "
                                         f"(e.g. {left.column} >= 7, {left.column} == true or {left.column} == 'text')")
            raise self._error(token, f"expected a comparison (==, !=, <, <=, >, >=), found {token.text!r}")
        right = self._operand()
        return self._compiled(left, _OPERATORS[token.text], right, start)

    def _compiled(self, left: _Operand, compare: Callable[[object, object], bool], right: _Operand,
                  start: _Token) -> Predicate:
        if left.column is None and right.column is None:
            if isinstance(left.constant, float) != isinstance(right.constant, float):
                raise self._error(start, "compares a number with a text")
            constant = bool(compare(left.constant, right.constant))
            return lambda row: constant
        if left.column is not None and right.column is not None:
            i, j = self._index[left.column], self._index[right.column]

            def columns(row: Sequence[str]) -> bool:
                a, b = row[i], row[j]
                if a == "" or b == "":
                    return False
                x, y = cell_number(a), cell_number(b)
                return compare(x, y) if x is not None and y is not None else compare(a, b)
            return columns
        # one column, one constant: keep the column on the left
        if left.column is None:
            flipped = {operator.lt: operator.gt, operator.gt: operator.lt, operator.le: operator.ge,
                       operator.ge: operator.le}.get(compare, compare)
            left, right, compare = right, left, flipped
        i, constant = self._index[left.column], right.constant
        if isinstance(constant, float):
            def with_number(row: Sequence[str]) -> bool:
                value = cell_number(row[i])
                return value is not None and compare(value, constant)
            return with_number
        if right.boolean:
            return lambda row: compare(row[i].strip().lower(), constant)
        return lambda row: compare(row[i], constant)


def where(text: Optional[str], columns: Sequence[str]) -> Optional[Condition]:
    """The :class:`Condition` of a ``--where`` option, checked against ``columns``; None when not given."""
    return None if text is None else Condition(text, columns)


__all__ = ["Condition", "where"]
