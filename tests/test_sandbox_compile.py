"""The sandbox compiles each template source once per process and settings: the same text in a
new environment reuses the code; other settings, another file or a changed text compile anew;
a text that does not compile fails every time with its message."""

from __future__ import annotations

import jinja2
import pytest

from cardgen.core import sandbox
from cardgen.core.sandbox import BoundedSandbox


def env(**kw) -> BoundedSandbox:
    return BoundedSandbox(undefined=jinja2.StrictUndefined, autoescape=False, **kw)


def test_the_same_source_is_compiled_once_and_renders_alike():
    src = "{% for i in range(3) %}{{ card.name }}{{ i }} {% endfor %}"
    before = len(sandbox._CODE)
    a, b = env(), env()
    assert a.from_string(src).render(card={"name": "A"}) == "A0 A1 A2 "
    assert len(sandbox._CODE) == before + 1
    assert b.from_string(src).render(card={"name": "B"}) == "B0 B1 B2 "
    assert len(sandbox._CODE) == before + 1                    # reused by another environment
    assert a.compile(src) is b.compile(src)


def test_other_settings_a_changed_text_or_another_file_compile_anew():
    src = "{% if x %}\n  yes\n{% endif %}\n"
    plain, trimmed = env(), env(trim_blocks=True, lstrip_blocks=True)
    assert plain.from_string(src).render(x=1) == "\n  yes\n"
    assert trimmed.from_string(src).render(x=1) == "  yes\n"    # whitespace control is compiled in
    assert plain.compile(src + " ") is not plain.compile(src)
    assert plain.compile(src, "a.md", "/p/a.md") is not plain.compile(src, "a.md", "/q/a.md")


def test_a_source_that_does_not_compile_fails_every_time():
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError, match="unexpected"):
            env().from_string("{{ card.name ) }}")


def test_the_sandbox_still_holds_on_compiled_code():
    e = env()
    e.from_string("{{ range(5)|list }}").render()
    with pytest.raises(jinja2.exceptions.SecurityError):
        env().from_string("{{ range(10**7)|list }}").render()
    with pytest.raises(jinja2.exceptions.SecurityError):
        env().from_string("{{ ''.__class__.__mro__ }}").render()
