"""Strict readers for the JSON objects of the session file (unknown keys are an error)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RuleError


def obj(data: Any, what: str, required: set[str], optional: set[str] = frozenset()) -> dict:
    """Check that `data` is an object with exactly the allowed keys; return it as a dict."""
    if not isinstance(data, Mapping):
        raise RuleError(f"{what} must be an object, not {type_name(data)}")
    keys = set(data)
    unknown = sorted(keys - required - set(optional))
    if unknown:
        raise RuleError(f"{what} has unknown key {', '.join(repr(k) for k in unknown)}")
    missing = sorted(required - keys)
    if missing:
        raise RuleError(f"{what} is missing {', '.join(repr(k) for k in missing)}")
    return dict(data)


def whole(value: Any, what: str, *, low: int | None = 0, high: int | None = None) -> int:
    """A whole number within [low, high]; booleans and floats are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{what} must be a whole number, not {shown(value)}")
    if low is not None and value < low:
        raise RuleError(f"{what} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise RuleError(f"{what} must be at most {high}, not {value}")
    return value


def text(value: Any, what: str) -> str:
    """A non-empty string, stripped."""
    if not isinstance(value, str) or not value.strip():
        raise RuleError(f"{what} must be a non-empty text, not {shown(value)}")
    return value.strip()


def choice(value: Any, what: str, options: tuple[str, ...]) -> str:
    """One of a fixed set of words."""
    if value not in options:
        raise RuleError(f"{what} must be one of {', '.join(options)}, not {shown(value)}")
    return value


def flag(value: Any, what: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise RuleError(f"{what} must be true or false, not {shown(value)}")
    return value


def listing(value: Any, what: str) -> list:
    """A JSON list."""
    if not isinstance(value, list):
        raise RuleError(f"{what} must be a list, not {shown(value)}")
    return value


def mapping(value: Any, what: str) -> dict:
    """A JSON object with any keys."""
    if not isinstance(value, Mapping):
        raise RuleError(f"{what} must be an object, not {shown(value)}")
    return dict(value)


def type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a text", bool: "true/false",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), "a value")


def shown(value: Any) -> str:
    text_ = repr(value)
    return text_ if len(text_) <= 40 else text_[:37] + "..."
