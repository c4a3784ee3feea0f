"""The log checker's referee: one slip, one problem (:class:`ResyncReferee`), and the helpers an
engine calls to stay in step with a log that played on from a slip (plain equality under another
referee, as simulated play uses)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cardgen.core.problems import Loc, Problems
from cardgen.play.referee import Referee


def slip_settled(offsets: dict[Any, int], what: Hashable, stated: Any, computed: Any) -> bool:
    """Whether a stated value of ``what`` needs no report: the rules' value, or the value the game
    would have without the last slip of ``what`` (the table wrote one number wrong and played on
    from the right one: the replay comes back in step). A difference is remembered in
    ``offsets`` for the next statement of ``what``."""
    off = offsets.pop(what, None)
    if stated == computed:
        return True
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in (stated, computed))
    if numbers and off is not None and stated == computed - off:
        return True
    if numbers:
        offsets[what] = stated - computed
    return False


class ResyncReferee(Referee):
    """The checker's referee. One slip, one problem: after a stated number that differs from the
    rules' (reported, and applied as recorded), a later statement of the same quantity that is where
    the game would be without that slip brings the replay back in step with the log, silently
    (the table wrote one number wrong and played on from the right one)."""

    def __init__(self, problems: Problems, allowed: dict[str, str], strict: bool):
        super().__init__(problems, allowed, strict)
        self.offsets: dict[str, int] = {}

    def in_step(self, what: str, stated: Any, computed: Any) -> bool:
        """Whether a stated value of ``what`` needs no report (see :func:`slip_settled`)."""
        return slip_settled(self.offsets, what, stated, computed)

    def unslipped(self, what: str, value: Any) -> Any:
        """``value`` of ``what`` as it would be without its last slip (None when none is pending)."""
        off = self.offsets.get(what)
        return None if off is None or not isinstance(value, int) else value - off

    def claim(self, rule: str, what: str, stated: Any, computed: Any, loc: Loc | None) -> None:
        if stated is not None and not self.in_step(what, stated, computed):
            super().claim(rule, what, stated, computed, loc)


def unslipped(ref: Referee, what: str, value: Any) -> Any:
    """:meth:`ResyncReferee.unslipped` (None under another referee)."""
    return ref.unslipped(what, value) if isinstance(ref, ResyncReferee) else None


def diverged(ref: Referee, what: str, off: int) -> None:
    """An engine applied a slip as recorded that moved ``what`` by ``off`` from the rules' value
    without a statement of ``what`` itself (a wrong total, say): a later statement may come back."""
    if isinstance(ref, ResyncReferee) and off:
        ref.offsets[what] = ref.offsets.get(what, 0) + off


def back_in_step(ref: Referee, what: str) -> None:
    """An engine took ``what`` back to its value without the last slip (the log plays on with it)."""
    if isinstance(ref, ResyncReferee):
        ref.offsets.pop(what, None)


def in_step(ref: Referee, what: str, stated: Any, computed: Any) -> bool:
    """:meth:`ResyncReferee.in_step` for an engine's own statements (plain equality under another referee,
    as simulated play uses)."""
    return ref.in_step(what, stated, computed) if isinstance(ref, ResyncReferee) else stated == computed
