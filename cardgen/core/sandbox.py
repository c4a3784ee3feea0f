r"""The Jinja2 sandbox every template runs in (card templates, card text, rulebook chapters).

Jinja's own sandbox stops escapes (``__class__`` …); :class:`BoundedSandbox` also stops the
expressions that would hang or exhaust memory, each raising :class:`SecurityError` (a
template problem at its line):

- ``range``: at most :data:`MAX_RANGE` numbers per call and :data:`MAX_STEPS` loop steps
  from ranges over one render (so nested loops of 10^10 iterations end at once);
- ``**``: a result of at most :data:`MAX_INT_BITS` bits; ``*``, ``%``, ``center``, ``indent``,
  ``format``: strings and lists of at most :data:`MAX_TEXT` characters or items;
- macros calling macros more than :data:`MAX_CALL_DEPTH` deep, more than :data:`MAX_INCLUDES`
  includes or extends in one render (a chapter including itself), Python recursion;
- the rendered text: at most :data:`MAX_TEXT` characters.

:class:`ProjectLoader` reads ``{% include %}``\ d files through :mod:`cardgen.core.sources`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template, TemplateError, TemplateNotFound
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment

from cardgen.core import sources

MAX_RANGE = 10_000
MAX_STEPS = 1_000_000
MAX_INT_BITS = 100_000
MAX_TEXT = 1_000_000
MAX_CALL_DEPTH = 50
MAX_INCLUDES = 200
_WIDE_FORMAT = re.compile(r"%[-+ #0]*(\d{5,}|\*)|\.\d{5,}")
_WIDE_BRACE = re.compile(r"\{[^{}]*:[^{}]*\d{5,}[^{}]*\}")
_CODE: dict[tuple, CodeType] = {}   # compiled templates of this process (BoundedSandbox.compile)
MAX_CODES = 20_000


def _size(v: Any) -> int:
    return len(v) if isinstance(v, (str, list, tuple, bytes)) else 0


class BoundedTemplate(Template):
    """A template whose outermost render starts a fresh budget and checks the text's length."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        env = self.environment
        if not isinstance(env, BoundedSandbox):
            return super().render(*args, **kwargs)
        outer = env._depth == 0
        if outer:
            env._steps = env._includes = env._calls = 0
        env._depth += 1
        try:
            text = super().render(*args, **kwargs)
        except RecursionError as e:
            raise SecurityError("the template recurses too deeply (a macro calling itself, or a file "
                                "including or extending itself?)") from e
        except MemoryError as e:
            raise SecurityError("the template needs too much memory") from e
        finally:
            env._depth -= 1
        if len(text) > MAX_TEXT:
            raise SecurityError(f"the template writes {len(text):,} characters, more than {MAX_TEXT:,}")
        return text


class BoundedSandbox(SandboxedEnvironment):
    """SandboxedEnvironment with bounded ranges, powers, repetition, recursion and output."""

    template_class = BoundedTemplate
    intercepted_binops = frozenset(["**", "*", "%"])

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._depth = self._steps = self._includes = self._calls = 0
        self.globals["range"] = self._range
        for name in ("center", "indent"):
            self.filters[name] = self._wide(self.filters[name])
        self.filters["format"] = self._checked_format(self.filters["format"])

    def compile(self, source: Any, name: str | None = None, filename: str | None = None, raw: bool = False,  # type: ignore[override]
                defer_init: bool = False) -> Any:
        """Jinja's compile, done once per process for each source text, name and file under the
        same settings: a rulebook chapter or a template's expression is parsed and compiled once
        however many rulebooks, versions or builds of the run use it. The settings are everything
        Jinja reads while compiling (syntax, whitespace, sandboxing, the filters' and tests'
        names: cardgen's filters are pure, so the same name folds to the same constant). A source
        that fails to compile is not kept: it fails again, with its message, every time."""
        if raw or not isinstance(source, str):
            return super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload]
        key = (self._signature(), source, name, filename, defer_init)
        code = _CODE.get(key)
        if code is None:
            code = super().compile(source, name, filename, defer_init=defer_init)
            if len(_CODE) >= MAX_CODES:         # a long `cardgen serve` session: start again
                _CODE.clear()
            _CODE[key] = code
        return code

    def _signature(self) -> tuple:
        return (type(self), self.block_start_string, self.block_end_string, self.variable_start_string,
                self.variable_end_string, self.comment_start_string, self.comment_end_string,
                self.line_statement_prefix, self.line_comment_prefix, self.trim_blocks, self.lstrip_blocks,
                self.newline_sequence, self.keep_trailing_newline, self.optimized, self.autoescape, self.finalize,
                self.is_async, tuple(sorted(self.extensions)), tuple(sorted(self.filters)), tuple(sorted(self.tests)))

    def _range(self, *args: int) -> Any:
        r = range(*args)
        if len(r) > MAX_RANGE:
            raise SecurityError(f"range of {len(r):,} numbers; at most {MAX_RANGE:,}")
        return self._metered(r)

    def _metered(self, r: range) -> Any:
        for i in r:
            self._steps += 1
            if self._steps > MAX_STEPS:
                raise SecurityError(f"loops over ranges take more than {MAX_STEPS:,} steps")
            yield i

    @staticmethod
    def _wide(fn: Any) -> Any:
        def bounded(value: Any, width: Any = 80, *args: Any, **kwargs: Any) -> Any:
            if isinstance(width, int) and abs(width) > MAX_TEXT // 100:
                raise SecurityError(f"a width of {width:,} characters")
            text = fn(value, width, *args, **kwargs)
            if _size(text) > MAX_TEXT:
                raise SecurityError(f"text of more than {MAX_TEXT:,} characters")
            return text
        return bounded

    @staticmethod
    def _checked_format(fn: Any) -> Any:
        def bounded(value: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(value, str) and (_WIDE_FORMAT.search(value) or _WIDE_BRACE.search(value)):
                raise SecurityError("a format width of 10,000 characters or more")
            return fn(value, *args, **kwargs)
        return bounded

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 \
                and abs(left) > 1 and right * abs(left).bit_length() > MAX_INT_BITS:
            raise SecurityError(f"{left} ** {right} is too large a number")
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if _size(seq) and isinstance(n, int) and len(seq) * n > MAX_TEXT:
                    raise SecurityError(f"repeating {len(seq):,} characters or items {n:,} times is too much")
        if operator == "%" and isinstance(left, str) and _WIDE_FORMAT.search(left):
            raise SecurityError("a format width of 10,000 characters or more")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self._calls += 1
        if __self._calls > MAX_CALL_DEPTH:
            raise SecurityError(f"calls nested more than {MAX_CALL_DEPTH} deep (a macro calling itself?)")
        try:
            return super().call(__context, __obj, *args, **kwargs)
        finally:
            __self._calls -= 1

    def wrap_str_format(self, value: Any) -> Any:
        owner = getattr(value, "__self__", None)
        if isinstance(owner, str) and getattr(value, "__name__", "") in ("format", "format_map") \
                and _WIDE_BRACE.search(owner):
            raise SecurityError("a format width of 10,000 characters or more")
        return super().wrap_str_format(value)

    def get_template(self, *args: Any, **kwargs: Any) -> Any:
        if self._depth:
            self._includes += 1
            if self._includes > MAX_INCLUDES:
                raise SecurityError(f"more than {MAX_INCLUDES} includes in one render (a file including "
                                    "or extending itself?)")
        return super().get_template(*args, **kwargs)


class ProjectLoader(FileSystemLoader):
    """FileSystemLoader reading through :mod:`cardgen.core.sources`: an ``{% include %}`` that is a
    symlink out of the project, a FIFO or an oversized file is an error, never read."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        for folder in self.searchpath:
            path = Path(folder).joinpath(*split_template_path(template))
            if not (path.exists() or path.is_symlink()):
                continue
            try:
                text = sources.read_bytes(path).decode("utf-8")
            except sources.SourceError as e:
                raise TemplateError(e.message) from e
            except UnicodeDecodeError as e:
                raise TemplateError(f"{template} is not UTF-8 text") from e
            return text, str(path), lambda: True
        raise TemplateNotFound(template)


__all__ = ["BoundedSandbox", "ProjectLoader", "BoundedTemplate", "MAX_CALL_DEPTH", "MAX_INCLUDES", "MAX_INT_BITS",
           "MAX_RANGE", "MAX_STEPS", "MAX_TEXT"]
